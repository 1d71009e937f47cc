"""The feed of a table across servers: one :class:`PlaceFeed` per place, each bringing that
server's thread and game message up to date with the store, with its own marks
(``table_places``).

The process that runs the table publishes to every place. A place feed is the table's
:class:`~cogs.domino.feed.Feed` looking through the place: the table's messages, thread and marks
it reads and writes are the place's (:class:`_PlaceService`), the turn ping is posted only in the
place its person plays from, and what concerns the people rather than a place (their private
hands, the match-end bookkeeping) is done once, by the first place. Posts carry the feed's
nonces, which Discord keeps per channel: each place's post is made once, also across a crash.

A place whose channel is gone, or where the bot may no longer post (its server removed the
bot), is dropped (:meth:`~bot.tables.places.TablePlaces.drop`); so is every place of a server
that left the pool or removed the bot, and of a channel deleted (the gateway's events): the
table goes on in the others, and a computer plays for the people no place reaches any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

import discord

from bot.i18n import tr
from bot.store import FeedRow
from bot.store.notices import Notices
from bot.store.places import PlaceRow
from bot.tables.core import UNSET
from bot.tables.places import ForwardedClicks, TablePlaces, TableWatch
from bot.tables.service import TableInfo
from bot.traffic import counted_as
from cogs.domino.feed import NO_PINGS, RETRYABLE, Carriers, Feed, nonce
from cogs.names import escape_name

__all__ = ["PlaceFeed", "PlacesFeeds"]

log = logging.getLogger(__name__)


class PlaceDropped(Exception):
    """The place was dropped while its feed worked (another process, a gateway event)."""


class _PlaceService:
    """The table service as one place sees it: the table's messages, thread and marks are the
    place's; everything else is the service's."""

    def __init__(self, service: Any, places: TablePlaces, row: PlaceRow) -> None:
        self._service = service
        self._places = places
        self.row = row

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    def shown(self, info: TableInfo) -> TableInfo:
        """``info`` as this place shows it: its server, channel, thread and game message;
        no lobby, and no web page (the pages show matches of one server)."""
        row = self.row
        table = dataclasses.replace(
            info.table,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            message_id=row.message_id,
            lobby_message_id=None,
            parent_id=None,
            private_thread=False,
            public_place=False,
        )
        return dataclasses.replace(info, table=table, mentionable=frozenset(row.people))

    async def get(self, table_id: int) -> TableInfo:
        return self.shown(await self._service.get(table_id))

    async def feed(self, table_id: int) -> FeedRow:
        row = self.row
        return FeedRow(
            table_id,
            shown_seq=row.shown_seq,
            game_hand=row.game_hand,
            hands_announced=row.hands_announced,
            match_announced=row.match_announced,
            ping_message_id=row.ping_message_id,
            ping_turn=row.ping_turn,
            ping_stage=row.ping_stage,
            takeovers_announced=row.takeovers_announced,
        )

    async def _store(self, row: PlaceRow) -> None:
        if not await self._places.save(row):
            raise PlaceDropped(f"table {row.table_id}: place {row.place} was dropped")
        self.row = row

    async def save_feed(self, feed: FeedRow) -> None:
        await self._store(
            dataclasses.replace(
                self.row,
                shown_seq=feed.shown_seq,
                game_hand=feed.game_hand,
                hands_announced=feed.hands_announced,
                match_announced=feed.match_announced,
                ping_message_id=feed.ping_message_id,
                ping_turn=feed.ping_turn,
                ping_stage=feed.ping_stage,
                takeovers_announced=feed.takeovers_announced,
            )
        )

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = UNSET,
        thread_id: int | None = UNSET,
        **_: Any,
    ) -> TableInfo:
        changes: dict[str, Any] = {}
        if message_id is not UNSET:
            changes["message_id"] = message_id
        if thread_id is not UNSET:
            changes["thread_id"] = thread_id
        if changes:
            await self._store(dataclasses.replace(self.row, **changes))
        return await self.get(table_id)


class _PlaceHost:
    """The presenter as one place's feed sees it: only the first place refreshes the private
    hands and tells the wrap-up where the match-end post is."""

    def __init__(self, presenter: Any, service: _PlaceService, first: bool) -> None:
        self._presenter = presenter
        self.service = service
        self.first = first

    @property
    def bot(self) -> Any:
        return self._presenter.bot

    @property
    def closing(self) -> bool:
        return bool(self._presenter.closing)

    @property
    def carriers(self) -> Carriers:
        return self._presenter.carriers  # type: ignore[no-any-return]

    async def make_thread(
        self, channel: discord.TextChannel, info: TableInfo
    ) -> discord.Thread | None:
        return await self._presenter.make_thread(channel, info)  # type: ignore[no-any-return]

    async def refresh_hands(self, info: TableInfo, *, everyone: bool = False) -> None:
        if self.first:
            await self._presenter.refresh_hands(info, everyone=everyone)

    def forget_hands(self, table_id: int) -> None:
        if self.first:
            self._presenter.forget_hands(table_id)

    def seen_at(self, table_id: int, user_id: int) -> int | None:
        return self._presenter.seen_at(table_id, user_id)  # type: ignore[no-any-return]

    async def match_end_layout(self, info: TableInfo, mentions: str) -> discord.ui.LayoutView:
        return await self._presenter.match_end_layout(info, mentions)  # type: ignore[no-any-return]

    async def match_end_posted(self, info: TableInfo, message_id: int | None) -> None:
        if self.first:
            await self._presenter.match_end_posted(info, message_id)

    async def converge_places(self, table_id: int) -> bool:
        raise AssertionError("a place's feed converges its own place")


class PlaceFeed(Feed):
    """The table's messages in one place (a server of a table across servers)."""

    def __init__(self, presenter: Any, places: TablePlaces, row: PlaceRow) -> None:
        self.view = _PlaceService(presenter.service, places, row)
        self.host = _PlaceHost(presenter, self.view, first=False)
        super().__init__(self.host, row.table_id)
        self.place = row.place

    def pooled(self, info: TableInfo) -> bool:
        return False  # (this is one place's feed)

    @property
    def place_number(self) -> int:  # type: ignore[override]
        return self.place

    def vacation_text(self, info: TableInfo, user_id: int, until: str) -> str:
        """He is mentioned where he plays from; elsewhere named by his global name (no
        mention of a person of another server)."""
        if user_id in self.view.row.people:
            return super().vacation_text(info, user_id, until)
        seats = [s for s in info.seats if s is not None and s.user_id == user_id]
        return tr(
            info.table.locale,
            "{name} is on vacation: this table's clock is paused until {until}.",
            name=escape_name(seats[0].name if seats else ""),
            until=until,
        )

    async def _wanted_ping(self, info: TableInfo) -> tuple[int, int, int] | None:
        """A person is pinged only in the place he plays from."""
        wanted = await super()._wanted_ping(info)
        if wanted is None or wanted[0] not in self.view.row.people:
            return None
        return wanted


class PlacesFeeds:
    """Every place's feed of the tables across servers this process publishes."""

    def __init__(self, presenter: Any) -> None:
        self.presenter = presenter
        self.places = TablePlaces(presenter.service)
        self.feeds: dict[tuple[int, int], PlaceFeed] = {}
        service = presenter.service
        self.notices = Notices(service.store)
        self.forwarded = ForwardedClicks(service, self.notices)
        self.watch = TableWatch(service, self._moved, self.notices)
        self._tasks: list[asyncio.Task[None]] = []

    def start(self, bot: Any) -> None:
        """Drop the places of a server that removed the bot, and of a channel deleted; apply
        the clicks other processes forward for the tables this one runs; redraw the hands
        kept here of the tables another process runs when they move."""
        bot.add_listener(self._on_guild_remove, "on_guild_remove")
        bot.add_listener(self._on_channel_delete, "on_guild_channel_delete")
        self.presenter.hands.kept = self.watch.watch
        self.presenter.service.core.answers = self.forwarded
        self._tasks = [
            asyncio.create_task(self.forwarded.run(), name="domino-forwarded-clicks"),
            asyncio.create_task(self.watch.run(), name="domino-watched-tables"),
        ]

    async def close(self) -> None:
        if self.presenter.service.core.answers is self.forwarded:
            self.presenter.service.core.answers = None
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.notices.close()

    async def _moved(self, table_id: int) -> bool:
        """A table another process runs moved: redraw the hands kept of it here (every one,
        saying the match is over, once it closed); whether some are still kept."""
        hands = self.presenter.hands
        if not hands.holds(table_id):
            return False
        info = await self.presenter.service.get(table_id)
        closed = info.status != "running"
        await hands.refresh(info, everyone=closed)
        if closed:
            hands.forget(table_id)
            return False
        return hands.holds(table_id)

    async def _on_guild_remove(self, guild: discord.Guild) -> None:
        await self.dropped(await self.places.drop_guild(guild.id, why="the bot was removed"))

    async def _on_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.dropped(await self.places.drop_channel(channel.id, why="channel deleted"))

    async def dropped(self, rows: list[PlaceRow]) -> None:
        """Places were dropped: forget their feeds here, and bring the others up to date."""
        for row in rows:
            self.feeds.pop((row.table_id, row.place), None)
            self.presenter.wake(row.table_id)

    async def converge(self, table_id: int) -> bool:
        """Bring every place of the table up to date once; True when the table is closed and
        everything about it was published everywhere. A Discord failure in one place does not
        hold the others back (it is raised after them: the table's feed tries again)."""
        rows = await self.places.of_table(table_id)
        info = await self.presenter.service.get(table_id)
        failed: BaseException | None = None
        closed = True
        kept: list[PlaceRow] = []
        for row in rows:
            feed = self._feed(row, first=not kept)
            try:
                await feed.converge()
            except PlaceDropped:
                self.feeds.pop((table_id, row.place), None)
                continue
            except (discord.NotFound, discord.Forbidden) as exc:
                # The channel is gone, or the bot may not post there any more.
                await self.places.drop(row, why=f"{exc.status} {exc.text}")
                self.feeds.pop((table_id, row.place), None)
                continue
            except RETRYABLE as exc:
                failed = failed or exc
                closed = False
            kept.append(feed.view.row)
            closed = closed and feed.closed
        if failed is None and info.status == "running":
            if not kept:  # no server shows the table any more: nobody could follow it
                await self.presenter.service.cancel(table_id, info.host_id, force=True)
                return False
            failed = await self._unreachable(info, kept)
        if failed is not None:
            raise failed
        if closed and info.status in ("finished", "cancelled"):
            for key in [k for k in self.feeds if k[0] == table_id]:
                del self.feeds[key]
            await self.places.published(table_id)
            table_feed = await self.presenter.service.feed(table_id)
            if not table_feed.match_announced:  # (a start wakes it no more)
                await self.presenter.service.save_feed(
                    dataclasses.replace(table_feed, match_announced=True)
                )
        return closed

    def _feed(self, row: PlaceRow, *, first: bool) -> PlaceFeed:
        feed = self.feeds.get((row.table_id, row.place))
        if feed is None:
            feed = self.feeds[(row.table_id, row.place)] = PlaceFeed(
                self.presenter, self.places, row
            )
        feed.view.row = row
        feed.host.first = first
        return feed

    @counted_as("post")
    async def _unreachable(self, info: TableInfo, rows: list[PlaceRow]) -> BaseException | None:
        """The people no place reaches any more: each place still shown is told once (a
        nonce per person), then a computer plays for them; a failure to tell, returned, is
        tried again by the next round."""
        gone = await self.places.unreachable(info, rows)
        if not gone:
            return None
        for row in rows:
            feed = self._feed(row, first=row is rows[0])
            shown = feed.view.shown(info)
            for user_id in gone:
                seats = [s for s in shown.seats if s is not None and s.user_id == user_id]
                seat = seats[0].seat if seats else 0
                text = tr(
                    shown.table.locale,
                    "{name} can no longer be reached from their server: a computer plays for "
                    "them for the rest of the match.",
                    name=escape_name(seats[0].name if seats else ""),
                )
                try:
                    await feed._send(
                        shown, text, allowed_mentions=NO_PINGS, nonce=nonce("l", info.id, seat)
                    )
                except PlaceDropped:
                    break  # (meanwhile, by a gateway event or another process)
                except (discord.NotFound, discord.Forbidden) as exc:
                    await self.places.drop(row, why=f"{exc.status} {exc.text}")
                    break
                except RETRYABLE as exc:
                    return exc
        for user_id in gone:
            await self.presenter.service.take_over(info.id, user_id)
        return None
