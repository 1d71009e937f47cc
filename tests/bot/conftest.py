"""Fixtures for the bot tests: a real database of each backend, a fake clock, an observer.

``database_url`` is parametrised: every test using it (or ``store``, ``service``) runs once on a
SQLite file in tmp_path and once on a fresh PostgreSQL database (see ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE, Store
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock, Recorder, make_service


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database: a SQLite file, or a PostgreSQL database of its own."""
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return request.getfixturevalue("postgres_databases").migrated()


@pytest.fixture
def db_path(database_url: str) -> str:
    """The test's database for ``Store.open`` (a second store, a restart): the same as ``store``."""
    return database_url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(database_url)
    yield s
    await s.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = make_service(store, clock)
    yield svc
    await svc.aclose()


@pytest.fixture
def recorder(service: TableService) -> Recorder:
    rec = Recorder()
    service.add_observer(rec)
    return rec
