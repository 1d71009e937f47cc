"""Correspondence tables (hours or days per move) on Discord: the turn's notice and reminder
(a mention in the table's thread, or a direct message for whoever chose them), ``/domino
turns`` (every table where it is your move, across servers) and ``/domino vacation``.

A mixin of the dominoes cog; it needs the cog's ``service``, ``bot``, ``guard`` and ``reply``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.errors import InvalidOptions
from bot.i18n import tr, trn
from bot.tables.values import MAX_VACATION_DAYS, VACATION_WINDOW, TableInfo
from cogs.domino import texts
from cogs.markup import slash_command

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TURNS_LISTED = 20  # tables listed in one answer (the rest are counted)
NO_MENTIONS = discord.AllowedMentions.none()


def stage(info: TableInfo, now: float) -> int:
    """Which notice of a turn is due: 1 as it begins, 2 (a correspondence turn) once its
    reminder time has come."""
    remind_at = info.remind_at
    return 2 if remind_at is not None and now >= remind_at else 1


def jump_url(info: TableInfo) -> str | None:
    """The address of the table's game message (None: not posted yet)."""
    row = info.table
    place = row.thread_id or row.channel_id
    if row.guild_id is None or place is None:
        return None
    if row.message_id is None:
        return f"https://discord.com/channels/{row.guild_id}/{place}"
    return f"https://discord.com/channels/{row.guild_id}/{place}/{row.message_id}"


def turn_notice(info: TableInfo, user: int, stage: int) -> str:
    """The notice (1) or the reminder (2) of a correspondence turn, in the table's language."""
    locale = info.table.locale
    when = f"<t:{int(info.deadline or 0)}:R>"
    if stage == 1:
        return tr(
            locale,
            "<@{user}>, it is your move at table {id}. Your time runs out {when}.",
            user=user,
            id=info.id,
            when=when,
        )
    return tr(
        locale,
        "<@{user}>, a reminder: it is still your move at table {id}, and your time runs out "
        "{when}.",
        user=user,
        id=info.id,
        when=when,
    )


async def by_dm(feed: Any, info: TableInfo, user: int, stage: int, turn: int) -> bool:
    """Send the turn's notice to ``user`` by direct message if he chose that; False: the
    thread's mention goes instead (he did not choose direct messages, or his are closed and he
    keeps turn pings on)."""
    chosen = await feed.service.player_settings(user)
    if not chosen.turn_dms:
        return False
    text = turn_notice(info, user, stage)
    link = jump_url(await feed.service.get(info.id))  # the game message may be just posted
    if link is not None:
        text += "\n" + link
    try:
        channel = await feed.bot.create_dm(discord.Object(user))
        await channel.send(
            text,
            allowed_mentions=NO_MENTIONS,
            nonce=".".join(("d", str(info.id), str(turn), str(stage)))[:25],
        )
    except discord.Forbidden:
        log.info("table %s: %s takes no direct messages", info.id, user)
        return not chosen.turn_pings
    return True


def turns_text(locale: str | None, bot: Any, turns: list[TableInfo]) -> str:
    """Every table where it is the person's move, each with its server and link."""
    if not turns:
        return tr(locale, "It is not your move at any table.")
    lines = [
        trn(
            locale,
            "It is your move at {count} table:",
            "It is your move at {count} tables:",
            len(turns),
        )
    ]
    for info in turns[:TURNS_LISTED]:
        guild = bot.get_guild(info.table.guild_id) if info.table.guild_id else None
        server = discord.utils.escape_markdown(guild.name) if guild is not None else "?"
        link = jump_url(info)
        lines.append(
            "• "
            + tr(
                locale,
                "{variant}, table {id} ({server}): time runs out {when}",
                variant=texts.variant_name(locale, info.ruleset.id),
                id=info.id,
                server=server,
                when=f"<t:{int(info.deadline or 0)}:R>",
            )
            + (f" · {link}" if link else "")
        )
    if len(turns) > TURNS_LISTED:
        lines.append(tr(locale, "… and {count} more.", count=len(turns) - TURNS_LISTED))
    return "\n".join(lines)


class CorrespondenceMixin:
    """``/domino turns`` and ``/domino vacation``."""

    service: Any
    bot: Any

    @app_commands.command(
        name="turns", description=locale_str("Every table where it is your move, in any server")
    )
    async def turns(self, interaction: Interaction) -> None:
        """The tables waiting for the person's move, with links (a private answer)."""
        locale = interaction.locale.value
        async with self.guard(interaction, "/domino turns", None):  # type: ignore[attr-defined]
            found = await self.service.turns(interaction.user.id)
            await self.reply(  # type: ignore[attr-defined]
                interaction,
                turns_text(locale, self.bot, found),
                allowed_mentions=NO_MENTIONS,
                suppress_embeds=True,
            )

    @app_commands.command(
        name="vacation", description=locale_str("Pause your correspondence tables for a few days")
    )
    @app_commands.describe(days=locale_str("How many days (1-7); left out: what you have left"))
    async def vacation(self, interaction: Interaction, days: int | None = None) -> None:
        """Take a vacation (BGA's: a few a season), or see how many are left."""
        locale = interaction.locale.value
        user = interaction.user.id
        async with self.guard(interaction, "/domino vacation", None):  # type: ignore[attr-defined]
            if days is None:
                _, left = await self.service.vacations(user)
                text = vacations_left(locale, left)
                await self.reply(interaction, text)  # type: ignore[attr-defined]
                return
            if not 1 <= days <= MAX_VACATION_DAYS:
                raise InvalidOptions("A vacation lasts 1 to {max} days.", max=MAX_VACATION_DAYS)
            taken = await self.service.take_vacation(user, days)
            until = f"<t:{int(taken.vacation.ends_at)}:f>"
            text = trn(
                locale,
                "Enjoy your vacation! Your {count} correspondence table is paused until "
                "{until}.",
                "Enjoy your vacation! Your {count} correspondence tables are paused until "
                "{until}.",
                len(taken.tables),
                until=until,
            )
            await self.reply(  # type: ignore[attr-defined]
                interaction, text + "\n" + vacations_left(locale, taken.left)
            )


def vacations_left(locale: str | None, left: int) -> str:
    """How many vacations the person may still take, and the command."""
    return trn(
        locale,
        "You have {count} vacation left in {days} days ({command}).",
        "You have {count} vacations left in {days} days ({command}).",
        left,
        days=VACATION_WINDOW // (24 * 3600),
        command=slash_command(locale, "domino vacation"),
    )
