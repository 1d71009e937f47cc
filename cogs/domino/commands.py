"""The ``/domino`` slash commands: new, challenge, rules, settings, leave, cancel (and, from
their mixins, practice, replay and server-settings).

Thin: read the options, call the table service, answer. Errors a user causes come back as
short ephemeral answers in his language (the guard of :class:`~cogs.domino.host.TableHost`).
The buttons are in :mod:`cogs.domino.buttons`.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.errors import InvalidOptions
from bot.i18n import N_, tr
from bot.store import PlayerSettingsRow
from bot.tables.service import MAX_TURN_TIMER, MIN_TURN_TIMER, TableInfo
from cogs.domino import rules_pages, texts
from cogs.domino.buttons import COG_NAME, confirm_resign
from cogs.domino.choices import (
    ON_OFF_CHOICES,
    PACE_CHOICES,
    RULES_CHOICES,
    TARGET_CHOICES,
    VARIANT_CHOICES,
    option_choices,
)
from cogs.domino.correspondence import CorrespondenceMixin
from cogs.domino.host import TableHost, guild_locale, locale_of
from cogs.domino.lobby import lobby_payload
from cogs.domino.pool import PoolMixin
from cogs.domino.practice import PracticeMixin
from cogs.domino.replay import ReplayMixin
from cogs.domino.server_settings import ServerSettingsMixin
from cogs.markup import slash_command
from cogs.names import table_name
from cogs.places import place_of
from domino import PRESETS

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
PARTNER_OPTIONS = ("first_hand", "next_hand", "scoring", "blocked", "bonuses")


@app_commands.guild_only()
class DominoCog(
    CorrespondenceMixin,
    ServerSettingsMixin,
    PoolMixin,
    ReplayMixin,
    PracticeMixin,
    TableHost,
    commands.GroupCog,
    name=COG_NAME,
    group_name="domino",
    group_description=locale_str("Play dominoes: tables, challenges, rules"),
):
    """``/domino new|challenge|rules|settings|leave|cancel``; the host of every button click."""

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="new", description=locale_str("Open a table and wait for players"))
    @app_commands.describe(
        variant=locale_str("The rules to play by"),
        target=locale_str("Points to win the match (the variant's default if left out)"),
        turn_timer=locale_str("Seconds per turn before the bot plays for you (30-600)"),
        pace=locale_str("A correspondence table: hours or days per move"),
        first_hand=locale_str("Partners only: who opens the first hand"),
        next_hand=locale_str("Partners only: who opens later hands"),
        scoring=locale_str("Partners only: whose pips a domino scores"),
        blocked=locale_str("Partners only: who wins a blocked hand"),
        forced_moves=locale_str("Play a person's only possible move for them after 3 seconds"),
        bonuses=locale_str("Partners only: Latin bonuses (premios)"),
        players=locale_str("All Fives only: 2, 3 or 4 players (4 play in pairs)"),
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        target=TARGET_CHOICES,
        pace=PACE_CHOICES,
        first_hand=option_choices("first_hand"),
        next_hand=option_choices("next_hand"),
        scoring=option_choices("scoring"),
        blocked=option_choices("blocked"),
    )
    async def new(
        self,
        interaction: Interaction,
        variant: str | None = None,
        target: int | None = None,
        turn_timer: app_commands.Range[int, MIN_TURN_TIMER, MAX_TURN_TIMER] | None = None,
        first_hand: str | None = None,
        next_hand: str | None = None,
        scoring: str | None = None,
        blocked: str | None = None,
        forced_moves: bool | None = None,
        bonuses: bool | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        pace: int | None = None,
    ) -> None:
        """Open a lobby in this channel (options left out: the server's defaults)."""
        async with self.guard(interaction, "/domino new", None):
            chosen = await self._table_defaults(
                interaction, variant=variant, target=target, turn_timer=paced(turn_timer, pace)
            )
            variant = chosen.variant
            options: dict[str, Any] = {
                "target": chosen.target,
                "first_hand": first_hand,
                "next_hand": next_hand,
                "scoring": scoring,
                "blocked": blocked,
                "bonuses": bonuses,
                "forced_moves": forced_moves,
                "players": players,
            }
            if variant != "all-fives" and players is not None:
                raise InvalidOptions("The option players is for All Fives only.")
            if variant != "partners" and any(options[k] is not None for k in PARTNER_OPTIONS):
                raise InvalidOptions(
                    "The options first_hand, next_hand, scoring, blocked and bonuses are for "
                    "partners only."
                )
            self.check_permissions(interaction)
            self.check_place_free(interaction.channel)
            info = await self.service.create_table(
                host_id=interaction.user.id,
                host_name=table_name(interaction.user),
                variant=variant,
                options={k: v for k, v in options.items() if v is not None},
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                **place_of(interaction.channel),
                turn_timer=chosen.turn_timer,
                locale=guild_locale(interaction),
            )
            # (the lobby names its host in his seat without notifying him: he just asked)
            await interaction.response.send_message(
                view=lobby_payload(info, info.table.locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            message = await interaction.original_response()
            await self.service.set_messages(info.id, lobby_message_id=message.id)

    @app_commands.command(
        name="challenge", description=locale_str("Invite people to a table of a variant")
    )
    @app_commands.describe(
        variant=locale_str("The rules to play by"),
        player=locale_str("Who you invite"),
        player2=locale_str("Another person you invite"),
        player3=locale_str("Another person you invite"),
        target=locale_str("Points to win the match (the variant's default if left out)"),
        turn_timer=locale_str("Seconds per turn before the bot plays for you (30-600)"),
        pace=locale_str("A correspondence table: hours or days per move"),
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES, target=TARGET_CHOICES, pace=PACE_CHOICES
    )
    async def challenge(
        self,
        interaction: Interaction,
        variant: str,
        player: discord.Member | discord.User,
        player2: discord.Member | discord.User | None = None,
        player3: discord.Member | discord.User | None = None,
        target: int | None = None,
        turn_timer: app_commands.Range[int, MIN_TURN_TIMER, MAX_TURN_TIMER] | None = None,
        pace: int | None = None,
    ) -> None:
        """Challenge named people; the match starts when all of them accepted."""
        locale = locale_of(interaction)
        async with self.guard(interaction, "/domino challenge", None):
            chosen = await self._table_defaults(
                interaction, variant=variant, target=target, turn_timer=paced(turn_timer, pace)
            )
            invited: list[int] = []
            for user in (player, player2, player3):
                if user is None or user.id in invited:
                    continue
                if user.bot:
                    await self.reply(interaction, tr(locale, "Bots cannot accept challenges."))
                    return
                if user.id == interaction.user.id:
                    await self.reply(interaction, tr(locale, "You cannot challenge yourself."))
                    return
                invited.append(user.id)
            self.check_permissions(interaction)
            self.check_place_free(interaction.channel)
            ruleset_people = PRESETS[variant].people
            if len(invited) + 1 > ruleset_people:
                await self.reply(
                    interaction,
                    tr(
                        locale,
                        "{variant} seats at most {people} people.",
                        variant=texts.variant_name(locale, variant),
                        people=ruleset_people,
                    ),
                )
                return
            info = await self.service.create_table(
                host_id=interaction.user.id,
                host_name=table_name(interaction.user),
                variant=variant,
                options={"target": chosen.target} if chosen.target is not None else {},
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                **place_of(interaction.channel),
                turn_timer=chosen.turn_timer,
                locale=guild_locale(interaction),
                invited=invited,
            )
            await interaction.response.send_message(
                view=lobby_payload(info, info.table.locale),
                # (the invited are notified; the challenger is named, he just asked)
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(u) for u in invited], roles=False, everyone=False
                ),
            )
            message = await interaction.original_response()
            await self.service.set_messages(info.id, lobby_message_id=message.id)

    @app_commands.command(name="rules", description=locale_str("The rules of a variant"))
    @app_commands.describe(variant=locale_str("The variant (all of them if left out)"))
    @app_commands.choices(variant=RULES_CHOICES)
    async def rules(self, interaction: Interaction, variant: str | None = None) -> None:
        """The rules text (with the decisions where the sources are silent)."""
        locale = locale_of(interaction)
        async with self.guard(interaction, "/domino rules", None):
            # One section at a time; the menu under it turns to the others.
            embed, view = rules_pages.answer(
                locale, interaction.user.id, variant or rules_pages.OVERVIEW
            )
            await interaction.response.send_message(
                embed=embed, view=view or discord.utils.MISSING, ephemeral=True
            )

    @app_commands.command(name="settings", description=locale_str("Your own settings"))
    @app_commands.describe(
        turn_pings=locale_str("Be mentioned when your turn begins and again at half time"),
        turn_dms=locale_str("Correspondence tables: be told of your turn by direct message"),
    )
    @app_commands.choices(turn_pings=ON_OFF_CHOICES, turn_dms=ON_OFF_CHOICES)
    async def settings(
        self, interaction: Interaction, turn_pings: str | None = None, turn_dms: str | None = None
    ) -> None:
        """Show your settings, or change them."""
        locale = locale_of(interaction)
        user_id = interaction.user.id
        async with self.guard(interaction, "/domino settings", None):
            current = await self.service.player_settings(user_id)
            changed = turn_pings is not None or turn_dms is not None
            if turn_pings is not None:
                current = dataclasses.replace(current, turn_pings=turn_pings == "on")
            if turn_dms is not None:
                current = dataclasses.replace(current, turn_dms=turn_dms == "on")
            if changed:
                await self.service.save_player_settings(current)
                for info in self.service.tables_of(user_id):
                    self.presenter.wake(info.id)
            await self.reply(interaction, settings_text(locale, current, changed=changed))

    @app_commands.command(
        name="leave", description=locale_str("Leave a lobby, or resign: your side loses the match")
    )
    @app_commands.describe(table=locale_str("The table, when you sit at several"))
    async def leave(self, interaction: Interaction, table: int | None = None) -> None:
        """Leave the lobby you sit in, or resign (after a confirmation) the match you play."""
        locale = locale_of(interaction)
        user = interaction.user
        async with self.guard(interaction, "/domino leave", table):
            tables = self.service.tables_of(user.id, interaction.guild_id)
            if table is not None:
                candidates = [t for t in tables if t.id == table]
            else:
                here = [t for t in tables if self.is_here(t, interaction.channel_id)]
                candidates = here or tables
            info = await self._the_table(
                interaction,
                candidates,
                none=N_("You have no seat at an open table."),
                several=N_("You sit at several tables: say which with the table option ({ids})."),
            )
            if info is None:
                return
            if info.status == "lobby":
                await self.service.leave(info.id, user.id)
                await self.reply(interaction, tr(locale, "You left table {id}.", id=info.id))
                return
            text, view = confirm_resign(locale, info.id)
            await self.reply(interaction, text, view=view)

    @app_commands.command(
        name="cancel", description=locale_str("Cancel the table here (host or Manage Server)")
    )
    @app_commands.describe(table=locale_str("The table, when there are several"))
    async def cancel(self, interaction: Interaction, table: int | None = None) -> None:
        """Cancel a table of this server that you host (any, with Manage Server)."""
        locale = locale_of(interaction)
        async with self.guard(interaction, "/domino cancel", table):
            manager = bool(interaction.permissions.manage_guild)
            mine = self.service.tables_in_guild(interaction.guild_id)
            if table is not None:
                candidates = [t for t in mine if t.id == table]
            else:
                candidates = [t for t in mine if self.is_here(t, interaction.channel_id)]
            info = await self._the_table(
                interaction,
                candidates,
                none=N_("There is no table to cancel here."),
                several=N_(
                    "Several tables are open here: say which with the table option ({ids})."
                ),
            )
            if info is None:
                return
            await self.service.cancel(info.id, interaction.user.id, force=manager)
            await self.reply(interaction, tr(locale, "Table {id} was cancelled.", id=info.id))

    async def _the_table(
        self, interaction: Interaction, candidates: list[TableInfo], *, none: str, several: str
    ) -> TableInfo | None:
        """The one table a command means; else None, after saying there is ``none`` or asking
        which of ``several``."""
        locale = locale_of(interaction)
        if not candidates:
            await self.reply(interaction, tr(locale, none))
            return None
        if len(candidates) > 1:
            ids = ", ".join(str(t.id) for t in candidates)
            await self.reply(interaction, tr(locale, several, ids=ids))
            return None
        return candidates[0]

    def _cancellable(self, interaction: Interaction) -> list[TableInfo]:
        """Open tables of this server the user may cancel."""
        manager = bool(interaction.permissions.manage_guild)
        return [
            t
            for t in self.service.tables_in_guild(interaction.guild_id)
            if manager or t.host_id == interaction.user.id
        ]

    @leave.autocomplete("table")
    async def _leave_choices(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        tables = self.service.tables_of(interaction.user.id, interaction.guild_id)
        return self._table_choices(interaction, tables, current)

    @cancel.autocomplete("table")
    async def _cancel_choices(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        return self._table_choices(interaction, self._cancellable(interaction), current)

    @staticmethod
    def _table_choices(
        interaction: Interaction, tables: list[TableInfo], current: str
    ) -> list[Choice[int]]:
        locale = locale_of(interaction)
        out = []
        for t in tables:
            if current and current not in str(t.id):
                continue
            label = tr(
                locale,
                "Table {id} · {variant}",
                id=t.id,
                variant=texts.variant_name(locale, t.ruleset.id),
            )
            out.append(Choice(name=label[:100], value=t.id))
        return out[:25]


def paced(turn_timer: int | None, pace: int | None) -> int | None:
    """The turn timer a table is opened with: the seconds chosen, or a correspondence pace."""
    if turn_timer is not None and pace is not None:
        raise InvalidOptions("Choose a turn timer or a pace, not both.")
    return pace if pace is not None else turn_timer


def settings_text(locale: str | None, settings: PlayerSettingsRow, *, changed: bool) -> str:
    """A player's settings, each with what it does."""
    lines = [tr(locale, "Saved. Your settings:") if changed else tr(locale, "Your settings:")]
    if settings.turn_pings:
        lines.append(
            tr(
                locale,
                "Turn pings: **on**. You are mentioned in the table's thread when your turn "
                "begins and again at half time; the mention goes once you have moved.",
            )
        )
    else:
        lines.append(
            tr(
                locale,
                "Turn pings: **off**. Nobody mentions you when your turn comes; the game "
                "message still shows whose turn it is.",
            )
        )
    lines.append(
        tr(
            locale,
            "Direct messages: **on**. At correspondence tables, your turn and its reminder "
            "come by direct message.",
        )
        if settings.turn_dms
        else tr(
            locale,
            "Direct messages: **off**. At correspondence tables, you are mentioned in the "
            "table's thread.",
        )
    )
    lines.append(tr(locale, "Change them with {command}.",
                    command=slash_command(locale, "domino settings")))
    return "\n".join(lines)
