"""Keeps each table's Discord messages in step with the table service.

The presenter is a :class:`~bot.tables.service.TableObserver`. Observer calls only queue work; one
worker task per table then does the Discord calls in order (lobby refreshes and game-message
refreshes are coalesced: a burst of computer moves becomes one edit showing the latest state).
It also makes computer players move after their delay, remembers each player's private hand
message so it can be refreshed when his turn comes, and brings tables back after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from bot import pictures
from bot.errors import ServiceError, TableFinished
from bot.i18n import picture_options, tr
from bot.tables.service import ActionResult, TableInfo, TableObserver, TableService
from cogs.domino import texts, ui
from cogs.domino.ids import make_view, parse
from domino import HandResult, Outcome, Tile, View

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()
HAND_TOKEN_LIFETIME = 14 * 60  # interaction tokens last 15 minutes
SHUTDOWN_GRACE = 5.0


@dataclass
class _Item:
    kind: str
    data: Any = None
    future: asyncio.Future[Any] | None = None


@dataclass
class _Feed:
    """The queue of Discord work of one table, and what its game message shows."""

    queue: deque[_Item] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None
    hand: int | None = None  # hand number shown by the current game message
    message_id: int | None = None  # the current game message, once this process posted one


@dataclass
class _HandMessage:
    """A player's private hand message, reachable through its interaction's token."""

    interaction: discord.Interaction[Any]
    locale: str | None
    seq: int
    acting: bool  # the message offered actions (it must not keep offering them)
    since: float = field(default_factory=time.monotonic)


class Presenter(TableObserver):
    """Posts and edits the public messages of tables; drives computer players' timing."""

    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self._feeds: dict[int, _Feed] = {}
        self._hands: dict[tuple[int, int], _HandMessage] = {}
        self._ai: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._last_by: dict[int, tuple[int, str]] = {}  # table -> (seq after, "timeout"...)
        self._challenges: dict[int, tuple[int, ...]] = {}
        self._ended: set[int] = set()  # finished or cancelled tables whose feed can go
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Observe the service and recover open tables once the bot is ready."""
        self.service.add_observer(self)
        self._spawn(self._recover(), "domino-recover")

    async def close(self) -> None:
        """Stop observing, stop computer timers, let queued Discord work finish briefly."""
        self._closing = True
        with contextlib.suppress(ValueError):
            self.service.remove_observer(self)
        for _, task in self._ai.values():
            task.cancel()
        workers = [f.task for f in self._feeds.values() if f.task is not None]
        if workers:
            _, pending = await asyncio.wait(workers, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, *workers, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until no Discord work is queued or running (for tests)."""
        while True:
            await self.service.idle()
            busy = [f.task for f in self._feeds.values() if f.task and not f.task.done()]
            busy += [t for _, t in self._ai.values() if not t.done()]
            busy += [t for t in self._tasks if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _recover(self) -> None:
        """After a (re)start: refresh every running table's message (re-posting a deleted one)
        and let computers that are to move play."""
        await self.bot.wait_until_ready()
        for info in self.service.open_tables():
            if info.status == "running":
                self.enqueue(info.id, "game")
                self.kick(info)

    # ------------------------------------------------------------------ queue

    def enqueue(self, table_id: int, kind: str, data: Any = None) -> None:
        """Queue Discord work for a table ("lobby" and "game" refreshes are coalesced)."""
        if self._closing:
            return
        feed = self._feeds.setdefault(table_id, _Feed())
        if kind in ("lobby", "game") and any(i.kind == kind for i in feed.queue):
            return
        feed.queue.append(_Item(kind, data))
        self._wake(table_id, feed)

    async def call(self, table_id: int, kind: str, data: Any = None) -> Any:
        """Queue work and wait for its result (runs in order with the table's other work)."""
        feed = self._feeds.setdefault(table_id, _Feed())
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        feed.queue.append(_Item(kind, data, future))
        self._wake(table_id, feed)
        return await future

    def _wake(self, table_id: int, feed: _Feed) -> None:
        if feed.task is None or feed.task.done():
            feed.task = asyncio.create_task(self._work(table_id, feed), name=f"table-{table_id}")

    async def _work(self, table_id: int, feed: _Feed) -> None:
        handlers: dict[str, Callable[[int, Any], Awaitable[Any]]] = {
            "lobby": self._do_lobby,
            "open": self._do_open,
            "game": self._do_game,
            "hand_end": self._do_hand_end,
            "match_end": self._do_match_end,
            "cancelled": self._do_cancelled,
            "say": self._do_say,
        }
        while feed.queue:
            item = feed.queue.popleft()
            try:
                result = await handlers[item.kind](table_id, item.data)
            except Exception as exc:
                if item.future is not None and not item.future.done():
                    item.future.set_exception(exc)
                elif isinstance(exc, discord.Forbidden):
                    log.warning("table %s: Discord refused %s: %s", table_id, item.kind, exc.text)
                elif not self._closing:
                    log.exception(
                        "table %s: updating its messages (%s) failed", table_id, item.kind
                    )
            else:
                if item.future is not None and not item.future.done():
                    item.future.set_result(result)
        if table_id in self._ended and self._feeds.get(table_id) is feed:
            del self._feeds[table_id]
            self._ended.discard(table_id)

    # ------------------------------------------------------------------ observer

    async def on_lobby_changed(self, table: TableInfo) -> None:
        self.enqueue(table.id, "lobby")

    async def on_action(self, result: ActionResult) -> None:
        self._last_by[result.table.id] = (result.seq + 1, result.by)
        if result.hand_result is None and result.outcome is None:
            self.enqueue(result.table.id, "game")
        self.kick(result.table)

    async def on_hand_ended(self, table: TableInfo, result: HandResult) -> None:
        self.enqueue(table.id, "hand_end", result)

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        self.enqueue(table.id, "match_end", outcome)

    async def on_table_cancelled(self, table: TableInfo) -> None:
        self.enqueue(table.id, "cancelled")

    async def on_reminder(self, table: TableInfo, seat: int, user_id: int, deadline: float) -> None:
        when = f"<t:{int(deadline)}:R>"

        def text(locale: str | None) -> str:
            return tr(
                locale,
                "<@{user}>, it is your turn! The bot plays for you {when}.",
                user=user_id,
                when=when,
            )

        self.enqueue(table.id, "say", text)

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

        for key in [k for k in self._hands if k == (table.id, user_id)]:
            del self._hands[key]
        self.enqueue(table.id, "say", text)
        self.kick(table)

    # ------------------------------------------------------------------ computer players

    def kick(self, info: TableInfo) -> None:
        """If a computer is to move, let it move after its human-looking delay."""
        if self._closing or info.status != "running":
            return
        seat = info.turn_seat
        if seat is None or seat.kind != "computer":
            return
        current = self._ai.get(info.id)
        if current is not None and current[0] == info.seq and not current[1].done():
            return
        if current is not None:
            current[1].cancel()
        delay = self.service.computer_delay
        if info.turn_started is not None:  # after a hand, the turn starts after the pause
            delay = max(delay, info.turn_started + delay - self.service.clock())
        delay = min(delay, self.service.hand_pause + self.service.computer_delay)
        task = asyncio.create_task(
            self._computer_move(info.id, info.seq, delay), name=f"table-{info.id}-computer"
        )
        self._ai[info.id] = (info.seq, task)

    async def _computer_move(self, table_id: int, seq: int, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            info = await self.service.get(table_id)
            if info.seq != seq or info.status != "running":
                return  # someone (the service's timer) moved meanwhile
            await self.service.play_computer(table_id)
        except ServiceError as exc:
            log.debug("table %s: computer move skipped: %s", table_id, exc)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: computer move failed", table_id)
        finally:
            current = self._ai.get(table_id)
            if current is not None and current[0] == seq:
                del self._ai[table_id]

    # ------------------------------------------------------------------ challenges

    def set_challenge(self, table_id: int, invited: Sequence[int]) -> None:
        """Remember that the table's lobby is a challenge to ``invited``."""
        self._challenges[table_id] = tuple(invited)

    async def _challenge_of(self, info: TableInfo) -> tuple[int, ...] | None:
        """The invited users if the table is a challenge (read from its message after a
        restart)."""
        if info.id in self._challenges:
            return self._challenges[info.id]
        if info.table.lobby_message_id is None or info.table.channel_id is None:
            return None
        channel = self.bot.get_partial_messageable(info.table.channel_id)
        try:
            message = await channel.fetch_message(info.table.lobby_message_id)
        except discord.HTTPException:
            return None
        for row in message.components:
            for child in getattr(row, "children", ()):
                parsed = parse(getattr(child, "custom_id", None) or "")
                if parsed and parsed[0] == "accept" and parsed[2]:
                    invited = tuple(int(u) for u in parsed[2][0].split(".") if u)
                    self._challenges[info.id] = invited
                    return invited
        return None

    # ------------------------------------------------------------------ lobby

    async def lobby_payload(
        self, info: TableInfo, locale: str | None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The lobby (or challenge) message for ``info``'s state."""
        invited = await self._challenge_of(info)
        if invited is not None:
            embed = ui.challenge_embed(locale, info, invited)
            if info.status != "lobby":
                embed = self._closed(embed, locale, info)
                return embed, None
            return embed, make_view(ui.challenge_buttons(locale, info, invited))
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
        if info.table.thread_id is not None and info.table.thread_id != info.table.channel_id:
            return f"<#{info.table.thread_id}>"
        return None

    async def _do_lobby(self, table_id: int, _: Any) -> None:
        info = await self.service.get(table_id)
        if info.table.lobby_message_id is None or info.table.channel_id is None:
            return
        embed, view = await self.lobby_payload(info, info.table.locale)
        channel = self.bot.get_partial_messageable(info.table.channel_id)
        message = channel.get_partial_message(info.table.lobby_message_id)
        try:
            await message.edit(embed=embed, view=view)
        except discord.NotFound:
            log.info("table %s: lobby message is gone", table_id)

    # ------------------------------------------------------------------ the game message

    async def open_game(self, table_id: int) -> bool:
        """After the start: make the table's thread (when allowed) and post the game message.

        Returns False when Discord refused to let the bot post it; the table is then cancelled.
        """
        result: bool = await self.call(table_id, "open")
        return result

    async def _do_open(self, table_id: int, _: Any) -> bool:
        info = await self.service.get(table_id)
        if info.status != "running":
            return False
        if self._game_message_id(info) is not None:
            return True
        channel_id = info.table.channel_id
        assert channel_id is not None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        if info.table.thread_id is None:
            if isinstance(channel, discord.Thread):
                info = await self.service.set_messages(table_id, thread_id=channel.id)
            elif isinstance(channel, discord.TextChannel):
                thread = await self._make_thread(channel, info)
                if thread is not None:
                    info = await self.service.set_messages(table_id, thread_id=thread.id)
        locale = info.table.locale
        humans = sorted({s.user_id for s in info.seats if s and s.user_id and s.kind == "human"})
        content = tr(
            locale,
            "{players}: the match begins! Press **My tiles** to see your tiles.",
            players=" ".join(f"<@{u}>" for u in humans),
        )
        try:
            await self._post_game(info, content=content)
        except discord.Forbidden as exc:
            log.info("table %s: may not post the game message: %s", table_id, exc.text)
            await self.service.cancel(table_id, info.host_id, force=True)
            return False
        self.enqueue(table_id, "lobby")
        self.kick(await self.service.get(table_id))
        return True

    async def _make_thread(
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
            log.warning("table %s: thread not created (%s); playing in the channel", info.id, exc)
        return None

    def _place(self, info: TableInfo) -> discord.PartialMessageable:
        place = info.table.thread_id or info.table.channel_id
        assert place is not None
        return self.bot.get_partial_messageable(place, guild_id=info.table.guild_id)

    async def _game_payload(
        self, info: TableInfo, *, finished_hand: bool = False
    ) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
        view = info.public_view()
        assert view is not None and view.hand is None
        locale = info.table.locale
        by = self._last_by.get(info.id)
        png = await pictures.table_png(
            view, texts.picture_names(info, locale), **picture_options(locale)
        )
        embed = ui.game_embed(
            locale,
            info,
            view,
            by=by[1] if by and by[0] == info.seq else None,
            picture=png is not None,
            finished_hand=finished_hand,
        )
        file = discord.File(io.BytesIO(png), filename=ui.TABLE_PICTURE) if png else None
        buttons = [] if finished_hand else ui.game_buttons(locale, info)
        return embed, file, (make_view(buttons) if buttons else None)

    async def _post_game(self, info: TableInfo, *, content: str | None = None) -> None:
        embed, file, view = await self._game_payload(info)
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": USERS_ONLY}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        try:
            message = await self._place(info).send(content, **kwargs)
        except discord.NotFound:
            if info.table.thread_id is None or info.table.thread_id == info.table.channel_id:
                raise
            log.info("table %s: its thread is gone; playing in the channel", info.id)
            info = await self._remember(info.id, thread_id=None) or info
            if file is not None:
                file.reset()
            message = await self._place(info).send(content, **kwargs)
        feed = self._feed(info.id)
        feed.message_id = message.id
        view_now = info.public_view()
        feed.hand = view_now.hand_number if view_now else None
        await self._remember(info.id, message_id=message.id)

    async def _remember(self, table_id: int, **where: int | None) -> TableInfo | None:
        """Record where the table's messages are (the match may have ended meanwhile)."""
        try:
            return await self.service.set_messages(table_id, **where)
        except TableFinished:
            return None

    def _game_message_id(self, info: TableInfo) -> int | None:
        feed = self._feeds.get(info.id)
        if feed is not None and feed.message_id is not None:
            return feed.message_id
        return info.table.message_id

    def _feed(self, table_id: int) -> _Feed:
        return self._feeds.setdefault(table_id, _Feed())

    async def _edit_game(self, info: TableInfo, *, finished_hand: bool = False) -> None:
        """Edit the game message to show ``info`` (post a new one if it was deleted)."""
        message_id = self._game_message_id(info)
        if message_id is None:
            if info.status == "running":
                await self._post_game(info)
            return
        embed, file, view = await self._game_payload(info, finished_hand=finished_hand)
        message = self._place(info).get_partial_message(message_id)
        try:
            await message.edit(embed=embed, attachments=[file] if file else [], view=view)
        except discord.NotFound:
            if info.status != "running":
                return
            log.info("table %s: game message %s is gone; posting a new one", info.id, message.id)
            await self._post_game(info)

    async def _do_game(self, table_id: int, _: Any) -> None:
        info = await self.service.get(table_id)
        if info.status == "lobby":
            return
        view = info.public_view()
        feed = self._feed(table_id)
        if (
            info.status == "running"
            and view is not None
            and feed.hand is not None
            and view.hand_number != feed.hand
        ):
            return  # a new hand: the hand_end work re-posts the message
        if feed.hand is None and view is not None:
            feed.hand = view.hand_number
        await self._edit_game(info)
        if info.status == "running":
            await self.refresh_hands(info)

    async def _do_hand_end(self, table_id: int, result: HandResult) -> None:
        info = await self.service.get(table_id)
        locale = info.table.locale
        feed = self._feed(table_id)
        old = self._game_message_id(info)
        if old is not None:
            message = self._place(info).get_partial_message(old)
            with contextlib.suppress(discord.NotFound):
                embed = discord.Embed(
                    title=tr(locale, "Hand {number} is over", number=result.hand_number),
                    colour=ui.GREY,
                )
                await message.edit(embed=embed, view=None)
        title, body = texts.hand_result_text(locale, info, result)
        view = info.public_view()
        scores: tuple[int, ...] = ()
        if view is not None:  # the scores right after this hand (later hands may be over too)
            done = [h for h in view.hand_results if h.hand_number <= result.hand_number]
            scores = tuple(sum(h.points[side] for h in done) for side in range(len(view.scores)))
        await self._place(info).send(
            embed=ui.hand_end_embed(locale, info, title, body, scores),
            allowed_mentions=NO_PINGS,
        )
        if info.status != "running":
            return
        if self.service.hand_pause > 0:
            await asyncio.sleep(self.service.hand_pause)
        info = await self.service.get(table_id)
        if info.status != "running":
            return
        await self._post_game(info)
        feed.hand = info.public_view().hand_number if info.public_view() else None
        await self.refresh_hands(info, everyone=True)

    async def _do_match_end(self, table_id: int, outcome: Outcome) -> None:
        info = await self.service.get(table_id)
        locale = info.table.locale
        if self._game_message_id(info) is not None:
            with contextlib.suppress(discord.NotFound):
                await self._edit_game(info)
        view = info.public_view()
        scores = view.scores if view is not None else ()
        humans = sorted({s.user_id for s in info.seats if s and s.user_id})
        await self._place(info).send(
            " ".join(f"<@{u}>" for u in humans) or None,
            embed=ui.match_end_embed(locale, info, outcome, scores),
            allowed_mentions=USERS_ONLY,
        )
        self._forget(table_id)

    async def _do_cancelled(self, table_id: int, _: Any) -> None:
        info = await self.service.get(table_id)
        locale = info.table.locale
        await self._do_lobby(table_id, None)
        message_id = self._game_message_id(info)
        if message_id is not None:
            message = self._place(info).get_partial_message(message_id)
            embed = discord.Embed(
                title=tr(locale, "Table {id} was cancelled", id=table_id), colour=ui.GREY
            )
            with contextlib.suppress(discord.NotFound):
                await message.edit(embed=embed, view=None)
        self._forget(table_id)

    async def _do_say(self, table_id: int, text: Callable[[str | None], str]) -> None:
        info = await self.service.get(table_id)
        if info.status != "running":
            return
        await self._place(info).send(text(info.table.locale), allowed_mentions=USERS_ONLY)

    def _forget(self, table_id: int) -> None:
        """Drop what is kept about a closed table (its feed goes once its queue is empty)."""
        self._ended.add(table_id)
        self._challenges.pop(table_id, None)
        self._last_by.pop(table_id, None)
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
        content, buttons = ui.hand_message(locale, info, views, choose=choose, notice=notice)
        files: list[discord.File] = []
        for view in views:
            png = await pictures.hand_png(view, **picture_options(locale))
            if png is not None:
                name = "hand.png" if len(views) == 1 else f"hand-seat{(view.seat or 0) + 1}.png"
                files.append(discord.File(io.BytesIO(png), filename=name))
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
