"""The boards of a week, a month or a season: their embeds, and their posts in a server's board
channel (a season's end announces its champions).

:class:`BoardPoster` runs the deadline of each server whose shard this process runs (the clock's
kind :data:`~bot.records.boards.BOARD_KIND`, key ``-guild id``): at each Monday 00:00 UTC it
posts the past week's board, at each 1st the past month's (and at a season's end its
champions: the top three of each family's season board, the server's and the global), in the
channel chosen in
``/domino server-settings``. A post carries the nonce ``b.<guild>.<period>`` and is marked in
the store after it; a stop between the two posts nothing twice (the next process posts with the
same nonce, and Discord answers with the message it already has).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import N_, number, tr
from bot.records.boards import BOARD_KIND, PeriodBoard, PeriodBoards, PeriodRow, post_nonce
from bot.records.periods import Period
from bot.records.rating import display_ordinal
from bot.records.record import GLOBAL
from bot.records.seasons import SEASON
from bot.records.seasons_service import CHAMPION, SeasonBoard, Seasons
from bot.records.seasons_store import SeasonLine
from bot.store import DeadlineRow
from cogs.colours import GOLD
from cogs.names import display_name, escape_name
from cogs.records.prizes import giving_problem, problem_text

__all__ = [
    "BOARD_KIND",
    "BoardPoster",
    "Crowned",
    "can_post",
    "crowned_text",
    "period_embed",
    "season_embed",
    "season_end_embed",
]

log = logging.getLogger(__name__)

TIES = N_(
    "Ranked by wins, then by points difference (points won minus points lost); players equal "
    "on both share a place."
)


def _span(period: Period) -> str:
    return f"<t:{int(period.start)}:D> – <t:{int(period.end) - 1}:D>"


def _footer(locale: str | None, board: PeriodBoard | SeasonBoard) -> str:
    """"Page 1 of 3 · 24 players · you: #4"."""
    footer = tr(
        locale,
        "Page {page} of {pages} · {total} players",
        page=board.page + 1,
        pages=board.pages,
        total=board.total,
    )
    if board.viewer is not None:
        footer += " · " + tr(locale, "you: #{place}", place=board.viewer.place)
    return footer


def period_embed(
    locale: str | None, board: PeriodBoard, what: str, *, past: bool = False
) -> discord.Embed:
    """The embed of a week's or month's board of the games ``what`` (``past``: the post of one
    that ended)."""
    where = tr(locale, "this server") if board.scope != GLOBAL else tr(locale, "everywhere")
    week = board.period.kind == "week"
    if past:
        title = (
            tr(locale, "Last week's best: {what}, {where}", what=what, where=where)
            if week
            else tr(locale, "Last month's best: {what}, {where}", what=what, where=where)
        )
    else:
        title = (
            tr(locale, "This week's best: {what}, {where}", what=what, where=where)
            if week
            else tr(locale, "This month's best: {what}, {where}", what=what, where=where)
        )
    return _board_embed(
        locale,
        board,
        title,
        lambda row: tr(
            locale,
            "{wins} W · {losses} L · {draws} D · {diff} points",
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
            diff=number(locale, row.diff, signed=True),
        ),
        empty=N_("Nobody played a match in this period."),
        note=TIES,
    )


def _name(locale: str | None, row: PeriodRow | SeasonLine) -> str:
    return escape_name(display_name(locale, row.name, "human") or "?")


def _board_embed(
    locale: str | None,
    board: PeriodBoard | SeasonBoard,
    title: str,
    figures: Callable[[Any], str],
    *,
    empty: str,
    note: str,
) -> discord.Embed:
    """A board's page: its dates, a line per row (place, name, ``figures``), ``empty`` if it
    has none, how it ranks (``note``) and the footer."""
    lines = [_span(board.period)]
    lines += [f"**{row.place}.** {_name(locale, row)} — {figures(row)}" for row in board.rows]
    if not board.rows:
        lines.append(tr(locale, empty))
    lines.append("-# " + tr(locale, note))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=GOLD)
    embed.set_footer(text=_footer(locale, board))
    return embed


SEASON_RANK = N_(
    "Ranked by the season's rating. Each season starts from your all-time rating pulled halfway "
    "back to the newcomer's, and less certain; the all-time ratings go on beside it."
)
MEDALS = ("🥇", "🥈", "🥉")


def season_embed(locale: str | None, board: SeasonBoard, what: str) -> discord.Embed:
    """The embed of a page of a season's board of the games ``what`` (a family)."""
    where = tr(locale, "this server") if board.scope != GLOBAL else tr(locale, "everywhere")
    title = tr(
        locale, "Season {number}: {what}, {where}", number=board.number, what=what, where=where
    )

    def figures(row: SeasonLine) -> str:
        wins = tr(
            locale,
            "{wins} W · {losses} L · {draws} D",
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
        )
        return f"**{number(locale, display_ordinal(row.rating))}** · {wins}"

    return _board_embed(
        locale,
        board,
        title,
        figures,
        empty=N_("Nobody played a rated match of these games this season."),
        note=SEASON_RANK,
    )


def _podium(locale: str | None, rows: tuple[SeasonLine, ...]) -> str:
    parts = []
    for row in rows:
        rating = number(locale, display_ordinal(row.rating))
        parts.append(f"{MEDALS[row.place - 1]} **{_name(locale, row)}** ({rating})")
    return " · ".join(parts)


def season_end_embed(
    locale: str | None,
    period: Period,
    number_: int,
    server: dict[str, tuple[SeasonLine, ...]],
    everywhere: dict[str, tuple[SeasonLine, ...]],
    name_of: Callable[[str | None, str], str],
) -> discord.Embed:
    """The announcement of a season's end: the top three of each family's board, on this
    server and everywhere."""
    title = tr(locale, "Season {number} is over: the champions", number=number_)
    embed = discord.Embed(title=title, description=_span(period), colour=GOLD)
    for family in sorted(set(server) | set(everywhere)):
        lines = []
        if family in server:
            podium = _podium(locale, server[family])
            lines.append(tr(locale, "This server: {podium}", podium=podium))
        if family in everywhere:
            lines.append(
                tr(locale, "Everywhere: {podium}", podium=_podium(locale, everywhere[family]))
            )
        embed.add_field(name=name_of(locale, family), value="\n".join(lines)[:1024], inline=False)
    if not server and not everywhere:
        embed.description = "\n".join(
            [_span(period), tr(locale, "Nobody played a rated match this season.")]
        )
    embed.set_footer(
        text=tr(
            locale,
            "A new season has started: its ratings start from everyone's all-time rating, "
            "pulled halfway back.",
        )
    )
    return embed


@dataclass(frozen=True, slots=True)
class Crowned:
    """What became of a winners' role: why it could not be given ("" if it could), and to how
    many winners it was given."""

    role_id: int
    problem: str
    given: int


def crowned_text(locale: str | None, crowned: Crowned, given: str, **params: Any) -> str:
    """The line saying what became of the role; ``given`` (a message id taking ``{role}`` and
    ``params``) only when someone received it."""
    if crowned.problem:
        return problem_text(locale, crowned.problem, crowned.role_id)
    role = f"<@&{crowned.role_id}>"
    if not crowned.given:
        return tr(locale, "Nobody received {role}.", role=role)
    return tr(locale, given, role=role, **params)


async def crown_champions(
    bot: Any,
    seasons: Seasons,
    guild_id: int,
    winners: set[int],
    *,
    kind: str = CHAMPION,
    reason: str = "Season champions",
) -> Crowned | None:
    """Give the server's champions' role (or ``kind``'s: a tournament's winners') to
    ``winners`` and take it from those the bot gave it to before, if the role may still be
    given (:func:`cogs.records.prizes.giving_problem`); None without a role."""
    chosen = await seasons.champion_role(guild_id, kind)
    if chosen is None:
        return None
    problem = await giving_problem(bot.get_guild(guild_id), chosen.role_id, chosen.set_by)
    given = 0
    if not problem:
        before = await seasons.crowned(guild_id, kind)
        try:
            for user_id, give in [(u, False) for u in sorted(before - winners)] + [
                (u, True) for u in sorted(winners)
            ]:
                change = bot.http.add_role if give else bot.http.remove_role
                try:
                    await change(guild_id, user_id, chosen.role_id, reason=reason[:500])
                except discord.NotFound:  # he left the server
                    continue
                given += give
        except discord.Forbidden:
            problem = "refused"
        else:
            await seasons.crown(guild_id, winners, kind)
    if await seasons.role_problem(guild_id, problem, kind) and problem:
        log.warning("server %s: the %s role could not be given: %s", guild_id, kind, problem)
    return Crowned(chosen.role_id, problem, given)


def can_post(channel: Any, me: Any) -> bool:
    """Whether the bot may post a board in ``channel`` (view it, send, embed links)."""
    if channel is None or me is None or not hasattr(channel, "permissions_for"):
        return False
    perms = channel.permissions_for(me)
    return bool(perms.view_channel and perms.send_messages and perms.embed_links)


class BoardPoster:
    """Posts the past week's and month's boards, and the champions of a season that ended, in
    each server's board channel, once."""

    def __init__(
        self,
        bot: Any,
        boards: PeriodBoards,
        name_of: Callable[[str | None, str], str],
        seasons: Seasons | None = None,
    ) -> None:
        """``name_of(locale, bucket)`` names a board's games."""
        self.bot = bot
        self.boards = boards
        self.seasons = seasons or Seasons(boards.store, boards.seasons, clock=boards.clock)
        self.name_of = name_of
        self._timed: set[int] = set()  # servers whose deadline this process's clock holds
        self._task: asyncio.Task[None] | None = None

    @property
    def _service(self) -> Any:
        return getattr(self.bot, "service", None)

    def start(self) -> None:
        """Handle the board deadlines; time those of the servers this process runs."""
        service = self._service
        if service is None:
            return
        service.scheduler.handlers[BOARD_KIND] = self.on_deadline
        self._task = asyncio.create_task(self.load(), name="board-posts-load")

    async def close(self) -> None:
        service = self._service
        if service is not None:
            service.scheduler.handlers.pop(BOARD_KIND, None)
            for guild_id in self._timed:
                service.scheduler.clear(-guild_id, (BOARD_KIND,))
        self._timed.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def load(self) -> None:
        """Time the stored deadline of every server this process runs (after a start or a
        shard taken over); let go of the others."""
        service = self._service
        if service is None:
            return
        for guild_id in [g for g in self._timed if not service.owns(g)]:
            service.scheduler.clear(-guild_id, (BOARD_KIND,))
            self._timed.discard(guild_id)
        for chosen in await self.boards.channels():
            if service.owns(chosen.guild_id):
                self.time(chosen.guild_id, chosen.due_at)

    def time(self, guild_id: int, due_at: float) -> None:
        service = self._service
        if service is None or not service.owns(guild_id):
            return
        service.scheduler.set(DeadlineRow(-guild_id, BOARD_KIND, due_at, 0))
        self._timed.add(guild_id)

    def forget(self, guild_id: int) -> None:
        service = self._service
        if service is not None:
            service.scheduler.clear(-guild_id, (BOARD_KIND,))
        self._timed.discard(guild_id)

    async def on_deadline(self, row: DeadlineRow) -> None:
        """Post what is owed, then set the next deadline (a failure runs it again later)."""
        guild_id = -row.table_id
        chosen = await self.boards.channel(guild_id)
        service = self._service
        if chosen is None or service is None or not service.owns(guild_id):
            self._timed.discard(guild_id)
            return
        for period in await self.boards.owed(guild_id, chosen.due_at):
            await self.post(guild_id, chosen.channel_id, period)
        self.time(guild_id, await self.boards.reschedule(guild_id, chosen.due_at))

    async def post(self, guild_id: int, channel_id: int, period: Any) -> None:
        """Post one past board (nonce: once) and mark it."""
        guild = self.bot.get_guild(guild_id)
        locale = getattr(getattr(guild, "preferred_locale", None), "value", None)
        if period.kind == SEASON:
            await self.seasons.rank_ended()  # the finishes /domino stats shows from now on
            server = await self.seasons.podium(period, guild_id)
            embed = season_end_embed(
                locale,
                period,
                self.seasons.calendar.number_of(period),
                server,
                await self.seasons.podium(period, GLOBAL),
                self.name_of,
            )
            winners = {r.player_id for rows in server.values() for r in rows if r.place == 1}
            crowned = await crown_champions(self.bot, self.seasons, guild_id, winners)
            if crowned is not None:
                text = crowned_text(
                    locale, crowned, N_("The champions of this server get {role}.")
                )
                embed.add_field(name=tr(locale, "Champions' role"), value=text, inline=False)
        else:
            board = await self.boards.board(scope=guild_id, period=period)
            embed = period_embed(locale, board, self.name_of(locale, board.bucket), past=True)
        channel = self.bot.get_channel(channel_id)
        message_id = None
        try:
            if channel is None:
                channel = await self.bot.fetch_channel(channel_id)
            message = await channel.send(
                embed=embed,
                nonce=post_nonce(guild_id, period),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            message_id = message.id
        except (discord.Forbidden, discord.NotFound) as exc:
            # The channel went or the bot may not post there any more: this board is skipped.
            log.warning(
                "server %s: the %s board could not be posted: %s", guild_id, period.key, exc
            )
        await self.boards.mark_posted(guild_id, period, channel_id, message_id)
