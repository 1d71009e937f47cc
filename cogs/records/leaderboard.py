"""The leaderboard screen: a page of a board and its buttons."""

from __future__ import annotations

import discord

from bot.i18n import N_, number, tr
from bot.records.periods import Period
from bot.records.record import GLOBAL
from bot.records.service import (
    LeaderboardPage,
)
from cogs.colours import GOLD
from cogs.records.buttons import LeaderboardButton, PeriodButton, RecordsButton
from cogs.records.words import _name, _variant_name

#: Who a rating board lists and what its "?" means (the web pages say the same).
MINIMUM_NOTE = N_(
    "Players are listed after {count} matches; a ? marks a provisional rating (still uncertain)."
)


def leaderboard_embed(locale: str | None, page: LeaderboardPage) -> discord.Embed:
    """The embed of one leaderboard page."""
    where = tr(locale, "this server") if page.scope != GLOBAL else tr(locale, "everywhere")
    what = _variant_name(locale, page.bucket)
    if page.by == "rating":
        title = tr(locale, "Ratings: {what}, {where}", what=what, where=where)
    else:
        title = tr(locale, "Most wins: {what}, {where}", what=what, where=where)
    lines = []
    for row in page.rows:
        name = _name(locale, row.name, row.kind)
        record = tr(
            locale,
            "{wins} W · {losses} L · {draws} D",
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
        )
        if page.by == "rating":
            rating = number(locale, row.rating) + ("?" if row.provisional else "")
            lines.append(f"**{row.place}.** {name} — **{rating}** · {record}")
        else:
            lines.append(f"**{row.place}.** {name} — {record}")
    description = "\n".join(lines) or tr(locale, "Nobody is on this leaderboard yet.")
    if page.by == "rating":
        description += "\n-# " + tr(locale, MINIMUM_NOTE, count=page.least)
    embed = discord.Embed(title=title, description=description, colour=GOLD)
    footer = tr(
        locale,
        "Page {page} of {pages} · {total} players",
        page=page.page + 1,
        pages=page.pages,
        total=page.total,
    )
    if page.viewer_place is not None:
        footer += " · " + tr(locale, "you: #{place}", place=page.viewer_place)
    embed.set_footer(text=footer)
    return embed


def leaderboard_buttons(
    locale: str | None, page: LeaderboardPage, owner: int
) -> list[RecordsButton]:
    """Previous / Next, carrying the page they lead to (none on a board of one page)."""
    if page.pages <= 1:
        return []
    common = (owner, page.scope, page.bucket, page.by)
    return [
        LeaderboardButton(
            "p",
            *common,
            max(page.page - 1, 0),
            label=tr(locale, "Previous"),
            disabled=page.page == 0,
        ),
        LeaderboardButton(
            "n",
            *common,
            min(page.page + 1, page.pages - 1),
            label=tr(locale, "Next"),
            disabled=page.page >= page.pages - 1,
        ),
    ]


def period_buttons(
    locale: str | None, owner: int, scope: int, bucket: str, period: Period, page: int, pages: int
) -> list[RecordsButton]:
    """Previous / Next of a period's or season's board (none on a board of one page)."""
    if pages <= 1:
        return []
    common = (owner, scope, bucket, period.key)
    return [
        PeriodButton(
            "p", *common, max(page - 1, 0), label=tr(locale, "Previous"), disabled=page == 0
        ),
        PeriodButton(
            "n",
            *common,
            min(page + 1, pages - 1),
            label=tr(locale, "Next"),
            disabled=page >= pages - 1,
        ),
    ]
