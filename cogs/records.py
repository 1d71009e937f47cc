"""``/domino leaderboard|stats|history|privacy|forget-me``: records, ratings and leaderboards.

The commands join the ``/domino`` group of the dominoes cog (``cogs.domino``, loaded first) as
subcommands; without it they form a ``/domino`` group of their own. The cog owns a
:class:`bot.records.service.Records`, which it registers as an observer of the table service, so
every finished match gets recorded (and, once at load, whatever finished while it was away).

Buttons carry everything in their custom ids (``records:<kind>:...``, the page they lead to
included, so a double click shows the same page twice), and work after a restart. A
leaderboard's Previous/Next edit the message for the person who asked for it; anyone else who
can see it gets the page he clicked as an ephemeral message of his own. A button that is no
longer on the message it was clicked on is answered with a short ephemeral note.

``/domino forget-me`` removes a person from the records after he confirms (ending his tables
first). When the bot is removed from a server, the server's tables close at once and its own
data (its leaderboards, the choices about them) is dropped after a grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands, tasks

from bot.daily import service as daily
from bot.i18n import N_, number, tr, trn
from bot.privacy.forget import Forgetting
from bot.records.boards import PeriodBoards
from bot.records.inactivity import Inactivity
from bot.records.periods import ALL_TIME, PERIOD_KINDS, Period, period_of
from bot.records.rating import DISPLAY_BASE, display_ordinal
from bot.records.record import ALL, BUCKETS, FAMILIES, GLOBAL
from bot.records.seasons import SEASON, SeasonCalendar, calendar_of
from bot.records.seasons_service import Finish, Seasons
from bot.records.service import (
    LEADERBOARD_ORDERS,
    HistoryItem,
    LeaderboardPage,
    PlayerStats,
    Records,
    VersusLevel,
)
from bot.records.store import StatRow
from bot.store import DatabaseUnavailable
from bot.web import links
from cogs.achievements import BADGE_FILE, latest_badge
from cogs.boards import BoardPoster, period_embed, season_embed
from cogs.colours import BLUE, GOLD
from cogs.domino.texts import VARIANTS, variant_name
from cogs.markup import reply_privately, unreachable_text
from cogs.names import display_name, escape_name, public_name
from cogs.places import readable
from cogs.web_links import web_button, web_url
from render.stats import rating_chart

__all__ = ["COG_NAME", "RecordsButton", "RecordsCog", "setup"]

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
COG_NAME = "Records"
GROUP_NAME = "domino"
HISTORY_SIZE = 10
PICTURE = "rating.png"
SEEN_NAMES = 10_000  # public names of recent users kept in memory (saves asking Discord)

FAMILY_NAMES: dict[str, str] = {
    "partnership": N_("Partnership games"),
    "two-player": N_("Two-player games"),
    "three-player": N_("Three players"),
    "fives": N_("All Fives"),
}
RESULT_MARKS = {"win": "✅", "loss": "❌", "draw": "➖"}
RESULT_NAMES = {"win": N_("Win"), "loss": N_("Loss"), "draw": N_("Drawn")}


def _variant_name(locale: str | None, bucket: str) -> str:
    """The name of a bucket: a family, 'all' or a variant (named as the dominoes cog names it)."""
    if bucket in FAMILY_NAMES:
        return tr(locale, FAMILY_NAMES[bucket])
    if bucket == ALL:
        return tr(locale, "All variants")
    return variant_name(locale, bucket)


def _variant_choices() -> list[Choice[str]]:
    choices = [Choice(name=locale_str(FAMILY_NAMES[f]), value=f) for f in FAMILIES]
    for variants in FAMILIES.values():
        for v in variants:
            name = VARIANTS[v][0] if v in VARIANTS else v
            choices.append(Choice(name=locale_str(name), value=v))
    return choices


# ------------------------------------------------------------------------------- buttons

#: Any id of this cog, however long or malformed (a click on one its message no longer has is
#: answered as stale; one no kind reads, as not valid).
TEMPLATE = re.compile(r"records:(?s:.*)")
_ID = r"[0-9]{1,20}"  # a Discord id: a person, a server (0: everywhere)


class RecordsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """The common part of this cog's buttons: the id (each kind reads its own, every number
    bounded), the look, and the click, which goes to :meth:`RecordsCog.on_button`."""

    kind: ClassVar[str] = ""

    def __init__(
        self,
        *args: object,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        text = ":".join(["records", self.kind, *(str(a) for a in args)])
        if len(text) > 100 or not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        super().__init__(
            discord.ui.Button(label=label or None, style=style, disabled=disabled, custom_id=text)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RecordsButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        """The button an id of this kind stands for."""
        raise NotImplementedError

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)
        if cog is None:  # unloaded while the click was on its way
            return
        await cog.on_button(interaction, self)  # type: ignore[attr-defined]


class LeaderboardButton(
    RecordsButton,
    template=rf"records:lb:(?P<direction>[pn]):(?P<owner>{_ID}):(?P<scope>{_ID})"
    r":(?P<bucket>[a-z0-9\-]{1,30}):(?P<by>[a-z]{1,12}):(?P<page>[0-9]{1,9})",
):
    """Previous (``p``) or Next (``n``): the page of a leaderboard it leads to."""

    kind = "lb"

    def __init__(
        self, direction: str, owner: int, scope: int, bucket: str, by: str, page: int, **look: Any
    ) -> None:
        super().__init__(direction, owner, scope, bucket, by, page, **look)
        self.owner, self.scope, self.bucket, self.by, self.page = owner, scope, bucket, by, page

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(
            match["direction"],
            int(match["owner"]),
            int(match["scope"]),
            match["bucket"],
            match["by"],
            int(match["page"]),
        )


class PeriodButton(
    RecordsButton,
    template=rf"records:pb:(?P<direction>[pn]):(?P<owner>{_ID}):(?P<scope>{_ID})"
    r":(?P<bucket>[a-z0-9\-]{1,30}):(?P<period>(?:week|month|season):[0-9\-]{7,10})"
    r":(?P<page>[0-9]{1,9})",
):
    """Previous (``p``) or Next (``n``) on a week's, month's or season's board: the period
    (its key) and the page it leads to."""

    kind = "pb"

    def __init__(
        self, direction: str, owner: int, scope: int, bucket: str, period: str, page: int,
        **look: Any,
    ) -> None:
        super().__init__(direction, owner, scope, bucket, period, page, **look)
        self.owner, self.scope, self.bucket, self.period, self.page = (
            owner, scope, bucket, period, page
        )

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(
            match["direction"],
            int(match["owner"]),
            int(match["scope"]),
            match["bucket"],
            match["period"],
            int(match["page"]),
        )


class PrivacyButton(
    RecordsButton, template=rf"records:privacy:(?P<owner>{_ID}):(?P<scope>{_ID}):(?P<hide>[01])"
):
    """Leave (``hide``) or join again the leaderboards of a scope."""

    kind = "privacy"

    def __init__(self, owner: int, scope: int, hide: bool, **look: Any) -> None:
        super().__init__(owner, scope, int(hide), **look)
        self.owner, self.scope, self.hide = owner, scope, hide

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(int(match["owner"]), int(match["scope"]), match["hide"] == "1")


class ForgetButton(
    RecordsButton,
    template=rf"records:forget:(?P<owner>{_ID}):(?P<choice>yes|no):(?P<running>[0-9]{{1,9}})",
):
    """Forget me (``yes``, announcing how many running matches it resigns) or Cancel."""

    kind = "forget"

    def __init__(self, owner: int, choice: str, running: int, **look: Any) -> None:
        super().__init__(owner, choice, running, **look)
        self.owner, self.choice, self.running = owner, choice, running

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(int(match["owner"]), match["choice"], int(match["running"]))


_KINDS: tuple[type[RecordsButton], ...] = (
    LeaderboardButton,
    PeriodButton,
    PrivacyButton,
    ForgetButton,
)
_READ = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in _KINDS
)


class UnreadButton(RecordsButton, template=rf"(?!(?:{_READ})\Z){TEMPLATE.pattern}"):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    def __init__(self, custom_id: str) -> None:  # kept as it came: it is not ours to build
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(custom_id=custom_id))

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(match.string)


#: What the cog registers: each id of ours has exactly one reader.
BUTTONS: tuple[type[RecordsButton], ...] = (*_KINDS, UnreadButton)


def _view(buttons: list[RecordsButton]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view


# ------------------------------------------------------------------------------ presenting


def _name(locale: str | None, name: str, kind: str) -> str:
    """A player's name for an embed (a person's escaped; a computer's is ours)."""
    shown = display_name(locale, name, kind) or "?"
    return shown if kind == "computer" else escape_name(shown)


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
            rating = number(locale, row.rating)
            lines.append(f"**{row.place}.** {name} — **{rating}** · {record}")
        else:
            lines.append(f"**{row.place}.** {name} — {record}")
    description = "\n".join(lines) or tr(locale, "Nobody is on this leaderboard yet.")
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
    """The embed of ``/domino history``: names only on the lines of matches of ``guild_id``."""
    lines = [_history_line(locale, i, i.guild_id == guild_id) for i in items]
    if any(i.guild_id != guild_id for i in items):
        lines.append("-# " + tr(locale, "Players of matches on other servers are not named."))
    return discord.Embed(
        title=tr(locale, "Recent matches of {name}", name=shown),
        description="\n".join(lines),
        colour=BLUE,
    )


def privacy_embed(locale: str | None, hidden: set[int], guild_id: int | None) -> discord.Embed:
    """What ``/domino privacy`` shows: where the person appears on leaderboards."""
    yes, no = tr(locale, "shown"), tr(locale, "hidden")
    lines = [
        tr(
            locale,
            "Global leaderboards: **{state}**",
            state=no if GLOBAL in hidden else yes,
        )
    ]
    if guild_id is not None:
        lines.append(
            tr(
                locale,
                "This server's leaderboards: **{state}**",
                state=no if guild_id in hidden else yes,
            )
        )
    lines.append(
        tr(
            locale,
            "Each choice is separate: leaving the global leaderboards keeps you on this "
            "server's unless you leave them too. Your matches are still recorded.",
        )
    )
    return discord.Embed(
        title=tr(locale, "Your place on the leaderboards"), description="\n".join(lines)
    )


def privacy_buttons(
    locale: str | None, user_id: int, hidden: set[int], guild_id: int | None
) -> list[RecordsButton]:
    """One toggle per scope."""
    out = [
        PrivacyButton(
            user_id,
            GLOBAL,
            GLOBAL not in hidden,
            label=tr(locale, "Show me on the global leaderboards")
            if GLOBAL in hidden
            else tr(locale, "Leave the global leaderboards"),
        )
    ]
    if guild_id is not None:
        out.append(
            PrivacyButton(
                user_id,
                guild_id,
                guild_id not in hidden,
                label=tr(locale, "Show me on this server's leaderboards")
                if guild_id in hidden
                else tr(locale, "Leave this server's leaderboards"),
            )
        )
    return out


FORGET_TEXT = N_(
    "This deletes your name, your figures, your ratings and your leaderboard choices, on every "
    "server. The matches you played stay in the other players' histories, played by "
    '"a former player", so that their ratings do not change. This cannot be undone.'
)


def forget_embed(locale: str | None, lobbies: int, running: int) -> discord.Embed:
    """What ``/domino forget-me`` asks before it forgets someone."""
    lines = [tr(locale, FORGET_TEXT)]
    if lobbies:
        lines.append(tr(locale, "Your open tables are left, or cancelled if you host them."))
    if running:
        lines.append(
            "**"
            + trn(
                locale,
                "You are playing in a running match: forgetting you resigns it.",
                "You are playing in {count} running matches: forgetting you resigns them.",
                running,
            )
            + "**"
        )
    return discord.Embed(
        title=tr(locale, "Forget me?"), description="\n\n".join(lines), colour=BLUE
    )


def forget_buttons(locale: str | None, user_id: int, running: int) -> list[RecordsButton]:
    """Forget me (which says how many running matches it resigns) and Cancel."""
    return [
        ForgetButton(
            user_id,
            "yes",
            running,
            label=tr(locale, "Resign and forget me") if running else tr(locale, "Forget me"),
            style=discord.ButtonStyle.danger,
        ),
        ForgetButton(user_id, "no", 0, label=tr(locale, "Cancel")),
    ]


# ------------------------------------------------------------------------------ the commands


def _cog(interaction: Interaction) -> RecordsCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the records cog is not loaded")
    return cog  # type: ignore[no-any-return]


@app_commands.command(name="leaderboard", description=locale_str("The best players"))
@app_commands.describe(
    variant=locale_str("A variant or a family of variants (all of them if left out)"),
    scope=locale_str("This server or everywhere"),
    by=locale_str("Rank by rating or by wins"),
    period=locale_str("This week, this month, this season or all time"),
)
@app_commands.choices(
    variant=_variant_choices(),
    scope=[
        Choice(name=locale_str("This server"), value="server"),
        Choice(name=locale_str("Everywhere"), value="global"),
    ],
    by=[
        Choice(name=locale_str("Rating"), value="rating"),
        Choice(name=locale_str("Wins"), value="wins"),
    ],
    period=[
        Choice(name=locale_str("This week"), value="week"),
        Choice(name=locale_str("This month"), value="month"),
        Choice(name=locale_str("This season"), value=SEASON),
        Choice(name=locale_str("All time"), value=ALL_TIME),
    ],
)
async def leaderboard_command(
    interaction: Interaction,
    variant: str | None = None,
    scope: str | None = None,
    by: str | None = None,
    period: str | None = None,
) -> None:
    await _cog(interaction).leaderboard(interaction, variant, scope, by, period)


@app_commands.command(name="stats", description=locale_str("Figures and rating of a player"))
@app_commands.describe(user=locale_str("Whose figures (yours if left out)"))
async def stats_command(interaction: Interaction, user: discord.User | None = None) -> None:
    await _cog(interaction).stats(interaction, user)


@app_commands.command(name="history", description=locale_str("Recent matches of a player"))
@app_commands.describe(user=locale_str("Whose matches (yours if left out)"))
async def history_command(interaction: Interaction, user: discord.User | None = None) -> None:
    await _cog(interaction).history(interaction, user)


@app_commands.command(
    name="privacy",
    description=locale_str("Leave or rejoin the global or this server's leaderboards"),
)
async def privacy_command(interaction: Interaction) -> None:
    await _cog(interaction).privacy(interaction)


@app_commands.command(
    name="forget-me",
    description=locale_str("Delete your name and figures from the bot's records"),
)
async def forget_command(interaction: Interaction) -> None:
    await _cog(interaction).forget_me(interaction)


COMMANDS = (
    leaderboard_command,
    stats_command,
    history_command,
    privacy_command,
    forget_command,
)


def _locale(interaction: Interaction) -> str:
    return interaction.locale.value


class RecordsCog(commands.Cog, name=COG_NAME):
    """Records finished matches; leaderboards, stats, history and privacy choices."""

    def __init__(self, bot: commands.Bot, records: Records) -> None:
        self.bot = bot
        self.records = records
        if records.names is None:
            records.names = self.public_names
        self._seen: OrderedDict[int, str] = OrderedDict()
        self._group: app_commands.Group | None = None
        self._own_group = False
        self._catch_up: asyncio.Task[int] | None = None
        self.forgetting = Forgetting(records, getattr(bot, "service", None))
        clock = getattr(getattr(bot, "service", None), "clock", None) or records.clock
        self.boards = PeriodBoards(records.store, clock=clock, seasons=records.seasons)
        self.seasons = Seasons(records.store, records.seasons, clock=clock)
        self.poster = BoardPoster(bot, self.boards, _variant_name, self.seasons)
        self.inactivity = Inactivity(records.store, clock=clock)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS)
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            self._group = found
        else:  # the play cog is absent: our own /domino group
            self._group = app_commands.Group(
                name=GROUP_NAME,
                description=locale_str("Dominoes: leaderboards, stats and history"),
                guild_only=True,
            )
            self._own_group = True
        for command in COMMANDS:
            self._group.add_command(command, override=True)
        if self._own_group:
            self.bot.tree.add_command(self._group, override=True)
        service = getattr(self.bot, "service", None)
        if service is not None:
            service.add_observer(self.records)
        self._catch_up = asyncio.create_task(self._catch_up_now(), name="records-catch-up")
        self.sweep.start()
        self.idle_sweep.start()
        self.forgetting.service = service
        self.forgetting.start()
        self.poster.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.idle_sweep.cancel()
        await self.poster.close()
        await self.forgetting.close()
        if self._catch_up is not None:
            self._catch_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catch_up
        service = getattr(self.bot, "service", None)
        if service is not None:
            with contextlib.suppress(ValueError):
                service.remove_observer(self.records)
        if self._group is not None:
            for command in COMMANDS:
                self._group.remove_command(command.name)
            if self._own_group:
                self.bot.tree.remove_command(GROUP_NAME)
        self.bot.remove_dynamic_items(*BUTTONS)

    async def _catch_up_now(self) -> int:
        try:
            done = await self.records.catch_up()
        except Exception:
            log.exception("recording the matches that finished unobserved failed")
            return 0
        if done:
            log.info("recorded %d match(es) that finished while nobody listened", done)
        return done

    # -- servers the bot left ------------------------------------------------------------------

    @tasks.loop(hours=1)
    async def sweep(self) -> None:
        """Drop the data of servers the bot left longer ago than the grace period; rank the
        final places of a season that ended (if no board post did yet)."""
        try:
            await self.records.sweep_departed()
        except Exception:
            log.exception("dropping the data of departed servers failed")
        try:
            await self.seasons.rank_ended()
        except Exception:
            log.exception("ranking the last season's final places failed")

    @tasks.loop(hours=6)
    async def idle_sweep(self) -> None:
        """Grow idle ratings' uncertainty on the boards; leave idle players off them (every
        six hours, the first time six hours after the start)."""
        if self.idle_sweep.current_loop == 0:
            return
        try:
            changed = await self.inactivity.sweep()
        except Exception:
            log.exception("the inactivity sweep failed")
            return
        if changed:
            log.info("inactivity: %d idle rating(s) updated on the boards", changed)

    async def _idle_note(
        self, embed: discord.Embed, page: LeaderboardPage, locale: str | None
    ) -> None:
        """Say on a board how many idle players it leaves off."""
        idle = await self.inactivity.idle_count(page.scope, page.bucket, page.by)
        if idle:
            note = trn(locale, "{count} idle player hidden", "{count} idle players hidden", idle)
            embed.description = f"{embed.description}\n-# {note}"

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: close its tables; its data goes after the grace period."""
        await self.records.guild_left(guild.id)
        service = getattr(self.bot, "service", None)
        if service is None:
            return
        for table in service.open_tables():
            if table.table.guild_id == guild.id:
                try:
                    await service.cancel(table.id, table.host_id, force=True)
                except Exception:
                    log.exception("table %s: could not close it", table.id)

    # -- the weekly and monthly boards' posts ---------------------------------------------

    @commands.Cog.listener()
    async def on_tables_adopted(self, table_ids: list[int]) -> None:
        """Shards were taken over (or lost): time the board posts of the servers run here."""
        await self.poster.load()

    @commands.Cog.listener()
    async def on_tables_released(self, table_ids: list[int]) -> None:
        await self.poster.load()

    @commands.Cog.listener()
    async def on_board_channel_set(self, guild_id: int, due_at: float | None) -> None:
        """``/domino server-settings`` chose (``due_at``) or cleared a server's board channel."""
        if due_at is None:
            self.poster.forget(guild_id)
        else:
            self.poster.time(guild_id, due_at)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.records.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.records.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Servers that removed the bot while it was away count as left from now; the board
        posts of the servers this process runs are timed (again: its shards are surely held by
        now, even after a start slower than a lease)."""
        try:
            await self.poster.load()
        except Exception:
            log.exception("timing the board posts failed")
        try:
            present = {g.id for g in self.bot.guilds}
            for guild_id in await self.records.known_guilds() - present:
                if self._holds(guild_id):
                    await self.records.guild_left(guild_id)
        except Exception:
            log.exception("looking for servers that removed the bot failed")

    def _holds(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id`` (so it would see the server)."""
        leases = getattr(self.bot, "leases", None)
        if leases is not None:
            return bool(leases.owns(guild_id))
        count = self.bot.shard_count or 1
        ids = getattr(self.bot, "shard_ids", None)
        if ids is None:
            ids = [self.bot.shard_id or 0]
        return (guild_id >> 22) % count in ids

    # -- names -------------------------------------------------------------------------------

    def _note(self, user: discord.abc.User) -> None:
        """Remember a user's public name (the records ask for it when a match ends)."""
        self._seen[user.id] = public_name(user)
        self._seen.move_to_end(user.id)
        while len(self._seen) > SEEN_NAMES:
            self._seen.popitem(last=False)

    async def public_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The global display names of users (never a server nickname), as Discord knows them."""
        found: dict[int, str] = {}
        for uid in user_ids:
            if uid in self._seen:
                found[uid] = self._seen[uid]
                continue
            user = self.bot.get_user(uid)
            if user is None:
                try:
                    user = await self.bot.fetch_user(uid)
                except discord.HTTPException as exc:
                    log.info("user %s: no name from Discord: %s", uid, exc)
                    continue
            found[uid] = public_name(user)
        return found

    # -- helpers ------------------------------------------------------------------------------

    async def _reply(self, interaction: Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        await reply_privately(interaction, text)

    @contextlib.asynccontextmanager
    async def _guard(self, interaction: Interaction, what: str) -> AsyncIterator[None]:
        """Log the unexpected and apologise; explain a refused permission."""
        locale = _locale(interaction)
        try:
            # The records show the latest public name of whoever uses them.
            await self.records.rename(interaction.user.id, public_name(interaction.user))
            yield
        except discord.Forbidden as exc:
            log.info("%s: Discord refused: %s", what, exc.text)
            await self._reply(
                interaction,
                tr(
                    locale,
                    "I am missing a permission in this channel (send messages, embed links, "
                    "attach files).",
                ),
            )
        except DatabaseUnavailable:  # the store logs the outage once, with its end
            await self._reply(interaction, unreachable_text(locale))
        except Exception:
            log.exception("%s failed", what)
            await self._reply(
                interaction, tr(locale, "Sorry, something went wrong on my side. Please try again.")
            )

    # -- /domino leaderboard ------------------------------------------------------------------

    async def leaderboard(
        self,
        interaction: Interaction,
        variant: str | None,
        scope: str | None,
        by: str | None,
        period: str | None = None,
    ) -> None:
        async with self._guard(interaction, "leaderboard"):
            guild = interaction.guild_id
            where = GLOBAL if scope == "global" or guild is None else guild
            if period in PERIOD_KINDS or period == SEASON:
                await self._period_board(interaction, where, variant or ALL, period)
                return
            page = await self.records.leaderboard(
                scope=where,
                bucket=variant or ALL,
                by=by or "rating",
                viewer_id=interaction.user.id,
            )
            locale = _locale(interaction)
            view = _view(leaderboard_buttons(locale, page, interaction.user.id))
            embed = leaderboard_embed(locale, page)
            await self._idle_note(embed, page, locale)
            path = links.server_path(where, board=page.bucket, by=page.by)
            url = await web_url(self.bot, self.records.store, where or None, path)
            if url is not None:
                view.add_item(web_button(locale, url))
            await interaction.response.send_message(embed=embed, view=view)

    async def _period_board(
        self,
        interaction: Interaction,
        scope: int,
        bucket: str,
        period: str | Period,
        *,
        page: int = 0,
        owner: int | None = None,
    ) -> None:
        """A week's, month's or season's board (``period``: the kind, now, or one period) with
        its Previous/Next and its web link; a new message, or the clicked one edited."""
        locale = _locale(interaction)
        viewer = interaction.user.id
        if isinstance(period, str):
            now = self.boards.clock()
            period = (
                self.seasons.current(now) if period == SEASON else period_of(period, now)
            )
        if period.kind == SEASON:
            season = await self.seasons.board(
                scope=scope, bucket=bucket, period=period, page=page, viewer_id=viewer
            )
            embed = season_embed(locale, season, _variant_name(locale, season.family))
            page, pages = season.page, season.pages
        else:
            board = await self.boards.board(
                scope=scope, bucket=bucket, period=period, page=page, viewer_id=viewer
            )
            embed = period_embed(locale, board, _variant_name(locale, bucket))
            page, pages = board.page, board.pages
        view = _view(period_buttons(locale, viewer, scope, bucket, period, page, pages))
        path = links.server_path(scope, board=bucket, period=period.kind)
        url = await web_url(self.bot, self.records.store, scope or None, path)
        if url is not None:
            view.add_item(web_button(locale, url))
        if owner is None:
            await interaction.response.send_message(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)

    async def _period_click(self, interaction: Interaction, button: PeriodButton) -> None:
        """Previous/Next of a period's board: only for whom it was shown."""
        locale = _locale(interaction)
        if interaction.user.id != button.owner:
            await self._reply(
                interaction,
                tr(locale, "This board was asked for by someone else: ask for your own with "
                   "/domino leaderboard."),
            )
            return
        period = _period_named(button.period, self.seasons.calendar)
        if button.scope not in (GLOBAL, interaction.guild_id) or period is None:
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        await self._period_board(
            interaction, button.scope, button.bucket, period, page=button.page, owner=button.owner
        )

    async def _leaderboard_click(self, interaction: Interaction, button: LeaderboardButton) -> None:
        locale = _locale(interaction)
        if button.scope not in (GLOBAL, interaction.guild_id):  # another server's board
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        page = await self.records.leaderboard(
            scope=button.scope,
            bucket=button.bucket,
            by=button.by,
            page=button.page,
            viewer_id=interaction.user.id,
        )
        embed = leaderboard_embed(locale, page)
        await self._idle_note(embed, page, locale)
        if interaction.user.id == button.owner:
            await interaction.response.edit_message(
                embed=embed,
                view=_view(leaderboard_buttons(locale, page, button.owner)),
            )
        else:  # someone else's leaderboard: his own copy, for his eyes only
            await interaction.response.send_message(
                embed=embed,
                view=_view(leaderboard_buttons(locale, page, interaction.user.id)),
                ephemeral=True,
            )

    # -- /domino stats ------------------------------------------------------------------------

    def _shown_name(self, interaction: Interaction, user: discord.abc.User | None) -> str:
        """The name of whom a command is about, as this server knows him (escaped)."""
        target = user or interaction.user
        return escape_name(target.display_name)

    async def stats(self, interaction: Interaction, user: discord.User | None) -> None:
        async with self._guard(interaction, "stats"):
            locale = _locale(interaction)
            target = user or interaction.user
            shown = self._shown_name(interaction, user)
            found = await self.records.stats(
                target.id, guild_id=interaction.guild_id, viewer_id=interaction.user.id
            )
            if found.empty:
                await self._reply(
                    interaction, tr(locale, "No recorded matches to show for {name}.", name=shown)
                )
                return
            # His own figures, while he is off a leaderboard: for his eyes only.
            private = target.id == interaction.user.id and bool(
                found.hidden & {GLOBAL, interaction.guild_id}
            )
            await interaction.response.defer(thinking=True, ephemeral=private)
            labels = {f: tr(locale, name) for f, name in FAMILY_NAMES.items()}
            picture = await asyncio.to_thread(
                rating_chart,
                found.series,
                title=tr(locale, "Rating over time"),
                labels=labels,
                empty_text=tr(locale, "No rated matches yet"),
                start=DISPLAY_BASE,
                number=lambda value: number(locale, value),
            )
            extra: dict[str, Any] = {}
            guild = interaction.guild_id
            if found.server and guild is not None and not found.hidden & {GLOBAL, guild}:
                path = links.player_path(guild, target.id)
                if url := await web_url(self.bot, self.records.store, guild, path):
                    extra["view"] = _view([]).add_item(web_button(locale, url))
            alt = chart_alt_text(locale, found, shown, labels)
            season = None
            if GLOBAL not in found.hidden:  # his places are on the global boards
                season = season_text(
                    locale,
                    self.seasons.calendar.number(self.boards.clock()),
                    await self.seasons.standing(target.id),
                    await self.seasons.best_finish(target.id),
                )
            embed = stats_embed(locale, found, shown, season)
            files = [discord.File(io.BytesIO(picture), filename=PICTURE, description=alt)]
            shown_to = GLOBAL not in found.hidden or target.id == interaction.user.id
            badge = await latest_badge(self.records.store, target.id, locale) if shown_to else None
            if badge is not None:  # above the figures
                names = [f.name for f in embed.fields]
                at = next((i for i, n in enumerate(names) if n == tr(locale, "Everywhere")), -1)
                embed.insert_field_at(
                    at if at >= 0 else len(names), name=badge[0], value=badge[1], inline=False
                )
                embed.set_thumbnail(url=f"attachment://{BADGE_FILE}")
                files.append(badge[2])
            await interaction.followup.send(
                embed=embed, files=files, ephemeral=private, **extra
            )

    # -- /domino history ----------------------------------------------------------------------

    async def history(self, interaction: Interaction, user: discord.User | None) -> None:
        async with self._guard(interaction, "history"):
            locale = _locale(interaction)
            target = user or interaction.user
            shown = self._shown_name(interaction, user)
            guild = interaction.guild_id
            places = readable(interaction)  # this server's channels the asker can view now
            hides = daily.veil(interaction.user.id, self.boards.clock())
            if target.id == interaction.user.id:
                items = await self.records.history(target.id, limit=HISTORY_SIZE, veil=hides)
            elif places is not None and guild not in await self.records.hidden_scopes(target.id):
                items = await self.records.history(
                    target.id, readable=places, limit=HISTORY_SIZE, veil=hides
                )
            else:
                items = []
            if not items:
                await self._reply(
                    interaction, tr(locale, "No recorded matches to show for {name}.", name=shown)
                )
                return
            await interaction.response.send_message(
                embed=history_embed(locale, items, shown, guild), ephemeral=True
            )

    # -- /domino privacy ----------------------------------------------------------------------

    async def privacy(self, interaction: Interaction) -> None:
        async with self._guard(interaction, "privacy"):
            locale = _locale(interaction)
            hidden = await self.records.hidden_scopes(interaction.user.id)
            guild = interaction.guild_id
            await interaction.response.send_message(
                embed=privacy_embed(locale, hidden, guild),
                view=_view(privacy_buttons(locale, interaction.user.id, hidden, guild)),
                ephemeral=True,
            )

    async def _privacy_click(self, interaction: Interaction, button: PrivacyButton) -> None:
        locale = _locale(interaction)
        owner, scope, hide = button.owner, button.scope, button.hide
        if interaction.user.id != owner:
            await self._reply(interaction, tr(locale, "These choices belong to someone else."))
            return
        if scope != GLOBAL and scope != interaction.guild_id:
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        await self.records.set_privacy(owner, scope, hide)
        hidden = await self.records.hidden_scopes(owner)
        guild = interaction.guild_id
        await interaction.response.edit_message(
            embed=privacy_embed(locale, hidden, guild),
            view=_view(privacy_buttons(locale, owner, hidden, guild)),
        )

    # -- /domino forget-me ---------------------------------------------------------------------

    async def forget_me(self, interaction: Interaction) -> None:
        async with self._guard(interaction, "forget-me"):
            locale = _locale(interaction)
            user = interaction.user.id
            found = await self.forgetting.open_tables(user)  # on every process
            lobbies, running = len(found.lobbies), len(found.running)
            await interaction.response.send_message(
                embed=forget_embed(locale, lobbies, running),
                view=_view(forget_buttons(locale, user, running)),
                ephemeral=True,
            )

    async def _forget_click(self, interaction: Interaction, button: ForgetButton) -> None:
        locale = _locale(interaction)
        owner, choice, announced = button.owner, button.choice, button.running
        if interaction.user.id != owner:
            await self._reply(interaction, tr(locale, "These choices belong to someone else."))
            return
        if choice == "no":
            await interaction.response.edit_message(
                content=tr(locale, "Nothing was deleted."), embed=None, view=None
            )
            return
        found = await self.forgetting.open_tables(owner)
        lobbies, running = len(found.lobbies), len(found.running)
        if running > announced:  # a match he was not warned about: ask again
            await interaction.response.edit_message(
                embed=forget_embed(locale, lobbies, running),
                view=_view(forget_buttons(locale, owner, running)),
            )
            return
        await interaction.response.defer()
        # His tables end wherever they run: here at once, on other processes within seconds.
        await self.forgetting.forget(owner)
        self._seen.pop(owner, None)
        await interaction.edit_original_response(
            content=tr(locale, "Done: your name and figures are deleted from the records."),
            embed=None,
            view=None,
        )

    # -- buttons ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer a click on one of our buttons that its message no longer has.

        discord.py drops such clicks silently (the person would see "interaction failed").
        """
        self._note(interaction.user)
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id")
        if not isinstance(custom_id, str) or not TEMPLATE.fullmatch(custom_id):
            return
        if _on_message(interaction.message, custom_id):
            return  # a live button: RecordsButton handles it
        locale = _locale(interaction)
        await self._reply(
            interaction, tr(locale, "This button is out of date: use the latest message.")
        )

    async def on_button(self, interaction: Interaction, button: RecordsButton) -> None:
        """A click on one of this cog's buttons."""
        async with self._guard(interaction, f"button {button.kind or 'unread'}"):
            locale = _locale(interaction)
            custom_id = (interaction.data or {}).get("custom_id")
            if not _on_message(interaction.message, custom_id):
                return  # not a button of the clicked message: on_interaction answers
            if isinstance(button, LeaderboardButton) and _known_board(button):
                await self._leaderboard_click(interaction, button)
            elif isinstance(button, PeriodButton) and button.bucket in BUCKETS:
                await self._period_click(interaction, button)
            elif isinstance(button, PrivacyButton):
                await self._privacy_click(interaction, button)
            elif isinstance(button, ForgetButton):
                await self._forget_click(interaction, button)
            else:  # forged, or from an incompatible version
                await self._reply(interaction, tr(locale, "This button is not valid any more."))


def _known_board(button: LeaderboardButton) -> bool:
    """Whether the button names a leaderboard there is (a variant or family, an order)."""
    return button.bucket in BUCKETS and button.by in LEADERBOARD_ORDERS


def _period_named(key: str, calendar: SeasonCalendar) -> Period | None:
    """The week, month or season a button's key names (None: none)."""
    kind, _, day = key.partition(":")
    if kind == SEASON:
        return calendar.by_key(key)
    try:
        start = dt.datetime.fromisoformat(day if kind == "week" else f"{day}-01")
    except ValueError:
        return None
    period = period_of(kind, start.replace(tzinfo=dt.UTC).timestamp())
    return period if period.key == key else None


def _on_message(message: discord.Message | None, custom_id: Any) -> bool:
    """Whether ``custom_id`` is still a button of ``message`` (else the click is stale)."""
    if message is None or not isinstance(custom_id, str):
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store (``bot.store``)."""
    store = getattr(bot, "store", None)
    if store is None:
        raise RuntimeError("the records cog needs bot.store (a Store)")
    calendar = calendar_of(getattr(bot, "settings", None))
    await bot.add_cog(RecordsCog(bot, Records(store, seasons=calendar)))
