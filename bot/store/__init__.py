"""The store: one database (SQLite by default, or PostgreSQL), its migrations and repositories.

All SQL of the project lives in ``bot/``. :meth:`Store.open` takes a URL (``sqlite:///file``,
``postgresql://user:password@host/db``) or a SQLite file path and applies pending migrations.
Calls on the store's own repositories (``store.tables.get(...)``) each run alone; calls on a
transaction's repositories (``tx.actions.append(...)``) run inside it:
``async with store.transaction() as tx:`` commits on success and rolls back on an error.

- :mod:`bot.store.connection`: the drivers (aiosqlite, asyncpg) behind one small interface.
- :mod:`bot.store.schema`: numbered migrations per dialect (``bot/migrations/<dialect>/``).
- :mod:`bot.store.repositories`: the rows and repositories of the table service.
- :mod:`bot.records.store`: the records' repository (on ``store.db`` or ``tx.db``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.store.connection import (
    POSTGRES,
    SQLITE,
    DatabaseUnavailable,
    Db,
    Driver,
    IntegrityError,
    Row,
    SqliteDriver,
    connect,
)
from bot.store.repositories import (
    ActionCommit,
    ActionRepo,
    ActionRow,
    DeadlineRepo,
    DeadlineRow,
    FeedRepo,
    FeedRow,
    HandResultRepo,
    HandResultRow,
    InviteeRepo,
    LimitRepo,
    MatchRepo,
    MatchRow,
    PlayerRepo,
    PlayerRow,
    PlayerSettingsRepo,
    PlayerSettingsRow,
    Repos,
    SeatRepo,
    SeatRow,
    TableRepo,
    TableRow,
    Transaction,
)
from bot.store.schema import apply_migrations, migrations, schema_version

__all__ = [
    "POSTGRES",
    "SQLITE",
    "ActionCommit",
    "ActionRepo",
    "ActionRow",
    "DatabaseUnavailable",
    "Db",
    "DeadlineRepo",
    "DeadlineRow",
    "Driver",
    "FeedRepo",
    "FeedRow",
    "HandResultRepo",
    "HandResultRow",
    "IntegrityError",
    "InviteeRepo",
    "LimitRepo",
    "MatchRepo",
    "MatchRow",
    "PlayerRepo",
    "PlayerRow",
    "PlayerSettingsRepo",
    "PlayerSettingsRow",
    "Row",
    "SeatRepo",
    "SeatRow",
    "Store",
    "TableRepo",
    "TableRow",
    "Transaction",
    "migrations",
]


class Store(Repos):
    """One database and its repositories (``store.tables``, ``store.actions`` …)."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        super().__init__(driver.db)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgres``."""
        return self.driver.dialect

    @property
    def path(self) -> Path | None:
        """The SQLite file (None on PostgreSQL)."""
        return getattr(self.driver, "path", None)

    @property
    def url(self) -> str:
        return self.driver.url

    @classmethod
    async def open(cls, target: str | Path) -> Store:
        """Open (creating a SQLite file if needed) the database and apply pending migrations."""
        driver = await connect(target)
        try:
            await apply_migrations(driver)
        except BaseException:
            await driver.close()
            raise
        return cls(driver)

    async def close(self) -> None:
        await self.driver.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """``async with store.transaction() as tx:`` — commit on success, roll back on error."""
        async with self.driver.transaction() as db:
            yield Transaction(db)

    async def schema_version(self) -> int:
        return await schema_version(self.driver)

    async def pragma(self, name: str) -> Any:
        """The value of a read-only SQLite PRAGMA such as ``journal_mode`` (checks and tests)."""
        if not isinstance(self.driver, SqliteDriver):
            raise ValueError("PRAGMA is a SQLite statement")
        if not name.replace("_", "").isalnum():
            raise ValueError(f"bad pragma name {name!r}")
        return await self.db.fetchval(f"PRAGMA {name}")
