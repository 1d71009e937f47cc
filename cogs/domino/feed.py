"""One feed per table: brings the table's public Discord messages up to date with the store.

The feed remembers nothing that can go stale: each round it reads the table from the service
and the marks of what was published (``feeds`` in the store), does the Discord calls that close
the gap, and moves the marks after each call. In order, every hand that ended gets its final
position and its result drawn on its game message exactly once (or its result posted with the
picture, when that hand had no game message to show them), the
match end is posted exactly once, and the running hand's game message shows the latest state
(a burst of moves becomes one edit); each take-over of a person's seats by a computer is
announced once. Posts carry a nonce, so a post whose mark a crash lost is
not posted twice. A failed Discord call is retried with backoff; a deleted message is posted
again with working buttons.

The bot token's requests count against Discord's global limit: a message's redraw goes through
the interaction of a click on that message when one can carry it (:class:`Carriers`), and the
game message waits while computers reply to a person or a player draws (:func:`_held`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import aiohttp
import discord

from bot.errors import TableNotFound
from bot.i18n import tr, trn
from bot.store import DatabaseUnavailable, FeedRow
from bot.tables import practice
from bot.tables.places import POOL_OPTION
from bot.tables.service import TableInfo
from bot.traffic import counted_as
from cogs.colours import GREY
from cogs.domino import correspondence, game_message, texts
from cogs.domino.alt_text import table_alt_text
from cogs.domino.game_message import LOG_LINES, TABLE_PICTURE, Picture
from cogs.domino.lobby import lobby_payload
from cogs.domino.practice import practice_card
from cogs.web_links import watch_button
from domino import HandResult, View
from render.moves import last_moves

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 60.0
#: What can go wrong on the way to Discord and is worth trying again.
RETRYABLE = (
    discord.HTTPException,
    discord.RateLimited,
    aiohttp.ClientError,
    asyncio.TimeoutError,
    ConnectionError,
)


#: How long after a click its interaction's token is used (Discord: valid for 15 minutes).
CARRIER_LIFETIME = 14 * 60
#: The latest clicks kept per public message.
CARRIERS_PER_MESSAGE = 4
_UPDATES = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)


class Carriers:
    """Clicks on the bot's public messages whose interaction can edit that message for free.

    Discord: a component interaction answered with ``DEFERRED_UPDATE_MESSAGE`` (6) or
    ``UPDATE_MESSAGE`` (7) has the message the component is on as its original response, which
    ``PATCH /webhooks/{application}/{token}/messages/@original`` edits for 15 minutes; webhook
    endpoints are outside the bot token's global rate limit. A click answered with a new message
    (4 or 5, e.g. an ephemeral one) carries nothing.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._by_message: dict[int, list[tuple[float, discord.Interaction[Any]]]] = {}
        self._pruned = clock()

    async def seen(self, interaction: discord.Interaction[Any]) -> None:
        """Remember a click on a public message (the ``on_interaction`` listener)."""
        message = interaction.message
        if interaction.type is not discord.InteractionType.component or message is None:
            return
        if message.flags.ephemeral:
            return
        now = self.clock()
        if now - self._pruned > 60:  # (at most once a minute: a click stays cheap)
            self._pruned = now
            stale = [k for k, v in self._by_message.items() if now - v[-1][0] > CARRIER_LIFETIME]
            for key in stale:
                del self._by_message[key]
        clicks = self._by_message.setdefault(message.id, [])
        clicks.append((now, interaction))
        del clicks[:-CARRIERS_PER_MESSAGE]

    def carrier(self, message_id: int) -> discord.Interaction[Any] | None:
        """The newest click on ``message_id`` whose token can still edit it, if any."""
        now = self.clock()
        for at, interaction in reversed(self._by_message.get(message_id, ())):
            if now - at > CARRIER_LIFETIME:
                break
            if interaction.response.type in _UPDATES:
                return interaction
        return None

    def drop(self, message_id: int, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` can no longer edit ``message_id`` (its token was refused)."""
        clicks = self._by_message.get(message_id)
        if clicks:
            clicks[:] = [c for c in clicks if c[1] is not interaction]

    async def edit(self, message: discord.PartialMessage, **fields: Any) -> None:
        """Edit the public ``message`` through a click's interaction when one can carry it,
        else with the bot token (``discord.NotFound`` propagates when the message is gone)."""
        while (interaction := self.carrier(message.id)) is not None:
            try:
                await interaction.edit_original_response(**fields)
                return
            except discord.HTTPException as exc:
                if exc.status >= 500 or exc.status == 429:
                    raise
                log.info("message %s: click's token refused (%s)", message.id, _describe(exc))
                self.drop(message.id, interaction)
                for file in fields.get("attachments") or ():
                    if isinstance(file, discord.File):
                        file.reset()
        await message.edit(**fields)


class FeedHost(Protocol):
    """What a feed needs of the presenter that owns it."""

    bot: Any
    service: Any
    closing: bool
    carriers: Carriers

    async def make_thread(
        self, channel: discord.TextChannel, info: TableInfo
    ) -> discord.Thread | None: ...

    async def refresh_hands(self, info: TableInfo, *, everyone: bool = False) -> None: ...

    def forget_hands(self, table_id: int) -> None: ...

    def seen_at(self, table_id: int, user_id: int) -> int | None: ...

    async def match_end_layout(self, info: TableInfo, mentions: str) -> discord.ui.LayoutView: ...

    async def match_end_posted(self, info: TableInfo, message_id: int | None) -> None: ...

    async def converge_places(self, table_id: int) -> bool: ...


class ThreadLater(Exception):
    """Discord refused the table's thread for now (a rate limit): try again in ``retry_after``
    seconds; meanwhile the table plays in its channel."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"thread creation refused for {retry_after:.0f} s")
        self.retry_after = retry_after


def nonce(kind: str, table_id: int, *parts: int) -> str:
    """The nonce of a post (at most 25 characters): the same post after a crash is not doubled."""
    return ".".join([kind, str(table_id), *(str(p) for p in parts)])[:25]


class Feed:
    """The Discord side of one table; :meth:`wake` after any change, it converges by itself."""

    def __init__(self, presenter: FeedHost, table_id: int) -> None:
        self.presenter = presenter
        self.table_id = table_id
        self.failures = 0  # Discord calls failed in a row (for the backoff)
        self.closed = False  # the table is closed and everything about it was published
        self.checked = False  # the game message was seen to exist since this feed began
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # one round at a time
        self._practice: bool | None = None  # a practice table: its player is there, no pings
        self._thread_at = 0.0  # (service clock) the table's thread is not asked for before
        self._end_drawn = False  # the game message shows the match's end (drawn by this feed)

    @property
    def service(self) -> Any:
        return self.presenter.service

    @property
    def bot(self) -> Any:
        return self.presenter.bot

    # -- running -------------------------------------------------------------------------------

    def recheck(self) -> None:
        """A message of the table may be gone: look, and post it again if so."""
        self.checked = False
        self.wake()

    def wake(self) -> None:
        """Something changed: converge soon (a burst of wakes is one round)."""
        self._dirty.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}-feed")

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _run(self) -> None:
        while self._dirty.is_set() and not self.presenter.closing:
            self._dirty.clear()
            try:
                await self.converge()
                self.failures = 0
            except TableNotFound:
                log.info("table %s: gone; its feed stops", self.table_id)
                return
            except RETRYABLE as exc:
                self.failures += 1
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (self.failures - 1))
                delay *= 1 + random.random() / 4
                log.warning(
                    "table %s: Discord call failed (%s); retrying in %.1f s",
                    self.table_id,
                    _describe(exc),
                    delay,
                )
                self._dirty.set()
                await asyncio.sleep(delay)
            except Exception as exc:
                self.failures += 1
                outage = isinstance(exc, DatabaseUnavailable)  # logged once by the store
                log.log(
                    logging.DEBUG if outage else logging.ERROR,
                    "table %s: updating its messages failed",
                    self.table_id,
                    exc_info=not outage,
                )
                self._dirty.set()
                await asyncio.sleep(min(BACKOFF_MAX, BACKOFF_FIRST * 2**self.failures))

    async def sync(self) -> None:
        """Converge now and wait for it (errors propagate)."""
        await self.converge()

    # -- one round -----------------------------------------------------------------------------

    async def converge(self) -> None:
        """Close the gap between what Discord shows and what the store says, once."""
        async with self._lock:
            info = await self.service.get(self.table_id)
            if self.pooled(info):  # shown in several servers: each place has its own feed
                self.closed = await self.presenter.converge_places(self.table_id)
                return
            feed = await self.service.feed(self.table_id)
            feed = await self._lobby(info, feed)
            if info.status == "lobby":
                return
            if info.status == "cancelled":
                feed = await self._ping(info, feed)
                await self._cancelled(info, feed)
                return
            info = await self._place(info, feed)
            feed = await self._hands(info, feed)
            if info.status == "finished":
                feed = await self._ping(info, feed)
                feed = await self._takeovers(info, feed)
                await self._match_end(info, feed)
                return
            feed = await self._game(info, feed)
            feed = await self._ping(info, feed)
            await self._takeovers(info, feed)
            await self._vacations(info)

    def pooled(self, info: TableInfo) -> bool:
        """Whether the table is shown in several servers (``cogs/domino/places_feed.py``)."""
        return POOL_OPTION in info.table.options

    async def _save(self, feed: FeedRow) -> FeedRow:
        await self.service.save_feed(feed)
        return feed

    # -- the lobby message ---------------------------------------------------------------------

    @counted_as("lobby")
    async def _lobby(self, info: TableInfo, feed: FeedRow) -> FeedRow:
        if info.table.lobby_message_id is None or info.table.channel_id is None:
            return feed
        key = _lobby_key(info)
        if feed.lobby_shown == key:
            return feed
        layout = lobby_payload(info, info.table.locale)
        if self._practice is None:
            self._practice = await practice.is_practice(self.service, info.id)
        if self._practice:  # the practice card keeps saying so
            layout = practice_card(layout, info.table.locale)
        channel = self.bot.get_partial_messageable(
            info.table.channel_id, guild_id=info.table.guild_id
        )
        message = channel.get_partial_message(info.table.lobby_message_id)
        try:
            # (content and embed cleared: a lobby of an earlier version becomes the layout)
            await self.presenter.carriers.edit(
                message, content=None, embed=None, view=layout, allowed_mentions=NO_PINGS
            )
        except discord.NotFound:
            log.info("table %s: lobby message is gone", self.table_id)
        return await self._save(dataclasses.replace(feed, lobby_shown=key))

    @counted_as("game")
    async def _cancelled(self, info: TableInfo, feed: FeedRow) -> None:
        if feed.match_announced:
            self.closed = True
            return
        if info.table.message_id is not None and info.table.thread_id != 0:
            layout = game_message.notice_layout(
                GREY, tr(info.table.locale, "Table {id} was cancelled", id=info.id)
            )
            message = self._where(info).get_partial_message(info.table.message_id)
            with contextlib.suppress(discord.NotFound):
                await self.presenter.carriers.edit(
                    message, content=None, embed=None, attachments=[], view=layout
                )
        await self._save(dataclasses.replace(feed, match_announced=True))
        self.closed = True

    # -- the place: a thread of its own, or the channel ----------------------------------------

    @counted_as("thread")
    async def _place(self, info: TableInfo, feed: FeedRow) -> TableInfo:
        """Make the table's thread if it was started to have one and has none yet (while
        Discord refuses it for a while, the table plays in its channel; the game message moves
        into the thread once it exists)."""
        if info.table.thread_id != 0 or self.service.clock() < self._thread_at:
            return info
        channel_id = info.table.channel_id
        channel = self.bot.get_channel(channel_id) if channel_id is not None else None
        thread_id: int | None = None
        if isinstance(channel, discord.Thread):
            thread_id = channel.id
        elif isinstance(channel, discord.TextChannel):
            try:
                thread = await self.presenter.make_thread(channel, info)
            except ThreadLater as later:
                self._thread_at = self.service.clock() + later.retry_after
                asyncio.get_running_loop().call_later(later.retry_after, self.wake)
                log.info("table %s: %s; playing in the channel meanwhile", self.table_id, later)
                return info
            thread_id = thread.id if thread is not None else None
        if thread_id is not None and info.table.message_id is not None:
            return await self.service.set_messages(
                self.table_id, thread_id=thread_id, message_id=None
            )
        return await self.service.set_messages(self.table_id, thread_id=thread_id)

    def _where(self, info: TableInfo) -> discord.PartialMessageable:
        place = info.table.thread_id or info.table.channel_id
        assert place is not None
        return self.bot.get_partial_messageable(place, guild_id=info.table.guild_id)

    # -- hand results --------------------------------------------------------------------------

    @counted_as("post")
    async def _hands(self, info: TableInfo, feed: FeedRow) -> FeedRow:
        """Every hand that ended and was not announced: its final position and its result on
        its game message (the last edit of that hand's message, so nothing is posted for it),
        or, when no game message of that hand can show them, a result post with the picture
        (one picture per hand end)."""
        view = info.public_view()
        assert view is not None
        results = view.hand_results
        for result in results[feed.hands_announced :]:
            number = result.hand_number
            last = number == len(results) and info.status == "finished"
            if last:
                seq, final = info.seq, view
            else:
                seq, final = await self.service.hand_end_view(self.table_id, number)
            picture = await self._picture(info, final, seq)
            shown = False
            if feed.game_hand == number and info.table.message_id is not None:
                said = self._result_lines(info, result, final, last=last)
                if last:  # the match's end, drawn once: as the match-end round would draw it
                    shown = self._end_drawn = await self._edit_game(
                        info, final, picture, result=said
                    )
                else:
                    shown = await self._edit_game(
                        info, final, picture, finished_hand=True, seq=seq, result=said
                    )
            if not shown:
                await self._post_result(info, result, final, picture)
            feed = await self._save(dataclasses.replace(feed, hands_announced=number))
        return feed

    @staticmethod
    def _result_lines(info: TableInfo, result: HandResult, final: View, *, last: bool) -> list[str]:
        """What the game message says of its hand's result under its title (the last hand's
        under the match's outcome, with the hand's own title)."""
        locale = info.table.locale
        lines = game_message.hand_result_lines(locale, info, result, final.scores)
        if last:
            lines.insert(0, f"**{texts.hand_result_title(locale, info, result)}**")
        return lines

    async def _post_result(
        self, info: TableInfo, result: HandResult, final: View, picture: Picture | None
    ) -> None:
        locale = info.table.locale
        layout = game_message.hand_end_layout(locale, info, result, final.scores, picture)
        kwargs: dict[str, Any] = {"view": layout, "allowed_mentions": NO_PINGS}
        if picture is not None and picture.png is not None:
            kwargs["file"] = picture.file(f"hand-{result.hand_number}.png")
        await self._send(info, nonce=nonce("h", info.id, result.hand_number), **kwargs)

    # -- the match end -------------------------------------------------------------------------

    @counted_as("post")
    async def _match_end(self, info: TableInfo, feed: FeedRow) -> None:
        if feed.match_announced:
            self.closed = True
            return
        view = info.public_view()
        assert view is not None and view.outcome is not None
        drawn = self._end_drawn  # (by this process's hand round just before)
        if info.table.message_id is not None and feed.game_hand == view.hand_number and not drawn:
            # (a last hand that began and ended while the feed was behind has no message of its
            # own: the previous hand's message keeps that hand's final position, the last
            # hand's result post shows the last one; the match-end post is words only)
            said = (
                self._result_lines(info, view.hand_results[-1], view, last=True)
                if view.hand_results
                else []
            )
            await self._edit_game(
                info, view, await self._picture(info, view, info.seq), result=said
            )
        humans = sorted({s.user_id for s in info.seats if s and s.user_id})
        locale = info.table.locale
        layout = await self.presenter.match_end_layout(
            info, " ".join(texts.mention(info, u, locale) for u in humans)
        )
        ender = _ender(info, view)
        if self._practice is None:
            self._practice = await practice.is_practice(self.service, info.id)
        woken = [] if self._practice else [u for u in _here(info, humans) if u != ender]
        message = await self._send(
            info, view=layout, allowed_mentions=_only(woken), nonce=nonce("m", info.id)
        )
        await self.presenter.match_end_posted(info, getattr(message, "id", None))
        await self._save(dataclasses.replace(feed, match_announced=True))
        self.closed = True
        # Every seated player's private message says the match is over (none keeps waiting
        # for a turn that will not come).
        await self.presenter.refresh_hands(info, everyone=True)
        self.presenter.forget_hands(info.id)

    # -- the game message of the running hand --------------------------------------------------

    @counted_as("game")
    async def _game(self, info: TableInfo, feed: FeedRow) -> FeedRow:
        view = info.public_view()
        assert view is not None
        hand = view.hand_number
        if feed.game_hand != hand or info.table.message_id is None:
            if feed.game_hand is not None and feed.game_hand != hand and self._pausing(info, view):
                return feed  # the pause after a hand: the clock wakes the feed when it is over
            shown = info.seq  # moves made while posting are shown by the next round
            again = feed.game_hand == hand  # (the hand's message was posted before, and lost)
            if not await self._post_game(info, view, first=feed.game_hand is None, again=again):
                shown = -1  # Discord gave back the hand's message as a crash left it: redraw
            self.checked = True
            info = await self.service.get(self.table_id)
            feed = await self._save(dataclasses.replace(feed, game_hand=hand, shown_seq=shown))
            await self.presenter.refresh_hands(info, everyone=True)
            return feed
        if feed.shown_seq == info.seq and self.checked:
            return feed
        if self.checked and _held(info, view):
            await self.presenter.refresh_hands(info)
            return feed  # shown with the move that ends the run (the feed is woken by it)
        shown = info.seq
        picture = await self._picture(info, view, info.seq, running=True)
        if not await self._edit_game(info, view, picture):
            await self._post_game(info, view, first=False, again=True)
            info = await self.service.get(self.table_id)
        self.checked = True
        feed = await self._save(dataclasses.replace(feed, shown_seq=shown))
        await self.presenter.refresh_hands(info)
        return feed

    def _pausing(self, info: TableInfo, view: View) -> bool:
        started = any(e.kind != "start" for e in view.events)
        return (
            not started
            and info.turn_started is not None
            and self.service.clock() < info.turn_started
        )

    async def _post_game(self, info: TableInfo, view: View, *, first: bool, again: bool) -> bool:
        """Post a game message for the running hand, and remember it as the table's; False if
        Discord answered with the hand's first message posted before (the nonce of a hand's
        first message is the hand's: a post whose answer a crash lost is not doubled, even if
        the table moved meanwhile; ``again``: a later one, for a message that is gone)."""
        locale = info.table.locale
        greeting = None
        # (a later hand's first message names who is to play without notifying him: the idle
        # ping, a stored deadline, notifies whoever does not come)
        mentions = NO_PINGS
        if first:
            humans = sorted(
                {s.user_id for s in info.seats if s and s.user_id and s.kind == "human"}
            )
            mentions = discord.AllowedMentions(
                everyone=False,
                roles=False,
                users=[discord.Object(u) for u in _here(info, _woken(info, humans))],
            )
            greeting = tr(
                locale,
                "{players}: the match begins! Press **My tiles** to see your tiles.",
                players=" ".join(texts.mention(info, u, locale) for u in humans),
            )
        picture = await self._picture(info, view, info.seq, running=True)
        layout, file = await self._payload(info, view, picture, greeting=greeting)
        kwargs: dict[str, Any] = {"view": layout, "allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        parts = (view.hand_number, info.seq) if again else (view.hand_number,)
        message = await self._send(info, nonce=nonce("g", info.id, *parts), **kwargs)
        await self.service.set_messages(self.table_id, message_id=message.id)
        return _texts_of(message.components) == game_message.layout_texts(layout)

    async def _edit_game(
        self,
        info: TableInfo,
        view: View,
        picture: Picture,
        *,
        finished_hand: bool = False,
        seq: int | None = None,
        result: list[str] | None = None,
    ) -> bool:
        """Show ``view`` (the state after ``seq`` actions) on the game message (``result``: the
        lines of the hand's result, at its end); False if the message is gone."""
        assert info.table.message_id is not None
        layout, file = await self._payload(
            info, view, picture, finished_hand=finished_hand, seq=seq, result=result or ()
        )
        message = self._where(info).get_partial_message(info.table.message_id)
        try:
            # (content and embed cleared: a message of an earlier version becomes the layout)
            await self.presenter.carriers.edit(
                message, content=None, embed=None, attachments=[file] if file else [], view=layout
            )
        except discord.NotFound:
            log.info("table %s: game message %s is gone", info.id, info.table.message_id)
            return False
        return True

    async def _picture(
        self, info: TableInfo, view: View, seq: int, *, running: bool = False
    ) -> Picture:
        """The table picture of ``view`` (the state after ``seq`` actions) and its alt text;
        who timed out comes from the stored log. ``running``: for the running hand's message,
        which shows that hand even before its first move (the previous hand's final position
        stays on that hand's message)."""
        if running and view.outcome is not None:
            running = False
        if running:
            view = dataclasses.replace(view, hand_results=())
        history = await self.service.history(self.table_id)
        last = last_moves(view, history.timed_out(seq, view.hand_number))
        png = await game_message.table_png(info, view, last)
        names = texts.picture_names(info, info.table.locale)
        return Picture(png, table_alt_text(view, names, info.table.locale, last=last))

    async def _payload(
        self,
        info: TableInfo,
        view: View,
        picture: Picture,
        *,
        finished_hand: bool = False,
        seq: int | None = None,
        greeting: str | None = None,
        result: Sequence[str] = (),
    ) -> tuple[discord.ui.LayoutView, discord.File | None]:
        locale = info.table.locale
        history = await self.service.history(self.table_id)
        hand = view.previous.hand_number if finished_hand and view.previous else view.hand_number
        entries = history.of_hand(info.seq if seq is None else seq, hand, LOG_LINES)
        layout = game_message.game_layout(
            locale,
            info,
            view,
            log=[texts.entry_text(locale, info, e) for e in entries],
            picture=picture,
            finished_hand=finished_hand,
            greeting=greeting,
            result=result,
            watch=(
                await watch_button(
                    self.bot, self.service.store, locale, info.table.guild_id, info.id
                )
                if info.table.public_place
                else None
            ),
        )
        file = picture.file(TABLE_PICTURE) if picture.png is not None else None
        return layout, file

    async def _send(self, info: TableInfo, content: str | None = None, **kwargs: Any) -> Any:
        """Post in the table's place; if its thread is gone, play on in the channel."""
        try:
            return await self._where(info).send(content, **kwargs)
        except discord.NotFound:
            if info.table.thread_id is None or info.table.thread_id == info.table.channel_id:
                raise
            log.info("table %s: its thread is gone; playing in the channel", info.id)
            info = await self.service.set_messages(self.table_id, thread_id=None)
            file = kwargs.get("file")
            if file is not None:
                file.reset()
            return await self._where(info).send(content, **kwargs)

    # -- the turn ping ---------------------------------------------------------------------------

    @counted_as("ping")
    async def _ping(self, info: TableInfo, feed: FeedRow) -> FeedRow:
        """A person idle on his turn for the table's idle ping time is mentioned once, in one
        short message that goes once he has moved (or turned pings off)."""
        wanted = await self._wanted_ping(info)
        if (
            wanted is not None
            and feed.ping_message_id is not None
            and (feed.ping_turn, feed.ping_stage) == wanted[1:]
        ):
            return feed
        if feed.ping_message_id is not None:
            message = self._where(info).get_partial_message(feed.ping_message_id)
            try:
                await message.delete()
            except discord.NotFound:
                pass
            except RETRYABLE as exc:  # a ping is best effort: try again next round
                log.info("table %s: turn ping not deleted (%s)", info.id, _describe(exc))
                return feed
            feed = await self._save(dataclasses.replace(feed, ping_message_id=None))
        if wanted is None or (feed.ping_turn or -1, feed.ping_stage) >= wanted[1:]:
            return feed  # nothing to ask, or this ping was posted and someone removed it
        user, turn, stage = wanted
        deadline = info.deadline
        assert deadline is not None
        if info.correspondence:
            text = correspondence.turn_notice(info, user, stage)
            if await correspondence.by_dm(self, info, user, stage, turn):
                told = dataclasses.replace(feed, ping_turn=turn, ping_stage=stage)
                return await self._save(told)
        else:
            text = tr(
                info.table.locale,
                "<@{user}>, it is your turn! The bot plays for you {when}.",
                user=user,
                when=f"<t:{int(deadline)}:R>",
            )
        try:
            message = await self._send(
                info, text, allowed_mentions=USERS_ONLY, nonce=nonce("p", info.id, turn, stage)
            )
        except RETRYABLE as exc:  # best effort: the game message shows whose turn it is
            log.info("table %s: turn ping not posted (%s)", info.id, _describe(exc))
            return feed
        return await self._save(
            dataclasses.replace(feed, ping_message_id=message.id, ping_turn=turn, ping_stage=stage)
        )

    async def _wanted_ping(self, info: TableInfo) -> tuple[int, int, int] | None:
        """(user, the action count his turn began at, 1), or None: nobody is waiting for a
        ping (a practice table; pings off at this server or for him; he is not idle for the
        idle ping time yet, or opened his tiles during this turn; the bot moves for him in a
        moment)."""
        row = info.turn_seat
        view = info.public_view()
        if (
            info.status != "running"
            or row is None
            or row.kind != "human"
            or row.user_id is None
            or view is None
            or info.deadline is None
            or info.turn_started is None
            or info.ping_after is None
            or info.move_forced  # the bot makes his only possible move in a moment
        ):
            return None
        if self.service.clock() < info.turn_started + info.ping_after:
            return None  # not idle long enough (or the pause after a hand): the clock wakes us
        stage = correspondence.stage(info, self.service.clock())
        if self._practice is None:
            self._practice = await practice.is_practice(self.service, info.id)
        if self._practice:
            return None
        chosen = await self.service.player_settings(row.user_id)
        if not (chosen.turn_pings or (info.correspondence and chosen.turn_dms)):
            return None
        drew = 0  # the turn began before the draws of the player to move
        for event in reversed(view.events):
            if event.seat != view.turn or event.kind != "draw":
                break
            drew += 1
        turn = info.seq - drew
        seen = self.presenter.seen_at(info.id, row.user_id)
        if seen is not None and seen >= turn and stage == 1:
            return None  # he opened or pressed his tiles during this turn: he is at the table
        return row.user_id, turn, stage

    # -- take-overs -------------------------------------------------------------------------------

    @counted_as("post")
    async def _takeovers(self, info: TableInfo, feed: FeedRow) -> FeedRow:
        """Each take-over in the stored log (a person ran out of time too often; a computer
        plays his seats) announced once, in the order they happened."""
        history = await self.service.history(self.table_id)
        for seq, seat in history.takeovers:
            if seq < feed.takeovers_announced:
                continue
            row = info.seats[seat] if seat < len(info.seats) else None
            if row is not None and row.user_id is not None:
                text = trn(
                    info.table.locale,
                    "<@{user}> ran out of time: a computer plays for them for the rest of the "
                    "match.",
                    "<@{user}> ran out of time {count} times in a row: a computer plays for them "
                    "for the rest of the match.",
                    self.service.max_timeouts,
                    user=row.user_id,
                )
                text = texts.unmention(info, text, info.table.locale)
                await self._send(
                    info, text, allowed_mentions=USERS_ONLY, nonce=nonce("t", info.id, seq)
                )
            feed = await self._save(dataclasses.replace(feed, takeovers_announced=seq + 1))
        return feed

    # -- vacations ------------------------------------------------------------------------------

    place_number = 0  # this feed's place of the table (``vacation_notices.place``)

    def vacation_text(self, info: TableInfo, user_id: int, until: str) -> str:
        """The notice of a person's vacation here: he is mentioned (it notifies nobody)."""
        return tr(
            info.table.locale,
            "<@{user}> is on vacation: this table's clock is paused until {until}.",
            user=user_id,
            until=until,
        )

    @counted_as("post")
    async def _vacations(self, info: TableInfo) -> None:
        """Each vacation that paused the table told once here, from the store: posted with a
        nonce, then marked (one that ended meanwhile is marked without a post)."""
        for owed in await self.service.owed_notices(self.table_id, self.place_number):
            seats = [s.seat for s in info.seats if s is not None and s.user_id == owed.user_id]
            if seats and owed.ends_at > self.service.clock():
                text = self.vacation_text(info, owed.user_id, f"<t:{int(owed.ends_at)}:f>")
                await self._send(
                    info,
                    text,
                    allowed_mentions=NO_PINGS,
                    nonce=nonce("v", info.id, int(owed.started_at), seats[0]),
                )
            await self.service.notice_posted(owed)


def _held(info: TableInfo, view: View) -> bool:
    """Whether the game message waits for more moves before it shows the latest: computers
    reply to a person (their replies are shown together, with the log's lines, when the turn
    comes back to a person), or a player draws and is still to move (shown with what he does
    next). Never at a table where no person plays any more (nothing would end the wait)."""
    if info.status != "running" or view.outcome is not None or not view.events:
        return False
    turn = info.turn_seat
    if turn is None or not any(s is not None and s.kind == "human" for s in info.seats):
        return False
    last = view.events[-1]
    if last.kind == "draw" and last.seat == view.turn:
        return True
    mover = info.seats[last.seat] if last.seat is not None and last.seat < len(info.seats) else None
    return turn.kind == "computer" and mover is not None and mover.kind == "computer"


def _only(users: list[int]) -> discord.AllowedMentions:
    """Mentions that notify ``users`` alone (the others mentioned are only named)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users]
    )


def _ender(info: TableInfo, view: View) -> int | None:
    """The person whose own move or resignation ended the match (he is there: the match-end
    post names him without notifying him), if it was one."""
    outcome = view.outcome
    if outcome is not None and outcome.reason == "time":
        return None  # lost on time: he was not there, he is told
    seat = outcome.resigned_seat if outcome is not None else None
    if seat is None:
        moves = [e for e in view.events if e.seat is not None and e.kind != "start"]
        seat = moves[-1].seat if moves else None
    row = info.seats[seat] if seat is not None and seat < len(info.seats) else None
    return row.user_id if row is not None and row.kind == "human" else None


def _here(info: TableInfo, people: list[int]) -> list[int]:
    """Those of ``people`` the message may mention (a place of a table across servers: the
    people who play from its server)."""
    return [u for u in people if info.mentionable is None or u in info.mentionable]


def _woken(info: TableInfo, people: list[int]) -> list[int]:
    """Whom the match's first message notifies among the ``people`` it mentions: not the host
    who just pressed Start, and nobody at a table opened without a lobby (an event's board,
    whose people its own post in the thread notified; a daily deal, opened by its player)."""
    if info.table.lobby_message_id is None:
        return []
    if info.is_challenge:
        return people
    return [u for u in people if u != info.host_id]


def _lobby_key(info: TableInfo) -> str:
    """A digest of what the lobby message shows (no identifier kept): redraw when it changes."""
    seats = ",".join(f"{s.user_id or 0}:{s.kind}" if s else "-" for s in info.seats)
    place = info.table.thread_id if info.status != "lobby" else None
    shown = f"{info.status}|{info.table.closed_reason}|{seats}|{place}|{len(info.declined)}"
    return hashlib.blake2s(shown.encode(), digest_size=8).hexdigest()


def _texts_of(components: Any) -> list[str]:
    """What the text displays of a message's components say, in order (nested ones too)."""
    found: list[str] = []
    for component in components or ():
        if isinstance(component, discord.TextDisplay):
            found.append(component.content)
        found.extend(_texts_of(getattr(component, "children", None)))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            found.extend(_texts_of([accessory]))
    return found


def _describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.text or ''}".strip()
    return type(exc).__name__
