"""The arena's service on both backends: individual (changing partners) and pairs (fixed teams)
arenas paired again as tables end, leaving and joining again, the end time, bad input
(docs/tournaments.md, Arena)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.errors import InvalidOptions, WrongStatus
from bot.tables.service import TableService
from bot.tournaments.arena import REPEAT_WAIT
from bot.tournaments.arena_rounds import PAIR, Conflict
from bot.tournaments.service import TournamentService
from bot.tournaments.store import BoardRow, TournamentRepo
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import run

GUILD, CHANNEL, HOST = 10, 20, 1


async def arena(events: TournamentService, fmt: str, **kwargs: object) -> int:
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Arena", variant="partners",
        format=fmt, hands=1, system="arena", **kwargs,  # type: ignore[arg-type]
    )
    return event.id


async def finish(
    events: TournamentService, tables: TableService, clock: FakeClock, board: BoardRow
) -> None:
    """Computers take the board's seats and play its table to the end."""
    assert board.table_id is not None
    for user in {u for u in board.people if u is not None}:
        await tables.take_over(board.table_id, user)
    for _ in range(200):
        await run(tables, clock, 1.0)
        rows = await events.repo.boards(board.tournament_id, board.round)
        if next(b for b in rows if b.board == board.board).status == "done":
            return
    raise AssertionError("the table never ended")


def playing(boards: list[BoardRow]) -> list[BoardRow]:
    return [b for b in boards if b.status == "playing"]


def opponents(board: BoardRow) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for side in (0, 1):
        for e in board.sides[side]:
            if e is not None:
                out[e] = {x for x in board.sides[1 - side] if x is not None}
    return out


async def test_individual_arena_changes_partners_and_opponents(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await arena(events, "individual")
    for u in range(100, 108):
        await events.register(event_id, u, f"P{u}")
    await events.start(event_id, HOST)
    await run(tables, clock)
    first = playing(await events.repo.boards(event_id))
    assert len(first) == 2 and all(len({p for p in b.people}) == 4 for b in first)
    # One table ends: its four cannot sit together without meeting an opponent again, so
    # they wait for the other table (our decision), at most REPEAT_WAIT.
    clock.advance(REPEAT_WAIT)
    await finish(events, tables, clock, first[0])
    boards = await events.repo.boards(event_id)
    assert len(boards) == 2
    timers = {t.kind: t for t in await events.repo.timers(event_id)}
    assert PAIR in timers
    await finish(events, tables, clock, first[1])
    boards = await events.repo.boards(event_id)
    again = [b for b in playing(boards) if b.round > first[1].round]
    assert len(again) == 2, boards
    met = {**opponents(first[0]), **opponents(first[1])}
    for b in again:
        for e, them in opponents(b).items():
            assert not them & met[e], (b, met[e])  # never the same opponent twice in a row
    state = await events.state(event_id)
    lines = state.arena_lines()
    winners = [line for line in lines if line.score == 2]
    assert len(winners) in (4, 8) or any(line.draws for line in lines)


async def test_pairs_arena_a_pair_joins_mid_event_and_one_leaves(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await arena(events, "pairs", arena=15 * 60)
    for a in (200, 202, 204):
        await events.invite(event_id, a, f"A{a}", (a + 1, f"B{a + 1}"))
        await events.answer_partner(event_id, a + 1, True)
    await events.start(event_id, HOST)
    await run(tables, clock)
    boards = await events.repo.boards(event_id)
    assert len(playing(boards)) == 1  # three pairs: one table, one pair waits
    # A fourth pair enters while the arena runs: it sits at once with the waiting pair.
    await events.invite(event_id, 206, "A206", (207, "B207"))
    await events.answer_partner(event_id, 207, True)
    await run(tables, clock)
    boards = await events.repo.boards(event_id)
    assert len(playing(boards)) == 2
    # A member of a seated pair leaves: his table is played to its end, his pair is not
    # paired again; he joins again and is paired again.
    leaver_board = playing(boards)[0]
    leaver = next(u for u in leaver_board.people if u is not None)
    entry = await events.withdraw(event_id, leaver)
    assert entry.status == "active"
    with pytest.raises(WrongStatus):
        await events.withdraw(event_id, leaver)
    await finish(events, tables, clock, leaver_board)
    await finish(events, tables, clock, playing(await events.repo.boards(event_id))[0])
    clock.advance(REPEAT_WAIT)
    await run(tables, clock)
    now = playing(await events.repo.boards(event_id))
    assert all(leaver not in b.people for b in now)
    await events.register(event_id, leaver, "back")
    await run(tables, clock, REPEAT_WAIT)
    assert any(leaver in b.people for b in playing(await events.repo.boards(event_id)))
    # The end time: no new table; the running ones finish, then the event ends.
    clock.advance(15 * 60)
    await run(tables, clock)
    count = len(await events.repo.boards(event_id))
    for b in playing(await events.repo.boards(event_id)):
        await finish(events, tables, clock, b)
    assert len(await events.repo.boards(event_id)) == count
    event = await events.get(event_id)
    assert event.status == "finished"
    places = await TournamentRepo(events.store.db).final_places(event_id)
    assert len({p.user_id for p in places}) == 8


async def test_arena_bad_input_changes_nothing(events: TournamentService) -> None:
    for kwargs, words in (
        ({"duration": 5 * 60}, "An arena lasts 10 to 360 minutes."),
        ({"duration": 7 * 3600}, "An arena lasts 10 to 360 minutes."),
        ({"rounds": 3}, "An arena has no rounds"),
        ({"playoff": 4}, "An arena has no playoff"),
    ):
        with pytest.raises(InvalidOptions) as found:
            await events.create(
                guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Arena",
                variant="draw", format="single", system="arena",
                arena=kwargs.pop("duration", None), **kwargs,  # type: ignore[arg-type]
            )
        assert found.value.message.startswith(words), found.value.message
    with pytest.raises(InvalidOptions):
        await events.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="S", variant="draw",
            format="single", arena=600,
        )
    assert await events.repo.open_events(GUILD) == []
    event_id = await arena(events, "individual")
    await events.start(event_id, HOST)
    with pytest.raises(WrongStatus):
        await events.pause(event_id, HOST)
    assert (await events.get(event_id)).status == "running"


async def test_a_table_whose_entrant_sits_already_is_not_opened(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """The seating guard of the table's own transaction: an entrant seated already (a second
    pairing racing the first, or run again after a kill) rolls the whole table back."""
    event_id = await arena(events, "individual")
    for u in range(100, 105):
        await events.register(event_id, u, f"P{u}")
    await events.start(event_id, HOST)
    await run(tables, clock)
    (board,) = playing(await events.repo.boards(event_id))
    before = await events.store.db.fetchval("SELECT COUNT(*) FROM tables")
    state = await events.state(event_id)
    again = dataclasses.replace(board, round=board.round + 1, table_id=None, status="waiting")
    with pytest.raises(Conflict):
        await events._arena._open(state, again)
    assert await events.store.db.fetchval("SELECT COUNT(*) FROM tables") == before
    assert len(await events.repo.boards(event_id)) == 1
    # After the end time nobody joins: he is told why, and nothing is written.
    clock.advance(3600)
    with pytest.raises(WrongStatus, match="pairing is over"):
        await events.register(event_id, 999, "Late")
    assert await events.repo.entry_of(event_id, 999) is None
