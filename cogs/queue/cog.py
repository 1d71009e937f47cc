"""``/domino play``, ``play-post`` and ``play-settings``; the publisher of the quick match: the
mention in each table's thread (once), the people's private answers, the "Play now" posts
(edited at most once per :data:`POST_EVERY` seconds), the quiet notes of expired places."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import N_, tr
from bot.limits import Limits
from bot.queue.matching import Seating
from bot.queue.service import SHAPES, QueueListener, QueueService
from bot.queue.store import KEPT, ExpiredRow, QueueTableRow
from bot.queue.values import ANY, COMPUTERS_AFTER, COMPUTERS_AFTER_RANGE, EXPIRY, EXPIRY_RANGE
from bot.servers.settings import ServerSettings, check_host
from bot.store import DatabaseUnavailable
from bot.tables.places import TablePlaces
from bot.tables.service import TableInfo
from cogs.domino.choices import VARIANT_CHOICES
from cogs.markup import slash_command
from cogs.names import public_name, table_name
from cogs.queue.buttons import ALL, COG_NAME, leave_view, post_view
from cogs.queue.words import (
    LEFT,
    NOT_QUEUED,
    NOT_YOURS,
    note_text,
    post_text,
    seated_note,
    status_text,
    thread_note,
)

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)

GROUP_NAME = "domino"
#: Seconds between two edits of a server's "Play now" post, however many join or leave.
POST_EVERY = 10.0
#: Seconds between two looks at the open pool's count (its changes made by other processes).
POOL_EVERY = 10.0
#: Seconds an interaction's answer can still be edited (Discord keeps its token 15 minutes).
ANSWER_LIFE = 14 * 60
MANAGERS_ONLY = N_("Only members who can manage the server can do this.")

PLAY_CHOICES = [Choice(name=locale_str("Any variant"), value=ANY), *VARIANT_CHOICES]


def _cog(interaction: Interaction) -> QueueCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the queue cog is not loaded")
    return cog  # type: ignore[no-any-return]


@app_commands.command(
    name="play", description=locale_str("Quick match: be seated at the next table")
)
@app_commands.describe(
    variant=locale_str("The rules to play by (any: the first table that fills)"),
    computers=locale_str("Let computers fill empty seats after a wait (default: yes)"),
)
@app_commands.choices(variant=PLAY_CHOICES)
@app_commands.guild_only()
async def play_command(
    interaction: Interaction, variant: str = ANY, computers: bool = True
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino play"):
        await cog.join(interaction, variant, computers)


@app_commands.command(
    name="play-post", description=locale_str("Post a Play now message here (Manage Server)")
)
@app_commands.guild_only()
async def play_post_command(interaction: Interaction) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino play-post"):
        await cog.post_here(interaction)


@app_commands.command(
    name="play-settings", description=locale_str("The quick match's waits (Manage Server)")
)
@app_commands.describe(
    expiry=locale_str("Minutes a place in the queue is kept (15)"),
    computers_after=locale_str("Seconds before computers fill empty seats (60)"),
    reset=locale_str("Put both back to the bot's defaults"),
)
@app_commands.guild_only()
async def play_settings_command(
    interaction: Interaction,
    expiry: app_commands.Range[int, EXPIRY_RANGE[0] // 60, EXPIRY_RANGE[1] // 60] | None = None,
    computers_after: app_commands.Range[
        int, COMPUTERS_AFTER_RANGE[0], COMPUTERS_AFTER_RANGE[1]
    ] | None = None,
    reset: bool = False,
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino play-settings"):
        await cog.settings(interaction, expiry, computers_after, reset)


COMMANDS = (play_command, play_post_command, play_settings_command)


class QueueCog(commands.Cog, QueueListener, name=COG_NAME):
    """The quick match's commands, components and posts."""

    def __init__(
        self,
        bot: commands.Bot,
        queue: QueueService,
        *,
        post_every: float = POST_EVERY,
        pool_every: float = POOL_EVERY,
    ) -> None:
        self.bot = bot
        self.queue = queue
        self.post_every = post_every
        self.pool_every = pool_every
        self._pool_seen: tuple[int, float] | None = None  # the pool as the posts last saw it
        self._shown: dict[int, str] = {}  # server -> the words its post shows now
        self._watcher: asyncio.Task[None] | None = None
        self.answers: dict[int, tuple[Interaction, float]] = {}  # user -> his answer, when
        self.post_edits = 0  # edits of "Play now" posts (Discord requests)
        self._joining: set[int] = set()
        self._seated: dict[int, int] = {}  # person joining now -> the table he was seated at
        self._bounced: dict[int, ExpiredRow] = {}  # person joining now -> his table's failure
        self._announcing: dict[int, asyncio.Task[Any]] = {}  # table -> its announcement
        self._post_tasks: dict[int, asyncio.Task[Any]] = {}
        self._last_edit: dict[int, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._group: app_commands.Group | None = None
        self.closing = False

    # -- life cycle --------------------------------------------------------------------------

    async def cog_load(self) -> None:
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            for command in COMMANDS:
                found.add_command(command, override=True)
            self._group = found
        self.bot.add_dynamic_items(*ALL)
        self.queue.listen(self)
        self.bot.add_listener(self._adopted, "on_tables_adopted")
        self._spawn(self._recover())
        self._watcher = asyncio.ensure_future(self._watch_pool())  # (not awaited by idle())

    async def cog_unload(self) -> None:
        self.closing = True
        self.queue.unlisten(self)
        self.queue.close()
        self.bot.remove_dynamic_items(*ALL)
        self.bot.remove_listener(self._adopted, "on_tables_adopted")
        for task in [*self._tasks, *([self._watcher] if self._watcher else [])]:
            task.cancel()
        await asyncio.gather(
            *self._tasks, *([self._watcher] if self._watcher else []), return_exceptions=True
        )
        if self._group is not None:
            for command in COMMANDS:
                self._group.remove_command(command.name)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until nothing is being published (for tests)."""
        me = asyncio.current_task()
        while pending := [t for t in self._tasks if not t.done() and t is not me]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def _recover(self) -> None:
        """After a start (or shards taken over): time the queues, announce the tables and send
        the notes a stop left owed."""
        await self.bot.wait_until_ready()
        await self.queue.load()
        for row in await self.queue.unannounced():
            self._announce(row.table_id, row)
        for note in await self.queue.expired_notes():
            self._spawn(self._note(note))

    async def _adopted(self, table_ids: list[int]) -> None:
        if not self.closing:
            await self._recover()

    # -- answers -----------------------------------------------------------------------------

    def _domino(self) -> Any:
        domino = self.bot.get_cog("Domino")
        if domino is None:
            raise RuntimeError("the dominoes cog is not loaded")
        return domino

    def guard(self, interaction: Interaction, what: str) -> Any:
        return self._domino().guard(interaction, what, None)

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None:
        await self._domino().reply(interaction, text, **kwargs)

    # -- joining and leaving -----------------------------------------------------------------

    async def join(self, interaction: Interaction, variant: str, computers: bool) -> None:
        """Queue the person (or show him his place); seat him at once if a table fills."""
        locale = interaction.locale.value
        guild_id = interaction.guild_id
        user = interaction.user
        if guild_id is None or interaction.channel_id is None:
            raise ServiceError("This command works only on a server.")
        self.queue.check_variant(variant)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.queue.status(user.id)
        if found is not None:
            await self.reply(
                interaction,
                status_text(locale, found, again=True),
                view=leave_view(locale, user.id),
            )
            return
        settings = await ServerSettings(self.queue.store).get(guild_id)
        channel = interaction.channel
        check_host(
            settings,
            channel_ids=(interaction.channel_id, getattr(channel, "parent_id", None)),
            role_ids=frozenset(r.id for r in getattr(user, "roles", ())),
            manager=bool(interaction.permissions.manage_guild),
        )
        # A table opens in a thread of a text channel: a thread's parent, else the channel.
        where = getattr(channel, "parent_id", None) or interaction.channel_id
        self._joining.add(user.id)
        try:
            await self.queue.join(
                user_id=user.id,
                guild_id=guild_id,
                channel_id=where,
                variant=variant,
                name=table_name(user),
                public_name=public_name(user),
                computers=computers,
                locale=interaction.guild_locale.value if interaction.guild_locale else None,
                member_limits=Limits(
                    lobbies_per_user=settings.lobbies_per_member or 0,
                    matches_per_user=settings.matches_per_member or 0,
                ),
            )
            self.answers[user.id] = (interaction, self.queue.clock())
            still = await self.queue.status(user.id)
            if still is None:  # seated at once
                table = self._seated.pop(user.id, None)
                if table is not None:
                    task = self._announcing.get(table)
                    if task is not None:
                        with contextlib.suppress(Exception):
                            await asyncio.shield(task)
                    bounced = self._bounced.pop(user.id, None)
                    if bounced is not None:  # the table could not open: he is told why
                        await self._tell_bounced(interaction, bounced)
                        return
                    info = await self.queue.tables.get(table)
                    await self.reply(interaction, seated_note(
                        locale, info.ruleset.id, await self._thread_of(info, user.id), table
                    ))
                    return
                await self.reply(interaction, tr(locale, NOT_QUEUED))
                return
            await self.reply(
                interaction, status_text(locale, still), view=leave_view(locale, user.id)
            )
        finally:
            self._joining.discard(user.id)

    async def leave(self, interaction: Interaction, owner: int) -> None:
        """The Leave button: only its owner gives up his place."""
        locale = interaction.locale.value
        if interaction.user.id != owner:
            await self.reply(
                interaction,
                tr(locale, NOT_YOURS, command=_command(locale)),
            )
            return
        entry = await self.queue.leave(owner)
        self.answers.pop(owner, None)
        text = tr(locale, LEFT if entry is not None else NOT_QUEUED)
        await interaction.response.edit_message(content=text, view=None)

    # -- the listener ------------------------------------------------------------------------

    async def on_queue_changed(self, guild_id: int) -> None:
        if not self.closing and self.queue.tables.owns(guild_id):
            self._post_soon(guild_id)

    async def on_pool_changed(self) -> None:
        if not self.closing:
            await self._look_at_pool()

    async def on_queue_seated(self, table: TableInfo, seating: Seating) -> None:
        for user_id in seating.seated:
            if user_id in self._joining:
                self._seated[user_id] = table.id
        if not self.closing:
            self._announce(table.id, None, seating)

    async def on_queue_expired(self, note: ExpiredRow) -> None:
        if not self.closing:
            self._spawn(self._note(note))

    # -- the tables' announcements -----------------------------------------------------------

    def _announce(
        self, table_id: int, row: QueueTableRow | None, seating: Seating | None = None
    ) -> None:
        if table_id in self._announcing:
            return
        people = seating.seated if seating is not None else (row.people if row else ())
        task = self._spawn(self._announce_table(table_id, people))
        self._announcing[table_id] = task
        task.add_done_callback(lambda done: _drop(self._announcing, table_id, done))

    async def _announce_table(self, table_id: int, people: tuple[int, ...]) -> None:
        """Open the table's game (its thread) and mention its people there, once; tell each
        person whose answer can still be edited where his table is."""
        domino = self._domino()
        await domino.presenter.open_game(table_id)
        info = await self.queue.tables.get(table_id)
        if info.status == "cancelled":  # the bot may not post in its channel
            for note in await self.queue.give_back(info):
                if note.user_id in self._joining:
                    self._bounced[note.user_id] = note  # his own answer says it
                else:
                    self._spawn(self._note(note))
            return
        if info.status in ("running", "finished"):
            computers = sum(1 for s in info.seats if s is not None and s.kind == "computer")
            groups = SHAPES[info.ruleset.id].people if info.ruleset.id in SHAPES else 0
            per_group = max(1, len(info.seats) // max(1, groups))
            # Each server's people are mentioned in their own server's thread (a table across
            # servers is shown in each server, its places' rows naming their people).
            shown = await TablePlaces(self.queue.tables).of_table(table_id)
            if any(not p.thread_id for p in shown):
                with contextlib.suppress(Exception):
                    await domino.presenter.converge_places(table_id)
                shown = await TablePlaces(self.queue.tables).of_table(table_id)
            spots = [
                (p.thread_id or p.channel_id, p.guild_id, [u for u in people if u in p.people],
                 f"q.{table_id}" if p.place == 0 else f"q.{table_id}.{p.place}")
                for p in shown
            ] or [(
                info.table.thread_id or info.table.channel_id, info.table.guild_id,
                list(people), f"q.{table_id}",
            )]
            for where_id, guild_id, mentioned, nonce in spots:
                if where_id and mentioned:
                    text = thread_note(info.table.locale, mentioned, computers // per_group)
                    await self._mention(table_id, where_id, guild_id, text, nonce)
            for user_id in people:
                if user_id in self._joining:
                    continue  # his own answer is being written now
                await self._edit_answer(
                    user_id,
                    seated_note(self._answer_locale(user_id), info.ruleset.id,
                                await self._thread_of(info, user_id), table_id),
                )
        await self.queue.announced(table_id)

    async def _thread_of(self, info: TableInfo, user_id: int) -> int | None:
        """Where the person sees his table: his server's thread (a table across servers is
        shown in each server's own), else the table's."""
        for attempt in range(2):
            for place in await TablePlaces(self.queue.tables).of_table(info.id):
                if user_id in place.people and (place.thread_id or attempt):
                    return place.thread_id or place.channel_id
            if attempt == 0 and not await TablePlaces(self.queue.tables).of_table(info.id):
                break
            with contextlib.suppress(Exception):  # its message is being brought there now
                await self._domino().presenter.converge_places(info.id)
        return info.table.thread_id

    async def _mention(
        self, table_id: int, where_id: int, guild_id: int, text: str, nonce: str
    ) -> None:
        """Post a table's mention in a thread (retried; a thread gone or closed: skipped)."""
        where = self.bot.get_partial_messageable(where_id, guild_id=guild_id)
        for attempt in range(3):
            try:
                await where.send(
                    text[:2000], nonce=nonce,
                    allowed_mentions=discord.AllowedMentions(users=True),
                )
                return
            except (discord.Forbidden, discord.NotFound) as exc:
                log.info("queue table %s: mention not posted: %s", table_id, exc)
                return
            except discord.HTTPException:
                if attempt == 2:
                    raise
                await asyncio.sleep(2**attempt)

    def _answer_locale(self, user_id: int) -> str | None:
        found = self.answers.get(user_id)
        return found[0].locale.value if found else None

    async def _edit_answer(
        self, user_id: int, text: str, view: discord.ui.View | None = None
    ) -> bool:
        """Edit the person's private answer (while Discord keeps its token); False if not."""
        found = self.answers.pop(user_id, None)
        if found is None or self.queue.clock() - found[1] > ANSWER_LIFE:
            return False
        if view is not None:  # (his place is back: the answer stays his to edit)
            self.answers[user_id] = found
        try:
            await found[0].edit_original_response(content=text, view=view)
        except discord.HTTPException as exc:
            log.info("queue answer of %s not edited: %s", user_id, exc)
            return False
        return True

    # -- expired places ----------------------------------------------------------------------

    async def _tell_bounced(self, interaction: Interaction, note: ExpiredRow) -> None:
        """The joiner's own answer, when the table his join filled could not open."""
        locale = interaction.locale.value
        view = leave_view(locale, note.user_id) if note.reason == KEPT else None
        await self.reply(interaction, note_text(locale, note), **({"view": view} if view else {}))
        await self.queue.noted(note)

    async def _note(self, note: ExpiredRow) -> None:
        """The quiet note (an expired place, a table that could not open): his answer edited,
        else a direct message without a notification."""
        locale = self._answer_locale(note.user_id) or note.locale
        text = note_text(locale, note)
        view = leave_view(locale, note.user_id) if note.reason == KEPT else None
        if not await self._edit_answer(note.user_id, text, view):
            try:
                user = self.bot.get_user(note.user_id) or await self.bot.fetch_user(note.user_id)
                await user.send(
                    text, silent=True, nonce=f"q.x.{note.user_id % 10**9}.{int(note.expired_at)}"
                )
            except discord.HTTPException as exc:  # he does not take direct messages
                log.info("queue note to %s not sent: %s", note.user_id, exc)
        await self.queue.noted(note)

    # -- the "Play now" posts ----------------------------------------------------------------

    def _post_soon(self, guild_id: int) -> None:
        """Edit the server's post after at most :attr:`post_every` seconds since the last edit
        (however many changes come meanwhile: one edit)."""
        if guild_id in self._post_tasks:
            return
        task = self._spawn(self._edit_post(guild_id))
        self._post_tasks[guild_id] = task
        task.add_done_callback(lambda done: _drop(self._post_tasks, guild_id, done))

    async def _watch_pool(self) -> None:
        """Every :attr:`pool_every` seconds, one look at the open pool's count: a change made
        by another process's servers reaches this process's pool posts (throttled as any
        change)."""
        await self.bot.wait_until_ready()
        while not self.closing:
            try:
                await self._look_at_pool()
            except DatabaseUnavailable:
                pass  # the store logs an outage once
            except Exception:
                log.exception("the open pool's count not read")
            await asyncio.sleep(self.pool_every)

    async def _look_at_pool(self) -> None:
        """Edit (soon) the pool posts of this process's servers if someone joined or left the
        pool (a server's own people seated by another process change its figures too)."""
        posts = await self.queue.pool_posts()
        if not posts:
            return
        mark = await self.queue.pool_mark()
        if mark == self._pool_seen:
            return
        self._pool_seen = mark
        for post in posts:
            self._post_soon(post.guild_id)

    async def _post_words(self, guild_id: int, locale: str | None) -> str:
        pool = await self.queue.pool_waiting() if await self.queue.in_pool(guild_id) else None
        return post_text(locale, await self.queue.counts(guild_id), pool)

    async def _edit_post(self, guild_id: int) -> None:
        loop = asyncio.get_running_loop()
        wait = self._last_edit.get(guild_id, -1e9) + self.post_every - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        post = await self.queue.repo.post(guild_id)
        if post is None or post.message_id is None:
            return
        _drop(self._post_tasks, guild_id, asyncio.current_task())  # a change from now on
        # edits again
        text = await self._post_words(guild_id, post.locale)
        if self._shown.get(guild_id) == text:
            return  # (no request: it says this already)
        message = self.bot.get_partial_messageable(
            post.channel_id, guild_id=guild_id
        ).get_partial_message(post.message_id)
        self._last_edit[guild_id] = loop.time()
        try:
            self.post_edits += 1
            await message.edit(content=text, view=post_view(post.locale))
            self._shown[guild_id] = text
        except discord.NotFound:
            await self.queue.repo.drop_post(guild_id)
        except discord.HTTPException as exc:
            log.info("play-now post of %s not edited: %s", guild_id, exc)

    async def post_here(self, interaction: Interaction) -> None:
        """Post the "Play now" message in this channel (it replaces the server's earlier one)."""
        locale = interaction.locale.value
        guild_id = interaction.guild_id
        if guild_id is None or interaction.channel_id is None:
            raise ServiceError("This command works only on a server.")
        if not interaction.permissions.manage_guild:
            await self.reply(interaction, tr(locale, MANAGERS_ONLY))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        post_locale = interaction.guild_locale.value if interaction.guild_locale else None
        old = await self.queue.repo.post(guild_id)
        channel = self.bot.get_partial_messageable(interaction.channel_id, guild_id=guild_id)
        text = await self._post_words(guild_id, post_locale)
        sent = await channel.send(text, view=post_view(post_locale))
        self._shown[guild_id] = text
        await self.queue.repo.set_post(
            guild_id, interaction.channel_id, sent.id, post_locale, self.queue.clock()
        )
        if old is not None and old.message_id is not None and old.message_id != sent.id:
            with contextlib.suppress(discord.HTTPException):
                old_channel = self.bot.get_partial_messageable(old.channel_id, guild_id=guild_id)
                await old_channel.get_partial_message(old.message_id).delete()
        await self.reply(interaction, tr(
            locale, "The Play now post is in {channel}; it shows who waits.",
            channel=f"<#{interaction.channel_id}>",
        ))

    # -- settings ----------------------------------------------------------------------------

    async def settings(
        self, interaction: Interaction, expiry: int | None, computers_after: int | None,
        reset: bool,
    ) -> None:
        """Show the quick match's waits on this server; change those given."""
        locale = interaction.locale.value
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("This command works only on a server.")
        store = ServerSettings(self.queue.store, clock=self.queue.clock)
        changes: dict[str, Any] = {}
        if reset:
            changes = {"queue_expiry": None, "queue_computers_after": None}
        if expiry is not None:
            changes["queue_expiry"] = expiry * 60
        if computers_after is not None:
            changes["queue_computers_after"] = computers_after
        if changes and not interaction.permissions.manage_guild:
            await self.reply(interaction, tr(locale, MANAGERS_ONLY))
            return
        current = await store.update(guild_id, **changes) if changes else await store.get(guild_id)
        kept = current.queue_expiry if current.queue_expiry is not None else EXPIRY
        after = (
            current.queue_computers_after
            if current.queue_computers_after is not None
            else COMPUTERS_AFTER
        )
        head = tr(locale, "Quick match settings saved.") if changes else ""
        body = tr(
            locale,
            "A place in the queue is kept {minutes} min; computers fill the empty seats after "
            "{seconds} s of waiting (unless a person refused them).",
            minutes=kept // 60,
            seconds=after,
        )
        await self.reply(interaction, f"{head}\n{body}".strip())


def _drop(tasks: dict[int, asyncio.Task[Any]], key: int, task: object) -> None:
    """Forget ``tasks[key]`` if it is still ``task`` (not a newer one)."""
    if tasks.get(key) is task:
        del tasks[key]


def _command(locale: str | None) -> str:
    return slash_command(locale, "domino play")
