"""An arena's words and posts: its announcement, the post in each table's thread, and the live
standings post (posted once, then edited at most once a minute)."""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

import discord

from bot.i18n import N_, tr, trn
from bot.tournaments.arena_rounds import STANDINGS_EVERY
from bot.tournaments.service import EventState, TournamentService
from bot.tournaments.store import BoardRow, EventRow
from cogs.colours import BLUE, GREY
from cogs.domino.texts import variant_name
from cogs.names import escape_name
from cogs.tournaments.posts import (
    LINES_SHOWN,
    entry_buttons,
    entry_name,
    format_name,
    round_length,
    side_text,
    stage_line,
    standings_tail,
)

STANDINGS = "arena"  # the key of the standings post's mark
HELP = N_(
    "An arena lasts a fixed time: whoever finishes a table is paired again at once with"
    " someone near in points, never the same opponent twice in a row. A win is worth 2, a draw"
    " 1; after two wins in a row each game counts double until one is not won. Join the arena"
    " to play, Leave the arena to stop (join again any time); at the end time the last tables"
    " finish and the most points win."
)
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)


class Publisher(Protocol):
    """What the arena's posts need of the cog."""

    bot: Any
    events: TournamentService

    async def _send(
        self, event: EventRow, key: str, where: int, content: str | None = None, **kwargs: Any
    ) -> None: ...


def announcement(
    state: EventState, link: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The arena's announcement: its terms, when its pairing ends, Join and Leave while it is
    open."""
    event = state.event
    locale = event.locale
    count = len([e for e in state.entries if e.status == "active"])
    lines = [
        tr(
            locale,
            "Arena: {variant}, {format}; tables of {length}. It lasts {minutes} minutes:"
            " whoever finishes a table is paired again at once.",
            variant=variant_name(locale, event.variant),
            format=format_name(locale, event.format),
            length=round_length(locale, event),
            minutes=(event.arena or 0) // 60,
        ),
        tr(
            locale,
            "A win is worth 2 points, a draw 1; after two wins in a row each game counts"
            " double until one is not won.",
        ),
        tr(locale, "Entrants: {count} of {most}.", count=count, most=event.max_entrants),
        tr(locale, "Host: <@{user}>.", user=event.host_id),
    ]
    if event.status == "running" and event.arena_ends_at is not None:
        lines.append(
            tr(
                locale,
                "New tables until {when}; the tables being played then finish.",
                when=f"<t:{int(event.arena_ends_at)}:t> (<t:{int(event.arena_ends_at)}:R>)",
            )
        )
    else:
        lines.append(stage_line(state))
    embed = discord.Embed(
        title=tr(locale, "Arena: {name}", name=escape_name(event.name)),
        description="\n".join(lines),
        colour=BLUE if event.is_open else GREY,
    )
    return embed, entry_buttons(
        event, locale, link, tr(locale, "Join the arena"), tr(locale, "Leave the arena")
    )


def standings_lines(state: EventState, limit: int = LINES_SHOWN) -> list[str]:
    """The arena's standings in words: score, games, each game's points, the streak."""
    locale = state.event.locale
    lines = state.arena_lines()
    out = []
    for line in lines[:limit]:
        text = trn(
            locale,
            "{rank}. {name}: {count} point",
            "{rank}. {name}: {count} points",
            line.score,
            rank=line.rank,
            name=entry_name(state.entry(line.entrant), locale),
        ) + " · " + trn(locale, "{count} game", "{count} games", line.games)
        if line.sheet:
            text += " · " + " ".join(str(p) for p in line.sheet[-12:])
        if line.fire:
            text += " 🔥"
        out.append(text)
    return out + standings_tail(
        locale,
        len(lines),
        limit,
        tr(
            locale,
            "🔥: on a streak, the next game counts double. Level on points, the better"
            " performance goes first (the opponents' mean rating, 500 more for each win"
            " and 500 less for each loss, over the games), then the rating at the start.",
        ),
    )


def standings_embed(state: EventState) -> discord.Embed:
    event = state.event
    locale = event.locale
    return discord.Embed(
        title=tr(locale, "{name}: arena standings", name=escape_name(event.name)),
        description="\n".join(standings_lines(state))[:4000]
        or tr(locale, "Nobody has entered yet."),
        colour=BLUE if event.is_open else GREY,
    )


def tables_embed(state: EventState, results: int = 10) -> discord.Embed:
    """The arena's tables being played now, and its latest results (newest first)."""
    event = state.event
    locale = event.locale

    def side(b: BoardRow, k: int) -> str:
        return side_text(locale, state, b.sides[k])

    playing = [
        tr(locale, "{first} against {second}", first=side(b, 0), second=side(b, 1))
        for b in state.boards
        if b.status == "playing"
    ]
    done = [b for b in state.boards if b.status == "done" and not b.is_bye][::-1][:results]
    embed = discord.Embed(
        title=tr(locale, "{name}: arena tables", name=escape_name(event.name)),
        description="\n".join(playing)[:4000] or tr(locale, "No table is being played."),
        colour=BLUE if event.is_open else GREY,
    )
    if done:
        lines = [
            f"{side(b, 0)} {(b.points or (0, 0))[0]} – {(b.points or (0, 0))[1]} {side(b, 1)}"
            for b in done
        ]
        embed.add_field(name=tr(locale, "Results"), value="\n".join(lines)[:1024], inline=False)
    return embed


async def publish(cog: Publisher, state: EventState, posts: dict[str, int | None]) -> float:
    """Bring the arena's table posts and standings post up to date. Returns 0, or the seconds
    until the standings post may be edited again (-1: a table's thread is being made)."""
    wait = 0.0
    for b in state.boards:
        if b.status == "playing" and not await _seat_post(cog, state, b, posts):
            wait = -1.0
    events = cog.events
    event = state.event
    mark = await events.arena_post(event.id)
    now = events.clock()
    if event.status == "registration":
        return wait
    if STANDINGS not in posts:
        await cog._send(event, STANDINGS, event.channel_id, embed=standings_embed(state))
        await events.arena_posted(event.id, mark.version)
    elif mark.version > mark.posted:
        due = (mark.posted_at or 0.0) + STANDINGS_EVERY
        if now < due:
            return wait if wait < 0 else due - now
        message_id = posts[STANDINGS]
        if message_id is not None:
            channel = cog.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
            with contextlib.suppress(discord.NotFound, discord.Forbidden):  # (deleted)
                await channel.get_partial_message(message_id).edit(embed=standings_embed(state))
        await events.arena_posted(event.id, mark.version)
    return wait


async def _seat_post(
    cog: Publisher, state: EventState, b: BoardRow, posts: dict[str, int | None]
) -> bool:
    """The seated people mentioned in their table's thread, once (False: the thread is being
    made, come back in a moment)."""
    key = f"seat.{b.round}.{b.board}"
    if b.table_id is None or key in posts:
        return True
    info = await cog.bot.service.get(b.table_id)
    place = info.table.thread_id
    if place == 0:
        return False
    event = state.event
    scores = {line.entrant: line for line in state.arena_lines()}
    names = []
    for side in b.sides:
        names.append(
            " + ".join(
                f"{entry_name(state.entry(e), event.locale)}"
                f" ({scores[e].score}{' 🔥' if scores[e].fire else ''})"
                for e in side
                if e is not None and e in scores
            )
        )
    people = [u for u in b.people if u is not None]
    await cog._send(
        event,
        key,
        place or event.channel_id,
        tr(
            event.locale,
            "Arena {name}: {people}, your table is ready: {sides}.",
            name=escape_name(event.name),
            people=" ".join(f"<@{u}>" for u in people),
            sides=tr(event.locale, "{first} against {second}", first=names[0], second=names[1]),
        ),
        allowed_mentions=USERS_ONLY,
    )
    return True
