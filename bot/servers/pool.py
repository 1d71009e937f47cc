"""The open pool: the servers whose people may be seated with people of other servers, and the
people who would rather not be.

A server is out of the pool until its managers join it (``/domino server-settings
open_pool:on``); a person is in it wherever his server is, unless he opted out (``/domino pool
join:off``; forget-me deletes his choice). Leaving the pool drops the server's places at the
tables across servers it shows (the tables go on in the other servers, a computer playing for
its people: :class:`~bot.tables.places.TablePlaces`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from bot.store import Store
from bot.store.places import PlaceRow, PoolRepo
from bot.tables.places import TablePlaces

__all__ = ["OpenPool"]


class OpenPool:
    """Reads and changes who is in the open pool."""

    def __init__(
        self, store: Store, tables: Any = None, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.places = TablePlaces(tables) if tables is not None else None
        self.clock = clock

    @property
    def repo(self) -> PoolRepo:
        return PoolRepo(self.store.db)

    async def joined(self, guild_id: int) -> bool:
        """Whether ``guild_id`` is in the open pool."""
        return await self.repo.joined(guild_id)

    async def servers_in(self, guild_ids: Iterable[int]) -> set[int]:
        """Those of ``guild_ids`` in the open pool."""
        return await self.repo.members(guild_ids)

    async def set_joined(self, guild_id: int, joined: bool, *, by: int | None) -> list[PlaceRow]:
        """Join or leave the pool; leaving drops the server's places at the tables across
        servers (returned)."""
        if joined:
            await self.repo.join(guild_id, by=by, now=self.clock())
            return []
        await self.repo.leave(guild_id)
        if self.places is None:
            return []
        return await self.places.drop_guild(guild_id, why="the server left the open pool")

    async def opted_out(self, user_id: int) -> bool:
        return bool(await self.repo.opted_out([user_id]))

    async def set_opted_out(self, user_id: int, out: bool) -> None:
        if out:
            await self.repo.opt_out(user_id, now=self.clock())
        else:
            await self.repo.opt_in(user_id)

    async def eligible(self, people: Iterable[tuple[int, int]]) -> set[int]:
        """Of ``people`` ((user, the server he queues in)), those who may be seated with
        people of other servers: his server is in the pool and he did not opt out."""
        people = list(people)
        servers = await self.repo.members(g for _, g in people)
        out = await self.repo.opted_out(u for u, _ in people)
        return {u for u, g in people if g in servers and u not in out}
