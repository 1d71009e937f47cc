"""Finished matches a person may replay: which ones, and what is known of each seat."""

from __future__ import annotations

from bot.store import Store
from bot.store.table_extras import FinishedRepo
from bot.tables.service import TableService

ANA, BEA, EVE = 101, 102, 103
HERE, THERE = 7001, 7002


async def resigned(service: TableService, guild_id: int) -> int:
    """A three-player match on ``guild_id``: Ana, Bea and a computer; Ana resigns."""
    t = await service.create_table(
        host_id=ANA, host_name="Ana *nick*", variant="three", guild_id=guild_id, channel_id=900
    )
    await service.join(t.id, BEA, "Bea")
    await service.start(t.id, ANA, fill_with_computers=True)
    await service.resign(t.id, ANA)
    return t.id


async def test_visible_matches_carry_their_server_and_seats(
    service: TableService, store: Store
) -> None:
    here = await resigned(service, HERE)
    there = await resigned(service, THERE)
    repo = FinishedRepo(store.db)

    (match,) = await repo.visible(EVE, HERE)  # a member of this server sees its match only
    assert (match.table_id, match.guild_id, match.variant) == (here, HERE, "three")
    assert match.finished_at > 0
    seats = [(s.table_id, s.seat, s.user_id, s.name, s.kind) for s in match.seats]
    assert seats == [
        (here, 0, ANA, "Ana *nick*", "human"),
        (here, 1, BEA, "Bea", "human"),
        (here, 2, None, "Computer 3", "computer"),
    ]
    # A player sees his matches of every server, newest first; one table on request.
    assert [(m.table_id, m.guild_id) for m in await repo.visible(BEA, HERE)] == [
        (there, THERE),
        (here, HERE),
    ]
    (one,) = await repo.visible(BEA, HERE, table_id=there)
    assert one.guild_id == THERE and [s.user_id for s in one.seats] == [ANA, BEA, None]
    assert await repo.visible(EVE, HERE, table_id=there) == []
