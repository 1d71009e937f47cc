"""The one clock's bookkeeping (bot.tables.clock): deadlines per table, in due order."""

from __future__ import annotations

import random

from bot.store import DeadlineRow
from bot.tables.clock import COMPACT_MIN, RETRY_FIRST, RETRY_MOST, Clock


def test_moved_deadlines_leave_no_pile_behind_and_the_current_ones_fall_due_in_order() -> None:
    clock = Clock(lambda: 0.0)
    rng = random.Random(5)
    latest: dict[tuple[int, str], DeadlineRow] = {}
    for n in range(20 * COMPACT_MIN):  # a turn's deadlines moved after every action
        table = rng.randrange(50)
        for kind in ("remind", "timeout"):
            row = DeadlineRow(table, kind, rng.uniform(10, 1000), n)
            clock.set(row)
            latest[(table, kind)] = row
        if n % 7 == 0:
            clock.clear(table, ("remind",))
            latest.pop((table, "remind"), None)
    assert len(clock._heap) < 3 * COMPACT_MIN
    assert {(r.table_id, r.kind, r.seq) for r in clock.pending()} == {
        (r.table_id, r.kind, r.seq) for r in latest.values()
    }
    taken = []
    while rows := clock.due(2000.0):
        taken += rows
    assert sorted(taken, key=lambda r: (r.table_id, r.kind)) == sorted(
        latest.values(), key=lambda r: (r.table_id, r.kind)
    )
    assert clock.pending() == [] and clock.next_due() is None


def test_clearing_one_table_leaves_the_others() -> None:
    clock = Clock(lambda: 0.0)
    for table in (1, 2):
        for kind in ("remind", "timeout"):
            clock.set(DeadlineRow(table, kind, 10.0 * table, 0))
    clock.clear(1)
    clock.clear(2, ("remind",))
    assert [(r.table_id, r.kind) for r in clock.pending()] == [(2, "timeout")]
    assert [(r.table_id, r.kind) for r in clock.due(100.0)] == [(2, "timeout")]


async def test_a_failed_deadline_runs_again_later_until_it_succeeds() -> None:
    """A dropped deadline would leave its table waiting until a restart: it runs again after
    RETRY_FIRST seconds, then twice that, until its handler succeeds."""
    now = [100.0]
    clock = Clock(lambda: now[0])
    calls: list[float] = []

    async def flaky(row: DeadlineRow) -> str:
        calls.append(now[0])
        if len(calls) < 3:
            raise ConnectionError("the database went away for a moment")
        return "moved"

    clock.handlers["move"] = flaky
    clock.set(DeadlineRow(7, "move", 100.0, 3))
    first = await clock.run_due()
    assert isinstance(first[0], ConnectionError)
    assert clock.pending() == [DeadlineRow(7, "move", 100.0 + RETRY_FIRST, 3)]
    now[0] += RETRY_FIRST - 1
    assert await clock.run_due() == []  # not yet
    now[0] += 1
    await clock.run_due()
    assert clock.pending() == [DeadlineRow(7, "move", now[0] + 2 * RETRY_FIRST, 3)]
    now[0] += 2 * RETRY_FIRST
    assert await clock.run_due() == ["moved"]
    assert calls == [100.0, 100.0 + RETRY_FIRST, 100.0 + 3 * RETRY_FIRST]
    assert clock.pending() == []
    now[0] += RETRY_MOST
    assert await clock.run_due() == [] and len(calls) == 3


async def test_a_failed_deadline_gives_way_to_a_newer_one() -> None:
    now = [0.0]
    clock = Clock(lambda: now[0])
    newer = DeadlineRow(7, "move", 50.0, 4)

    async def failing(row: DeadlineRow) -> None:
        clock.set(newer)  # the table moved on meanwhile
        raise RuntimeError("boom")

    clock.handlers["move"] = failing
    clock.set(DeadlineRow(7, "move", 0.0, 3))
    await clock.run_due()
    assert clock.pending() == [newer]


async def test_retries_wait_longer_each_time_up_to_a_limit() -> None:
    now = [0.0]
    clock = Clock(lambda: now[0])

    async def failing(row: DeadlineRow) -> None:
        raise RuntimeError("boom")

    clock.handlers["remind"] = failing
    clock.set(DeadlineRow(1, "remind", 0.0, 0))
    waits = []
    for _ in range(10):
        await clock.run_due()
        (pending,) = clock.pending()
        waits.append(pending.due_at - now[0])
        now[0] = pending.due_at
    assert waits[:3] == [RETRY_FIRST, 2 * RETRY_FIRST, 4 * RETRY_FIRST]
    assert max(waits) == RETRY_MOST == waits[-1]
