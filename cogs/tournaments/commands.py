"""The ``/domino tournament`` slash commands."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.i18n import N_, tr
from bot.tournaments import naming
from bot.tournaments.service import (
    DEFAULT_GRACE,
    DEFAULT_TIME_LIMIT,
    EventState,
)
from bot.tournaments.store import BoardRow
from cogs.colours import BLUE
from cogs.domino.choices import VARIANT_CHOICES
from cogs.domino.host import missing_permissions
from cogs.domino.texts import permission_text
from cogs.markup import slash_command
from cogs.names import escape_name
from cogs.places import place_of
from cogs.records.prizes import choose_problem, problem_text
from cogs.rules_text import tournament_rules
from cogs.tournaments import arena as arena_posts
from cogs.tournaments.buttons import COG_NAME, Host, left_text
from cogs.tournaments.posts import board_result, side_text, standings_lines

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)


FORMAT_CHOICES = [
    Choice(name=locale_str("Pairs (partners register together)"), value="pairs"),
    Choice(name=locale_str("Individual (partners change each round)"), value="individual"),
    Choice(name=locale_str("One against one"), value="single"),
]
SYSTEM_CHOICES = [
    Choice(name=locale_str("Swiss"), value="swiss"),
    Choice(name=locale_str("Knockout (single elimination)"), value="knockout"),
    Choice(name=locale_str("Arena (paired again at once, for a fixed time)"), value="arena"),
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


def _cog(interaction: Interaction) -> Host:
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
    checkin=locale_str("A check-in before each round (default off: everyone plays each round)"),
    start_in=locale_str("Start in this many minutes (left out: when the host presses Start)"),
    max_entrants=locale_str("Most entrants"),
    fill=locale_str("Individual: fill missing seats with computers, byes, or the fewest of both"),
    playoff=locale_str("Swiss: a knockout of the top 4 or 8 after the rounds"),
    system=locale_str("Swiss (default) or knockout (single elimination)"),
    duration=locale_str("Arena: minutes it lasts (10-360; default 60)"),
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
    checkin: bool = False,
    duration: app_commands.Range[int, 10, 360] | None = None,
) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament create"):
        locale = interaction.locale.value
        if not await cog.is_manager(interaction):
            await cog.reply(interaction, tr(
                locale, ORGANISERS_ONLY, command=slash_command(locale, "domino server-settings")
            ))
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
            checkin=checkin,
            arena=duration * 60 if duration else None,
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
        await cog.reply(interaction, left_text(interaction.locale.value, event))


@group.command(name="standings", description=locale_str("The tournament's standings"))
async def standings_command(interaction: Interaction) -> None:
    cog = _cog(interaction)
    async with cog.guard(interaction, "/domino tournament standings"):
        event = await cog.here_event(interaction)
        state = await cog.events.state(event.id)
        locale = interaction.locale.value
        if event.system == "arena":
            await cog.reply(interaction, "", embed=arena_posts.standings_embed(state))
            return
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
        title = naming.round_title(locale, left, per_table)
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
        if event.system == "arena" and round is None:  # its tables now, its latest results
            await cog.reply(interaction, "", embed=arena_posts.tables_embed(state))
            return
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
    name: str, description: locale_str, what: str, unchecked: str | None = None
) -> app_commands.Command[Any, Any, Any]:
    """A host's command; ``unchecked``: its answer for an event without check-in."""

    @app_commands.command(name=name, description=description)
    async def command(interaction: Interaction) -> None:
        cog = _cog(interaction)
        async with cog.guard(interaction, f"/domino tournament {name}"):
            event = await cog.here_event(interaction)
            manager = await cog.is_manager(interaction)
            call = getattr(cog.events, name)
            done = await call(event.id, interaction.user.id, manager=manager)
            text = unchecked if unchecked and not done.checkin else what
            await cog.reply(interaction, tr(interaction.locale.value, text))

    return command


start_command = _host_command(
    "start",
    locale_str("Start the tournament now (the host)"),
    N_("The first round's check-in is open."),
    N_("The tournament has started: the first round's tables are opening."),
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
        embed.add_field(name=tr(locale, "Commands"), value=help_commands(locale)[:1024])
        embed.add_field(name=tr(locale, "Arena"), value=tr(locale, arena_posts.HELP)[:1024])
        await cog.reply(interaction, "", embed=embed)


ORGANISERS_ONLY = N_(
    "Only members with Manage Server, or the tournament role of {command}, may create"
    " tournaments."
)
HELP_COMMANDS = N_(
    "{create}: open a tournament (organisers).\n"
    "{register}: enter (pairs: name your partner, who confirms).\n"
    "{withdraw}: leave.\n"
    "{standings}, {pairings}: where everyone stands.\n"
    "{start}, {pause}, {resume}, {cancel}, {correct}: the host's.\n"
    "Each round: press I'm here in your table's thread (first Check in, where the host turned"
    " check-in on)."
)
#: The commands ``HELP_COMMANDS`` names, by its placeholders.
HELP_NAMED = ("create", "register", "withdraw", "standings", "pairings", "start", "pause",
              "resume", "cancel", "correct")


def help_commands(locale: str | None) -> str:
    """The tournament commands, each a clickable mention, and what each is for."""
    return tr(locale, HELP_COMMANDS, **{
        name: slash_command(locale, f"domino tournament {name}") for name in HELP_NAMED
    })
