"""Two processes of one table across servers, as two table services on one database: the one
that does not run the table forwards a person's click through the store, and is told when the
table moves. On PostgreSQL a notification wakes the other side at once: the slow looks that
stand in for a lost notification are made to last an hour here, so only a notification can
answer in time (each wait ends on its event)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.store import POSTGRES, Store
from bot.store.notices import Notices
from bot.tables import places
from bot.tables.core import make_ruleset
from bot.tables.places import ForwardedClicks, Place, TableWatch
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock, make_service

A, B = 101, 202  # the servers: A's process runs the table, B's holds Bob's clicks
ALICE, BOB = 11, 22
HOUR = 3600.0


@dataclass
class Pair:
    owner: TableService
    other: TableService
    table_id: int


@pytest.fixture(autouse=True)
def _no_fallback(monkeypatch: pytest.MonkeyPatch, database_url: str) -> None:
    """On PostgreSQL, nothing is looked at again for an hour unless a notification wakes it
    (on SQLite the short looks stay); an asker waits as long as it takes."""
    monkeypatch.setattr(places, "FORWARD_FALLBACK", HOUR)
    monkeypatch.setattr(places, "WATCH_FALLBACK", HOUR)
    monkeypatch.setattr(places, "FORWARD_WAIT", HOUR)
    if not database_url.startswith("sqlite"):
        monkeypatch.setattr(places, "FORWARD_POLL", HOUR)


@pytest.fixture
async def pair(database_url: str, clock: FakeClock) -> AsyncIterator[Pair]:
    stores = [await Store.open(database_url) for _ in range(2)]
    owner = make_service(stores[0], clock, owns=lambda g: g == A)
    other = make_service(stores[1], clock, owns=lambda g: g == B)
    info = await owner.open_seated(
        host_id=ALICE,
        ruleset=make_ruleset("two", {"target": 50}),
        options={},
        people=[(ALICE, "Alice"), (BOB, "Bob")],
        guild_id=A,
        channel_id=1,
        places=[Place(B, 2, (BOB,))],
    )
    try:
        yield Pair(owner, other, info.id)
    finally:
        for svc in (owner, other):
            await svc.aclose()
        for s in stores:
            await s.close()


async def _alice_until_bob(pair: Pair) -> None:
    """Alice (on the owner) plays until it is Bob's turn."""
    while (info := await pair.owner.get(pair.table_id)).turn_seat.user_id != BOB:  # type: ignore[union-attr]
        (view,) = await pair.owner.views_for(pair.table_id, ALICE)
        await pair.owner.act(pair.table_id, ALICE, view.legal[0], expected_seq=info.seq)


@contextlib.asynccontextmanager
async def running(work: object) -> AsyncIterator[None]:
    task = asyncio.ensure_future(work.run())  # type: ignore[attr-defined]
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_forwarded_click_is_applied_by_the_process_that_runs_the_table(
    pair: Pair, database_url: str
) -> None:
    notices = Notices(pair.owner.store)
    clicks = ForwardedClicks(pair.owner, notices)
    # B's process: its own listener wakes its click when the answer is written.
    asking = Notices(pair.other.store)
    pair.other.core.answers = ForwardedClicks(pair.other, asking)
    try:
        async with running(clicks), running(pair.other.core.answers):
            if pair.owner.store.dialect == POSTGRES:
                assert await notices.listening() and await asking.listening()
            await _alice_until_bob(pair)
            info = await pair.other.get(pair.table_id)
            (view,) = await pair.other.views_for(pair.table_id, BOB)
            # B's service does not run the table: the click goes through the store.
            result = await pair.other.act(
                pair.table_id, BOB, view.legal[0], expected_seq=info.seq
            )
            assert result.seq == info.seq and result.action == view.legal[0]
            after = await pair.owner.get(pair.table_id)
            assert after.seq == info.seq + 1
            assert pair.table_id not in pair.other.core.tables
            assert not pair.other.core.answers.waiting  # (nothing left waiting)
    finally:
        await notices.close()
        await asking.close()


async def test_a_process_is_told_when_a_table_it_watches_moves(pair: Pair) -> None:
    notices = Notices(pair.other.store)
    moved: asyncio.Queue[int] = asyncio.Queue()

    async def heard(table_id: int) -> bool:
        moved.put_nowait(table_id)
        return True

    watch = TableWatch(pair.other, heard, notices)
    try:
        async with running(watch):
            if pair.other.store.dialect == POSTGRES:
                assert await notices.listening()
            watch.watch(pair.table_id)
            assert await moved.get() == pair.table_id  # (the first look)
            reads = watch.reads
            info = await pair.owner.get(pair.table_id)
            seat = info.turn_seat
            assert seat is not None and seat.user_id is not None
            (view,) = await pair.owner.views_for(pair.table_id, seat.user_id)
            await pair.owner.act(pair.table_id, seat.user_id, view.legal[0], expected_seq=info.seq)
            assert await moved.get() == pair.table_id
            assert watch.reads > reads
            # A table this process runs is not watched (its own feed redraws the hands).
            owner_watch = TableWatch(pair.owner, heard)
            owner_watch.watch(pair.table_id)
            assert owner_watch.watched == {}
    finally:
        await notices.close()
