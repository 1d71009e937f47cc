"""A table shown in several servers (the open pool): its places, and a place dropped.

A table across servers is one table of the store, run by the process that owns its own server
(``tables.guild_id``); each place (a server and its table channel) has its own thread, game
message and marks in ``table_places``, and the owner's feed publishes to every place. A place
whose server left the pool, removed the bot or deleted the channel is dropped: the table goes
on in the others, and a computer plays for the people who played from there (as after too many
time-outs: :meth:`TableService.take_over`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import InvalidOptions
from bot.store import Transaction
from bot.store.places import PlaceRow, PlacesRepo

__all__ = ["POOL_OPTION", "Place", "TablePlaces", "place_rows"]

log = logging.getLogger(__name__)

#: The option key of a table across servers (no rematch is offered there; its feed publishes
#: to every place).
POOL_OPTION = "pool"


@dataclass(frozen=True, slots=True)
class Place:
    """A server that shows a table across servers, beyond the owner's: its table channel and
    the people who play from there (his clicks come from it; his name is his global one)."""

    guild_id: int
    channel_id: int
    people: tuple[int, ...]


def place_rows(
    table_id: int,
    *,
    guild_id: int | None,
    channel_id: int | None,
    seated: Sequence[int],
    places: Sequence[Place],
) -> list[PlaceRow]:
    """The rows of the table's places (place 0: the owner's, with the people no other place
    names); raise :class:`InvalidOptions` if they do not fit the table."""
    if guild_id is None or channel_id is None:
        raise InvalidOptions("A table across servers opens in a server's channel.")
    guilds = [guild_id, *(p.guild_id for p in places)]
    if len(set(guilds)) != len(guilds):
        raise InvalidOptions("Each server shows a table across servers once.")
    named = [u for p in places for u in p.people]
    if len(set(named)) != len(named) or not set(named) <= set(seated):
        raise InvalidOptions("Each person of a place must sit at the table, in one place.")
    rows = [
        PlaceRow(
            table_id, 0, guild_id, channel_id, tuple(u for u in seated if u not in set(named))
        )
    ]
    for number, place in enumerate(places, start=1):
        rows.append(PlaceRow(table_id, number, place.guild_id, place.channel_id, place.people))
    return rows


async def write_places(tx: Transaction, rows: Iterable[PlaceRow]) -> None:
    """Store the places in the table's opening transaction."""
    repo = PlacesRepo(tx.db)
    for row in rows:
        await repo.add(row)


class TablePlaces:
    """The places of the tables across servers, read and dropped through one table service."""

    def __init__(self, service: Any) -> None:
        self.service = service  # the TableService (take-overs; its store)

    @property
    def repo(self) -> PlacesRepo:
        return PlacesRepo(self.service.store.db)

    async def of_table(self, table_id: int) -> list[PlaceRow]:
        return await self.repo.of_table(table_id)

    async def save(self, place: PlaceRow) -> bool:
        """Move the place's marks; False if it was dropped meanwhile."""
        return await self.repo.save(place)

    async def published(self, table_id: int) -> None:
        """The closed table was published in every place: its places keep no person."""
        await self.repo.published(table_id)

    async def drop(self, place: PlaceRow, *, why: str) -> bool:
        """The place is shown no more. The feed of the process that runs the table (woken by
        the caller, or at the table's next change or deadline) tells the other places and has
        a computer play for the people no place reaches (:meth:`unreachable`)."""
        if not await self.repo.drop(place.table_id, place.place):
            return False
        log.info(
            "table %s: place %s (server %s) dropped: %s",
            place.table_id, place.place, place.guild_id, why,
        )
        return True

    async def drop_guild(self, guild_id: int, *, why: str) -> list[PlaceRow]:
        """Drop every place of ``guild_id`` (it left the pool or removed the bot)."""
        dropped = [p for p in await self.repo.of_guild(guild_id) if await self.drop(p, why=why)]
        return dropped

    async def drop_channel(self, channel_id: int, *, why: str) -> list[PlaceRow]:
        """Drop every place shown in ``channel_id`` (deleted), or in a thread of it."""
        found = await self.repo.of_channel(channel_id)
        return [p for p in found if await self.drop(p, why=why)]

    async def unreachable(self, info: Any, places: Sequence[PlaceRow]) -> list[int]:
        """The people still playing at ``info`` whom no place reaches any more."""
        reached = {u for p in places for u in p.people}
        return sorted(
            {
                s.user_id
                for s in info.seats
                if s is not None and s.kind == "human" and s.user_id is not None
                and s.user_id not in reached
            }
        )
