"""The records' slash commands: leaderboard, stats, history, privacy, forget-me."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.records.periods import ALL_TIME
from bot.records.seasons import SEASON
from cogs.records.buttons import COG_NAME
from cogs.records.words import _variant_choices

Interaction = discord.Interaction[Any]


class RecordsHost(Protocol):
    """What the commands reach of the records cog."""

    async def leaderboard(
        self,
        interaction: Interaction,
        variant: str | None,
        scope: str | None,
        by: str | None,
        period: str | None = None,
    ) -> None: ...

    async def stats(
        self, interaction: Interaction, user: discord.User | None, share: bool = False
    ) -> None: ...

    async def history(self, interaction: Interaction, user: discord.User | None) -> None: ...

    async def privacy(self, interaction: Interaction) -> None: ...

    async def forget_me(self, interaction: Interaction) -> None: ...


def _cog(interaction: Interaction) -> RecordsHost:
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
@app_commands.describe(
    user=locale_str("Whose figures (yours if left out)"),
    share=locale_str("Post them for everyone here (only you see them if left out)"),
)
async def stats_command(
    interaction: Interaction, user: discord.User | None = None, share: bool = False
) -> None:
    await _cog(interaction).stats(interaction, user, share)


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
