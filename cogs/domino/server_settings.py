"""``/domino server-settings`` (Manage Server): the server's defaults for ``/domino new``, the
channels where tables may be opened and the role allowed to host; and the check every table
opening makes against them.

A mixin of the dominoes cog (its commands join the ``/domino`` group); it needs the cog's
``service`` and ``guard``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.errors import LimitReached, ServiceError
from bot.i18n import N_, tr
from bot.records.board_sql import DEFAULT_BOARD_MINIMUM, MAX_BOARD_MINIMUM
from bot.records.boards import PeriodBoards
from bot.records.inactivity import Inactivity
from bot.records.match_end import RematchLimit
from bot.records.seasons_service import CHAMPION, TOURNAMENT, Seasons
from bot.servers.pool import OpenPool
from bot.servers.settings import (
    DEFAULT_VARIANT,
    FIELDS,
    LIMITS,
    MAX_TIMEOUT_LOSS,
    GuildSettings,
    ServerSettings,
    TableDefaults,
    check_host,
    defaults,
)
from bot.tables.service import DEFAULT_TURN_TIMER, MAX_TURN_TIMER, MIN_TURN_TIMER, TableInfo
from bot.tables.values import DEFAULT_PING_DELAY, MAX_PING_DELAY
from bot.web import links
from cogs.colours import BLUE
from cogs.domino import texts
from cogs.domino.choices import TARGET_CHOICES, VARIANT_CHOICES
from cogs.markup import slash_command
from cogs.records.boards import can_post
from cogs.records.prizes import choose_problem, problem_text

Interaction = discord.Interaction[Any]

RESET_CHOICES = [
    Choice(name=locale_str("Everything"), value="all"),
    Choice(name=locale_str("Default variant"), value="variant"),
    Choice(name=locale_str("Default target"), value="target"),
    Choice(name=locale_str("Default turn timer"), value="turn_timer"),
    Choice(name=locale_str("Idle ping"), value="ping_delay"),
    Choice(name=locale_str("Host role"), value="host_role"),
    Choice(name=locale_str("Channels"), value="channels"),
    Choice(name=locale_str("Limits"), value="limits"),
    Choice(name=locale_str("Web pages"), value="web"),
    Choice(name=locale_str("Board channel"), value="board_channel"),
    Choice(name=locale_str("Idle weeks"), value="idle_weeks"),
    Choice(name=locale_str("Rating boards' minimum"), value="board_minimum"),
    Choice(name=locale_str("Correspondence time-outs"), value="timeout_loss"),
    Choice(name=locale_str("Champions' role"), value="champion_role"),
    Choice(name=locale_str("Tournament winners' role"), value="tournament_winner_role"),
    Choice(name=locale_str("Open pool"), value="open_pool"),
]
WEB_CHOICES = [
    Choice(name=locale_str("on"), value="on"),
    Choice(name=locale_str("off"), value="off"),
]
NOT_A_MANAGER = N_("Only members who can manage the server can change its settings.")
NOTHING_CHANGED = N_("Nothing was changed.")
CANNOT_POST = N_(
    "I cannot post the boards in {channel}: I need to see it, send messages and embed links "
    "there. Nothing was changed."
)


def _parent_channel(channel: Any) -> int | None:
    return getattr(channel, "parent_id", None)


def _roles(member: Any) -> frozenset[int]:
    """The ids of a member's roles (none for a user who is not a member)."""
    return frozenset(r.id for r in getattr(member, "roles", ()))


class ServerSettingsMixin:
    """``/domino server-settings`` and :meth:`_table_defaults` for the table openings."""

    service: Any
    guard: Any
    reply: Any

    @property
    def server_settings(self) -> ServerSettings:
        found: ServerSettings | None = getattr(self, "_server_settings", None)
        if found is None:
            found = ServerSettings(self.service.store, clock=self.service.clock)
            self._server_settings = found
        return found

    async def _table_defaults(
        self,
        interaction: Interaction,
        *,
        variant: str | None = None,
        target: int | None = None,
        turn_timer: int | None = None,
    ) -> TableDefaults:
        """Check that the user may open a table here; the options to open it with."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return defaults(GuildSettings(0), variant=variant, target=target, turn_timer=turn_timer)
        settings = await self.server_settings.get(guild_id)
        user = interaction.user
        check_host(
            settings,
            channel_ids=(interaction.channel_id, _parent_channel(interaction.channel)),
            role_ids=_roles(user),
            manager=bool(interaction.permissions.manage_guild),
        )
        await self.server_settings.check_limits(settings, user.id)
        return defaults(settings, variant=variant, target=target, turn_timer=turn_timer)

    async def check_rematch(self, interaction: Interaction, old: TableInfo) -> None:
        """Refuse the rematch of ``old`` where its host could not open it with ``/domino new``
        now: the server's channels, host role and limits apply to him, in the place of the
        match (where the Rematch button was clicked)."""
        guild_id = old.table.guild_id
        if guild_id is None or interaction.guild is None:
            return
        settings = await self.server_settings.get(guild_id)
        host_id = old.host_id
        if interaction.user.id == host_id:
            host: Any = interaction.user
            manager = bool(interaction.permissions.manage_guild)
        else:
            try:
                host = await interaction.guild.fetch_member(host_id)
            except discord.NotFound:  # he left the server: no role of it
                host = None
            manager = host is not None and host.guild_permissions.manage_guild
        try:
            check_host(
                settings,
                channel_ids=(interaction.channel_id, _parent_channel(interaction.channel)),
                role_ids=_roles(host),
                manager=manager,
            )
        except ServiceError as exc:
            if host_id == interaction.user.id or "role" not in exc.params:
                raise  # his own refusal, or the channel's (the same for everyone)
            raise ServiceError(
                N_(
                    "<@{user}> hosts this table and no longer has the role {role} that opens "
                    "tables on this server: the rematch cannot start."
                ),
                user=host_id,
                role=exc.params["role"],
            ) from exc
        try:
            await self.server_settings.check_limits(settings, host_id)
        except LimitReached as exc:
            raise RematchLimit(exc, host_id) from exc

    @app_commands.command(
        name="server-settings",
        description=locale_str("This server's defaults, channels and host role (Manage Server)"),
    )
    @app_commands.describe(
        variant=locale_str("Default variant of /domino new"),
        target=locale_str("Default points to win (when the variant allows it)"),
        turn_timer=locale_str("Default seconds per turn (30-600)"),
        idle_ping=locale_str("Seconds idle on a turn before the player is pinged (10-120; 0: off)"),
        host_role=locale_str("Only this role may open tables (managers always may)"),
        add_channel=locale_str("Allow tables in this channel (none chosen: any channel)"),
        remove_channel=locale_str("Stop allowing tables in this channel"),
        reset=locale_str("Put a setting back to the bot's default"),
        lobbies_per_member=locale_str("Lobbies one member may sit at (0: the bot's)"),
        matches_per_member=locale_str("Running matches one member may play (0: the bot's)"),
        open_tables=locale_str("Open tables this server may have at once (0: the bot's)"),
        cooldown=locale_str("Seconds between two tables opened by one member (0: the bot's)"),
        web=locale_str("Show this server's leaderboards and matches on the web pages"),
        tournament_role=locale_str("This role may create and run tournaments (@everyone: none)"),
        board_channel=locale_str("Post last week's and last month's boards here"),
        idle_weeks=locale_str("Weeks without a match before a player leaves the boards (4)"),
        board_minimum=locale_str("Matches a player needs before the rating boards list him (5)"),
        champion_role=locale_str("A role the bot gives this server's season champions"),
        tournament_winner_role=locale_str(
            "A role the bot gives the winners of this server's latest tournament"
        ),
        timeout_loss=locale_str(
            "Correspondence: a side loses at this time-out in a row (0: the bot plays for it)"
        ),
        open_pool=locale_str("Seat this server's people with people of other servers (off)"),
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        target=TARGET_CHOICES,
        reset=RESET_CHOICES,
        web=WEB_CHOICES,
        open_pool=WEB_CHOICES,
    )
    async def server_settings_command(
        self,
        interaction: Interaction,
        variant: str | None = None,
        target: int | None = None,
        turn_timer: app_commands.Range[int, MIN_TURN_TIMER, MAX_TURN_TIMER] | None = None,
        idle_ping: app_commands.Range[int, 0, MAX_PING_DELAY] | None = None,
        host_role: discord.Role | None = None,
        add_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        reset: str | None = None,
        lobbies_per_member: app_commands.Range[int, 0, 20] | None = None,
        matches_per_member: app_commands.Range[int, 0, 20] | None = None,
        open_tables: app_commands.Range[int, 0, 500] | None = None,
        cooldown: app_commands.Range[int, 0, 3600] | None = None,
        web: str | None = None,
        tournament_role: discord.Role | None = None,
        board_channel: discord.TextChannel | None = None,
        idle_weeks: app_commands.Range[int, 1, 52] | None = None,
        board_minimum: app_commands.Range[int, 1, MAX_BOARD_MINIMUM] | None = None,
        champion_role: discord.Role | None = None,
        tournament_winner_role: discord.Role | None = None,
        timeout_loss: app_commands.Range[int, 0, MAX_TIMEOUT_LOSS] | None = None,
        open_pool: str | None = None,
    ) -> None:
        """Show the settings; change those given (reset first, then the new values)."""
        locale = interaction.locale.value
        async with self.guard(interaction, "/domino server-settings", None):
            guild_id = interaction.guild_id
            if guild_id is None:
                raise ServiceError("This command works only on a server.")
            if not interaction.permissions.manage_guild:
                await self.reply(interaction, tr(locale, NOT_A_MANAGER))
                return
            if board_channel is not None:
                me = getattr(interaction.guild, "me", None)
                if not can_post(board_channel, me):
                    text = tr(locale, CANNOT_POST, channel=f"<#{board_channel.id}>")
                    await self.reply(interaction, text)
                    return
            for chosen_role in (champion_role, tournament_winner_role):
                if chosen_role is not None and not chosen_role.is_default():
                    problem = choose_problem(interaction.guild, interaction.user, chosen_role)
                    if problem:
                        text = problem_text(locale, problem, chosen_role.id)
                        await self.reply(interaction, f"{text} {tr(locale, NOTHING_CHANGED)}")
                        return
            boards = PeriodBoards(self.service.store, clock=self.service.clock)
            seasons = Seasons(self.service.store, clock=self.service.clock)
            reset_champions = reset in ("all", "champion_role")
            if reset_champions or champion_role is not None:
                chosen_role = None
                if champion_role is not None and not champion_role.is_default():
                    chosen_role = champion_role.id
                await seasons.set_champion_role(guild_id, chosen_role, by=interaction.user.id)
                if reset == "champion_role":
                    reset = None
            reset_winners = reset in ("all", "tournament_winner_role")
            if reset_winners or tournament_winner_role is not None:
                chosen_role = None
                if tournament_winner_role is not None and not tournament_winner_role.is_default():
                    chosen_role = tournament_winner_role.id
                await seasons.set_champion_role(
                    guild_id, chosen_role, by=interaction.user.id, kind=TOURNAMENT
                )
                if reset == "tournament_winner_role":
                    reset = None
            reset_board = reset in ("all", "board_channel")
            if reset_board:
                await boards.clear_channel(guild_id)
                interaction.client.dispatch("board_channel_set", guild_id, None)
                if reset == "board_channel":
                    reset = None
            if board_channel is not None:
                picked = await boards.set_channel(
                    guild_id, board_channel.id, by=interaction.user.id
                )
                interaction.client.dispatch("board_channel_set", guild_id, picked.due_at)
            idle = Inactivity(self.service.store, clock=self.service.clock)
            reset_idle = reset in ("all", "idle_weeks")
            if reset_idle or idle_weeks is not None:
                await idle.set_idle_weeks(guild_id, idle_weeks)
                if reset == "idle_weeks":
                    reset = None
            pool = OpenPool(self.service.store, self.service, clock=self.service.clock)
            reset_pool = reset in ("all", "open_pool")
            if reset_pool or open_pool is not None:
                dropped = await pool.set_joined(
                    guild_id, open_pool == "on", by=interaction.user.id
                )
                places = getattr(getattr(self, "presenter", None), "places", None)
                if places is not None:
                    await places.dropped(dropped)
                if reset == "open_pool":
                    reset = None
            store = self.server_settings
            current = await store.get(guild_id)
            changes: dict[str, Any] = {}
            if reset == "all":
                changes = dict.fromkeys(FIELDS)
            elif reset == "limits":
                changes = dict.fromkeys(LIMITS)
            elif reset is not None:
                changes[reset] = None
            if variant is not None:
                changes["variant"] = variant
            if target is not None:
                changes["target"] = target
            if turn_timer is not None:
                changes["turn_timer"] = turn_timer
            if idle_ping is not None:
                changes["ping_delay"] = idle_ping
            if board_minimum is not None:
                changes["board_minimum"] = board_minimum
            if timeout_loss is not None:
                changes["timeout_loss"] = timeout_loss or None
            for name, value in (
                ("lobbies_per_member", lobbies_per_member),
                ("matches_per_member", matches_per_member),
                ("open_tables", open_tables),
                ("cooldown", cooldown),
            ):
                if value is not None:
                    changes[name] = value or None
            if host_role is not None:
                changes["host_role"] = None if host_role.is_default() else host_role.id
            channels = list(changes.get("channels", current.channels) or ())
            if add_channel is not None and add_channel.id not in channels:
                channels.append(add_channel.id)
            if remove_channel is not None and remove_channel.id in channels:
                channels.remove(remove_channel.id)
            if add_channel is not None or remove_channel is not None:
                changes["channels"] = tuple(channels) or None
            if web is not None:
                changes["web"] = web == "on" or None
            if changes:
                name = getattr(interaction.guild, "name", None)
                if name and changes.get("web", current.web):
                    changes["web_name"] = name
                current = await store.update(guild_id, **changes)
            if tournament_role is not None:
                chosen = None if tournament_role.is_default() else tournament_role.id
                await store.set_organiser_role(guild_id, chosen)
                changes["tournament_role"] = chosen
            base = getattr(getattr(interaction.client, "settings", None), "web_base_url", "")
            embed = settings_embed(
                locale,
                current,
                changed=bool(changes)
                or board_channel is not None
                or reset_board
                or reset_idle
                or idle_weeks is not None
                or reset_champions
                or champion_role is not None
                or reset_winners
                or tournament_winner_role is not None
                or reset_pool
                or open_pool is not None,
                web_base_url=base,
                organisers=await store.organiser_role(guild_id),
            )
            chosen_now = await boards.channel(guild_id)
            where = (
                tr(locale, "not posted")
                if chosen_now is None
                else tr(
                    locale,
                    "in {channel}, next on {when}",
                    channel=f"<#{chosen_now.channel_id}>",
                    when=f"<t:{int(chosen_now.due_at)}:f>",
                )
            )
            if await boards.post_failed(guild_id):
                where += "\n⚠️ " + tr(
                    locale,
                    "The last board could not be posted there: I need to see the channel, "
                    "send messages and embed links.",
                )
            embed.add_field(
                name=tr(locale, "Boards of the past week and month"), value=where, inline=False
            )
            embed.add_field(
                name=tr(locale, "Idle players"),
                value=tr(
                    locale,
                    "left off the boards after {weeks} weeks without a match",
                    weeks=await idle.idle_weeks_of(guild_id),
                ),
                inline=False,
            )
            embed.add_field(
                name=tr(locale, "Open pool"),
                value=tr(locale, "on: this server's people may be seated with people of other "
                         "servers")
                if await pool.joined(guild_id)
                else tr(locale, "off"),
                inline=False,
            )
            for kind, title in (
                (CHAMPION, tr(locale, "Season champions' role")),
                (TOURNAMENT, tr(locale, "Tournament winners' role")),
            ):
                champions = await seasons.champion_role(guild_id, kind)
                shown = tr(locale, "no role")
                if champions is not None:
                    shown = f"<@&{champions.role_id}>"
                    if champions.problem:
                        problem = problem_text(locale, champions.problem, champions.role_id)
                        shown += "\n⚠️ " + tr(locale, "Last time: {problem}", problem=problem)
                embed.add_field(name=title, value=shown, inline=False)
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )


def settings_embed(
    locale: str | None, settings: GuildSettings, *, changed: bool, web_base_url: str = "",
    organisers: int | None = None,
) -> discord.Embed:
    """The server's settings as they are now."""
    title = tr(locale, "Server settings saved") if changed else tr(locale, "Server settings")
    embed = discord.Embed(title=title, colour=BLUE)
    if settings.variant is None:
        variant = tr(
            locale, "{variant} (the bot's default)",
            variant=texts.variant_name(locale, DEFAULT_VARIANT),
        )
    else:
        variant = texts.variant_name(locale, settings.variant)
    embed.add_field(name=tr(locale, "Default variant"), value=variant, inline=True)
    target = (
        tr(locale, "the variant's own")
        if settings.target is None
        else tr(locale, "{points} points", points=settings.target)
    )
    embed.add_field(name=tr(locale, "Default target"), value=target, inline=True)
    timer = settings.turn_timer
    embed.add_field(
        name=tr(locale, "Default turn timer"),
        value=tr(locale, "{seconds} seconds", seconds=timer)
        if timer is not None
        else tr(locale, "{seconds} seconds (the bot's default)", seconds=DEFAULT_TURN_TIMER),
        inline=True,
    )
    delay = settings.ping_delay
    embed.add_field(
        name=tr(locale, "Idle ping"),
        value=tr(locale, "off")
        if delay == 0
        else tr(locale, "after {seconds} seconds idle on a turn", seconds=delay)
        if delay is not None
        else tr(
            locale,
            "after {seconds} seconds idle on a turn (the bot's default)",
            seconds=DEFAULT_PING_DELAY,
        ),
        inline=True,
    )
    embed.add_field(
        name=tr(locale, "Correspondence time-outs"),
        value=tr(locale, "the bot plays for the person; a computer takes over after three")
        if settings.timeout_loss is None
        else tr(locale, "a side loses at its time-out number {count} in a row",
                count=settings.timeout_loss),
        inline=True,
    )
    role = (
        tr(locale, "anyone") if settings.host_role is None else f"<@&{settings.host_role}>"
    )
    embed.add_field(name=tr(locale, "Who may open tables"), value=role, inline=False)
    channels = (
        tr(locale, "any channel")
        if not settings.channels
        else ", ".join(f"<#{c}>" for c in settings.channels)
    )
    embed.add_field(name=tr(locale, "Where tables may be opened"), value=channels, inline=False)
    limits = [
        (tr(locale, "tables waiting per member"), settings.lobbies_per_member, ""),
        (tr(locale, "matches per member"), settings.matches_per_member, ""),
        (tr(locale, "open tables"), settings.open_tables, ""),
        (tr(locale, "cooldown"), settings.cooldown, " s"),
    ]
    bots = tr(locale, "the bot's")
    embed.add_field(
        name=tr(locale, "Limits of this server (on top of the bot's)"),
        value="\n".join(
            f"{name}: {value}{unit}" if value else f"{name}: {bots}" for name, value, unit in limits
        ),
        inline=False,
    )
    page = links.url(web_base_url, links.server_path(settings.guild_id))
    if not settings.web:
        shown = tr(locale, "off")
    elif page is None:
        shown = tr(locale, "on (the bot has no web address set)")
    else:
        shown = tr(locale, "on: {url}", url=page)
    embed.add_field(name=tr(locale, "Web pages"), value=shown, inline=False)
    least = settings.board_minimum
    embed.add_field(
        name=tr(locale, "Rating boards"),
        value=tr(locale, "Minimum of matches: {count}", count=least)
        if least is not None
        else tr(
            locale,
            "Minimum of matches: {count} (the bot's default)",
            count=DEFAULT_BOARD_MINIMUM,
        ),
        inline=False,
    )
    runners = tr(locale, "members with Manage Server")
    if organisers is not None:
        runners = tr(locale, "members with Manage Server, and <@&{role}>", role=organisers)
    embed.add_field(name=tr(locale, "Who may run tournaments"), value=runners, inline=False)
    embed.set_footer(
        text=tr(locale, "{command} uses these when its options are left out.",
                command=slash_command(locale, "domino new", clickable=False))
    )
    return embed

