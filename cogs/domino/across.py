"""Opening a table across servers (the open pool) from Discord's people: what the quick-match
queue calls once it seated people of several servers together.

Each person sits under his account's global name (never a server nickname) and plays from the
server he queued in; the table runs on this process, in the first of those servers it holds,
and is shown in each server's table channel (:class:`~bot.tables.places.Place`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.errors import TablesElsewhere
from bot.tables.places import Place
from bot.tables.service import TableInfo
from cogs.names import public_name
from domino import Ruleset

__all__ = ["open_across"]


async def open_across(
    service: Any,
    presenter: Any,
    *,
    ruleset: Ruleset,
    options: dict[str, Any],
    seated: Sequence[tuple[discord.abc.User, int] | None],
    channels: Mapping[int, int],
    turn_timer: int,
    locale: str | None = None,
    level: str | None = None,
) -> TableInfo:
    """Open and start a table across servers: ``seated`` holds (person, the server he plays
    from) per seat group, None for a computer; ``channels`` the table channel of each server.
    The table's own server is the first person's server this process holds (raise
    :class:`TablesElsewhere` if none). Returns the table once its game is posted (cancelled
    if no server would let the bot post it)."""
    servers = list(dict.fromkeys(g for p in seated if p is not None for _, g in [p]))
    owner = next((g for g in servers if service.owns(g)), None)
    if owner is None:
        raise TablesElsewhere(
            "The bot is moving this server's tables between its processes; try again in a"
            " few seconds."
        )
    places = [
        Place(g, channels[g], tuple(dict.fromkeys(u.id for p in seated if p and p[1] == g
                                                  for u in [p[0]])))
        for g in servers
        if g != owner
    ]
    info = await service.open_seated(
        host_id=next(p[0].id for p in seated if p is not None and p[1] == owner),
        ruleset=ruleset,
        options=options,
        people=[None if p is None else (p[0].id, public_name(p[0])) for p in seated],
        guild_id=owner,
        channel_id=channels[owner],
        turn_timer=turn_timer,
        locale=locale,
        level=level,
        places=places,
    )
    await presenter.open_game(info.id)
    return await service.get(info.id)  # type: ignore[no-any-return]
