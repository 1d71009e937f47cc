"""Hints for practice tables: what the strongest computer player would do, and why in a line.

The move is the ``expert`` player's choice for the seat's own view (never more than the seat
sees). The reason is read from the position the move leaves, in this order: the only move;
going out; points scored at the ends (All Fives); ends the next player showed he lacks (he
passed or drew on them); laying a double; keeping the hand playable on the new ends; shedding
the heaviest tile; otherwise the simulations' verdict.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_
from domino import Action, Draw, Pass, Play, View
from domino.ai import choose
from domino.ai.belief import Belief
from domino.ai.fives import play_points
from domino.match import NUM

__all__ = ["HINT_LEVEL", "Hint", "explain", "hint", "lacked_numbers"]

HINT_LEVEL = "expert"
HINT_BUDGET = 0.4


@dataclass(frozen=True, slots=True)
class Hint:
    """A move and the reason for it (a catalogue message id and its parameters)."""

    action: Action
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


def lacked_numbers(view: View, seat: int) -> set[int]:
    """The numbers ``seat`` cannot hold, as far as the public events tell the viewer."""
    belief = Belief.from_view(view)
    groups = [(mask, count) for s, mask, count in belief.groups if s == seat and count]
    if not groups:
        return set()
    out = set()
    for n in range(view.ruleset.max_pip + 1):
        tiles = NUM[n] & belief.unseen
        if all(tiles & ~mask == 0 for mask, _ in groups):
            out.add(n)
    return out


def _ends_after(view: View, play: Play) -> tuple[int, int]:
    tile = play.tile
    if view.ends is None:
        return tile.a, tile.b
    left, right = view.ends
    if play.end == "right" or (play.end is None and tile.has(right) and not tile.has(left)):
        return left, tile.other(right)
    return tile.other(left), right


def hint(view: View, *, rng: random.Random | None = None, budget: float = HINT_BUDGET) -> Hint:
    """The expert's move for the seat of ``view`` (which must be to move) and why."""
    action = choose(view, HINT_LEVEL, rng=rng or random.Random(), budget=budget)
    return Hint(action, *_reason(view, action))


def explain(view: View, action: Action) -> Hint:
    """Why ``action`` (one of ``view.legal``) is a good move, as a hint says it."""
    return Hint(action, *_reason(view, action))


def _reason(view: View, action: Action) -> tuple[str, dict[str, Any]]:
    if isinstance(action, Draw):
        return N_("No tile fits: draw one."), {}
    if isinstance(action, Pass):
        return N_("No tile fits and you cannot draw: pass."), {}
    assert isinstance(action, Play) and view.hand is not None and view.seat is not None
    tile = action.tile
    rest = [t for t in view.hand if t != tile]
    if not rest:
        return N_("it is your last tile: you go out and win the hand."), {}
    if len(view.legal) == 1:
        return N_("it is your only move."), {}
    rs = view.ruleset
    if rs.end_scoring:
        points, _ = play_points(view, action)
        if points:
            return N_("it scores {points} points at the ends."), {"points": points}
    else:
        ends = _ends_after(view, action)
        nxt = (view.seat + 1) % rs.seats
        if rs.side_of(nxt) != rs.side_of(view.seat):
            lacked = lacked_numbers(view, nxt)
            if lacked and all(e in lacked for e in ends):
                return (
                    N_("the next player has shown they have no {numbers}: this may block them."),
                    {"numbers": " / ".join(str(n) for n in sorted(set(ends)))},
                )
        if tile.is_double:
            return N_("a double fits one number only: lay it while you can."), {}
        follow = sum(1 for t in rest if t.has(ends[0]) or t.has(ends[1]))
        if follow * 2 >= len(rest):
            return (
                N_("it keeps {count} of your {total} tiles playable on the new ends."),
                {"count": follow, "total": len(rest)},
            )
    heaviest = max(a.tile.pips for a in view.legal if isinstance(a, Play))
    if tile.pips == heaviest:
        return N_("it sheds the most pips ({pips})."), {"pips": tile.pips}
    return N_("it gives your side the best result over many simulated deals."), {}
