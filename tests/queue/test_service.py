"""The queue's service without Discord, on both backends: two matchers of one scope at once
(two processes during a lease's hand-over) seat nobody twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.queue.service import QueueService
from bot.queue.store import EntryRow, QueueRepo
from bot.store import Store
from tests.bot.conftest import clock, database_url, store
from tests.bot.helpers import FakeClock, make_service

__all__ = ["clock", "database_url", "store"]

GUILD = 555


@pytest.fixture
async def second_store(database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(database_url)
    yield s
    await s.close()


async def test_two_matchers_at_once_seat_each_person_once(
    store: Store, second_store: Store, clock: FakeClock
) -> None:
    one = make_service(store, clock)
    two = make_service(second_store, clock)
    try:
        now = clock()
        for user in (1, 2, 3, 4):
            await QueueRepo(store.db).add(EntryRow(
                user_id=user, scope=GUILD, guild_id=GUILD, channel_id=77, variant="draw",
                name=f"P{user}", computers=True, locale=None, joined_at=now + user,
                fill_at=now + 60, expires_at=now + 900,
            ))
        opened = await asyncio.gather(
            QueueService(store, one).seat(GUILD), QueueService(second_store, two).seat(GUILD)
        )
        rows = await QueueRepo(store.db).tables()
        seated = sorted(p for t in rows for p in t.people)
        assert seated == [1, 2, 3, 4]  # each once, in two tables
        assert sum(len(o) for o in opened) == len(rows) == 2
        assert await QueueRepo(store.db).of_scope(GUILD) == []
        running = await store.db.fetchval("SELECT count(*) FROM tables WHERE status = 'running'")
        assert running == 2
    finally:
        await one.aclose()
        await two.aclose()
