"""Shared helpers of the computer-player tests."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from domino import Match, Play, Ruleset, Tile, View, preset
from domino.actions import Action


def tiles(text: str) -> list[str]:
    """``"1-1 2-3"`` -> ``["1-1", "2-3"]``."""
    return text.split()


def any_opener(rs: Ruleset) -> Ruleset:
    """The same rules, but the first hand opens with any tile from the deal's opener."""
    return dataclasses.replace(rs, first_hand="random")


def play(match: Match, *moves: str) -> Match:
    """Apply moves written as ``"3-5 left"``, ``"6-6"``, ``"draw"`` or ``"pass"``."""
    from domino import decode_action

    for text in moves:
        action = decode_action(text if text in ("draw", "pass") else f"play {text}")
        match = match.apply(action)
    return match


def position(
    ruleset_id: str,
    hand: str,
    line: list[tuple[int, int]],
    *,
    hand_sizes: tuple[int, ...] | None = None,
    pile: int = 0,
) -> View:
    """A constructed view of seat 0 to move, with ``hand`` (``"1-2 5-6"``) and ``line``."""
    rs = preset(ruleset_id)
    base = Match.new(rs, 1).view(0)
    tiles = tuple(sorted(Tile.parse(t) for t in hand.split()))
    ends = (line[0][0], line[-1][1]) if line else None
    legal: list[Action] = []
    for t in tiles:
        if ends is None:
            legal.append(Play(t, None))
        elif ends[0] == ends[1]:
            if t.has(ends[0]):
                legal.append(Play(t, "right"))
        else:
            if t.has(ends[0]):
                legal.append(Play(t, "left"))
            if t.has(ends[1]):
                legal.append(Play(t, "right"))
    on_table = len(line)
    if hand_sizes is None:
        others = (len(rs.tiles) - on_table - len(tiles) - pile) // (rs.seats - 1)
        hand_sizes = (len(tiles),) + (others,) * (rs.seats - 1)
    return dataclasses.replace(
        base,
        hand=tiles,
        hand_sizes=hand_sizes,
        line=tuple(line),
        ends=ends,
        opener_index=0 if line else None,
        last_index=len(line) - 1 if line else None,
        pile_size=pile,
        turn=0,
        events=(),
        legal=tuple(legal),
        drawn_this_turn=0,
    )


Chooser = Callable[[View, random.Random], Action]


def play_match(rs: Ruleset, seed: int, chooser: Chooser) -> Match:
    """Play a whole match with ``chooser`` for every seat, checking each choice is legal."""
    match = Match.new(rs, seed)
    count = 0
    while match.outcome is None:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        action = chooser(view, random.Random(f"{seed}/{count}"))
        assert action in view.legal, (rs.id, seed, action, view.legal)
        match = match.apply(action, seat)
        count += 1
    return match
