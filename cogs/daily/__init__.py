"""``/domino daily``: the daily deal in Discord, a thin adapter of the daily service.

``/domino daily play`` opens a private thread for the person, adds him, and starts his attempt
there (its tables are run and shown by the dominoes cog like any other). When the attempt is
over the publisher posts its result in the thread, with the expert's own play of the deal as a
replay: once, marked in the store after the post, with a nonce (a crash between the two never
doubles it). ``/domino daily board`` answers privately: the day's board of the server or of
everyone, with results only for someone who finished that day's deal.
"""

from __future__ import annotations

from discord.ext import commands

from bot.daily.service import DailyService
from cogs.daily.cog import DailyCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store and a table service."""
    store = getattr(bot, "store", None)
    service = getattr(bot, "service", None)
    if store is None or service is None:
        raise RuntimeError("the daily cog needs bot.store and bot.service")
    options = {"expert_budget": service.ai_budget, **getattr(bot, "daily_options", {})}
    await bot.add_cog(DailyCog(bot, DailyService(store, service, **options)))
