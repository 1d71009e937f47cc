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

from discord.ext import commands

from bot.records.seasons import calendar_of
from bot.records.service import (
    Records,
)
from cogs.records.cog import RecordsCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store (``bot.store``)."""
    store = getattr(bot, "store", None)
    if store is None:
        raise RuntimeError("the records cog needs bot.store (a Store)")
    calendar = calendar_of(getattr(bot, "settings", None))
    await bot.add_cog(RecordsCog(bot, Records(store, seasons=calendar)))
