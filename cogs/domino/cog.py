"""The ``/domino`` commands and the buttons of lobbies, challenges, game and hand messages.

Thin: parse the input, call the table service, let the presenter render and send. Errors a
user causes come back as short ephemeral answers in his language; a missing channel
permission is explained; anything unexpected is logged with the table id and apologised for.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.errors import (
    InvalidOptions,
    PlaceBusy,
    ServiceError,
)
from bot.i18n import tr
from bot.tables.service import (
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    TableInfo,
    TableService,
)
from cogs.domino import buttons, texts, ui
from cogs.domino.buttons import COG_NAME, BadButton, confirm_resign
from cogs.domino.practice import PracticeMixin
from cogs.domino.presenter import Presenter
from cogs.domino.replay import ReplayMixin
from cogs.domino.server_settings import ServerSettingsMixin
from cogs.markup import error_text
from cogs.names import table_name
from cogs.rules_text import common_rules, rules_text
from domino import OPTION_CHOICES, PRESETS, Tile

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TARGET_CHOICES = sorted({t for c in OPTION_CHOICES.values() for t in c.get("target", ())})
PARTNER_OPTIONS = ("first_hand", "next_hand", "scoring", "blocked", "bonuses")

VARIANT_CHOICES = [Choice(name=locale_str(v[1]), value=k) for k, v in texts.VARIANTS.items()]


def _option_choices(option: str) -> list[Choice[str]]:
    return [Choice(name=locale_str(text), value=value)
            for (key, value), text in texts.OPTION_TEXTS.items() if key == option]


FIRST_HAND_CHOICES = _option_choices("first_hand")
NEXT_HAND_CHOICES = _option_choices("next_hand")
SCORING_CHOICES = _option_choices("scoring")
BLOCKED_CHOICES = _option_choices("blocked")


def _locale(interaction: Interaction) -> str:
    return interaction.locale.value


def _guild_locale(interaction: Interaction) -> str | None:
    return interaction.guild_locale.value if interaction.guild_locale else None


@app_commands.guild_only()
class DominoCog(
    ServerSettingsMixin,
    ReplayMixin,
    PracticeMixin,
    commands.GroupCog,
    name=COG_NAME,
    group_name="domino",
    group_description=locale_str("Play dominoes: tables, challenges, rules"),
):
    """``/domino new|challenge|rules|leave|cancel`` and every button of the game."""

    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.presenter = Presenter(bot, service)
        self._handlers: set[asyncio.Task[Any]] = set()  # interactions being handled

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*buttons.ALL)
        self.presenter.start()

    async def cog_unload(self) -> None:
        running = [t for t in self._handlers if t is not asyncio.current_task()]
        if running:
            await asyncio.wait(running, timeout=5.0)
        await self.presenter.close()
        self.bot.remove_dynamic_items(*buttons.ALL)

    # ------------------------------------------------------------------ error handling

    async def idle(self) -> None:
        """Wait until no interaction is being handled and no Discord work is queued."""
        while True:
            running = [t for t in self._handlers if t is not asyncio.current_task()]
            if running:
                await asyncio.wait(running)
            await self.presenter.idle()
            if not [t for t in self._handlers if t is not asyncio.current_task()]:
                return

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, **kwargs)
            else:
                await interaction.response.send_message(text, ephemeral=True, **kwargs)
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)

    @contextlib.asynccontextmanager
    async def guard(
        self, interaction: Interaction, what: str, table_id: int | None
    ) -> AsyncIterator[None]:
        """Turn errors into ephemeral answers: service errors, permissions, the unexpected."""
        locale = _locale(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            yield
        except ServiceError as exc:
            await self.reply(interaction, error_text(locale, exc))
        except BadButton:
            await self.reply(interaction, tr(locale, "This button is not valid any more."))
        except discord.Forbidden as exc:
            log.info("table %s: %s: Discord refused: %s", table_id, what, exc.text)
            await self.reply(interaction, ui.permission_text(locale))
        except Exception:
            log.exception("table %s: %s failed", table_id, what)
            await self.reply(interaction, ui.apology_text(locale))
        finally:
            if task is not None:
                self._handlers.discard(task)

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="new", description=locale_str("Open a table and wait for players"))
    @app_commands.describe(
        variant=locale_str("The rules to play by"),
        target=locale_str("Points to win the match (the variant's default if left out)"),
        turn_timer=locale_str("Seconds per turn before the bot plays for you (30-600)"),
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
        target=[Choice(name=str(t), value=t) for t in TARGET_CHOICES],
        first_hand=FIRST_HAND_CHOICES,
        next_hand=NEXT_HAND_CHOICES,
        scoring=SCORING_CHOICES,
        blocked=BLOCKED_CHOICES,
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
    ) -> None:
        """Open a lobby in this channel (options left out: the server's defaults)."""
        async with self.guard(interaction, "/domino new", None):
            chosen = await self._table_defaults(
                interaction, variant=variant, target=target, turn_timer=turn_timer
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
            self._check_place_free(interaction.channel)
            info = await self.service.create_table(
                host_id=interaction.user.id,
                host_name=table_name(interaction.user),
                variant=variant,
                options={k: v for k, v in options.items() if v is not None},
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                turn_timer=chosen.turn_timer,
                locale=_guild_locale(interaction),
            )
            embed, view = self.presenter.lobby_payload(info, info.table.locale)
            await interaction.response.send_message(embed=embed, view=view)
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
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES, target=[Choice(name=str(t), value=t) for t in TARGET_CHOICES]
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
    ) -> None:
        """Challenge named people; the match starts when all of them accepted."""
        locale = _locale(interaction)
        async with self.guard(interaction, "/domino challenge", None):
            chosen = await self._table_defaults(
                interaction, variant=variant, target=target, turn_timer=turn_timer
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
            self._check_place_free(interaction.channel)
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
                turn_timer=chosen.turn_timer,
                locale=_guild_locale(interaction),
                invited=invited,
            )
            public = info.table.locale
            embed, view = self.presenter.lobby_payload(info, public)
            content = tr(
                public,
                "{invited}: {host} challenges you to {variant}!",
                invited=" ".join(f"<@{u}>" for u in invited),
                host=interaction.user.mention,
                variant=texts.variant_name(public, variant),
            )
            await interaction.response.send_message(
                content,
                embed=embed,
                view=view,
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
            message = await interaction.original_response()
            await self.service.set_messages(info.id, lobby_message_id=message.id)

    @app_commands.command(name="rules", description=locale_str("The rules of a variant"))
    @app_commands.describe(variant=locale_str("The variant (all of them if left out)"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: Interaction, variant: str | None = None) -> None:
        """The rules text (with the decisions where the sources are silent)."""
        locale = _locale(interaction)
        async with self.guard(interaction, "/domino rules", None):
            if variant is None:
                embed = discord.Embed(
                    title=tr(locale, "Dominoes variants"),
                    description=common_rules(locale),
                    colour=ui.BLUE,
                )
                for key, (name, summary) in texts.VARIANTS.items():
                    embed.add_field(
                        name=f"{tr(locale, name)} (`{key}`)",
                        value=tr(locale, summary),
                        inline=False,
                    )
                embed.set_footer(text=tr(locale, "/domino rules variant: … shows the full rules."))
            else:
                embed = discord.Embed(
                    title=texts.variant_name(locale, variant),
                    description=rules_text(locale, variant),
                    colour=ui.BLUE,
                )
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="settings", description=locale_str("Your own settings"))
    @app_commands.describe(
        turn_pings=locale_str("Be mentioned when your turn begins and again at half time")
    )
    @app_commands.choices(turn_pings=ui.ON_OFF_CHOICES)
    async def settings(self, interaction: Interaction, turn_pings: str | None = None) -> None:
        """Show your settings, or change them."""
        locale = _locale(interaction)
        user_id = interaction.user.id
        async with self.guard(interaction, "/domino settings", None):
            current = await self.service.player_settings(user_id)
            if turn_pings is not None:
                current = dataclasses.replace(current, turn_pings=turn_pings == "on")
                await self.service.save_player_settings(current)
                for info in self.service.tables_of(user_id):
                    self.presenter.wake(info.id)
            await self.reply(
                interaction, ui.settings_text(locale, current, changed=turn_pings is not None)
            )

    @app_commands.command(
        name="leave", description=locale_str("Leave a lobby, or resign: your side loses the match")
    )
    @app_commands.describe(table=locale_str("The table, when you sit at several"))
    async def leave(self, interaction: Interaction, table: int | None = None) -> None:
        """Leave the lobby you sit in, or resign (after a confirmation) the match you play."""
        locale = _locale(interaction)
        user = interaction.user
        async with self.guard(interaction, "/domino leave", table):
            tables = self.service.tables_of(user.id, interaction.guild_id)
            if table is not None:
                candidates = [t for t in tables if t.id == table]
            else:
                here = [t for t in tables if self._is_here(t, interaction.channel_id)]
                candidates = here or tables
            if not candidates:
                await self.reply(interaction, tr(locale, "You have no seat at an open table."))
                return
            if len(candidates) > 1:
                await self.reply(
                    interaction,
                    tr(
                        locale,
                        "You sit at several tables: say which with the table option ({ids}).",
                        ids=", ".join(str(t.id) for t in candidates),
                    ),
                )
                return
            info = candidates[0]
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
        locale = _locale(interaction)
        async with self.guard(interaction, "/domino cancel", table):
            manager = bool(interaction.permissions.manage_guild)
            mine = self.service.tables_in_guild(interaction.guild_id)
            if table is not None:
                candidates = [t for t in mine if t.id == table]
            else:
                candidates = [t for t in mine if self._is_here(t, interaction.channel_id)]
            if not candidates:
                await self.reply(interaction, tr(locale, "There is no table to cancel here."))
                return
            if len(candidates) > 1:
                await self.reply(
                    interaction,
                    tr(
                        locale,
                        "Several tables are open here: say which with the table option ({ids}).",
                        ids=", ".join(str(t.id) for t in candidates),
                    ),
                )
                return
            info = candidates[0]
            await self.service.cancel(info.id, interaction.user.id, force=manager)
            await self.reply(interaction, tr(locale, "Table {id} was cancelled.", id=info.id))

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
        locale = _locale(interaction)
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

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted a table's message: its feed posts what is missing again."""
        info = await self.service.table_by_message(payload.message_id)
        if info is not None and info.status == "running":
            self.presenter.feed(info.id).recheck()

    # ------------------------------------------------------------------ places

    @staticmethod
    def _is_here(info: TableInfo, channel_id: int | None) -> bool:
        return channel_id is not None and channel_id in (
            info.table.thread_id,
            info.table.channel_id,
        )

    def _check_place_free(self, channel: Any, table_id: int | None = None) -> None:
        """One running table per thread (a table started from a channel gets its own thread)."""
        if isinstance(channel, discord.Thread):
            other = self.service.table_in(thread_id=channel.id)
            if other is None:
                other = self.service.table_in(channel_id=channel.id)
            if other is not None and other.id != table_id:
                raise PlaceBusy("A match is already running here.")

    async def _check_start_place(self, info: TableInfo) -> bool:
        """Check the match may start where the table is; True if it gets a thread of its own
        (then it does not occupy the channel)."""
        channel_id = info.table.channel_id
        channel = self.bot.get_channel(channel_id) if channel_id is not None else None
        self._check_place_free(channel, info.id)
        return self._can_thread(channel)

    @staticmethod
    def _can_thread(channel: Any) -> bool:
        if not isinstance(channel, discord.TextChannel):
            return False
        me = channel.guild.me
        if me is None:
            return False
        perms = channel.permissions_for(me)
        return perms.create_public_threads and perms.send_messages_in_threads

    async def start(self, info: TableInfo, user_id: int, *, fill: bool) -> TableInfo:
        threaded = await self._check_start_place(info)
        return await self.service.start(
            info.id, user_id, fill_with_computers=fill, threaded=threaded
        )

    # ------------------------------------------------------------------ what a click needs

    async def opened(self, interaction: Interaction, info: TableInfo) -> bool:
        """Open the started table's game; explain if Discord would not let the bot post it."""
        if await self.presenter.open_game(info.id):
            return True
        locale = _locale(interaction)
        await self.reply(
            interaction,
            ui.permission_text(locale) + "\n" + tr(locale, "The table was cancelled."),
        )
        return False

    async def show_hand(
        self,
        interaction: Interaction,
        table_id: int,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
    ) -> None:
        """Send (``new``) or edit the clicker's private hand message."""
        await self.presenter.show_hand(
            interaction, table_id, new=new, choose=choose, notice=notice
        )

    def claim_hand(self, interaction: Interaction, table_id: int, seq: int) -> None:
        """The clicker's hand message is about to show the state ``seq``."""
        self.presenter.claim_hand(interaction, table_id, seq)

    async def rematch(self, interaction: Interaction, table_id: int) -> None:
        """The clicker accepts the rematch of ``table_id``."""
        await self.presenter.wrapup.accept(interaction, table_id)
