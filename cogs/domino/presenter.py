"""Keeps each table's Discord messages in step with the table service.

The presenter is a :class:`~bot.tables.service.TableObserver`: every callback only wakes the
table's :class:`~cogs.domino.feed.Feed`, which reads the store and converges. It also builds
the lobby message, makes threads, draws table pictures, and remembers each player's private
hand message so it can be refreshed when his turn comes. After a restart every open table's
feed, and the feed of any table whose end a crash kept from being published, is woken.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from bot import pictures
from bot.errors import ServiceError
from bot.i18n import picture_options, tr
from bot.tables.service import ActionResult, TableInfo, TableObserver, TableService
from cogs.domino import texts, ui
from cogs.domino.alt_text import hand_alt_text
from cogs.domino.buttons import make_view
from cogs.domino.feed import LOG_LINES, Feed
from cogs.domino.matchend import Wrapup
from domino import HandResult, Outcome, Tile, View
from render.moves import LastMove

log = logging.getLogger(__name__)

HAND_TOKEN_LIFETIME = 14 * 60  # interaction tokens last 15 minutes
SHUTDOWN_GRACE = 5.0


@dataclass
class _HandMessage:
    """A player's private hand message, reachable through its interaction's token."""

    interaction: discord.Interaction[Any]
    locale: str | None
    seq: int
    acting: bool  # the message offered actions (it must not keep offering them)
    since: float = field(default_factory=time.monotonic)


class Presenter(TableObserver):
    """Wakes the feeds of tables that changed; draws pictures; refreshes private hands."""

    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self.feeds: dict[int, Feed] = {}
        self._hands: dict[tuple[int, int], _HandMessage] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.wrapup = Wrapup(bot, service, self)

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Observe the service and recover open tables once the bot is ready."""
        self.service.add_observer(self)
        self.bot.add_listener(self._on_tables_adopted, "on_tables_adopted")
        self.bot.add_listener(self._on_tables_released, "on_tables_released")
        self.wrapup.start()
        self._spawn(self._recover(), "domino-recover")

    async def close(self) -> None:
        """Stop observing; let running feed rounds finish briefly."""
        self.closing = True
        with contextlib.suppress(ValueError):
            self.service.remove_observer(self)
        self.bot.remove_listener(self._on_tables_adopted, "on_tables_adopted")
        self.bot.remove_listener(self._on_tables_released, "on_tables_released")
        await self.wrapup.close()
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

    async def on_reminder(self, table: TableInfo, seat: int, user_id: int, deadline: float) -> None:
        self.wake(table.id)  # half time: the feed pings the player again

    async def on_seat_taken_over(
        self, table: TableInfo, user_id: int, seats: tuple[int, ...]
    ) -> None:
        def text(locale: str | None) -> str:
            return tr(
                locale,
                "<@{user}> ran out of time {count} times in a row: a computer plays for them "
                "for the rest of the match.",
                user=user_id,
                count=self.service.max_timeouts,
            )

        self._hands.pop((table.id, user_id), None)
        if not self.closing:
            self.feed(table.id).say(text)

    # ------------------------------------------------------------------ what the feed draws

    async def table_png(
        self, info: TableInfo, view: View, last: Sequence[LastMove | None] | None = None
    ) -> bytes | None:
        """The table picture of ``view``; ``last``: each seat's latest move, when known."""
        locale = info.table.locale
        options = picture_options(locale)
        if last is not None:
            options["last"] = list(last)
        return await pictures.table_png(view, texts.picture_names(info, locale), **options)

    async def match_end_extras(
        self, info: TableInfo, embed: discord.Embed
    ) -> discord.ui.View | None:
        """Rating changes on the match-end embed; its Rematch button."""
        return await self.wrapup.decorate(info, embed)

    async def match_end_posted(self, info: TableInfo, message_id: int | None) -> None:
        await self.wrapup.posted(info, message_id)

    def lobby_payload(
        self, info: TableInfo, locale: str | None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The lobby (or challenge) message for ``info``'s state."""
        if info.is_challenge:
            embed = ui.challenge_embed(locale, info, info.invited)
            if info.status != "lobby":
                return self._closed(embed, locale, info), None
            return embed, make_view(ui.challenge_buttons(locale, info, info.invited))
        if info.status != "lobby":
            return ui.closed_lobby_embed(locale, info, self._where(info)), None
        return ui.lobby_embed(locale, info), make_view(ui.lobby_buttons(locale, info))

    def _closed(self, embed: discord.Embed, locale: str | None, info: TableInfo) -> discord.Embed:
        closed = ui.closed_lobby_embed(locale, info, self._where(info))
        embed.description = closed.description
        embed.colour = closed.colour
        embed.set_footer(text=None)
        return embed

    @staticmethod
    def _where(info: TableInfo) -> str | None:
        thread = info.table.thread_id
        if thread and thread != info.table.channel_id:
            return f"<#{thread}>"
        return None

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
            return await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
            )
        except discord.Forbidden:
            log.info("table %s: may not create a thread; playing in the channel", info.id)
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise  # try again: the feed retries
            log.warning("table %s: thread not created (%s); playing in the channel", info.id, exc)
        return None

    def forget_hands(self, table_id: int) -> None:
        """Drop what is kept about a closed table's private hand messages."""
        for key in [k for k in self._hands if k[0] == table_id]:
            del self._hands[key]

    # ------------------------------------------------------------------ private hands

    async def state_for(self, table_id: int, user_id: int) -> tuple[TableInfo, list[View]]:
        """The table and the user's private views, taken at the same moment (an open table is
        in memory: neither call waits, so nothing can move in between)."""
        info = await self.service.get(table_id)
        views = await self.service.views_for(table_id, user_id)
        return info, views

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
    ) -> None:
        """Send (``new``) or edit the user's private hand message for the current state."""
        user_id = interaction.user.id
        locale = interaction.locale.value
        try:
            info, views = await self.state_for(table_id, user_id)
        except ServiceError:
            info = await self.service.get(table_id)
            if info.status == "running":
                raise
            # The match is over (or was cancelled): say so in place of the tiles.
            content = "\n".join(x for x in (notice, tr(locale, "The match is over.")) if x)
            self._hands.pop((table_id, user_id), None)
            if new:
                await interaction.followup.send(content, ephemeral=True)
            else:
                await interaction.edit_original_response(content=content, attachments=[], view=None)
            return
        await self._send_hand(
            interaction, info, views, locale, new=new, choose=choose, notice=notice
        )

    async def _send_hand(
        self,
        interaction: discord.Interaction[Any],
        info: TableInfo,
        views: Sequence[View],
        locale: str | None,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
    ) -> None:
        history = await self.service.history(info.id)
        seats = [v.seat for v in views if v.seat is not None]
        since = [
            texts.entry_text(locale, info, e) for e in history.since(seats, limit=LOG_LINES)
        ]
        content, buttons = ui.hand_message(
            locale, info, views, choose=choose, notice=notice, since=since
        )
        if choose is None:
            acting = ui.acting_view(info, views)
            buttons += await ui.hint_buttons(self.service, locale, info, acting)
        files: list[discord.File] = []
        for view in views:
            png = await pictures.hand_png(view, **picture_options(locale))
            if png is not None:
                name = "hand.png" if len(views) == 1 else f"hand-seat{(view.seat or 0) + 1}.png"
                alt = hand_alt_text(view, locale)
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt))
        ui_view = make_view(buttons) if buttons else None
        if new:
            kwargs: dict[str, Any] = {"ephemeral": True, "files": files}
            if ui_view is not None:
                kwargs["view"] = ui_view
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.edit_original_response(
                content=content, attachments=files, view=ui_view
            )
        acting = ui.acting_view(info, views) is not None
        self._hands[(info.id, interaction.user.id)] = _HandMessage(
            interaction, locale, info.seq, acting
        )

    def claim_hand(self, interaction: discord.Interaction[Any], table_id: int, seq: int) -> None:
        """The player's own click is about to redraw his hand message for the state at ``seq``:
        the table's refresh must not race it (and wipe its "You played ..." line)."""
        self._hands[(table_id, interaction.user.id)] = _HandMessage(
            interaction, interaction.locale.value, seq, False
        )

    async def refresh_hands(self, info: TableInfo, *, everyone: bool = False) -> None:
        """Refresh the remembered hand messages of the player to move, and of a player whose
        message still offers actions although his turn is gone (``everyone``: all)."""
        for (table_id, user_id), hand in list(self._hands.items()):
            if table_id != info.id:
                continue
            if time.monotonic() - hand.since > HAND_TOKEN_LIFETIME:
                del self._hands[(table_id, user_id)]
                continue
            if hand.seq == info.seq:
                continue
            if not everyone and not hand.acting and info.turn not in info.seats_of(user_id):
                continue
            try:
                fresh, views = await self.state_for(info.id, user_id)
                await self._send_hand(hand.interaction, fresh, views, hand.locale, new=False)
                self._hands[(table_id, user_id)].since = hand.since
            except (discord.HTTPException, ServiceError) as exc:
                log.debug("table %s: hand of %s not refreshed: %s", info.id, user_id, exc)
                self._hands.pop((table_id, user_id), None)
