"""What the pages show, read from the bot's database (never written to).

:class:`Reader` opens the database read-only on first use (and again after it failed), reads
through the bot's repositories and services, and decides what may be shown:

- a server's pages exist only while its managers have them on;
- a finished, recorded match of such a server has a page, if it was played where the server's
  @everyone role could look (not a staff channel, nor a private thread); a running one never
  does, nor one of another place (a 404 like an unknown match);
- a person who left this server's or the global leaderboards, or asked to be forgotten, has
  no page, and match pages name him "a player" (forgotten: "a former player"). Our decision:
  the web is public, so leaving either board keeps a person off it;
- a person's page on a server counts only that server's public matches (his results,
  ratings and achievements there), and exists only if he played one;
- names are the global names the records hold, never a server nickname.

Any failure of the database becomes :class:`~bot.store.DatabaseUnavailable` (the 503 page).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.achievements.catalogue import BY_CODE
from bot.achievements.store import Earned
from bot.records.board_sql import board_minimum
from bot.records.boards import PeriodBoard, PeriodBoards
from bot.records.rating import display_rating
from bot.records.record import (
    ALL,
    FAMILIES,
    GLOBAL,
    SLOW_FAMILIES,
    MatchRecord,
    computer_level,
    family_of,
)
from bot.records.seasons import SEASON, SeasonCalendar
from bot.records.seasons_service import SeasonBoard, Seasons
from bot.records.service import (
    LeaderboardPage,
    PlayerStats,
    Rating,
    Records,
    versus_levels,
)
from bot.records.store import RecordsRepo, StatRow
from bot.store import SQLITE, DatabaseUnavailable, Db, Store
from bot.store.table_extras import Readable
from bot.tournaments.service import EventState, event_ruleset
from bot.tournaments.store import EventRow, TournamentRepo
from bot.web.positions import Replay, positions
from bot.web.queries import (
    KeptPlayer,
    PublicEntry,
    RecentMatch,
    WebRepo,
    WebServer,
    open_read_only,
)

__all__ = ["Ending", "MatchPage", "PlayerPage", "Reader", "Seat", "thinned"]

log = logging.getLogger(__name__)

RETRY_AFTER = 1.0  # seconds before a database that failed to open is tried again
REPLAYS_KEPT = 64  # finished matches whose positions are kept in memory
RECENT = 20  # matches on a server's page
FRESH = 5.0  # seconds a server's recent matches (not their names) are kept
HISTORY = 15  # matches on a player's page (the database keeps a person's 20 latest: 0946)
CURVE_LATEST = 24  # a rating curve's latest points, all shown (then thinned: migration 0945)
TOURNAMENTS = 10  # tournaments on a server's page


@dataclass(frozen=True, slots=True)
class Seat:
    """A participant as a page names him."""

    table_id: int
    player_id: int
    name: str  # recorded global name ("" once forgotten)
    kind: str
    shown: bool  # False: he left the leaderboards (named "a player", no page)
    side: int
    seats: tuple[int, ...]
    result: str


@dataclass(frozen=True, slots=True)
class MatchPage:
    """A finished match of a server with pages."""

    server: WebServer
    record: MatchRecord
    seats: tuple[Seat, ...]  # participants, by side
    hands: tuple[dict[str, Any], ...]  # each hand's result, in order
    discord_url: str | None = None  # where it was played (its review and exercises are there)
    ending: Ending | None = None  # how the match ended (None: not known)
    event: EventRow | None = None  # the public tournament whose board it was


@dataclass(frozen=True, slots=True)
class Ending:
    """How a finished match ended: its reason (``target``: a side reached the points to win;
    ``hands``: the set number of hands was played; ``resign``; ``time``: a side lost on time
    at ``timeouts`` time-outs in a row), the seat that resigned or lost on time, the rules'
    target or number of hands, and the seats a computer took over after too many
    time-outs."""

    reason: str
    resigned_seat: int | None
    target: int | None
    hands: int | None
    taken_over: tuple[int, ...] = ()
    timeouts: int = 0


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A person on a server's leaderboards."""

    server: WebServer
    stats: PlayerStats
    history: tuple[RecentMatch, ...]  # latest first
    achievements: tuple[Earned, ...] = ()  # latest first
    curves: Mapping[str, str] = field(default_factory=dict)  # his chart's, by family: CURVE


_DB_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, TimeoutError)
with contextlib.suppress(ImportError):
    import asyncpg

    _DB_ERRORS = (*_DB_ERRORS, asyncpg.PostgresError, asyncpg.InterfaceError)


class _Kept:
    """Answers the pages of one server share (its recent matches), never a name. One is read
    again once ``fresh`` seconds old, and meanwhile still served, up to ``fresh`` seconds
    more, so that no reader waits for it; readers who find none (or one too old) wait
    together for one reading of it."""

    def __init__(
        self, clock: Callable[[], float], fresh: float, timeout: float, size: int = 4096
    ) -> None:
        self.clock = clock
        self.fresh = fresh
        self.timeout = timeout
        self.size = size
        self._found: dict[Any, tuple[float, Any]] = {}
        self._reading: dict[Any, asyncio.Future[Any]] = {}

    async def get(self, key: Any, read: Callable[[], Awaitable[Any]]) -> Any:
        """The answer kept for ``key``, else the one ``read`` gives."""
        found = self._found.get(key)
        if found is not None:
            age = self.clock() - found[0]
            if age <= self.fresh:
                return found[1]
            if age <= 2 * self.fresh:
                self._read(key, read)  # read again for the next readers
                return found[1]
        return await asyncio.shield(self._read(key, read))

    def _read(self, key: Any, read: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(self._keep(key, read))
            reading.add_done_callback(_retrieved)
            self._reading[key] = reading
        return reading

    async def _keep(self, key: Any, read: Callable[[], Awaitable[Any]]) -> Any:
        try:
            async with asyncio.timeout(self.timeout):
                value = await read()
            if self.fresh > 0:
                if len(self._found) >= self.size:
                    self._found.clear()
                self._found[key] = (self.clock(), value)
            return value
        finally:
            del self._reading[key]


def _retrieved(reading: asyncio.Future[Any]) -> None:
    """A reading nobody waited for (a renewal) that failed: the next reader tries again."""
    if not reading.cancelled():
        reading.exception()


SIZES_KEPT = 4096  # boards' lengths kept for their pages


class _KeptSizes(RecordsRepo):
    """The records' repository, each board's length kept under the stamp it was read with
    (a rating board with a minimum of matches counts its lines: one count for its pages)."""

    __slots__ = ("_sizes", "_stamp")

    def __init__(self, db: Db, sizes: dict[tuple[object, ...], int], stamp: object) -> None:
        super().__init__(db)
        self._sizes = sizes
        self._stamp = stamp

    async def leaderboard_size(self, scope: int, bucket: str, by: str, least: int = 1) -> int:
        key = (scope, bucket, by, least, self._stamp)
        found = self._sizes.get(key)
        if found is None:
            found = await super().leaderboard_size(scope, bucket, by, least)
            if len(self._sizes) >= SIZES_KEPT:
                self._sizes.clear()
            self._sizes[key] = found
        return found


class _SizedRecords(Records):
    """The records' service reading boards through :class:`_KeptSizes`."""

    def __init__(self, store: Store, sizes: dict[tuple[object, ...], int], stamp: object) -> None:
        super().__init__(store)
        self._sizes = sizes
        self._stamp = stamp

    @property
    def repo(self) -> RecordsRepo:
        return _KeptSizes(self.store.db, self._sizes, self._stamp)


class Reader:
    """The pages' read-only access to the bot's database."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        fresh: float = FRESH,
        seasons: SeasonCalendar | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.seasons = seasons or SeasonCalendar()
        self.now = now  # the date: which week, month and season are running
        self._kept = _Kept(clock, fresh, timeout)
        self._sizes: dict[tuple[object, ...], int] = {}
        self._under_stamp: dict[tuple[object, ...], Any] = {}  # see :meth:`_stamped`
        self.timeout = timeout
        self.clock = clock
        self._store: Store | None = None
        self._opening = asyncio.Lock()
        self._failed_at: float | None = None
        self._replays: collections.OrderedDict[int, asyncio.Future[Replay]] = (
            collections.OrderedDict()
        )

    async def close(self) -> None:
        if self._store is not None:
            await self._store.close()
            self._store = None

    async def _open(self) -> Store:
        if self._store is not None:
            return self._store
        async with self._opening:
            if self._store is None:
                if self._failed_at is not None and self.clock() - self._failed_at < RETRY_AFTER:
                    raise DatabaseUnavailable("the database did not answer a moment ago")
                try:
                    self._store = await asyncio.wait_for(open_read_only(self.url), self.timeout)
                except (DatabaseUnavailable, *_DB_ERRORS) as exc:
                    self._failed_at = self.clock()
                    log.warning("the database cannot be read: %s", exc)
                    raise DatabaseUnavailable(str(exc)) from exc
                self._failed_at = None
            return self._store

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[Store]:
        """The store, for one page's reads; a failure or a time-out is DatabaseUnavailable."""
        store = await self._open()
        try:
            if store.dialect == SQLITE:  # its statements interrupt themselves (no timer)
                yield store
            else:
                async with asyncio.timeout(self.timeout):
                    yield store
        except DatabaseUnavailable:
            raise
        except _DB_ERRORS as exc:
            log.warning("the database did not answer: %r", exc)
            raise DatabaseUnavailable(type(exc).__name__) from exc

    # -- servers ---------------------------------------------------------------------------

    async def _stamped(
        self, key: tuple[object, ...], stamp: tuple[object, ...] | None,
        read: Callable[[], Awaitable[Any]],
    ) -> Any:
        """What ``read`` gives, kept while ``stamp`` (read for this request before it) is
        the database's: a server's settings the pages show move it (its pages on or off, its
        name; its board minimum moves its own stamp). Without a stamp, read every time."""
        if stamp is None:
            return await read()
        key = (*key, stamp)
        if key in self._under_stamp:
            return self._under_stamp[key]
        value = await read()
        if len(self._under_stamp) >= SIZES_KEPT:
            self._under_stamp.clear()
        self._under_stamp[key] = value
        return value

    async def server(
        self, guild_id: int, stamp: tuple[object, ...] | None = None
    ) -> WebServer | None:
        """The server, if its pages are on (with ``stamp``: the database's, kept under it)."""

        async def read() -> WebServer | None:
            async with self.reading() as store:
                return await WebRepo(store.db).server(guild_id)

        found: WebServer | None = await self._stamped(
            ("server", guild_id), None if stamp is None else stamp[:1], read
        )
        return found

    async def _minimum(self, store: Store, guild_id: int, stamp: tuple[object, ...] | None) -> int:
        """The server's rating boards' minimum of matches (kept under the request's stamp,
        the server's own included: its managers changing it moves that)."""

        async def read() -> int:
            return await board_minimum(store.db, guild_id)

        found: int = await self._stamped(("minimum", guild_id), stamp, read)
        return found

    async def leaderboard(
        self,
        guild_id: int,
        bucket: str,
        by: str,
        page: int,
        per_page: int,
        stamp: tuple[object, ...] | None = None,
    ) -> LeaderboardPage:
        """A page of the server's all-time board; with ``stamp`` (the database's and the
        server's, read for this request), the board's length is counted once for all its
        pages while the stamp holds (it moves with each match recorded there, a line left
        off or put back, its minimum changed)."""
        async with self.reading() as store:
            records = Records(store) if stamp is None else _SizedRecords(
                store, self._sizes, stamp
            )
            least = await self._minimum(store, guild_id, stamp) if by == "rating" else 1
            return await records.leaderboard(
                scope=guild_id, bucket=bucket, by=by, page=page, per_page=per_page, least=least
            )

    async def period_board(
        self, guild_id: int, bucket: str, kind: str, page: int, per_page: int,
        by: str = "rating", stamp: tuple[object, ...] | None = None,
    ) -> PeriodBoard | SeasonBoard:
        """The server's board of the running week, month or season (``kind``; a season's
        ``by`` its rating or by wins, a week and a month by wins); ``stamp``: as for
        :meth:`leaderboard` (the season's minimum kept under it)."""
        async with self.reading() as store:
            if kind == SEASON:
                least = await self._minimum(store, guild_id, stamp) if by == "rating" else 1
                return await Seasons(store, self.seasons, clock=self.now).board(
                    scope=guild_id, bucket=bucket, page=page, per_page=per_page, by=by,
                    least=least, marks=True,
                )
            return await PeriodBoards(store, clock=self.now, seasons=self.seasons).board(
                scope=guild_id, period=kind, bucket=bucket, page=page, per_page=per_page,
                marks=True,
            )

    @staticmethod
    def marks(
        board: LeaderboardPage | PeriodBoard | SeasonBoard,
    ) -> tuple[frozenset[int], frozenset[int]]:
        """The people of a board's page who left this server's or the global boards (the
        pages name them "a player") and those whose rating is provisional (a week's or
        month's board has none), read with the board's lines."""
        if isinstance(board, LeaderboardPage):
            return (
                frozenset(r.player_id for r in board.rows if r.left),
                frozenset(r.player_id for r in board.rows if r.provisional),
            )
        if isinstance(board, SeasonBoard):
            return board.left, board.provisional
        return board.left, frozenset()

    async def recent_matches(self, guild_id: int) -> tuple[MatchRecord, ...]:
        """The server's latest matches (kept a few seconds), without their people."""
        async with self.reading() as store:
            repo = RecordsRepo(store.db)

            async def read() -> tuple[MatchRecord, ...]:
                return tuple(await repo.recent_matches(Readable.public(guild_id), limit=RECENT))

            found: tuple[MatchRecord, ...] = await self._kept.get(("recent", guild_id), read)
            return found

    async def recent(
        self, guild_id: int, matches: tuple[MatchRecord, ...] | None = None
    ) -> list[tuple[MatchRecord, tuple[Seat, ...]]]:
        """The server's latest matches (or ``matches``, read by :meth:`recent_matches`) with
        their participants (the matches are kept a few seconds; names and who may be named
        are read every time, so that forget-me and leaving the boards show at once)."""
        if matches is None:
            matches = await self.recent_matches(guild_id)
        async with self.reading() as store:
            seats = await self._seats(store, [m.table_id for m in matches], guild_id)
        return [(m, tuple(s for s in seats if s.table_id == m.table_id)) for m in matches]

    @staticmethod
    async def _seats(store: Store, table_ids: Sequence[int], guild_id: int) -> list[Seat]:
        """The matches' participants, each shown unless he left this server's or the global
        boards (one read)."""
        found = await RecordsRepo(store.db).entries_left(table_ids, (GLOBAL, guild_id))
        return [
            Seat(
                e.table_id,
                e.player_id,
                e.name,
                e.kind,
                e.kind == "computer" or not left,
                e.side,
                e.seats,
                e.result,
            )
            for e, left in found
        ]

    # -- matches ---------------------------------------------------------------------------

    async def match(
        self, table_id: int, stamp: tuple[object, ...] | None = None
    ) -> MatchPage | None:
        """A recorded match of a server with pages (None otherwise; ``stamp``: the
        database's, read for this request, under which the server's settings are kept)."""
        async with self.reading() as store:
            read = await WebRepo(store.db).match(table_id)
            if read is None or read.record.guild_id is None:
                return None
            record, found = read.record, read.place
            if not found.public_place:
                return None  # played where the server's @everyone could not look
            server = await self.server(record.guild_id, stamp)
            if server is None:
                return None
            event = None
            if found.tournament_id is not None:
                event = await self._event_of(store, found.tournament_id, server.guild_id)
        seats = tuple(
            Seat(
                table_id, p.player_id, p.name, p.kind, p.kind == "computer" or not p.left,
                p.side, p.seats, p.result,
            )
            for p in read.participants
        )
        ending = None
        if found.outcome is not None:
            outcome, rules = found.outcome, found.ruleset
            ending = Ending(
                str(outcome.get("reason") or record.reason),
                outcome.get("resigned_seat"),
                rules.get("target"),
                rules.get("hands"),
                found.taken_over,
                int(outcome.get("timeouts") or 0),
            )
        return MatchPage(
            server,
            record,
            seats,
            read.hands,
            f"https://discord.com/channels/{record.guild_id}/{found.place}" if found.place
            else None,
            ending,
            event,
        )

    @staticmethod
    async def _event_of(store: Store, event_id: int, guild_id: int) -> EventRow | None:
        """The server's tournament ``event_id``, if public."""
        event = await TournamentRepo(store.db).get(event_id)
        if event is None or event.guild_id != guild_id or not event.public_place:
            return None
        return event

    async def replay(self, table_id: int) -> Replay:
        """Every position of a finished match (kept: a finished match never changes; readers
        asking for one at the same time share one rebuilding)."""
        task = self._replays.get(table_id)
        if task is None or (task.done() and task.exception() is not None):
            task = asyncio.ensure_future(self._rebuild(table_id))
            self._replays[table_id] = task
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        else:
            self._replays.move_to_end(table_id)
        return await asyncio.shield(task)

    async def _rebuild(self, table_id: int) -> Replay:
        async with self.reading() as store:
            match = await store.matches.get(table_id)
            actions = await store.actions.list(table_id)
        if match is None or match.outcome is None:
            raise LookupError(table_id)
        return await asyncio.to_thread(positions, match, actions)

    # -- players ---------------------------------------------------------------------------

    async def player(self, server: WebServer, player_id: int) -> PlayerPage | None:
        """A person's page on a server's pages (None unless he has one: see
        :meth:`WebRepo.person`). It counts only the server's public matches: his results
        there, his rating after each rated one, his achievements earned in them. One
        statement (:meth:`WebRepo.person`)."""
        if player_id <= 0:
            return None  # computers and forgotten people
        guild_id = server.guild_id

        async with self.reading() as store:
            web = WebRepo(store.db)
            found = await web.person(guild_id, player_id, HISTORY)
            if found is None:
                return None
            stats, history, curves = await kept_figures(
                web, guild_id, player_id, found.name, found.kept
            )
        if not stats.server:
            return None
        shown = tuple(e for e in found.achievements if e.code in BY_CODE)
        return PlayerPage(server, stats, history, shown, curves)

    async def with_pages(self, guild_id: int, player_ids: Sequence[int]) -> frozenset[int]:
        """Those of ``player_ids`` who have a page on the server's pages."""
        async with self.reading() as store:
            return await WebRepo(store.db).with_pages(guild_id, player_ids)

    # -- tournaments -----------------------------------------------------------------------

    async def tournaments(self, guild_id: int) -> list[EventRow]:
        """The server's latest public tournaments (kept a few seconds, like its recent
        matches: only their names, variants and states are shown)."""
        async with self.reading() as store:
            repo = TournamentRepo(store.db)

            async def read() -> list[EventRow]:
                return await repo.public_events(guild_id, limit=TOURNAMENTS)

            found: list[EventRow] = await self._kept.get(("events", guild_id), read)
            return found

    async def tournament(
        self, server: WebServer, event_id: int
    ) -> tuple[EventState, Mapping[int, str]] | None:
        """A tournament of the server (its entries, rounds and boards) and the names its
        people go by on the pages: the global name the records hold, never the server
        nickname the event stored; "" for those who left this server's or the global
        leaderboards, were forgotten, or have no recorded name yet (named "a player", or "a
        former player" once forgotten)."""
        async with self.reading() as store:
            repo = TournamentRepo(store.db)
            event = await repo.get(event_id)
            if event is None or event.guild_id != server.guild_id or not event.public_place:
                return None
            entries = tuple(await repo.entries(event_id))
            state = EventState(
                event=event,
                entries=entries,
                rounds=tuple(await repo.rounds(event_id)),
                boards=tuple(await repo.boards(event_id)),
                checked_in=frozenset(),
                present=frozenset(),
                ruleset=event_ruleset(event),
            )
            people = [m for e in entries for m in e.members if m > 0]
            hidden = await RecordsRepo(store.db).hidden_scopes(people)
            names = await WebRepo(store.db).global_names(people)
        left = {p for p, scopes in hidden.items() if scopes & {GLOBAL, server.guild_id}}
        return state, {p: "" if p in left else names.get(p, "") for p in people}


#: The order a person's lines are listed in: every variant, then each family followed by its
#: variants, as the server's board menu lists them.
NATURAL_ORDER = (
    ALL, *(b for family, variants in FAMILIES.items() for b in (family, *variants)), *SLOW_FAMILIES
)


def _ordered(found: Mapping[str, Any]) -> list[str]:
    """The keys of ``found`` in :data:`NATURAL_ORDER` (any other after them, sorted)."""
    return [b for b in NATURAL_ORDER if b in found] + sorted(set(found) - set(NATURAL_ORDER))


async def kept_figures(
    web: WebRepo, guild_id: int, player_id: int, name: str, kept: KeptPlayer | None = None
) -> tuple[PlayerStats, tuple[RecentMatch, ...], dict[str, str]]:
    """A person's figures in a server's public matches (his curves apart, as the database
    writes them: :data:`~bot.web.queries.CURVE`) and his latest matches there, as the
    database keeps them (migrations 0943, 0945, 0946: a few rows read by key, however long
    his history), from ``kept`` when it was read with his page."""
    if kept is None:
        kept = await web.kept_player(guild_id, player_id, HISTORY)
    found = {str(r[0]): r for r in kept.lines}
    lines = {
        b: StatRow(guild_id, b, player_id, *map(int, found[b][1:12]), None,
                   float(found[b][12]), name, "human")
        for b in _ordered(found)
    }
    rated = {str(r[0]): r for r in kept.ratings}
    ratings = {f: Rating(f, float(rated[f][1]), float(rated[f][2]), int(rated[f][3]))
               for f in _ordered(rated)}
    levels: dict[str, list[int]] = {}
    for computer, *results in kept.versus:
        figures = levels.setdefault(computer_level(str(computer)), [0, 0, 0])
        for i, n in enumerate(results):
            figures[i] += int(n)
    against = versus_levels(levels)
    stats = PlayerStats(player_id, name, "human", server=lines, ratings=ratings,
                        versus=against, versus_server=against)
    return stats, tuple(kept.recent), kept.curves


def curve_texts(series: Mapping[str, Sequence[tuple[float, float]]]) -> dict[str, str]:
    """Curves of (moment, rating shown) written as the database writes them for the chart
    (:data:`~bot.web.queries.CURVE`)."""
    return {
        family: " ".join(f"{math.floor(t)},{round(r)}" for t, r in points)
        for family, points in series.items()
    }


T = TypeVar("T")


def thinned(points: Sequence[T]) -> list[T]:
    """The points of a rating curve its chart shows, as the database keeps them (migration
    0945): of n, the first, and the k-th while n - k < :data:`CURVE_LATEST` times the
    largest power of two dividing k (the latest all; before them every 2nd, then every 4th,
    ..., each for twice as long), so that a long history stays about a hundred points."""
    n = len(points)
    return [p for k, p in enumerate(points, 1) if k == 1 or n - k < CURVE_LATEST * (k & -k)]


def public_stats(
    guild_id: int,
    player_id: int,
    name: str,
    entries: Sequence[PublicEntry],
    versus: Sequence[tuple[str, str]],
) -> PlayerStats:
    """A person's figures from his entries in a server's public matches (oldest first) and
    his results against each computer level there: a line per bucket, and per family the
    rating after his latest rated match and its curve."""
    tally: dict[str, list[int]] = {}
    fields = ("matches", "wins", "losses", "draws", "hands_won", "dominoes", "blocks_won",
              "points_for", "points_against", "streak", "best_streak")
    last: dict[str, float] = {}
    ratings: dict[str, Rating] = {}
    series: dict[str, list[tuple[float, float]]] = {}
    for e in entries:
        win = e.result == "win"
        slow = e.family in SLOW_FAMILIES  # a correspondence match: its own family's board
        for bucket in {ALL, e.family} if slow else {ALL, family_of(e.variant), e.variant}:
            t = tally.setdefault(bucket, [0] * len(fields))
            t[0] += 1
            t[1] += win
            t[2] += e.result == "loss"
            t[3] += e.result == "draw"
            t[4] += e.hands_won
            t[5] += e.dominoes
            t[6] += e.blocks_won
            t[7] += e.points_for
            t[8] += e.points_against
            t[9] = t[9] + 1 if win else 0
            t[10] = max(t[10], t[9])
            last[bucket] = e.finished_at
        if e.rated:
            before = ratings.get(e.family)
            ratings[e.family] = Rating(
                e.family, e.mu_after, e.sigma_after, 1 + (before.matches if before else 0)
            )
            series.setdefault(e.family, []).append(
                (e.finished_at, display_rating(e.mu_after, e.sigma_after))
            )
    lines = {
        bucket: StatRow(guild_id, bucket, player_id, *tally[bucket], None, last[bucket], name,
                        "human")
        for bucket in _ordered(tally)
    }
    ratings = {f: ratings[f] for f in _ordered(ratings)}
    levels: dict[str, list[int]] = {}
    for computer, result in versus:
        figures = levels.setdefault(computer_level(computer), [0, 0, 0])
        figures[("win", "loss", "draw").index(result)] += 1
    against = versus_levels(levels)
    return PlayerStats(
        player_id,
        name,
        "human",
        server=lines,
        ratings=ratings,
        series={f: thinned(points) for f, points in series.items()},
        versus=against,
        versus_server=against,
    )
