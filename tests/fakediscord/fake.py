"""``FakeDiscord``: an in-process Discord (REST + gateway) for driving a real discord.py bot."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from aiohttp import WSMsgType, web

from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_REQUEST_GUILD_MEMBERS,
    OP_RESUME,
    GatewayConnection,
    GatewaySession,
    event_guild,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
    InteractionTimeout,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    DM_CHANNEL,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_SUPPRESS_EMBEDS,
    JSON,
    PATIENCE,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Overwrite,
    SnowflakeGenerator,
    StoredAttachment,
    StoredMessage,
    iso,
    iter_components,
    perm_value,
)

if TYPE_CHECKING:
    from .ratelimits import RateLimits

_log = logging.getLogger(__name__)

T = TypeVar("T")
UserLike = FakeUser | int
MessageLike = StoredMessage | int
ChannelLike = FakeChannel | int

ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

# Things a test can forbid with ``fake.deny(channel_id, action)``; each maps to the REST routes
# that fail with 403 while the denial is in place.
DENY_ACTIONS: dict[str, str] = {
    "send_messages": "POST /channels/{channel_id}/messages",
    "create_thread": "POST /channels/{channel_id}/threads and .../messages/{id}/threads",
    "edit_messages": "PATCH /channels/{channel_id}/messages/{id}",
    "delete_messages": "DELETE /channels/{channel_id}/messages/{id} and bulk-delete",
    "read_messages": "GET /channels/{channel_id}[/messages[/{id}]]",
    "add_reactions": "PUT .../reactions/{emoji}/@me",
    "manage_threads": "PATCH/DELETE /channels/{thread_id}",
    "manage_thread_members": "PUT/DELETE /channels/{thread_id}/thread-members/{user}",
    "pin_messages": "PUT/DELETE /channels/{channel_id}/messages/pins/{id}",
    "*": "every bot route touching the channel",
}

_RESPONSE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_COMPONENTS_V2 | (1 << 12)


class ApiError(Exception):
    """Raised inside a REST handler; rendered as Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: JSON | None = None,
        headers: dict[str, str] | None = None,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        data.update(self.extra)
        return data


def _settled(done: asyncio.Future[None] | None) -> asyncio.Future[None]:
    """``done`` itself, or an already finished future when nothing was queued."""
    if done is not None:
        return done
    finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    finished.set_result(None)
    return finished


async def _wait(done: asyncio.Future[None] | None) -> None:
    if done is not None:
        await done


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def form_error(path: str, code: str, message: str) -> ApiError:
    errors: JSON = {}
    node = errors
    for part in path.split("."):
        node = node.setdefault(part, {})
    node["_errors"] = [{"code": code, "message": message}]
    return ApiError(400, 50035, "Invalid Form Body", errors=errors)


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class RequestRecord:
    method: str
    path: str
    route: str | None  # the matched route template, None for unknown routes
    query: dict[str, str]
    json: Any
    files: list[str]
    status: int = 0
    error_code: int | None = None

    def __str__(self) -> str:
        err = "" if self.error_code is None else f" (code {self.error_code})"
        return f"{self.method} {self.path} -> {self.status}{err}"


@dataclass
class _Failure:
    method: str
    pattern: re.Pattern[str]
    error: ApiError
    remaining: int | None
    when: Callable[[RequestRecord], bool] | None = None


@dataclass
class Tripwire:
    """What happens the first time a request matching ``match`` arrives: ``action`` (a
    function, or a coroutine function) runs ``before`` Discord applies the request or after
    it applied it but before the answer leaves; either way the answer goes nowhere."""

    match: Callable[[RequestRecord], bool | Awaitable[bool]]
    action: Callable[[], object]
    before: bool
    name: str = ""
    fired: asyncio.Event = field(default_factory=asyncio.Event)
    request: RequestRecord | None = None  # the request that tripped it


@dataclass
class _Denial:
    code: int
    message: str


@dataclass
class _Outgoing:
    event: str
    build: Callable[[GatewaySession], JSON | None]
    intent: int | None
    done: asyncio.Future[None]


async def _wait_briefly(event: asyncio.Event, seconds: float) -> None:
    """Wait until ``event`` is set or ``seconds`` passed; a cancellation is never lost (as
    ``asyncio.wait_for`` before Python 3.12 loses one that comes as the event is set)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()


class FakeDiscord:
    """A fake Discord server. Use ``async with FakeDiscord() as fake:`` (or the fixture).

    A default world exists from the start: ``fake.bot_user`` (the bot, whose id is also the
    application id), ``fake.owner`` (owns the application and ``fake.guild``), and one text
    channel ``fake.channel`` (``fake.channel_id``) in that guild.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "DominoBot",
        guild_name: str = "Domino Club",
        channel_name: str = "general",
        locale: str = "en-US",
        heartbeat_interval: float = 41.25,
    ) -> None:
        self._snowflake = SnowflakeGenerator()
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.recommended_shards = 1  # the shard count GET /gateway/bot recommends
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.bot_user = self._register_user(FakeUser(self.new_id(), bot_name, bot=True))
        self.application_id = self.bot_user.id
        self.owner = self._register_user(FakeUser(self.new_id(), "owner", global_name="Owner"))

        self._messages: dict[int, StoredMessage] = {}
        self.deleted_messages: list[StoredMessage] = []
        self._attachments: dict[int, StoredAttachment] = {}
        self._dm_channels: dict[int, int] = {}
        self._commands: dict[int | None, dict[int, JSON]] = {}
        self.command_syncs: list[tuple[int | None, list[JSON]]] = []

        self.interactions: list[InteractionResult] = []
        self._interactions_by_id: dict[int, InteractionResult] = {}
        self._interactions_by_token: dict[str, InteractionResult] = {}

        self._denials: dict[int, dict[str, _Denial]] = {}
        self._blocked_dms: set[int] = set()
        self._failures: list[_Failure] = []
        #: Discord's rate limits, enforced when a test sets them (``ratelimits.RateLimits``).
        self.rate_limits: RateLimits | None = None
        self.nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message id
        self.tripwires: list[Tripwire] = []

        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self.bot_errors: list[logging.LogRecord] = []
        self.internal_errors: list[BaseException] = []
        self.identify_payloads: list[JSON] = []
        self.gateway_received: list[JSON] = []
        self.gateway_urls: list[str] = []  # path + query of every websocket connection

        self._sessions: dict[str, GatewaySession] = {}
        self._connections: list[GatewayConnection] = []
        self._outbox: asyncio.Queue[_Outgoing] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._changed: asyncio.Event | None = None

        self._runner: web.AppRunner | None = None
        self._site: web.SockSite | None = None
        self.port: int = 0

        self.guild = self.add_guild(guild_name, owner=self.owner, locale=locale)
        self.channel = self.add_channel(channel_name)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        """Start the HTTP + websocket server on 127.0.0.1 (random free port)."""
        if self._runner is not None:
            return self
        from .rest import RestApi

        self._rest = RestApi(self)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/api/v{version:\\d+}/{path:.*}", self._rest.handle)
        app.router.add_route("*", "/{path:.*}", self._rest.handle_outside_api)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        self._site = web.SockSite(self._runner, sock)
        await self._site.start()
        self._sender = asyncio.get_running_loop().create_task(self._send_loop())
        return self

    async def close(self) -> None:
        """Close open websockets and stop the server."""
        for conn in list(self._connections):
            await conn.ws.close(code=1001, message=b"fake discord shutting down")
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
            self._sender = None
        while not self._outbox.empty():
            item = self._outbox.get_nowait()
            if not item.done.done():
                item.done.set_result(None)
        if self._runner is not None:
            await self._runner.cleanup()
        self._runner = None
        self._site = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def started(self) -> bool:
        return self._runner is not None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` is patched to."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` and ``/gateway/bot`` point at."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------------ ids, tasks, waiting
    def new_id(self) -> int:
        return self._snowflake()

    def _post(
        self,
        event: str,
        data: JSON | Callable[[GatewaySession], JSON | None],
        intent: int | None = None,
    ) -> asyncio.Future[None] | None:
        """Queue a gateway event for every ready session (in call order, see ``_send_loop``).

        ``data`` may be a function of the session (to honour per-session intents). Returns a
        future resolved once the event was written to the sockets, or None when the fake is
        not running (world building before ``start()``: GUILD_CREATE will carry the state).
        """
        if self._sender is None or self._sender.done():
            return None
        build = data if callable(data) else (lambda _session, _data=data: _data)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait(_Outgoing(event, build, intent, done))
        return done

    async def _send_loop(self) -> None:
        """The only sender of events after READY, so events reach the bot in the order the
        fake produced them (a setter's update before a later interaction, etc.)."""
        while True:
            item = await self._outbox.get()
            try:
                for session in list(self._sessions.values()):
                    if not session.ready or not session.wants(item.intent):
                        continue
                    payload = item.build(session)
                    if payload is None or not session.owns_guild(event_guild(item.event, payload)):
                        continue
                    conn = session.connection
                    if conn is not None and not conn.closed:
                        await conn.dispatch(item.event, payload)
                    elif session.resumable:
                        session.pending.append((item.event, payload))
            except Exception as exc:
                self.internal_errors.append(exc)
                _log.error("fake discord failed to send %s", item.event, exc_info=exc)
            finally:
                if not item.done.done():
                    item.done.set_result(None)
                self._notify()

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = PATIENCE,
        *,
        what: str | None = None,
        poll_interval: float = 0.02,
    ) -> T:
        """Wait until ``predicate()`` returns something truthy and return it.

        The predicate is re-evaluated whenever the fake sees a request or gateway traffic, and
        at least every ``poll_interval`` seconds (so it may also look at the bot's own state).
        Raises ``InteractionTimeout`` (an ``AssertionError``) with diagnostics on timeout. A
        cancellation always ends the wait, even one that comes as the fake sees traffic.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                label = what or getattr(predicate, "__name__", "predicate")
                raise InteractionTimeout(
                    f"timed out after {timeout}s waiting for {label}\n" + self.diagnostics()
                )
            if self._changed is None:
                self._changed = asyncio.Event()
            event = self._changed
            await _wait_briefly(event, min(remaining, poll_interval))

    def diagnostics(self) -> str:
        """A summary of recent traffic, for assertion messages."""
        lines = ["--- fake discord diagnostics ---"]
        lines.append(f"gateway sessions connected: {sum(1 for _ in self._live_sessions())}")
        lines.append("last requests:")
        lines.extend(f"  {r}" for r in self.requests[-15:])
        if self.unknown_routes:
            lines.append(f"unknown routes: {self.unknown_routes}")
        errors = [r for r in self.requests if r.status >= 400]
        if errors:
            lines.append("error responses:")
            lines.extend(f"  {r}" for r in errors[-10:])
        if self.internal_errors:
            lines.append(f"BUGS IN THE FAKE (please fix): {self.internal_errors!r}")
        if self.bot_errors:
            lines.append("errors logged by the bot:")
            for rec in self.bot_errors[-5:]:
                text = rec.getMessage()
                if rec.exc_info and rec.exc_info[1] is not None:
                    text += f": {rec.exc_info[1]!r}"
                lines.append(f"  {rec.name}: {text}")
        return "\n".join(lines)

    @property
    def error_responses(self) -> list[RequestRecord]:
        """Requests the fake answered with a 4xx/5xx status."""
        return [r for r in self.requests if r.status >= 400]

    # ------------------------------------------------------------------ world building
    def _register_user(self, user: FakeUser) -> FakeUser:
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: UserLike | None = None,
        locale: str = "en-US",
        everyone_permissions: int | discord.Permissions = 0,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild with the bot and the owner as members; ``shard=(shard_id,
        shard_count)`` picks an id that Discord routes to that shard."""
        owner_user = self._user(owner) if owner is not None else self.owner
        gid = self.new_id() if shard is None else self._snowflake.for_shard(*shard)
        guild = FakeGuild(id=gid, name=name, owner_id=owner_user.id, locale=locale)
        guild.roles[guild.id] = FakeRole(guild.id, "@everyone", perm_value(everyone_permissions))
        self.guilds[guild.id] = guild
        self._add_member(guild, self.bot_user, DEFAULT_BOT_PERMISSIONS)
        self._add_member(guild, owner_user, DEFAULT_MEMBER_PERMISSIONS)
        return guild

    def _add_member(self, guild: FakeGuild, user: FakeUser, permissions: int) -> FakeMember:
        role = FakeRole(
            id=self.new_id(),
            name=user.name if not user.bot else f"{user.name} (bot role)",
            permissions=permissions,
            position=len(guild.roles),
            managed=user.bot,
        )
        guild.roles[role.id] = role
        guild.personal_roles[user.id] = role.id
        member = FakeMember(user=user, role_ids=[role.id])
        guild.members[user.id] = member
        return member

    def add_user(
        self,
        id: int | None,
        name: str,
        global_name: str | None = None,
        bot: bool = False,
        *,
        guild_id: int | None = None,
        join_guild: bool = True,
        permissions: int | discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
    ) -> FakeUser:
        """Create a user; by default also a member of ``fake.guild`` with common permissions."""
        user_id = id if id is not None else self.new_id()
        if user_id in self.users:
            raise ValueError(f"user id {user_id} already exists ({self.users[user_id].name})")
        user = self._register_user(FakeUser(user_id, name, global_name, bot))
        if join_guild:
            self.join(user, guild_id, permissions=permissions)
        return user

    def join(
        self,
        user: UserLike,
        guild_id: int | None = None,
        *,
        nick: str | None = None,
        permissions: int | discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
    ) -> FakeMember:
        """Make ``user`` a member of a guild (``fake.guild`` by default), with a server
        nickname if given (GUILD_ROLE_CREATE, GUILD_MEMBER_ADD)."""
        guild = self._guild(guild_id)
        member = self._add_member(guild, self._user(user), perm_value(permissions))
        member.nick = nick
        role = guild.roles[guild.personal_roles[member.user.id]]
        self._post(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            INTENT_GUILDS,
        )
        data = member.payload()
        data["guild_id"] = str(guild.id)
        self._post("GUILD_MEMBER_ADD", data, INTENT_GUILD_MEMBERS)
        return member

    def user(self, user_id: int) -> FakeUser:
        return self.users[user_id]

    def add_channel(
        self,
        name: str,
        *,
        type: int = TEXT_CHANNEL,
        guild_id: int | None = None,
        parent_id: int | None = None,
        topic: str | None = None,
    ) -> FakeChannel:
        """Create a guild channel (text by default) and announce it over the gateway."""
        guild = self._guild(guild_id)
        channel = FakeChannel(
            id=self.new_id(),
            name=name,
            type=type,
            guild_id=guild.id,
            parent_id=parent_id,
            position=len(guild.channel_ids),
            topic=topic,
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._post("CHANNEL_CREATE", self.channel_payload(channel), INTENT_GUILDS)
        return channel

    def remove_channel(self, channel_id: int) -> asyncio.Future[None] | None:
        """A member deletes a guild channel, its threads with it (CHANNEL_DELETE): the bot's
        requests there answer 404 Unknown Channel from now on."""
        channel = self._channel(channel_id)
        for thread in self.threads(channel.id):
            del self.channels[thread.id]
        payload = self.channel_payload(channel)
        del self.channels[channel.id]
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        if guild is not None and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)
        return self._post("CHANNEL_DELETE", payload, INTENT_GUILDS)

    def remove_bot(self, guild_id: int) -> asyncio.Future[None] | None:
        """The guild removes (kicks or bans) the bot: GUILD_DELETE, and every request of the
        bot in its channels answers 403 Missing Access from now on."""
        guild = self._guild(guild_id)
        for channel in [c for c in self.channels.values() if c.guild_id == guild.id]:
            self.deny(channel.id, "*", code=50001, message="Missing Access")
        return self._post("GUILD_DELETE", {"id": str(guild.id)}, INTENT_GUILDS)

    def add_thread(
        self, parent_id: int, name: str, *, owner: UserLike | None = None, type: int = PUBLIC_THREAD
    ) -> FakeChannel:
        """Create a thread as if a user made it (dispatches THREAD_CREATE)."""
        parent = self._channel(parent_id)
        thread = self._new_thread(parent, name, owner=self._user(owner or self.owner), type=type)
        self._announce_thread(thread)
        return thread

    def _new_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser,
        type: int = PUBLIC_THREAD,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> FakeChannel:
        thread = FakeChannel(
            id=thread_id if thread_id is not None else self.new_id(),
            name=name,
            type=type,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            member_ids={owner.id},
        )
        self.channels[thread.id] = thread
        return thread

    def _announce_thread(self, thread: FakeChannel) -> asyncio.Future[None] | None:
        data = self.channel_payload(thread)
        data["newly_created"] = True
        if self.bot_user.id in thread.member_ids:
            data["member"] = {
                "id": str(thread.id),
                "user_id": str(self.bot_user.id),
                "join_timestamp": iso(thread.created_at),
                "flags": 0,
            }
        return self._post("THREAD_CREATE", data, INTENT_GUILDS)

    def channel_payload(self, channel: FakeChannel) -> JSON:
        return channel.payload(last_message_id=self._last_message_id(channel.id))

    def _last_message_id(self, channel_id: int) -> int | None:
        last = None
        for msg in self._messages.values():
            if msg.channel_id == channel_id and not msg.ephemeral:
                last = msg.id
        return last

    def threads(self, parent_id: int | None = None) -> list[FakeChannel]:
        """All threads (optionally only those under ``parent_id``), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (parent_id is None or c.parent_id == parent_id)
        ]

    @property
    def guild_id(self) -> int:
        return self.guild.id

    @property
    def channel_id(self) -> int:
        return self.channel.id

    def dm_channel(self, user: UserLike) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on demand)."""
        target = self._user(user)
        channel_id = self._dm_channels.get(target.id)
        if channel_id is None:
            channel = FakeChannel(id=self.new_id(), name="", type=DM_CHANNEL, recipients=[target])
            self.channels[channel.id] = channel
            self._dm_channels[target.id] = channel.id
            return channel
        return self.channels[channel_id]

    # ------------------------------------------------------------------ permissions
    def set_member_permissions(
        self, user_id: int, permissions: int | discord.Permissions, *, guild_id: int | None = None
    ) -> None:
        """Set a member's guild permissions (exactly: @everyone has none by default).

        Implemented as the member's own role, so discord.py computes the same value from the
        roles it caches; the change is announced with GUILD_ROLE_UPDATE.
        """
        guild = self._guild(guild_id)
        if user_id not in guild.members:
            raise ValueError(f"user {user_id} is not a member of guild {guild.name!r}")
        role = guild.roles[guild.personal_roles[user_id]]
        role.permissions = perm_value(permissions)
        self._post(
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}, INTENT_GUILDS
        )

    def add_role(
        self,
        name: str,
        *,
        position: int = 1,
        permissions: int | discord.Permissions = 0,
        managed: bool = False,
        guild_id: int | None = None,
    ) -> FakeRole:
        """A new role of the guild (Discord puts a new role just above @everyone: position 1)."""
        guild = self._guild(guild_id)
        role = FakeRole(self.new_id(), name, perm_value(permissions), position, managed)
        guild.roles[role.id] = role
        self._post(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, INTENT_GUILDS
        )
        return role

    def set_role_position(
        self, role_id: int, position: int, *, guild_id: int | None = None
    ) -> None:
        """Move a role in the guild's order (announced with GUILD_ROLE_UPDATE)."""
        guild = self._guild(guild_id)
        role = guild.roles[role_id]
        role.position = position
        self._post(
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}, INTENT_GUILDS
        )

    def member_roles(self, user_id: int, *, guild_id: int | None = None) -> list[int]:
        """The ids of a member's roles (his own personal role included)."""
        return list(self._guild(guild_id).members[user_id].role_ids)

    def set_everyone_permissions(
        self, permissions: int | discord.Permissions, *, guild_id: int | None = None
    ) -> None:
        guild = self._guild(guild_id)
        guild.everyone.permissions = perm_value(permissions)
        self._post(
            "GUILD_ROLE_UPDATE",
            {"guild_id": str(guild.id), "role": guild.everyone.payload()},
            INTENT_GUILDS,
        )

    def set_channel_overwrite(
        self,
        channel_id: int,
        target_id: int,
        *,
        allow: int | discord.Permissions = 0,
        deny: int | discord.Permissions = 0,
    ) -> None:
        """Set a permission overwrite (member or role) on a channel; dispatches CHANNEL_UPDATE.

        This changes what discord.py *reports* (``permissions_for``, ``app_permissions``); to
        make the REST call fail use ``deny()``.
        """
        channel = self._channel(channel_id)
        guild = self._guild(channel.guild_id)
        kind = 0 if target_id in guild.roles else 1
        channel.overwrites[target_id] = Overwrite(
            target_id, kind, perm_value(allow), perm_value(deny)
        )
        self._post("CHANNEL_UPDATE", self.channel_payload(channel), INTENT_GUILDS)

    def permissions_for(self, user_id: int, channel_id: int) -> int:
        """The permission bits Discord would compute for ``user_id`` in ``channel_id``."""
        channel = self._channel(channel_id)
        if channel.guild_id is None:
            return discord.Permissions.all_channel().value
        guild = self._guild(channel.guild_id)
        perm_channel = channel
        if channel.is_thread and channel.parent_id in self.channels:
            perm_channel = self.channels[channel.parent_id]
        return guild.channel_permissions(user_id, perm_channel)

    def deny(
        self,
        channel_id: int,
        action: str,
        *,
        code: int = 50013,
        message: str = "Missing Permissions",
    ) -> None:
        """Make the bot's REST calls for ``action`` in ``channel_id`` fail with 403.

        ``action`` is one of ``DENY_ACTIONS`` (e.g. "send_messages", "create_thread", "*").
        Only the HTTP answer changes; use ``set_channel_overwrite`` to change reported bits.
        """
        if action not in DENY_ACTIONS:
            raise ValueError(f"unknown action {action!r}; choose from {sorted(DENY_ACTIONS)}")
        self._denials.setdefault(channel_id, {})[action] = _Denial(code, message)

    def allow(self, channel_id: int, action: str | None = None) -> None:
        """Undo ``deny`` (one action, or all of them for the channel)."""
        if action is None:
            self._denials.pop(channel_id, None)
        else:
            self._denials.get(channel_id, {}).pop(action, None)

    def block_dms(self, user: UserLike) -> None:
        """Sending a DM to this user fails with 403 50007 (Cannot send messages to this user)."""
        self._blocked_dms.add(self._user(user).id)

    def fail(
        self,
        method: str,
        path_pattern: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str = "Internal Server Error",
        times: int | None = 1,
        retry_after: float = 0.01,
        when: Callable[[RequestRecord], bool] | None = None,
    ) -> None:
        """Make matching requests fail (``path_pattern`` is a regex searched in the API path;
        ``when``, if given, must accept the request too: it sees the method, path and JSON
        body, as a tripwire's ``match`` does).

        ``status=429`` produces a proper rate limit (discord.py sleeps ``retry_after`` and
        retries). Note discord.py retries 5xx answers with sleeps of 1, 3, 5... seconds.
        """
        headers: dict[str, str] = {}
        extra: JSON = {}
        if status == 429:
            headers = {"Via": "1.1 google", "Retry-After": str(retry_after)}
            extra = {"retry_after": retry_after, "global": False}
            message = "You are being rate limited."
        self._failures.append(
            _Failure(
                method.upper(),
                re.compile(path_pattern),
                ApiError(status, code, message, headers=headers, extra=extra),
                times,
                when,
            )
        )

    def tripwire(
        self,
        match: Callable[[RequestRecord], bool | Awaitable[bool]],
        action: Callable[[], object],
        *,
        before: bool,
        name: str = "",
    ) -> Tripwire:
        """Run ``action`` (say, SIGKILL the bot's process) at the first request that ``match``
        accepts (it sees ``method``, ``path`` and the JSON body, also a multipart one's
        ``payload_json``; it may be a coroutine function). ``before=True``: the request is
        never applied; ``before=False``: Discord applied it (a message exists, an edit shows)
        and the bot never gets the answer. The request is recorded with status 499. Wait for
        ``tripwire.fired``."""
        wire = Tripwire(match, action, before, name)
        self.tripwires.append(wire)
        return wire

    def _check_denied(self, channel_id: int, action: str) -> None:
        denials = self._denials.get(channel_id)
        if not denials:
            return
        denial = denials.get(action) or denials.get("*")
        if denial is not None:
            raise ApiError(403, denial.code, denial.message)

    # ------------------------------------------------------------------ lookups
    def _guild(self, guild_id: int | None) -> FakeGuild:
        if guild_id is None:
            return self.guild
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise LookupError(f"no guild {guild_id}") from None

    def _channel(self, channel: ChannelLike) -> FakeChannel:
        channel_id = channel.id if isinstance(channel, FakeChannel) else int(channel)
        try:
            return self.channels[channel_id]
        except KeyError:
            raise LookupError(f"no channel {channel_id}") from None

    def _user(self, user: UserLike) -> FakeUser:
        user_id = user.id if isinstance(user, FakeUser) else int(user)
        try:
            return self.users[user_id]
        except KeyError:
            raise LookupError(f"no user {user_id}; create it with fake.add_user()") from None

    # ------------------------------------------------------------------ message queries
    def message(self, message_id: MessageLike) -> StoredMessage:
        """A stored message by id (live; deleted ones are still found, with ``deleted``)."""
        mid = message_id.id if isinstance(message_id, StoredMessage) else int(message_id)
        msg = self._messages.get(mid)
        if msg is not None:
            return msg
        for old in reversed(self.deleted_messages):
            if old.id == mid:
                return old
        raise LookupError(f"no message {mid}")

    def messages(
        self, channel_id: int | None = None, *, ephemeral: bool | None = False
    ) -> list[StoredMessage]:
        """Messages in a channel, oldest first. ``ephemeral``: False (default) = public only,
        True = ephemeral only, None = both."""
        cid = self.channel_id if channel_id is None else channel_id
        return [
            m
            for m in self._messages.values()
            if m.channel_id == cid and (ephemeral is None or m.ephemeral == ephemeral)
        ]

    def dm_messages(self, user: UserLike) -> list[StoredMessage]:
        """Messages in the DM channel between the bot and ``user``, oldest first."""
        return self.messages(self.dm_channel(user).id)

    def public_messages(self) -> list[StoredMessage]:
        """Every non-ephemeral message in every channel, oldest first."""
        return [m for m in self._messages.values() if not m.ephemeral]

    def ephemeral_messages(self, user_id: UserLike | None = None) -> list[StoredMessage]:
        """Ephemeral messages (optionally only those visible to ``user_id``), oldest first."""
        uid = None if user_id is None else self._user(user_id).id
        return [
            m
            for m in self._messages.values()
            if m.ephemeral and (uid is None or m.ephemeral_user_id == uid)
        ]

    def last_message(
        self, channel_id: int | None = None, *, ephemeral: bool | None = False
    ) -> StoredMessage | None:
        """The newest message in ``channel_id`` (any channel if None); public by default."""
        for msg in reversed(self._messages.values()):
            if channel_id is not None and msg.channel_id != channel_id:
                continue
            if ephemeral is not None and msg.ephemeral != ephemeral:
                continue
            return msg
        return None

    def all_attachments(self, public_only: bool = True) -> list[StoredAttachment]:
        """Attachments of every stored message (public messages only by default)."""
        return [
            a
            for m in self._messages.values()
            if not (public_only and m.ephemeral)
            for a in m.attachments
        ]

    def delete_message(self, channel_id: int, message_id: int) -> asyncio.Future[None]:
        """Delete a message "by hand" (as a moderator would) and dispatch MESSAGE_DELETE.

        Returns a future; ``await`` it to be sure the event was sent to the bot.
        """
        msg = self._messages.get(message_id)
        if msg is None or msg.channel_id != channel_id:
            raise LookupError(f"no message {message_id} in channel {channel_id}")
        self._remove_message(msg)
        return _settled(self._announce_delete(msg))

    def _remove_message(self, msg: StoredMessage) -> None:
        del self._messages[msg.id]
        msg.deleted = True
        self.deleted_messages.append(msg)
        self._notify()

    def _announce_delete(self, msg: StoredMessage) -> asyncio.Future[None] | None:
        if msg.ephemeral:
            return None
        data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        return self._post("MESSAGE_DELETE", data, self._message_intent(msg))

    async def post_user_message(
        self,
        user: UserLike,
        channel_id: int | None = None,
        content: str = "",
        *,
        embeds: Sequence[JSON] = (),
        attachments: Iterable[tuple[str, bytes]] = (),
    ) -> StoredMessage:
        """A user writes a message in a channel; dispatches MESSAGE_CREATE (with content only
        if the bot has the message content intent or is mentioned, as real Discord does)."""
        author = self._user(user)
        channel = self._channel(channel_id if channel_id is not None else self.channel_id)
        msg = StoredMessage(
            id=self.new_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=list(embeds),
        )
        for filename, data in attachments:
            msg.attachments.append(self._store_attachment(channel.id, filename, data))
        self._store_message(msg)
        await _wait(self._announce_message("MESSAGE_CREATE", msg))
        return msg

    # ------------------------------------------------------------------ message storage
    def _store_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        *,
        content_type: str | None = None,
        description: str | None = None,
    ) -> StoredAttachment:
        att = StoredAttachment(
            id=self.new_id(),
            filename=filename,
            data=data,
            channel_id=channel_id,
            content_type=content_type,
            description=description,
            base_url=self.url,
        )
        self._attachments[att.id] = att
        return att

    def _store_message(self, msg: StoredMessage) -> StoredMessage:
        self._messages[msg.id] = msg
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.is_thread and not msg.ephemeral:
            channel.message_count += 1
        self._notify()
        return msg

    def message_payload(self, msg: StoredMessage) -> JSON:
        """Discord's message object for a stored message (with its thread, if any)."""
        data = msg.payload()
        if msg.thread_id is not None and msg.thread_id in self.channels:
            data["thread"] = self.channel_payload(self.channels[msg.thread_id])
        return data

    def _message_intent(self, msg: StoredMessage) -> int:
        return INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES

    def _announce_message(self, event: str, msg: StoredMessage) -> asyncio.Future[None] | None:
        """MESSAGE_CREATE/UPDATE for a public message; without the message content intent the
        bot gets other users' messages without content (unless it is mentioned)."""
        if msg.ephemeral:
            return None
        data = self.message_payload(msg)
        if msg.guild_id is not None:
            guild = self.guilds.get(msg.guild_id)
            member = None if guild is None else guild.members.get(msg.author.id)
            if member is not None and msg.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        may_hide = (
            msg.author.id != self.bot_user.id
            and msg.guild_id is not None
            and self.bot_user.mention not in msg.content
        )

        def build(session: GatewaySession) -> JSON:
            if may_hide and not session.intents & INTENT_MESSAGE_CONTENT:
                return data | {"content": "", "embeds": [], "attachments": [], "components": []}
            return data

        return self._post(event, build, self._message_intent(msg))

    # ------------------------------------------------------------------ application commands
    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """Commands the bot synced (global if ``guild_id`` is None)."""
        return list(self._commands.get(guild_id, {}).values())

    def find_command(self, name: str, guild_id: int | None = None) -> JSON:
        """Look up a synced command the way a Discord client would (guild first, then global)."""
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for cmd in self._commands.get(scope, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        known = sorted(
            f"{c['name']}" + ("" if scope is None else f" (guild {scope})")
            for scope, cmds in self._commands.items()
            for c in cmds.values()
        )
        raise LookupError(f"no synced slash command {name!r}; synced commands: {known}")

    @property
    def sync_count(self) -> int:
        return len(self.command_syncs)

    # ------------------------------------------------------------------ gateway
    def _live_sessions(self) -> list[GatewaySession]:
        return [
            s
            for s in self._sessions.values()
            if s.ready and s.connection is not None and not s.connection.closed
        ]

    def shard_sessions(self, shard_id: int) -> list[GatewaySession]:
        """The ready, connected sessions identified for ``shard_id`` (of any shard count)."""
        return [s for s in self._live_sessions() if s.shard[0] == shard_id]

    def guilds_of(self, shard_ids: Iterable[int], shard_count: int) -> list[int]:
        """The guilds Discord routes to those shards."""
        wanted = set(shard_ids)
        return [g for g in self.guilds if (g >> 22) % shard_count in wanted]

    @property
    def connected(self) -> bool:
        """True while a bot has an identified gateway connection."""
        return bool(self._live_sessions())

    async def wait_connected(self, timeout: float = PATIENCE) -> None:
        await self.wait_for(lambda: self.connected, timeout, what="a gateway connection")

    async def wait_disconnected(self, timeout: float = PATIENCE) -> None:
        await self.wait_for(lambda: not self._connections, timeout, what="gateway disconnect")

    async def _broadcast(self, event: str, data: JSON, intent: int | None = None) -> None:
        await _wait(self._post(event, data, intent))

    def dispatch(self, event: str, data: JSON) -> asyncio.Future[None]:
        """Send any gateway event to every connected bot (no intent filtering).

        Returns a future; ``await fake.dispatch(...)`` waits until it was written to the socket.
        """
        if not self.started:
            raise RuntimeError("start the fake first")
        done = self._post(event, data)
        assert done is not None
        return done

    async def disconnect_gateway(self, code: int = 4000) -> None:
        """Close the bot's websocket(s) with ``code``; discord.py will reconnect and RESUME."""
        for conn in list(self._connections):
            conn.server_close_code = code
            await conn.ws.close(code=code, message=b"fake discord asked to reconnect")

    async def _ws_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_urls.append(str(request.rel_url))
        conn = GatewayConnection(ws, compress=request.query.get("compress") == "zlib-stream")
        self._connections.append(conn)
        try:
            await conn.send(
                {"op": OP_HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                    self.gateway_received.append(payload)
                    await self._on_gateway_message(conn, payload)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._connections.remove(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                # a clean close (1000/1001) ends the session; anything else can be RESUMEd
                code = conn.server_close_code or ws.close_code
                session.resumable = code not in (1000, 1001)
            self._notify()
        return ws

    async def _on_gateway_message(self, conn: GatewayConnection, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            await conn.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif op == OP_REQUEST_GUILD_MEMBERS:
            await self._members_chunk(conn, data or {})
        self._notify()

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_payloads.append(data)
        session = GatewaySession(
            id=secrets.token_hex(16), intents=int(data.get("intents", 0)), identify=data
        )
        shard_id, shard_count = session.shard
        if not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        guilds = [g for g in self.guilds.values() if session.owns_guild(g.id)]
        self._sessions[session.id] = session
        conn.session = session
        session.connection = conn
        user = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None}
        await conn.dispatch(
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": data.get("shard", [0, 1]),
                "_trace": ["fakediscord"],
            },
        )
        for guild in guilds:
            await conn.dispatch("GUILD_CREATE", self.guild_payload(guild, full=True))
        session.ready = True

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or not session.resumable or data.get("token") != self.token:
            await conn.send({"op": OP_INVALID_SESSION, "d": False})
            return
        conn.session = session
        session.connection = conn
        # replay what the bot missed while disconnected, then RESUMED (as Discord does)
        pending, session.pending = session.pending, []
        for event, payload in pending:
            await conn.dispatch(event, payload)
        await conn.dispatch("RESUMED", {"_trace": ["fakediscord"]})

    async def _members_chunk(self, conn: GatewayConnection, data: JSON) -> None:
        guild_ids = data.get("guild_id")
        ids = guild_ids if isinstance(guild_ids, list) else [guild_ids]
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        for gid in ids:
            guild = None if gid is None else self.guilds.get(int(gid))
            if guild is None:
                continue
            members = [
                m
                for m in guild.members.values()
                if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
            ]
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            await conn.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def guild_payload(self, guild: FakeGuild, *, full: bool = False) -> JSON:
        data: JSON = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "roles": [r.payload() for r in sorted(guild.roles.values(), key=lambda r: r.position)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
        }
        if full:
            channels = [self.channels[c] for c in guild.channel_ids if c in self.channels]
            data.update(
                {
                    "unavailable": False,
                    "large": False,
                    "joined_at": iso(guild.created_at),
                    "member_count": len(guild.members),
                    "members": [m.payload() for m in guild.members.values()],
                    "channels": [self.channel_payload(c) for c in channels],
                    "threads": [
                        self.channel_payload(t)
                        for t in self.channels.values()
                        if t.is_thread and t.guild_id == guild.id and not t.archived
                    ],
                    "presences": [],
                    "voice_states": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        else:
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return data

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        att = self._attachments.get(int(request.match_info["attachment_id"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="not found")
        return web.Response(body=att.data, content_type="application/octet-stream")

    # ------------------------------------------------------------------ interactions
    def _new_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        *,
        locale: str,
        name: str,
        data: JSON,
        source_message: StoredMessage | None = None,
    ) -> InteractionResult:
        iid = self.new_id()
        token = f"fake-interaction-{iid}-{secrets.token_hex(8)}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(self.permissions_for(self.bot_user.id, channel.id)),
            "channel_id": str(channel.id),
        }
        channel_data = self.channel_payload(channel)
        channel_data["permissions"] = str(self.permissions_for(user.id, channel.id))
        payload["channel"] = channel_data
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = guild.members.get(user.id)
            if member is None:
                raise LookupError(f"{user.name} is not a member of guild {guild.name!r}")
            member_data = member.payload()
            member_data["permissions"] = str(self.permissions_for(user.id, channel.id))
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": member_data,
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "user": user.payload(),
                    "authorizing_integration_owners": {"0": str(user.id)},
                    "context": 1,
                }
            )
        if source_message is not None:
            payload["message"] = self.message_payload(source_message)
        result = InteractionResult(
            fake=self,
            id=iid,
            token=token,
            kind=kind,
            user=user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            payload=payload,
            source_message_id=None if source_message is None else source_message.id,
            name=name,
        )
        return result

    async def _send_interaction(
        self, result: InteractionResult, *, wait: bool, timeout: float
    ) -> InteractionResult:
        if not self.connected:
            raise RuntimeError("no bot is connected to the fake gateway (use running_bot)")
        self.interactions.append(result)
        self._interactions_by_id[result.id] = result
        self._interactions_by_token[result.token] = result
        await self._broadcast("INTERACTION_CREATE", result.payload)
        if wait:
            await result.wait_for_response(timeout)
        return result

    async def slash(
        self,
        user: UserLike,
        channel_id: int | None,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        guild_id: int | None = None,
        locale: str = "en-US",
        timeout: float = PATIENCE,
        wait: bool = True,
    ) -> InteractionResult:
        """A user runs a slash command ("domino new" = command ``domino``, subcommand ``new``).

        Options are typed by the synced command's option types: USER options take a FakeUser or
        id (resolved users/members are filled in), CHANNEL options a FakeChannel or id,
        ATTACHMENT options a ``(filename, bytes)`` tuple. Waits for the initial response unless
        ``wait=False``.
        """
        invoker = self._user(user)
        channel = self._channel(channel_id if channel_id is not None else self.channel_id)
        scope = guild_id if guild_id is not None else channel.guild_id
        data = self._command_data(command, options or {}, scope, channel, focused=None)
        result = self._new_interaction(
            APPLICATION_COMMAND, invoker, channel, locale=locale, name=command, data=data
        )
        return await self._send_interaction(result, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        user: UserLike,
        channel_id: int | None,
        command: str,
        focused: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
        timeout: float = PATIENCE,
    ) -> InteractionResult:
        """A user types in option ``focused``; the result's ``choices`` hold the bot's answer."""
        invoker = self._user(user)
        channel = self._channel(channel_id if channel_id is not None else self.channel_id)
        opts = dict(options or {})
        opts.setdefault(focused, "")
        data = self._command_data(command, opts, channel.guild_id, channel, focused=focused)
        result = self._new_interaction(
            AUTOCOMPLETE, invoker, channel, locale=locale, name=command, data=data
        )
        return await self._send_interaction(result, wait=True, timeout=timeout)

    def _command_data(
        self,
        command: str,
        options: dict[str, Any],
        guild_id: int | None,
        channel: FakeChannel,
        *,
        focused: str | None,
    ) -> JSON:
        parts = command.split()
        if not parts:
            raise ValueError("empty command")
        cmd = self.find_command(parts[0], guild_id)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        specs: list[JSON] = cmd.get("options") or []
        top: list[JSON] = []
        target = top
        for part in parts[1:]:
            spec = next(
                (o for o in specs if o["name"] == part and o["type"] in (1, 2)),
                None,
            )
            if spec is None:
                subs = [o["name"] for o in specs if o["type"] in (1, 2)]
                raise LookupError(f"{command!r}: no subcommand {part!r}; choose from {subs}")
            node: JSON = {"name": part, "type": spec["type"], "options": []}
            target.append(node)
            target = node["options"]
            specs = spec.get("options") or []
        subs = [o["name"] for o in specs if o["type"] in (1, 2)]
        if subs:
            raise LookupError(f"{command!r} needs a subcommand; choose from {subs}")
        resolved: JSON = {}
        for name, value in options.items():
            spec = next((o for o in specs if o["name"] == name), None)
            if spec is None:
                raise LookupError(
                    f"{command!r} has no option {name!r}; options: {[o['name'] for o in specs]}"
                )
            target.append(self._option(spec, value, resolved, channel, focused=(name == focused)))
        if focused is None:
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"{command!r}: missing required option(s) {missing}")
        data["options"] = top
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        spec: JSON,
        value: Any,
        resolved: JSON,
        channel: FakeChannel,
        *,
        focused: bool,
    ) -> JSON:
        name, otype = spec["name"], spec["type"]
        if focused:
            return {"name": name, "type": otype, "value": value, "focused": True}
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        out: Any
        if otype == 3:
            out = str(value)
            lo, hi = spec.get("min_length"), spec.get("max_length")
            if (lo is not None and len(out) < lo) or (hi is not None and len(out) > hi):
                raise ValueError(f"option {name!r}: length must be within {lo}..{hi}")
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an INTEGER option, got {value!r}")
            out = value
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a BOOLEAN option, got {value!r}")
            out = value
        elif otype == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"option {name!r} is a NUMBER option, got {value!r}")
            out = value
        elif otype == 6 or (
            otype == 9 and (isinstance(value, FakeUser) or int(value) in self.users)
        ):
            user = self._user(value)
            out = str(user.id)
            resolved.setdefault("users", {})[out] = user.payload()
            member = None if guild is None else guild.members.get(user.id)
            if member is not None:
                mdata = member.payload(with_user=False)
                mdata["permissions"] = str(self.permissions_for(user.id, channel.id))
                resolved.setdefault("members", {})[out] = mdata
        elif otype in (8, 9):
            role_id = value.id if isinstance(value, FakeRole) else int(value)
            if guild is None or role_id not in guild.roles:
                raise LookupError(f"option {name!r}: no role {role_id}")
            out = str(role_id)
            resolved.setdefault("roles", {})[out] = guild.roles[role_id].payload()
        elif otype == 7:
            target = self._channel(value)
            out = str(target.id)
            cdata = self.channel_payload(target)
            cdata["permissions"] = str(self.permissions_for(self.bot_user.id, target.id))
            resolved.setdefault("channels", {})[out] = cdata
        elif otype == 11:
            if isinstance(value, StoredAttachment):
                att = value
            else:
                filename, blob = value
                att = self._store_attachment(channel.id, str(filename), bytes(blob))
            out = str(att.id)
            resolved.setdefault("attachments", {})[out] = att.payload(ephemeral=True)
        else:
            raise TypeError(f"option {name!r}: unsupported option type {otype} / {value!r}")
        if otype in (3, 4, 10):
            choices = spec.get("choices")
            if choices and out not in [c["value"] for c in choices]:
                raise ValueError(
                    f"option {name!r}: {out!r} is not one of {[c['value'] for c in choices]}"
                )
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if otype != 3 and ((lo is not None and out < lo) or (hi is not None and out > hi)):
                raise ValueError(f"option {name!r}: {out} not within {lo}..{hi}")
        return {"name": name, "type": otype, "value": out}

    def _live_message(self, message: MessageLike) -> StoredMessage:
        mid = message.id if isinstance(message, StoredMessage) else int(message)
        msg = self._messages.get(mid)
        if msg is None:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        return msg

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        *,
        locale: str = "en-US",
        timeout: float = PATIENCE,
        wait: bool = True,
    ) -> InteractionResult:
        """A user clicks the button ``custom_id`` on a stored message (public or ephemeral).

        The message is looked up in the store, so passing an old snapshot clicks the current
        version. Raises if the button does not exist, is disabled, or the user can't see it.
        """
        return await self._component(user, message, custom_id, None, locale, timeout, wait)

    async def select(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        values: Sequence[Any],
        *,
        locale: str = "en-US",
        timeout: float = PATIENCE,
        wait: bool = True,
    ) -> InteractionResult:
        """A user picks ``values`` in the select menu ``custom_id`` (string/user/role/channel)."""
        return await self._component(user, message, custom_id, list(values), locale, timeout, wait)

    async def _component(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        values: list[Any] | None,
        locale: str,
        timeout: float,
        wait: bool,
    ) -> InteractionResult:
        clicker = self._user(user)
        msg = self._live_message(message)
        if msg.ephemeral and msg.ephemeral_user_id != clicker.id:
            raise PermissionError(f"{clicker.name} cannot see ephemeral message {msg.id}")
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(
                f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}"
            )
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} on message {msg.id} is disabled")
        ctype = int(comp["type"])
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        channel = self._channel(msg.channel_id)
        if ctype == 2:
            if values is not None:
                raise ValueError(f"{custom_id!r} is a button; use fake.click()")
        else:
            if values is None:
                raise ValueError(f"{custom_id!r} is a select menu; use fake.select()")
            data["values"], resolved = self._select_values(comp, values, channel)
            if resolved:
                data["resolved"] = resolved
        result = self._new_interaction(
            MESSAGE_COMPONENT,
            clicker,
            channel,
            locale=locale,
            name=custom_id,
            data=data,
            source_message=msg,
        )
        return await self._send_interaction(result, wait=wait, timeout=timeout)

    def _select_values(
        self, comp: JSON, values: list[Any], channel: FakeChannel
    ) -> tuple[list[str], JSON]:
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {comp.get('custom_id')!r} takes {lo}..{hi} values")
        resolved: JSON = {}
        out: list[str] = []
        ctype = comp["type"]
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            for v in values:
                if str(v) not in allowed:
                    raise ValueError(f"{v!r} is not an option of {comp.get('custom_id')!r}")
                out.append(str(v))
            return out, resolved
        for v in values:
            spec_type = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]  # user, role, mentionable, channel
            spec = {"name": "v", "type": spec_type}
            opt = self._option(spec, v, resolved, channel, focused=False)
            out.append(opt["value"])
        return out, resolved

    async def submit_modal(
        self,
        source: InteractionResult,
        values: dict[str, Any],
        *,
        user: UserLike | None = None,
        locale: str = "en-US",
        timeout: float = PATIENCE,
        wait: bool = True,
    ) -> InteractionResult:
        """Submit the modal the bot answered ``source`` with. ``values`` maps custom ids to the
        typed text (or a list of values for selects inside the modal)."""
        modal = source.modal
        if modal is None:
            raise ValueError(f"{source!r} was not answered with a modal")
        submitter = self._user(user if user is not None else source.user)
        known = {
            c["custom_id"]
            for c in iter_components(modal.get("components") or [])
            if "custom_id" in c
        }
        unknown_ids = set(values) - known
        if unknown_ids:
            raise LookupError(f"modal has no inputs {sorted(unknown_ids)}; it has {sorted(known)}")

        def submitted(comp: JSON) -> JSON | None:
            cid = comp.get("custom_id")
            if cid is None:
                return None
            ctype = comp["type"]
            if ctype == 4:
                value = values.get(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(value)}
            given = values.get(cid, [])
            if isinstance(given, list):
                return {"type": ctype, "custom_id": cid, "values": [str(v) for v in given]}
            return {"type": ctype, "custom_id": cid, "value": given}

        components: list[JSON] = []
        for top in modal.get("components") or []:
            if top.get("type") == 1:
                row = [s for s in (submitted(c) for c in top.get("components") or []) if s]
                components.append({"type": 1, "components": row})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                inner = submitted(top["component"])
                if inner is not None:
                    components.append({"type": 18, "component": inner})
        channel = self._channel(source.channel_id)
        source_msg = None
        if source.source_message_id is not None:
            source_msg = self._messages.get(source.source_message_id)
        result = self._new_interaction(
            MODAL_SUBMIT,
            submitter,
            channel,
            locale=locale,
            name=str(modal.get("custom_id")),
            data={"custom_id": modal.get("custom_id"), "components": components},
            source_message=source_msg,
        )
        return await self._send_interaction(result, wait=wait, timeout=timeout)

    def interaction(self, interaction_id: int) -> InteractionResult:
        return self._interactions_by_id[interaction_id]

    def expire_interactions(self) -> None:
        """Expire every interaction token handed out so far (as if 15 minutes passed)."""
        for result in self.interactions:
            result.expire()
