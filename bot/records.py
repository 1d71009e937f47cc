"""Records, ratings and leaderboards of finished matches (issue 6).

:class:`Records` is a :class:`~bot.tables.service.TableObserver`: when the table service reports a
finished match, the match is read back from the store and recorded in one transaction —
the match, one entry per participant, openskill ratings per variant family and the summary
lines (per scope: everything and each server; per bucket: all variants, the family, the
variant) that leaderboards and ``/domino stats`` read. Recording is idempotent, and
:meth:`Records.catch_up` records whatever finished while no observer was listening.

Participants: each person with all his seats (seven-seven: two), and each computer level on a
side as the pseudo-player ``computer:<level>`` (a negative player id). A seat a computer took
over after time-outs still belongs to its person. A computer level that plays on more than one
side of one match (it would win and lose at once) is recorded in the match but its rating and
figures are left alone.

Ratings: openskill's Plackett-Luce model over the sides of the match, ranked winner first, the
side that resigned last, the others by score (penalty: fewer points is better); equal scores and
drawn matches share a rank. Shown as ``1000 + 40 × ordinal`` (ordinal = mu − 3·sigma), so a
newcomer shows 1000.
"""

from __future__ import annotations

import logging
import math
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bot.i18n import tr
from bot.records_store import (
    ALL,
    GLOBAL,
    EntryRow,
    MatchSummaryRow,
    RecordsRepo,
    StatRow,
    StatsDelta,
)
from bot.store import HandResultRow, MatchRow, SeatRow, Store, TableRow
from bot.tables.service import TableInfo, TableObserver
from domino import Outcome, Ruleset

__all__ = [
    "ALL",
    "BUCKETS",
    "DEFAULT_FAMILY",
    "DEPARTED_GRACE",
    "FAMILIES",
    "GLOBAL",
    "LEADERBOARD_ORDERS",
    "HistoryItem",
    "LeaderRow",
    "LeaderboardPage",
    "MatchRecord",
    "NameSource",
    "Participant",
    "PlayerStats",
    "Rating",
    "Records",
    "build_record",
    "computer_id",
    "display_name",
    "display_rating",
    "family_of",
    "rate",
]

log = logging.getLogger(__name__)

FAMILIES: dict[str, tuple[str, ...]] = {
    "partnership": ("partners", "spanish", "venezuelan", "brazilian", "cuban", "seven-seven"),
    "two-player": ("draw", "two", "penalty"),
    "three-player": ("three",),
    "fives": ("all-fives",),  # scored at the ends: a skill of its own, whatever the seats
}
DEFAULT_FAMILY = "partnership"
BUCKETS: tuple[str, ...] = (ALL, *FAMILIES, *(v for vs in FAMILIES.values() for v in vs))
LEADERBOARD_ORDERS = ("rating", "wins")
PER_PAGE = 10
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
COMPUTER_IDS = {"easy": -1, "normal": -2, "hard": -3, "heaviest": -4}
SERIES_LIMIT = 200
DEPARTED_GRACE = 7 * 24 * 3600.0  # a server's data outlives the bot's removal this long

NameSource = Callable[[Sequence[int]], Awaitable[Mapping[int, str]]]
"""Public names (never a server nickname) of user ids; ids it cannot name are left out."""


def family_of(variant: str, ruleset: Ruleset | None = None) -> str:
    """The rating family of a variant (unknown variants: by their shape)."""
    for family, variants in FAMILIES.items():
        if variant in variants:
            return family
    if ruleset is not None:
        if ruleset.teams:
            return "partnership"
        if ruleset.seats == 3:
            return "three-player"
    return "two-player"


def computer_id(level: str) -> int:
    """The (negative) player id of the pseudo-player ``computer:<level>``."""
    known = COMPUTER_IDS.get(level)
    if known is not None:
        return known
    return -(1000 + zlib.crc32(level.encode()) % 1_000_000_000)


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate: mu − 3·sigma."""
    return mu - 3.0 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating people see: 1000 for a newcomer, 40 points per ordinal unit."""
    return display_ordinal(ordinal(mu, sigma))


def display_ordinal(value: float) -> int:
    """The rating people see for an ordinal (mu − 3·sigma)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


def display_name(locale: str | None, name: str, kind: str) -> str:
    """A stored player name as people should read it (computers: their level, translated)."""
    if kind == "computer":
        level = name.split(":", 1)[1] if name.startswith("computer:") else name
        return tr(locale, "Computer ({level})", level=tr(locale, level))
    return name or tr(locale, "a former player")


# ----------------------------------------------------------------------------- pure records


@dataclass(frozen=True, slots=True)
class Participant:
    """A person (with all his seats) or a computer level on one side of a match."""

    player_id: int
    name: str  # display name of a person; "computer:<level>" for a computer
    kind: str  # "human" | "computer"
    side: int
    seats: tuple[int, ...]
    result: str  # "win" | "loss" | "draw"
    rank: int  # 1 = best; equal ranks are ties
    points_for: int
    points_against: int
    hands_won: int
    dominoes: int
    blocks_won: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """Everything recorded about one finished match."""

    table_id: int
    guild_id: int | None
    variant: str
    family: str
    seats: int
    teams: bool
    people: int
    computers: int
    hands: int
    scores: tuple[int, ...]
    winner_side: int | None
    draw: bool
    reason: str
    started_at: float
    finished_at: float
    side_ranks: tuple[int, ...]
    participants: tuple[Participant, ...]
    seats_per_person: int = 1  # seven-seven: 2 (one person, or one computer, holds a team)

    @property
    def duration(self) -> float:
        return max(0.0, self.finished_at - self.started_at)

    def summary(self) -> MatchSummaryRow:
        return MatchSummaryRow(
            table_id=self.table_id,
            guild_id=self.guild_id,
            variant=self.variant,
            family=self.family,
            seats=self.seats,
            teams=self.teams,
            people=self.people,
            computers=self.computers,
            hands=self.hands,
            scores=self.scores,
            winner_side=self.winner_side,
            draw=self.draw,
            reason=self.reason,
            started_at=self.started_at,
            finished_at=self.finished_at,
            duration=self.duration,
        )


def _side_ranks(rs: Ruleset, scores: Sequence[int], outcome: Outcome) -> tuple[int, ...]:
    resigned = None if outcome.resigned_seat is None else rs.side_of(outcome.resigned_seat)
    sign = 1 if rs.scoring == "penalty" else -1

    def key(side: int) -> tuple[int, int, int]:
        return (int(side != outcome.winner_side), int(side == resigned), sign * scores[side])

    keys = sorted({key(s) for s in range(rs.sides)})
    return tuple(keys.index(key(s)) + 1 for s in range(rs.sides))


def build_record(
    table: TableRow,
    seats: Sequence[SeatRow],
    match: MatchRow,
    hands: Sequence[HandResultRow],
    names: Mapping[int, str] | None = None,
) -> MatchRecord:
    """The record of a finished match from its stored rows (raises ValueError if unfinished).

    With ``names``, people are recorded under those names (an unnamed person under ""), not
    the seat's name, which may be a server nickname.
    """
    if match.outcome is None or match.finished_at is None:
        raise ValueError(f"the match of table {table.id} has not finished")
    rs = Ruleset.from_dict(match.ruleset)
    outcome = Outcome(
        winner_side=match.outcome.get("winner_side"),
        draw=bool(match.outcome.get("draw")),
        reason=match.outcome.get("reason", "target"),
        resigned_seat=match.outcome.get("resigned_seat"),
    )
    results = [h.result for h in sorted(hands, key=lambda h: h.hand_number)]
    scores = [0] * rs.sides
    for r in results:
        for side, points in enumerate(r["points"]):
            scores[side] += points
    ranks = _side_ranks(rs, scores, outcome)

    groups: dict[tuple[int, int], dict[str, Any]] = {}
    for s in sorted(seats, key=lambda s: s.seat):
        side = rs.side_of(s.seat)
        if s.user_id is not None:
            pid, kind = s.user_id, "human"
            name = s.name if names is None else names.get(s.user_id, "")
        else:
            level = s.ai_level or "normal"
            pid, kind, name = computer_id(level), "computer", f"computer:{level}"
        group = groups.setdefault((pid, side), {"name": name, "kind": kind, "seats": []})
        group["seats"].append(s.seat)

    penalty = rs.scoring == "penalty"
    participants: list[Participant] = []
    for (pid, side), group in groups.items():
        own = tuple(group["seats"])
        won = [r for r in results if r.get("winner_side") == side]
        mine = sum(r["points"][side] for r in results)
        theirs = sum(sum(r["points"]) - r["points"][side] for r in results)
        if outcome.draw:
            result = "draw" if ranks[side] == 1 else "loss"
        else:
            result = "win" if side == outcome.winner_side else "loss"
        participants.append(
            Participant(
                player_id=pid,
                name=group["name"],
                kind=group["kind"],
                side=side,
                seats=own,
                result=result,
                rank=ranks[side],
                points_for=theirs if penalty else mine,
                points_against=mine if penalty else theirs,
                hands_won=len(won),
                dominoes=sum(
                    1 for r in results if r.get("kind") == "domino" and r.get("winner_seat") in own
                ),
                blocks_won=sum(1 for r in won if r.get("kind") == "block"),
            )
        )
    people = {s.user_id for s in seats if s.user_id is not None}
    return MatchRecord(
        table_id=table.id,
        guild_id=table.guild_id,
        variant=rs.id,
        family=family_of(rs.id, rs),
        seats=rs.seats,
        teams=rs.teams,
        people=len(people),
        computers=sum(1 for s in seats if s.user_id is None),
        hands=len(results),
        scores=tuple(scores),
        winner_side=outcome.winner_side,
        draw=outcome.draw,
        reason=outcome.reason,
        started_at=match.started_at,
        finished_at=match.finished_at,
        side_ranks=ranks,
        participants=tuple(participants),
        seats_per_person=max(1, rs.seats // max(1, rs.people)),
    )


def rate(
    record: MatchRecord,
    priors: dict[int, tuple[float, float]],
    model: PlackettLuce | None = None,
) -> dict[tuple[int, int], tuple[float, float] | None]:
    """New (mu, sigma) per (player id, side) after the match; None for a player left unrated.

    Players without a prior start at the model's default. A computer level seated twice on one
    side (not seven-seven, where one player holds a team) counts as two team members with the
    same prior and gets that update once.
    """
    model = model or PlackettLuce()
    sides = len(record.side_ranks)
    on_sides = Counter(p.player_id for p in record.participants)
    teams: list[list[Any]] = [[] for _ in range(sides)]
    slot: dict[tuple[int, int], tuple[int, int]] = {}
    default = model.rating()
    for p in record.participants:
        mu, sigma = priors.get(p.player_id, (default.mu, default.sigma))
        for _ in range(max(1, len(p.seats) // record.seats_per_person)):
            slot.setdefault((p.player_id, p.side), (p.side, len(teams[p.side])))
            teams[p.side].append(model.rating(mu=mu, sigma=sigma))
    present = [s for s in range(sides) if teams[s]]
    rated = model.rate([teams[s] for s in present], ranks=[record.side_ranks[s] for s in present])
    after = dict(zip(present, rated, strict=True))
    out: dict[tuple[int, int], tuple[float, float] | None] = {}
    for p in record.participants:
        if on_sides[p.player_id] > 1:
            out[(p.player_id, p.side)] = None
            continue
        side, index = slot[(p.player_id, p.side)]
        new = after[side][index]
        out[(p.player_id, p.side)] = (float(new.mu), float(new.sigma))
    return out


# ---------------------------------------------------------------------------- read models


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one family."""

    family: str
    mu: float
    sigma: float
    matches: int

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard page."""

    place: int
    player_id: int
    name: str
    kind: str
    rating: int | None  # display rating (rating leaderboards)
    matches: int
    wins: int
    losses: int
    draws: int
    best_streak: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a leaderboard and where it sits."""

    scope: int
    bucket: str
    by: str
    page: int  # 0-based, clamped to the pages there are
    pages: int  # at least 1
    total: int
    rows: tuple[LeaderRow, ...]
    viewer_place: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures: everything and one server, per bucket, and his ratings."""

    player_id: int
    name: str
    kind: str
    overall: dict[str, StatRow] = field(default_factory=dict)  # bucket -> line (scope global)
    server: dict[str, StatRow] = field(default_factory=dict)  # bucket -> line (one guild)
    ratings: dict[str, Rating] = field(default_factory=dict)  # family -> rating
    series: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # family -> (t, r)
    hidden: frozenset[int] = frozenset()  # the scopes whose leaderboards the player left

    @property
    def empty(self) -> bool:
        return not self.overall and not self.server


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One recorded match as seen by one of its participants."""

    table_id: int
    guild_id: int | None
    variant: str
    finished_at: float
    duration: float
    hands: int
    reason: str
    result: str
    rank: int
    side: int
    scores: tuple[int, ...]
    points_for: int
    points_against: int
    partners: tuple[tuple[str, str], ...]  # (name, kind)
    opponents: tuple[tuple[str, str], ...]
    rating_change: int | None  # display points won or lost (None: unrated)


# ------------------------------------------------------------------------------- the service


class Records(TableObserver):
    """Records finished matches and answers leaderboard, stats, history and privacy queries."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        model: PlackettLuce | None = None,
        names: NameSource | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.model = model or PlackettLuce()
        self.names = names

    @property
    def repo(self) -> RecordsRepo:
        """The records repository on the store's own connection (each call alone)."""
        return RecordsRepo(self.store.db)

    # -- recording ---------------------------------------------------------------------------

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        await self.record(table.id)

    async def record(self, table_id: int) -> bool:
        """Record the finished match of ``table_id``; False if recorded already or not finished."""
        table = await self.store.tables.get(table_id)
        match = await self.store.matches.get(table_id)
        if table is None or match is None or match.outcome is None or match.finished_at is None:
            return False
        seats = await self.store.seats.list(table_id)
        hands = await self.store.hand_results.list(table_id)
        names = await self._public_names([s.user_id for s in seats if s.user_id is not None])
        return await self.record_match(build_record(table, seats, match, hands, names))

    async def _public_names(self, user_ids: Sequence[int]) -> dict[int, str] | None:
        """Public names of people (from the name source, else as last recorded)."""
        if self.names is None:
            return None
        wanted = sorted(set(user_ids))
        try:
            found = dict(await self.names(wanted))
        except Exception:
            log.exception("the players' public names could not be read")
            found = {}
        for uid in wanted:
            if not found.get(uid):
                known = await self.repo.player_name(uid)
                found[uid] = known[0] if known is not None else ""
        return found

    async def record_match(self, record: MatchRecord) -> bool:
        """Write ``record`` in one transaction; False (and nothing changed) if already there."""
        now = self.clock()
        async with self.store.transaction() as tx:
            repo = RecordsRepo(tx.db)
            await repo.lock()
            if await repo.is_recorded(record.table_id):
                return False
            pids = [p.player_id for p in record.participants]
            priors = await repo.ratings(pids, record.family)
            updates = rate(record, priors, self.model)
            hidden = await repo.hidden_scopes(
                p.player_id for p in record.participants if p.kind == "human"
            )
            await repo.add_match(record.summary(), now=now)
            scopes = [GLOBAL] if record.guild_id is None else [GLOBAL, record.guild_id]
            buckets = ((ALL, None), (record.family, record.family), (record.variant, record.family))
            default = self.model.rating()
            for p in record.participants:
                before = priors.get(p.player_id, (default.mu, default.sigma))
                after = updates[(p.player_id, p.side)]
                await repo.add_entry(_entry(record, p, before, after))
                await repo.put_player(p.player_id, p.name, p.kind, now=now)
                if after is None:
                    continue
                await repo.put_rating(p.player_id, record.family, *after, now=now)
                delta = StatsDelta(
                    win=p.result == "win",
                    loss=p.result == "loss",
                    draw=p.result == "draw",
                    hands_won=p.hands_won,
                    dominoes=p.dominoes,
                    blocks_won=p.blocks_won,
                    points_for=p.points_for,
                    points_against=p.points_against,
                )
                left = hidden.get(p.player_id, set())
                lines = [(s, b, f, s in left) for s in scopes for b, f in buckets]
                await repo.add_stats(p.player_id, lines, delta, at=record.finished_at)
                await repo.set_stat_ratings(p.player_id, record.family, ordinal(*after))
        return True

    async def catch_up(self, batch: int = 500) -> int:
        """Record every finished match not recorded yet (after a crash); returns how many."""
        done = 0
        while True:
            ids = await self.repo.unrecorded_finished(batch)
            if not ids:
                return done
            progressed = False
            for table_id in ids:
                try:
                    if await self.record(table_id):
                        done += 1
                        progressed = True
                except Exception:
                    log.exception("table %s: the finished match could not be recorded", table_id)
            if not progressed:
                return done

    # -- privacy -----------------------------------------------------------------------------

    async def set_privacy(self, user_id: int, scope: int, hidden: bool) -> None:
        """Leave (``hidden``) or rejoin the leaderboards of ``scope`` (0: global, else a guild)."""
        async with self.store.transaction() as tx:
            await RecordsRepo(tx.db).set_hidden(user_id, scope, hidden, now=self.clock())

    async def hidden_scopes(self, user_id: int) -> set[int]:
        """The scopes whose leaderboards ``user_id`` left."""
        return (await self.repo.hidden_scopes([user_id])).get(user_id, set())

    async def rename(self, user_id: int, name: str) -> None:
        """A person's public name changed (or was first seen since start): keep the latest."""
        await self.repo.rename(user_id, name, now=self.clock())

    async def forget(self, user_id: int) -> int:
        """Remove a person's name and ids from every stored record; returns his alias.

        His matches stay, played by "a former player" (the alias), so nobody else's history
        or rating changes. End his open tables first: they are left alone.
        """
        async with self.store.transaction() as tx:
            repo = RecordsRepo(tx.db)
            await repo.lock()
            alias = await repo.new_alias()
            await repo.forget(user_id, alias)
        log.info("a player asked to be forgotten: done")
        return alias

    # -- servers the bot left ------------------------------------------------------------

    async def guild_left(self, guild_id: int) -> None:
        """The bot was removed from a server: its data goes after the grace period."""
        await self.repo.guild_left(guild_id, now=self.clock())

    async def guild_back(self, guild_id: int) -> None:
        """The bot is on the server (again): keep its data."""
        await self.repo.guild_back(guild_id)

    async def known_guilds(self) -> set[int]:
        """Every server some per-server data belongs to."""
        return await self.repo.known_guilds()

    async def sweep_departed(self, grace: float = DEPARTED_GRACE) -> list[int]:
        """Drop the data of servers the bot left more than ``grace`` seconds ago."""
        dropped = await self.repo.departed_before(self.clock() - grace)
        for guild_id in dropped:
            async with self.store.transaction() as tx:
                await RecordsRepo(tx.db).drop_guild(guild_id)
        if dropped:
            log.info("dropped the data of %d server(s) the bot left", len(dropped))
        return dropped

    # -- reading -----------------------------------------------------------------------------

    async def leaderboard(
        self,
        *,
        scope: int = GLOBAL,
        bucket: str = ALL,
        by: str = "rating",
        page: int = 0,
        per_page: int = PER_PAGE,
        viewer_id: int | None = None,
    ) -> LeaderboardPage:
        """A page of a leaderboard. Ranking by rating over 'all' ranks the default family."""
        if by not in LEADERBOARD_ORDERS:
            raise ValueError(f"by must be one of {LEADERBOARD_ORDERS}")
        if bucket not in BUCKETS:
            raise ValueError(f"unknown variant or family {bucket!r}")
        if by == "rating" and bucket == ALL:
            bucket = DEFAULT_FAMILY
        repo = self.repo
        total = await repo.leaderboard_size(scope, bucket, by)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(page, 0), pages - 1)
        rows = await repo.leaderboard(scope, bucket, by, limit=per_page, offset=page * per_page)
        place = None
        if viewer_id is not None:
            place = await repo.position(scope, bucket, by, viewer_id)
        lines = tuple(
            LeaderRow(
                place=page * per_page + i + 1,
                player_id=r.player_id,
                name=r.name,
                kind=r.kind,
                rating=None if r.rating is None else display_ordinal(r.rating),
                matches=r.matches,
                wins=r.wins,
                losses=r.losses,
                draws=r.draws,
                best_streak=r.best_streak,
            )
            for i, r in enumerate(rows)
        )
        return LeaderboardPage(scope, bucket, by, page, pages, total, lines, place)

    async def stats(
        self,
        player_id: int,
        *,
        guild_id: int | None = None,
        viewer_id: int | None = None,
        series: bool = True,
    ) -> PlayerStats:
        """A player's figures overall and on ``guild_id``.

        Someone else (``viewer_id`` ≠ ``player_id``) sees only the scopes the player did not
        leave, and his ratings (global by nature: one per family, over every server, with their
        curves) only if he did not leave the global leaderboards.
        """
        repo = self.repo
        hidden = await self.hidden_scopes(player_id)
        left = hidden if viewer_id is not None and viewer_id != player_id else set()
        scopes = [GLOBAL] if guild_id is None else [GLOBAL, guild_id]
        scopes = [s for s in scopes if s not in left]
        lines = await repo.player_stats(player_id, scopes, BUCKETS)
        known = await repo.player_name(player_id)
        name, kind = known if known is not None else ("", "human")
        overall = {r.bucket: r for r in lines if r.scope == GLOBAL}
        server = {r.bucket: r for r in lines if r.scope != GLOBAL}
        ratings: dict[str, Rating] = {}
        curves: dict[str, list[tuple[float, float]]] = {}
        if lines and GLOBAL not in left:
            for family, (mu, sigma, n) in (await repo.player_ratings(player_id)).items():
                ratings[family] = Rating(family, mu, sigma, n)
                if series:
                    points = await repo.rating_series(player_id, family, limit=SERIES_LIMIT)
                    curves[family] = [(t, display_rating(m, s)) for t, m, s in points]
        return PlayerStats(
            player_id, name, kind, overall, server, ratings, curves, frozenset(hidden)
        )

    async def history(
        self,
        player_id: int,
        *,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[HistoryItem]:
        """The player's latest recorded matches, newest first (with ``guild_id``: there only)."""
        repo = self.repo
        mine = await repo.recent_entries(player_id, limit=limit, offset=offset, guild_id=guild_id)
        ids = [e.table_id for e in mine]
        everyone = await repo.entries_of(ids)
        summaries = await repo.matches(ids)
        items: list[HistoryItem] = []
        for e in mine:
            m = summaries.get(e.table_id)
            if m is None:
                continue
            others = [
                o
                for o in everyone
                if o.table_id == e.table_id and (o.player_id, o.side) != (e.player_id, e.side)
            ]
            partners = tuple((o.name, o.kind) for o in others if o.side == e.side)
            opponents = tuple((o.name, o.kind) for o in others if o.side != e.side)
            change = None
            if e.rated:
                change = display_rating(e.mu_after, e.sigma_after) - display_rating(
                    e.mu_before, e.sigma_before
                )
            items.append(
                HistoryItem(
                    table_id=e.table_id,
                    guild_id=m.guild_id,
                    variant=m.variant,
                    finished_at=e.finished_at,
                    duration=m.duration,
                    hands=m.hands,
                    reason=m.reason,
                    result=e.result,
                    rank=e.rank,
                    side=e.side,
                    scores=m.scores,
                    points_for=e.points_for,
                    points_against=e.points_against,
                    partners=partners,
                    opponents=opponents,
                    rating_change=change,
                )
            )
        return items


def _entry(
    record: MatchRecord,
    p: Participant,
    before: tuple[float, float],
    after: tuple[float, float] | None,
) -> EntryRow:
    mu_after, sigma_after = after if after is not None else before
    return EntryRow(
        table_id=record.table_id,
        player_id=p.player_id,
        side=p.side,
        seats=p.seats,
        name=p.name,
        kind=p.kind,
        result=p.result,
        rank=p.rank,
        points_for=p.points_for,
        points_against=p.points_against,
        hands_won=p.hands_won,
        dominoes=p.dominoes,
        blocks_won=p.blocks_won,
        rated=after is not None,
        mu_before=before[0],
        sigma_before=before[1],
        mu_after=mu_after,
        sigma_after=sigma_after,
        family=record.family,
        finished_at=record.finished_at,
    )
