"""The table service: lobby, acting, typed errors that change nothing, races, observers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import errors
from bot.store import DatabaseUnavailable, DeadlineRepo, Store
from bot.tables.service import TableInfo, TableService
from domino import Action, Match, Pass, Play, Resign, decode_action
from tests.bot.helpers import FakeClock, Recorder, make_service

ANA, BEA, CAR, DAN, EVE = 101, 102, 103, 104, 105


async def four_people(service: TableService, variant: str = "partners", **options) -> TableInfo:
    """A running table with Ana (host), Bea, Car and Dan in seats 0-3."""
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant=variant, options=options, channel_id=900
    )
    for uid, name in ((BEA, "Bea"), (CAR, "Car"), (DAN, "Dan")):
        t = await service.join(t.id, uid, name)
    return await service.start(t.id, ANA)


def user_at(table: TableInfo, seat: int) -> int:
    row = table.seats[seat]
    assert row is not None and row.user_id is not None
    return row.user_id


async def snapshot(store: Store, service: TableService, table_id: int):
    """Everything an error must leave unchanged."""
    info = await service.get(table_id)
    return (
        await store.actions.count(table_id),
        info.seq,
        info.status,
        info.seats,
        await store.seats.list(table_id),
        (await store.tables.get(table_id)).status,  # type: ignore[union-attr]
    )


# --------------------------------------------------------------------------------- lobby


async def test_a_start_that_fails_to_commit_leaves_the_lobby_as_it_was(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="partners", channel_id=900
    )
    t = await service.join(t.id, BEA, "Bea")
    before = await snapshot(store, service, t.id)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("the database went away")

    monkeypatch.setattr(DeadlineRepo, "replace", broken)
    with pytest.raises((OSError, DatabaseUnavailable)):  # PostgreSQL: a lost connection
        await service.start(t.id, ANA, fill_with_computers=True)
    assert await snapshot(store, service, t.id) == before
    assert (await service.get(t.id)).empty_seats == (2, 3)
    assert await store.matches.get(t.id) is None
    assert not service.place_busy(900)
    monkeypatch.undo()
    t = await service.start(t.id, ANA, fill_with_computers=True)
    assert t.status == "running" and t.is_full
    assert [s.kind for s in await store.seats.list(t.id)] == [
        "human", "human", "computer", "computer"
    ]


async def test_create_join_leave_and_start(service: TableService, store: Store) -> None:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="partners")
    assert t.status == "lobby" and t.seats_of(ANA) == (0,) and t.empty_seats == (1, 2, 3)
    t = await service.join(t.id, BEA, "Bea")
    assert t.seats_of(BEA) == (1,)
    with pytest.raises(errors.AlreadySeated):
        await service.join(t.id, BEA, "Bea")
    t = await service.leave(t.id, BEA)
    assert t.seats[1] is None
    with pytest.raises(errors.NotSeated):
        await service.leave(t.id, BEA)
    with pytest.raises(errors.NotHost):
        await service.add_computer(t.id, BEA)
    t = await service.add_computer(t.id, ANA, level="easy")
    assert t.seats[1] is not None and t.seats[1].kind == "computer"
    with pytest.raises(errors.SeatsEmpty) as empty:
        await service.start(t.id, ANA)
    assert empty.value.code == "seats_empty" and empty.value.params["empty"] == 2
    with pytest.raises(errors.NotHost):
        await service.start(t.id, BEA, fill_with_computers=True)
    t = await service.start(t.id, ANA, fill_with_computers=True)
    assert t.status == "running" and t.is_full and t.seq == 0
    assert [s.kind for s in t.seats if s] == ["human", "computer", "computer", "computer"]
    assert [s.kind for s in await store.seats.list(t.id)] == [
        "human",
        "computer",
        "computer",
        "computer",
    ]
    match_row = await store.matches.get(t.id)
    assert match_row is not None and match_row.seed == 7
    with pytest.raises(errors.WrongStatus):
        await service.join(t.id, EVE, "Eve")
    with pytest.raises(errors.WrongStatus):
        await service.leave(t.id, ANA)
    assert (await store.players.get(ANA)).name == "Ana"  # type: ignore[union-attr]


async def test_full_table_refuses_more_people(service: TableService) -> None:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="draw")
    t = await service.join(t.id, BEA, "Bea")
    with pytest.raises(errors.TableFull):
        await service.join(t.id, CAR, "Car")
    with pytest.raises(errors.TableFull):
        await service.add_computer(t.id, ANA)


@pytest.mark.parametrize(
    ("variant", "options", "timer"),
    [
        ("chess", {}, 120),
        ("partners", {"target": 77}, 120),
        ("partners", {"colour": "red"}, 120),
        ("spanish", {"first_hand": "random"}, 120),
        ("partners", {}, 5),
        ("partners", {}, 601),
        ("partners", {}, 7200),  # between live timers and correspondence paces: none of them
        ("partners", {}, 4 * 24 * 3600),
    ],
)
async def test_bad_variant_or_options_are_refused_and_nothing_stored(
    service: TableService, store: Store, variant: str, options: dict, timer: int
) -> None:
    with pytest.raises(errors.InvalidOptions) as exc:
        await service.create_table(
            host_id=ANA, host_name="Ana", variant=variant, options=options, turn_timer=timer
        )
    assert exc.value.code == "invalid_options" and str(exc.value)
    assert await store.tables.list_by_status("lobby", "running") == []


async def test_unknown_variant_message_names_the_choices(service: TableService) -> None:
    with pytest.raises(errors.InvalidOptions, match="partners"):
        await service.create_table(host_id=ANA, host_name="Ana", variant="chess")


async def test_options_reach_the_ruleset(service: TableService) -> None:
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="partners", options={"target": 50, "scoring": None}
    )
    assert t.ruleset.target == 50 and t.table.options == {"target": 50}


async def test_seven_seven_person_takes_a_team(service: TableService) -> None:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="seven-seven")
    assert t.seats_of(ANA) == (0, 2)
    t = await service.join(t.id, BEA, "Bea")
    assert t.seats_of(BEA) == (1, 3) and t.is_full
    with pytest.raises(errors.TableFull):
        await service.join(t.id, CAR, "Car")
    t = await service.start(t.id, ANA)
    views = await service.views_for(t.id, ANA)
    assert [v.seat for v in views] == [0, 2] and all(v.hand for v in views)
    # Ana plays whichever of her seats is to move, several turns in a row.
    for _ in range(8):
        turn = t.turn
        assert turn is not None
        user = ANA if turn in (0, 2) else BEA
        other = BEA if user == ANA else ANA
        with pytest.raises(errors.NotYourTurn):
            await service.act(t.id, other, Pass())
        view = next(v for v in await service.views_for(t.id, user) if v.seat == turn)
        t = (await service.act(t.id, user, view.legal[0])).table


async def test_cancel_by_host_or_manager_only(service: TableService, store: Store) -> None:
    t = await four_people(service)
    with pytest.raises(errors.NotHost):
        await service.cancel(t.id, BEA)
    t = await service.cancel(t.id, BEA, force=True)
    assert t.status == "cancelled"
    assert (await store.tables.get(t.id)).status == "cancelled"  # type: ignore[union-attr]
    with pytest.raises(errors.TableFinished):
        await service.act(t.id, ANA, Pass())
    with pytest.raises(errors.TableFinished):
        await service.cancel(t.id, ANA)


async def test_one_running_table_per_channel(service: TableService) -> None:
    await four_people(service)
    t = await service.create_table(host_id=EVE, host_name="Eve", variant="draw", channel_id=900)
    t = await service.add_computer(t.id, EVE)
    with pytest.raises(errors.PlaceBusy):
        await service.start(t.id, EVE)
    assert service.place_busy(900)
    # Once the first table moved to a thread, the channel is free again.
    first = service.table_in(channel_id=900)
    assert first is not None
    await service.set_messages(first.id, thread_id=901, message_id=5)
    assert service.table_in(thread_id=901) is not None and not service.place_busy(900)
    assert (await service.start(t.id, EVE)).status == "running"


async def test_one_running_table_per_thread(service: TableService) -> None:
    """Our decision: a thread holds one running match, whether the match made the thread or
    was opened in it; another place is not affected."""
    first = await four_people(service)
    await service.set_messages(first.id, thread_id=901, message_id=5)
    t = await service.create_table(host_id=EVE, host_name="Eve", variant="draw", channel_id=901)
    t = await service.add_computer(t.id, EVE)
    assert service.place_busy(901) and not service.place_busy(901, exclude=first.id)
    assert not service.place_busy(900) and not service.place_busy(902)
    with pytest.raises(errors.PlaceBusy):
        await service.start(t.id, EVE)
    assert (await service.get(t.id)).status == "lobby"


async def test_unknown_table(service: TableService) -> None:
    with pytest.raises(errors.TableNotFound):
        await service.act(424242, ANA, Pass())
    with pytest.raises(errors.TableNotFound):
        await service.get(424242)


# ---------------------------------------------------------------------------- bad actions


async def test_every_bad_action_is_typed_and_changes_nothing(
    service: TableService, store: Store
) -> None:
    t = await four_people(service)
    turn = t.turn
    assert turn is not None
    mover = user_at(t, turn)
    idle = user_at(t, (turn + 1) % 4)
    before = await snapshot(store, service, t.id)

    with pytest.raises(errors.NotSeated) as stranger:
        await service.act(t.id, EVE, Pass())
    with pytest.raises(errors.NotYourTurn) as out_of_turn:
        await service.act(t.id, idle, Pass())
    view = (await service.views_for(t.id, mover))[0]
    not_held = next(tile for tile in t.ruleset.tiles if tile not in view.hand)
    with pytest.raises(errors.IllegalMove) as illegal:
        await service.act(t.id, mover, Play(not_held, None))
    with pytest.raises(errors.IllegalMove) as must_play:
        await service.act(t.id, mover, Pass())
    with pytest.raises(errors.StaleAction) as stale:
        await service.act(t.id, mover, view.legal[0], expected_seq=t.seq + 3)
    with pytest.raises(errors.NotSeated):
        await service.act(t.id, mover, Resign((turn + 1) % 4))

    codes = [e.value.code for e in (stranger, out_of_turn, illegal, must_play, stale)]
    assert codes == ["not_seated", "not_your_turn", "illegal", "illegal", "stale"]
    assert illegal.value.engine_code and "." in str(illegal.value)
    assert await snapshot(store, service, t.id) == before
    # And the right move still works afterwards.
    result = await service.act(t.id, mover, view.legal[0], expected_seq=t.seq)
    assert result.seq == 0 and result.by == "player"
    assert await store.actions.count(t.id) == 1


async def test_finished_table_refuses_actions(service: TableService, store: Store) -> None:
    t = await four_people(service)
    result = await service.resign(t.id, BEA)
    assert result.outcome is not None and result.outcome.reason == "resign"
    assert result.outcome.winner_side == 0 and result.table.status == "finished"
    stored = await store.matches.get(t.id)
    assert stored is not None and stored.outcome is not None and stored.finished_at
    count = await store.actions.count(t.id)
    for user in (ANA, BEA, EVE):
        with pytest.raises(errors.TableFinished) as exc:
            await service.act(t.id, user, Pass())
        assert exc.value.code == "table_finished"
    assert await store.actions.count(t.id) == count
    assert (await service.get(t.id)).status == "finished"


# ------------------------------------------------------------------------------- races


async def test_two_simultaneous_acts_apply_exactly_one(service: TableService, store: Store) -> None:
    t = await four_people(service)
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    view = (await service.views_for(t.id, mover))[0]
    outcomes = await asyncio.gather(
        service.act(t.id, mover, view.legal[0], expected_seq=0),
        service.act(t.id, mover, view.legal[-1], expected_seq=0),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and len(failed) == 1
    assert isinstance(failed[0], errors.StaleAction)
    assert await store.actions.count(t.id) == 1 and (await service.get(t.id)).seq == 1


async def test_double_click_without_version_applies_once(
    service: TableService, store: Store
) -> None:
    t = await four_people(service)
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    view = (await service.views_for(t.id, mover))[0]
    outcomes = await asyncio.gather(
        *(service.act(t.id, mover, view.legal[0]) for _ in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(
        isinstance(o, errors.NotYourTurn | errors.IllegalMove)
        for o in outcomes
        if isinstance(o, BaseException)
    )
    assert await store.actions.count(t.id) == 1


@contextlib.asynccontextmanager
async def one_move_by_a(
    db_path: Path, clock: FakeClock
) -> AsyncIterator[tuple[TableService, Store, TableInfo, int, list[Action]]]:
    """Two services on one database (as two bot processes would): both know a table at
    action 0, then a makes the first move. Yields b, b's store, the table, the mover and
    his legal actions at action 0."""
    store_a, store_b = await Store.open(db_path), await Store.open(db_path)
    try:
        a, b = make_service(store_a, clock), make_service(store_b, clock)
        t = await four_people(a)
        await b.load_open_tables()
        mover = user_at(t, t.turn)  # type: ignore[arg-type]
        legal = (await a.views_for(t.id, mover))[0].legal
        await a.act(t.id, mover, legal[0])
        yield b, store_b, t, mover, legal
    finally:
        await store_a.close()
        await store_b.close()


async def test_two_processes_on_one_database(db_path: Path, clock: FakeClock) -> None:
    """Two services act on the same turn: the store stops one."""
    async with one_move_by_a(db_path, clock) as (b, store_b, t, mover, legal):
        with pytest.raises(errors.StaleAction):
            await b.act(t.id, mover, legal[-1])
        # b reloaded the truth from the store after losing.
        assert (await b.get(t.id)).seq == 1
        assert await store_b.actions.count(t.id) == 1
        (first,) = await store_b.actions.list(t.id)
        assert decode_action(first.action) == legal[0]


async def test_the_loser_of_a_race_times_the_table_from_the_store(
    db_path: Path, clock: FakeClock
) -> None:
    """A process that lost a race (another recorded the action its deadline was for, say a
    process woken after its shard moved) takes the table's deadlines from the store with the
    table, so the next turn's timer still runs: the table never waits for nobody."""
    async with one_move_by_a(db_path, clock) as (b, store_b, t, _mover, _legal):
        assert {d.seq for d in b.scheduler.pending(t.id)} == {0}
        clock.advance(3600)  # b's deadlines (of action 0) are due: b loses the race, and the
        # next turn's time-out, which a stored, is b's now: the absent person is played for.
        played = await b.tick() + await b.tick()
        assert [(r.seq, r.by) for r in played] == [(1, "timeout")]
        assert await store_b.actions.count(t.id) == 2 and (await b.get(t.id)).seq == 2
        stored = await store_b.deadlines.list(t.id)
        assert stored and {d.seq for d in stored} == {2}
        assert b.scheduler.pending(t.id) == sorted(stored, key=lambda r: (r.due_at, r.kind))


async def test_a_process_that_lost_the_shard_while_waiting_writes_nothing(
    store: Store, clock: FakeClock
) -> None:
    """The lease is looked at once more right before the write: a click that waited for the
    table while the process lost the server's shard (paused, then woken) changes nothing."""
    held = {"shard": True}
    service = make_service(store, clock, owns=lambda _guild: held["shard"])
    t = await four_people(service)
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    legal = (await service.views_for(t.id, mover))[0].legal
    async with service.core.tables[t.id].lock:  # the table is busy: the click waits for it
        click = asyncio.create_task(service.act(t.id, mover, legal[0]))
        await asyncio.sleep(0.01)
        held["shard"] = False
    with pytest.raises(errors.TablesElsewhere):
        await click
    assert await store.actions.count(t.id) == 0


async def test_a_timer_run_without_the_lease_runs_again_later(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A time-out that waited for the table while the process could not prove it holds the
    server's lease (renewed late, or lost) writes nothing and is no error; it runs again later,
    and then plays if the lease is the process's again (a lost one takes the table away)."""
    held = {"shard": True}
    service = make_service(store, clock, owns=lambda _guild: held["shard"])
    t = await four_people(service)
    clock.advance(3600)
    async with service.core.tables[t.id].lock:
        ticking = asyncio.create_task(service.tick())
        await asyncio.sleep(0.01)
        held["shard"] = False
    assert await ticking == []
    assert await store.actions.count(t.id) == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    (again,) = [d for d in service.scheduler.pending(t.id) if d.kind == "timeout"]
    assert again.due_at > clock.now and again.seq == 0
    held["shard"] = True
    clock.advance(3600)
    assert [(r.seq, r.by) for r in await service.tick()] == [(0, "timeout")]


async def test_a_move_written_as_the_lease_renewal_runs_late_keeps_the_next_deadlines(
    store: Store, clock: FakeClock
) -> None:
    """A move whose write ends while the process cannot prove its lease for a moment (the
    heartbeat late under load, the shard still its own) leaves the table timed: its next
    turn's stored deadlines stay on the clock and run once the lease is renewed."""
    held = {"shard": True}
    service = make_service(store, clock, owns=lambda _guild: held["shard"])
    t = await four_people(service)
    commit = service.core.commit

    async def commit_then_lapse(*args: Any, **kwargs: Any) -> None:
        await commit(*args, **kwargs)
        held["shard"] = False  # written; the renewal is late from now on

    service.core.commit = commit_then_lapse  # type: ignore[method-assign]
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    legal = (await service.views_for(t.id, mover))[0].legal
    await service.act(t.id, mover, legal[0])
    service.core.commit = commit  # type: ignore[method-assign]
    held["shard"] = True  # renewed: still this process's shard
    stored = await store.deadlines.list(t.id)
    assert stored and {d.seq for d in stored} == {1}
    assert service.scheduler.pending(t.id) == sorted(stored, key=lambda r: (r.due_at, r.kind))
    clock.advance(3600)
    assert [(r.seq, r.by) for r in await service.tick()] == [(1, "timeout")]
    await service.aclose()


# -------------------------------------------------------------------- observers and results


async def test_observer_sees_every_change_in_order(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="partners", options={"target": 50}
    )
    t = await service.start(t.id, ANA, fill_with_computers=True)
    while t.status == "running":
        if t.turn == 0:  # Ana
            view = (await service.views_for(t.id, ANA))[0]
            t = (await service.act(t.id, ANA, view.legal[0])).table
        else:
            clock.advance(10)
            await service.tick()
            t = await service.get(t.id)
    await service.idle()
    names = recorder.names()
    assert names[0] == "on_lobby_changed" and names[1] == "on_table_started"
    assert names[-1] == "on_match_ended"
    actions = recorder.of("on_action")
    assert [r.seq for (r,) in actions] == list(range(len(actions)))
    ended = recorder.of("on_hand_ended")
    assert len(ended) == len(t.public_view().hand_results) >= 1  # type: ignore[union-attr]
    # A hand's end is announced right after the action that ended it.
    for i, name in enumerate(names):
        if name == "on_hand_ended":
            assert names[i - 1] == "on_action"
            assert recorder.calls[i - 1][1][0].hand_result is not None


async def test_failing_observer_does_not_break_the_game(
    service: TableService, store: Store
) -> None:
    class Broken(Recorder):
        async def on_action(self, result) -> None:  # type: ignore[override]
            raise RuntimeError("discord is down")

    good, bad = Recorder(), Broken()
    service.add_observer(bad)
    service.add_observer(good)
    t = await four_people(service)
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    await service.act(t.id, mover, (await service.views_for(t.id, mover))[0].legal[0])
    await service.idle()
    assert len(good.of("on_action")) == 1 and await store.actions.count(t.id) == 1


async def test_action_result_and_public_view_hold_no_hidden_tile(service: TableService) -> None:
    t = await four_people(service)
    mover = user_at(t, t.turn)  # type: ignore[arg-type]
    result = await service.act(t.id, mover, (await service.views_for(t.id, mover))[0].legal[0])
    view = result.view
    assert view.seat is None and view.hand is None and view.legal == ()
    assert "Match" not in repr(result.table)  # the hidden state is not even in its repr


async def test_store_log_replays_to_the_service_state(service: TableService, store: Store) -> None:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="draw", seat_host=False)
    t = await service.start(t.id, ANA, fill_with_computers=True)
    while await service.play_computer(t.id):
        pass
    t = await service.get(t.id)
    row = await store.matches.get(t.id)
    assert row is not None and row.outcome is not None
    log = await store.actions.list(t.id)
    replayed = Match.replay(t.ruleset, row.seed, [decode_action(a.action) for a in log])
    assert replayed.public_view() == t.public_view()
    assert [r.result for r in await store.hand_results.list(t.id)] == [
        h.to_dict() for h in replayed.hand_results
    ]
    assert replayed.outcome is not None and replayed.outcome.to_dict() == row.outcome


async def test_errors_carry_a_template_for_translation(service: TableService) -> None:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="partners")
    with pytest.raises(errors.SeatsEmpty) as exc:
        await service.start(t.id, ANA)
    err = exc.value
    assert err.template == "Some seats are empty: fill them with computer players?"
    assert err.params == {"empty": 3} and str(err) == err.template.format(**err.params)
    with pytest.raises(errors.InvalidOptions) as bad:
        await service.create_table(host_id=ANA, host_name="Ana", variant="chess")
    assert bad.value.template.format(**bad.value.params) == str(bad.value)


async def test_concurrent_first_use_of_a_table_loads_it_once(
    db_path: Path, clock: FakeClock, service: TableService
) -> None:
    t = await four_people(service)
    store = await Store.open(db_path)
    try:
        other = make_service(store, clock)
        infos = await asyncio.gather(*(other.views_for(t.id, ANA) for _ in range(5)))
        assert all(v == infos[0] for v in infos)
        assert len(other.open_tables()) == 1
    finally:
        await store.close()
