"""Practice tables and their Hint, below Discord: who may ask, when, and that asking plays
nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot import errors
from bot.tables.practice import hint_at, is_practice, mark
from bot.tables.service import TableInfo, TableService
from tests.bot.helpers import count_hint_searches

ANA, BEA, CAR, DAN = 101, 102, 103, 104


async def table_of_four(service: TableService) -> TableInfo:
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="partners")
    for uid, name in ((BEA, "Bea"), (CAR, "Car"), (DAN, "Dan")):
        t = await service.join(t.id, uid, name)
    return await service.start(t.id, ANA)


def user_to_act(info: TableInfo) -> int:
    row = info.seats[info.turn]  # type: ignore[index]
    assert row is not None and row.user_id is not None
    return row.user_id


async def test_a_hint_is_a_legal_move_for_the_player_to_act_and_plays_nothing(
    service: TableService,
) -> None:
    info = await table_of_four(service)
    await mark(service, info.id)
    assert await is_practice(service, info.id)
    mover = user_to_act(info)
    found = await hint_at(service, info.id, mover, info.seq)
    assert found is not None
    view, hint = found
    assert view.seat == info.turn and hint.action in view.legal and hint.reason
    assert (await service.get(info.id)).seq == info.seq


async def test_hints_are_refused_to_others_at_ordinary_and_closed_tables(
    service: TableService,
) -> None:
    info = await table_of_four(service)
    mover = user_to_act(info)
    with pytest.raises(errors.ServiceError, match="practice tables only"):
        await hint_at(service, info.id, mover, info.seq)
    await mark(service, info.id)
    other = next(u for u in (ANA, BEA, CAR, DAN) if u != mover)
    with pytest.raises(errors.NotYourTurn):
        await hint_at(service, info.id, other, info.seq)
    with pytest.raises(errors.NotSeated):  # a stranger
        await hint_at(service, info.id, 999, info.seq)
    assert await hint_at(service, info.id, mover, info.seq - 1) is None  # a stale button
    await service.resign(info.id, mover)
    with pytest.raises(errors.TableFinished):
        await hint_at(service, info.id, mover, info.seq)


async def test_twenty_clicks_at_once_run_one_search(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our decision: a hint is searched once per table state and seat, one search at a time
    per person; the same question asked again is answered from what was found."""
    searches = count_hint_searches(monkeypatch)
    info = await table_of_four(service)
    await mark(service, info.id)
    mover = user_to_act(info)
    found = await asyncio.gather(*(hint_at(service, info.id, mover, info.seq) for _ in range(20)))
    assert len(searches) == 1 and len({id(f) for f in found}) == 1
    assert await hint_at(service, info.id, mover, info.seq) == found[0]
    assert len(searches) == 1
    _, hinted = found[0]  # type: ignore[misc]
    await service.act(info.id, mover, hinted.action, expected_seq=info.seq)
    after = await service.get(info.id)  # the next state is a new question
    assert await hint_at(service, info.id, user_to_act(after), after.seq) is not None
    assert len(searches) == 2


async def test_one_search_at_a_time_per_person(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person asking at two tables at once waits for his first search before his second
    starts."""
    searches = count_hint_searches(monkeypatch, 0.05)
    by_mover: dict[int, list[TableInfo]] = {}
    while max(map(len, by_mover.values()), default=0) < 2:  # 5 tables of 4 always suffice
        info = await table_of_four(service)
        await mark(service, info.id)
        by_mover.setdefault(user_to_act(info), []).append(info)
    mover, (one, two) = next((u, t[:2]) for u, t in by_mover.items() if len(t) >= 2)
    found = await asyncio.gather(
        *(hint_at(service, t.id, mover, t.seq) for t in (one, two, one, two, one, two))
    )
    assert all(f is not None for f in found)
    assert searches == [one.turn, two.turn] and searches.most == 1
