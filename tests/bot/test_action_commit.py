"""One action, one transaction, one trip: ``ActionRepo.record`` on both backends."""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import StaleAction
from bot.store import ActionCommit, DeadlineRow, IntegrityError, SeatRow, Store

TURN = ("move", "remind", "timeout", "pause", "forced")


async def _running_table(store: Store) -> int:
    t = await store.tables.create(host_id=1, variant="partners", options={}, now=1.0)
    await store.matches.create(t.id, ruleset={"id": "partners"}, seed=42, now=2.0)
    await store.tables.set_status(t.id, "running", now=2.0)
    for seat in range(4):
        await store.seats.put(SeatRow(t.id, seat, 10 + seat, f"P{seat}", "human", timeouts=1))
    await store.deadlines.set(DeadlineRow(t.id, "expire", 99.0, 0))  # not a turn's: stays
    await store.deadlines.set(DeadlineRow(t.id, "remind", 60.0, 0))
    await store.deadlines.set(DeadlineRow(t.id, "timeout", 120.0, 0))
    await store.deadlines.set(DeadlineRow(t.id, "forced", 3.0, 0))
    return t.id


def _turn(tid: int, seq: int, *kinds: str) -> tuple[DeadlineRow, ...]:
    return tuple(DeadlineRow(tid, k, 100.0 + seq + n, seq) for n, k in enumerate(kinds))


async def test_record_writes_the_action_and_replaces_the_turn_deadlines(store: Store) -> None:
    tid = await _running_table(store)
    await store.actions.record(
        ActionCommit(tid, 0, 0, "play 6-6", 5.0, "player", TURN, _turn(tid, 1, "remind", "timeout"))
    )
    assert [(a.seq, a.seat, a.action, a.made_by) for a in await store.actions.list(tid)] == [
        (0, 0, "play 6-6", "player")
    ]
    got = {(d.kind, d.due_at, d.seq) for d in await store.deadlines.list(tid)}
    # "forced" of the old turn is gone, "expire" is not a turn's deadline: kept.
    assert got == {("expire", 99.0, 0), ("remind", 101.0, 1), ("timeout", 102.0, 1)}
    # A computer's turn next: only its move.
    await store.actions.record(
        ActionCommit(tid, 1, 1, "pass", 6.0, "player", TURN, _turn(tid, 2, "move"))
    )
    got = {(d.kind, d.seq) for d in await store.deadlines.list(tid)}
    assert got == {("expire", 0), ("move", 2)}


async def test_record_of_a_hand_end_a_match_end_and_time_outs(store: Store) -> None:
    tid = await _running_table(store)
    await store.actions.record(
        ActionCommit(
            tid,
            0,
            2,
            "pass",
            7.0,
            "timeout",
            TURN,
            (),
            hand_result=(1, {"kind": "block", "points": 12}),
            outcome={"winner": 0},
            timeouts=((0, 0), (2, 3)),
            taken_over=((2, "hard"),),
        )
    )
    assert [(r.hand_number, r.result) for r in await store.hand_results.list(tid)] == [
        (1, {"kind": "block", "points": 12})
    ]
    match = await store.matches.get(tid)
    assert match is not None and match.outcome == {"winner": 0} and match.finished_at == 7.0
    table = await store.tables.get(tid)
    assert table is not None and (table.status, table.updated_at) == ("finished", 7.0)
    seats = {s.seat: s for s in await store.seats.list(tid)}
    assert (seats[0].timeouts, seats[0].kind) == (0, "human")
    assert (seats[1].timeouts, seats[1].kind) == (1, "human")  # untouched
    assert (seats[2].timeouts, seats[2].kind, seats[2].ai_level) == (3, "computer", "hard")
    assert {d.kind for d in await store.deadlines.list(tid)} == {"expire"}


async def test_a_stale_record_changes_nothing(store: Store) -> None:
    tid = await _running_table(store)
    await store.actions.record(ActionCommit(tid, 0, 0, "pass", 5.0, "player", TURN, ()))
    before = await store.deadlines.list(tid)
    with pytest.raises(StaleAction):
        await store.actions.record(
            ActionCommit(
                tid,
                0,
                1,
                "draw",
                6.0,
                "player",
                TURN,
                _turn(tid, 1, "move"),
                hand_result=(1, {"kind": "domino"}),
                outcome={"winner": 1},
                timeouts=((1, 0),),
            )
        )
    with pytest.raises(StaleAction):  # an action with its turn only (SQLite: one statement)
        await store.actions.record(
            ActionCommit(tid, 0, 1, "draw", 6.0, "player", TURN, _turn(tid, 1, "move"))
        )
    assert [a.action for a in await store.actions.list(tid)] == ["pass"]
    assert await store.deadlines.list(tid) == before
    assert await store.hand_results.list(tid) == []
    table = await store.tables.get(tid)
    assert table is not None and table.status == "running"
    assert [s.timeouts for s in await store.seats.list(tid)] == [1, 1, 1, 1]


async def test_racing_records_from_two_stores_apply_one(database_url: str) -> None:
    """Two bot processes writing the same action: one wins, the other is told it is stale."""
    a, b = await Store.open(database_url), await Store.open(database_url)
    try:
        tid = await _running_table(a)
        for seq in range(15):
            results = await asyncio.gather(
                *(
                    s.actions.record(
                        ActionCommit(
                            tid,
                            seq,
                            n,
                            f"pass {n}",
                            5.0,
                            "player",
                            TURN,
                            _turn(tid, seq + 1, "move"),
                        )
                    )
                    for n, s in enumerate((a, b))
                ),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleAction"]
        assert len(await b.actions.list(tid)) == 15
        assert {(d.kind, d.seq) for d in await a.deadlines.list(tid)} == {
            ("expire", 0),
            ("move", 15),
        }
    finally:
        await a.close()
        await b.close()


async def test_record_inside_a_transaction_rolls_back_with_it(store: Store) -> None:
    tid = await _running_table(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.actions.record(ActionCommit(tid, 0, 0, "pass", 5.0, "player", TURN, ()))
            raise RuntimeError("after the record")
    assert await store.actions.list(tid) == []
    assert len(await store.deadlines.list(tid)) == 4


async def test_run_batch_is_all_or_nothing(store: Store) -> None:
    tid = await _running_table(store)
    with pytest.raises(IntegrityError):
        await store.db.run_batch(
            [
                ("UPDATE tables SET updated_at = ? WHERE id = ?", (50.0, tid)),
                (
                    "INSERT INTO seats (table_id, seat, name, kind) VALUES (?, ?, ?, ?)",
                    (tid, 0, "again", "human"),
                ),
            ]
        )
    table = await store.tables.get(tid)
    assert table is not None and table.updated_at == 2.0
    await store.db.run_batch([("UPDATE tables SET updated_at = ? WHERE id = ?", (51.0, tid))])
    table = await store.tables.get(tid)
    assert table is not None and table.updated_at == 51.0


async def test_records_and_a_transaction_at_the_same_time_do_not_mix(store: Store) -> None:
    """Records queued while another transaction is open run after it, each whole."""
    tid = await _running_table(store)
    began = asyncio.Event()

    async def other() -> None:
        async with store.transaction() as tx:
            began.set()
            await tx.tables.touch(tid, now=40.0)
            await asyncio.sleep(0.05)
            await tx.tables.touch(tid, now=41.0)

    async def records() -> None:
        await began.wait()
        for seq in range(5):
            await store.actions.record(ActionCommit(tid, seq, 0, "pass", 5.0, "player", TURN, ()))

    await asyncio.gather(other(), records(), *(store.tables.get(tid) for _ in range(5)))
    assert [a.seq for a in await store.actions.list(tid)] == [0, 1, 2, 3, 4]
    table = await store.tables.get(tid)
    assert table is not None and table.updated_at == 41.0
