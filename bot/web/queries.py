"""The web companion's reading of the database: opened read-only, and its own few queries.

The pages read through the same repositories as the bot (:class:`~bot.records.store.
RecordsRepo`, :class:`~bot.tournaments.store.TournamentRepo`, the store's hand results, the
replay's action log); :class:`WebRepo` holds the statements only the pages need. Nothing here
writes: SQLite is opened with ``mode=ro`` and ``query_only``, PostgreSQL sessions with
``default_transaction_read_only`` (on top of the read-only role ``docs/web.md`` describes).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import operator
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from bot.achievements.store import Earned
from bot.records.rating import DISPLAY_BASE, DISPLAY_SCALE
from bot.records.record import ALL, GLOBAL, MatchRecord
from bot.records.store import _MATCH_COLUMNS, _match
from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_path
from bot.store import POSTGRES, SQLITE, DatabaseUnavailable, Db, Store
from bot.store.connection import PostgresDriver, Row, _greatest, split_sqlite_script
from bot.store.schema import schema_version
from bot.store.table_extras import Readable

__all__ = [
    "WEB_SCHEMA",
    "KeptPlayer",
    "MatchPlace",
    "MatchRead",
    "Participant",
    "PersonPage",
    "PublicEntry",
    "RecentMatch",
    "WebRepo",
    "WebServer",
    "open_read_only",
    "read_only_url",
]

WEB_SCHEMA = 948  # the last migration the pages need (the boards' kept lengths: 0947, 0948)

@dataclass(frozen=True, slots=True)
class WebServer:
    """A server whose managers turned its pages on."""

    guild_id: int
    name: str


@dataclass(frozen=True, slots=True)
class PublicEntry:
    """A person's part in one public match of a server, as his page there counts it."""

    table_id: int
    variant: str
    family: str
    result: str
    hands_won: int
    dominoes: int
    blocks_won: int
    points_for: int
    points_against: int
    rated: bool
    mu_after: float
    sigma_after: float
    finished_at: float


@dataclass(frozen=True, slots=True)
class RecentMatch:
    """One of a person's latest public matches of a server, as his page lists it."""

    table_id: int
    variant: str
    result: str
    points_for: int
    points_against: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class KeptPlayer:
    """What the database keeps of a person on a server's pages (:meth:`WebRepo.kept_player`):
    rows of (bucket, matches, wins, losses, draws, hands won, dominoes, blocks won, points
    for and against, streak, best streak, last match), of (family, mu, sigma, rated
    matches), of (computer's recorded name, wins, losses, draws); his curves by family (see
    :data:`CURVE`); his latest matches, newest first."""

    lines: list[tuple[Any, ...]]
    ratings: list[tuple[Any, ...]]
    versus: list[tuple[Any, ...]]
    curves: dict[str, str]
    recent: list[RecentMatch]


def read_only_url(url: str) -> str:
    """A PostgreSQL URL whose sessions refuse every write."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "default_transaction_read_only"]
    query.append(("default_transaction_read_only", "on"))
    return urlunsplit(parts._replace(query=urlencode(query)))


async def open_read_only(url: str) -> Store:
    """Open the bot's database for reading only; refused when it is missing or older than the
    pages (the bot migrates it: the pages never do)."""
    scheme = url.partition(":")[0].lower()
    if scheme in POSTGRES_SCHEMES:
        import asyncpg

        try:
            driver: PostgresDriver | ReadOnlySqlite = await PostgresDriver.open(
                read_only_url(url)
            )
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            raise DatabaseUnavailable(
                f"cannot open the PostgreSQL database {redact_url(url)}: {type(exc).__name__}"
            ) from exc
    else:
        driver = await _open_sqlite(sqlite_path(url) if "://" in url else Path(url))
    try:
        version = await schema_version(driver)
        needed = await driver.db.fetchval(
            "SELECT count(*) FROM schema_version WHERE version = ?", (WEB_SCHEMA,)
        )
    except Exception as exc:
        await driver.close()
        raise DatabaseUnavailable(f"the database {redact_url(url)} has no tables yet") from exc
    if version < WEB_SCHEMA or not needed:  # a later migration may be there without it
        await driver.close()
        raise DatabaseUnavailable(
            f"the database {redact_url(url)} is older than the pages: start the bot once to"
            " bring it up to date"
        )
    return Store(driver)


async def _open_sqlite(path: Path) -> ReadOnlySqlite:
    if not path.is_file():
        raise DatabaseUnavailable(f"there is no SQLite database at {path}")
    return ReadOnlySqlite(_connect(path), path)


def _connect(path: Path, *, other_thread: bool = False) -> sqlite3.Connection:
    """A read-only connection to the SQLite file (``other_thread``: for the one thread that
    runs the long reads, :class:`_Aside`)."""
    try:
        conn = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None,
            check_same_thread=not other_thread,
        )
    except sqlite3.Error as exc:
        raise DatabaseUnavailable(f"cannot open the SQLite database {path}: {exc}") from exc
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {READ_BUSY_MS}")
        conn.execute("PRAGMA query_only = ON")
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        conn.create_function("greatest", -1, _greatest, deterministic=True)
    except BaseException:
        conn.close()
        raise
    return conn


#: How long a statement of the pages may run before it is interrupted (a 503 page), and how
#: long one waits for a lock (a reader of a WAL database waits only in rare moments).
STATEMENT_SECONDS = 1.0
#: The pages' own page cache of the SQLite file (KiB, per connection): the boards' and the
#: matches' indexes' upper levels stay decoded between pages (SQLite's default is 2 MiB).
CACHE_KIB = 65536
READ_BUSY_MS = 200


class _InlineDb:
    """The pages' statements, each run at once on the event loop's thread.

    The pages only read, by index, a few rows at a time (a millisecond or less), and a reader
    of a WAL database does not wait for the bot's writes. A trip to a worker thread and back
    (aiosqlite's way) cost more than that, in hand-overs of the interpreter's lock that made
    every page wait. A statement still running after ``STATEMENT_SECONDS`` is interrupted.
    """

    dialect = SQLITE
    __slots__ = ("_conn", "_seconds", "_until")

    def __init__(self, conn: sqlite3.Connection, seconds: float = STATEMENT_SECONDS) -> None:
        self._conn = conn
        self._seconds = seconds
        self._until = 0.0
        conn.set_progress_handler(self._late, 20_000)

    def _late(self) -> bool:
        return time.monotonic() > self._until

    def _run(self, sql: str, params: Sequence[Any]) -> sqlite3.Cursor:
        self._until = time.monotonic() + self._seconds
        return self._conn.execute(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._run(sql, params).rowcount  # a write is refused (query_only)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._until = time.monotonic() + self._seconds
        self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._run(sql, params).fetchall()

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._run(sql, params).fetchone()
        return row

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self._run(sql, params).fetchone()
        return None if row is None else row[0]

    async def run_script(self, script: str) -> None:
        for statement in split_sqlite_script(script):
            await self.execute(statement)

    async def run_batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        for sql, params in statements:
            await self.execute(sql, params)


T = TypeVar("T")
#: How long a long read aside (:class:`_Aside`) may run before it is interrupted.
ASIDE_SECONDS = 5.0


class _Aside:
    """One thread with its own connection and event loop for the few reads that grow with a
    person's history (his page reads every public match he played on the server, tens of
    thousands for the most active): run there, they leave the pages' event loop free to
    serve the other pages meanwhile. One at a time, in the order asked."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._db: _InlineDb | None = None

    def _start(self) -> tuple[asyncio.AbstractEventLoop, _InlineDb]:
        if self._loop is None or self._db is None:
            self._conn = _connect(self._path, other_thread=True)
            self._db = _InlineDb(self._conn, ASIDE_SECONDS)
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._loop.run_forever, name="pages-aside", daemon=True
            )
            self._thread.start()
        return self._loop, self._db

    async def run(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """``work`` done on the aside connection, in its thread."""
        loop, db = self._start()
        done = asyncio.run_coroutine_threadsafe(_awaited(work, db), loop)
        return await asyncio.wrap_future(done)

    def close(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()
        if self._conn is not None:
            self._conn.close()
        self._loop = self._thread = self._conn = self._db = None


async def _awaited(work: Callable[[Db], Awaitable[T]], db: Db) -> T:
    return await work(db)


class ReadOnlySqlite:
    """A SQLite database opened read-only (``mode=ro``, ``query_only``) for the pages, its
    statements run on the event loop's thread (:class:`_InlineDb`), the long reads of
    :meth:`aside` in a thread of their own."""

    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self.url = f"sqlite:///{path.as_posix()}"
        self.db: Db = _InlineDb(conn)
        self._aside = _Aside(path)

    async def aside(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """``work`` (reads that may take long) done on a connection of its own in another
        thread, the event loop serving other pages meanwhile."""
        return await self._aside.run(work)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Db]:
        """One snapshot for several reads."""
        self._conn.execute("BEGIN")
        try:
            yield self.db
        finally:
            self._conn.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def locked(self, key: int) -> AsyncIterator[None]:
        yield  # nothing to hold: the pages never write

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        await self.db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )  # refused: the database is opened read-only

    async def stream(self, sql: str, batch: int = 5000) -> AsyncIterator[list[Row]]:
        cursor = self._conn.execute(sql)
        try:
            while rows := cursor.fetchmany(batch):
                yield rows
        finally:
            cursor.close()

    async def close(self) -> None:
        await asyncio.to_thread(self._aside.close)
        self._conn.close()


_RECORD_COLUMNS = ", ".join(f"r.{c.strip()}" for c in _MATCH_COLUMNS.split(","))
_RECORD_WIDTH = _MATCH_COLUMNS.count(",") + 1


@dataclass(frozen=True, slots=True)
class MatchPlace:
    """Where a recorded match was played and how it was set: its table's channel or thread
    and whether the server's @everyone could look there, its rules and outcome (None: not
    kept), the tournament whose board it was (None: none) and the seats a computer took over
    after too many time-outs, in the order it did."""

    public_place: bool
    place: int | None
    ruleset: dict[str, Any]
    outcome: dict[str, Any] | None
    tournament_id: int | None
    taken_over: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Participant:
    """A participant of a recorded match as its page reads him, with whether he left this
    server's or the global boards."""

    player_id: int
    side: int
    seats: tuple[int, ...]
    name: str
    kind: str
    result: str
    left: bool


@dataclass(frozen=True, slots=True)
class MatchRead:
    """A recorded match as its page reads it: the record, where and how it was played, its
    participants (by side, then person) and each hand's result (in order)."""

    record: MatchRecord
    place: MatchPlace
    participants: tuple[Participant, ...]
    hands: tuple[dict[str, Any], ...]


class WebRepo:
    """The statements only the pages need."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def server(self, guild_id: int) -> WebServer | None:
        """The server, if its managers turned its pages on."""
        row = await self._db.fetchone(
            "SELECT web, web_name FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None or not row[0]:
            return None
        return WebServer(guild_id, str(row[1] or ""))

    async def match(self, table_id: int) -> MatchRead | None:
        """A recorded match with its table's place, rules, outcome, tournament board, seats
        taken over, participants and hands (None without a record or a table): one
        statement."""
        if self._db.dialect == SQLITE:
            joined, entries, seats = "group_concat", "json_group_array(json_array", "json(e.seats)"
            result = "json(h.result)"
        else:
            joined, entries, seats = "string_agg", "json_agg(json_build_array", "e.seats::json"
            result = "h.result::json"
        # each take-over as the number seq * 64 + seat (a table has at most four seats), each
        # hand as [number, result], ordered here: an aggregate's order is the dialect's
        row = await self._db.fetchone(
            f"SELECT {_RECORD_COLUMNS}, t.public_place, t.thread_id, t.channel_id, m.ruleset,"
            " m.outcome,"
            " (SELECT b.tournament_id FROM tournament_boards b WHERE b.table_id = t.id),"
            f" (SELECT {joined}(CAST(a.seq * 64 + a.seat AS TEXT), ',')"
            " FROM actions a WHERE a.table_id = t.id AND a.made_by = 'takeover'),"
            f" (SELECT {entries}(e.player_id, e.side, {seats}, e.name, e.kind, e.result,"
            " EXISTS (SELECT 1 FROM record_privacy v WHERE v.user_id = e.player_id"
            " AND v.scope IN (?, r.guild_id))))"
            " FROM record_entries e WHERE e.table_id = r.table_id),"
            f" (SELECT {entries}(h.hand_number, {result}))"
            " FROM hand_results h WHERE h.table_id = r.table_id)"
            " FROM record_matches r JOIN tables t ON t.id = r.table_id"
            " LEFT JOIN matches m ON m.table_id = r.table_id WHERE r.table_id = ?",
            (GLOBAL, table_id),
        )
        if row is None:
            return None
        n = _RECORD_WIDTH
        takeovers = sorted(divmod(int(x), 64) for x in (row[n + 6] or "").split(",") if x)
        place = MatchPlace(
            bool(row[n]),
            int(row[n + 1] or row[n + 2] or 0) or None,
            json.loads(row[n + 3]) if row[n + 3] else {},
            None if row[n + 4] is None else json.loads(row[n + 4]),
            None if row[n + 5] is None else int(row[n + 5]),
            tuple(dict.fromkeys(seat for _, seat in takeovers)),
        )
        people = sorted(json.loads(row[n + 7] or "[]"), key=lambda e: (e[1], e[0]))
        hands = sorted(json.loads(row[n + 8] or "[]"), key=lambda h: h[0])
        return MatchRead(
            _match(row[:n]),
            place,
            tuple(
                Participant(int(p), int(side), tuple(s), str(name), str(kind), str(res), bool(left))
                for p, side, s, name, kind, res, left in people
            ),
            tuple(h[1] for h in hands),
        )

    async def global_names(self, player_ids: Sequence[int]) -> dict[int, str]:
        """The global names the records hold of people (never a server nickname); those
        never recorded are absent."""
        ids = sorted({p for p in player_ids if p > 0})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT player_id, name FROM record_players WHERE player_id IN ({marks})"
            " AND kind = 'human'",
            ids,
        )
        return {int(r[0]): str(r[1]) for r in rows if r[1]}

    async def with_pages(self, guild_id: int, player_ids: Sequence[int]) -> frozenset[int]:
        """Which of ``player_ids`` have a page on the server's pages (the test of
        :data:`_HAS_PAGE`, for a few people at once)."""
        ids = sorted({p for p in player_ids if p > 0})
        if not ids:
            return frozenset()
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            "SELECT s.player_id FROM record_stats s"
            f" WHERE s.scope = ? AND s.bucket = ? AND s.player_id IN ({marks})"
            " AND NOT EXISTS (SELECT 1 FROM record_privacy v WHERE v.user_id = s.player_id"
            " AND v.scope IN (?, ?))"
            " AND EXISTS (SELECT 1 FROM record_players p WHERE p.player_id = s.player_id"
            " AND p.kind = 'human')"
            " AND EXISTS (SELECT 1 FROM web_player_lines w WHERE w.player_id = s.player_id"
            " AND w.guild_id = ? AND w.bucket = ?)",
            (guild_id, ALL, *ids, GLOBAL, guild_id, guild_id, ALL),
        )
        return frozenset(int(r[0]) for r in rows)

    async def matches_here(self, guild_id: int, player_id: int) -> int:
        """How many matches a person has recorded on the server, public or not (his line of
        its board: one row by key), the most his page counts."""
        value = await self._db.fetchval(
            "SELECT matches FROM record_stats WHERE scope = ? AND bucket = ? AND player_id = ?",
            (guild_id, ALL, player_id),
        )
        return int(value or 0)

    async def public_entries(self, guild_id: int, player_id: int) -> list[PublicEntry]:
        """A person's entries in the server's public matches, oldest first."""
        public, params = Readable.public(guild_id).of_table("e.table_id")
        rows = await self._db.fetchall(
            "SELECT e.table_id, m.variant, e.family, e.result, e.hands_won, e.dominoes,"
            " e.blocks_won, e.points_for, e.points_against, e.rated, e.mu_after,"
            " e.sigma_after, e.finished_at FROM record_entries e"
            " JOIN record_matches m ON m.table_id = e.table_id"
            f" WHERE e.player_id = ? AND {public}"
            " ORDER BY e.finished_at, e.table_id",
            (player_id, *params),
        )
        return [
            PublicEntry(
                int(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4]), int(r[5]), int(r[6]),
                int(r[7]), int(r[8]), bool(r[9]), float(r[10]), float(r[11]), float(r[12]),
            )
            for r in rows
        ]

    async def public_versus(self, guild_id: int, player_id: int) -> list[tuple[str, str]]:
        """(computer's recorded name, the person's result) for each computer level among his
        opponents in each public match of the server he played."""
        public, params = Readable.public(guild_id).of_table("e.table_id")
        rows = await self._db.fetchall(
            "SELECT DISTINCT e.table_id, o.name, e.result FROM record_entries e"
            " JOIN record_entries o ON o.table_id = e.table_id AND o.kind = 'computer'"
            " AND o.side <> e.side"
            f" WHERE e.player_id = ? AND {public}",
            (player_id, *params),
        )
        return [(str(r[1]), str(r[2])) for r in rows]

    async def person(self, guild_id: int, player_id: int, recent: int) -> PersonPage | None:
        """A person's page on the server's pages (None unless he has one: see
        :data:`_HAS_PAGE`) in one statement: his global name, what the database keeps of
        him there (:meth:`kept_player`) and his achievements earned in its public matches.
        Nothing of his but that test is read unless he has a page, so
        that a missing page costs the same whoever he is."""
        public, public_params = Readable.public(guild_id).of_table("a.table_id")
        rows = await self._db.fetchall(
            _person_sql(public, self._db.dialect),
            (player_id, GLOBAL, guild_id, guild_id, ALL, guild_id, ALL,
             *_kept_params(player_id, guild_id, recent), player_id, *public_params),
        )
        kept, name, earned = _kept(rows)
        if name is None:
            return None
        earned.sort(key=_earned_order)
        return PersonPage(
            name,
            kept,
            [Earned(player_id, str(r[1]), int(r[3]), None if r[2] is None else int(r[2]),
                    float(r[4])) for r in earned],
        )

    async def kept_player(self, guild_id: int, player_id: int, recent: int) -> KeptPlayer:
        """What the database keeps of a person on the server's pages (migrations 0943, 0945,
        0946), whether or not he has a page there, in one statement: his figures per bucket,
        his rating per family, his results against each computer, his curves and his
        ``recent`` latest matches (at most 20)."""
        rows = await self._db.fetchall(
            _kept_sql(self._db.dialect), (player_id, *_kept_params(player_id, guild_id, recent))
        )
        return _kept(rows)[0]


@dataclass(frozen=True, slots=True)
class PersonPage:
    """A person with a page on a server's pages (:meth:`WebRepo.person`): his global name,
    what the database keeps of him there, his achievements earned in its public matches,
    latest first."""

    name: str
    kept: KeptPlayer
    achievements: list[Earned]


# A person's statement: one ``UNION ALL`` of branches read by key, each row told apart by its
# first column (0 his name, 1 a line, 2 a rating, 3 a computer level, 4 a curve's point, 5 a
# latest match, 6 an achievement), then two text columns and twelve numbers (the widest
# type: ``double precision`` on PostgreSQL, which types a union's columns by its first
# branch, hence the casts there).
_WIDTH = 15


def _branch(*columns: str) -> str:
    return ", ".join((*columns, *("NULL",) * (_WIDTH - len(columns))))


_FIRST = ", ".join(("CAST(NULL AS TEXT)", *("CAST(NULL AS DOUBLE PRECISION)",) * 12))
#: Whether the person ``p`` of ``record_players`` has a page on a server's pages: a person
#: (not a computer, not forgotten) who left neither this server's nor the global leaderboards
#: and played at least one public match of the server; his lines read by key, the board's and
#: the pages' own (migration 0943). Parameters: GLOBAL, the server, the server, ALL, the
#: server, ALL.
_HAS_PAGE = (
    " AND p.kind = 'human'"
    " AND NOT EXISTS (SELECT 1 FROM record_privacy v WHERE v.user_id = p.player_id"
    " AND v.scope IN (?, ?))"
    " AND EXISTS (SELECT 1 FROM record_stats s WHERE s.scope = ? AND s.bucket = ?"
    " AND s.player_id = p.player_id)"
    " AND EXISTS (SELECT 1 FROM web_player_lines w WHERE w.player_id = p.player_id"
    " AND w.guild_id = ? AND w.bucket = ?)"
)
#: A person's global name if he has a page (parameters: the person, then :data:`_HAS_PAGE`'s).
_HERE = "SELECT p.name FROM record_players p WHERE p.player_id = ?" + _HAS_PAGE


_LINE = _branch("1", "bucket", "NULL", "matches", "wins", "losses", "draws", "hands_won",
                "dominoes", "blocks_won", "points_for", "points_against", "streak",
                "best_streak", "last_at")
_RATING = _branch("2", "family", "NULL", "mu", "sigma", "matches")
_VERSUS = _branch("3", "computer", "NULL", "wins", "losses", "draws")
#: A curve as its chart reads it: a family's points, oldest first, each its moment (whole
#: seconds) and the rating shown after it (``1000 + 40 × ordinal``, bot/records/rating.py),
#: written ``"t,r t,r …"`` by the database, so that a curve is one row, read as it is. An
#: aggregate's order is the dialect's: SQLite's follows the key it reads by (player, server,
#: family, seq).
CURVE = {
    SQLITE: "group_concat(printf('%d,%d', finished_at, round({r})), ' ')",
    POSTGRES: "string_agg(concat(floor(finished_at)::bigint, ',', round({r})::bigint), ' '"
    " ORDER BY seq)",
}
_SHOWN = f"{DISPLAY_BASE} + {DISPLAY_SCALE} * (mu - 3 * sigma)"
_LATEST = _branch("5", "variant", "result", "finished_at", "table_id", "side", "points_for",
                  "points_against")
_EARNED = _branch("6", "a.code", "CAST(a.guild_id AS TEXT)", "a.table_id", "a.earned_at",
                  "row_number() OVER (ORDER BY a.earned_at DESC, a.table_id DESC, a.code)")


def _kept_branches(guard: str, dialect: str) -> str:
    """The branches of what the database keeps of a person, each read only when ``guard``
    holds (parameters: :func:`_kept_params`)."""
    key = f"player_id = ? AND guild_id = ?{guard}"
    curve = _branch("4", "family", CURVE[dialect].format(r=_SHOWN))
    return (
        f" UNION ALL SELECT {_LINE} FROM web_player_lines WHERE {key}"
        f" UNION ALL SELECT {_RATING} FROM web_player_ratings WHERE {key}"
        f" UNION ALL SELECT {_VERSUS} FROM web_player_versus WHERE {key}"
        f" UNION ALL SELECT {curve} FROM web_player_curve WHERE {key} GROUP BY family"
        f" UNION ALL SELECT {_LATEST} FROM (SELECT * FROM web_player_recent WHERE {key}"
        " ORDER BY finished_at DESC, table_id DESC, side DESC LIMIT ?) r"
    )


def _kept_params(player_id: int, guild_id: int, recent: int) -> tuple[int, ...]:
    return (player_id, guild_id) * 5 + (recent,)


@functools.lru_cache(maxsize=2)
def _kept_sql(dialect: str) -> str:
    return (
        f"SELECT 0, name, {_FIRST} FROM record_players WHERE player_id = ?"
        + _kept_branches("", dialect)
    )


@functools.lru_cache(maxsize=8)
def _person_sql(public: str, dialect: str) -> str:
    """The statement of :meth:`WebRepo.person`, ``public`` the test that an achievement's
    match was public on the server. His page's test is read once (a common table
    expression read more than once is computed once on both backends) and guards each
    branch (a test of no row, made once before the branch is read)."""
    guard = " AND EXISTS (SELECT 1 FROM here)"
    return (
        f"WITH here AS ({_HERE}) SELECT 0, name, {_FIRST} FROM here"
        + _kept_branches(guard, dialect)
        + f" UNION ALL SELECT {_EARNED} FROM achievements a"
        f" WHERE a.player_id = ? AND {public}{guard}"
    )


def _kept(rows: Sequence[Row]) -> tuple[KeptPlayer, str | None, list[Row]]:
    """What a person's statement read: what the database keeps of him, his name (None: no
    such row) and his achievements' rows."""
    name = None
    parts: tuple[list[Row], ...] = ([], [], [], [], [], [], [])
    for row in rows:
        parts[row[0]].append(row)
    if parts[0]:
        name = str(parts[0][0][1] or "")
    latest = sorted(parts[5], key=_IN_RECENT, reverse=True)
    kept = KeptPlayer(
        [(r[1], *r[3:15]) for r in parts[1]],
        [(r[1], r[3], r[4], r[5]) for r in parts[2]],
        [(r[1], r[3], r[4], r[5]) for r in parts[3]],
        {str(r[1]): str(r[2]) for r in parts[4]},  # (the chart's legend orders them)
        [
            RecentMatch(int(r[4]), str(r[1]), str(r[2]), int(r[6]), int(r[7]), float(r[3]))
            for r in latest
        ],
    )
    return kept, name, parts[6]


_IN_RECENT = operator.itemgetter(3, 4, 5)  # finished at, table, side


def _earned_order(row: Row) -> float:
    return float(row[5])


@dataclass(frozen=True, slots=True)
class LiveTable:
    """A table as its live page follows it: where it is and how far it has gone."""

    table_id: int
    guild_id: int
    status: str
    public_place: bool
    moves: int  # actions stored so far


class PageRepo:
    """The statements of the kept pages, the live pages and the player search."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def stamp(self, guild_id: int | None = None) -> tuple[Any, ...]:
        """The counter the database moves when a kept page may have to change (names,
        privacy, a server's pages: see migration 0940) and, with ``guild_id``, the server's
        own (migration 0941: a match recorded there, a line of its boards left off): one
        read, by keys."""
        if guild_id is None:
            value = await self._db.fetchval("SELECT stamp FROM web_stamp WHERE id = 1")
            return (int(value or 0),)
        row = await self._db.fetchone(
            "SELECT (SELECT stamp FROM web_stamp WHERE id = 1),"
            " (SELECT stamp FROM web_boards WHERE guild_id = ?)",
            (guild_id,),
        )
        assert row is not None
        return (int(row[0] or 0), int(row[1] or 0))

    async def live_table(self, table_id: int) -> LiveTable | None:
        """A table and the number of moves stored for it, in one read."""
        row = await self._db.fetchone(
            "SELECT t.guild_id, t.status, t.public_place,"
            " (SELECT count(*) FROM actions a WHERE a.table_id = t.id)"
            " FROM tables t WHERE t.id = ?",
            (table_id,),
        )
        if row is None or row[0] is None:
            return None
        return LiveTable(table_id, int(row[0]), str(row[1]), bool(row[2]), int(row[3]))

    async def search_players(self, guild_id: int, prefix: str, limit: int) -> list[tuple[int, str]]:
        """People with a page on the server's pages whose global name starts with ``prefix``
        (case-insensitively), by name: (player id, global name). The name index answers the
        range (on PostgreSQL with the pattern operators, whatever the collation)."""
        if self._db.dialect == SQLITE:
            match = "lower(p.name) >= lower(?) AND lower(p.name) < lower(?)"
        else:
            match = "lower(p.name) ~>=~ lower(?) AND lower(p.name) ~<~ lower(?)"
        rows = await self._db.fetchall(
            "SELECT p.player_id, p.name FROM record_players p"
            f" WHERE {match} AND p.player_id > 0{_HAS_PAGE}"
            " ORDER BY lower(p.name), p.player_id LIMIT ?",
            # (the range's end: the prefix followed by the last character there is)
            (prefix, prefix + "\U0010ffff", GLOBAL, guild_id, guild_id, ALL, guild_id, ALL, limit),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def event_version(self, event_id: int) -> tuple[Any, ...] | None:
        """What changes whenever a tournament's page does (its state, entries, rounds,
        boards and corrections counted), with its server and whether it is public; None
        when there is no such event."""
        row = await self._db.fetchone(
            "SELECT t.guild_id, t.public_place, t.status,"
            " (SELECT count(*) FROM tournament_entries e WHERE e.tournament_id = t.id),"
            " (SELECT count(*) FROM tournament_entries e WHERE e.tournament_id = t.id"
            " AND e.status = 'withdrawn'),"
            " (SELECT count(*) FROM tournament_rounds r WHERE r.tournament_id = t.id),"
            " (SELECT count(*) FROM tournament_rounds r WHERE r.tournament_id = t.id"
            " AND r.status = 'done'),"
            " (SELECT count(*) FROM tournament_boards b WHERE b.tournament_id = t.id),"
            " (SELECT count(*) FROM tournament_boards b WHERE b.tournament_id = t.id"
            " AND b.status = 'done'),"
            " (SELECT count(*) FROM tournament_corrections c WHERE c.tournament_id = t.id)"
            " FROM tournaments t WHERE t.id = ?",
            (event_id,),
        )
        return None if row is None else tuple(row)

    async def sample(self) -> tuple[int, int, int, int] | None:
        """A server with pages and one of each thing its pages show (its latest finished
        public match, a person who played it or else one on its board, its latest public
        event; 0 where it has none), for the warm-up."""
        row = await self._db.fetchone(
            "SELECT g.guild_id,"
            # (newest first, each table looked up until one is public: a max() over a join
            # read every match of the server, seconds on a cold file)
            " coalesce((SELECT m.table_id FROM record_matches m WHERE m.guild_id = g.guild_id"
            " AND EXISTS (SELECT 1 FROM tables t WHERE t.id = m.table_id AND t.public_place = 1)"
            " ORDER BY m.finished_at DESC, m.table_id DESC LIMIT 1), 0),"
            " coalesce((SELECT max(e.id) FROM tournaments e WHERE e.guild_id = g.guild_id"
            " AND e.public_place = 1), 0)"
            " FROM guild_settings g WHERE g.web = 1 ORDER BY g.guild_id LIMIT 1"
        )
        if row is None:
            return None
        guild, table, event = int(row[0]), int(row[1]), int(row[2])
        player = await self._db.fetchval(
            "SELECT max(player_id) FROM record_entries WHERE table_id = ? AND kind = 'human'",
            (table,),
        ) or await self._db.fetchval(  # computers only: someone on the server's board
            "SELECT player_id FROM record_stats WHERE scope = ? AND bucket = ? AND hidden = 0"
            " AND player_id > 0 LIMIT 1",
            (guild, ALL),
        )
        return guild, int(player or 0), table, event
