"""The stats screen: a player's figures, ratings, season and chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import number, tr, trn
from bot.records.rating import DISPLAY_BASE, display_ordinal
from bot.records.record import ALL
from bot.records.seasons_service import Finish
from bot.records.service import (
    PlayerStats,
    VersusLevel,
)
from bot.records.store import StatRow
from cogs.colours import BLUE
from cogs.records.achievements import BADGE_FILE
from cogs.records.share import screen_card
from cogs.records.words import FAMILY_NAMES, PICTURE


def _versus_text(locale: str | None, versus: Sequence[VersusLevel]) -> str:
    """ "vs computers: easy 5–1, hard 2–4 (1 drawn)": wins–losses against each level."""
    parts = []
    for v in versus:
        level = tr(locale, v.level)
        part = tr(locale, "{level} {wins}–{losses}", level=level, wins=v.wins, losses=v.losses)
        if v.draws:
            part += " " + tr(locale, "({draws} drawn)", draws=v.draws)
        parts.append(part)
    return tr(locale, "vs computers: {levels}", levels=", ".join(parts))


def _line_text(locale: str | None, line: StatRow, versus: Sequence[VersusLevel] = ()) -> str:
    """A scope's figures in three lines (a fourth against computers)."""
    share = round(100 * line.wins / line.matches) if line.matches else 0
    lines = [_versus_text(locale, versus)] if versus else []
    return "\n".join(
        [
            tr(
                locale,
                "Matches: {matches} · wins {wins} ({share}%) · losses {losses} · draws {draws}",
                matches=line.matches,
                wins=line.wins,
                share=share,
                losses=line.losses,
                draws=line.draws,
            ),
            tr(
                locale,
                "Hands won: {hands} · dominoes: {dominoes} · blocks won: {blocks}",
                hands=line.hands_won,
                dominoes=line.dominoes,
                blocks=line.blocks_won,
            ),
            tr(
                locale,
                "Points: {points_for} for, {points_against} against",
                points_for=line.points_for,
                points_against=line.points_against,
            )
            + " · "
            + tr(
                locale,
                "Winning streak: {streak} (best {best})",
                streak=line.streak,
                best=line.best_streak,
            ),
            *lines,
        ]
    )


def _figures(line: StatRow) -> tuple[int, ...]:
    """What a scope's block shows (not when it was last updated)."""
    return (line.matches, line.wins, line.losses, line.draws, line.hands_won, line.dominoes,
            line.blocks_won, line.points_for, line.points_against, line.streak,
            line.best_streak)


def figures_text(locale: str | None, stats: PlayerStats) -> str:
    """Everywhere's figures and this server's; one block when they are the same (every
    recorded match played here)."""
    everywhere = stats.overall.get(ALL)
    here = stats.server.get(ALL)
    blocks = []
    if everywhere is not None and here is not None and (
        _figures(everywhere), stats.versus) == (_figures(here), stats.versus_server):
        title = tr(locale, "Everywhere and on this server")
        return f"**{title}**\n" + _line_text(locale, everywhere, stats.versus)
    if everywhere is not None:
        title = tr(locale, "Everywhere")
        blocks.append(f"**{title}**\n" + _line_text(locale, everywhere, stats.versus))
    if here is not None:
        title = tr(locale, "On this server")
        blocks.append(f"**{title}**\n" + _line_text(locale, here, stats.versus_server))
    return "\n".join(blocks)


def season_text(
    locale: str | None, number_: int, now: Sequence[Finish], best: Finish | None
) -> tuple[str, str]:
    """The season field of ``/domino stats``: its name and its lines (the current season's
    place per family, the best past finish)."""
    lines = [
        tr(
            locale,
            "{family}: #{place} of {total} · {rating}",
            family=tr(locale, FAMILY_NAMES.get(f.family, f.family)),
            place=f.place,
            total=f.total,
            rating=number(locale, display_ordinal(f.rating)),
        )
        for f in now
    ] or [tr(locale, "No rated match this season yet.")]
    if best is not None:
        lines.append(
            tr(
                locale,
                "Best past finish: #{place} of {total}, {family}, season {number}",
                place=best.place,
                total=best.total,
                family=tr(locale, FAMILY_NAMES.get(best.family, best.family)),
                number=best.number,
            )
        )
    return tr(locale, "Season {number}", number=number_), "\n".join(lines)


def ratings_text(locale: str | None, stats: PlayerStats) -> str:
    """The ratings, one family a line, under their heading ("" without a rated match)."""
    if not stats.ratings:
        return ""
    ratings = [
        trn(
            locale,
            "{family}: **{rating}** (one rated match)",
            "{family}: **{rating}** ({count} rated matches)",
            r.matches,
            family=tr(locale, FAMILY_NAMES.get(family, family)),
            rating=number(locale, r.display),
        )
        for family, r in sorted(stats.ratings.items())
    ]
    heading = tr(locale, "Ratings")
    return "\n".join([f"**{heading}**", *ratings])


def stats_layout(
    locale: str | None,
    stats: PlayerStats,
    shown: str,
    *,
    chart_alt: str,
    season: tuple[str, str] | None = None,
    badge: tuple[str, str, str] | None = None,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.LayoutView:
    """``/domino stats`` as one container: the name, the ratings and the season, the latest
    achievement (``badge``: its heading, its line and its picture's alt text, the picture
    attached as ``badge.png``), the figures, the rating chart (attached as ``rating.png``)
    and ``buttons`` (Share while it is private, the web page)."""
    title = tr(locale, "Statistics of {name}", name=shown)
    head = [f"**{title}**"]
    if ratings := ratings_text(locale, stats):
        head.append(ratings)
    if season is not None:
        head.append(f"**{season[0]}**\n{season[1]}")
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay("\n".join(head))]
    if badge is not None:
        items.append(
            discord.ui.Section(
                f"**{badge[0]}**\n{badge[1]}",
                accessory=discord.ui.Thumbnail(f"attachment://{BADGE_FILE}", description=badge[2]),
            )
        )
    if figures := figures_text(locale, stats):
        items.append(discord.ui.TextDisplay(figures))
    return screen_card(BLUE, items, PICTURE, chart_alt, buttons)


def chart_alt_text(
    locale: str | None, stats: PlayerStats, shown: str, labels: Mapping[str, str]
) -> str:
    """The rating picture in words: each family's rating from its start to now."""
    parts = [
        trn(
            locale,
            "{family}: from {start} to {now} in one rated match",
            "{family}: from {start} to {now} in {count} rated matches",
            len(points),
            family=labels.get(family, family),
            start=number(locale, DISPLAY_BASE),
            now=number(locale, points[-1][1]),
        )
        for family, points in stats.series.items()
        if points
    ]
    if not parts:
        return tr(locale, "Rating over time of {name}: no rated matches yet.", name=shown)
    return tr(
        locale, "Rating over time of {name}. {families}.", name=shown, families="; ".join(parts)
    )
