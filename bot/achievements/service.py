"""Achievements: awarded with each recorded match, back-filled for matches recorded before,
read for ``/domino achievements``, ``/domino stats``, the match-end post and the web.

:func:`award_match` runs inside the transaction that records a match
(:meth:`Records.record_match <bot.records.service.Records.record_match>`), after the match's
figures are written: the match's moments (:func:`~bot.achievements.rules.match_codes`) and the
thresholds its figures crossed (:func:`~bot.achievements.rules.tally_codes`). Practice matches,
computers and forgotten people earn nothing.

:meth:`Achievements.backfill` computes the same rows for every match recorded before: the
moments of each match not read yet (one transaction per match, marked read with its awards),
then the thresholds from every person's rated matches in order. Rows are written so that any
order of recording and back-fill, a second run or a run cut short and run again end with the
same rows: each achievement stays with the earliest match that earned it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.achievements.catalogue import ACHIEVEMENTS, BY_CODE, CODES, PODIUM, VARIANTS
from bot.achievements.rules import Moments, Tally, match_codes, moments_of, tally_codes
from bot.achievements.store import AchievementRepo, Earned
from bot.records.record import ALL, GLOBAL, MatchRecord, Participant
from bot.records.store import RecordsRepo
from bot.store import Store
from bot.store.connection import Db
from bot.tournaments.store import PlaceRow, TournamentRepo
from domino import Ruleset

__all__ = ["Achievements", "Backfill", "Board", "award_match", "people_of", "podium_awards"]

log = logging.getLogger(__name__)

BATCH = 200
PODIUM_PLACES = 3  # the places of a podium (a knockout's semi-final losers share third)


def people_of(record: MatchRecord) -> list[Participant]:
    """The participants who can earn: people with their own id (not forgotten, not computers)."""
    return [p for p in record.participants if p.kind == "human" and p.player_id > 0]


async def _tally_after(db: Db, player_id: int) -> Tally:
    """A person's figures over his rated matches, as the records hold them now."""
    lines = await RecordsRepo(db).player_stats(player_id, [GLOBAL], [ALL, *VARIANTS])
    total = next((r for r in lines if r.bucket == ALL), None)
    if total is None:
        return Tally(0, 0, 0, frozenset())
    played = frozenset(r.bucket for r in lines if r.bucket != ALL and r.matches > 0)
    return Tally(total.matches, total.wins, total.streak, played)


def _before(after: Tally, result: str, variant: str, first_of_variant: bool) -> Tally:
    """The tally before the match that made ``after``."""
    win = result == "win"
    return Tally(
        after.matches - 1,
        after.wins - int(win),
        after.streak - 1 if win else 0,
        after.variants - {variant} if first_of_variant else after.variants,
    )


async def award_match(db: Db, record: MatchRecord, moments: Moments | None) -> list[Earned]:
    """Award what a rated match earned its people (call inside its recording transaction,
    after its figures are written); returns the rows written."""
    rows: list[Earned] = []
    for p in people_of(record):
        codes: set[str] = set()
        if moments is not None:
            codes |= match_codes(record, moments, p)
        after = await _tally_after(db, p.player_id)
        if after.matches:
            lines = await RecordsRepo(db).player_stats(p.player_id, [GLOBAL], [record.variant])
            first = bool(lines) and lines[0].matches == 1
            codes |= tally_codes(_before(after, p.result, record.variant, first), after)
        rows += [
            Earned(p.player_id, c, record.table_id, record.guild_id, record.finished_at)
            for c in sorted(codes)
        ]
    repo = AchievementRepo(db)
    await repo.award(rows)
    if moments is not None:
        await repo.scanned(record.table_id)
    return rows


def podium_awards(places: Sequence[PlaceRow]) -> list[Earned]:
    """The podium achievement of each person an event's final places put on its podium (not
    a forgotten person's alias), earned when the event ended; its ``table_id`` is the event's
    id made negative (no match has it), so the podium post names it, never a match's post."""
    return [
        Earned(p.user_id, PODIUM, -p.tournament_id, p.guild_id, p.finished_at)
        for p in places
        if p.place <= PODIUM_PLACES and p.user_id > 0
    ]


@dataclass(frozen=True, slots=True)
class Backfill:
    """What a back-fill run did."""

    matches_read: int
    rows: int  # achievements written: new, or moved to an earlier match


@dataclass(frozen=True, slots=True)
class Board:
    """A person's achievements: those he earned (latest first) and how many people hold each."""

    earned: tuple[Earned, ...]
    holders: dict[str, int]

    @property
    def codes(self) -> set[str]:
        return {e.code for e in self.earned}

    @property
    def latest(self) -> Earned | None:
        return self.earned[0] if self.earned else None

    @property
    def missing(self) -> list[str]:
        """The achievements he does not have, in the catalogue's order."""
        have = self.codes
        return [a.code for a in ACHIEVEMENTS if a.code not in have]


class Achievements:
    """Reads achievements and back-fills them for matches recorded before."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def repo(self) -> AchievementRepo:
        return AchievementRepo(self.store.db)

    async def board(self, player_id: int) -> Board:
        """A person's achievements and how many people hold each one."""
        earned = [e for e in await self.repo.of_player(player_id) if e.code in BY_CODE]
        return Board(tuple(earned), await self.repo.holders())

    async def of_table(self, table_id: int) -> list[Earned]:
        """What the match of ``table_id`` earned (the people's first time)."""
        return [e for e in await self.repo.of_table(table_id) if e.code in CODES]

    # -- the back-fill -------------------------------------------------------------------------

    async def backfill(self, *, batch: int = BATCH) -> Backfill:
        """Award the achievements of every recorded match (idempotent: run it any time)."""
        read = written = 0
        after = 0
        while True:
            ids = await self.repo.unscanned(after, batch)
            if not ids:
                break
            for table_id in ids:
                written += await self._scan(table_id)
                read += 1
            after = ids[-1]
        written += await self._thresholds(batch)
        written += await self._podiums(batch)
        return Backfill(read, written)

    async def _podiums(self, batch: int) -> int:
        """The podium achievement from every finished event's stored final places."""
        written = 0
        after = (0, 0)
        while rows := await TournamentRepo(self.store.db).podium_finishes(after, limit=batch):
            async with self.store.transaction() as tx:
                await RecordsRepo(tx.db).lock()
                written += await AchievementRepo(tx.db).award(podium_awards(rows))
            after = (rows[-1].tournament_id, rows[-1].user_id)
        return written

    async def _scan(self, table_id: int) -> int:
        """Read one recorded match's moments and award them, in one transaction."""
        async with self.store.transaction() as tx:
            await RecordsRepo(tx.db).lock()  # one writer of records at a time
            repo = AchievementRepo(tx.db)
            record = await _recorded(tx.db, table_id)
            match = await tx.matches.get(table_id)
            rows: list[Earned] = []
            changed = 0
            if record is not None and match is not None:
                moments = moments_of(
                    Ruleset.from_dict(match.ruleset),
                    match.seed,
                    match.deal,
                    await tx.actions.list(table_id),
                )
                for p in people_of(record):
                    rows += [
                        Earned(p.player_id, c, table_id, record.guild_id, record.finished_at)
                        for c in sorted(match_codes(record, moments, p))
                    ]
                changed = await repo.award(rows)
            await repo.scanned(table_id)
        return changed

    async def _thresholds(self, batch: int) -> int:
        """The thresholds every person crossed, from his rated matches in order."""
        tallies: dict[int, Tally] = {}
        position: tuple[float, int, int] = (-1.0, -1, -1)
        written = 0
        empty = Tally(0, 0, 0, frozenset())
        while True:
            lines = await self.repo.rated_entries(position, batch)
            if not lines:
                return written
            rows: list[Earned] = []
            for line in lines:
                before = tallies.get(line.player_id, empty)
                after = before.after(line.result, line.variant)
                tallies[line.player_id] = after
                rows += [
                    Earned(line.player_id, c, line.table_id, line.guild_id, line.finished_at)
                    for c in sorted(tally_codes(before, after))
                ]
            last = lines[-1]
            position = (last.finished_at, last.table_id, last.player_id)
            if rows:
                async with self.store.transaction() as tx:
                    await RecordsRepo(tx.db).lock()
                    written += await AchievementRepo(tx.db).award(rows)


async def _recorded(db: Db, table_id: int) -> MatchRecord | None:
    """A recorded match with its participants, as recorded (forgotten people under their
    alias; practice: unrated people)."""
    repo = RecordsRepo(db)
    found = (await repo.matches([table_id])).get(table_id)
    if found is None:
        return None
    entries = await repo.entries_of([table_id])
    if any(e.kind == "human" and not e.rated for e in entries):
        return None  # a practice match earns nothing
    people = tuple(
        Participant(
            player_id=e.player_id,
            name=e.name,
            kind=e.kind,
            side=e.side,
            seats=e.seats,
            result=e.result,
            rank=e.rank,
            points_for=e.points_for,
            points_against=e.points_against,
            hands_won=e.hands_won,
            dominoes=e.dominoes,
            blocks_won=e.blocks_won,
        )
        for e in entries
    )
    return dataclasses.replace(found, participants=people)

