"""The gateway side of the fake: one websocket connection and one session per IDENTIFY."""

from __future__ import annotations

import asyncio
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .models import JSON

# Gateway opcodes
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Intents (https://discord.com/developers/docs/events/gateway#gateway-intents)
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


@dataclass(eq=False)
class GatewaySession:
    id: str
    intents: int
    identify: JSON
    seq: int = 0
    connection: GatewayConnection | None = None
    ready: bool = False  # READY and the GUILD_CREATEs were sent
    resumable: bool = True
    events: list[tuple[str, JSON]] = field(default_factory=list)  # everything dispatched
    pending: list[tuple[str, JSON]] = field(default_factory=list)  # missed while disconnected

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)

    @property
    def shard(self) -> tuple[int, int]:
        """IDENTIFY's ``shard`` field: ``(shard_id, shard_count)``; ``(0, 1)`` when absent."""
        raw = self.identify.get("shard") or [0, 1]
        return int(raw[0]), int(raw[1])

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether Discord sends this guild's events to this session: its shard is
        ``(guild_id >> 22) % shard_count``; events outside a guild (DMs) go to shard 0."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


def event_guild(event: str, data: JSON) -> int | None:
    """The guild an event belongs to (None: a DM or a global event)."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        raw = data.get("id")
    else:
        raw = data.get("guild_id")
    return None if raw is None else int(raw)


class GatewayConnection:
    """One websocket. Sends are serialised so zlib-stream chunks stay in order."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool) -> None:
        self.ws = ws
        self.compress = compress
        self._zlib = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.server_close_code: int | None = None  # set when the fake closes the socket
        self.received: list[JSON] = []

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        async with self._lock:
            await self._send_locked(payload)

    async def _send_locked(self, payload: dict[str, Any]) -> None:
        if self.ws.closed:
            return
        text = json.dumps(payload, separators=(",", ":"))
        try:
            if self._zlib is not None:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            # the client went away while we were sending; nothing to deliver to
            pass

    async def dispatch(self, event: str, data: JSON) -> None:
        async with self._lock:
            session = self.session
            if session is None:
                return
            session.seq += 1
            session.events.append((event, data))
            await self._send_locked({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})
