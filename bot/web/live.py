"""Live pages: a running table of a public place followed move by move, and a running
tournament's page told when its results change, both by server-sent events.

The web process never hears from the bot: it reads the store. On PostgreSQL the database
says what changed (migration 0940: ``NOTIFY domino_web`` with ``t<table>`` after each move,
``e<event>`` after each change of an event's rows, sent when the bot's transaction commits)
to one listening connection; on SQLite a poll every :data:`POLL` seconds reads the file's
``data_version`` (a number SQLite moves when another connection commits: free to read), and
only when it moved does each stream read its table's count of moves (one row by key).

What a stream sends is the table as everyone at it sees it, from the same public views the
bot draws its pictures from (:func:`bot.web.positions.positions`): the line, how many tiles
each seat holds, the pile's size, the scores, who is to play and the hand's moves in words.
Never a tile in a hand or in the pile. Names are the pages' (global names; "a player" for
someone who left the boards; computers by seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.i18n import N_, tr
from bot.records.record import GLOBAL
from bot.records.store import RecordsRepo
from bot.settings import POSTGRES_SCHEMES
from bot.store import DatabaseUnavailable
from bot.tournaments.store import OPEN
from bot.web import links
from bot.web.positions import Position, Replay, describe, positions, side_names
from bot.web.queries import LiveTable, PageRepo, WebRepo, read_only_url
from bot.web.reader import Reader
from bot.web.words import LANGUAGES, player_name, variant_name

__all__ = ["LIVE", "POLL", "Live", "LiveState", "PageTools", "add_routes", "move_words"]

log = logging.getLogger(__name__)

POLL = 0.2  # seconds between two looks at SQLite's data_version while someone watches
KEEP_ALIVE = 15.0  # seconds between two comments on a quiet stream
MAX_STREAMS = 1000  # open streams a process serves at most (more: 503, the browser retries)
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream
CHANNEL = "domino_web"


@dataclass(frozen=True, slots=True)
class SeatName:
    """Who sits at a seat, as the pages name him."""

    kind: str
    name: str  # the recorded global name ("" when unknown or forgotten)
    shown: bool


@dataclass(frozen=True, slots=True)
class LiveState:
    """A table at one moment: its row and, once it started, its public positions."""

    table: LiveTable
    seats: tuple[SeatName, ...]
    replay: Replay | None

    @property
    def version(self) -> tuple[str, int]:
        return (self.table.status, self.table.moves)


def move_words(locale: str, p: Position, names: list[str]) -> str:
    """One move in words ("Ana played 3-5."), or the deal."""
    if p.seat is None:
        return tr(locale, "The tiles are dealt.")
    name = names[p.seat]
    words = (p.action or "").split()
    if words[:1] == ["play"]:
        return tr(locale, "{name} played {tile}.", name=name, tile=words[1])
    if words[:1] == ["draw"]:
        return tr(locale, "{name} drew a tile.", name=name)
    return tr(locale, "{name} passed.", name=name)


class Live:
    """The live streams of one web process and what wakes them."""

    def __init__(self, reader: Reader, *, poll: float = POLL) -> None:
        self.reader = reader
        self.poll = poll
        self.streams = 0
        self.closing = False
        self._waiting: dict[str, set[asyncio.Future[bool]]] = {}
        self._states: dict[int, LiveState] = {}
        self._task: asyncio.Task[None] | None = None
        self._listener: Any = None
        self._postgres = reader.url.partition(":")[0].lower() in POSTGRES_SCHEMES

    # -- waking -----------------------------------------------------------------------------

    def wake(self, key: str | None = None) -> None:
        """Wake the streams waiting on ``key`` (all of them when None)."""
        keys = list(self._waiting) if key is None else [key]
        for k in keys:
            for waiter in self._waiting.pop(k, ()):
                if not waiter.done():
                    waiter.set_result(True)

    async def wait(self, key: str, timeout: float) -> bool:
        """Until ``key`` may have changed (True) or ``timeout`` seconds passed (False)."""
        if self.closing:
            return True
        self._ensure_watching()
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, set()).add(waiter)
        try:
            return await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        finally:
            found = self._waiting.get(key)
            if found is not None:
                found.discard(waiter)
                if not found:
                    del self._waiting[key]

    def _ensure_watching(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._watch())

    async def _watch(self) -> None:
        """While anyone waits: listen (PostgreSQL) or look at the data version (SQLite)."""
        seen: int | None = None
        while not self.closing:
            await asyncio.sleep(self.poll)
            if not self._waiting:
                continue
            try:
                if self._postgres:
                    if await self._listening():
                        continue
                    self.wake()  # no listener: each stream reads its own version
                    await asyncio.sleep(1.0)
                    continue
                async with self.reader.reading() as store:
                    version = int(await store.db.fetchval("PRAGMA data_version"))
                if version != seen:
                    seen = version
                    self.wake()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the streams try again later
                log.debug("live: %r", exc)
                await asyncio.sleep(1.0)

    async def _listening(self) -> bool:
        """A connection listening to the database's notifications (opened when needed)."""
        if self._listener is not None and not self._listener.is_closed():
            return True
        import asyncpg

        try:
            conn = await asyncpg.connect(read_only_url(self.reader.url), timeout=5)
            await conn.add_listener(CHANNEL, self._heard)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            log.warning("live: cannot listen to the database: %r", exc)
            return False
        self._listener = conn
        self.wake()  # what happened before it listened
        return True

    def _heard(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        if payload[:1] in ("t", "e"):
            self.wake(payload)

    async def close(self) -> None:
        """End every stream and stop watching."""
        self.closing = True
        self.wake()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()

    # -- tables -----------------------------------------------------------------------------

    async def table(self, table_id: int) -> LiveState | None:
        """A table of a public place on a server with pages, as it is now (None otherwise).
        Its positions are rebuilt only when a move or its state changed."""
        async with self.reader.reading() as store:
            row = await PageRepo(store.db).live_table(table_id)
            if row is None or not row.public_place:
                return None
            if await WebRepo(store.db).server(row.guild_id) is None:
                return None
            kept = self._states.get(table_id)
            if kept is not None and kept.table == row:
                return kept
            seats = await store.seats.list(table_id)
            match = await store.matches.get(table_id)
            actions = await store.actions.list(table_id) if match is not None else []
            people = [s.user_id for s in seats if s.kind == "human" and s.user_id]
            names = await WebRepo(store.db).global_names(people)
            hidden = await RecordsRepo(store.db).hidden_scopes([p for p in people if p > 0])
        named = tuple(
            SeatName(
                s.kind,
                names.get(s.user_id or 0, "") if s.kind == "human" else s.name,
                s.kind == "computer"
                or not hidden.get(s.user_id or 0, set()) & {GLOBAL, row.guild_id},
            )
            for s in seats
        )
        replay = None
        if match is not None:
            replay = await asyncio.to_thread(positions, match, actions)
        state = LiveState(row, named, replay)
        self._states[table_id] = state
        if len(self._states) > 256:
            self._states.pop(next(iter(self._states)))
        return state


def seat_names(locale: str, state: LiveState) -> list[str]:
    """The name at each seat ("a player" for a person who left the boards or whose global
    name the records do not hold yet)."""
    out = []
    for seat, s in enumerate(state.seats):
        if s.kind == "computer":
            out.append(player_name(locale, s.name, "computer", seat=seat))
        elif not s.name:
            out.append(tr(locale, "a player"))
        else:
            out.append(player_name(locale, s.name, "human", shown=s.shown))
    return out


def payload(locale: str, state: LiveState, match_href: Callable[[int], str]) -> dict[str, Any]:
    """What the live page's script draws: only what everyone at the table sees."""
    names = seat_names(locale, state)
    out: dict[str, Any] = {
        "status": state.table.status,
        "seats": names,
        "moves": state.table.moves,
    }
    replay = state.replay
    if replay is None or not replay.positions:
        out["turn"] = None
        out["headline"] = tr(locale, "The match has not started yet.")
        return out
    p = replay.positions[-1]
    hand = [q for q in replay.positions if q.hand == p.hand]
    turn = replay.final.turn if state.table.status == "running" else None
    out.update(
        {
            "hand": p.hand,
            "sides": side_names(locale, replay.ruleset, names),
            "scores": list(p.scores),
            "sizes": list(p.sizes),
            "pile": p.pile,
            "line": [list(t) for t in p.line],
            "arms": [[list(t) for t in arm] for arm in p.arms],
            "spinner": p.spinner,
            "last": p.last,
            "turn": None if turn is None or turn >= len(names) else names[turn],
            "log": [move_words(locale, q, names) for q in hand],
            "text": describe(locale, p, replay.ruleset, names),
        }
    )
    if out["turn"] is not None:
        out["headline"] = tr(locale, "{name} to play.", name=out["turn"])
    else:
        out["headline"] = tr(locale, "The match is over.")
    if state.table.status == "finished":
        out["match"] = match_href(state.table.table_id)
    return out


def event(name: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\ndata: {text}\n\n".encode()


async def stream(
    request: web.Request,
    live: Live,
    key: str,
    read: Callable[[], Any],
    send: Callable[[Any], bytes | None],
    over: Callable[[Any], bool],
) -> web.StreamResponse:
    """A stream of server-sent events: ``send(state)`` after each change ``read`` finds
    (None: nothing to say), until ``over(state)``, the reader leaves or the process stops."""
    state = await read()
    if state is None:
        raise web.HTTPNotFound()
    if live.streams >= MAX_STREAMS:
        raise web.HTTPServiceUnavailable(headers={"Retry-After": "30"})
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx: pass each event on at once
        }
    )
    live.streams += 1
    try:
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        while True:
            said = send(state)
            if said:
                await response.write(said)
            if over(state) or live.closing:
                break
            if not await live.wait(key, KEEP_ALIVE):
                await response.write(b": still here\n\n")
            state = await read()
            if state is None:
                break
    except (ConnectionResetError, DatabaseUnavailable):
        pass  # the reader left, or the database did: his browser connects again later
    finally:
        live.streams -= 1
    return response


# ----------------------------------------------------------------------------- the pages


@dataclass(frozen=True, slots=True)
class PageTools:
    """What the live pages borrow from the application (:mod:`bot.web.app`)."""

    page: Callable[..., web.Response]  # (request, template, context)
    link: Callable[..., str]  # (request, path, **query)
    language: Callable[[web.Request], str]
    number: Callable[[str | None], int]


LIVE: web.AppKey[Live] = web.AppKey("live", Live)
TOOLS: web.AppKey[PageTools] = web.AppKey("live_tools", PageTools)
WORDS = (N_("Live match"), N_("Moves of this hand"), N_("See the match's page"))


async def live_page(request: web.Request) -> web.StreamResponse:
    """A running table of a public place: the page as it is now; its script follows it."""
    tools = request.app[TOOLS]
    live = request.app[LIVE]
    table_id = tools.number(request.match_info["table"])
    state = await live.table(table_id)
    if state is None or state.table.status == "cancelled":
        raise web.HTTPNotFound()
    if state.table.status == "finished":
        raise web.HTTPSeeOther(tools.link(request, links.match_path(table_id)))
    server = await live.reader.server(state.table.guild_id)
    if server is None:
        raise web.HTTPNotFound()
    locale = LANGUAGES[tools.language(request)]
    data = payload(locale, state, lambda t: tools.link(request, links.match_path(t)))
    variant = "" if state.replay is None else variant_name(locale, state.replay.ruleset.id)
    response = tools.page(
        request,
        "live.html",
        {
            "server": server,
            "table_id": table_id,
            "here": links.live_path(table_id),
            "variant": variant,
            "data": data,
            "events": tools.link(request, links.live_path(table_id) + "/events"),
        },
    )
    response.headers["Cache-Control"] = "no-store"
    return response


async def table_events(request: web.Request) -> web.StreamResponse:
    """The table's public position after every move (``position`` events), then ``end``."""
    tools = request.app[TOOLS]
    live = request.app[LIVE]
    table_id = tools.number(request.match_info["table"])
    locale = LANGUAGES[tools.language(request)]
    sent: list[tuple[str, int]] = []

    async def read() -> LiveState | None:
        state = await live.table(table_id)
        return None if state is None or state.table.status == "cancelled" else state

    def send(state: LiveState) -> bytes | None:
        if sent and sent[-1] == state.version:
            return None
        sent.append(state.version)
        said = event(
            "position",
            payload(locale, state, lambda t: tools.link(request, links.match_path(t))),
        )
        if state.table.status == "finished":
            said += event("end", {"match": tools.link(request, links.match_path(table_id))})
        return said

    return await stream(
        request, live, f"t{table_id}", read, send, lambda s: s.table.status == "finished"
    )


async def tournament_events(request: web.Request) -> web.StreamResponse:
    """A tournament's ``changed`` events (a version: the page is read again when it moves),
    then ``end`` once it is over."""
    tools = request.app[TOOLS]
    live = request.app[LIVE]
    guild_id = tools.number(request.match_info["guild"])
    event_id = tools.number(request.match_info["event"])
    sent: list[str] = []

    async def read() -> tuple[Any, ...] | None:
        if await live.reader.server(guild_id) is None:
            return None
        async with live.reader.reading() as store:
            found = await PageRepo(store.db).event_version(event_id)
        if found is None or found[0] != guild_id or not found[1]:
            return None
        return found

    def send(found: tuple[Any, ...]) -> bytes | None:
        version = "-".join(map(str, found[2:]))
        if sent and sent[-1] == version:
            return None
        sent.append(version)
        said = event("changed", {"v": version})
        if found[2] not in OPEN:
            said += event("end", {})
        return said

    return await stream(
        request, live, f"e{event_id}", read, send, lambda found: found[2] not in OPEN
    )


def add_routes(app: web.Application, reader: Reader, tools: PageTools) -> None:
    """The live pages and streams, and their watcher (closed with the application)."""
    live = Live(reader)
    app[LIVE] = live
    app[TOOLS] = tools
    app.router.add_get("/live/{table}", live_page)
    app.router.add_get("/live/{table}/events", table_events)
    app.router.add_get("/s/{guild}/t/{event}/events", tournament_events)

    async def close(app: web.Application) -> None:
        await live.close()

    app.on_shutdown.append(close)
