"""Numbered migrations, one folder per dialect: ``bot/migrations/sqlite``, ``…/postgres``.

Each change to the schema is a file ``NNNN_name.sql`` in BOTH folders, with the same number and
name (a test checks that the two folders match). Numbers may leave gaps (features own ranges:
records use 0100); files apply in order, each in its own transaction, and ``schema_version``
remembers which ran. A file's SQL is plain DDL of its dialect (PostgreSQL: ``BIGINT`` for Discord
ids, ``DOUBLE PRECISION`` for times, identity columns instead of ``AUTOINCREMENT``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from importlib import resources

from bot.store.connection import POSTGRES, SQLITE, Driver

__all__ = [
    "COUNTERS",
    "DIALECTS",
    "KEPT_BY_TRIGGERS",
    "TableShape",
    "apply_migrations",
    "describe",
    "migrations",
    "parents_first",
    "schema_version",
]

DIALECTS = (SQLITE, POSTGRES)
MIGRATION_LOCK = 0x646F6D696E6F  # advisory lock key while a process migrates ("domino")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: Tables the database fills itself, by triggers, from the rows of others (each a function of
#: them): a copy of the database writes the others' rows and lets the triggers fill these.
KEPT_BY_TRIGGERS = frozenset(
    {
        "record_board_sizes", "record_board_short", "web_player_lines", "web_player_ratings",
        "web_player_versus", "web_player_curve", "web_player_recent", "season_board_sizes",
        "period_board_sizes",
    }
)
#: Counters the database moves by triggers (the web pages' stamps, migrations 0940-0942): a
#: copy of the database neither copies nor compares them (its own count from the copy on).
COUNTERS = frozenset({"web_stamp", "web_boards"})


def migrations(dialect: str = SQLITE) -> list[tuple[int, str, str]]:
    """The migration scripts shipped for ``dialect``: (version, file name, sql), in order."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    folder = resources.files("bot.migrations")
    stray = sorted(e.name for e in folder.iterdir() if _MIGRATION_NAME.match(e.name))
    if stray:
        raise RuntimeError(
            f"migrations {stray} must go in bot/migrations/sqlite/ and bot/migrations/postgres/"
            " (one file in each, same number and name)"
        )
    found: list[tuple[int, str, str]] = []
    for entry in folder.joinpath(dialect).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions) or (versions and versions[0] < 1):
        raise RuntimeError(f"migrations must have distinct numbers from 1 up, found {versions}")
    return found


_VERSION_TABLE = {
    SQLITE: "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)",
    POSTGRES: "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)",
}


async def apply_migrations(driver: Driver) -> list[int]:
    """Apply the pending migrations of the driver's dialect; return the versions applied."""
    applied_now: list[int] = []
    async with driver.locked(MIGRATION_LOCK):
        async with driver.transaction() as db:
            await db.execute(_VERSION_TABLE[driver.dialect])
        rows = await driver.db.fetchall("SELECT version FROM schema_version")
        applied = {int(r[0]) for r in rows}
        for version, name, sql in migrations(driver.dialect):
            if version in applied:
                continue
            async with driver.transaction() as db:
                # Another process may have applied it since we looked (SQLite has no lock).
                if await db.fetchone("SELECT 1 FROM schema_version WHERE version = ?", (version,)):
                    continue
                await db.run_script(sql)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, time.time()),
                )
            applied_now.append(version)
    return applied_now


async def schema_version(driver: Driver) -> int:
    """The highest applied migration (0 for an empty database)."""
    value = await driver.db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
    return int(value or 0)


@dataclass(frozen=True, slots=True)
class TableShape:
    """A table as the database describes it: its columns, parents and identity column."""

    name: str
    columns: tuple[str, ...]
    float_columns: frozenset[str]  # REAL / DOUBLE PRECISION
    parents: frozenset[str]  # tables its foreign keys point to
    identity: str | None  # the auto-numbered column (PostgreSQL), if any


async def describe(driver: Driver) -> dict[str, TableShape]:
    """Every table of the database but ``schema_version``, as :class:`TableShape`."""
    db = driver.db
    if driver.dialect == SQLITE:
        cols = await db.fetchall(
            "SELECT m.name, c.name, upper(c.type) FROM sqlite_master m"
            " JOIN pragma_table_info(m.name) c"
            " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid"
        )
        fks = await db.fetchall(
            'SELECT m.name, f."table" FROM sqlite_master m'
            " JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'"
        )
        floats = {(r[0], r[1]) for r in cols if any(k in r[2] for k in ("REAL", "DOUB", "FLOA"))}
        identity: dict[str, str] = {}
    else:
        cols = await db.fetchall(
            "SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        fks = await db.fetchall(
            "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c"
            " WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace"
        )
        floats = {(r[0], r[1]) for r in cols if r[2] in ("double precision", "real")}
        identity = {r[0]: r[1] for r in cols if r[3] == "YES"}
    columns: dict[str, list[str]] = {}
    for r in cols:
        columns.setdefault(r[0], []).append(r[1])
    parents: dict[str, set[str]] = {}
    for r in fks:
        if r[0] != r[1]:
            parents.setdefault(r[0], set()).add(r[1])
    return {
        name: TableShape(
            name,
            tuple(names),
            frozenset(c for c in names if (name, c) in floats),
            frozenset(parents.get(name, ())),
            identity.get(name),
        )
        for name, names in columns.items()
        if name != "schema_version"
    }


def parents_first(shapes: dict[str, TableShape]) -> list[str]:
    """Table names so that every table comes after the tables its foreign keys point to."""
    done: list[str] = []
    pending = sorted(shapes)
    while pending:
        ready = [n for n in pending if all(p in done or p not in shapes for p in shapes[n].parents)]
        if not ready:
            raise RuntimeError(f"foreign keys form a cycle among {pending}")
        done += ready
        pending = [n for n in pending if n not in ready]
    return done
