"""The lobby message (or the challenge message) of a table, for each state: one container
of Discord's components v2 layout (what the table is, its seats, and its buttons while it is
open). Pure functions of a :class:`~bot.tables.service.TableInfo` (no Discord calls)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import joined, tr
from bot.tables.service import TableInfo
from cogs.colours import BLUE, GOLD, GREEN, GREY
from cogs.domino import texts
from cogs.domino.buttons import (
    AcceptButton,
    AddComputerSelect,
    CancelButton,
    DeclineButton,
    DominoButton,
    JoinButton,
    LeaveButton,
    StartButton,
)
from cogs.domino.game_message import action_rows, card

Style = discord.ButtonStyle
SELECT_TEXT = 100  # Discord's limit for a select option's label and description


def lobby_payload(info: TableInfo, locale: str | None) -> discord.ui.LayoutView:
    """The lobby (or challenge) message for ``info``'s state: its buttons while it is open."""
    lines: list[str] = []
    if info.is_challenge:
        lines.append(
            tr(
                locale,
                "{invited}: {host} challenges you to {variant}!",
                invited=" ".join(f"<@{u}>" for u in info.invited),
                host=f"<@{info.host_id}>",
                variant=texts.variant_name(locale, info.ruleset.id),
            )
        )
        title = tr(
            locale,
            "Challenge: {variant} · table {id}",
            variant=texts.variant_name(locale, info.ruleset.id),
            id=info.id,
        )
    else:
        title = tr(
            locale, "{variant} · table {id}",
            variant=texts.variant_name(locale, info.ruleset.id), id=info.id,
        )
    lines.append(f"**{title}**")
    colour, state = _state(locale, info)
    lines.append(state or texts.describe_options(locale, info))
    lines.append("")
    lines.append(seats_text(locale, info))
    if info.is_challenge:
        waiting = [u for u in info.invited if not info.is_seated(u)]
        accepted = [u for u in info.invited if info.is_seated(u)]
        if accepted:
            lines.append(tr(locale, "Accepted: {who}", who=" ".join(f"<@{u}>" for u in accepted)))
        if waiting and info.status == "lobby":
            lines.append(tr(locale, "Waiting for: {who}", who=" ".join(f"<@{u}>" for u in waiting)))
    items: list[discord.ui.Item[Any]] = []
    if info.status == "lobby":
        if info.expires_at is not None:
            lines.append(tr(locale, "Closes {when}.", when=f"<t:{int(info.expires_at)}:R>"))
        lines.append("-# " + _how(locale, info))
        items = list(action_rows(_buttons(locale, info)))
        if not info.is_challenge:
            items.append(discord.ui.ActionRow(add_computer_select(locale, info)))
    return card(colour, discord.ui.TextDisplay("\n".join(lines)), *items)


def _state(locale: str | None, info: TableInfo) -> tuple[discord.Colour, str | None]:
    """The colour of the table's state and, once it is no longer open, what became of it."""
    if info.status == "lobby":
        return BLUE, None
    if info.status == "cancelled":
        reason = info.table.closed_reason
        if reason == "expired" and info.is_challenge:
            text = tr(locale, "Nobody answered in time: this challenge has expired.")
        elif reason == "expired":
            text = tr(locale, "Nobody started the match in time: this table has closed.")
        elif reason == "declined":
            text = tr(locale, "This challenge was declined.")
        else:
            text = tr(locale, "This table was cancelled.")
        return GREY, text
    where = _where(info)
    view = info.public_view() if info.status == "finished" else None
    if view is not None and view.outcome is not None:
        result = texts.outcome_text(locale, info, view.outcome)
        if where:
            return GOLD, tr(
                locale, "The match is over. {result} It was played in {place}.",
                result=result, place=where,
            )
        return GOLD, tr(locale, "The match is over. {result}", result=result)
    if where:
        return GREEN, tr(locale, "The match is on in {place}.", place=where)
    return GREEN, tr(locale, "The match has started.")


def _how(locale: str | None, info: TableInfo) -> str:
    if info.is_challenge:
        return tr(
            locale,
            "The match starts when everyone invited has accepted; computer players fill "
            "the other seats.",
        )
    return tr(
        locale,
        "Join a seat. The host starts when the seats are full, or fills empty seats "
        "with computer players.",
    )


def _buttons(locale: str | None, info: TableInfo) -> list[DominoButton]:
    if info.is_challenge:
        return challenge_buttons(locale, info, info.invited)
    return lobby_buttons(locale, info)


def add_computer_select(locale: str | None, info: TableInfo) -> AddComputerSelect:
    """One menu for every computer level, each with what it does."""
    options = [
        discord.SelectOption(
            label=_fit(tr(locale, name)),
            value=level,
            description=_fit(tr(locale, texts.LEVEL_HINTS[level])),
        )
        for level, name in texts.LEVEL_NAMES.items()
    ]
    return AddComputerSelect(
        info.id, placeholder=tr(locale, "Add a computer player…"), options=options
    )


def _fit(text: str) -> str:
    return text if len(text) <= SELECT_TEXT else text[: SELECT_TEXT - 1] + "…"


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
        return tr(locale, "{name} · {level}", name=texts.seat_name(info, seat, locale),
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
        seats = joined(locale, [str(s + 1) for s in group])
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


def lobby_buttons(locale: str | None, info: TableInfo) -> list[DominoButton]:
    """Join, Leave, Start and Cancel (the computer levels are one menu below them)."""
    t = info.id
    return [
        JoinButton(t, label=tr(locale, "Join"), style=Style.success, row=0),
        LeaveButton(t, label=tr(locale, "Leave"), style=Style.secondary, row=0),
        StartButton(t, label=tr(locale, "Start"), style=Style.primary, row=0),
        CancelButton(t, label=tr(locale, "Cancel"), style=Style.danger, row=0),
    ]


def challenge_buttons(
    locale: str | None, info: TableInfo, invited: Sequence[int]
) -> list[DominoButton]:
    """Accept and Decline (the invited ids ride along in the custom id)."""
    ids = ".".join(str(u) for u in invited)
    return [
        AcceptButton(info.id, ids, label=tr(locale, "Accept"), style=Style.success),
        DeclineButton(info.id, ids, label=tr(locale, "Decline"), style=Style.danger),
    ]
