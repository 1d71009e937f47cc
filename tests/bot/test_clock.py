"""The one clock's bookkeeping (bot.tables.clock): deadlines per table, in due order."""

from __future__ import annotations

import random

from bot.store import DeadlineRow
from bot.tables.clock import COMPACT_MIN, Clock


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
