"""Constructed deals shared by the engine tests."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable

from domino import HandResult, Match, Play, Ruleset, Tile, preset


def tiles(text: str) -> list[str]:
    """``"1-1 2-3"`` -> ``["1-1", "2-3"]``."""
    return text.split()


def play_all(match: Match, moves: Iterable[tuple[str, str | None]]) -> Match:
    """Apply ``(tile, end)`` plays in turn order."""
    for tile, end in moves:
        match = match.apply(Play(Tile.parse(tile), end))  # type: ignore[arg-type]
    return match


def any_tile_opener(rs: Ruleset) -> Ruleset:
    """The same rules, but the first hand opens with any tile from the deal's opener."""
    return dataclasses.replace(rs, first_hand="random")


# A 4-seat double-six hand that ends in a block after ten tiles: the line closes on 0 at
# both ends with all seven 0s laid. Seat 1 lays the last tile (the blocker).
BLOCK_PLAYED = {0: "0-0 0-3 5-6", 1: "0-1 3-4 0-6", 2: "1-2 0-4", 3: "0-2 0-5"}
BLOCK_MOVES = [
    ("0-0", None), ("0-1", "right"), ("1-2", "right"), ("0-2", "right"), ("0-3", "right"),
    ("3-4", "right"), ("0-4", "right"), ("0-5", "right"), ("5-6", "right"), ("0-6", "right"),
]


def blocked_four(rs: Ruleset, rest: dict[int, str]) -> Match:
    """Play the constructed block; ``rest`` gives what each seat still holds (4,4,5,5 tiles)."""
    hands = [tiles(BLOCK_PLAYED[s]) + tiles(rest[s]) for s in range(4)]
    match = Match.new(any_tile_opener(rs), "block", {"hands": hands, "opener": 0})
    return play_all(match, BLOCK_MOVES)


# Seat pips 15, 31, 30, 50: team 0 has 45, team 1 has 81.
REST_TEAM0_LOW = {0: "1-1 1-3 2-2 1-4", 1: "2-5 2-6 3-5 4-4", 2: "2-3 1-5 2-4 3-3 1-6",
                  3: "3-6 4-5 4-6 5-5 6-6"}
# Seat pips 31, 15, 30, 50: team 0 has 61, team 1 has 65 but seat 1 is the lowest player.
REST_SEAT1_LOWEST = {0: "2-5 2-6 3-5 4-4", 1: "1-1 1-3 2-2 1-4", 2: "2-3 1-5 2-4 3-3 1-6",
                     3: "3-6 4-5 4-6 5-5 6-6"}
# Seat pips 25, 28, 38, 35: both teams have 63.
REST_TEAM_TIE = {0: "1-3 1-5 1-6 4-4", 1: "2-3 3-3 3-5 3-6", 2: "1-4 2-2 4-5 4-6 5-5",
                 3: "1-1 2-4 2-5 2-6 6-6"}
# Seat pips 28, 32, 28, 38: team 0 wins with seats 0 and 2 tied inside it.
REST_TIE_INSIDE = {0: "2-3 2-6 3-3 3-6", 1: "1-1 3-5 5-5 6-6", 2: "1-3 1-4 1-5 2-2 4-5",
                   3: "1-6 2-4 2-5 4-4 4-6"}
# Seat pips 23, 23, 35, 45: seats 0 and 1 tie for the fewest, from different teams.
REST_PLAYER_TIE = {0: "1-3 2-2 3-3 3-6", 1: "1-1 1-6 2-4 4-4", 2: "1-4 1-5 2-3 2-5 6-6",
                   3: "2-6 3-5 4-5 4-6 5-5"}


def last_result(match: Match) -> HandResult:
    assert match.hand_results, "the hand has not ended"
    return match.hand_results[-1]


def random_play(match: Match, rng: random.Random, until: Callable[[Match], bool]) -> Match:
    """Random legal actions until ``until(match)`` or the match ends."""
    while match.turn is not None and not until(match):
        match = match.apply(rng.choice(match.legal_actions()))
    return match


def find_hand(
    rules: str | Ruleset, predicate: Callable[[HandResult, Match], bool], tries: int = 3000
) -> tuple[Match, HandResult, Match]:
    """The first seeded first hand (random legal play) whose result satisfies ``predicate``.

    Returns the match just before that hand ended, the result, and the match just after.
    """
    rs = preset(rules) if isinstance(rules, str) else rules
    for seed in range(tries):
        rng = random.Random(seed)
        match = Match.new(rs, seed)
        while match.turn is not None and match.hand_number == 1:
            before = match
            match = match.apply(rng.choice(match.legal_actions()))
        result = match.hand_results[0]
        if predicate(result, before):
            return before, result, match
    raise AssertionError(f"no {rs.id} hand found")
