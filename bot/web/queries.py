"""The web companion's reading of the database: opened read-only, and its own few queries.

The pages read through the same repositories as the bot (:class:`~bot.records.store.
RecordsRepo`, :class:`~bot.tournaments.store.TournamentRepo`, the store's hand results, the
replay's action log); :class:`WebRepo` holds the statements only the pages need. Nothing here
writes: SQLite is opened with ``mode=ro`` and ``query_only``, PostgreSQL sessions with
``default_transaction_read_only`` (on top of the read-only role ``docs/web.md`` describes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import aiosqlite

from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_path
from bot.store import DatabaseUnavailable, Db, Store
from bot.store.connection import BUSY_TIMEOUT_MS, PostgresDriver, SqliteDriver, _greatest
from bot.store.schema import schema_version

__all__ = ["WEB_SCHEMA", "WebRepo", "WebServer", "open_read_only", "read_only_url"]

WEB_SCHEMA = 711  # the first migration the pages need (which places and events are public)

@dataclass(frozen=True, slots=True)
class WebServer:
    """A server whose managers turned its pages on."""

    guild_id: int
    name: str


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
            driver: PostgresDriver | SqliteDriver = await PostgresDriver.open(read_only_url(url))
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


async def _open_sqlite(path: Path) -> SqliteDriver:
    if not path.is_file():
        raise DatabaseUnavailable(f"there is no SQLite database at {path}")
    try:
        conn = await aiosqlite.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None
        )
    except Exception as exc:
        raise DatabaseUnavailable(f"cannot open the SQLite database {path}: {exc}") from exc
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA query_only = ON")
        await conn.create_function("greatest", -1, _greatest, deterministic=True)
    except BaseException:
        await conn.close()
        raise
    return SqliteDriver(conn, path)


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

    async def public_match(self, table_id: int) -> bool:
        """True if the match was played where the server's @everyone could view it."""
        row = await self._db.fetchone("SELECT public_place FROM tables WHERE id = ?", (table_id,))
        return row is not None and bool(row[0])

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
