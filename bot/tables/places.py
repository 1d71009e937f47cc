"""A table shown in several servers (the open pool): its places, and a place dropped.

A table across servers is one table of the store, run by the process that owns its own server
(``tables.guild_id``); each place (a server and its table channel) has its own thread, game
message and marks in ``table_places``, and the owner's feed publishes to every place. A place
whose server left the pool, removed the bot or deleted the channel is dropped: the table goes
on in the others, and a computer plays for the people who played from there (as after too many
time-outs: :meth:`TableService.take_over`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import errors
from bot.errors import InvalidOptions, ServiceError, TablesElsewhere
from bot.store import Transaction
from bot.store.places import ForwardRepo, ForwardRow, PlaceRow, PlacesRepo
from bot.tables.values import ActionResult
from domino import Action, decode_action, encode_action

__all__ = [
    "POOL_OPTION",
    "Place",
    "TablePlaces",
    "forward_act",
    "place_rows",
    "serve_forwarded",
]

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


# -------------------------------------------------------------------- clicks between processes

#: Seconds between two looks at the forwarded clicks (the running process) or at the answer
#: (the asking one).
FORWARD_POLL = 0.1
#: Seconds a forwarded click waits for its answer before it is given up (and not applied).
FORWARD_WAIT = 20.0
#: Seconds an answer is kept after it was given.
FORWARD_KEPT = 60.0


def _error_text(exc: ServiceError) -> str:
    return json.dumps(
        {"kind": type(exc).__name__, "template": exc.template, "params": exc.params},
        default=str,
    )


def _error_of(text: str) -> ServiceError:
    data = json.loads(text)
    kind = getattr(errors, str(data.get("kind")), ServiceError)
    if not (isinstance(kind, type) and issubclass(kind, ServiceError)):
        kind = ServiceError
    return kind(str(data.get("template", "")), **dict(data.get("params") or {}))


async def forward_act(
    core: Any, table_id: int, user_id: int, action: Action, expected_seq: int
) -> ActionResult:
    """A person's move at a table across servers whose click reached this process, while
    another runs the table: stored for that process, which applies it and answers; its result
    (or its error, raised here) as if applied here. Raise :class:`TablesElsewhere` if the table
    is not one across servers or no answer comes in time."""
    snapshot = await core.table(table_id, closed=True)
    if POOL_OPTION not in snapshot.row.options:
        raise TablesElsewhere(
            "The bot is moving this server's tables between its processes; try again in a"
            " few seconds."
        )
    repo = ForwardRepo(core.store.db)
    await repo.ask(table_id, user_id, expected_seq, encode_action(action), now=core.clock())
    loop = asyncio.get_running_loop()
    give_up = loop.time() + FORWARD_WAIT
    while (row := await repo.get(table_id, user_id, expected_seq)) is None or (
        row.answered_at is None
    ):
        if loop.time() > give_up:
            await repo.withdraw(table_id, user_id, expected_seq)
            raise TablesElsewhere("The table did not answer in time; try again.")
        await asyncio.sleep(FORWARD_POLL)
    if row.error is not None:
        raise _error_of(row.error)
    info = (await core.table(table_id, closed=True)).info()
    view = info.public_view()
    results = view.hand_results if view is not None else ()
    return ActionResult(
        table=info,
        seq=expected_seq,
        seat=row.seat if row.seat is not None else -1,
        action=action,
        by="player",
        hand_result=results[-1] if row.hand_ended and results else None,
        outcome=view.outcome if view is not None else None,
    )


async def serve_forwarded(service: Any) -> None:
    """Apply, forever, the clicks other processes forwarded for the tables this one runs."""
    repo = ForwardRepo(service.store.db)
    pruned = 0.0
    while True:
        try:
            here = {t.id for t in service.open_tables() if POOL_OPTION in t.table.options}
            pending = await repo.pending() if here else []  # (no table across servers: no read)
            for request in pending:
                if request.table_id in here:
                    await _apply(service, repo, request)
            now = service.clock()
            if now - pruned > FORWARD_KEPT:
                pruned = now
                await repo.prune(now - FORWARD_KEPT)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("forwarded clicks: a round failed")
        await asyncio.sleep(FORWARD_POLL)


async def _apply(service: Any, repo: ForwardRepo, request: ForwardRow) -> None:
    seat: int | None = None
    ended = False
    error: str | None = None
    try:
        result = await service.act(
            request.table_id,
            request.user_id,
            decode_action(request.action),
            expected_seq=request.seq,
        )
        seat, ended = result.seat, result.hand_result is not None
    except TablesElsewhere:
        return  # (it moved to another process meanwhile: that one answers)
    except ServiceError as exc:
        error = _error_text(exc)
    await repo.answer(request, seat=seat, hand_ended=ended, error=error, now=service.clock())
