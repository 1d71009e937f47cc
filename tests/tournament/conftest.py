"""Fixtures of the tournament tests: a database of each backend, a fake clock, the services."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from tests.bot.conftest import clock, database_url, db_path, store
from tests.bot.helpers import FakeClock, make_service

__all__ = ["clock", "database_url", "db_path", "store"]


@pytest.fixture
async def tables(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = make_service(store, clock, computer_delay=0.0, hand_pause=0.0, ai_level="easy")
    yield svc
    await svc.aclose()


@pytest.fixture
async def events(store: Store, tables: TableService, clock: FakeClock) -> TournamentService:
    svc = TournamentService(store, tables, clock=clock)
    tables.add_observer(svc)
    return svc
