"""The words of the dominoes cog: variant names and summaries, and sentences built from state.

The rules of each variant are in :mod:`bot.i18n.rules_text` (laid out by :mod:`cogs.rules_text`).

Every sentence goes through :func:`bot.i18n.tr` with its English text as the message id.
Texts kept in tables are marked with :func:`N_` (for extraction) and translated when used.
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import N_, joined, tr, trn
from bot.store import SeatRow
from bot.tables.history import Entry
from bot.tables.service import TableInfo
from cogs.names import display_name, escape_name
from domino import Event, HandResult, Outcome, Ruleset

__all__ = [
    "VARIANTS",
    "entry_text",
    "hand_result_text",
    "mention",
    "outcome_text",
    "permission_text",
    "side_label",
    "unmention",
    "variant_name",
]

#: The answer to a button made for an earlier state of the table.
STALE = N_("This was for an earlier state of the game; look at the latest message.")

# id -> (name, short description for the command choice); the rules are in bot.i18n.rules_text
VARIANTS: dict[str, tuple[str, str]] = {
    "partners": (
        N_("Partners (Latin)"),
        N_("Partners: 4 in pairs, no drawing, options below, to 100"),
    ),
    "spanish": (N_("Spanish pairs"), N_("Spanish pairs: 4 in pairs, all pips score, to 150")),
    "venezuelan": (N_("Venezuelan"), N_("Venezuelan: 4 in pairs, opponents' pips score, to 100")),
    "brazilian": (N_("Brazilian"), N_("Brazilian: 4 in pairs, 6-6 opens the first hand, to 50")),
    "cuban": (
        N_("Cuban (double nine)"),
        N_("Cuban: double-nine set, 4 in pairs, 10 tiles each, to 100"),
    ),
    "seven-seven": (
        N_("7+7 (two people, two hands each)"),
        N_("7+7: 2 people, each plays both hands of a pair, to 150"),
    ),
    "three": (N_("Three players"), N_("Three players: no teams, 9 tiles each, no 0-0, to 100")),
    "draw": (N_("Draw game (two players)"), N_("Draw game: 2 players, draw from the pile, to 100")),
    "two": (N_("Domino for two"), N_("Domino for two: draw until a tile fits, to 100")),
    "penalty": (
        N_("Penalty points (four hands)"),
        N_("Penalty points: 2 players, 4 hands, fewest points win"),
    ),
    "all-fives": (
        N_("All Fives (Muggins)"),
        N_("All Fives: 2-4 players, ends adding to 5, 10, 15... score, to 150"),
    ),
}


LEVEL_NAMES: dict[str, str] = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}

# What each computer level does, in one line (shown in the lobby).
LEVEL_HINTS: dict[str, str] = {
    "easy": N_("plays any tile that fits, at random"),
    "normal": N_("plays like a careful person: heavy tiles and doubles early, keeps its options"),
    "hard": N_("reads every pass and play, and tries each move on many deals that fit them"),
    "expert": N_("reads its partner's signals and plans ahead from what each player can see"),
}


def level_lines(locale: str | None) -> str:
    """One line per computer level: its name and what it does."""
    return "\n".join(
        tr(locale, "**{level}**: {hint}", level=tr(locale, name), hint=tr(locale, LEVEL_HINTS[k]))
        for k, name in LEVEL_NAMES.items()
    )


def variant_name(locale: str | None, variant: str) -> str:
    """The translated name of a variant id."""
    entry = VARIANTS.get(variant)
    return tr(locale, entry[0]) if entry else variant


def picture_name(locale: str | None, row: SeatRow) -> str:
    """A seat's name as drawn in pictures (raw: pictures render no markdown); a seat a
    computer took over from a person keeps the person's name."""
    kind = "computer" if row.user_id is None else "human"
    return display_name(locale, row.name, kind, seat=row.seat)


def seat_name(info: TableInfo, seat: int, locale: str | None = None) -> str:
    """The name at ``seat`` for Discord text: computers named in the reader's language, people's
    names escaped (no markdown, link or mention can ride in a name)."""
    row = info.seats[seat]
    return escape_name(picture_name(locale, row)) if row is not None else "?"


def mention(info: TableInfo, user_id: int, locale: str | None = None) -> str:
    """``<@user>`` where ``info``'s messages may mention him; else (a place of a table across
    servers he does not play from) his name at the table, escaped."""
    if info.mentionable is None or user_id in info.mentionable:
        return f"<@{user_id}>"
    seats = [i for i, s in enumerate(info.seats) if s is not None and s.user_id == user_id]
    if not seats:
        return escape_name("?")
    row = info.seats[seats[0]]
    assert row is not None
    return escape_name(row.name) if row.name else seat_name(info, seats[0], locale)


_MENTION = re.compile(r"<@!?(\d+)>")


def unmention(info: TableInfo, text: str, locale: str | None = None) -> str:
    """``text`` with the mention of each person ``info``'s messages may not mention replaced
    by his name (:func:`mention`)."""
    if info.mentionable is None:
        return text
    return _MENTION.sub(lambda m: mention(info, int(m.group(1)), locale), text)


def picture_names(info: TableInfo, locale: str | None) -> list[str]:
    """The names drawn in the table picture, one per seat."""
    return [picture_name(locale, row) if row is not None else "" for row in info.seats]


def people_of_side(info: TableInfo, side: int, locale: str | None = None) -> list[str]:
    """Distinct names of the people (or computers) playing for ``side``."""
    names: list[str] = []
    for seat in info.ruleset.seats_of_side(side):
        name = seat_name(info, seat, locale)
        if name not in names:
            names.append(name)
    return names


def side_label(locale: str | None, info: TableInfo, side: int) -> str:
    """ "Team 1 (Ann and Bob)" in team games, the player's name otherwise."""
    names = joined(locale, people_of_side(info, side, locale))
    if info.ruleset.teams:
        return tr(locale, "Team {number} ({names})", number=side + 1, names=names)
    return names


def _tile(event: Event) -> str:
    return str(event.tile) if event.tile is not None else "?"


def entry_text(locale: str | None, info: TableInfo, entry: Entry) -> str:
    """One line of the move log: who did what (public facts only; drawn tiles are not named)."""
    name = seat_name(info, entry.seat, locale) if entry.seat is not None else ""
    tile = str(entry.tile) if entry.tile is not None else "?"
    if entry.kind == "start":
        return tr(locale, "The start tile {tile} was laid.", tile=tile)
    if entry.kind == "hand" and entry.result is not None:
        title, _ = hand_result_text(locale, info, entry.result)
        scored = [
            f"{side_label(locale, info, side)} +{p}"
            for side, p in enumerate(entry.result.points)
            if p
        ]
        return f"{title} {', '.join(scored)}".strip()
    if entry.kind == "resign" and entry.timed_out:
        return lost_on_time(locale, name, entry.count)
    if entry.kind == "resign":
        return tr(locale, "{name} resigned.", name=name)
    if entry.kind == "play":
        if entry.number is None:
            text = tr(locale, "{name} opened with {tile}.", name=name, tile=tile)
        else:
            text = tr(
                locale, "{name} played {tile} on the {number}.",
                name=name, tile=tile, number=entry.number,
            )
    elif entry.kind == "draw":
        text = trn(
            locale, "{name} drew a tile.", "{name} drew {count} tiles.", entry.count or 1,
            name=name,
        )
    else:
        text = tr(locale, "{name} passed.", name=name)
    if entry.points:  # All Fives: the ends added up to a multiple of 5
        text += " " + tr(locale, "The ends add up to {points}: +{points}.", points=entry.points)
    if entry.timed_out:
        text += " " + tr(locale, "(time ran out: the bot played)")
    elif entry.forced:
        text += " " + tr(locale, "(the only possible move, made by the bot)")
    return text


def _points_lines(locale: str | None, info: TableInfo, points: tuple[int, ...]) -> str:
    ruleset: Ruleset = info.ruleset
    scored = [(side, p) for side, p in enumerate(points) if p]
    if not scored:
        return tr(locale, "Nobody scores.")
    if ruleset.scoring == "penalty":
        return "\n".join(
            trn(
                locale,
                "{side}: +{count} penalty point",
                "{side}: +{count} penalty points",
                p,
                side=side_label(locale, info, side),
            )
            for side, p in scored
        )
    return "\n".join(
        trn(locale, "{side}: +{count} point", "{side}: +{count} points", p,
            side=side_label(locale, info, side))
        for side, p in scored
    )


# The Latin bonuses as a hand result names them (domino.BONUS_NAMES).
BONUS_TEXTS: dict[str, str] = {
    "first-pass": N_("First-tile pass"),
    "round-pass": N_("Round pass (pase corrido)"),
    "capicua": N_("Capicúa"),
    "dead-double-blank": N_("Dead 0-0"),
}


def _extra_lines(locale: str | None, info: TableInfo, result: HandResult) -> list[str]:
    """The points scored at the ends during the hand (All Fives) and the bonuses, each
    named with the player who earned it (both already counted in the hand's points)."""
    lines: list[str] = []
    ends = [(side, p) for side, p in enumerate(result.end_points) if p]
    if ends:
        lines.append(
            tr(
                locale,
                "Scored at the ends: {points}",
                points=" · ".join(
                    tr(locale, "{side}: {points}", side=side_label(locale, info, side), points=p)
                    for side, p in ends
                ),
            )
        )
    for bonus in result.bonuses:
        lines.append(
            tr(
                locale,
                "Bonus {bonus} ({name}): +{points} for {side}",
                bonus=tr(locale, BONUS_TEXTS.get(bonus.name, bonus.name)),
                name=seat_name(info, bonus.seat, locale),
                points=bonus.points,
                side=side_label(locale, info, bonus.side),
            )
        )
    return lines


def hand_result_title(locale: str | None, info: TableInfo, result: HandResult) -> str:
    """How the hand ended, as a title."""
    number = result.hand_number
    if result.kind == "domino":
        who = seat_name(info, result.winner_seat, locale) if result.winner_seat is not None else "?"
        return tr(locale, "Hand {number}: domino by {name}!", number=number, name=who)
    if result.ending == "stuck":  # penalty: the round's second ending, not a block
        return tr(
            locale,
            "Hand {number} ends: {pile} tiles left in the pile and no play for the player to "
            "move.",
            number=number,
            pile=info.ruleset.draw_floor,
        )
    if result.ending == "closed":
        return tr(locale, "Hand {number}: the line is closed!", number=number)
    return tr(locale, "Hand {number}: blocked!", number=number)


def hand_result_text(locale: str | None, info: TableInfo, result: HandResult) -> tuple[str, str]:
    """(title, body) announcing the end of a hand: how it ended, pips left, points."""
    pips = " · ".join(
        tr(locale, "{name}: {pips}", name=seat_name(info, seat, locale), pips=p)
        for seat, p in enumerate(result.pips)
    )
    body = "\n".join(
        [
            tr(locale, "Pips left: {pips}", pips=pips),
            *_extra_lines(locale, info, result),
            _points_lines(locale, info, result.points),
        ]
    )
    return hand_result_title(locale, info, result), body


def outcome_text(locale: str | None, info: TableInfo, outcome: Outcome) -> str:
    """The match's final result as a sentence."""
    if outcome.draw or outcome.winner_side is None:
        text = tr(locale, "The match ends in a draw.")
    else:
        text = tr(
            locale,
            "{side} won the match!",
            side=side_label(locale, info, outcome.winner_side),
        )
    if outcome.reason == "time" and outcome.resigned_seat is not None:
        who = seat_name(info, outcome.resigned_seat, locale)
        text = lost_on_time(locale, who, outcome.timeouts) + " " + text
    elif outcome.reason == "resign" and outcome.resigned_seat is not None:
        who = seat_name(info, outcome.resigned_seat, locale)
        text = tr(locale, "{name} resigned.", name=who) + " " + text
    return text


def lost_on_time(locale: str | None, name: str, timeouts: int) -> str:
    """A side lost the match on time (the server's rule at correspondence tables)."""
    return trn(
        locale,
        "{name} lost on time: {count} time-out in a row.",
        "{name} lost on time: {count} time-outs in a row.",
        timeouts,
        name=name,
    )


def scores_text(locale: str | None, info: TableInfo, scores: tuple[int, ...]) -> str:
    """One line per side: its score, against the target when there is one."""
    ruleset = info.ruleset
    lines: list[str] = []
    for side, score in enumerate(scores):
        label = side_label(locale, info, side)
        if ruleset.target is not None:
            lines.append(
                tr(
                    locale,
                    "{side}: **{score}** / {target}",
                    side=label,
                    score=score,
                    target=ruleset.target,
                )
            )
        else:
            lines.append(tr(locale, "{side}: **{score}**", side=label, score=score))
    return "\n".join(lines)


#: The partners options as the players read them (the same texts as the slash command's
#: choices), keyed by (option, value).
OPTION_TEXTS: dict[tuple[str, str], str] = {
    ("first_hand", "double-six"): N_("double-six: the holder of 6-6 opens"),
    ("first_hand", "random"): N_("random: a random player opens"),
    ("next_hand", "rotate"): N_("rotate: the next player opens"),
    ("next_hand", "winner"): N_("winner: the last hand's winner opens"),
    ("scoring", "opponents"): N_("opponents: the losers' pips"),
    ("scoring", "all"): N_("all: every pip left, partner's too"),
    ("blocked", "team"): N_("team: the pair with fewer pips wins"),
    ("blocked", "individual"): N_("individual: the player with fewest pips wins"),
    ("forced_moves", "True"): N_("forced moves: an only possible move is made after 3 s"),
    ("forced_moves", "False"): N_("no forced moves"),
    ("bonuses", "True"): N_("Latin bonuses"),
    ("bonuses", "False"): N_("no bonuses"),
    ("players", "2"): N_("2 players"),
    ("players", "3"): N_("3 players"),
    ("players", "4"): N_("4 players in pairs"),
}


def describe_options(locale: str | None, info: TableInfo) -> str:
    """Target, number of hands, timer and the chosen options of a table."""
    ruleset = info.ruleset
    parts: list[str] = []
    if ruleset.target is not None:
        parts.append(tr(locale, "First to {target} points", target=ruleset.target))
    if ruleset.hands is not None:
        parts.append(trn(locale, "{count} hand", "{count} hands", ruleset.hands))
    timer = info.table.turn_timer
    if not info.correspondence:
        parts.append(tr(locale, "turn timer {seconds} s", seconds=timer))
    elif timer % (24 * 3600) == 0:
        days = timer // (24 * 3600)
        parts.append(
            trn(locale, "correspondence: {count} day per move",
                "correspondence: {count} days per move", days)
        )
    else:
        hours = timer // 3600
        parts.append(
            trn(locale, "correspondence: {count} hour per move",
                "correspondence: {count} hours per move", hours)
        )
    options: dict[str, Any] = {
        k: v for k, v in info.table.options.items() if k != "target" and v is not None
    }
    for key, value in sorted(options.items()):
        text = OPTION_TEXTS.get((key, str(value)))
        parts.append(tr(locale, text) if text else f"{key}: {value}")
    return " · ".join(parts)


def permission_text(locale: str | None) -> str:
    """What to do when Discord refused the bot a channel permission."""
    return tr(
        locale,
        "I am missing a permission in this channel. A server manager can let me view the "
        "channel, send messages, embed links, attach files, create public threads and send "
        "messages in threads here.",
    )


def rules_summary(locale: str | None, variant: str) -> list[str]:
    """The rules of ``variant`` in five lines (who plays, the tiles, a turn, a hand's end, the
    score), drawn from its rule set: what ``/domino rules`` says first."""
    from domino import preset

    rs = preset(variant)
    if rs.people < rs.seats:
        who = tr(locale, "{people} people, each plays both hands of a pair.", people=rs.people)
    elif rs.teams:
        who = tr(locale, "{seats} players in two pairs, partners sitting across.", seats=rs.seats)
    else:
        who = tr(locale, "{seats} players, each for himself.", seats=rs.seats)
    rest = len(rs.tiles) - rs.seats * rs.hand_size
    if rs.draw:
        left = tr(locale, "the rest is a pile to draw from")
    elif rest:
        left = trn(locale, "one tile stays face down", "{count} tiles stay face down", rest)
    else:
        left = tr(locale, "every tile is dealt")
    tiles = tr(
        locale, "Double-{top} set, {count} tiles each; {rest}.",
        top=rs.max_pip, count=rs.hand_size, rest=left,
    )
    if rs.draw:
        turn = tr(locale, "On your turn lay a tile matching an open end; if none fits, draw.")
    else:
        turn = tr(locale, "On your turn lay a tile matching an open end; if none fits, pass.")
    if rs.spinner:
        turn += " " + tr(locale, "The first double opens four ends.")
    end = tr(
        locale,
        "A hand ends when someone lays his last tile (domino) or nobody can play (blocked).",
    )
    if rs.scoring == "penalty":
        score = tr(
            locale,
            "Each player takes the pips left in his hand as penalty points; after {hands} "
            "hands the fewest win.",
            hands=rs.hands or 0,
        )
    elif rs.end_scoring:
        score = tr(
            locale,
            "Ends adding up to a multiple of {step} score at once, and the hand's winner the "
            "pips left; first to {target} wins.",
            step=rs.end_scoring, target=rs.target or 0,
        )
    elif rs.scoring == "all":
        score = tr(
            locale,
            "The hand's winner scores every pip left, partner's too; first to {target} wins.",
            target=rs.target or 0,
        )
    else:
        score = tr(
            locale,
            "The hand's winner scores the opponents' pips left; first to {target} wins.",
            target=rs.target or 0,
        )
    return [who, tiles, turn, end, score]
