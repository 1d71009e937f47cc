"""The lobby message (or the challenge message) of a table, for each state: its embed and
its buttons. Pure functions of a :class:`~bot.tables.service.TableInfo` (no Discord calls)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import tr
from bot.tables.service import TableInfo
from cogs.colours import BLUE, GREEN, GREY
from cogs.domino import texts
from cogs.domino.buttons import (
    AcceptButton,
    AddComputerButton,
    CancelButton,
    DeclineButton,
    DominoButton,
    JoinButton,
    LeaveButton,
    StartButton,
    make_view,
)

Style = discord.ButtonStyle


def lobby_payload(
    info: TableInfo, locale: str | None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The lobby (or challenge) message for ``info``'s state: buttons while it is open."""
    if info.is_challenge:
        embed = challenge_embed(locale, info, info.invited)
        if info.status != "lobby":
            closed = closed_lobby_embed(locale, info, _where(info))
            embed.description = closed.description
            embed.colour = closed.colour
            embed.set_footer(text=None)
            return embed, None
        return embed, make_view(challenge_buttons(locale, info, info.invited))
    if info.status != "lobby":
        return closed_lobby_embed(locale, info, _where(info)), None
    return lobby_embed(locale, info), make_view(lobby_buttons(locale, info))


def _where(info: TableInfo) -> str | None:
    """A mention of the thread the match went to, if it has one of its own."""
    thread = info.table.thread_id
    if thread and thread != info.table.channel_id:
        return f"<#{thread}>"
    return None


def _seat_row_text(locale: str | None, info: TableInfo, seat: int) -> str:
    row = info.seats[seat]
    if row is None:
        return tr(locale, "*empty*")
    if row.kind == "computer":
        level = texts.LEVEL_NAMES.get(row.ai_level or "", row.ai_level or "")
        return tr(locale, "{name} (computer, {level})", name=texts.seat_name(info, seat, locale),
                  level=tr(locale, level))
    if row.user_id is not None:
        return f"<@{row.user_id}>"
    return texts.seat_name(info, seat, locale)


def seats_text(locale: str | None, info: TableInfo) -> str:
    """One line per seat (or per team in seven-seven), with the team where there are teams."""
    ruleset = info.ruleset
    lines: list[str] = []
    for group in info.groups:
        who = _seat_row_text(locale, info, group[0])
        seats = " & ".join(str(s + 1) for s in group)
        if len(group) > 1:
            lines.append(
                tr(
                    locale,
                    "Team {team} (seats {seats}): {who}",
                    team=ruleset.side_of(group[0]) + 1,
                    seats=seats,
                    who=who,
                )
            )
        elif ruleset.teams:
            lines.append(
                tr(
                    locale,
                    "Seat {seat} · team {team}: {who}",
                    seat=seats,
                    team=ruleset.side_of(group[0]) + 1,
                    who=who,
                )
            )
        else:
            lines.append(tr(locale, "Seat {seat}: {who}", seat=seats, who=who))
    return "\n".join(lines)


def lobby_embed(locale: str | None, info: TableInfo) -> discord.Embed:
    """The lobby: variant, options, seats, and what happens next."""
    name = texts.variant_name(locale, info.ruleset.id)
    embed = discord.Embed(
        title=tr(locale, "{variant} · table {id}", variant=name, id=info.id),
        description=texts.describe_options(locale, info),
        colour=BLUE,
    )
    embed.add_field(name=tr(locale, "Seats"), value=seats_text(locale, info), inline=False)
    if info.status == "lobby" and info.expires_at is not None:
        embed.add_field(
            name=tr(locale, "Closes"), value=f"<t:{int(info.expires_at)}:R>", inline=False
        )
    if info.status == "lobby":
        embed.add_field(
            name=tr(locale, "Computer players"), value=texts.level_lines(locale), inline=False
        )
    if info.status == "lobby":
        embed.set_footer(
            text=tr(
                locale,
                "Join a seat. The host starts when the seats are full, or fills empty seats "
                "with computer players.",
            )
        )
    return embed


def lobby_buttons(locale: str | None, info: TableInfo) -> list[DominoButton]:
    """Join, Leave, Start, Cancel, and one Add computer button per level."""
    t = info.id
    buttons = [
        JoinButton(t, label=tr(locale, "Join"), style=Style.success, row=0),
        LeaveButton(t, label=tr(locale, "Leave"), style=Style.secondary, row=0),
        StartButton(t, label=tr(locale, "Start"), style=Style.primary, row=0),
        CancelButton(t, label=tr(locale, "Cancel"), style=Style.danger, row=0),
    ]
    for level, text in texts.LEVEL_NAMES.items():
        buttons.append(
            AddComputerButton(
                t,
                level,
                label=tr(locale, "Add computer: {level}", level=tr(locale, text)),
                style=Style.secondary,
                row=1,
            )
        )
    return buttons


def closed_lobby_embed(
    locale: str | None, info: TableInfo, where: str | None = None
) -> discord.Embed:
    """The lobby once the match started (``where``: a mention of its place) or was cancelled."""
    embed = lobby_embed(locale, info)
    embed.set_footer(text=None)
    if info.status == "cancelled":
        embed.colour = GREY
        reason = info.table.closed_reason
        if reason == "expired" and info.is_challenge:
            embed.description = tr(locale, "Nobody answered in time: this challenge has expired.")
        elif reason == "expired":
            embed.description = tr(
                locale, "Nobody started the match in time: this table has closed."
            )
        elif reason == "declined":
            embed.description = tr(locale, "This challenge was declined.")
        else:
            embed.description = tr(locale, "This table was cancelled.")
    elif where:
        embed.colour = GREEN
        embed.description = tr(locale, "The match is on in {place}.", place=where)
    else:
        embed.colour = GREEN
        embed.description = tr(locale, "The match has started.")
    return embed


def challenge_embed(locale: str | None, info: TableInfo, invited: Sequence[int]) -> discord.Embed:
    """A challenge: who is invited, who accepted."""
    embed = lobby_embed(locale, info)
    embed.title = tr(
        locale,
        "Challenge: {variant} · table {id}",
        variant=texts.variant_name(locale, info.ruleset.id),
        id=info.id,
    )
    waiting = [u for u in invited if not info.is_seated(u)]
    accepted = [u for u in invited if info.is_seated(u)]
    if accepted:
        embed.add_field(name=tr(locale, "Accepted"), value=" ".join(f"<@{u}>" for u in accepted))
    if waiting:
        embed.add_field(name=tr(locale, "Waiting for"), value=" ".join(f"<@{u}>" for u in waiting))
    if info.status == "lobby":
        embed.set_footer(
            text=tr(
                locale,
                "The match starts when everyone invited has accepted; computer players fill "
                "the other seats.",
            )
        )
    return embed


def challenge_buttons(
    locale: str | None, info: TableInfo, invited: Sequence[int]
) -> list[DominoButton]:
    """Accept and Decline (the invited ids ride along in the custom id)."""
    ids = ".".join(str(u) for u in invited)
    return [
        AcceptButton(info.id, ids, label=tr(locale, "Accept"), style=Style.success),
        DeclineButton(info.id, ids, label=tr(locale, "Decline"), style=Style.danger),
    ]
