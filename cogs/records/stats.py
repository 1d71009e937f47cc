"""The stats screen: a player's figures, ratings, season and chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
            ),
            tr(
                locale,
                "Winning streak: {streak} (best {best})",
                streak=line.streak,
                best=line.best_streak,
            ),
            *lines,
        ]
    )


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


def stats_embed(
    locale: str | None,
    stats: PlayerStats,
    shown: str,
    season: tuple[str, str] | None = None,
) -> discord.Embed:
    """The embed of ``/domino stats`` (the picture is attached as ``rating.png``; ``season``:
    the season field's name and value)."""
    embed = discord.Embed(title=tr(locale, "Statistics of {name}", name=shown), colour=BLUE)
    if stats.ratings:
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
        embed.add_field(name=tr(locale, "Ratings"), value="\n".join(ratings), inline=False)
    if season is not None:
        embed.add_field(name=season[0], value=season[1], inline=False)
    if ALL in stats.overall:
        embed.add_field(
            name=tr(locale, "Everywhere"),
            value=_line_text(locale, stats.overall[ALL], stats.versus),
            inline=False,
        )
    if ALL in stats.server:
        embed.add_field(
            name=tr(locale, "On this server"),
            value=_line_text(locale, stats.server[ALL], stats.versus_server),
            inline=False,
        )
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed


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
