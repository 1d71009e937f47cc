"""``/domino review table [hand]`` and the Review button of the match-end post: the expert's
review of the asker's own decisions in a finished match of his, answered privately.

The review (:mod:`bot.review`) says per hand how many inaccuracies, mistakes and blunders the
asker made, and shows his costliest decisions: the table then with his own tiles, his move,
the expert's and why, and the estimated cost. A thin adapter: the checks and the judgement
are the service's, errors become ephemeral answers through the dominoes cog's guard.
"""

from __future__ import annotations

from discord.ext import commands

from bot.review import Reviews
from cogs.review.cog import ReviewCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a table service."""
    service = getattr(bot, "service", None)
    if service is None:
        raise RuntimeError("the review cog needs bot.service (a TableService)")
    await bot.add_cog(ReviewCog(bot, Reviews(service.store, clock=service.clock)))
