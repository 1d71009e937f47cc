"""``/domino tournament``: a server's events in Discord, a thin adapter of the tournament service.

The commands and buttons call :class:`~bot.tournaments.service.TournamentService` (which holds
every rule and every row); the publisher brings each event's public messages up to date with the
store, in order, each exactly once: the announcement, each round's check-in, pairings, the
mentions in each table's thread, the standings (an embed and a picture), result corrections,
and the end (the podium with rating changes and the winner role, or the cancellation). A post
is marked in the store after it is made and carries a nonce, so a crash between the two never
doubles it. Buttons carry the event (and round) in their custom id and keep working across
restarts: ``tournament:<kind>:<event>[:<argument>]``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any, ClassVar

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import N_, tr
from bot.records.seasons_service import TOURNAMENT, Seasons
from bot.store import DatabaseUnavailable
from bot.tournaments import pictures
from bot.tournaments.service import (
    DEFAULT_GRACE,
    DEFAULT_TIME_LIMIT,
    EventState,
    TourLimits,
    TournamentService,
)
from bot.tournaments.store import BoardRow, EntryRow, EventRow
from bot.web.links import tournament_path
from cogs.achievements import earned_lines, shown_at_match_end
from cogs.boards import Crowned, crown_champions, crowned_text
from cogs.colours import BLUE, GOLD, GREEN, GREY
from cogs.domino.choices import VARIANT_CHOICES
from cogs.domino.host import missing_permissions
from cogs.domino.texts import permission_text, variant_name
from cogs.markup import error_text, unreachable_text
from cogs.names import display_name, escape_name, table_name
from cogs.places import place_of
from cogs.prizes import choose_problem, giving_problem, problem_text
from cogs.rules_text import tournament_rules
from cogs.web_links import web_button, web_url

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
COG_NAME = "Tournament"
GROUP_NAME = "domino"
PREFIX = "tournament"
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()
RETRYABLE = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, ConnectionError)
THREAD_WAIT = 0.5  # seconds before looking again for a table's thread being made
LINES_SHOWN = 20  # standings lines in an embed
MEDALS = ("🥇", "🥈", "🥉")
_EVENT = r"(?P<event>[0-9]{1,18})"

FORMAT_CHOICES = [
    Choice(name=locale_str("Pairs (partners register together)"), value="pairs"),
    Choice(name=locale_str("Individual (partners change each round)"), value="individual"),
    Choice(name=locale_str("One against one"), value="single"),
]
SYSTEM_CHOICES = [
    Choice(name=locale_str("Swiss"), value="swiss"),
    Choice(name=locale_str("Knockout (single elimination)"), value="knockout"),
]
FILL_CHOICES = [
    Choice(name=locale_str("Fewest empty seats: byes, else a computer"), value="mixed"),
    Choice(name=locale_str("Computer players"), value="computer"),
    Choice(name=locale_str("Byes"), value="bye"),
]
PLAYOFF_CHOICES = [
    Choice(name=locale_str("No playoff"), value=0),
    Choice(name=locale_str("Top 4 knockout"), value=4),
    Choice(name=locale_str("Top 8 knockout"), value=8),
]


def nonce(event_id: int, key: str) -> str:
    """A post's nonce (at most 25 characters): the same post after a crash is not doubled."""
    return f"t.{event_id}.{key}"[:25]


# ------------------------------------------------------------------------------ buttons


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tournament:.*"):
    """The common part of the tournament buttons: the id, the look, the guarded click."""

    kind: ClassVar[str] = ""

    def __init__(self, event_id: int, *args: object, label: str = "", style: Any = None) -> None:
        text = ":".join([PREFIX, self.kind, str(event_id), *(str(a) for a in args)])
        if not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        button = discord.ui.Button(
            label=label or None,
            style=style or discord.ButtonStyle.secondary,
            custom_id=text,
        )
        super().__init__(button)
        self.event_id = event_id
        self.arg = str(args[0]) if args else None

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        arg = match.groupdict().get("arg")
        return cls(int(match["event"])) if arg is None else cls(int(match["event"]), arg)

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is None:
            return
        async with cog.guard(interaction, f"button {self.kind}"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            text = await self.clicked(cog, interaction)
            await cog.reply(interaction, text)

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        raise NotImplementedError


class RegisterButton(TournamentButton, template=rf"tournament:register:{_EVENT}"):
    """Enter the event (alone; a pair registers with the command, naming the partner)."""

    kind = "register"

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        return await cog.register_user(interaction, self.event_id, None)


class WithdrawButton(TournamentButton, template=rf"tournament:withdraw:{_EVENT}"):
    kind = "withdraw"

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        await cog.events.withdraw(self.event_id, interaction.user.id)
        return tr(interaction.locale.value, "You have withdrawn from the tournament.")


class CheckInButton(TournamentButton, template=rf"tournament:checkin:{_EVENT}"):
    kind = "checkin"

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        await cog.events.check_in(self.event_id, interaction.user.id)
        return tr(interaction.locale.value, "You are checked in: you will be paired.")


class HereButton(TournamentButton, template=rf"tournament:here:{_EVENT}:(?P<arg>[0-9]{{1,4}})"):
    """Click in at one's table of a round (``arg``: the round) before the grace is over."""

    kind = "here"

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        await cog.events.here(self.event_id, int(self.arg or 0), interaction.user.id)
        return tr(interaction.locale.value, "Thank you: you are at your table.")


class PartnerButton(
    TournamentButton,
    template=rf"tournament:partner:{_EVENT}:(?P<arg>yes|no)(?::(?P<inviter>[0-9]{{1,20}}))?",
):
    """The invited partner of a pair accepts or declines (``arg``) the invitation of
    ``inviter`` (left out in older posts: his newest invitation)."""

    kind = "partner"

    def __init__(self, event_id: int, *args: object, **look: Any) -> None:
        super().__init__(event_id, *args, **look)
        self.inviter = int(str(args[1])) if len(args) > 1 else None

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        extra = () if match["inviter"] is None else (match["inviter"],)
        return cls(int(match["event"]), match["arg"], *extra)

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        locale = interaction.locale.value
        await cog.events.answer_partner(
            self.event_id, interaction.user.id, self.arg == "yes", self.inviter
        )
        if self.arg == "yes":
            return tr(locale, "Your pair is registered.")
        return tr(locale, "You declined: the pair is not registered.")


KINDS = (RegisterButton, WithdrawButton, CheckInButton, HereButton, PartnerButton)
_KNOWN = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in KINDS
)


class InvalidButton(TournamentButton, template=rf"(?!(?:{_KNOWN})$)tournament:(?s:.*)"):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    kind = "invalid"

    def __init__(self, event_id: int = 0, *args: object, **look: Any) -> None:
        discord.ui.DynamicItem.__init__(
            self, discord.ui.Button(label="?", custom_id="tournament:invalid")
        )
        self.event_id, self.arg = 0, None

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        return cls()

    async def clicked(self, cog: TournamentCog, interaction: Interaction) -> str:
        return tr(interaction.locale.value, "This button is not valid any more.")


BUTTONS = (*KINDS, InvalidButton)


def view_of(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view


# ------------------------------------------------------------------------------ words


def entry_name(entry: EntryRow | None, locale: str | None = None) -> str:
    """An entrant's name as Discord text (escaped; a pair: both names; someone forgotten:
    "a former player")."""
    if entry is None:
        return "?"
    return " & ".join(escape_name(n) for n in raw_names(entry, locale))


def raw_names(entry: EntryRow, locale: str | None) -> list[str]:
    """The entrant's people's names, unescaped, in the reader's language."""
    return [display_name(locale, n, "human") for n in entry.names]


def side_text(locale: str | None, state: EventState, side: Sequence[int | None]) -> str:
    names = []
    for number in side:
        if number is None:
            names.append(tr(locale, "a computer"))
        else:
            names.append(entry_name(state.entry(number), locale))
    return " & ".join(names)


def format_name(locale: str | None, fmt: str) -> str:
    return {
        "pairs": tr(locale, "pairs"),
        "individual": tr(locale, "individual"),
        "single": tr(locale, "one against one"),
    }.get(fmt, fmt)


def round_length(locale: str | None, event: EventRow) -> str:
    if event.points is not None:
        return tr(locale, "to {points} points", points=event.points)
    return tr(locale, "{hands} hands", hands=event.hands)


def _terms(locale: str | None, event: EventRow) -> list[str]:
    """The lines of the announcement on the playoff and how empty seats are filled."""
    lines = []
    if event.playoff:
        lines.append(
            tr(
                locale,
                "Playoff: the top {count} of the Swiss standings play a knockout.",
                count=event.playoff,
            )
        )
    if event.format == "individual" and event.system == "knockout":
        lines.append(
            tr(
                locale,
                "Knockout: both people of a table's winning side go through; byes to the"
                " best seeds, and when the people left are odd the lowest seed plays with a"
                " computer.",
            )
        )
    elif event.format == "individual":
        lines.append(
            {
                "computer": tr(locale, "Empty seats: computer players (everyone plays)."),
                "bye": tr(locale, "Empty seats: byes (up to three sit out)."),
            }.get(
                event.fill,
                tr(locale, "Empty seats: one or two byes, or one computer seat."),
            )
        )
    return lines


def announcement(
    state: EventState, link: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The event's announcement: its terms, with Register and Withdraw while it is open and
    a link to its web page when there is one."""
    event = state.event
    locale = event.locale
    count = len([e for e in state.entries if e.status == "active"])
    lines = [
        tr(
            locale,
            "{variant}, {format}; rounds of {length}, at most {minutes} minutes each.",
            variant=variant_name(locale, event.variant),
            format=format_name(locale, event.format),
            length=round_length(locale, event),
            minutes=event.time_limit // 60,
        ),
        tr(locale, "Rounds: {rounds}.", rounds=event.rounds)
        if event.rounds
        else tr(locale, "Rounds: decided at the start by the number of entrants."),
        tr(locale, "Entrants: {count} of {most}.", count=count, most=event.max_entrants),
        *_terms(locale, event),
        tr(locale, "Host: <@{user}>.", user=event.host_id),
    ]
    if event.start_at is not None:
        lines.append(tr(locale, "Starts {when}.", when=f"<t:{int(event.start_at)}:R>"))
    else:
        lines.append(tr(locale, "Starts when the host presses Start."))
    if event.format == "pairs":
        lines.append(
            tr(locale, "Register your pair with /domino tournament register partner:@someone.")
        )
    embed = discord.Embed(
        title=tr(locale, "Tournament: {name}", name=escape_name(event.name)),
        description="\n".join(lines),
        colour=BLUE if event.is_open else GREY,
    )
    buttons: list[discord.ui.Item[Any]] = []
    if event.status != "registration" and event.status != "running":
        return embed, (view_of(web_button(locale, link)) if link else None)
    if event.format != "pairs":
        buttons.append(
            RegisterButton(
                event.id, label=tr(locale, "Register"), style=discord.ButtonStyle.success
            )
        )
    buttons.append(WithdrawButton(event.id, label=tr(locale, "Withdraw")))
    if link:
        buttons.append(web_button(locale, link))
    return embed, view_of(*buttons)


def pairings_embed(state: EventState, number: int) -> discord.Embed:
    locale = state.event.locale
    lines = []
    if state.in_playoff(number):
        lines.append(
            tr(locale, "Playoff of the top {count}: the winners go through.",
               count=len(state.playoff_seeds()))
        )
    knockout = state.event.system == "knockout" or state.in_playoff(number)
    if knockout and state.event.format == "individual":
        lines.append(tr(locale, "Both people of each table's winning side go through."))
    for b in state.boards_of(number):
        if b.is_bye:
            lines.append(tr(locale, "Bye: {name}", name=side_text(locale, state, b.sides[0])))
            continue
        lines.append(
            tr(
                locale,
                "Table {board}: {first} against {second}",
                board=b.board,
                first=side_text(locale, state, b.sides[0]),
                second=side_text(locale, state, b.sides[1]),
            )
        )
    return discord.Embed(
        title=tr(
            locale,
            "{name}: pairings of round {round}",
            name=escape_name(state.event.name),
            round=number,
        ),
        description="\n".join(lines)[:4000] or tr(locale, "Nobody was paired."),
        colour=GREEN,
    )


def board_result(locale: str | None, state: EventState, b: BoardRow) -> str:
    if b.is_bye:
        return tr(locale, "Bye: {name}", name=side_text(locale, state, b.sides[0]))
    points = b.points or (0, 0)
    how = (b.how or "").split(";")[0]
    text = tr(
        locale,
        "Table {board}: {first} {a} – {b} {second}",
        board=b.board,
        first=side_text(locale, state, b.sides[0]),
        second=side_text(locale, state, b.sides[1]),
        a=points[0],
        b=points[1],
    )
    if how.startswith("forfeit"):
        text += " · " + tr(locale, "forfeit")
    elif how == "time":
        text += " · " + tr(locale, "time was up")
    elif how == "corrected":
        text += " · " + tr(locale, "corrected")
    return text


def standings_lines(state: EventState, upto: int | None, limit: int = LINES_SHOWN) -> list[str]:
    locale = state.event.locale
    out = []
    table = state.standings(upto)
    for s in table[:limit]:
        note = " " + tr(locale, "(withdrawn)") if s.withdrawn else ""
        out.append(
            tr(
                locale,
                "{rank}. {name}: {points} match points, {difference} points, Buchholz {buchholz}",
                rank=s.rank,
                name=entry_name(state.entry(s.entrant), locale),
                points=s.match_points,
                difference=f"{s.difference:+d}",
                buchholz=s.buchholz,
            )
            + note
        )
    if len(table) > limit:
        out.append(tr(locale, "… and {count} more.", count=len(table) - limit))
    return out


def picture(state: EventState, upto: int | None, title: str, *, final: bool = False) -> bytes:
    """The standings picture after round ``upto`` (None: the end); a knockout's, or a
    playoff's from its first round on, is its bracket. Names raw: pictures render no
    markdown."""
    locale = state.event.locale
    names = {e.entry: " & ".join(raw_names(e, locale)) for e in state.entries}
    tree = state.bracket(upto)
    swiss = state.event.system == "swiss" and upto is not None and not state.in_playoff(upto)
    if tree is not None and not swiss:
        return pictures.bracket_png(locale, title, tree, names)
    return pictures.standings_png(locale, title, state.standings(upto), names, final=final)


# ------------------------------------------------------------------------------ commands


def _cog(interaction: Interaction) -> TournamentCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the tournament cog is not loaded")
    return cog  # type: ignore[no-any-return]


group = app_commands.Group(
    name="tournament", description=locale_str("A server's tournaments"), guild_only=True
)


@group.command(
    name="create", description=locale_str("Open a tournament (Manage Server or organisers)")
)
@app_commands.describe(
    name=locale_str("The tournament's name"),
    variant=locale_str("The variant played"),
    format=locale_str("Pairs, individual or one against one"),
    rounds=locale_str("Swiss rounds (left out: from the number of entrants)"),
    hands=locale_str("Hands per round (1-12; default 4)"),
    points=locale_str("Or: each round to this many points"),
    time_limit=locale_str("Minutes a round may last (default 45)"),
    grace=locale_str("Minutes a player has to come to his table (default 5)"),
    start_in=locale_str("Start in this many minutes (left out: when the host presses Start)"),
    max_entrants=locale_str("Most entrants"),
    fill=locale_str("Individual: fill missing seats with computers, byes, or the fewest of both"),
    playoff=locale_str("Swiss: a knockout of the top 4 or 8 after the rounds"),
    system=locale_str("Swiss (default) or knockout (single elimination)"),
    winner_role=locale_str("A role given to the winners"),
)
@app_commands.choices(
    variant=VARIANT_CHOICES,
    format=FORMAT_CHOICES,
    fill=FILL_CHOICES,
    system=SYSTEM_CHOICES,
    playoff=PLAYOFF_CHOICES,
)
async def create_command(
    interaction: Interaction,
    name: app_commands.Range[str, 1, 80],
    variant: str,
    format: str,
    rounds: app_commands.Range[int, 1, 20] | None = None,
    hands: app_commands.Range[int, 1, 12] | None = None,
    points: app_commands.Range[int, 1, 1000] | None = None,
    time_limit: app_commands.Range[int, 5, 240] | None = None,
    grace: app_commands.Range[int, 1, 30] | None = None,
    start_in: app_commands.Range[int, 1, 10080] | None = None,
    max_entrants: app_commands.Range[int, 2, 256] | None = None,
    fill: str | None = None,
    winner_role: discord.Role | None = None,
    system: str | None = None,
    playoff: int | None = None,
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament create"):
        locale = interaction.locale.value
        if not await cog.is_manager(interaction):
            await cog.reply(interaction, tr(locale, ORGANISERS_ONLY))
            return
        missing = missing_permissions(interaction)
        if missing:  # the event's posts, pictures and tables' threads would never appear
            log.info("/domino tournament create refused: the bot lacks %s", ", ".join(missing))
            await cog.reply(interaction, permission_text(locale))
            return
        if winner_role is not None and not winner_role.is_default():
            problem = choose_problem(interaction.guild, interaction.user, winner_role)
            if problem:
                await cog.reply(interaction, problem_text(locale, problem, winner_role.id))
                return
        event = await cog.events.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            name=name,
            variant=variant,
            format=format,
            rounds=rounds,
            hands=hands,
            points=points,
            time_limit=(time_limit * 60) if time_limit else DEFAULT_TIME_LIMIT,
            grace=(grace * 60) if grace else DEFAULT_GRACE,
            fill=fill or "mixed",
            system=system or "swiss",
            playoff=playoff or 0,
            max_entrants=max_entrants,
            start_at=(cog.events.clock() + start_in * 60) if start_in else None,
            locale=interaction.guild_locale.value if interaction.guild_locale else None,
            winner_role=winner_role.id if winner_role and not winner_role.is_default() else None,
            public_place=place_of(interaction.channel)["public_place"],
        )
        await cog.reply(
            interaction,
            tr(locale, "Tournament {name} is open for registration.", name=escape_name(event.name)),
        )


@group.command(name="register", description=locale_str("Enter the tournament of this channel"))
@app_commands.describe(partner=locale_str("Pairs: your partner (he confirms)"))
async def register_command(interaction: Interaction, partner: discord.Member | None = None) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament register"):
        event = await cog.here_event(interaction)
        text = await cog.register_user(interaction, event.id, partner)
        await cog.reply(interaction, text)


@group.command(name="withdraw", description=locale_str("Leave the tournament"))
async def withdraw_command(interaction: Interaction) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament withdraw"):
        event = await cog.here_event(interaction)
        await cog.events.withdraw(event.id, interaction.user.id)
        await cog.reply(
            interaction, tr(interaction.locale.value, "You have withdrawn from the tournament.")
        )


@group.command(name="standings", description=locale_str("The tournament's standings"))
async def standings_command(interaction: Interaction) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament standings"):
        event = await cog.here_event(interaction)
        state = await cog.events.state(event.id)
        locale = interaction.locale.value
        embed = discord.Embed(
            title=tr(locale, "{name}: standings", name=escape_name(event.name)),
            description="\n".join(standings_lines(state, None))[:4000]
            or tr(locale, "Nobody has entered yet."),
            colour=BLUE,
        )
        if playoff := playoff_lines(state):
            title = tr(locale, "Playoff") if event.system == "swiss" else tr(locale, "Bracket")
            embed.add_field(name=title, value="\n".join(playoff)[:1024], inline=False)
        await cog.reply(interaction, "", embed=embed)


def playoff_lines(state: EventState) -> list[str]:
    """A knockout's (or a playoff's) matches so far, round by round (none before it is
    seeded); byes left out: the standings command shows them under the standings."""
    locale = state.event.locale
    tree = state.bracket()
    if tree is None:
        return []
    per_table = 4 if tree.people else 2
    lines = []
    for matches, left in zip(tree.rounds, tree.left(), strict=False):
        title = pictures.round_title(locale, left, per_table)
        for m in matches:
            first, second = m.teams
            if not any(e is not None for e in first) or not any(e is not None for e in second):
                continue
            a, b = side_text(locale, state, first), side_text(locale, state, second)
            if m.points is not None:
                lines.append(f"{title}: {a} {m.points[0]} – {m.points[1]} {b}")
            else:
                lines.append(
                    f"{title}: " + tr(locale, "{first} against {second}", first=a, second=b)
                )
    return lines


@group.command(name="pairings", description=locale_str("A round's pairings and results"))
@app_commands.describe(round=locale_str("The round (left out: the current one)"))
async def pairings_command(
    interaction: Interaction, round: app_commands.Range[int, 1, 20] | None = None
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament pairings"):
        event = await cog.here_event(interaction)
        state = await cog.events.state(event.id)
        locale = interaction.locale.value
        number = round or event.round
        boards = state.boards_of(number)
        if not boards:
            await cog.reply(
                interaction, tr(locale, "Round {round} has no pairings yet.", round=number)
            )
            return
        lines = [
            board_result(locale, state, b) if b.status == "done" else _pending(locale, state, b)
            for b in boards
        ]
        embed = discord.Embed(
            title=tr(locale, "{name}: round {round}", name=escape_name(event.name), round=number),
            description="\n".join(lines)[:4000],
            colour=BLUE,
        )
        await cog.reply(interaction, "", embed=embed)


def _pending(locale: str | None, state: EventState, b: BoardRow) -> str:
    return tr(
        locale,
        "Table {board}: {first} against {second} (playing)",
        board=b.board,
        first=side_text(locale, state, b.sides[0]),
        second=side_text(locale, state, b.sides[1]),
    )


def _host_command(
    name: str, description: locale_str, what: str
) -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(name=name, description=description)
    async def command(interaction: Interaction) -> None:
        cog = _cog(interaction)
        async with cog.guard(interaction, f"/domino tournament {name}"):
            event = await cog.here_event(interaction)
            manager = await cog.is_manager(interaction)
            call = getattr(cog.events, name)
            await call(event.id, interaction.user.id, manager=manager)
            await cog.reply(interaction, tr(interaction.locale.value, what))

    return command


start_command = _host_command(
    "start",
    locale_str("Start the tournament now (the host)"),
    N_("The first round's check-in is open."),
)
pause_command = _host_command(
    "pause", locale_str("Hold the tournament's clock (the host)"), N_("The tournament is paused.")
)
resume_command = _host_command(
    "resume",
    locale_str("Let the tournament's clock run again (the host)"),
    N_("The tournament goes on."),
)
cancel_command = _host_command(
    "cancel", locale_str("Call the tournament off (the host)"), N_("The tournament is cancelled.")
)
for _command in (start_command, pause_command, resume_command, cancel_command):
    group.add_command(_command)


@group.command(name="correct", description=locale_str("Correct a table's result (the host)"))
@app_commands.describe(
    round=locale_str("The round"),
    table=locale_str("The table number"),
    first=locale_str("Points of the first side"),
    second=locale_str("Points of the second side"),
    reason=locale_str("Why (kept in the tournament's history)"),
)
async def correct_command(
    interaction: Interaction,
    round: app_commands.Range[int, 1, 20],
    table: app_commands.Range[int, 1, 200],
    first: app_commands.Range[int, 0, 100000],
    second: app_commands.Range[int, 0, 100000],
    reason: app_commands.Range[str, 1, 300],
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament correct"):
        event = await cog.here_event(interaction)
        await cog.events.correct(
            event.id,
            interaction.user.id,
            round_=round,
            board=table,
            points=(first, second),
            reason=reason,
            manager=await cog.is_manager(interaction),
        )
        await cog.reply(interaction, tr(interaction.locale.value, "The result is corrected."))


@group.command(name="help", description=locale_str("How tournaments work and their commands"))
async def help_command(interaction: Interaction) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament help"):
        locale = interaction.locale.value
        embed = discord.Embed(
            title=tr(locale, "Tournaments"),
            description=tournament_rules(locale)[:4000],
            colour=BLUE,
        )
        embed.add_field(name=tr(locale, "Commands"), value=tr(locale, HELP_COMMANDS)[:1024])
        await cog.reply(interaction, "", embed=embed)


ORGANISERS_ONLY = N_(
    "Only members with Manage Server, or the tournament role of /domino server-settings, may"
    " create tournaments."
)
HELP_COMMANDS = N_(
    "/domino tournament create: open a tournament (organisers).\n"
    "/domino tournament register: enter (pairs: partner:@someone, who confirms).\n"
    "/domino tournament withdraw: leave.\n"
    "/domino tournament standings, pairings: where everyone stands.\n"
    "/domino tournament start, pause, resume, cancel, correct: the host's.\n"
    "Each round: press Check in when the check-in opens, then I'm here in your table's thread."
)


# ------------------------------------------------------------------------------ the cog


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
        if entry.joined_round > 1:
            return tr(
                locale,
                "You are registered late: you play from round {round}, with a half-point"
                " bye for the rounds before.",
                round=entry.joined_round,
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
            allowed_mentions=USERS_ONLY,
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
            embed, view = announcement(state, page)
            await self._send(
                event, "announce", here, embed=embed, **({"view": view} if view else {})
            )
            posts = await self.events.posts(event_id)
        await self._refresh_announcement(state, posts.get("announce"), page)
        for row in state.rounds:
            number = row.number
            key = f"checkin.{number}"
            if key not in posts and row.status == "checkin":
                starts = await self._round_start(event_id, number)
                await self._send(
                    event,
                    key,
                    here,
                    tr(
                        locale,
                        "Round {round} of {name}: check in now; the round starts {when}.",
                        round=number,
                        name=escape_name(event.name),
                        when=f"<t:{int(starts)}:R>" if starts else "…",
                    ),
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
                await self._send(
                    event,
                    key,
                    here,
                    " ".join(f"<@{u}>" for u in people)[:1900] or None,
                    embed=pairings_embed(state, number),
                    allowed_mentions=USERS_ONLY,
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

    async def _round_start(self, event_id: int, number: int) -> float | None:
        return await self.events.due("t.start", event_id, number)

    async def _refresh_announcement(
        self, state: EventState, message_id: int | None, page: str | None = None
    ) -> None:
        """Keep the announcement's count and buttons true (best effort)."""
        if message_id is None:
            return
        embed, view = announcement(state, page)
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
        await self._send(
            event,
            key,
            place or event.channel_id,
            tr(
                locale,
                "Round {round}, table {board}: {people}. Press I'm here within {minutes}"
                " minutes, or a computer plays your seat (pairs and one against one: the side"
                " forfeits).",
                round=b.round,
                board=b.board,
                people=" ".join(f"<@{u}>" for u in people),
                minutes=max(1, event.grace // 60),
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
        embed = discord.Embed(
            title=title,
            description="\n".join(standings_lines(state, number))[:3000],
            colour=BLUE,
        )
        embed.add_field(
            name=tr(locale, "Results"), value="\n".join(results)[:1024] or "-", inline=False
        )
        raw = tr(locale, "{name}: standings after round {round}", name=event.name, round=number)
        png = await asyncio.to_thread(picture, state, number, raw)
        embed.set_image(url="attachment://standings.png")
        await self._send(
            event,
            key,
            event.channel_id,
            embed=embed,
            file=discord.File(io.BytesIO(png), "standings.png", description=title[:1024]),
            **self._linked(event, page),
        )

    async def _podium(self, state: EventState, page: str | None = None) -> None:
        event = state.event
        locale = event.locale
        table = state.standings()
        points = {s.entrant: s.match_points for s in table}
        places = state.places()
        changes = await self.events.rating_changes(state)
        podium = [
            f"{MEDALS[place - 1]} {entry_name(state.entry(entrant), locale)}"
            for place, entrant in places
            if place <= 3
        ]
        lines = []
        for place, entrant in places[:LINES_SHOWN]:
            before, after = changes.get(entrant, (0.0, 0.0))
            lines.append(
                tr(
                    locale,
                    "{rank}. {name}: {points} match points; rating {before} → {after} ({change})",
                    rank=place,
                    name=entry_name(state.entry(entrant), locale),
                    points=points.get(entrant, 0),
                    before=round(before),
                    after=round(after),
                    change=f"{round(after) - round(before):+d}",
                )
            )
        if len(places) > LINES_SHOWN:
            lines.append(tr(locale, "… and {count} more.", count=len(places) - LINES_SHOWN))
        embed = discord.Embed(
            title=tr(locale, "{name}: the podium", name=escape_name(event.name)),
            description="\n".join(podium) or tr(locale, "Nobody finished."),
            colour=GOLD,
        )
        embed.add_field(
            name=tr(locale, "Final standings"), value="\n".join(lines)[:1024] or "-", inline=False
        )
        raw = tr(locale, "{name}: final standings", name=event.name)
        png = await asyncio.to_thread(picture, state, None, raw, final=True)
        embed.set_image(url="attachment://final.png")
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
            file=discord.File(io.BytesIO(png), "final.png", description=raw[:1024]),
            **self._linked(event, page),
        )

    async def _winner_role(self, state: EventState) -> None:
        """Give the winners the event's role if it may still be given (the host chose it:
        :func:`cogs.prizes.giving_problem`), or say why not; said once."""
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


async def setup(bot: commands.Bot) -> None:
    """Load the cog after ``cogs.domino``; the bot must own a store and a table service."""
    store = getattr(bot, "store", None)
    service = getattr(bot, "service", None)
    if store is None or service is None:
        raise RuntimeError("the tournament cog needs bot.store and bot.service")
    settings = getattr(bot, "settings", None)
    limits = TourLimits(
        events_per_server=getattr(settings, "tournaments_per_server", 3),
        entrants_per_event=getattr(settings, "tournament_entrants", 256),
    )
    options = getattr(bot, "tournament_options", {})
    await bot.add_cog(
        TournamentCog(bot, TournamentService(store, service, limits=limits, **options))
    )
