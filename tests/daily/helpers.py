"""Playing a daily attempt's legs through the table service, without Discord."""

from __future__ import annotations

from bot.tables.service import TableService
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import run


async def play_leg(
    tables: TableService, clock: FakeClock, table_id: int, user_id: int, *, moves: int = 10_000
) -> None:
    """Play the table out: the person makes his first legal action each turn (at most
    ``moves`` of them), the computers theirs."""
    for _ in range(10_000):
        await run(tables, clock)
        info = await tables.get(table_id)
        if info.status != "running":
            return
        row = info.turn_seat
        if row is not None and row.kind == "human" and row.user_id == user_id:
            if moves <= 0:
                return
            (view,) = await tables.views_for(table_id, user_id)
            await tables.act(table_id, user_id, view.legal[0], expected_seq=info.seq)
            moves -= 1
        else:
            await run(tables, clock, 1.0)
    raise AssertionError("the leg never ended")
