"""Keeps each table's Discord messages in step with the table service.

The presenter is a :class:`~bot.tables.service.TableObserver`: every callback only wakes the
table's :class:`~cogs.domino.feed.Feed`, which reads the store and converges. It also makes
the threads, opens a started table's game, and owns the private hand messages
(:class:`~cogs.domino.hand_message.HandMessages`). After a restart every open table's feed,
and the feed of any table whose end a crash kept from being published, is woken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

import discord
from discord.ext import commands

from bot.i18n import tr
from bot.tables.correspondence import serve_vacations
from bot.tables.service import ActionResult, TableInfo, TableObserver, TableService
from bot.traffic import counted_as
from cogs.domino import texts
from cogs.domino.feed import Carriers, Feed, ThreadLater
from cogs.domino.hand_message import HandMessages
from cogs.domino.matchend import Wrapup
from cogs.domino.places_feed import PlacesFeeds
from domino import HandResult, Outcome

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004  # Discord: "A thread has already been created for this message"
#: Seconds before asking again for a thread Discord kept refusing with short rate limits.
THREAD_RETRY = 60.0

SHUTDOWN_GRACE = 5.0


class Presenter(TableObserver):
    """Wakes the feeds of tables that changed; makes threads; keeps private hands fresh."""

    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self.feeds: dict[int, Feed] = {}
        self.hands = HandMessages(service)
        self.carriers = Carriers()  # clicks whose interaction can edit a public message
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.wrapup = Wrapup(bot, service, self)
        self.places = PlacesFeeds(self)  # the places of tables across servers
        self._vacations: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Observe the service and recover open tables once the bot is ready."""
        self.service.add_observer(self)
        self.bot.add_listener(self._on_tables_adopted, "on_tables_adopted")
        self.bot.add_listener(self._on_tables_released, "on_tables_released")
        self.bot.add_listener(self.carriers.seen, "on_interaction")
        self.places.start(self.bot)
        self.wrapup.start()
        self._spawn(self._recover(), "domino-recover")
        self._vacations = asyncio.create_task(
            serve_vacations(self.service), name="domino-vacations"
        )

    async def close(self) -> None:
        """Stop observing; let running feed rounds finish briefly."""
        self.closing = True
        with contextlib.suppress(ValueError):
            self.service.remove_observer(self)
        self.bot.remove_listener(self._on_tables_adopted, "on_tables_adopted")
        self.bot.remove_listener(self._on_tables_released, "on_tables_released")
        self.bot.remove_listener(self.carriers.seen, "on_interaction")
        await self.wrapup.close()
        await self.places.close()
        if self._vacations is not None:
            self._vacations.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._vacations
        workers = [f._task for f in self.feeds.values() if f._task is not None]
        if workers:
            _, pending = await asyncio.wait(workers, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, *workers, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until no feed has work (for tests)."""
        while True:
            await self.service.idle()
            await self.service.scheduler.idle()
            busy = [f._task for f in self.feeds.values() if f.busy]
            busy += [t for t in self._tasks if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)  # type: ignore[arg-type]

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _recover(self) -> None:
        """After a (re)start: converge every open table, and every closed one whose end was
        not published."""
        await self.bot.wait_until_ready()
        for info in self.service.open_tables():
            self.feed(info.id).wake()
        for table_id in await self.service.unpublished():
            self.feed(table_id).wake()

    async def _on_tables_adopted(self, table_ids: list[int]) -> None:
        """This process took over a shard: converge its tables (and their unpublished ends)."""
        if not self.closing:
            await self._recover()

    async def _on_tables_released(self, table_ids: list[int]) -> None:
        """Another process runs these tables now: stop publishing them from here."""
        for table_id in table_ids:
            feed = self.feeds.pop(table_id, None)
            if feed is not None and feed._task is not None:
                feed._task.cancel()
            self.forget_hands(table_id)

    def feed(self, table_id: int) -> Feed:
        """The table's feed (made on first use; dropped once everything is published)."""
        feed = self.feeds.get(table_id)
        if feed is None or feed.closed:
            feed = self.feeds[table_id] = Feed(self, table_id)
        return feed

    def wake(self, table_id: int) -> None:
        if not self.closing:
            self.feed(table_id).wake()

    # ------------------------------------------------------------------ observer

    async def on_lobby_changed(self, table: TableInfo) -> None:
        self.wake(table.id)

    async def on_table_started(self, table: TableInfo) -> None:
        self.wake(table.id)

    async def on_action(self, result: ActionResult) -> None:
        self.wake(result.table.id)

    async def on_hand_ended(self, table: TableInfo, result: HandResult) -> None:
        self.wake(table.id)

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        self.wake(table.id)

    async def on_table_cancelled(self, table: TableInfo) -> None:
        self.wake(table.id)
        self.forget_hands(table.id)

    async def on_pause_over(self, table: TableInfo) -> None:
        self.wake(table.id)

    async def on_vacation(self, table: TableInfo, user_id: int) -> None:
        self.wake(table.id)  # the feed posts the vacation's notice owed in each place

    async def on_reminder(self, table: TableInfo, seat: int, user_id: int, deadline: float) -> None:
        self.wake(table.id)  # he was idle on his turn for a while: the feed pings him

    async def on_seat_taken_over(
        self, table: TableInfo, user_id: int, seats: tuple[int, ...]
    ) -> None:
        self.hands.drop(table.id, user_id)
        self.wake(table.id)  # the feed announces it from the stored log

    # ------------------------------------------------------------------ what the feed draws

    async def match_end_layout(self, info: TableInfo, mentions: str) -> discord.ui.LayoutView:
        """The match-end post: the result, the rating changes, the Rematch offer."""
        return await self.wrapup.layout(info, mentions=mentions)

    async def match_end_posted(self, info: TableInfo, message_id: int | None) -> None:
        await self.wrapup.posted(info, message_id)

    async def converge_places(self, table_id: int) -> bool:
        """Bring every place of a table across servers up to date (True: all published)."""
        return await self.places.converge(table_id)

    async def open_game(self, table_id: int) -> bool:
        """Right after the start: make the thread and post the game message now; False (and the
        table cancelled) if Discord will not let the bot post it."""
        try:
            await self.feed(table_id).sync()
        except discord.Forbidden as exc:
            log.info("table %s: may not post the game message: %s", table_id, exc.text)
            info = await self.service.get(table_id)
            if info.status == "running" and info.table.message_id is None:
                await self.service.cancel(table_id, info.host_id, force=True)
                return False
        except Exception as exc:  # the feed retries by itself
            log.warning("table %s: first game message delayed: %s", table_id, exc)
            self.wake(table_id)
        return True

    async def make_thread(
        self, channel: discord.TextChannel, info: TableInfo
    ) -> discord.Thread | None:
        name = tr(
            info.table.locale,
            "Dominoes · {variant} · table {id}",
            variant=texts.variant_name(info.table.locale, info.ruleset.id),
            id=info.id,
        )[:100]
        try:
            if info.table.lobby_message_id is not None:
                try:
                    message = channel.get_partial_message(info.table.lobby_message_id)
                    return await message.create_thread(name=name, auto_archive_duration=1440)
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:
                    if exc.code != THREAD_EXISTS:
                        raise
                    # Made before a crash (or a lost answer) kept it from the store: it is the
                    # table's thread (a thread started from a message has the message's id).
                    thread = channel.guild.get_thread(message.id)
                    found = thread or await channel.guild.fetch_channel(message.id)
                    if isinstance(found, discord.Thread):
                        return found
            return await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
            )
        except discord.RateLimited as exc:  # a long wait (a shared limit): ask again later
            raise ThreadLater(exc.retry_after) from exc
        except discord.Forbidden:
            log.info("table %s: may not create a thread; playing in the channel", info.id)
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise  # try again: the feed retries
            if exc.status == 429:  # still refused after discord.py's retries
                raise ThreadLater(THREAD_RETRY) from exc
            log.warning("table %s: thread not created (%s); playing in the channel", info.id, exc)
        return None

    def seen_at(self, table_id: int, user_id: int) -> int | None:
        """The table's version when ``user_id`` last opened his tiles there or pressed one."""
        return self.hands.seen_at(table_id, user_id)

    def forget_hands(self, table_id: int) -> None:
        """Drop what is kept about a closed table's private hand messages."""
        self.hands.forget(table_id)

    @counted_as("hand")
    async def refresh_hands(self, info: TableInfo, *, everyone: bool = False) -> None:
        """Refresh the private hand messages whose state is behind the table's."""
        await self.hands.refresh(info, everyone=everyone)
