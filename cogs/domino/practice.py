"""``/domino practice``: you against computer players, starting at once; only there, a Hint
button in your hand message says what the strongest computer player would play and why.

A mixin of the dominoes cog; it needs the cog's ``service``, ``presenter``, ``_guard`` and
table-opening helpers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot import computer
from bot.errors import NotYourTurn, ServiceError, TableFinished
from bot.hint import HINT_LEVEL, Hint, hint
from bot.i18n import N_, tr
from bot.store.table_extras import PracticeRepo
from bot.tables.service import TableInfo, TableService
from cogs.domino import texts
from cogs.domino.ids import DominoButton
from domino import Draw, Play, View

Interaction = discord.Interaction[Any]

VARIANT_CHOICES = [Choice(name=locale_str(v[1]), value=k) for k, v in texts.VARIANTS.items()]
LEVEL_CHOICES = [
    Choice(name=locale_str("Easy"), value="easy"),
    Choice(name=locale_str("Normal"), value="normal"),
    Choice(name=locale_str("Hard"), value="hard"),
    Choice(name=locale_str("Expert"), value="expert"),
]
DEFAULT_LEVEL = "normal"
STALE = N_("This was for an earlier state of the game; look at the latest message.")


async def is_practice(service: TableService, table_id: int) -> bool:
    return bool(await PracticeRepo(service.store.db).among([table_id]))


async def mark(service: TableService, table_id: int) -> None:
    """Make ``table_id`` a practice table (its hands offer hints)."""
    await PracticeRepo(service.store.db).add(table_id)


async def hint_buttons(
    service: TableService, locale: str | None, info: TableInfo, acting: View | None
) -> list[DominoButton]:
    """The Hint button for the player to move at a practice table (none elsewhere)."""
    if acting is None or info.status != "running" or not await is_practice(service, info.id):
        return []
    return [
        DominoButton(
            "hint",
            info.id,
            acting.hand_number,
            info.seq,
            label=tr(locale, "Hint"),
            style=discord.ButtonStyle.secondary,
            row=4,
        )
    ]


def action_text(locale: str | None, view: View, action: Any) -> str:
    """``play 6-4 on the left end (4)`` / ``draw a tile`` / ``pass``."""
    if isinstance(action, Play):
        if action.end in ("left", "right") and view.ends is not None:
            number = view.ends[0] if action.end == "left" else view.ends[1]
            if action.end == "left":
                return tr(locale, "play {tile} on the left end ({number})", tile=str(action.tile),
                          number=number)
            return tr(locale, "play {tile} on the right end ({number})", tile=str(action.tile),
                      number=number)
        return tr(locale, "play {tile}", tile=str(action.tile))
    if isinstance(action, Draw):
        return tr(locale, "draw a tile")
    return tr(locale, "pass")


def hint_text(locale: str | None, view: View, found: Hint) -> str:
    """One line: the move and why."""
    return tr(
        locale,
        "Hint from the expert computer player: {move}, because {reason}",
        move=action_text(locale, view, found.action),
        reason=tr(locale, found.reason, **found.params),
    )


class PracticeMixin:
    """``/domino practice`` and the Hint button."""

    service: Any
    presenter: Any
    _guard: Any
    _table_defaults: Any
    _check_place_free: Any
    _start: Any
    _opened: Any

    @app_commands.command(
        name="practice", description=locale_str("Play at once against computer players")
    )
    @app_commands.describe(
        variant=locale_str("The rules to play by"),
        level=locale_str("How strong the computer players are"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, level=LEVEL_CHOICES)
    async def practice_command(
        self, interaction: Interaction, variant: str, level: str = DEFAULT_LEVEL
    ) -> None:
        """Open a table of ``variant``, fill it with computers and start it."""
        locale = interaction.locale.value
        async with self._guard(interaction, "/domino practice", None):
            chosen = await self._table_defaults(interaction, variant=variant)
            self._check_place_free(interaction.channel)
            user = interaction.user
            guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
            info = await self.service.create_table(
                host_id=user.id,
                host_name=user.display_name[:32],
                variant=variant,
                options={"target": chosen.target} if chosen.target is not None else {},
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                turn_timer=chosen.turn_timer,
                locale=guild_locale,
            )
            await mark(self.service, info.id)
            for _ in info.groups[1:]:
                info = await self.service.add_computer(info.id, user.id, level=level)
            await interaction.response.send_message(
                tr(
                    guild_locale,
                    "{user} practises {variant} against computer players.",
                    user=user.mention,
                    variant=texts.variant_name(guild_locale, variant),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            message = await interaction.original_response()
            info = await self.service.set_messages(info.id, lobby_message_id=message.id)
            info = await self._start(info, user.id, fill=True)
            if await self._opened(interaction, info):
                await interaction.followup.send(
                    tr(locale, "Your practice table is ready: press **My tiles** there."),
                    ephemeral=True,
                )

    async def _btn_hint(
        self, interaction: Interaction, table_id: int, hand: str = "0", seq: str = "0"
    ) -> None:
        locale = interaction.locale.value
        info = await self.service.get(table_id)
        if info.status != "running":
            raise TableFinished("This table is closed.")
        if not await is_practice(self.service, table_id):
            raise ServiceError("Hints are for practice tables only.")
        views: Sequence[View] = await self.service.views_for(table_id, interaction.user.id)
        acting = next(
            (v for v in views if v.seat is not None and v.seat == info.turn and v.legal), None
        )
        if acting is None:
            raise NotYourTurn("It is not your turn.")
        if info.seq != int(seq):
            await interaction.followup.send(
                tr(locale, STALE),
                ephemeral=True,
            )
            return
        rng = computer.rng_for(f"hint/{table_id}", info.seq)
        found = await asyncio.to_thread(hint, acting, rng=rng)
        await interaction.followup.send(hint_text(locale, acting, found), ephemeral=True)


__all__ = ["HINT_LEVEL", "PracticeMixin", "hint_buttons", "is_practice", "mark"]
