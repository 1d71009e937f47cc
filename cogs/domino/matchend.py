"""The Discord side of a match's end: rating changes, the Rematch button and (where people sat
and reviews are on) the Review button on the match-end post, the rematch itself, and the
wrap-up (offer closed, thread archived) at its deadline."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import LimitReached
from bot.i18n import N_, number, tr
from bot.records.match_end import (
    ARCHIVE_KIND,
    RECORD_WAIT,
    MatchEnd,
    RatingChange,
    RematchLimit,
    humans,
)
from bot.store import DeadlineRow
from bot.tables import practice
from bot.tables.service import TableInfo, TableService
from bot.web import links
from cogs.domino import game_message, texts
from cogs.domino.buttons import REVIEW_COG, AchievementsButton, RematchButton, ReviewButton
from cogs.records.achievements import earned_summary, shown_at_match_end
from cogs.records.said_of import placed
from cogs.web_links import web_button, web_url

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()

# A person's limit that keeps the rematch from starting, said to another person of the table.
THEIR_LIMIT = {
    "Please wait {seconds} s before you open another table.": N_(
        "<@{user}> opened a table a moment ago: the rematch can start in {seconds} s."
    ),
    "You are already at {limit} tables waiting for players: start or leave one first.": N_(
        "<@{user}> is already at {limit} tables waiting for players: the rematch can start "
        "once one of them starts or closes."
    ),
    "You are already playing {limit} matches: finish one first.": N_(
        "<@{user}> is already playing {limit} matches: the rematch can start once one of "
        "them ends."
    ),
}


class GameNotPosted(Exception):
    """Discord would not let the bot post the rematch's game: the new table was cancelled."""


def rating_line(locale: str | None, change: RatingChange) -> str:
    """``<@user>: +23 → 1,487``; in a match of more than two sides, with the place the change
    follows (``placed 2nd of 3``)."""
    said = {
        "user": change.user_id,
        "change": number(locale, change.delta, signed=True),
        "rating": number(locale, change.after),
    }
    if change.place is not None:
        place = placed(locale, change.place, change.sides)
        return tr(locale, "<@{user}>: {change} → {rating}, {place}", place=place, **said)
    return tr(locale, "<@{user}>: {change} → {rating}", **said)


def rematch_button(locale: str | None, table_id: int) -> RematchButton:
    return RematchButton(table_id, label=tr(locale, "Rematch"), style=discord.ButtonStyle.success)


class Wrapup:
    """Decorates the match-end post, runs rematches and the wrap-up deadline."""

    def __init__(self, bot: Any, service: TableService, presenter: Any) -> None:
        self.bot = bot
        self.service = service
        self.presenter = presenter
        self.core = MatchEnd(service)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Handle the wrap-up deadlines; reload those a restart left in the store."""
        self.service.scheduler.handlers[ARCHIVE_KIND] = self.on_deadline
        self._task = asyncio.create_task(self.core.resume(), name="domino-wrapup-resume")

    async def close(self) -> None:
        self.service.scheduler.handlers.pop(ARCHIVE_KIND, None)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # -- the match-end post --------------------------------------------------------------------

    async def layout(
        self,
        info: TableInfo,
        *,
        mentions: str = "",
        offer: str | None = None,
        open_offer: bool = True,
        wait: bool = True,
    ) -> discord.ui.LayoutView:
        """The match-end post: the result, the rating changes and, if people sat, the rematch
        offer (``offer``: what it says now; its button while ``open_offer``)."""
        locale = info.table.locale
        view = info.public_view()
        assert view is not None and view.outcome is not None
        recording = wait and self.bot.get_cog("Records") is not None  # else nobody rates it
        changes = await self.core.rating_changes(info.id, wait=RECORD_WAIT if recording else 0.0)
        # One line on the post; who earned which, and why, privately on demand.
        summary = earned_summary(locale, await shown_at_match_end(self.service.store, info.id))
        page = None
        if info.table.public_place:  # the pages show no other match
            page = await web_url(
                self.bot, self.service.store, info.table.guild_id, links.match_path(info.id)
            )
        rematch: tuple[str, RematchButton | None] | None = None
        # An event's table, a daily deal's or one across servers: no rematch.
        if humans(info) and not {"tournament", "daily", "pool"} & set(info.table.options):
            if offer is None:
                offer = tr(
                    locale,
                    "Rematch: same seats, same options, once everyone accepts (open {minutes} "
                    "min).",
                    minutes=round(self.core.archive_after / 60),
                )
            rematch = (offer, rematch_button(locale, info.id) if open_offer else None)
        review = None
        if humans(info) and self.bot.get_cog(REVIEW_COG) is not None:
            review = ReviewButton(info.id, label=tr(locale, "Review"))
        return game_message.match_end_layout(
            locale,
            info,
            view.outcome,
            view.scores,
            mentions=mentions,
            ratings=[texts.unmention(info, rating_line(locale, c), locale) for c in changes],
            rematch=rematch,
            link=None if page is None else web_button(locale, page),
            review=review,
            achievements=[summary] if summary else [],
            details=AchievementsButton(info.id, label=tr(locale, "Details")) if summary else None,
        )

    async def _show_offer(
        self, edit: Callable[..., Awaitable[Any]], table_id: int, offer: str, *, open_offer: bool
    ) -> None:
        """Say ``offer`` on the match-end post (the rest of it as it was) through ``edit``."""
        info = await self.service.get(table_id)
        layout = await self.layout(info, offer=offer, open_offer=open_offer, wait=False)
        await edit(view=layout, allowed_mentions=NO_PINGS)

    async def posted(self, info: TableInfo, message_id: int | None) -> None:
        await self.core.offer(info, message_id)

    # -- a click on Rematch ---------------------------------------------------------------------

    async def accept(
        self,
        interaction: Interaction,
        table_id: int,
        *,
        check: Callable[[TableInfo], Awaitable[None]] | None = None,
    ) -> None:
        """The clicker accepts; the last acceptance starts the rematch where the match was,
        once ``check`` (the server's settings for opening a table) lets it.

        If the rematch cannot start (the server's settings, a person's limit, or Discord will
        not let the bot post its game) the offer stays open with everyone's acceptance: a
        click tries again."""

        async def start(old: TableInfo) -> TableInfo:
            if check is not None:
                await check(old)
            place = old.table.thread_id or old.table.channel_id
            practising = await practice.is_practice(self.service, old.id)
            new = await self.core.open_rematch(old, place)
            if practising:
                await practice.mark(self.service, new.id)
            if not await self.presenter.open_game(new.id):
                raise GameNotPosted(new.id)
            return new

        clicker = interaction.user.id
        edit = interaction.edit_original_response
        try:
            vote = await self.core.accept(table_id, clicker, start)
        except RematchLimit as exc:
            theirs = THEIR_LIMIT.get(exc.error.template)  # None: the server's, nobody's own
            if exc.user_id == clicker or theirs is None:
                raise exc.error from exc
            raise LimitReached(theirs, user=exc.user_id, **exc.error.params) from exc
        except GameNotPosted:
            locale = (await self.service.get(table_id)).table.locale
            content = texts.permission_text(locale) + "\n" + tr(locale, "The table was cancelled.")
            await self._show_offer(edit, table_id, content, open_offer=True)
            return
        old = await self.service.get(table_id)
        locale = old.table.locale
        accepted = sorted(vote.offer.accepted)
        if vote.started is None:
            content = tr(
                locale,
                "Rematch? Accepted: {accepted}. Waiting for {waiting}.",
                accepted=", ".join(f"<@{u}>" for u in accepted),
                waiting=", ".join(f"<@{u}>" for u in vote.waiting),
            )
            await self._show_offer(edit, table_id, content, open_offer=True)
            return
        content = tr(locale, "Rematch accepted by everyone: table {id}.", id=vote.started.id)
        await self._show_offer(edit, table_id, content, open_offer=False)

    # -- the wrap-up deadline ------------------------------------------------------------------

    async def on_deadline(self, deadline: DeadlineRow) -> None:
        """Close the rematch offer (its button goes) and archive the table's own thread."""
        offer = await self.core.close(deadline.table_id)
        info = await self.service.get(deadline.table_id)
        place = info.table.thread_id or info.table.channel_id
        if place is None:
            return
        where = self.bot.get_partial_messageable(place, guild_id=info.table.guild_id)
        if offer is not None and not offer.closed and offer.message_id is not None:
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await self._show_offer(
                    where.get_partial_message(offer.message_id).edit,
                    info.id,
                    tr(info.table.locale, "The rematch offer has closed."),
                    open_offer=False,
                )
        await self._archive(info, place)

    async def _archive(self, info: TableInfo, place: int) -> None:
        """Archive the thread the match was played in, if the bot made it and nothing else
        runs there now."""
        if self.service.place_busy(place):
            return
        channel = self.bot.get_channel(place)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(place)
            except discord.HTTPException:
                return
        me = self.bot.user
        if not isinstance(channel, discord.Thread) or me is None or channel.owner_id != me.id:
            return
        try:
            await channel.edit(archived=True)
        except discord.HTTPException as exc:
            log.info("table %s: thread %s not archived: %s", info.id, place, exc)

