"""``/domino practice``: you against computer players, starting at once; only there, a Hint
button in your hand message says what the strongest computer player would play and why.

A mixin of the dominoes cog; it needs the cog's ``service``, ``presenter``, ``guard`` and
table-opening helpers.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.errors import ServiceError
from bot.i18n import tr, trn
from bot.tables.hint import HINT_LEVEL, Hint
from bot.tables.practice import hint_at, mark
from bot.tables.service import TableService
from cogs.domino import texts
from cogs.domino.choices import LEVEL_CHOICES, VARIANT_CHOICES
from cogs.names import table_name
from cogs.places import place_of
from domino import Draw, Pass, Play, View

Interaction = discord.Interaction[Any]

DEFAULT_LEVEL = "normal"


def action_text(locale: str | None, view: View, action: Play) -> str:
    """``play 6-4 on the 4``: the end named by its number, as the buttons and the picture's
    end discs show it (``on either 6`` where two open ends show that number)."""
    ends = dict(view.open_ends)
    if view.ends is not None:
        ends.setdefault("left", view.ends[0])
        ends.setdefault("right", view.ends[1])
    number = ends.get(action.end) if action.end is not None else None
    if number is None:
        return tr(locale, "play {tile}", tile=str(action.tile))
    if list(ends.values()).count(number) > 1:
        return tr(locale, "play {tile} on either {number}", tile=str(action.tile), number=number)
    return tr(locale, "play {tile} on the {number}", tile=str(action.tile), number=number)


def reason_text(locale: str | None, found: Hint) -> str:
    """Why, in the player's words (a count said with its plural form)."""
    params = found.params
    if found.reason == "it keeps {count} of your {total} tiles playable on the new ends.":
        count, total = int(params["count"]), int(params["total"])
        if count == total == 1:
            return tr(locale, "your last tile still fits one of the new ends.")
        if count == total:
            return tr(locale, "all {total} of your tiles still fit the new ends.", total=total)
        return trn(
            locale,
            "one of your {total} tiles still fits the new ends.",
            "{count} of your {total} tiles still fit the new ends.",
            count,
            total=total,
        )
    if found.reason == "it gives your side the best result over many simulated deals.":
        return tr(
            locale,
            "the expert played this position out many times, with the tiles you cannot see "
            "dealt in every way that fits the game so far, and this move did best for your "
            "side.",
        )
    return tr(locale, found.reason, **params)


def hint_text(locale: str | None, view: View, found: Hint) -> str:
    """One line: the move and why; a pass or a draw has its own sentence."""
    if isinstance(found.action, Pass):
        return tr(locale, "Hint: no tile fits and you cannot draw, so you pass.")
    if isinstance(found.action, Draw):
        return tr(locale, "Hint: no tile fits, so you draw.")
    return tr(
        locale,
        "Hint: {move}, because {reason}",
        move=action_text(locale, view, found.action),
        reason=reason_text(locale, found),
    )


class PracticeMixin:
    """``/domino practice`` and the Hint button."""

    service: Any
    presenter: Any
    guard: Any
    _table_defaults: Any
    check_permissions: Any
    check_start_place: Any
    start: Any
    opened: Any

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
        """Open a table of ``variant``, fill it with computers and start it; if it cannot
        start, nothing of it stays (no table, no announcement)."""
        locale = interaction.locale.value
        async with self.guard(interaction, "/domino practice", None):
            chosen = await self._table_defaults(interaction, variant=variant)
            self.check_permissions(interaction)
            self.check_start_place(interaction.channel)
            user = interaction.user
            guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
            info = await self.service.create_table(
                host_id=user.id,
                host_name=table_name(user),
                variant=variant,
                options={"target": chosen.target} if chosen.target is not None else {},
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                **place_of(interaction.channel),
                turn_timer=chosen.turn_timer,
                locale=guild_locale,
            )
            try:
                await mark(self.service, info.id)
                for _ in info.groups[1:]:
                    info = await self.service.add_computer(info.id, user.id, level=level)
                # Posted before the start: the table's thread is made from this message.
                await interaction.response.send_message(
                    tr(
                        guild_locale,
                        "{user} practises {variant} against computer players.",
                        user=user.mention,
                        variant=texts.variant_name(guild_locale, variant),
                    )
                    + " "
                    + tr(guild_locale, "Practice is not rated."),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                message = await interaction.original_response()
                info = await self.service.set_messages(info.id, lobby_message_id=message.id)
                info = await self.start(info, user.id, fill=True)
            except Exception:
                await self._drop_practice(interaction, info.id)
                raise
            if await self.opened(interaction, info):
                await interaction.followup.send(
                    tr(locale, "Your practice table is ready: press **My tiles** there."),
                    ephemeral=True,
                )
            else:
                await self._unannounce(interaction)

    async def _drop_practice(self, interaction: Interaction, table_id: int) -> None:
        """Undo a practice table that could not start: cancel it, remove its announcement."""
        with contextlib.suppress(ServiceError):
            await self.service.cancel(table_id, interaction.user.id, force=True)
        await self._unannounce(interaction)

    @staticmethod
    async def _unannounce(interaction: Interaction) -> None:
        """Delete the public announcement of a practice table that does not run."""
        if interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()


def practice_card(layout: discord.ui.LayoutView, locale: str | None) -> discord.ui.LayoutView:
    """A practice table's card (its lobby message) with the note that practice is not rated,
    as the announcement said before the card replaced it."""
    note = discord.ui.TextDisplay("-# " + tr(locale, "Practice is not rated."))
    for item in layout.children:
        if isinstance(item, discord.ui.Container):
            item.add_item(note)
            return layout
    layout.add_item(note)
    return layout


async def hint_answer(
    service: TableService, locale: str | None, table_id: int, user_id: int, seq: int
) -> str:
    """What the Hint button answers ``user_id``, made at the state ``seq`` of a practice table:
    the strongest computer player's move for him and why (or that the button is stale)."""
    found = await hint_at(service, table_id, user_id, seq)
    if found is None:
        return tr(locale, texts.STALE)
    return hint_text(locale, *found)


__all__ = ["HINT_LEVEL", "PracticeMixin", "hint_answer", "practice_card"]
