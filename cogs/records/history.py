"""The history screen: a player's recent matches."""

from __future__ import annotations

import discord

from bot.i18n import number, tr
from bot.records.service import (
    HistoryItem,
)
from cogs.colours import BLUE
from cogs.records.words import RESULT_MARKS, RESULT_NAMES, _name, _variant_name


def _history_line(locale: str | None, item: HistoryItem, names: bool = True) -> str:
    """One match of a history; without ``names``, who played it stays unsaid."""
    mark = RESULT_MARKS.get(item.result, "")
    result = tr(locale, RESULT_NAMES.get(item.result, item.result))
    own = item.scores[item.side] if item.side < len(item.scores) else 0
    others = [s for i, s in enumerate(item.scores) if i != item.side]
    score = "–".join(str(s) for s in (own, *others))
    head = f"{mark} **{result}** · {_variant_name(locale, item.variant)} · {score}"
    if item.rating_change is not None:
        head += f" · {number(locale, item.rating_change, signed=True)}"
    head += f" · <t:{int(item.finished_at)}:R>"
    who = []
    if not names:
        return head
    if item.partners:
        names = ", ".join(_name(locale, n, k) for n, k in item.partners)
        who.append(tr(locale, "with {names}", names=names))
    if item.opponents:
        names = ", ".join(_name(locale, n, k) for n, k in item.opponents)
        who.append(tr(locale, "against {names}", names=names))
    return head + ("\n" + " · ".join(who) if who else "")


def history_embed(
    locale: str | None, items: list[HistoryItem], shown: str, guild_id: int | None = None
) -> discord.Embed:
    """The embed of ``/domino history``: names only on the lines of matches shown in
    ``guild_id`` (its own, or a table across servers that had a place there: global names)."""
    here = [i.guild_id == guild_id or guild_id in i.shown_in for i in items]
    lines = [_history_line(locale, i, named) for i, named in zip(items, here, strict=True)]
    if not all(here):
        lines.append("-# " + tr(locale, "Players of matches on other servers are not named."))
    return discord.Embed(
        title=tr(locale, "Recent matches of {name}", name=shown),
        description="\n".join(lines),
        colour=BLUE,
    )
