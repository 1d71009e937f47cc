"""``/domino replay``: an animated picture of a finished match, or of one of its hands.

A match of yours, or one played on this server, chosen by autocomplete. The picture is
rebuilt from the stored action log (:mod:`bot.replay`), one frame per move, and drawn off the
event loop. A mixin of the dominoes cog; it needs the cog's ``service`` and ``guard``.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot import pictures, replay
from bot.errors import TableNotFound
from bot.i18n import picture_options, tr
from bot.store.table_extras import FinishedMatch, FinishedRepo
from cogs.domino import texts
from cogs.domino.alt_text import replay_alt_text

Interaction = discord.Interaction[Any]
REPLAY_PICTURE = "replay.gif"


def match_label(locale: str | None, match: FinishedMatch) -> str:
    """``Table 12 · Draw · Alice, Bob · 2026-11-23`` (at most 100 characters)."""
    day = dt.datetime.fromtimestamp(match.finished_at, dt.UTC).strftime("%Y-%m-%d")
    players = ", ".join(n for n in match.names if n) or "-"
    label = tr(
        locale,
        "Table {id} · {variant} · {players} · {day}",
        id=match.table_id,
        variant=texts.variant_name(locale, match.variant),
        players=players,
        day=day,
    )
    return label if len(label) <= 100 else label[:99] + "…"


class ReplayMixin:
    """``/domino replay``."""

    service: Any
    guard: Any

    @app_commands.command(
        name="replay", description=locale_str("Watch a finished match again, move by move")
    )
    @app_commands.describe(
        table=locale_str("The match (yours, or one played on this server)"),
        hand=locale_str("Only this hand (the whole match if left out)"),
        share=locale_str("Post it for everyone here (only you see it if left out)"),
    )
    async def replay_command(
        self,
        interaction: Interaction,
        table: int,
        hand: app_commands.Range[int, 1, 999] | None = None,
        share: bool = False,
    ) -> None:
        """Send the animated replay."""
        locale = interaction.locale.value
        async with self.guard(interaction, "/domino replay", table):
            repo = FinishedRepo(self.service.store.db)
            found = await repo.visible(
                interaction.user.id, interaction.guild_id, table_id=table, limit=1
            )
            if not found:
                raise TableNotFound("No match was played at table {table_id}.", table_id=table)
            await interaction.response.defer(ephemeral=not share, thinking=True)
            stored = await replay.load(self.service.store, table)
            frames = stored.select(hand)  # an unknown hand is refused before drawing
            info = await self.service.get(table)
            public = info.table.locale if share else locale
            names = texts.picture_names(info, public)
            gif = await pictures.replay_gif(
                stored, names, hand=hand, **picture_options(public)
            )
            description = replay_alt_text(names, len(frames), public, hand)
            file = discord.File(io.BytesIO(gif), filename=REPLAY_PICTURE, description=description)
            title = match_label(public, found[0])
            if hand is not None:
                title = tr(public, "{match} · hand {hand}", match=title, hand=hand)
            await interaction.followup.send(
                tr(public, "Replay: {title} ({moves} moves)", title=title, moves=len(frames)),
                file=file,
                ephemeral=not share,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @replay_command.autocomplete("table")
    async def _replay_choices(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        locale = interaction.locale.value
        repo = FinishedRepo(self.service.store.db)
        matches = await repo.visible(interaction.user.id, interaction.guild_id, limit=100)
        wanted = current.strip().casefold()
        out = []
        for match in matches:
            label = match_label(locale, match)
            if wanted and wanted not in label.casefold():
                continue
            out.append(Choice(name=label, value=match.table_id))
        return out[:25]
