"""The words of the dominoes cog: variant summaries and rules, and sentences built from state.

Every sentence goes through :func:`bot.i18n.tr` with its English text as the message id.
Texts kept in tables are marked with :func:`N_` (for extraction) and translated when used.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, tr
from bot.service import TableInfo
from domino import Event, HandResult, Outcome, Ruleset

__all__ = [
    "COMMON_RULES",
    "VARIANTS",
    "action_text",
    "hand_result_text",
    "outcome_text",
    "side_label",
    "variant_name",
]


# id -> (name, short description for the command choice, rules text)
VARIANTS: dict[str, tuple[str, str, str]] = {
    "partners": (
        N_("Partners (Latin)"),
        N_("Partners: 4 in pairs, no drawing, options below, to 100"),
        N_(
            "Four players in two pairs (seats 1 and 3 against 2 and 4), 7 tiles each, no "
            "drawing: if you cannot play, you pass.\n"
            "- First hand (option first_hand): the holder of 6-6 opens with it (double-six, "
            "default), or a random player opens with any tile (random).\n"
            "- Later hands (option next_hand): the player after the previous opener (rotate, "
            "default), or the previous hand's winner with any tile (winner).\n"
            "- Domino (option scoring): the winners score the pips left in the losing pair's "
            "hands (opponents, default) or in all hands, partner's included (all).\n"
            "- Block (option blocked): the pair with fewer pips wins (team, default), or the "
            "pair of the single player with the fewest pips (individual). "
            "**Our decision:** a tie scores nothing.\n"
            "- The match goes to 100 points (target 50, 100, 150 or 200)."
        ),
    ),
    "spanish": (
        N_("Spanish pairs"),
        N_("Spanish pairs: 4 in pairs, all pips score, to 150"),
        N_(
            "Four players in two pairs (seats 1 and 3 against 2 and 4), 7 tiles each, no "
            "drawing: if you cannot play, you pass.\n"
            "- The first hand is opened by a random player, later hands by the player after "
            "the previous opener, with any tile.\n"
            "- Domino: the winners score all pips left, their partner's included.\n"
            "- Block: the pair with fewer pips scores all pips left. **Our decision:** a tie "
            "scores nothing.\n"
            "- The match goes to 150 points."
        ),
    ),
    "venezuelan": (
        N_("Venezuelan"),
        N_("Venezuelan: 4 in pairs, opponents' pips score, to 100"),
        N_(
            "Four players in two pairs (seats 1 and 3 against 2 and 4), 7 tiles each, no "
            "drawing: if you cannot play, you pass.\n"
            "- The first hand is opened by a random player, later hands by the player after "
            "the previous opener, with any tile.\n"
            "- Domino: the winners score the pips left in the opponents' hands.\n"
            "- Block: the pair with fewer pips scores the opponents' pips. **Our decision:** a "
            "tie scores nothing.\n"
            "- The match goes to 100 points."
        ),
    ),
    "brazilian": (
        N_("Brazilian"),
        N_("Brazilian: 4 in pairs, 6-6 opens the first hand, to 50"),
        N_(
            "Four players in two pairs (seats 1 and 3 against 2 and 4), 7 tiles each, no "
            "drawing: if you cannot play, you pass.\n"
            "- First hand: the holder of 6-6 opens with it; later hands: the player after the "
            "previous opener, with any tile.\n"
            "- Domino: the winners score the opponents' pips.\n"
            "- Block: the pair with fewer pips scores the other pair's pips; on a tie, the pair "
            "of the player who made the blocking move loses.\n"
            "- The match goes to 50 points."
        ),
    ),
    "cuban": (
        N_("Cuban (double nine)"),
        N_("Cuban: double-nine set, 4 in pairs, 10 tiles each, to 100"),
        N_(
            "Four players in two pairs (seats 1 and 3 against 2 and 4) with a double-nine set "
            "(55 tiles), 10 tiles each; the other 15 stay face down, unused. No drawing: if "
            "you cannot play, you pass.\n"
            "- First hand: the holder of the highest double dealt opens with it; later hands: "
            "the previous hand's winner (after a tie, the previous opener), with any tile.\n"
            "- Domino: the winners score the opponents' pips.\n"
            "- Block: the pair of the single player with the fewest pips wins, scoring the "
            "opponents' unplayed pips. **Our decision:** a tie between players of both pairs "
            "scores nothing.\n"
            "- The match goes to 100 points."
        ),
    ),
    "seven-seven": (
        N_("7+7 (two people, two hands each)"),
        N_("7+7: 2 people, each plays both hands of a pair, to 150"),
        N_(
            "Two people, each holding both seats of one pair of a four-seat Spanish game "
            "(seats 1 and 3 against 2 and 4), 7 tiles per seat, no drawing. You act for "
            "whichever of your two seats is to play.\n"
            "- The first hand is opened by a random seat, later hands by the seat after the "
            "previous opener, with any tile.\n"
            "- Domino: all pips left score, your own other hand included.\n"
            "- Block: the pair with fewer pips scores all pips left. **Our decision:** a tie "
            "scores nothing.\n"
            "- The match goes to 150 points."
        ),
    ),
    "three": (
        N_("Three players"),
        N_("Three players: no teams, 9 tiles each, no 0-0, to 100"),
        N_(
            "Three players, no teams, 27 tiles (no 0-0), 9 each, no drawing: if you cannot "
            "play, you pass.\n"
            "- First hand: the holder of 6-6 opens with it; then the player after the previous "
            "opener.\n"
            "- Domino: the winner scores the sum of both opponents' pips.\n"
            "- Block: the player with the fewest pips scores the sum of the differences "
            "between each opponent's pips and his own. **Our decision:** a tie for the fewest "
            "scores nothing.\n"
            "- The match goes to 100 points."
        ),
    ),
    "draw": (
        N_("Draw game (two players)"),
        N_("Draw game: 2 players, draw from the pile, to 100"),
        N_(
            "Two players, 7 tiles each, 14 in the pile.\n"
            "- Every hand: the holder of the highest double opens with it; without a double, "
            "the holder of the heaviest tile (most pips, then higher end) opens with it.\n"
            "- If no tile fits, draw one at a time until one fits, then you may play it. No "
            "drawing while the pile has 2 or fewer tiles: then you pass.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Block: the lower pip count wins the difference; equal scores nothing.\n"
            "- The match goes to 100 points."
        ),
    ),
    "two": (
        N_("Domino for two"),
        N_("Domino for two: draw until a tile fits, to 100"),
        N_(
            "Two players, 7 tiles each, 14 in the pile.\n"
            "- First hand: the highest double opens (without a double, the heaviest tile); "
            "later hands: the players alternate.\n"
            "- If no tile fits, draw until one fits; pass when the pile is empty.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Closed line: the closer's opponent takes the rest of the pile into his hand, "
            "then the player with fewer pips scores the difference. **Our decision:** equal "
            "scores nothing.\n"
            "- The match goes to 100 points."
        ),
    ),
    "penalty": (
        N_("Penalty points (four hands)"),
        N_("Penalty points: 2 players, 4 hands, fewest points win"),
        N_(
            "Two players, 7 tiles each; a random non-double from the pile is laid as the "
            "start tile. Seat 1 moves first in hand 1, then the first mover alternates.\n"
            "- You may not pass while a tile fits. Otherwise draw until one fits: at most 3 "
            "tiles a turn, and never below 2 tiles left in the pile; still nothing: pass.\n"
            "- Each player gets the pips left in his own hand as penalty points; after a "
            "domino the loser gets 5 more.\n"
            "- A hand also ends as soon as the pile is down to 2 and the player to move "
            "cannot play (penalties as for a domino, without the extra 5).\n"
            "- Exactly 4 hands; the fewest penalty points win; equal is a draw."
        ),
    ),
}

COMMON_RULES = N_(
    "A tile a-b is worth a+b pips. The first tile opens the line; every later tile must "
    "match an open end. A tile that fits both ends asks you which end. Doubles are ordinary "
    "tiles (no spinner). A hand ends by domino (a player lays his last tile) or by block "
    "(nobody can play or draw)."
)

LEVEL_NAMES: dict[str, str] = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
}


def variant_name(locale: str | None, variant: str) -> str:
    """The translated name of a variant id."""
    entry = VARIANTS.get(variant)
    return tr(locale, entry[0]) if entry else variant


def seat_name(info: TableInfo, seat: int) -> str:
    """The display name at ``seat``."""
    row = info.seats[seat]
    return row.name if row is not None else "?"


def people_of_side(info: TableInfo, side: int) -> list[str]:
    """Distinct names of the people (or computers) playing for ``side``."""
    names: list[str] = []
    for seat in info.ruleset.seats_of_side(side):
        name = seat_name(info, seat)
        if name not in names:
            names.append(name)
    return names


def side_label(locale: str | None, info: TableInfo, side: int) -> str:
    """ "Team 1 (Ann & Bob)" in team games, the player's name otherwise."""
    names = " & ".join(people_of_side(info, side))
    if info.ruleset.teams:
        return tr(locale, "Team {number} ({names})", number=side + 1, names=names)
    return names


def _tile(event: Event) -> str:
    return str(event.tile) if event.tile is not None else "?"


def action_text(locale: str | None, info: TableInfo, event: Event) -> str:
    """One public event as a sentence (never names a hidden tile)."""
    name = seat_name(info, event.seat) if event.seat is not None else ""
    if event.kind == "start":
        return tr(locale, "The start tile {tile} was laid.", tile=_tile(event))
    if event.kind == "play":
        return tr(locale, "{name} played {tile}.", name=name, tile=_tile(event))
    if event.kind == "draw":
        return tr(locale, "{name} drew a tile.", name=name)
    return tr(locale, "{name} passed.", name=name)


def _points_lines(locale: str | None, info: TableInfo, points: tuple[int, ...]) -> str:
    ruleset: Ruleset = info.ruleset
    scored = [(side, p) for side, p in enumerate(points) if p]
    if not scored:
        return tr(locale, "Nobody scores.")
    if ruleset.scoring == "penalty":
        return "\n".join(
            tr(
                locale,
                "{side}: +{points} penalty points",
                side=side_label(locale, info, side),
                points=p,
            )
            for side, p in scored
        )
    return "\n".join(
        tr(locale, "{side}: +{points} points", side=side_label(locale, info, side), points=p)
        for side, p in scored
    )


def hand_result_text(locale: str | None, info: TableInfo, result: HandResult) -> tuple[str, str]:
    """(title, body) announcing the end of a hand: how it ended, pips left, points."""
    if result.kind == "domino":
        who = seat_name(info, result.winner_seat) if result.winner_seat is not None else "?"
        title = tr(locale, "Hand {number}: domino by {name}!", number=result.hand_number, name=who)
    else:
        title = tr(locale, "Hand {number}: blocked!", number=result.hand_number)
    pips = " · ".join(
        tr(locale, "{name} {pips}", name=seat_name(info, seat), pips=p)
        for seat, p in enumerate(result.pips)
    )
    body = "\n".join(
        [
            tr(locale, "Pips left: {pips}", pips=pips),
            _points_lines(locale, info, result.points),
        ]
    )
    return title, body


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
    if outcome.reason == "resign" and outcome.resigned_seat is not None:
        text = (
            tr(locale, "{name} resigned.", name=seat_name(info, outcome.resigned_seat)) + " " + text
        )
    return text


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


def describe_options(locale: str | None, info: TableInfo) -> str:
    """Target, number of hands, timer and the chosen options of a table."""
    ruleset = info.ruleset
    parts: list[str] = []
    if ruleset.target is not None:
        parts.append(tr(locale, "First to {target} points", target=ruleset.target))
    if ruleset.hands is not None:
        parts.append(tr(locale, "{hands} hands", hands=ruleset.hands))
    parts.append(tr(locale, "turn timer {seconds} s", seconds=info.table.turn_timer))
    options: dict[str, Any] = {
        k: v for k, v in info.table.options.items() if k != "target" and v is not None
    }
    for key, value in sorted(options.items()):
        parts.append(f"{key}: {value}")
    return " · ".join(parts)
