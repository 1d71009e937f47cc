"""The dominoes cog: ``/domino`` commands, lobbies, challenges and the game's buttons."""

from __future__ import annotations

from discord.ext import commands

from cogs.domino.commands import DominoCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog; the bot must own a table service (``bot.service``)."""
    service = getattr(bot, "service", None)
    if service is None:
        raise RuntimeError("the dominoes cog needs bot.service (a TableService)")
    await bot.add_cog(DominoCog(bot, service))
