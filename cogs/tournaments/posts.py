"""The words of an event's posts: the announcement, pairings, results, standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import N_, joined, tr, trn
from bot.tournaments.naming import round_title
from bot.tournaments.service import (
    EventState,
)
from bot.tournaments.store import BoardRow, EntryRow, EventRow
from cogs.colours import BLUE, GREEN, GREY
from cogs.domino.texts import variant_name
from cogs.markup import slash_command
from cogs.names import display_name, escape_name
from cogs.tournaments.buttons import RegisterButton, WithdrawButton, view_of
from cogs.web_links import web_button

LINES_SHOWN = 40  # standings lines in an embed


def entry_name(entry: EntryRow | None, locale: str | None = None) -> str:
    """An entrant's name as Discord text (escaped; a pair: both names, joined by the
    language's "and"; someone forgotten: "a former player")."""
    if entry is None:
        return "?"
    return joined(locale, [escape_name(n) for n in raw_names(entry, locale)])


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
    return joined(locale, names)


def format_name(locale: str | None, fmt: str) -> str:
    return {
        "pairs": tr(locale, "pairs"),
        "individual": tr(locale, "individual"),
        "single": tr(locale, "one against one"),
    }.get(fmt, fmt)


def round_length(locale: str | None, event: EventRow) -> str:
    if event.points is not None:
        return tr(locale, "to {points} points", points=event.points)
    return trn(locale, "{count} hand", "{count} hands", event.hands)


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


def stage_line(state: EventState) -> str:
    """Where the event stands: when it starts, the round being played, or how it ended."""
    event = state.event
    locale = event.locale
    if event.status == "finished":
        winners = [state.entry(e) for place, e in state.places() if place == 1]
        names = [entry_name(w, locale) for w in winners if w is not None]
        if not names:
            return tr(locale, "The tournament is over.")
        if len(names) > 1:
            return tr(
                locale, "The tournament is over. Winners: {names}.", names=joined(locale, names)
            )
        return tr(locale, "The tournament is over. Winner: {names}.", names=names[0])
    if event.status == "cancelled":
        return tr(locale, "The tournament was cancelled.")
    if event.status in ("running", "paused") and event.round:
        if event.rounds:
            return tr(
                locale, "Round {round} of {rounds} is being played.",
                round=event.round, rounds=event.rounds,
            )
        return tr(locale, "Round {round} is being played.", round=event.round)
    if event.start_at is not None:
        return tr(locale, "Starts {when}.", when=f"<t:{int(event.start_at)}:R>")
    return tr(locale, "Starts when the host presses Start.")


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
    lines.append(stage_line(state))
    if event.format == "pairs" and event.is_open:
        lines.append(
            tr(locale, "Register your pair with {command}, naming your partner.",
               command=slash_command(locale, "domino tournament register"))
        )
    embed = discord.Embed(
        title=tr(locale, "Tournament: {name}", name=escape_name(event.name)),
        description="\n".join(lines),
        colour=BLUE if event.is_open else GREY,
    )
    return embed, entry_buttons(event, locale, link, tr(locale, "Register"), tr(locale, "Withdraw"))


def entry_buttons(
    event: EventRow, locale: str, link: str | None, join: str, leave: str
) -> discord.ui.View | None:
    """The announcement's buttons: join (but for pairs, who register by command) and leave
    while the event takes entrants or runs, and its web page where it has one."""
    if event.status not in ("registration", "running"):
        return view_of(web_button(locale, link)) if link else None
    buttons: list[discord.ui.Item[Any]] = []
    if event.format != "pairs":
        buttons.append(RegisterButton(event.id, label=join, style=discord.ButtonStyle.success))
    buttons.append(WithdrawButton(event.id, label=leave))
    if link:
        buttons.append(web_button(locale, link))
    return view_of(*buttons)


def pairings_embed(
    state: EventState, number: int, places: Mapping[int, str] | None = None
) -> discord.Embed:
    """Round ``number``'s pairings; ``places``: a link to each board's table (its thread, or
    its game message), by board number."""
    locale = state.event.locale
    places = places or {}
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
        line = tr(
            locale,
            "Table {board}: {first} against {second}",
            board=b.board,
            first=side_text(locale, state, b.sides[0]),
            second=side_text(locale, state, b.sides[1]),
        )
        if b.board in places:
            line += " · " + places[b.board]
        lines.append(line)
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


#: Why a line is below the one above it when only a tie-break separates them, in words.
PLACED_BY: dict[str, str] = {
    "difference": N_("behind on points difference"),
    "buchholz": N_("behind on opponents' match points"),
    "head_to_head": N_("behind on the games between them"),
    "rating": N_("behind on rating at the start"),
}


def standings_lines(state: EventState, upto: int | None, limit: int = LINES_SHOWN) -> list[str]:
    """The standings in words: a Swiss event's lines with match points, points difference
    and the opponents' match points (what Buchholz is), each tie-break said where it placed
    someone, and how ties are broken; a knockout's who is still in and who went out when."""
    locale = state.event.locale
    if state.event.system == "knockout":
        return knockout_lines(state, upto)
    out = []
    table = state.standings(upto)
    for s in table[:limit]:
        line = tr(
            locale,
            "{rank}. {name}: {points} match points · points difference {difference} ·"
            " opponents' match points {buchholz}",
            rank=s.rank,
            name=entry_name(state.entry(s.entrant), locale),
            points=s.match_points,
            difference=f"{s.difference:+d}",
            buchholz=s.buchholz,
        )
        if s.withdrawn:
            line += " " + tr(locale, "(withdrawn)")
        elif s.decided_by in PLACED_BY:
            line += f" ({tr(locale, PLACED_BY[s.decided_by])})"
        out.append(line)
    return out + standings_tail(
        locale,
        len(table),
        limit,
        tr(
            locale,
            "Level on match points, the better points difference goes first, then the"
            " more match points your opponents made (Buchholz), then the games between"
            " those level, then the rating at the start.",
        ),
    )


def standings_tail(locale: str, total: int, limit: int, legend: str) -> list[str]:
    """The lines under a standings list: how many more there are past ``limit`` and, for a
    list that is not empty, the ``legend`` in small print."""
    out = []
    if total > limit:
        out.append(tr(locale, "… and {count} more.", count=total - limit))
    if total:
        out.append("-# " + legend)
    return out


def knockout_lines(state: EventState, upto: int | None) -> list[str]:
    """A knockout in words: the champions once known, who is still in, and who went out in
    which round (no match points: only who goes through counts)."""
    locale = state.event.locale
    tree = state.bracket(upto)
    if tree is None or not tree.rounds:
        return []
    out: list[str] = []

    def names(entries: Sequence[int]) -> str:
        return joined(locale, [entry_name(state.entry(e), locale) for e in entries])

    if tree.champions:
        out.append(
            tr(locale, "🏆 Champions: {names}", names=names(tree.champions))
            if len(tree.champions) > 1
            else tr(locale, "🏆 Champion: {names}", names=names(tree.champions))
        )
    else:
        still = [e for m in tree.rounds[-1] for e in m.advancing]
        if still:
            out.append(tr(locale, "Still in: {names}", names=names(still)))
    per_table = 4 if tree.people else 2
    titles = [round_title(locale, left, per_table) for left in tree.left()]
    for k in range(len(tree.rounds) - 1, -1, -1):
        gone = [
            e
            for m in tree.rounds[k]
            if m.decided
            for e in m.entrants
            if e is not None and e not in m.advancing and e not in tree.champions
        ]
        if gone:
            title = titles[k] if k < len(titles) else str(k + 1)
            out.append(tr(locale, "Out ({round}): {names}", round=title, names=names(gone)))
    return out
