"""``/domino play``: the quick match in Discord, a thin adapter of the queue's service.

A person queues with the command or a server's "Play now" post and gets a private answer with
a Leave button; when his table fills, the dominoes cog shows it like any other table, and the
publisher mentions its people in its thread once (a nonce, then marked in the store).
"""

from __future__ import annotations

from discord.ext import commands

from bot.queue.service import QueueService
from cogs.queue.cog import QueueCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store and a table service."""
    store = getattr(bot, "store", None)
    service = getattr(bot, "service", None)
    if store is None or service is None:
        raise RuntimeError("the queue cog needs bot.store and bot.service")
    options = dict(getattr(bot, "queue_options", {}))
    await bot.add_cog(QueueCog(bot, QueueService(store, service), **options))
