"""Practice tables and their Hint, below Discord: who may ask, when, and that asking plays
nothing."""

from __future__ import annotations

import pytest

from bot import errors
from bot.tables.practice import hint_at, is_practice, mark
from bot.tables.service import TableInfo, TableService

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
