"""``/domino daily play`` and ``board``, and the publisher of each attempt's posts."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.daily.service import LEGS, VARIANTS, AttemptRow, DailyService
from bot.i18n import tr
from cogs.daily.words import (
    board_embed,
    draw_expert,
    expert_alt_text,
    expert_points,
    nonce,
    result_text,
)
from cogs.domino import texts
from cogs.names import public_name, table_name

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)


COG_NAME = "Daily"
GROUP_NAME = "domino"
NO_PINGS = discord.AllowedMentions.none()
#: Tries of a post in a thread before it waits for the next start.
POST_TRIES = 5


VARIANT_CHOICES = [
    Choice(name=locale_str(texts.VARIANTS[v][1]), value=v) for v in VARIANTS
]
SCOPE_CHOICES = [
    Choice(name=locale_str("this server"), value="server"),
    Choice(name=locale_str("everyone"), value="global"),
]


group = app_commands.Group(
    name="daily",
    description=locale_str("The daily deal: the same deal for everyone today"),
    guild_only=True,
)


def _cog(interaction: Interaction) -> DailyCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the daily cog is not loaded")
    return cog  # type: ignore[no-any-return]


@group.command(name="play", description=locale_str("Play today's deal against expert computers"))
@app_commands.describe(variant=locale_str("The rules to play by"))
@app_commands.choices(variant=VARIANT_CHOICES)
async def play_command(interaction: Interaction, variant: str = VARIANTS[0]) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino daily play"):
        await cog.play(interaction, variant)


@group.command(name="board", description=locale_str("Today's results of the daily deal"))
@app_commands.describe(
    variant=locale_str("The rules to play by"),
    scope=locale_str("This server's players or everyone's"),
)
@app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES)
async def board_command(
    interaction: Interaction, variant: str = VARIANTS[0], scope: str = "server"
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino daily board"):
        locale = interaction.locale.value
        guild_id = interaction.guild_id if scope == "server" else None
        board = await cog.daily.board(variant, guild_id, interaction.user.id)
        streak = await cog.daily.streak(interaction.user.id)
        await cog.reply(interaction, "", embed=board_embed(locale, board, streak))


# ------------------------------------------------------------------------------ the cog


class DailyCog(commands.Cog, name=COG_NAME):
    """The daily deal's commands and the publication of its results."""

    def __init__(self, bot: commands.Bot, daily: DailyService) -> None:
        self.bot = bot
        self.daily = daily
        self._group: app_commands.Group | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._note_lock = asyncio.Lock()  # one leg note at a time: each is checked, posted, marked
        self._posting: set[tuple[str, str, int]] = set()
        self.closing = False

    async def cog_load(self) -> None:
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            found.add_command(group, override=True)
            self._group = found
        self.bot.service.add_observer(self.daily)  # type: ignore[attr-defined]
        self.daily.listen(self._told)
        self.bot.add_listener(self._adopted, "on_tables_adopted")
        self._spawn(self._recover())

    async def cog_unload(self) -> None:
        self.closing = True
        self.daily.unlisten(self._told)
        with contextlib.suppress(ValueError):
            self.bot.service.remove_observer(self.daily)  # type: ignore[attr-defined]
        self.bot.remove_listener(self._adopted, "on_tables_adopted")
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._group is not None:
            self._group.remove_command(group.name)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait until nothing is being published (for tests)."""
        me = asyncio.current_task()
        while True:
            pending = [t for t in self._tasks if not t.done() and t is not me]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def _recover(self) -> None:
        await self.bot.wait_until_ready()
        for attempt in await self.daily.load():
            self._spawn(self.publish(attempt))
        for attempt in await self.daily.unnoted():
            self._spawn(self.next_leg(attempt))

    async def _adopted(self, table_ids: list[int]) -> None:
        if not self.closing:
            await self._recover()

    def _told(self, attempt: AttemptRow) -> None:
        if self.closing:
            return
        self._spawn(self.publish(attempt) if attempt.finished else self.next_leg(attempt))

    async def next_leg(self, attempt: AttemptRow) -> None:
        """Say once in the thread that the leg in play, the same deal from the other seat,
        begins (also after a restart that came between its opening and its note)."""
        if attempt.channel_id is None:
            return
        async with self._note_lock:
            legs = await self.daily.legs(attempt)
            leg = legs[-1] if legs else None
            if leg is None or leg.leg == 0 or leg.noted or leg.points is not None:
                return
            text = tr(
                attempt.locale,
                "<@{user}> Leg {leg} of {legs}: the same deal again, now holding the tiles your "
                "opponent held.",
                user=attempt.user_id,
                leg=leg.leg + 1,
                legs=attempt.legs,
            )
            where = self.bot.get_partial_messageable(attempt.channel_id, guild_id=attempt.guild_id)
            try:
                await where.send(
                    text,
                    nonce=nonce(attempt, f"l{leg.leg + 1}"),
                    # (named, not notified: he is playing the deal in this thread)
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:  # the game message says it too: not retried
                log.info("daily leg note of %s not posted: %s", attempt.day, exc)
            await self.daily.noted(leg)

    # -- answers -------------------------------------------------------------------------------

    def guard(self, interaction: Interaction, what: str) -> Any:
        """The dominoes cog's guard: errors become short private answers."""
        return self._domino().guard(interaction, what, None)

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None:
        """A private answer, whether or not the interaction was answered already."""
        await self._domino().reply(interaction, text, **kwargs)

    def _domino(self) -> Any:
        domino = self.bot.get_cog("Domino")
        if domino is None:
            raise RuntimeError("the dominoes cog is not loaded")
        return domino

    # -- playing -------------------------------------------------------------------------------

    async def play(self, interaction: Interaction, variant: str) -> None:
        """Open the person's private thread and start his attempt there."""
        locale = interaction.locale.value
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.daily.check(variant, user.id)
        domino = self._domino()
        await domino._table_defaults(interaction, variant=variant)  # the server's rules
        channel = interaction.channel
        perms = interaction.app_permissions
        if not isinstance(channel, discord.TextChannel):
            await self.reply(
                interaction,
                tr(locale, "The daily deal is played in a private thread of a text channel: "
                           "use the command in one."),
            )
            return
        if not (perms.create_private_threads and perms.send_messages_in_threads):
            await self.reply(
                interaction,
                tr(locale, "I may not open private threads here. A server manager can let me "
                           "create private threads and send messages in threads."),
            )
            return
        guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
        thread = await channel.create_thread(
            name=tr(guild_locale, "Daily deal · {variant}",
                    variant=texts.variant_name(guild_locale, variant))[:100],
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=1440,
        )
        try:
            await thread.add_user(user)
            _, info = await self.daily.start(
                variant=variant,
                user_id=user.id,
                name=public_name(user),
                seat_name=table_name(user),
                guild_id=interaction.guild_id,
                channel_id=thread.id,
                locale=guild_locale,
            )
        except BaseException:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise
        if not await domino.presenter.open_game(info.id):
            await self.reply(
                interaction,
                texts.permission_text(locale) + "\n" + tr(locale, "The table was cancelled."),
            )
            return
        text = tr(
            locale,
            "Today's {variant} deal is ready in {thread}: press **My tiles** there. You play "
            "with the computers at expert level; one attempt a day.",
            variant=texts.variant_name(locale, variant),
            thread=thread.mention,
        )
        if LEGS.get(variant, 1) > 1:
            text += " " + tr(
                locale,
                "You play the deal twice: then again holding your opponent's tiles, so the luck "
                "of the deal cancels out.",
            )
        await self.reply(interaction, text)

    # -- publishing ----------------------------------------------------------------------------

    async def publish(self, attempt: AttemptRow) -> None:
        """Post the attempt's result and the expert's play in its thread, once."""
        key = (attempt.day, attempt.variant, attempt.user_id)
        if key in self._posting or attempt.channel_id is None:
            return
        self._posting.add(key)
        try:
            fresh = await self.daily.attempt(*key)
            if fresh is None or not fresh.finished or fresh.published:
                return
            locale = fresh.locale
            legs = [int(leg.points or 0) for leg in await self.daily.legs(fresh)]
            streak = await self.daily.streak(fresh.user_id)
            file: discord.File | None = None
            expert: int | None = None
            try:
                play = await self.daily.expert_play(fresh.day, fresh.variant)
                expert = expert_points(play)
                gif = await asyncio.to_thread(draw_expert, play, locale)
                if gif is not None:
                    file = discord.File(
                        io.BytesIO(gif),
                        filename="expert.gif",
                        description=expert_alt_text(locale, play),
                    )
            except Exception:
                log.exception("the expert's play of %s %s failed", fresh.day, fresh.variant)
            content = f"<@{fresh.user_id}> " + result_text(
                locale, fresh, legs, streak, expert, replay=file is not None
            )
            where = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
            for attempt_number in range(POST_TRIES):
                try:
                    kwargs: dict[str, Any] = {"file": file} if file is not None else {}
                    await where.send(
                        content[:2000],
                        nonce=nonce(fresh, "r"),
                        allowed_mentions=discord.AllowedMentions(users=True),
                        **kwargs,
                    )
                    break
                except (discord.Forbidden, discord.NotFound) as exc:
                    log.info("daily result of %s not posted: %s", fresh.day, exc)
                    break  # the thread is gone or closed to the bot: nothing to retry
                except discord.HTTPException:
                    if attempt_number == POST_TRIES - 1:
                        raise
                    await asyncio.sleep(2**attempt_number)
                    if file is not None:
                        file.reset()
            await self.daily.published(fresh)
        finally:
            self._posting.discard(key)
