"""What the ``/domino`` commands and the buttons share: the cog's life cycle, the guard that
turns errors into short ephemeral answers, starting a table where it may run, and the private
hand messages (kept by the presenter).

:class:`TableHost` is a base of the dominoes cog; it is the :class:`~cogs.domino.buttons.Host`
every click is handled with.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord.ext import commands

from bot.errors import PlaceBusy, ServiceError
from bot.i18n import tr
from bot.store import DatabaseUnavailable
from bot.tables.service import TableInfo, TableService
from cogs.domino import buttons
from cogs.domino.buttons import BadButton
from cogs.domino.presenter import Presenter
from cogs.domino.texts import permission_text
from cogs.markup import error_text, unreachable_text
from domino import Tile

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


def locale_of(interaction: Interaction) -> str:
    """The language of the person who clicked or typed."""
    return interaction.locale.value


def guild_locale(interaction: Interaction) -> str | None:
    """The server's language (public messages), if Discord says it."""
    return interaction.guild_locale.value if interaction.guild_locale else None


def missing_permissions(interaction: Interaction) -> list[str]:
    """The channel permissions the bot lacks to run a table where ``interaction`` happens: see
    the channel (to edit the lobby message), embed links, attach files (the pictures), and
    post the game: in the channel, or in a thread (its own, when it may make one)."""
    perms = interaction.app_permissions
    channel = interaction.channel
    needed = ["view_channel", "embed_links", "attach_files"]
    if isinstance(channel, discord.Thread):
        needed.append("send_messages_in_threads")
    elif not (
        isinstance(channel, discord.TextChannel)
        and perms.create_public_threads
        and perms.send_messages_in_threads
    ):
        needed.append("send_messages")
    return [name for name in needed if not getattr(perms, name)]


class NoPermission(Exception):
    """The bot lacks channel permissions a table needs (their names are the arguments)."""


def apology_text(locale: str | None) -> str:
    """The answer to an unexpected error."""
    return tr(locale, "Sorry, something went wrong on my side. Please try again.")


class TableHost:
    """The dominoes cog's shared part (its commands are in :mod:`cogs.domino.commands`)."""

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

    # ------------------------------------------------------------------ errors

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
        locale = locale_of(interaction)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            yield
        except ServiceError as exc:
            await self.reply(interaction, error_text(locale, exc))
        except BadButton:
            await self.reply(interaction, tr(locale, "This button is not valid any more."))
        except NoPermission as exc:
            log.info("%s refused: the bot lacks %s", what, ", ".join(exc.args))
            await self.reply(interaction, permission_text(locale))
        except discord.Forbidden as exc:
            log.info("table %s: %s: Discord refused: %s", table_id, what, exc.text)
            await self.reply(interaction, permission_text(locale))
        except DatabaseUnavailable as exc:  # the store logs the outage once, with its end
            log.debug("table %s: %s: %s", table_id, what, exc)
            await self.reply(interaction, unreachable_text(locale))
        except Exception:
            log.exception("table %s: %s failed", table_id, what)
            await self.reply(interaction, apology_text(locale))
        finally:
            if task is not None:
                self._handlers.discard(task)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted a table's message: its feed posts what is missing again."""
        info = await self.service.table_by_message(payload.message_id)
        if info is not None and info.status == "running":
            self.presenter.feed(info.id).recheck()

    # ------------------------------------------------------------------ places

    @staticmethod
    def is_here(info: TableInfo, channel_id: int | None) -> bool:
        return channel_id is not None and channel_id in (
            info.table.thread_id,
            info.table.channel_id,
        )

    @staticmethod
    def check_permissions(interaction: Interaction) -> None:
        """Refuse (:class:`NoPermission`) a table where the bot could not show or run it."""
        missing = missing_permissions(interaction)
        if missing:
            raise NoPermission(*missing)

    def check_place_free(self, channel: Any, table_id: int | None = None) -> None:
        """One running table per thread (a table started from a channel gets its own thread)."""
        if isinstance(channel, discord.Thread) and self.service.place_busy(
            channel.id, exclude=table_id
        ):
            raise PlaceBusy("A match is already running here.")

    def check_start_place(self, channel: Any) -> None:
        """Before opening a table that starts at once: :class:`PlaceBusy` if its match could
        not start in ``channel`` now (no thread of its own, and a match runs there)."""
        self.check_place_free(channel)
        if (
            channel is not None
            and not self._can_thread(channel)
            and self.service.place_busy(channel.id)
        ):
            raise PlaceBusy("A match is already running here.")

    async def _check_start_place(self, info: TableInfo) -> bool:
        """Check the match may start where the table is; True if it gets a thread of its own
        (then it does not occupy the channel)."""
        channel_id = info.table.channel_id
        channel = self.bot.get_channel(channel_id) if channel_id is not None else None
        self.check_place_free(channel, info.id)
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
        locale = locale_of(interaction)
        await self.reply(
            interaction,
            permission_text(locale) + "\n" + tr(locale, "The table was cancelled."),
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
        await self.presenter.hands.show(
            interaction, table_id, new=new, choose=choose, notice=notice
        )

    def claim_hand(self, interaction: Interaction, table_id: int, seq: int) -> None:
        """The clicker's hand message is about to show the state ``seq``."""
        self.presenter.hands.claim(interaction, table_id, seq)

    async def rematch(self, interaction: Interaction, table_id: int) -> None:
        """The clicker accepts the rematch of ``table_id``."""
        await self.presenter.wrapup.accept(
            interaction, table_id, check=lambda old: self.check_rematch(interaction, old)
        )

    async def check_rematch(self, interaction: Interaction, old: TableInfo) -> None:
        """Refuse a rematch the server's settings would not let its host open (the server
        settings mixin says how)."""
