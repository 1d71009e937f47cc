"""Finished matches for the review tests, played through the table service."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.tables.service import TableService
from domino import Resign

ANA, BEA, CAI, DOV, EVE = 101, 102, 103, 104, 105


async def play_out(
    service: TableService, table_id: int, users: Sequence[int], seed: int = 0,
    *, stop_at: int | None = None,
) -> None:
    """The seated people make random legal moves until the match ends (or until ``stop_at``
    moves were made)."""
    rng = random.Random(seed)
    moves = 0
    while True:
        info = await service.get(table_id)
        if info.status != "running" or (stop_at is not None and moves >= stop_at):
            return
        for user in users:
            views = await service.views_for(table_id, user)
            acting = [v for v in views if v.legal and v.seat == info.turn]
            if acting:
                action = rng.choice([a for a in acting[0].legal if not isinstance(a, Resign)])
                await service.act(table_id, user, action, expected_seq=info.seq)
                moves += 1
                break
        else:
            raise AssertionError(f"nobody of {users} is to move at table {table_id}")


async def finished(
    service: TableService, variant: str = "draw", users: Sequence[int] = (ANA, BEA),
    seed: int = 0, options: dict[str, object] | None = None, guild_id: int = 7001,
) -> int:
    """A match of ``users`` at random, played to its end; its table id."""
    t = await service.create_table(
        host_id=users[0], host_name="Ana", variant=variant, guild_id=guild_id,
        channel_id=900, options=options,
    )
    for user in users[1:]:
        await service.join(t.id, user, f"P{user}")
    await service.start(t.id, users[0])
    await play_out(service, t.id, users, seed)
    await service.idle()
    return t.id
