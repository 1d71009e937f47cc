"""Seasons' ratings, boards and finishes.

:func:`record_season` rates a match again on the season's own ratings, inside the transaction
that records it (:meth:`bot.records.service.Records.record_match`). :class:`Seasons` answers a
season's board (best season rating first: the ordinal mu − 3·sigma; people equal on it share
a place), a person's current season and best past finish for ``/domino stats``, and the
champions (top three) a season's end announces. Computers, practice matches, former players and
people who left a scope's boards are not listed; the all-time ratings are not touched.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.records.board_sql import PROVISIONAL_SIGMA, board_minimum, ranked_page
from bot.records.periods import Period
from bot.records.rating import ordinal, rate
from bot.records.record import (
    ALL,
    BUCKETS,
    DEFAULT_FAMILY,
    FAMILIES,
    GLOBAL,
    SLOW_FAMILIES,
    MatchRecord,
)
from bot.records.seasons import SeasonCalendar, soft_reset
from bot.records.seasons_store import (
    BOARD,
    WINS_BOARD,
    SeasonLine,
    SeasonRepo,
    WinnerRole,
    read_line,
)
from bot.records.store import FORMER_PLAYERS
from bot.store import Store
from bot.store.connection import Db

__all__ = [
    "PER_PAGE",
    "Finish",
    "SeasonBoard",
    "Seasons",
    "family_of_bucket",
    "record_season",
]

PER_PAGE = 10
PODIUM = 3
CHAMPION = "season"  # the winner role's kind of the seasons' champions
TOURNAMENT = "tournament"  # the winner role's kind of the winners of a server's tournament


def family_of_bucket(bucket: str) -> str:
    """The family a season board of ``bucket`` ranks ('all': the default family)."""
    if bucket == ALL:
        return DEFAULT_FAMILY
    if bucket in FAMILIES or bucket in SLOW_FAMILIES:
        return bucket
    for family, variants in FAMILIES.items():
        if bucket in variants:
            return family
    raise ValueError(f"unknown variant or family {bucket!r}")


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """One page of a season's board of a family."""

    scope: int
    family: str
    period: Period
    number: int
    page: int
    pages: int
    total: int
    rows: tuple[SeasonLine, ...]
    viewer: SeasonLine | None = None
    by: str = "rating"  # or "wins" (then the season's rating)
    least: int = 1  # the fewest matches of a listed person (by rating: the minimum)
    left: frozenset[int] = frozenset()  # those who left the boards (asked with ``marks``)
    provisional: frozenset[int] = frozenset()  # season ratings provisional (with ``marks``)


@dataclass(frozen=True, slots=True)
class Finish:
    """A person's place on a season's board (global scope) of a family."""

    period: Period
    number: int
    family: str
    place: int
    total: int
    rating: float


async def record_season(
    db: Db,
    calendar: SeasonCalendar,
    record: MatchRecord,
    priors: Mapping[int, tuple[float, float]],
    rated: set[int],
    model: PlackettLuce,
    *,
    now: float,
) -> None:
    """Rate ``record`` on its season's ratings (inside the recording transaction, ``db`` its
    statement runner). ``priors`` are the all-time ratings it started from (idle weeks counted),
    ``rated`` the player ids the all-time rating rated."""
    if not rated:
        return
    season = calendar.season_of(record.finished_at).key
    repo = SeasonRepo(db)
    pids = [p.player_id for p in record.participants]
    start = model.rating()
    found = await repo.ratings(season, record.family, pids)
    season_priors = {
        pid: found.get(pid)
        or soft_reset(
            *priors.get(pid, (start.mu, start.sigma)), start_mu=start.mu, start_sigma=start.sigma
        )
        for pid in pids
    }
    updates = rate(record, season_priors, model)
    scopes = [GLOBAL] if record.guild_id is None else [GLOBAL, record.guild_id]
    for p in record.participants:
        after = updates.get((p.player_id, p.side))
        former = p.kind == "human" and p.player_id < FORMER_PLAYERS
        if after is None or former or p.player_id not in rated:
            continue
        await repo.put_rating(season, record.family, p.player_id, *after, now=now)
        if p.kind == "human":
            await repo.add_line(
                season,
                record.family,
                p.player_id,
                scopes,
                result=p.result,
                rating=ordinal(*after),
                at=record.finished_at,
            )


class Seasons:
    """Season boards, a person's seasons, and the champions of a season."""

    def __init__(
        self,
        store: Store,
        calendar: SeasonCalendar | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.calendar = calendar or SeasonCalendar()
        self.clock = clock

    @property
    def repo(self) -> SeasonRepo:
        return SeasonRepo(self.store.db)

    def current(self, now: float | None = None) -> Period:
        return self.calendar.season_of(self.clock() if now is None else now)

    async def board(
        self,
        *,
        scope: int,
        bucket: str = ALL,
        period: Period | None = None,
        page: int = 0,
        per_page: int = PER_PAGE,
        viewer_id: int | None = None,
        least: int | None = None,
        by: str = "rating",
        marks: bool = False,
    ) -> SeasonBoard:
        """A page of a season's board (the current season if ``period`` is None) of the family
        of ``bucket`` (raises ValueError for an unknown one); ``least``: the fewest matches of
        a listed line (None: the scope's minimum, :func:`~bot.records.board_sql.board_minimum`,
        by rating); ``by``: ``rating`` or ``wins`` (then rating); ``marks``: read who of the
        page left this scope's or the global boards and whose season rating is provisional
        with it."""
        if by not in ("rating", "wins"):
            raise ValueError(f"unknown order {by!r}")
        if bucket not in BUCKETS:
            raise ValueError(f"unknown variant or family {bucket!r}")
        family = family_of_bucket(bucket)
        period = period or self.current()
        if least is None:
            least = await board_minimum(self.store.db, scope) if by == "rating" else 1
        found = await ranked_page(
            self.store.db,
            BOARD if by == "rating" else WINS_BOARD,
            (period.key, scope, family),
            read=read_line,
            figures=(lambda x: (x.rating,)) if by == "rating" else (lambda x: (x.wins, x.rating)),
            page=page,
            per_page=per_page,
            viewer_id=viewer_id,
            least=least,
            left_of=scope if marks else None,
            flag=(
                "EXISTS (SELECT 1 FROM season_ratings g WHERE g.season = ? AND g.family = ?"
                " AND g.player_id = page.player_id AND g.sigma > ?)",
                (period.key, family, PROVISIONAL_SIGMA),
            ) if marks else None,
        )
        number = self.calendar.number_of(period)
        return SeasonBoard(
            scope, family, period, number, found.page, found.pages, found.total, found.rows,
            found.viewer, by, least, found.left, found.flagged,
        )

    async def standing(self, player_id: int, scope: int = GLOBAL) -> list[Finish]:
        """The person's place in the current season, per family he played in it."""
        current = self.current()
        repo, out = self.repo, []
        for line in await repo.lines_of(player_id, scope):
            if line.season != current.key:
                continue
            ahead = await repo.ahead(line.season, scope, line.family, line.rating)
            total = await repo.size(line.season, scope, line.family)
            number = self.calendar.number_of(current)
            out.append(Finish(current, number, line.family, ahead + 1, total, line.rating))
        return out

    async def best_finish(self, player_id: int) -> Finish | None:
        """His best final place on a past season's global board (ties: the latest season).

        Our decision: a season's final places are ranked once, at the first question after
        its end, and kept: who leaves the boards or is forgotten later moves nobody's finish.
        """
        current = self.current()
        repo = self.repo
        played = {
            (line.season, line.family)
            for line in await repo.lines_of(player_id, GLOBAL)
            if (p := self.calendar.by_key(line.season)) is not None and p.end <= current.start
        }
        for season, family in sorted(played - await repo.finals_done(played)):
            async with self.store.transaction() as tx:
                await SeasonRepo(tx.db).rank_finals(season, family)
        best = await repo.best_final(player_id)
        period = None if best is None else self.calendar.by_key(best[0])
        if best is None or period is None:
            return None
        _, family, place, total, rating = best
        return Finish(period, self.calendar.number_of(period), family, place, total, rating)

    async def rank_ended(self) -> int:
        """Rank the final places of the season that ended last, if not yet (each family's
        global board once); returns how many boards were ranked now."""
        last = self.calendar.previous(self.current())
        keys = {(last.key, family) for family in FAMILIES}
        todo = sorted(keys - await self.repo.finals_done(keys))
        for season, family in todo:
            async with self.store.transaction() as tx:
                await SeasonRepo(tx.db).rank_finals(season, family)
        return len(todo)

    async def podium(self, period: Period, scope: int) -> dict[str, tuple[SeasonLine, ...]]:
        """The top three of each family's board of ``scope`` in ``period`` (people equal on
        rating share a place, so a podium may hold more)."""
        out: dict[str, tuple[SeasonLine, ...]] = {}
        for family in await self.repo.families(period.key, scope):
            board = await self.board(
                scope=scope, bucket=family, period=period, per_page=PODIUM + 3, least=1
            )
            top = tuple(r for r in board.rows if r.place <= PODIUM)
            if top:
                out[family] = top
        return out

    # -- the champions' role (and a tournament's winners': ``kind``) ------------------------

    async def champion_role(self, guild_id: int, kind: str = CHAMPION) -> WinnerRole | None:
        """The server's role for its season champions (or ``kind``'s winners), if it chose
        one."""
        return await self.repo.winner_role(guild_id, kind)

    async def set_champion_role(
        self, guild_id: int, role_id: int | None, *, by: int, kind: str = CHAMPION
    ) -> None:
        """Choose the champions' role (None: none)."""
        async with self.store.transaction() as tx:
            await SeasonRepo(tx.db).set_winner_role(
                guild_id, kind, role_id, by=by, now=self.clock()
            )

    async def role_problem(self, guild_id: int, problem: str, kind: str = CHAMPION) -> bool:
        """Note why the role could not be given ("" when it was); True if that is news."""
        async with self.store.transaction() as tx:
            return await SeasonRepo(tx.db).note_problem(guild_id, kind, problem)

    async def crowned(self, guild_id: int, kind: str = CHAMPION) -> set[int]:
        """Who holds the champions' role because the bot gave it."""
        return await self.repo.holders(guild_id, kind)

    async def crown(self, guild_id: int, user_ids: set[int], kind: str = CHAMPION) -> None:
        """They hold the role now (and nobody else by the bot's hand)."""
        async with self.store.transaction() as tx:
            await SeasonRepo(tx.db).set_holders(guild_id, kind, user_ids, now=self.clock())
