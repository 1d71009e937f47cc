"""Starting and stopping a real discord.py bot against a ``FakeDiscord``."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .fake import FakeDiscord
from .models import PATIENCE

ClientT = TypeVar("ClientT", bound=discord.Client)

BotFactory = Callable[[], ClientT | Awaitable[ClientT]]


@contextlib.contextmanager
def patch_discord(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py at the fake: ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``.

    Nothing else in discord.py is patched. (``Client.connect`` never calls ``/gateway/bot``; it
    connects straight to ``DEFAULT_GATEWAY`` and later to READY's ``resume_gateway_url``.)
    """
    old_base = Route.BASE
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class _ErrorCapture(logging.Handler):
    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink
        self.mine: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)
        self.mine.append(record)


def _format_records(records: list[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(name)s: %(message)s")
    return "\n\n".join(formatter.format(r) for r in records)


def _has_unsynced_commands(fake: FakeDiscord, bot: discord.Client) -> bool:
    tree = getattr(bot, "tree", None)
    if not isinstance(tree, discord.app_commands.CommandTree):
        return False
    has_commands = bool(tree.get_commands()) or any(
        tree.get_commands(guild=discord.Object(gid)) for gid in fake.guilds
    )
    return has_commands and not any(fake._commands.values())


def _has_its_guilds(fake: FakeDiscord, bot: discord.Client) -> bool:
    """Every guild of the bot's shards is in its cache (all guilds for an unsharded bot)."""
    count = bot.shard_count or 1
    ids = getattr(bot, "shard_ids", None)
    if ids is None:
        ids = range(count) if bot.shard_id is None else [bot.shard_id]
    return all(bot.get_guild(g) for g in fake.guilds_of(ids, count))


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    factory: BotFactory[ClientT],
    *,
    token: str | None = None,
    ready_timeout: float = PATIENCE,
    wait_for_sync: bool | None = None,
    guild_ready_timeout: float | None = 0.05,
    raise_bot_errors: bool = True,
) -> AsyncIterator[ClientT]:
    """Run a bot made by ``factory()`` against ``fake`` until the block exits.

    Starts the fake if needed, patches discord.py to point at it, runs ``bot.start(token)`` as
    a task, waits for ``on_ready`` (and for the command sync: ``wait_for_sync=None`` waits only
    when the bot's tree has commands and the fake has none yet), then yields the bot. On exit the
    bot is closed, its task awaited and the patches restored; the fake keeps all its state, so
    a new bot can be started against it (a "restart").

    ``guild_ready_timeout`` overrides discord.py's 2 s wait after the last GUILD_CREATE before
    READY is dispatched (``None`` keeps the bot's own value). With ``raise_bot_errors`` any
    ERROR log record emitted while the bot ran (e.g. discord.py's "Ignoring exception in
    command ...") fails the block with an AssertionError.
    """
    if not fake.started:
        await fake.start()
    capture = _ErrorCapture(fake.bot_errors)
    root = logging.getLogger()
    sessions_before = set(fake._sessions)
    syncs_before = fake.sync_count
    task: asyncio.Task[None] | None = None
    bot: ClientT | None = None
    # the patches stay active until the bot is fully closed, so nothing it still does on the
    # way out can reach the real Discord
    with patch_discord(fake):
        root.addHandler(capture)
        try:
            made = factory()
            bot = await made if inspect.isawaitable(made) else made
            if guild_ready_timeout is not None:
                bot._connection.guild_ready_timeout = guild_ready_timeout
            needs_sync = _has_unsynced_commands(fake, bot) if wait_for_sync is None else False
            task = asyncio.create_task(bot.start(token or fake.token), name="fakediscord-bot")
            started_bot = bot
            started_task = task
            # READY fires guild_ready_timeout after the last GUILD_CREATE; on a very slow run a
            # guild could come later, so also wait until every guild is in the bot's cache.
            await fake.wait_for(
                lambda: (
                    started_task.done()
                    or (started_bot.is_ready() and _has_its_guilds(fake, started_bot))
                ),
                timeout=ready_timeout,
                what="the bot to become ready",
            )
            if task.done():
                exc = task.exception()
                raise RuntimeError(f"the bot stopped before it was ready: {exc!r}") from exc
            if wait_for_sync or needs_sync:
                await fake.wait_for(
                    lambda: fake.sync_count > syncs_before or started_task.done(),
                    timeout=ready_timeout,
                    what="the bot to sync its application commands",
                )
            yield bot
            if raise_bot_errors and capture.mine:
                raise AssertionError(
                    "the bot logged errors while it ran (pass raise_bot_errors=False if "
                    "expected):\n" + _format_records(capture.mine)
                )
        finally:
            try:
                await _stop(fake, bot, task, sessions_before)
            finally:
                root.removeHandler(capture)


async def _stop(
    fake: FakeDiscord,
    bot: discord.Client | None,
    task: asyncio.Task[None] | None,
    sessions_before: set[str],
) -> None:
    if bot is not None:
        await bot.close()
    if task is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=PATIENCE)
    new_sessions = [s for sid, s in fake._sessions.items() if sid not in sessions_before]
    await fake.wait_for(
        lambda: all(s.connection is None for s in new_sessions),
        timeout=PATIENCE,
        what="the bot's gateway connection to close",
    )
