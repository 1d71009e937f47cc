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
from importlib import resources

from bot.store.connection import POSTGRES, SQLITE, Driver

__all__ = ["DIALECTS", "apply_migrations", "migrations", "schema_version"]

DIALECTS = (SQLITE, POSTGRES)
MIGRATION_LOCK = 0x646F6D696E6F  # advisory lock key while a process migrates ("domino")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations(dialect: str = SQLITE) -> list[tuple[int, str, str]]:
    """The migration scripts shipped for ``dialect``: (version, file name, sql), in order."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    found: list[tuple[int, str, str]] = []
    for entry in resources.files("bot.migrations").joinpath(dialect).iterdir():
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
