"""Fixtures of the daily deal's tests: a database of each backend, a fake clock, the services."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.daily.service import DailyService
from bot.store import Store
from bot.tables.service import TableService
from tests.bot.conftest import clock, database_url, db_path, store
from tests.bot.helpers import FakeClock, make_service
from tests.cogs.conftest import fake_discord, pictures_on

__all__ = ["clock", "database_url", "db_path", "fake_discord", "pictures_on", "store"]

#: Seconds of search per expert move in the tests (the real default is half a second).
BUDGET = 0.01


@pytest.fixture
async def tables(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = make_service(store, clock, computer_delay=0.0, hand_pause=0.0, ai_budget=BUDGET)
    yield svc
    await svc.aclose()


@pytest.fixture
async def daily(store: Store, tables: TableService) -> DailyService:
    seeds = iter(range(1000, 2000))
    svc = DailyService(store, tables, expert_budget=BUDGET, seed_source=lambda: next(seeds))
    tables.add_observer(svc)
    return svc
