"""``/domino achievements [user]``: a player's achievements, and their words and badges where
other messages show them (the latest in ``/domino stats``, those a match earned on its
match-end post).

The command joins the ``/domino`` group of the dominoes cog (or makes its own group without it).
Achievements are global figures: someone who left the global leaderboards has them shown to
himself only (as ``/domino stats`` does), and to nobody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.achievements.catalogue import ACHIEVEMENTS, BY_CODE, LOOKS
from bot.achievements.service import Achievements, Board
from bot.achievements.store import Earned
from bot.i18n import tr, trn
from bot.records.record import GLOBAL
from bot.records.store import RecordsRepo
from bot.store import DatabaseUnavailable, Store
from cogs.colours import GOLD
from cogs.markup import reply_privately, unreachable_text
from cogs.names import escape_name
from cogs.records.said_of import achievement_said_of
from render.badges import badge_png, badges_png

__all__ = [
    "BADGES_FILE",
    "BADGE_FILE",
    "AchievementsCog",
    "badges_alt_text",
    "earned_lines",
    "latest_badge",
    "setup",
]

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
COG_NAME = "Achievements"
GROUP_NAME = "domino"
BADGES_FILE = "badges.png"
BADGE_FILE = "badge.png"


def _date(at: float) -> str:
    """A date each reader sees in his own calendar and language (a Discord timestamp)."""
    return f"<t:{int(at)}:d>"


def _name(locale: str | None, code: str) -> str:
    return tr(locale, BY_CODE[code].name)


def _holders(locale: str | None, count: int) -> str:
    if not count:
        return tr(locale, "nobody has it yet")
    return trn(locale, "{count} player has it", "{count} players have it", count)


def board_embed(locale: str | None, board: Board, shown: str) -> discord.Embed:
    """The embed of ``/domino achievements``: earned ones with dates, then the others with how
    many players hold each (the badges' picture is attached as ``badges.png``)."""
    total = len(ACHIEVEMENTS)
    embed = discord.Embed(title=tr(locale, "Achievements of {name}", name=shown), colour=GOLD)
    embed.description = trn(
        locale,
        "{count} of {total} achievement earned.",
        "{count} of {total} achievements earned.",
        len(board.earned),
        total=total,
    )
    if board.earned:
        lines = [
            f"🏅 **{_name(locale, e.code)}** · {_date(e.earned_at)}\n"
            f"-# {tr(locale, BY_CODE[e.code].description)}"
            for e in board.earned
        ]
        embed.add_field(name=tr(locale, "Earned"), value="\n".join(lines)[:1024], inline=False)
    missing = board.missing
    if missing:
        lines = [
            f"▫️ **{_name(locale, code)}**: {tr(locale, BY_CODE[code].description)} "
            f"({_holders(locale, board.holders.get(code, 0))})"
            for code in missing
        ]
        _long_field(embed, tr(locale, "Not yet"), lines)
    embed.set_image(url=f"attachment://{BADGES_FILE}")
    return embed


def _long_field(embed: discord.Embed, name: str, lines: Sequence[str]) -> None:
    """Lines in fields of at most 1,024 characters (the first one named)."""
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > 1024:
            embed.add_field(name=name, value="\n".join(chunk), inline=False)
            name, chunk = "\u200b", []
        chunk.append(line)
    if chunk:
        embed.add_field(name=name, value="\n".join(chunk), inline=False)


def badges_alt_text(locale: str | None, board: Board, shown: str) -> str:
    """The badges' picture in words."""
    if not board.earned:
        return tr(locale, "Badges of {name}: none earned yet.", name=shown)
    return tr(
        locale,
        "Badges of {name}, in colour those earned: {earned}.",
        name=shown,
        earned=", ".join(_name(locale, e.code) for e in board.earned),
    )


def earned_lines(locale: str | None, earned: Sequence[Earned]) -> list[str]:
    """What a match earned, said on its match-end post: one line per person and achievement."""
    return [
        tr(
            locale,
            "🏅 <@{user}> earned **{achievement}**: {description}",
            user=e.player_id,
            achievement=_name(locale, e.code),
            description=achievement_said_of(locale, e.code, BY_CODE[e.code].description),
        )
        for e in earned
        if e.code in BY_CODE
    ]


async def latest_badge(
    store: Store, player_id: int, locale: str | None
) -> tuple[str, str, discord.File] | None:
    """``/domino stats``'s line about a player's latest achievement: the field's name, its
    value and the badge's picture (None: he has none)."""
    board = await Achievements(store).board(player_id)
    latest = board.latest
    if latest is None:
        return None
    value = tr(
        locale,
        "**{achievement}** · {date} ({count} of {total})",
        achievement=_name(locale, latest.code),
        date=_date(latest.earned_at),
        count=len(board.earned),
        total=len(ACHIEVEMENTS),
    )
    picture = await asyncio.to_thread(badge_png, LOOKS, latest.code)
    file = discord.File(
        io.BytesIO(picture), filename=BADGE_FILE, description=_name(locale, latest.code)
    )
    return tr(locale, "Latest achievement"), value, file


async def shown_at_match_end(store: Store, table_id: int) -> list[Earned]:
    """What the match of ``table_id`` earned, for its match-end post: not for people who left
    the global leaderboards."""
    earned = await Achievements(store).of_table(table_id)
    if not earned:
        return []
    hidden = await RecordsRepo(store.db).hidden_scopes(e.player_id for e in earned)
    return [e for e in earned if GLOBAL not in hidden.get(e.player_id, set())]


@app_commands.command(name="achievements", description=locale_str("Achievements of a player"))
@app_commands.describe(user=locale_str("Whose achievements (yours if left out)"))
async def achievements_command(interaction: Interaction, user: discord.User | None = None) -> None:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    assert cog is not None
    await cog.show(interaction, user)


class AchievementsCog(commands.Cog, name=COG_NAME):
    """``/domino achievements``."""

    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.achievements = Achievements(store)
        self._group: app_commands.Group | None = None
        self._own_group = False

    async def cog_load(self) -> None:
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            self._group = found
        else:
            self._group = app_commands.Group(
                name=GROUP_NAME, description=locale_str("Dominoes"), guild_only=True
            )
            self._own_group = True
            self.bot.tree.add_command(self._group, override=True)
        self._group.add_command(achievements_command, override=True)

    async def cog_unload(self) -> None:
        if self._group is not None:
            self._group.remove_command(achievements_command.name)
            if self._own_group:
                self.bot.tree.remove_command(GROUP_NAME)

    async def _reply(self, interaction: Interaction, text: str) -> None:
        await reply_privately(interaction, text)

    @contextlib.asynccontextmanager
    async def _guard(self, interaction: Interaction) -> AsyncIterator[None]:
        locale = interaction.locale.value
        try:
            yield
        except DatabaseUnavailable:
            await self._reply(interaction, unreachable_text(locale))
        except Exception:
            log.exception("achievements failed")
            await self._reply(
                interaction, tr(locale, "Sorry, something went wrong on my side. Please try again.")
            )

    async def show(self, interaction: Interaction, user: discord.User | None) -> None:
        """A player's achievements (someone else's only if he is on the global boards)."""
        async with self._guard(interaction):
            locale = interaction.locale.value
            target = user or interaction.user
            shown = escape_name(target.display_name)
            store = self.achievements.store
            hidden = GLOBAL in (await RecordsRepo(store.db).hidden_scopes([target.id])).get(
                target.id, set()
            )
            own = target.id == interaction.user.id
            if hidden and not own:
                await self._reply(
                    interaction, tr(locale, "No achievements to show for {name}.", name=shown)
                )
                return
            if getattr(target, "bot", False):
                await self._reply(
                    interaction, tr(locale, "Computers and bots earn no achievements.")
                )
                return
            await interaction.response.defer(thinking=True, ephemeral=hidden)
            board = await self.achievements.board(target.id)
            picture = await asyncio.to_thread(badges_png, LOOKS, board.codes)
            await interaction.followup.send(
                embed=board_embed(locale, board, shown),
                file=discord.File(
                    io.BytesIO(picture),
                    filename=BADGES_FILE,
                    description=badges_alt_text(locale, board, shown),
                ),
                ephemeral=hidden,
            )


async def setup(bot: commands.Bot) -> None:
    store = getattr(bot, "store", None)
    if store is None:
        raise RuntimeError("the bot has no store")
    await bot.add_cog(AchievementsCog(bot, store))
