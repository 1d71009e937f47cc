"""``/domino tournament``: a server's events in Discord, a thin adapter of the tournament service.

The commands and buttons call :class:`~bot.tournaments.service.TournamentService` (which holds
every rule and every row); the publisher brings each event's public messages up to date with the
store, in order, each exactly once: the announcement, each round's check-in, pairings, the
mentions in each table's thread, the standings (an embed and a picture), result corrections,
and the end (the podium with rating changes and the winner role, or the cancellation). A post
is marked in the store after it is made and carries a nonce, so a crash between the two never
doubles it. Buttons carry the event (and round) in their custom id and keep working across
restarts: ``tournament:<kind>:<event>[:<argument>]``.
"""

from __future__ import annotations

from discord.ext import commands

from bot.tournaments.service import (
    TourLimits,
    TournamentService,
)
from cogs.tournaments.cog import TournamentCog


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store and a table service."""
    store = getattr(bot, "store", None)
    service = getattr(bot, "service", None)
    if store is None or service is None:
        raise RuntimeError("the tournament cog needs bot.store and bot.service")
    settings = getattr(bot, "settings", None)
    limits = TourLimits(
        events_per_server=getattr(settings, "tournaments_per_server", 3),
        entrants_per_event=getattr(settings, "tournament_entrants", 256),
    )
    options = getattr(bot, "tournament_options", {})
    await bot.add_cog(
        TournamentCog(bot, TournamentService(store, service, limits=limits, **options))
    )
