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
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import errors
from bot.errors import InvalidOptions, ServiceError, TablesElsewhere
from bot.store import DatabaseUnavailable, Transaction
from bot.store.notices import MOVES, REQUESTS, Notices, data_version
from bot.store.places import ForwardRepo, ForwardRow, PlaceRow, PlacesRepo
from bot.tables.values import ActionResult
from domino import Action, decode_action, encode_action

__all__ = [
    "POOL_OPTION",
    "ForwardedClicks",
    "Place",
    "TablePlaces",
    "TableWatch",
    "forward_act",
    "place_rows",
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

#: Seconds between two looks at the forwarded clicks (the running process, on SQLite) or at
#: the answer (the asking one).
FORWARD_POLL = 0.1
#: Seconds between two looks at the forwarded clicks on PostgreSQL, where a notification wakes
#: the running process at once (the look finds a click whose notification was lost).
FORWARD_FALLBACK = 3.0
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
    answers: ForwardedClicks | None = core.answers
    woken = asyncio.Event()
    if answers is not None:
        answers.waiting.setdefault(table_id, set()).add(woken)
    try:
        await repo.ask(table_id, user_id, expected_seq, encode_action(action), now=core.clock())
        loop = asyncio.get_running_loop()
        give_up = loop.time() + FORWARD_WAIT
        while (row := await repo.get(table_id, user_id, expected_seq)) is None or (
            row.answered_at is None
        ):
            if loop.time() > give_up:
                await repo.withdraw(table_id, user_id, expected_seq)
                raise TablesElsewhere("The table did not answer in time; try again.")
            listening = answers is not None and await answers.listening()
            woken.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FORWARD_FALLBACK if listening else FORWARD_POLL):
                    await woken.wait()
    finally:
        if answers is not None:
            waiting = answers.waiting.get(table_id, set())
            waiting.discard(woken)
            if not waiting:
                answers.waiting.pop(table_id, None)
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


class ForwardedClicks:
    """Applies, forever, the clicks other processes forwarded for the tables this one runs.

    On PostgreSQL the asking process's commit wakes it (``NOTIFY domino_requests``: one read
    then), and it looks again every :data:`FORWARD_FALLBACK` seconds for a notification lost;
    on SQLite it looks every :data:`FORWARD_POLL` seconds while it runs a table across
    servers (one indexed read), and never while it runs none. It also wakes this process's
    clicks waiting for their answers (``a<table>``: :func:`forward_act`)."""

    def __init__(self, service: Any, notices: Notices | None = None) -> None:
        self.service = service
        self.notices = notices
        self._woken = asyncio.Event()
        self.rounds = 0  # reads of the forwarded clicks so far
        #: table -> the clicks of this process waiting for their answers there
        self.waiting: dict[int, set[asyncio.Event]] = {}
        if notices is not None:
            notices.on(REQUESTS, self._heard)
            notices.on_reopen(self._reopened)

    async def listening(self) -> bool:
        """Whether a notification wakes a click waiting for its answer."""
        return self.notices is not None and await self.notices.listening()

    def _reopened(self) -> None:
        self._woken.set()
        for waiters in self.waiting.values():
            for woken in waiters:
                woken.set()

    def _heard(self, payload: str) -> None:
        if payload[:1] != "a":  # a click was forwarded: the running process looks
            self._woken.set()
            return
        for woken in self.waiting.get(int(payload[1:]) if payload[1:].isdigit() else 0, ()):
            woken.set()  # an answer was written at that table: its askers look

    def _pooled_here(self) -> set[int]:
        tables = self.service.core.tables
        return {t for t, rt in tables.items() if POOL_OPTION in rt.row.options}

    async def run(self) -> None:
        repo = ForwardRepo(self.service.store.db)
        pruned = 0.0
        while True:
            try:
                here = self._pooled_here()
                listening = self.notices is not None and await self.notices.listening()
                self._woken.clear()
                if here:  # (no table across servers runs here: no read)
                    self.rounds += 1
                    for request in await repo.pending():
                        if request.table_id in here:
                            await _apply(self.service, repo, request)
                now = self.service.clock()
                if now - pruned > FORWARD_KEPT:
                    pruned = now
                    await repo.prune(now - FORWARD_KEPT)
            except asyncio.CancelledError:
                raise
            except DatabaseUnavailable:
                listening = False  # the store logs an outage once
            except Exception:
                log.exception("forwarded clicks: a round failed")
                listening = False
            wait = FORWARD_FALLBACK if listening else FORWARD_POLL
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._woken.wait()


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


# ------------------------------------------------- the hands of tables another process runs

#: Seconds between two looks at SQLite's data version (free) while this process keeps a hand
#: of a table another process runs; the tables' versions are read only when it moved.
WATCH_POLL = 0.25
#: Seconds between two looks at those tables' versions on PostgreSQL, where the table's move
#: wakes this process at once (the look finds a move whose notification was lost).
WATCH_FALLBACK = 3.0


class TableWatch:
    """The tables across servers another process runs where this one keeps a person's private
    hand (his click reached this process, which holds its token): ``moved(table)`` is awaited
    when one of them changed (returning False: no hand of it is kept any more).

    On PostgreSQL a move wakes it (``NOTIFY domino_web``, ``t<table>``), then one read of the
    watched tables' versions; on SQLite it looks at the file's data version every
    :data:`WATCH_POLL` seconds and reads the versions only when another process committed.
    Nothing is read while no such hand is kept."""

    def __init__(
        self,
        service: Any,
        moved: Callable[[int], Awaitable[bool]],
        notices: Notices | None = None,
    ) -> None:
        self.service = service
        self.moved = moved
        self.notices = notices
        self.watched: dict[int, tuple[str, int] | None] = {}
        self.reads = 0  # reads of the watched tables' versions so far
        self._woken = asyncio.Event()
        self._fresh = False  # a table is watched since the last read
        if notices is not None:
            notices.on(MOVES, self._heard)
            notices.on_reopen(self._woken.set)

    def watch(self, table_id: int) -> None:
        """Redraw the hands kept of ``table_id`` when it moves (nothing if it runs here)."""
        if table_id in self.service.core.tables or table_id in self.watched:
            return
        self.watched[table_id] = None
        self._fresh = True
        self._woken.set()

    def _heard(self, payload: str) -> None:
        if payload[:1] == "t" and payload[1:].isdigit() and int(payload[1:]) in self.watched:
            self._woken.set()

    async def run(self) -> None:
        repo = PlacesRepo(self.service.store.db)
        seen: int | None = None
        while True:
            listening = False
            try:
                if not self.watched:
                    self._woken.clear()
                    await self._woken.wait()
                listening = self.notices is not None and await self.notices.listening()
                self._woken.clear()
                version = None if listening else await data_version(self.service.store)
                if self._fresh or version is None or version != seen:
                    seen, self._fresh = version, False
                    await self._look(repo)
            except asyncio.CancelledError:
                raise
            except DatabaseUnavailable:
                pass  # the store logs an outage once
            except Exception:
                log.exception("watched tables: a round failed")
            wait = WATCH_FALLBACK if listening else WATCH_POLL
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._woken.wait()

    async def _look(self, repo: PlacesRepo) -> None:
        self.reads += 1
        versions = await repo.versions(list(self.watched))
        for table_id, before in list(self.watched.items()):
            now = versions.get(table_id)
            if now == before and now is not None:
                continue
            self.watched[table_id] = now
            if now is None or table_id in self.service.core.tables or not await self.moved(
                table_id
            ):
                self.watched.pop(table_id, None)
