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
from cogs.records.share import ScreenButton, screen_card, share_buttons
from render.badges import badge_png, badges_png

__all__ = [
    "BADGES_FILE",
    "BADGE_FILE",
    "AchievementsCog",
    "badges_alt_text",
    "earned_lines",
    "earned_summary",
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
    return trn(locale, "{count} player has it", "{count} players have it", count)


def board_layout(
    locale: str | None,
    board: Board,
    shown: str,
    *,
    alt: str,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.LayoutView:
    """``/domino achievements`` as one container: how many are earned, each earned one on a
    line with its date, the others' names on one line (what each asks: the How to earn
    button), the badges (attached as ``badges.png``) and ``buttons``."""
    total = len(ACHIEVEMENTS)
    title = tr(locale, "Achievements of {name}", name=shown)
    lines = [
        f"**{title}**",
        trn(
            locale,
            "{count} of {total} achievement earned.",
            "{count} of {total} achievements earned.",
            len(board.earned),
            total=total,
        ),
    ]
    lines += [f"🏅 **{_name(locale, e.code)}** · {_date(e.earned_at)}" for e in board.earned]
    if board.missing:
        heading = tr(locale, "Not yet")
        names = ", ".join(_name(locale, code) for code in board.missing)
        lines.append(f"-# {heading}: {names}")
    return screen_card(GOLD, [discord.ui.TextDisplay("\n".join(lines))], BADGES_FILE, alt, buttons)


def missing_text(locale: str | None, board: Board) -> str:
    """What each achievement not earned yet asks, and how many players hold it (if any)."""
    lines = []
    for code in board.missing:
        line = f"▫️ **{_name(locale, code)}**: {tr(locale, BY_CODE[code].description)}"
        if held := board.holders.get(code, 0):
            line += " (" + _holders(locale, held) + ")"
        lines.append(line)
    return "\n".join(lines) or tr(locale, "Every achievement is earned.")


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


def earned_summary(locale: str | None, earned: Sequence[Earned]) -> str | None:
    """What a match earned in one line for its match-end post: how many, and each
    achievement's name once, in the order earned (None: nothing earned)."""
    shown = [e for e in earned if e.code in BY_CODE]
    if not shown:
        return None
    names = list(dict.fromkeys(_name(locale, e.code) for e in shown))
    return "🏅 " + trn(
        locale,
        "{count} achievement: {names}",
        "{count} achievements: {names}",
        len(shown),
        names=", ".join(f"**{n}**" for n in names),
    )


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
@app_commands.describe(
    user=locale_str("Whose achievements (yours if left out)"),
    share=locale_str("Post them for everyone here (only you see them if left out)"),
)
async def achievements_command(
    interaction: Interaction, user: discord.User | None = None, share: bool = False
) -> None:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    assert cog is not None
    await cog.show(interaction, user, share)


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
        self.bot.add_dynamic_items(ScreenButton)

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

    async def _hidden(self, target: discord.abc.User) -> bool:
        """Whether ``target`` left the global leaderboards."""
        hidden = await RecordsRepo(self.achievements.store.db).hidden_scopes([target.id])
        return GLOBAL in hidden.get(target.id, set())

    async def _refused(
        self, interaction: Interaction, target: discord.abc.User, hidden: bool
    ) -> bool:
        """Answer (privately) why ``target``'s achievements are not shown, if they are not."""
        locale = interaction.locale.value
        if hidden and target.id != interaction.user.id:
            shown = escape_name(target.display_name)
            await self._reply(
                interaction, tr(locale, "No achievements to show for {name}.", name=shown)
            )
            return True
        if getattr(target, "bot", False):
            await self._reply(interaction, tr(locale, "Computers and bots earn no achievements."))
            return True
        return False

    async def show(
        self, interaction: Interaction, user: discord.abc.User | None, share: bool = False
    ) -> None:
        """A player's achievements (someone else's only if he is on the global boards):
        privately, unless the asker shares them."""
        async with self._guard(interaction):
            locale = interaction.locale.value
            target = user or interaction.user
            shown = escape_name(target.display_name)
            hidden = await self._hidden(target)
            if await self._refused(interaction, target, hidden):
                return
            private = hidden or not share
            await interaction.response.defer(thinking=True, ephemeral=private)
            board = await self.achievements.board(target.id)
            picture = await asyncio.to_thread(badges_png, LOOKS, board.codes)
            alt = badges_alt_text(locale, board, shown)
            buttons = share_buttons(
                locale, "achv", interaction.user.id, target.id, more=bool(board.missing)
            )
            if not private or hidden:  # shared already, or never to be shared
                buttons = [b for b in buttons if b.action != "share"]
            await interaction.followup.send(
                view=board_layout(locale, board, shown, alt=alt, buttons=buttons),
                file=discord.File(io.BytesIO(picture), filename=BADGES_FILE, description=alt),
                ephemeral=private,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def share(self, interaction: Interaction, screen: str, user: discord.abc.User) -> None:
        """Share pressed under private achievements: the same, for everyone here."""
        await self.show(interaction, None if user.id == interaction.user.id else user, True)

    async def more(self, interaction: Interaction, user: discord.abc.User) -> None:
        """How to earn the others: what each achievement ``user`` lacks asks, privately."""
        async with self._guard(interaction):
            hidden = await self._hidden(user)
            if await self._refused(interaction, user, hidden):
                return
            board = await self.achievements.board(user.id)
            layout = discord.ui.LayoutView(timeout=None)
            text = missing_text(interaction.locale.value, board)[:4000]
            layout.add_item(discord.ui.Container(discord.ui.TextDisplay(text), accent_colour=GOLD))
            await interaction.response.send_message(
                view=layout, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )


async def setup(bot: commands.Bot) -> None:
    store = getattr(bot, "store", None)
    if store is None:
        raise RuntimeError("the bot has no store")
    await bot.add_cog(AchievementsCog(bot, store))
