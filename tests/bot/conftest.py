"""Fixtures for the bot tests: real SQLite files in tmp_path, a fake clock, a recording observer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock, Recorder, make_service


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
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
