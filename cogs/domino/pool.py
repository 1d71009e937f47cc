"""``/domino pool``: whether a person may be seated with people of other servers (the open
pool), and whether this server is in it.

A mixin of the dominoes cog (its command joins the ``/domino`` group); it needs the cog's
``service``, ``guard`` and ``reply``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import tr
from bot.servers.pool import OpenPool
from cogs.domino.choices import ON_OFF_CHOICES

Interaction = discord.Interaction[Any]


def pool_text(locale: str | None, *, server_in: bool, out: bool, changed: bool) -> str:
    """What ``/domino pool`` answers: the person's choice and the server's."""
    lines = []
    if changed:
        lines.append(tr(locale, "Saved."))
    lines.append(
        tr(locale, "You may be seated with people of other servers: no (you opted out).")
        if out
        else tr(locale, "You may be seated with people of other servers: yes.")
    )
    lines.append(
        tr(locale, "This server is in the open pool.")
        if server_in
        else tr(locale, "This server is not in the open pool (its managers can join it).")
    )
    lines.append(
        tr(
            locale,
            "At a table across servers, each server sees the table in its own channel and the "
            "other servers see only your global name.",
        )
    )
    return "\n".join(lines)


class PoolMixin:
    """``/domino pool``."""

    service: Any
    guard: Any
    reply: Any

    @app_commands.command(
        name="pool", description=locale_str("Play with people of other servers, or not")
    )
    @app_commands.describe(
        join=locale_str("Be seated with people of other servers when your server allows it")
    )
    @app_commands.choices(join=ON_OFF_CHOICES)
    async def pool_command(self, interaction: Interaction, join: str | None = None) -> None:
        """Show the person's and the server's place in the open pool; change his."""
        locale = interaction.locale.value
        async with self.guard(interaction, "/domino pool", None):
            pool = OpenPool(self.service.store, clock=self.service.clock)
            user_id = interaction.user.id
            if join is not None:
                await pool.set_opted_out(user_id, join == "off")
            server_in = interaction.guild_id is not None and await pool.joined(
                interaction.guild_id
            )
            text = pool_text(
                locale,
                server_in=server_in,
                out=await pool.opted_out(user_id),
                changed=join is not None,
            )
            await self.reply(interaction, text)
