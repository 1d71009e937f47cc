"""The records cog: records finished matches and answers the commands and buttons."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.daily import service as daily
from bot.i18n import number, tr, trn
from bot.privacy.forget import Forgetting
from bot.records.boards import PeriodBoards
from bot.records.inactivity import Inactivity
from bot.records.periods import PERIOD_KINDS, Period, period_of
from bot.records.rating import DISPLAY_BASE
from bot.records.record import ALL, BUCKETS, GLOBAL
from bot.records.seasons import SEASON, SeasonCalendar
from bot.records.seasons_service import Seasons
from bot.records.service import (
    LEADERBOARD_ORDERS,
    LeaderboardPage,
    Records,
)
from bot.store import DatabaseUnavailable
from bot.web import links
from cogs.markup import reply_privately, slash_command, unreachable_text
from cogs.names import escape_name, public_name
from cogs.places import readable
from cogs.records.achievements import latest_badge
from cogs.records.boards import BoardPoster, period_embed, season_embed
from cogs.records.buttons import (
    BUTTONS,
    COG_NAME,
    TEMPLATE,
    ForgetButton,
    LeaderboardButton,
    PeriodButton,
    PrivacyButton,
    RecordsButton,
    _view,
)
from cogs.records.commands import COMMANDS, _locale
from cogs.records.forget import forget_buttons, forget_embed
from cogs.records.history import history_embed
from cogs.records.leaderboard import leaderboard_buttons, leaderboard_embed, period_buttons
from cogs.records.privacy import privacy_buttons, privacy_embed
from cogs.records.share import ScreenButton, share_buttons
from cogs.records.stats import chart_alt_text, season_text, stats_layout
from cogs.records.words import FAMILY_NAMES, PICTURE, _variant_name
from cogs.web_links import web_button, web_url
from render.stats import rating_chart

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)


GROUP_NAME = "domino"
HISTORY_SIZE = 10
SEEN_NAMES = 10_000  # public names of recent users kept in memory (saves asking Discord)


class RecordsCog(commands.Cog, name=COG_NAME):
    """Records finished matches; leaderboards, stats, history and privacy choices."""

    def __init__(self, bot: commands.Bot, records: Records) -> None:
        self.bot = bot
        self.records = records
        if records.names is None:
            records.names = self.public_names
        self._seen: OrderedDict[int, str] = OrderedDict()
        self._group: app_commands.Group | None = None
        self._own_group = False
        self._catch_up: asyncio.Task[int] | None = None
        self.forgetting = Forgetting(records, getattr(bot, "service", None))
        clock = getattr(getattr(bot, "service", None), "clock", None) or records.clock
        self.boards = PeriodBoards(records.store, clock=clock, seasons=records.seasons)
        self.seasons = Seasons(records.store, records.seasons, clock=clock)
        self.poster = BoardPoster(bot, self.boards, _variant_name, self.seasons)
        self.inactivity = Inactivity(records.store, clock=clock)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS, ScreenButton)
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            self._group = found
        else:  # the play cog is absent: our own /domino group
            self._group = app_commands.Group(
                name=GROUP_NAME,
                description=locale_str("Dominoes: leaderboards, stats and history"),
                guild_only=True,
            )
            self._own_group = True
        for command in COMMANDS:
            self._group.add_command(command, override=True)
        if self._own_group:
            self.bot.tree.add_command(self._group, override=True)
        service = getattr(self.bot, "service", None)
        if service is not None:
            service.add_observer(self.records)
        self._catch_up = asyncio.create_task(self._catch_up_now(), name="records-catch-up")
        self.sweep.start()
        self.idle_sweep.start()
        self.forgetting.service = service
        self.forgetting.start()
        self.poster.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.idle_sweep.cancel()
        await self.poster.close()
        await self.forgetting.close()
        if self._catch_up is not None:
            self._catch_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catch_up
        service = getattr(self.bot, "service", None)
        if service is not None:
            with contextlib.suppress(ValueError):
                service.remove_observer(self.records)
        if self._group is not None:
            for command in COMMANDS:
                self._group.remove_command(command.name)
            if self._own_group:
                self.bot.tree.remove_command(GROUP_NAME)
        self.bot.remove_dynamic_items(*BUTTONS, ScreenButton)

    async def _catch_up_now(self) -> int:
        try:
            done = await self.records.catch_up()
        except Exception:
            log.exception("recording the matches that finished unobserved failed")
            return 0
        if done:
            log.info("recorded %d match(es) that finished while nobody listened", done)
        return done

    # -- servers the bot left ------------------------------------------------------------------

    @tasks.loop(hours=1)
    async def sweep(self) -> None:
        """Drop the data of servers the bot left longer ago than the grace period; rank the
        final places of a season that ended (if no board post did yet)."""
        try:
            await self.records.sweep_departed()
        except Exception:
            log.exception("dropping the data of departed servers failed")
        try:
            await self.seasons.rank_ended()
        except Exception:
            log.exception("ranking the last season's final places failed")

    @tasks.loop(hours=6)
    async def idle_sweep(self) -> None:
        """Grow idle ratings' uncertainty on the boards; leave idle players off them (every
        six hours, the first time six hours after the start)."""
        if self.idle_sweep.current_loop == 0:
            return
        try:
            changed = await self.inactivity.sweep()
        except Exception:
            log.exception("the inactivity sweep failed")
            return
        if changed:
            log.info("inactivity: %d idle rating(s) updated on the boards", changed)

    async def _idle_note(
        self, embed: discord.Embed, page: LeaderboardPage, locale: str | None
    ) -> None:
        """Say on a board how many idle players it leaves off."""
        idle = await self.inactivity.idle_count(page.scope, page.bucket, page.by)
        if idle:
            note = trn(locale, "{count} idle player hidden", "{count} idle players hidden", idle)
            embed.description = f"{embed.description}\n-# {note}"

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: close its tables; its data goes after the grace period."""
        await self.records.guild_left(guild.id)
        service = getattr(self.bot, "service", None)
        if service is None:
            return
        for table in service.open_tables():
            if table.table.guild_id == guild.id:
                try:
                    await service.cancel(table.id, table.host_id, force=True)
                except Exception:
                    log.exception("table %s: could not close it", table.id)

    # -- the weekly and monthly boards' posts ---------------------------------------------

    @commands.Cog.listener()
    async def on_tables_adopted(self, table_ids: list[int]) -> None:
        """Shards were taken over (or lost): time the board posts of the servers run here."""
        await self.poster.load()

    @commands.Cog.listener()
    async def on_tables_released(self, table_ids: list[int]) -> None:
        await self.poster.load()

    @commands.Cog.listener()
    async def on_board_channel_set(self, guild_id: int, due_at: float | None) -> None:
        """``/domino server-settings`` chose (``due_at``) or cleared a server's board channel."""
        if due_at is None:
            self.poster.forget(guild_id)
        else:
            self.poster.time(guild_id, due_at)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.records.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.records.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Servers that removed the bot while it was away count as left from now; the board
        posts of the servers this process runs are timed (again: its shards are surely held by
        now, even after a start slower than a lease)."""
        try:
            await self.poster.load()
        except Exception:
            log.exception("timing the board posts failed")
        try:
            present = {g.id for g in self.bot.guilds}
            for guild_id in await self.records.known_guilds() - present:
                if self._holds(guild_id):
                    await self.records.guild_left(guild_id)
        except Exception:
            log.exception("looking for servers that removed the bot failed")

    def _holds(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id`` (so it would see the server)."""
        leases = getattr(self.bot, "leases", None)
        if leases is not None:
            return bool(leases.owns(guild_id))
        count = self.bot.shard_count or 1
        ids = getattr(self.bot, "shard_ids", None)
        if ids is None:
            ids = [self.bot.shard_id or 0]
        return (guild_id >> 22) % count in ids

    # -- names -------------------------------------------------------------------------------

    def _note(self, user: discord.abc.User) -> None:
        """Remember a user's public name (the records ask for it when a match ends)."""
        self._seen[user.id] = public_name(user)
        self._seen.move_to_end(user.id)
        while len(self._seen) > SEEN_NAMES:
            self._seen.popitem(last=False)

    async def public_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The global display names of users (never a server nickname), as Discord knows them."""
        found: dict[int, str] = {}
        for uid in user_ids:
            if uid in self._seen:
                found[uid] = self._seen[uid]
                continue
            user = self.bot.get_user(uid)
            if user is None:
                try:
                    user = await self.bot.fetch_user(uid)
                except discord.HTTPException as exc:
                    log.info("user %s: no name from Discord: %s", uid, exc)
                    continue
            found[uid] = public_name(user)
        return found

    # -- helpers ------------------------------------------------------------------------------

    async def _reply(self, interaction: Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        await reply_privately(interaction, text)

    @contextlib.asynccontextmanager
    async def _guard(self, interaction: Interaction, what: str) -> AsyncIterator[None]:
        """Log the unexpected and apologise; explain a refused permission."""
        locale = _locale(interaction)
        try:
            # The records show the latest public name of whoever uses them.
            await self.records.rename(interaction.user.id, public_name(interaction.user))
            yield
        except discord.Forbidden as exc:
            log.info("%s: Discord refused: %s", what, exc.text)
            await self._reply(
                interaction,
                tr(
                    locale,
                    "I am missing a permission in this channel (send messages, embed links, "
                    "attach files).",
                ),
            )
        except DatabaseUnavailable:  # the store logs the outage once, with its end
            await self._reply(interaction, unreachable_text(locale))
        except Exception:
            log.exception("%s failed", what)
            await self._reply(
                interaction, tr(locale, "Sorry, something went wrong on my side. Please try again.")
            )

    # -- /domino leaderboard ------------------------------------------------------------------

    async def leaderboard(
        self,
        interaction: Interaction,
        variant: str | None,
        scope: str | None,
        by: str | None,
        period: str | None = None,
    ) -> None:
        async with self._guard(interaction, "leaderboard"):
            guild = interaction.guild_id
            where = GLOBAL if scope == "global" or guild is None else guild
            if period in PERIOD_KINDS or period == SEASON:
                await self._period_board(interaction, where, variant or ALL, period)
                return
            page = await self.records.leaderboard(
                scope=where,
                bucket=variant or ALL,
                by=by or "rating",
                viewer_id=interaction.user.id,
            )
            locale = _locale(interaction)
            view = _view(leaderboard_buttons(locale, page, interaction.user.id))
            embed = leaderboard_embed(locale, page)
            await self._idle_note(embed, page, locale)
            path = links.server_path(where, board=page.bucket, by=page.by)
            url = await web_url(self.bot, self.records.store, where or None, path)
            if url is not None:
                view.add_item(web_button(locale, url))
            await interaction.response.send_message(embed=embed, view=view)

    async def _period_board(
        self,
        interaction: Interaction,
        scope: int,
        bucket: str,
        period: str | Period,
        *,
        page: int = 0,
        owner: int | None = None,
    ) -> None:
        """A week's, month's or season's board (``period``: the kind, now, or one period) with
        its Previous/Next and its web link; a new message, or the clicked one edited."""
        locale = _locale(interaction)
        viewer = interaction.user.id
        if isinstance(period, str):
            now = self.boards.clock()
            period = (
                self.seasons.current(now) if period == SEASON else period_of(period, now)
            )
        if period.kind == SEASON:
            season = await self.seasons.board(
                scope=scope, bucket=bucket, period=period, page=page, viewer_id=viewer
            )
            embed = season_embed(locale, season, _variant_name(locale, season.family))
            page, pages = season.page, season.pages
        else:
            board = await self.boards.board(
                scope=scope, bucket=bucket, period=period, page=page, viewer_id=viewer
            )
            embed = period_embed(locale, board, _variant_name(locale, bucket))
            page, pages = board.page, board.pages
        view = _view(period_buttons(locale, viewer, scope, bucket, period, page, pages))
        path = links.server_path(scope, board=bucket, period=period.kind)
        url = await web_url(self.bot, self.records.store, scope or None, path)
        if url is not None:
            view.add_item(web_button(locale, url))
        if owner is None:
            await interaction.response.send_message(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)

    async def _period_click(self, interaction: Interaction, button: PeriodButton) -> None:
        """Previous/Next of a period's board: only for whom it was shown."""
        locale = _locale(interaction)
        if interaction.user.id != button.owner:
            await self._reply(
                interaction,
                tr(locale, "This board was asked for by someone else: ask for your own with "
                   "{command}.", command=slash_command(locale, "domino leaderboard")),
            )
            return
        period = _period_named(button.period, self.seasons.calendar)
        if button.scope not in (GLOBAL, interaction.guild_id) or period is None:
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        await self._period_board(
            interaction, button.scope, button.bucket, period, page=button.page, owner=button.owner
        )

    async def _leaderboard_click(self, interaction: Interaction, button: LeaderboardButton) -> None:
        locale = _locale(interaction)
        if button.scope not in (GLOBAL, interaction.guild_id):  # another server's board
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        page = await self.records.leaderboard(
            scope=button.scope,
            bucket=button.bucket,
            by=button.by,
            page=button.page,
            viewer_id=interaction.user.id,
        )
        embed = leaderboard_embed(locale, page)
        await self._idle_note(embed, page, locale)
        if interaction.user.id == button.owner:
            await interaction.response.edit_message(
                embed=embed,
                view=_view(leaderboard_buttons(locale, page, button.owner)),
            )
        else:  # someone else's leaderboard: his own copy, for his eyes only
            await interaction.response.send_message(
                embed=embed,
                view=_view(leaderboard_buttons(locale, page, interaction.user.id)),
                ephemeral=True,
            )

    # -- /domino stats ------------------------------------------------------------------------

    def _shown_name(self, interaction: Interaction, user: discord.abc.User | None) -> str:
        """The name of whom a command is about, as this server knows him (escaped)."""
        target = user or interaction.user
        return escape_name(target.display_name)

    async def stats(
        self, interaction: Interaction, user: discord.abc.User | None, share: bool = False
    ) -> None:
        """A player's figures: privately, unless the asker shares them."""
        async with self._guard(interaction, "stats"):
            locale = _locale(interaction)
            target = user or interaction.user
            shown = self._shown_name(interaction, user)
            found = await self.records.stats(
                target.id, guild_id=interaction.guild_id, viewer_id=interaction.user.id
            )
            if found.empty:
                await self._reply(
                    interaction, tr(locale, "No recorded matches to show for {name}.", name=shown)
                )
                return
            # His own figures, while he is off a leaderboard: for his eyes only.
            hidden = target.id == interaction.user.id and bool(
                found.hidden & {GLOBAL, interaction.guild_id}
            )
            private = hidden or not share
            await interaction.response.defer(thinking=True, ephemeral=private)
            labels = {f: tr(locale, name) for f, name in FAMILY_NAMES.items()}
            picture = await asyncio.to_thread(
                rating_chart,
                found.series,
                title=tr(locale, "Rating over time"),
                labels=labels,
                empty_text=tr(locale, "No rated matches yet"),
                start=DISPLAY_BASE,
                number=lambda value: number(locale, value),
            )
            buttons: list[discord.ui.Item[Any]] = []
            if private and not hidden:
                buttons += share_buttons(locale, "stats", interaction.user.id, target.id)
            guild = interaction.guild_id
            if found.server and guild is not None and not found.hidden & {GLOBAL, guild}:
                path = links.player_path(guild, target.id)
                if url := await web_url(self.bot, self.records.store, guild, path):
                    buttons.append(web_button(locale, url))
            alt = chart_alt_text(locale, found, shown, labels)
            season = None
            if GLOBAL not in found.hidden:  # his places are on the global boards
                season = season_text(
                    locale,
                    self.seasons.calendar.number(self.boards.clock()),
                    await self.seasons.standing(target.id),
                    await self.seasons.best_finish(target.id),
                )
            files = [discord.File(io.BytesIO(picture), filename=PICTURE, description=alt)]
            shown_to = GLOBAL not in found.hidden or target.id == interaction.user.id
            badge = await latest_badge(self.records.store, target.id, locale) if shown_to else None
            if badge is not None:
                files.append(badge[2])
            layout = stats_layout(
                locale, found, shown, chart_alt=alt, season=season,
                badge=None if badge is None else (badge[0], badge[1], badge[2].description or ""),
                buttons=buttons,
            )
            await interaction.followup.send(
                view=layout, files=files, ephemeral=private,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def share(self, interaction: Interaction, screen: str, user: discord.abc.User) -> None:
        """Share pressed under a private ``/domino stats``: the same figures, for everyone."""
        await self.stats(interaction, None if user.id == interaction.user.id else user, True)

    # -- /domino history ----------------------------------------------------------------------

    async def history(self, interaction: Interaction, user: discord.User | None) -> None:
        async with self._guard(interaction, "history"):
            locale = _locale(interaction)
            target = user or interaction.user
            shown = self._shown_name(interaction, user)
            guild = interaction.guild_id
            places = readable(interaction)  # this server's channels the asker can view now
            hides = daily.veil(interaction.user.id, self.boards.clock())
            if target.id == interaction.user.id:
                items = await self.records.history(target.id, limit=HISTORY_SIZE, veil=hides)
            elif places is not None and guild not in await self.records.hidden_scopes(target.id):
                items = await self.records.history(
                    target.id, readable=places, limit=HISTORY_SIZE, veil=hides
                )
            else:
                items = []
            if not items:
                await self._reply(
                    interaction, tr(locale, "No recorded matches to show for {name}.", name=shown)
                )
                return
            await interaction.response.send_message(
                embed=history_embed(locale, items, shown, guild), ephemeral=True
            )

    # -- /domino privacy ----------------------------------------------------------------------

    async def privacy(self, interaction: Interaction) -> None:
        async with self._guard(interaction, "privacy"):
            locale = _locale(interaction)
            hidden = await self.records.hidden_scopes(interaction.user.id)
            guild = interaction.guild_id
            await interaction.response.send_message(
                embed=privacy_embed(locale, hidden, guild),
                view=_view(privacy_buttons(locale, interaction.user.id, hidden, guild)),
                ephemeral=True,
            )

    async def _privacy_click(self, interaction: Interaction, button: PrivacyButton) -> None:
        locale = _locale(interaction)
        owner, scope, hide = button.owner, button.scope, button.hide
        if interaction.user.id != owner:
            await self._reply(interaction, tr(locale, "These choices belong to someone else."))
            return
        if scope != GLOBAL and scope != interaction.guild_id:
            await self._reply(interaction, tr(locale, "This button is not valid any more."))
            return
        await self.records.set_privacy(owner, scope, hide)
        hidden = await self.records.hidden_scopes(owner)
        guild = interaction.guild_id
        await interaction.response.edit_message(
            embed=privacy_embed(locale, hidden, guild),
            view=_view(privacy_buttons(locale, owner, hidden, guild)),
        )

    # -- /domino forget-me ---------------------------------------------------------------------

    async def forget_me(self, interaction: Interaction) -> None:
        async with self._guard(interaction, "forget-me"):
            locale = _locale(interaction)
            user = interaction.user.id
            found = await self.forgetting.open_tables(user)  # on every process
            lobbies, running = len(found.lobbies), len(found.running)
            await interaction.response.send_message(
                embed=forget_embed(locale, lobbies, running),
                view=_view(forget_buttons(locale, user, running)),
                ephemeral=True,
            )

    async def _forget_click(self, interaction: Interaction, button: ForgetButton) -> None:
        locale = _locale(interaction)
        owner, choice, announced = button.owner, button.choice, button.running
        if interaction.user.id != owner:
            await self._reply(interaction, tr(locale, "These choices belong to someone else."))
            return
        if choice == "no":
            await interaction.response.edit_message(
                content=tr(locale, "Nothing was deleted."), embed=None, view=None
            )
            return
        found = await self.forgetting.open_tables(owner)
        lobbies, running = len(found.lobbies), len(found.running)
        if running > announced:  # a match he was not warned about: ask again
            await interaction.response.edit_message(
                embed=forget_embed(locale, lobbies, running),
                view=_view(forget_buttons(locale, owner, running)),
            )
            return
        await interaction.response.defer()
        # His tables end wherever they run: here at once, on other processes within seconds.
        await self.forgetting.forget(owner)
        self._seen.pop(owner, None)
        await interaction.edit_original_response(
            content=tr(locale, "Done: your name and figures are deleted from the records."),
            embed=None,
            view=None,
        )

    # -- buttons ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer a click on one of our buttons that its message no longer has.

        discord.py drops such clicks silently (the person would see "interaction failed").
        """
        self._note(interaction.user)
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id")
        if not isinstance(custom_id, str) or not TEMPLATE.fullmatch(custom_id):
            return
        if _on_message(interaction.message, custom_id):
            return  # a live button: RecordsButton handles it
        locale = _locale(interaction)
        await self._reply(
            interaction, tr(locale, "This button is out of date: use the latest message.")
        )

    async def on_button(self, interaction: Interaction, button: RecordsButton) -> None:
        """A click on one of this cog's buttons."""
        async with self._guard(interaction, f"button {button.kind or 'unread'}"):
            locale = _locale(interaction)
            custom_id = (interaction.data or {}).get("custom_id")
            if not _on_message(interaction.message, custom_id):
                return  # not a button of the clicked message: on_interaction answers
            if isinstance(button, LeaderboardButton) and _known_board(button):
                await self._leaderboard_click(interaction, button)
            elif isinstance(button, PeriodButton) and button.bucket in BUCKETS:
                await self._period_click(interaction, button)
            elif isinstance(button, PrivacyButton):
                await self._privacy_click(interaction, button)
            elif isinstance(button, ForgetButton):
                await self._forget_click(interaction, button)
            else:  # forged, or from an incompatible version
                await self._reply(interaction, tr(locale, "This button is not valid any more."))


def _known_board(button: LeaderboardButton) -> bool:
    """Whether the button names a leaderboard there is (a variant or family, an order)."""
    return button.bucket in BUCKETS and button.by in LEADERBOARD_ORDERS


def _period_named(key: str, calendar: SeasonCalendar) -> Period | None:
    """The week, month or season a button's key names (None: none)."""
    kind, _, day = key.partition(":")
    if kind == SEASON:
        return calendar.by_key(key)
    try:
        start = dt.datetime.fromisoformat(day if kind == "week" else f"{day}-01")
    except ValueError:
        return None
    period = period_of(kind, start.replace(tzinfo=dt.UTC).timestamp())
    return period if period.key == key else None


def _on_message(message: discord.Message | None, custom_id: Any) -> bool:
    """Whether ``custom_id`` is still a button of ``message`` (else the click is stale)."""
    if message is None or not isinstance(custom_id, str):
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False
