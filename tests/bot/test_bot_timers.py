"""Turn timers with a fake clock, computer moves, restarts and whole matches through the service."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import errors
from bot.store import Store
from bot.tables.clock import RETRY_FIRST
from bot.tables.history import TAKEOVER
from bot.tables.service import TableInfo, TableService
from bot.tables.values import DEFAULT_PING_DELAY
from domino import PRESETS, Pass
from tests.bot.helpers import FakeClock, Recorder, fail_one_computer_search, make_service

ANA, BEA = 201, 202


async def ana_vs_computers(service: TableService, variant: str = "partners", **kw) -> TableInfo:
    """Ana in seat 0 (or seats 0 and 2 in seven-seven), computers elsewhere."""
    t = await service.create_table(host_id=ANA, host_name="Ana", variant=variant, **kw)
    return await service.start(t.id, ANA, fill_with_computers=True)


async def until_turn_of(service: TableService, clock: FakeClock, table_id: int, user_id: int):
    """Let computers move (advancing the clock) until it is ``user_id``'s turn or the end."""
    for _ in range(500):
        t = await service.get(table_id)
        if t.status != "running" or t.turn in t.seats_of(user_id):
            return t
        clock.advance(service.computer_delay + service.hand_pause)
        await service.tick()
    raise AssertionError("the computers never handed over")


async def computer_to_move(service: TableService, clock: FakeClock) -> TableInfo:
    """A table where a computer is to move, just after Ana's first move."""
    t = await ana_vs_computers(service)
    t = await until_turn_of(service, clock, t.id, ANA)
    view = (await service.views_for(t.id, ANA))[0]
    t = (await service.act(t.id, ANA, view.legal[0])).table
    if t.turn_seat is None or t.turn_seat.kind != "computer":
        pytest.skip("this deal hands the turn straight back")
    return t


# --------------------------------------------------------------------------------- timers


async def test_computers_wait_their_human_looking_delay(
    service: TableService, clock: FakeClock
) -> None:
    t = await computer_to_move(service, clock)
    assert await service.tick() == []  # the delay has not passed
    clock.advance(service.computer_delay)
    results = await service.tick()
    assert len(results) == 1 and results[0].by == "computer" and results[0].seq == t.seq


async def test_a_computer_move_that_failed_is_made_a_little_later(
    service: TableService, clock: FakeClock, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer's search that fails (its process pool broken beyond repair, say) does not
    leave the table waiting for a restart: it is tried again a few seconds later, and the
    players are shown the move."""
    t = await computer_to_move(service, clock)
    failed = fail_one_computer_search(monkeypatch)
    await service.idle()
    shown = len(recorder.of("on_action"))
    clock.advance(service.computer_delay)
    assert await service.tick() == [] and failed
    await service.idle()
    assert (await service.get(t.id)).seq == t.seq and len(recorder.of("on_action")) == shown
    clock.advance(RETRY_FIRST)
    results = await service.tick()
    assert len(results) == 1 and results[0].by == "computer" and results[0].seq == t.seq
    await service.idle()
    [(published,)] = recorder.of("on_action")[shown:]
    assert published.seq == t.seq and published.by == "computer"


async def test_reminder_when_idle_for_the_ping_time_then_the_bot_plays(
    service: TableService, recorder: Recorder, clock: FakeClock, store: Store
) -> None:
    t = await ana_vs_computers(service, turn_timer=60)
    t = await until_turn_of(service, clock, t.id, ANA)
    seq = t.seq
    deadline = t.deadline
    assert deadline is not None and t.turn_started is not None
    clock.now = t.turn_started + DEFAULT_PING_DELAY - 1
    await service.tick()
    await service.idle()
    assert recorder.of("on_reminder") == []
    clock.now = t.turn_started + DEFAULT_PING_DELAY
    await service.tick()
    await service.tick()
    await service.idle()
    reminders = recorder.of("on_reminder")
    assert len(reminders) == 1  # once, not at every tick
    _, seat, user, when = reminders[0]
    assert (seat, user, when) == (t.turn, ANA, deadline)
    assert (await service.get(t.id)).seq == seq  # nothing played yet

    clock.now = deadline
    results = await service.tick()
    assert [r.by for r in results] == ["timeout"]
    assert results[0].seq == seq and await store.actions.count(t.id) == seq + 1
    seat_row = (await store.seats.list(t.id))[0]
    assert seat_row.timeouts == 1 and seat_row.kind == "human"


async def test_the_only_legal_move_is_played_at_time_out(store: Store, clock: FakeClock) -> None:
    # partners, first hand: the holder of 6-6 must open with it — a single legal move.
    for seed in range(40):
        service = make_service(store, clock, seed=seed)
        t = await ana_vs_computers(service)
        if t.turn == 0:
            break
        await service.cancel(t.id, ANA)
    else:
        pytest.skip("no seed gave Ana the 6-6")
    legal = (await service.views_for(t.id, ANA))[0].legal
    assert len(legal) == 1
    clock.advance(t.table.turn_timer)
    [result] = await service.tick()
    assert result.action == legal[0] and result.by == "timeout"


async def test_three_time_outs_in_a_row_hand_the_seat_to_a_computer(
    service: TableService, recorder: Recorder, clock: FakeClock, store: Store
) -> None:
    t = await ana_vs_computers(service, options={"target": 200})
    for expected in (1, 2):
        t = await until_turn_of(service, clock, t.id, ANA)
        clock.advance(t.table.turn_timer)
        await service.tick()
        t = await service.get(t.id)
        assert t.seats[0] is not None and t.seats[0].timeouts == expected
    # Playing himself resets the count.
    t = await until_turn_of(service, clock, t.id, ANA)
    view = (await service.views_for(t.id, ANA))[0]
    t = (await service.act(t.id, ANA, view.legal[0])).table
    assert t.seats[0].timeouts == 0  # type: ignore[union-attr]
    assert (await store.seats.list(t.id))[0].timeouts == 0

    for _ in range(3):
        t = await until_turn_of(service, clock, t.id, ANA)
        clock.advance(t.table.turn_timer)
        await service.tick()
    t = await service.get(t.id)
    await service.idle()
    assert t.seats[0].kind == "computer" and t.seats[0].user_id == ANA  # type: ignore[union-attr]
    assert (await store.seats.list(t.id))[0].kind == "computer"
    [(_, user, seats)] = recorder.of("on_seat_taken_over")
    assert (user, seats) == (ANA, (0,))
    # The store says after which action the computer took over (published from there).
    rows = await store.actions.list(t.id)
    [taken] = [r for r in rows if r.made_by == TAKEOVER]
    assert taken.seat == 0
    assert all(r.made_by == "computer" for r in rows if r.seq > taken.seq and r.seat == 0)
    history = await service.history(t.id)
    assert history.takeovers == [(taken.seq, 0)]
    moves = [e for e in history.entries if e.kind != "hand" and e.first <= taken.seq <= e.last]
    assert moves and moves[0].timed_out  # the move log says the timer played it
    assert t.seats_of(ANA) == () and t.is_seated(ANA)
    with pytest.raises(errors.SeatTakenOver):
        await service.act(t.id, ANA, Pass())
    # The computer now plays seat 0 by itself; Ana may still resign for her team.
    result = await service.resign(t.id, ANA)
    assert result.outcome is not None and result.outcome.winner_side == 1


# ------------------------------------------------------------------------------- restart


async def test_restart_in_the_middle_continues_where_it_stopped(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(db_path)
    first = make_service(store, clock)
    t = await first.create_table(host_id=ANA, host_name="Ana", variant="partners")
    t = await first.join(t.id, BEA, "Bea")
    lobby = await first.create_table(host_id=BEA, host_name="Bea", variant="draw")
    t = await first.start(t.id, ANA, fill_with_computers=True)
    for _ in range(12):  # people and computers play a few moves
        t = await first.get(t.id)
        seat = t.turn_seat
        assert seat is not None
        if seat.kind == "human":
            view = next(v for v in await first.views_for(t.id, seat.user_id) if v.seat == t.turn)
            await first.act(t.id, seat.user_id, view.legal[-1])  # type: ignore[arg-type]
        else:
            clock.advance(first.computer_delay)
            await first.tick()
    before = await first.get(t.id)
    hands_before = {u: await first.views_for(t.id, u) for u in (ANA, BEA)}
    await first.aclose()
    await store.close()  # the process dies

    store = await Store.open(db_path)
    try:
        second = make_service(store, clock)
        loaded = {info.id: info for info in await second.load_open_tables()}
        assert set(loaded) == {t.id, lobby.id}
        assert loaded[lobby.id].status == "lobby" and loaded[lobby.id].seats_of(BEA) == (0,)
        after = loaded[t.id]
        assert after.seq == before.seq == 12 and after.status == "running"
        assert after.seats == before.seats and after.turn == before.turn
        assert after.public_view() == before.public_view()
        for u in (ANA, BEA):
            assert await second.views_for(t.id, u) == hands_before[u]
        # It continues: play to the end with everyone timing out or moving.
        for _ in range(2000):
            info = await second.get(t.id)
            if info.status != "running":
                break
            seat = info.turn_seat
            if seat is not None and seat.kind == "human":
                v = next(
                    v for v in await second.views_for(t.id, seat.user_id) if v.seat == info.turn
                )
                await second.act(t.id, seat.user_id, v.legal[0])  # type: ignore[arg-type]
            else:
                clock.advance(second.computer_delay + second.hand_pause)
                await second.tick()
        final = await second.get(t.id)
        assert final.status == "finished" and final.public_view().outcome is not None  # type: ignore[union-attr]
        assert await store.actions.count(t.id) == final.seq
        await second.aclose()
    finally:
        await store.close()


async def test_timers_resume_after_restart_without_punishing_downtime(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(db_path)
    first = make_service(store, clock)
    t = await ana_vs_computers(first, turn_timer=60)
    t = await until_turn_of(first, clock, t.id, ANA)
    await store.close()

    clock.advance(3600)  # an hour of downtime
    store = await Store.open(db_path)
    try:
        second = make_service(store, clock)
        rec = Recorder()
        second.add_observer(rec)
        [info] = await second.load_open_tables()
        assert info.turn == t.turn and info.deadline == clock.now + 30  # half the timer left
        await second.tick()
        await second.idle()
        assert len(rec.of("on_reminder")) == 1 and (await second.get(t.id)).seq == t.seq
        clock.advance(30)
        assert [r.by for r in await second.tick()] == ["timeout"]
    finally:
        await store.close()


# ------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("variant", sorted(PRESETS))
async def test_a_whole_computer_match_of_every_variant(
    store: Store, clock: FakeClock, variant: str
) -> None:
    service = make_service(store, clock, seed=11)
    rec = Recorder()
    service.add_observer(rec)
    t = await service.create_table(host_id=ANA, host_name="Ana", variant=variant, seat_host=False)
    t = await service.start(t.id, ANA, fill_with_computers=True)
    for _ in range(5000):
        clock.advance(service.computer_delay + service.hand_pause)
        await service.tick()
        t = await service.get(t.id)
        if t.status != "running":
            break
    await service.idle()
    assert t.status == "finished"
    view = t.public_view()
    assert view is not None and view.outcome is not None
    row = await store.matches.get(t.id)
    assert row is not None and row.outcome == view.outcome.to_dict()
    assert len(await store.hand_results.list(t.id)) == len(view.hand_results) >= 1
    assert await store.actions.count(t.id) == t.seq
    assert len(rec.of("on_action")) == t.seq and len(rec.of("on_match_ended")) == 1
    assert len(rec.of("on_hand_ended")) == len(view.hand_results)
    assert service.open_tables() == []


async def test_an_only_possible_move_is_made_after_three_seconds(
    service: TableService, clock: FakeClock
) -> None:
    """Ludoteka (seed 003): "If a player, having only one option to place a piece, does not do
    so shortly (around 3 seconds), the system automatically launches it." Our decision: only at
    tables with ``forced_moves`` (the variant's default, or the host's choice)."""
    from domino import forced_action

    t = await ana_vs_computers(service, "draw", options={"forced_moves": True})
    for _ in range(300):
        t = await until_turn_of(service, clock, t.id, ANA)
        if t.status != "running":
            pytest.skip("the match ended before Ana had an only move")
        match = t._match
        assert match is not None
        if forced_action(match) is not None:
            break
        view = (await service.views_for(t.id, ANA))[0]
        await service.act(t.id, ANA, view.legal[0])
    else:
        pytest.skip("no only move came up")
    before = t.seq
    clock.advance(service.forced_delay - 0.5)
    assert [r for r in await service.tick() if r.seq == before] == []  # not yet
    clock.advance(0.5)
    results = await service.tick()
    forced = [r for r in results if r.seq == before]
    assert len(forced) == 1 and forced[0].by == "forced"
    assert forced[0].action == forced_action(match)


async def test_no_forced_move_where_the_table_does_not_play_them(
    service: TableService, clock: FakeClock
) -> None:
    t = await ana_vs_computers(service, "draw", options={"forced_moves": False})
    t = await until_turn_of(service, clock, t.id, ANA)
    assert not [d for d in service.scheduler.pending(t.id) if d.kind == "forced"]
