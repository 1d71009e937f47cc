"""The tournament cog: its life cycle, the guard of commands and clicks, and the publisher of
each event's posts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import N_, number, tr, trn
from bot.records.seasons_service import TOURNAMENT, Seasons
from bot.store import DatabaseUnavailable
from bot.tournaments.core import family_of
from bot.tournaments.service import (
    EventState,
    TournamentService,
)
from bot.tournaments.store import BoardRow, EventRow
from bot.web.links import tournament_path
from cogs.colours import BLUE, GOLD, GREY
from cogs.markup import error_text, unreachable_text
from cogs.names import escape_name, table_name
from cogs.records.achievements import earned_lines, shown_at_match_end
from cogs.records.boards import Crowned, crown_champions, crowned_text
from cogs.records.prizes import giving_problem
from cogs.records.words import family_name
from cogs.tournaments import arena as arena_posts
from cogs.tournaments.buttons import (
    BUTTONS,
    COG_NAME,
    CheckInButton,
    HereButton,
    PartnerButton,
    view_of,
)
from cogs.tournaments.commands import group
from cogs.tournaments.posts import (
    LINES_SHOWN,
    announcement,
    board_result,
    entry_name,
    knockout_lines,
    pairings_embed,
    standings_lines,
)
from cogs.web_links import web_button, web_url

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)


GROUP_NAME = "domino"
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()
RETRYABLE = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, ConnectionError)
MENTIONED = 80  # people a post mentions at most (Discord: 2000 characters, 100 mentions)
THREAD_WAIT = 0.5  # seconds before looking again for a table's thread being made
MEDALS = ("🥇", "🥈", "🥉")


def only(users: list[int]) -> discord.AllowedMentions:
    """Mentions that notify ``users`` and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users]
    )


def announce(state: EventState, page: str | None) -> tuple[discord.Embed, Any]:
    """The event's announcement (an arena's its own)."""
    if state.event.system == "arena":
        return arena_posts.announcement(state, page)
    return announcement(state, page)


def nonce(event_id: int, key: str) -> str:
    """A post's nonce (at most 25 characters): the same post after a crash is not doubled."""
    return f"t.{event_id}.{key}"[:25]


class TournamentCog(commands.Cog, name=COG_NAME):
    """The tournament commands, buttons and publication."""

    def __init__(self, bot: commands.Bot, events: TournamentService) -> None:
        self.bot = bot
        self.events = events
        self._group: app_commands.Group | None = None
        self._dirty: dict[int, asyncio.Event] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._shown: dict[int, Any] = {}  # event -> what its announcement shows
        self._later: dict[int, float] = {}  # event -> seconds until its next standings edit
        self.closing = False

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS)
        found = self.bot.tree.get_command(GROUP_NAME)
        if isinstance(found, app_commands.Group):
            found.add_command(group, override=True)
            self._group = found
        self.bot.service.add_observer(self.events)  # type: ignore[attr-defined]
        self.events.listen(self.wake)
        self.bot.add_listener(self._adopted, "on_tables_adopted")
        self.bot.add_listener(self._released, "on_tables_released")
        self._spawn(self._recover())

    async def cog_unload(self) -> None:
        self.closing = True
        self.events.unlisten(self.wake)
        with contextlib.suppress(ValueError):
            self.bot.service.remove_observer(self.events)  # type: ignore[attr-defined]
        self.bot.remove_listener(self._adopted, "on_tables_adopted")
        self.bot.remove_listener(self._released, "on_tables_released")
        for task in [*self._workers.values(), *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._workers.values(), *self._tasks, return_exceptions=True)
        if self._group is not None:
            self._group.remove_command(group.name)
        self.bot.remove_dynamic_items(*BUTTONS)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _recover(self) -> None:
        await self.bot.wait_until_ready()
        for event_id in await self.events.load():
            self.wake(event_id)
        for event_id in await self.events.unpublished():
            self.wake(event_id)

    async def _adopted(self, table_ids: list[int]) -> None:
        if not self.closing:
            await self._recover()

    async def _released(self, table_ids: list[int]) -> None:
        for event_id in self.events.release_unowned():
            worker = self._workers.pop(event_id, None)
            if worker is not None:
                worker.cancel()

    async def idle(self) -> None:
        """Wait until nothing is being published (for tests)."""
        me = asyncio.current_task()
        while True:
            pending = [
                t for t in (*self._workers.values(), *self._tasks) if not t.done() and t is not me
            ]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    # -- errors and answers --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def guard(self, interaction: Interaction, what: str) -> AsyncIterator[None]:
        locale = interaction.locale.value
        try:
            yield
        except ServiceError as exc:
            await self.reply(interaction, error_text(locale, exc))
        except discord.Forbidden as exc:
            log.info("%s: Discord refused: %s", what, exc.text)
            await self.reply(interaction, tr(locale, "Discord did not let me do that here."))
        except DatabaseUnavailable:  # the store logs the outage once, with its end
            await self.reply(interaction, unreachable_text(locale))
        except Exception:
            log.exception("%s failed", what)
            await self.reply(
                interaction, tr(locale, "Sorry, something went wrong on my side. Please try again.")
            )

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None:
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, **kwargs)
            else:
                await interaction.response.send_message(text, ephemeral=True, **kwargs)
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)

    async def is_manager(self, interaction: Interaction) -> bool:
        """Manage Server, or the server's organiser role."""
        if interaction.permissions.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role = await self.events.organiser_role(interaction.guild_id)
        roles = getattr(interaction.user, "roles", ())
        return role is not None and any(r.id == role for r in roles)

    async def here_event(self, interaction: Interaction) -> EventRow:
        if interaction.guild_id is None:
            raise ServiceError("This command works only on a server.")
        channel = interaction.channel
        parent = getattr(channel, "parent_id", None)
        return await self.events.find(interaction.guild_id, parent or interaction.channel_id)

    async def register_user(
        self, interaction: Interaction, event_id: int, partner: discord.abc.User | None
    ) -> str:
        locale = interaction.locale.value
        if partner is not None and partner.bot:
            raise ServiceError("A bot cannot be your partner.")
        if partner is not None:
            return await self._invite(interaction, event_id, partner)
        user = interaction.user
        entry = await self.events.register(event_id, user.id, table_name(user))
        event = await self.events.get(event_id)
        if event.system == "arena" and event.status == "running":
            return tr(locale, "You are in the arena: you are paired as soon as a table is free.")
        if event.system == "arena":
            return tr(locale, "You are registered. You will be notified when the arena starts.")
        if entry.joined_round > 1:
            return tr(
                locale,
                "You are registered late: you play from round {round}, with a half-point"
                " bye for the rounds before.",
                round=entry.joined_round,
            )
        event = await self.events.get(event_id)
        if not event.checkin:
            return tr(
                locale, "You are registered. You will be notified when the tournament starts."
            )
        return tr(locale, "You are registered. Check in when each round's check-in opens.")

    async def _invite(
        self, interaction: Interaction, event_id: int, partner: discord.abc.User
    ) -> str:
        """Invite ``partner`` to a pairs event: he is asked, with Accept and Decline."""
        locale = interaction.locale.value
        await self.events.invite(
            event_id,
            interaction.user.id,
            table_name(interaction.user),
            (partner.id, table_name(partner)),
        )
        event = await self.events.get(event_id)
        channel = self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        await channel.send(
            tr(
                event.locale,
                "<@{partner}>, <@{user}> registers with you as a pair in {name}: do you accept?",
                partner=partner.id,
                user=interaction.user.id,
                name=escape_name(event.name),
            ),
            view=view_of(
                PartnerButton(
                    event_id,
                    "yes",
                    interaction.user.id,
                    label=tr(event.locale, "Accept"),
                    style=discord.ButtonStyle.success,
                ),
                PartnerButton(
                    event_id, "no", interaction.user.id, label=tr(event.locale, "Decline")
                ),
            ),
            allowed_mentions=only([partner.id]),  # (the inviter is named, not notified)
        )
        return tr(locale, "Your partner is asked to confirm your pair.")

    # -- publication ---------------------------------------------------------------------------

    def wake(self, event_id: int) -> None:
        """The event changed: bring its messages up to date (on a task of its own)."""
        if self.closing:
            return
        flag = self._dirty.setdefault(event_id, asyncio.Event())
        flag.set()
        worker = self._workers.get(event_id)
        if worker is None or worker.done():
            self._workers[event_id] = asyncio.ensure_future(self._work(event_id))

    async def _work(self, event_id: int) -> None:
        """Publish while the event keeps changing; when Discord fails, or a post must wait a
        moment, the next try is a stored deadline of the one clock (a kill loses nothing)."""
        flag = self._dirty[event_id]
        while flag.is_set() and not self.closing:
            flag.clear()
            try:
                complete = await self._publish(event_id)
                if not complete:  # a table's thread is being made: come back in a moment
                    await self.events.publish_later(event_id, THREAD_WAIT)
                    return
                await self.events.published(event_id)
                if wait := self._later.pop(event_id, 0.0):  # (the arena's standings post)
                    await self.events.publish_later(event_id, wait)
            except RETRYABLE as exc:
                await self._again(event_id, exc)
                return
            except Exception:
                log.exception("tournament %s: publication failed", event_id)
                return

    async def _again(self, event_id: int, exc: BaseException) -> None:
        """Discord failed: the next try is a stored deadline (when the store answers)."""
        try:
            delay = await self.events.publish_later(event_id)
        except Exception:
            log.exception("tournament %s: the next publication could not be set", event_id)
            return
        log.info("tournament %s: publication delayed %.0f s: %s", event_id, delay, exc)

    async def _send(
        self, event: EventRow, key: str, where: int, content: str | None = None, **kwargs: Any
    ) -> None:
        """Post once: with the nonce of ``key``, then mark it."""
        channel = self.bot.get_partial_messageable(where, guild_id=event.guild_id)
        kwargs.setdefault("allowed_mentions", NO_PINGS)
        message = await channel.send(content, nonce=nonce(event.id, key), **kwargs)
        await self.events.mark_post(event.id, key, message.id)

    async def _page(self, event: EventRow) -> str | None:
        """The event's web page, where the server has pages on (the pages show no event of a
        channel @everyone could not view)."""
        if not event.public_place:
            return None
        path = tournament_path(event.guild_id, event.id)
        return await web_url(self.bot, self.events.store, event.guild_id, path)

    def _linked(self, event: EventRow, page: str | None) -> dict[str, Any]:
        """The view of a post that carries only the link to the event's page, if any."""
        return {"view": view_of(web_button(event.locale, page))} if page else {}

    async def _publish(self, event_id: int) -> bool:
        """Bring the event's posts up to date; False if one must wait a moment."""
        complete = True
        state = await self.events.state(event_id)
        posts = await self.events.posts(event_id)
        event = state.event
        locale = event.locale
        here = event.channel_id
        page = await self._page(event)
        if "announce" not in posts:
            embed, view = announce(state, page)
            await self._send(
                event, "announce", here, embed=embed, **({"view": view} if view else {})
            )
            posts = await self.events.posts(event_id)
        await self._refresh_announcement(state, posts.get("announce"), page)
        if event.system == "arena":
            wait = await arena_posts.publish(self, state, posts)
            complete = wait >= 0
            if wait > 0:
                self._later[event_id] = wait
        for row in state.rounds:
            number = row.number
            key = f"checkin.{number}"
            if key not in posts and row.status == "checkin" and event.checkin:
                starts = await self._round_start(event_id, number)
                called = state.called(number)[:MENTIONED]
                text = tr(
                    locale,
                    "Round {round} of {name}: check in now; the round starts {when}.",
                    round=number,
                    name=escape_name(event.name),
                    when=f"<t:{int(starts)}:R>" if starts else "…",
                )
                await self._send(
                    event,
                    key,
                    here,
                    "\n".join([text, " ".join(f"<@{u}>" for u in called)]).strip(),
                    allowed_mentions=only(called),
                    view=view_of(
                        CheckInButton(
                            event_id,
                            label=tr(locale, "Check in"),
                            style=discord.ButtonStyle.success,
                        )
                    ),
                )
            boards = state.boards_of(number)
            key = f"pairings.{number}"
            if boards and key not in posts:
                people = sorted({u for b in boards for u in b.people if u is not None})
                # Those at a table are notified by their seat post; the byes here, on a
                # line of their own.
                byes = sorted({
                    u
                    for b in boards
                    if b.is_bye
                    for e in b.sides[0]
                    if e is not None
                    for u in (state.entry(e) or _NONE).members
                    if u > 0
                } - set(people))[:MENTIONED]
                lines = [" ".join(f"<@{u}>" for u in people)[:1800]]
                if byes:
                    lines.append(tr(locale, "Bye: {name}", name=" ".join(f"<@{u}>" for u in byes)))
                places = await self._places(event, boards)
                if places is None:  # a table's thread is being made: link it once it exists
                    complete = False
                    continue
                await self._send(
                    event,
                    key,
                    here,
                    "\n".join(lines).strip() or None,
                    embed=pairings_embed(state, number, places),
                    allowed_mentions=only(byes),
                    **self._linked(event, page),
                )
            for b in boards:
                complete &= await self._seat_post(state, b, posts)
            key = f"standings.{number}"
            if row.status == "done" and boards and key not in posts:
                await self._standings_post(state, number, key, page)
        for c in await self.events.corrections(event_id):
            key = f"corr.{c.id}"
            if key not in posts:
                await self._send(
                    event,
                    key,
                    here,
                    tr(
                        locale,
                        "Round {round}, table {board}: the result was corrected from"
                        " {before} to {after} ({reason}).",
                        round=c.round,
                        board=c.board,
                        before="–".join(map(str, c.before)),
                        after="–".join(map(str, c.after)),
                        reason=escape_name(c.reason),
                    ),
                )
        if event.status == "finished" and "end" not in posts:
            if await self.events.podium_ready(state):
                await self._podium(state, page)
                posts = await self.events.posts(event_id)
            else:  # the last tables' records are being written: come back in a moment
                complete = False
        if event.status == "finished" and "end" in posts and event.winner_role and (
            "role" not in posts
        ):
            await self._winner_role(state)
        if event.status == "finished" and "end" in posts and "crown" not in posts:
            await self._crown(state)
        if event.status == "cancelled" and "end" not in posts:
            await self._send(
                event,
                "end",
                here,
                embed=discord.Embed(
                    title=tr(locale, "{name} was cancelled", name=escape_name(event.name)),
                    colour=GREY,
                ),
            )
        return complete

    async def _places(self, event: EventRow, boards: list[BoardRow]) -> dict[int, str] | None:
        """Where each board's table is played, as a link: its thread, or its game message in
        the channel while it has no thread; None while a table or its thread is being made."""
        places: dict[int, str] = {}
        for b in boards:
            if b.status == "waiting":
                return None  # (its table is not opened yet)
            if b.is_bye or b.table_id is None:
                continue
            info = await self.bot.service.get(b.table_id)  # type: ignore[attr-defined]
            table = info.table
            if table.thread_id:
                places[b.board] = f"<#{table.thread_id}>"
            elif table.message_id is not None and table.channel_id is not None:
                places[b.board] = (
                    f"https://discord.com/channels/{event.guild_id}/{table.channel_id}"
                    f"/{table.message_id}"
                )
            elif info.status not in ("finished", "cancelled"):
                return None  # (its place is being made)
        return places

    async def _round_start(self, event_id: int, number: int) -> float | None:
        return await self.events.due("t.start", event_id, number)

    async def _refresh_announcement(
        self, state: EventState, message_id: int | None, page: str | None = None
    ) -> None:
        """Keep the announcement's count and buttons true (best effort)."""
        if message_id is None:
            return
        embed, view = announce(state, page)
        shown = (embed.description, embed.colour, None if view is None else len(view.children))
        if self._shown.get(state.id) == shown:
            return
        channel = self.bot.get_partial_messageable(state.event.channel_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await channel.get_partial_message(message_id).edit(embed=embed, view=view)
        self._shown[state.id] = shown

    async def _seat_post(
        self, state: EventState, b: BoardRow, posts: dict[str, int | None]
    ) -> bool:
        """The seated people mentioned in their table's thread, with I'm here (False: the
        thread is being made, come back in a moment)."""
        key = f"seat.{b.round}.{b.board}"
        if b.is_bye or b.table_id is None or key in posts or b.status != "playing":
            return True
        info = await self.bot.service.get(b.table_id)  # type: ignore[attr-defined]
        place = info.table.thread_id
        if place == 0:
            return False
        event = state.event
        locale = event.locale
        people = [u for u in b.people if u is not None]
        come = await self.events.due("t.grace", event.id, b.round)
        await self._send(
            event,
            key,
            place or event.channel_id,
            tr(
                locale,
                "Round {round}, table {board}: {people}. Press I'm here, or {when} a computer"
                " plays your seat (pairs and one against one: the side forfeits).",
                round=b.round,
                board=b.board,
                people=" ".join(f"<@{u}>" for u in people),
                when=f"<t:{int(come)}:R>" if come else "…",
            ),
            view=view_of(
                HereButton(
                    event.id,
                    b.round,
                    label=tr(locale, "I'm here"),
                    style=discord.ButtonStyle.success,
                )
            ),
            allowed_mentions=USERS_ONLY,
        )
        return True

    async def _standings_post(
        self, state: EventState, number: int, key: str, page: str | None = None
    ) -> None:
        event = state.event
        locale = event.locale
        title = tr(
            locale,
            "{name}: standings after round {round}",
            name=escape_name(event.name),
            round=number,
        )
        results = [board_result(locale, state, b) for b in state.boards_of(number)]
        lines = standings_lines(state, number)
        if state.in_playoff(number):
            lines = knockout_lines(state, number)
        embed = discord.Embed(title=title, description="\n".join(lines)[:4000], colour=BLUE)
        embed.add_field(
            name=tr(locale, "Results"), value="\n".join(results)[:1024] or "-", inline=False
        )
        await self._send(event, key, event.channel_id, embed=embed, **self._linked(event, page))

    async def _podium(self, state: EventState, page: str | None = None) -> None:
        event = state.event
        locale = event.locale
        table = state.standings()
        points = {s.entrant: s.match_points for s in table}
        places = state.places()
        changes = await self.events.rating_changes(state)
        family = family_name(locale, family_of(event.variant))
        podium = [
            f"{MEDALS[place - 1]} {entry_name(state.entry(entrant), locale)}"
            for place, entrant in places
            if place <= 3
        ]
        lines = []
        knockout = event.system == "knockout"
        for place, entrant in places[:LINES_SHOWN]:
            before, after = changes.get(entrant, (0.0, 0.0))
            name = entry_name(state.entry(entrant), locale)
            rating = tr(
                locale,
                "rating in {family}: {before} → {after} ({change} from this event)",
                family=family,
                before=number(locale, round(before)),
                after=number(locale, round(after)),
                change=number(locale, round(after) - round(before), signed=True),
            )
            if knockout:
                lines.append(f"{place}. {name} · {rating}")
            elif event.system == "arena":
                lines.append(
                    trn(
                        locale,
                        "{rank}. {name}: {count} point",
                        "{rank}. {name}: {count} points",
                        points.get(entrant, 0),
                        rank=place,
                        name=name,
                    )
                    + f" · {rating}"
                )
            else:
                lines.append(
                    tr(
                        locale,
                        "{rank}. {name}: {points} match points",
                        rank=place,
                        name=name,
                        points=points.get(entrant, 0),
                    )
                    + f" · {rating}"
                )
        if len(places) > LINES_SHOWN:
            lines.append(tr(locale, "… and {count} more.", count=len(places) - LINES_SHOWN))
        # (the standings in the description, which holds 4,096 characters; a field holds 1,024)
        description = "\n".join(podium) or tr(locale, "Nobody finished.")
        if lines:
            description += "\n\n**" + tr(locale, "Final standings") + "**\n" + "\n".join(lines)
        embed = discord.Embed(
            title=tr(locale, "{name}: the podium", name=escape_name(event.name)),
            description=description[:4096],
            colour=GOLD,
        )
        winners = [
            u for place, e in places if place == 1 for u in (state.entry(e) or _NONE).members
        ]
        earned = await shown_at_match_end(self.events.store, -event.id)
        if earned:
            embed.add_field(
                name=tr(locale, "Achievements"),
                value="\n".join(earned_lines(locale, earned))[:1024],
                inline=False,
            )
        await self._send(
            event,
            "end",
            event.channel_id,
            " ".join(f"<@{u}>" for u in winners) or None,
            embed=embed,
            allowed_mentions=USERS_ONLY,
            **self._linked(event, page),
        )

    async def _winner_role(self, state: EventState) -> None:
        """Give the winners the event's role if it may still be given (the host chose it:
        :func:`cogs.records.prizes.giving_problem`), or say why not; said once."""
        event = state.event
        locale = event.locale
        role_id = event.winner_role or 0
        guild = self.bot.get_guild(event.guild_id)
        problem = await giving_problem(guild, role_id, event.host_id)
        given = 0
        if not problem and guild is not None:
            winners = sorted({
                u
                for place, e in state.places()
                if place == 1
                for u in (state.entry(e) or _NONE).members
                if u > 0
            })
            try:
                for user in winners:
                    try:
                        await self.bot.http.add_role(
                            guild.id, user, role_id, reason=f"Winner of {event.name}"[:500]
                        )
                    except discord.NotFound:  # he left the server
                        continue
                    given += 1
            except discord.Forbidden:
                problem = "refused"
        text = crowned_text(
            locale, Crowned(role_id, problem, given), N_("The winners get the role {role}.")
        )
        await self._send(event, "role", event.channel_id, text)

    async def _crown(self, state: EventState) -> None:
        """The server's tournament winners' role: given to this event's champions and taken
        from the former winners (those the bot gave it to), or why it could not be; said
        once on the event's channel. Without such a role, or when another event of the server
        finished after this one (a result corrected late), only marked."""
        event = state.event
        if await self.events.last_finished(event.guild_id) != event.id:
            await self.events.mark_post(event.id, "crown", None)
            return
        winners = {
            u
            for place, e in state.places()
            if place == 1
            for u in (state.entry(e) or _NONE).members
            if u > 0
        }
        seasons = Seasons(self.events.store, clock=self.events.clock)
        crowned = await crown_champions(
            self.bot, seasons, event.guild_id, winners, kind=TOURNAMENT,
            reason=f"Winner of {event.name}",
        )
        if crowned is None:
            await self.events.mark_post(event.id, "crown", None)
            return
        text = crowned_text(
            event.locale, crowned, N_("The winners of {name} get {role}."),
            name=escape_name(event.name),
        )
        await self._send(event, "crown", event.channel_id, text)


class _NoEntry:
    members: tuple[int, ...] = ()


_NONE: Any = _NoEntry()
