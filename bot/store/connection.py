"""Database connections: one small interface over aiosqlite (SQLite) and asyncpg (PostgreSQL).

Repositories write SQL once, with ``?`` placeholders; the PostgreSQL driver numbers them
(``$1``, ``$2`` …). The SQL they share is the common subset of both dialects: ``ON CONFLICT``
upserts (naming the table on the left of ``+``: ``SET n = t.n + 1``), ``RETURNING``, and
``greatest(a, b)`` (registered as a function on SQLite). Where the dialects differ, a repository
looks at :attr:`Db.dialect`.

A :class:`Db` runs statements either alone (each in its own implicit transaction) or inside one
transaction (:meth:`Driver.transaction`). Constraint violations of both drivers are raised as
:class:`IntegrityError`, so repositories can tell a duplicate key from a bug.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_path

__all__ = [
    "POSTGRES",
    "SQLITE",
    "DatabaseUnavailable",
    "Db",
    "Driver",
    "IntegrityError",
    "PostgresDriver",
    "Row",
    "SqliteDriver",
    "connect",
    "numbered_placeholders",
]

log = logging.getLogger(__name__)

SQLITE = "sqlite"
POSTGRES = "postgres"
BUSY_TIMEOUT_MS = 5000
POOL_SIZE = 10  # PostgreSQL connections per process
CLOSE_SECONDS = 5.0  # a connection whose statement was interrupted is closed within this
APPLICATION_NAME = "domino-bot"  # as pg_stat_activity shows the bot's connections


class Row(Protocol):
    """A result row: by column name (``row["id"]``) or position (``row[0]``); iterable."""

    def __getitem__(self, key: int | str, /) -> Any: ...
    def __iter__(self) -> Any: ...
    def __len__(self) -> int: ...


class IntegrityError(Exception):
    """A constraint refused a write; ``kind`` is unique, foreign_key, check, not_null or other."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class Db(Protocol):
    """Runs statements: alone, or inside the transaction it belongs to."""

    dialect: str

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...
    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    async def run_script(self, script: str) -> None:
        """Run several statements without parameters (a migration), inside a transaction."""
        ...

    async def run_batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run ``(sql, params)`` statements in order as one transaction (inside the open one,
        if any): all or nothing, in as few trips to the database as the driver allows."""
        ...


class Driver(Protocol):
    """An open database: a :class:`Db` for lone statements and transactions."""

    dialect: str
    url: str
    db: Db

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Db]: ...
    def locked(self, key: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold a lock shared by every process using the database (e.g. while migrating)."""
        ...

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Bulk-insert rows in one transaction."""
        ...

    def stream(self, sql: str, batch: int = 5000) -> AsyncIterator[list[Row]]:
        """The rows of a query, ``batch`` at a time (for copying big tables)."""
        ...

    async def close(self) -> None: ...


class DatabaseUnavailable(RuntimeError):
    """The database cannot be opened or reached; the message says which (no password) and
    why. Raised by every statement while the database is out of reach."""


class Outage:
    """Whether the database answers: an outage is logged once when it starts and once when
    it ends, however many statements fail meanwhile."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.since: float | None = None  # monotonic time of the first failure, while down

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException) -> DatabaseUnavailable:
        """A statement could not reach the database: the error to raise (logged once)."""
        reason = redact_url(str(exc) or type(exc).__name__)
        if self.since is None:
            self.since = time.monotonic()
            log.warning(
                "database %s out of reach (%s: %s); players are asked to try again shortly",
                self.name,
                type(exc).__name__,
                reason,
            )
        return DatabaseUnavailable(f"the database {self.name} cannot be reached: {reason}")

    def answered(self) -> None:
        """A statement succeeded: the end of an outage, if there was one."""
        if self.since is not None:
            log.warning(
                "database %s answers again after %.1f s out of reach",
                self.name,
                time.monotonic() - self.since,
            )
            self.since = None


async def connect(target: str | Path) -> Driver:
    """Open a database by URL (``sqlite:///file``, ``postgresql://…``) or SQLite file path.

    Raises :class:`DatabaseUnavailable` when it cannot be reached, created or logged in to.
    """
    if isinstance(target, Path) or "://" not in target:
        return await _open_sqlite(Path(target))
    scheme = target.partition(":")[0].lower()
    if scheme == SQLITE:
        return await _open_sqlite(sqlite_path(target))
    if scheme in POSTGRES_SCHEMES:
        import asyncpg

        try:
            return await PostgresDriver.open(target)
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            reason = redact_url(str(exc) or type(exc).__name__)
            raise DatabaseUnavailable(
                f"cannot open the PostgreSQL database {redact_url(target)}: {reason}"
            ) from exc
    raise ValueError(f"unknown database URL {redact_url(target)!r}")


async def _open_sqlite(path: Path) -> SqliteDriver:
    try:
        return await SqliteDriver.open(path)
    except (OSError, sqlite3.Error) as exc:
        raise DatabaseUnavailable(f"cannot open the SQLite database {path}: {exc}") from exc


# -------------------------------------------------------------------------------------- SQLite

_SQLITE_KINDS = {
    "SQLITE_CONSTRAINT_PRIMARYKEY": "unique",
    "SQLITE_CONSTRAINT_UNIQUE": "unique",
    "SQLITE_CONSTRAINT_FOREIGNKEY": "foreign_key",
    "SQLITE_CONSTRAINT_CHECK": "check",
    "SQLITE_CONSTRAINT_NOTNULL": "not_null",
}


@contextlib.contextmanager
def _sqlite_errors() -> Any:
    try:
        yield
    except sqlite3.IntegrityError as exc:
        kind = _SQLITE_KINDS.get(getattr(exc, "sqlite_errorname", ""), "other")
        raise IntegrityError(str(exc), kind) from exc


class _SqliteDb:
    """Statements on the one SQLite connection; alone ones take the driver's lock."""

    dialect = SQLITE
    __slots__ = ("_conn", "_lock")

    def __init__(self, conn: aiosqlite.Connection, lock: asyncio.Lock | None) -> None:
        self._conn = conn
        self._lock = lock

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        if self._lock is None:
            with _sqlite_errors():
                yield
        else:
            async with self._lock:
                with _sqlite_errors():
                    yield

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._turn():
            cur = await self._conn.execute(sql, params)
            return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._turn():
            await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._turn():
            return list(await self._conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    async def run_script(self, script: str) -> None:
        # executescript would commit first: run the statements one by one instead.
        for statement in split_sqlite_script(script):
            await self.execute(statement)

    async def run_batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        alone = self._lock is not None  # not inside a transaction: make one
        # aiosqlite runs each call on its connection thread; under load every hop there and
        # back waits for the GIL. Its (private) queue takes a whole function: one hop.
        submit = getattr(self._conn, "_execute", None)
        raw = getattr(self._conn, "_connection", None)
        one_hop = submit is not None and isinstance(raw, sqlite3.Connection)
        if one_hop and self._lock is not None and not self._lock.locked():
            # No transaction is open (one holds the lock from BEGIN to COMMIT): queue the batch
            # now. The thread runs its queue in order, so batches follow each other there back
            # to back, without a trip to the event loop between two, and a transaction that
            # begins later begins after them.
            with _sqlite_errors():
                await submit(_run_statements, raw, statements, True)
            return
        async with self._turn():
            if one_hop:
                await submit(_run_statements, raw, statements, alone)
                return
            if alone:
                await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    await self._conn.execute(sql, params)
            except BaseException:
                if alone:
                    await self._conn.execute("ROLLBACK")
                raise
            if alone:
                await self._conn.execute("COMMIT")


def _run_statements(
    conn: sqlite3.Connection, statements: Sequence[tuple[str, Sequence[Any]]], begin: bool
) -> None:
    """The statements in order on the connection's own thread (a transaction if ``begin``:
    one statement is one by itself)."""
    begin = begin and len(statements) > 1
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    try:
        for sql, params in statements:
            conn.execute(sql, params)
    except BaseException:
        if begin:
            conn.execute("ROLLBACK")
        raise
    if begin:
        conn.execute("COMMIT")


async def _use_wal(conn: aiosqlite.Connection) -> None:
    """Put the file in WAL mode (kept in the file once set).

    Switching needs the file alone for a moment, and SQLite answers "database is locked" at
    once rather than through the busy timeout when several connections open a new file
    together: retry within that timeout.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() > deadline:
                raise
        await asyncio.sleep(0.01 + random.random() * 0.04)


class SqliteDriver:
    """One aiosqlite connection in autocommit mode (WAL, foreign keys, busy timeout).

    Transactions are ``BEGIN IMMEDIATE`` … ``COMMIT``: one writer at a time, across processes.
    """

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.url = f"sqlite:///{path.as_posix()}"
        self.db: Db = _SqliteDb(conn, self._lock)

    @classmethod
    async def open(cls, path: Path) -> SqliteDriver:
        with _private_files(path):
            conn = await aiosqlite.connect(path, isolation_level=None)
            try:
                conn.row_factory = sqlite3.Row
                await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                await _use_wal(conn)
                await conn.execute("PRAGMA synchronous = NORMAL")
                await conn.execute("PRAGMA foreign_keys = ON")
                await conn.create_function("greatest", -1, _greatest, deterministic=True)
            except BaseException:
                await conn.close()
                raise
        return cls(conn, path)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Db]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteDb(self._conn, None)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def locked(self, key: int) -> AsyncIterator[None]:
        yield  # BEGIN IMMEDIATE already lets one writer at a time in

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        async with self.transaction() as db:
            await db.executemany(sql, rows)

    async def stream(self, sql: str, batch: int = 5000) -> AsyncIterator[list[Row]]:
        async with self._lock:
            cursor = await self._conn.execute(sql)
            try:
                while rows := list(await cursor.fetchmany(batch)):
                    yield rows
            finally:
                await cursor.close()

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()


@contextlib.contextmanager
def _private_files(path: Path) -> Iterator[None]:
    """Create the database, its ``-wal`` and ``-shm`` files (0600) and folder (0700) private.

    The database holds every live match's seed, which reveals every hand. Folders that exist
    already keep their mode; files that exist are made private too.
    """
    if str(path) == ":memory:":
        yield
        return
    old = os.umask(0o077)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        yield
    finally:
        os.umask(old)
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(f"{path}{suffix}", 0o600)


def _greatest(*values: Any) -> Any:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def split_sqlite_script(script: str) -> list[str]:
    """Split a script into complete statements (triggers' inner ``;`` included)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement in migration: {buffer.strip()[:60]!r}")
    return statements


# ---------------------------------------------------------------------------------- PostgreSQL


@functools.lru_cache(maxsize=4096)
def numbered_placeholders(sql: str) -> str:
    """``?`` → ``$1``, ``$2`` … outside quoted strings, identifiers and comments."""
    out: list[str] = []
    n = 0
    i = 0
    length = len(sql)
    while i < length:
        ch = sql[i]
        if ch in "'\"":
            end = sql.find(ch, i + 1)
            while end != -1 and end + 1 < length and sql[end + 1] == ch:  # doubled quote
                end = sql.find(ch, end + 2)
            end = length - 1 if end == -1 else end
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = length if end == -1 else end
            out.append(sql[i:end])
            i = end
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is out of reach (not that a statement is wrong)."""
    import asyncpg

    if isinstance(exc, OSError | TimeoutError | asyncpg.PostgresConnectionError):
        return True
    if isinstance(
        exc,
        asyncpg.AdminShutdownError
        | asyncpg.CrashShutdownError
        | asyncpg.CannotConnectNowError
        | asyncpg.TooManyConnectionsError,
    ):
        return True
    return isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc)


def _pg_errors(outage: Outage) -> Any:
    import asyncpg

    kinds = {
        asyncpg.UniqueViolationError: "unique",
        asyncpg.ForeignKeyViolationError: "foreign_key",
        asyncpg.CheckViolationError: "check",
        asyncpg.NotNullViolationError: "not_null",
    }

    @contextlib.contextmanager
    def translate() -> Any:
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            outage.answered()
            raise IntegrityError(str(exc), kinds.get(type(exc), "other")) from exc
        except Exception as exc:
            if _unreachable(exc):
                raise outage.failed(exc) from exc
            raise
        else:
            outage.answered()

    return translate


def _rowcount(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresDb:
    """Statements on a pool (each alone) or on one connection inside its transaction."""

    dialect = POSTGRES
    __slots__ = ("_errors", "_on")

    def __init__(self, on: Any, errors: Any) -> None:
        self._on = on  # an asyncpg Pool or Connection: both have execute/fetch/fetchrow
        self._errors = errors

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._errors():
            return _rowcount(await self._on.execute(numbered_placeholders(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._errors():
            await self._on.executemany(numbered_placeholders(sql), list(rows))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._errors():
            return list(await self._on.fetch(numbered_placeholders(sql), *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        with self._errors():
            return await self._on.fetchrow(numbered_placeholders(sql), *params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._errors():
            return await self._on.fetchval(numbered_placeholders(sql), *params)

    async def run_script(self, script: str) -> None:
        with self._errors():
            await self._on.execute(script)  # no arguments: several statements allowed

    async def run_batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with contextlib.AsyncExitStack() as stack:
            conn = self._on
            if isinstance(conn, _Pool):  # not inside a transaction: make one
                conn = await stack.enter_async_context(conn.acquire())
                await stack.enter_async_context(conn.transaction())
            with self._errors():
                for sql, params in statements:
                    await conn.execute(numbered_placeholders(sql), *params)


class _Pool:
    """A small pool of asyncpg connections, opened as needed, most recently used first.

    asyncpg's own pool resets every connection it takes back (a round trip) and costs about
    0.6 ms a statement against 0.17 ms here; the store keeps no session state to reset. A
    connection that broke, or whose statement was interrupted, is closed and replaced.
    """

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        self._free: asyncio.LifoQueue[Any] = asyncio.LifoQueue()
        for _ in range(size):
            self._free.put_nowait(None)  # a connection not opened yet
        self._all: set[Any] = set()
        self._closing: set[asyncio.Future[None]] = set()  # connections closing in the background

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[Any]:
        import asyncpg

        conn = await self._free.get()
        try:
            if conn is None or conn.is_closed():
                self._all.discard(conn)
                conn = None
                conn = await self._connect()
                self._all.add(conn)
            yield conn
        except BaseException as exc:
            broken = not isinstance(exc, Exception) or isinstance(
                exc, asyncio.TimeoutError | OSError | asyncpg.InterfaceError
            )
            if conn is not None and (broken or conn.is_closed() or conn.is_in_transaction()):
                self._all.discard(conn)
                if isinstance(exc, asyncio.CancelledError):
                    self._later(conn.close(timeout=CLOSE_SECONDS), conn.terminate)
                else:
                    conn.terminate()
                conn = None
            raise
        finally:
            self._free.put_nowait(conn)

    async def _connect(self) -> Any:
        """A new connection. A caller cancelled meanwhile (a time-out) lets it finish, then
        closes it: asyncpg's TLS negotiation cut in half leaves a failed future nobody reads
        ("Future exception was never retrieved"). A URL the driver cannot read raises
        :class:`DatabaseUnavailable` without the driver's words."""
        import asyncpg

        opening = asyncio.ensure_future(
            asyncpg.connect(self.url, server_settings={"application_name": APPLICATION_NAME})
        )
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:
            self._later(opening, None, close=True)
            raise
        except ValueError as exc:  # the URL does not read: its words may quote the password
            raise DatabaseUnavailable(
                f"cannot read the PostgreSQL URL {redact_url(self.url)} "
                f"({type(exc).__name__}): percent-encode any space, #, ?, @ or / in its "
                "password (%20, %23, %3F, %40, %2F)"
            ) from None

    def _later(self, work: Any, on_failure: Callable[[], None] | None, *,
               close: bool = False) -> None:
        """Finish ``work`` in the background (kept referenced); on failure call
        ``on_failure``; with ``close``, close the connection it gives."""

        async def finish() -> None:
            try:
                conn = await work
            except BaseException:
                if on_failure is not None:
                    on_failure()
                return
            if close:
                with contextlib.suppress(Exception):
                    await conn.close(timeout=CLOSE_SECONDS)
                conn.terminate()

        task = asyncio.ensure_future(finish())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def execute(self, sql: str, *args: Any) -> str:
        async with self.acquire() as conn:
            return await conn.execute(sql, *args)

    async def executemany(self, sql: str, rows: list[Any]) -> None:
        async with self.acquire() as conn:
            await conn.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        async with self.acquire() as conn:
            return await conn.fetch(sql, *args)

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        async with self.acquire() as conn:
            return await conn.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        async with self.acquire() as conn:
            return await conn.fetchval(sql, *args)

    async def close(self) -> None:
        if self._closing:
            await asyncio.wait(list(self._closing), timeout=CLOSE_SECONDS)
        for conn in list(self._all):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)
            if not conn.is_closed():
                conn.terminate()
        self._all.clear()


class PostgresDriver:
    """A pool of asyncpg connections to PostgreSQL 15 or newer.

    Transactions run at READ COMMITTED on one pooled connection; writers of the same row wait
    for each other, and the unique keys (an action's ``(table_id, seq)``) decide races.
    """

    dialect = POSTGRES
    path: Path | None = None

    def __init__(self, pool: _Pool, url: str) -> None:
        self._pool = pool
        self.outage = Outage(redact_url(url))
        self._errors = _pg_errors(self.outage)
        self.url = url
        self.db: Db = _PostgresDb(pool, self._errors)

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDriver:
        pool = _Pool(url, pool_size)
        try:
            version = await pool.fetchval("SHOW server_version_num")
            if int(version) < 150000:
                raise DatabaseUnavailable(
                    f"PostgreSQL 15 or newer is needed; {redact_url(url)} runs version {version}"
                )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Db]:
        with self._errors():
            async with self._pool.acquire() as conn, conn.transaction():
                yield _PostgresDb(conn, self._errors)

    @contextlib.asynccontextmanager
    async def locked(self, key: int) -> AsyncIterator[None]:
        """Hold a session advisory lock (e.g. one migrating process at a time)."""
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", key)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", key)

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Bulk-insert with COPY (many times faster than INSERTs)."""
        async with self._pool.acquire() as conn, conn.transaction():
            with self._errors():
                await conn.copy_records_to_table(
                    table, records=[tuple(r) for r in rows], columns=list(columns)
                )

    async def stream(self, sql: str, batch: int = 5000) -> AsyncIterator[list[Row]]:
        async with self._pool.acquire() as conn, conn.transaction():
            cursor = await conn.cursor(sql)
            while rows := await cursor.fetch(batch):
                yield rows

    async def close(self) -> None:
        await self._pool.close()
