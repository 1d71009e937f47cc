"""The ``expert`` player: information-set tree search over deals weighed by a play model.

It searches one tree over the public course of the hand (:mod:`domino.ai.tree`): every seat
chooses in the tree from what it could see, so the search does not credit a seat with knowing
hidden tiles. Each iteration draws a deal of the hidden tiles consistent with every pass,
draw, play and forced opening (:class:`~domino.ai.belief.Belief`), and finishes the hand with
play-outs where each simulated seat also reads that deal (:func:`~domino.ai.policy.seen_move`).

**A play model weighs each deal.** Every earlier play of another seat (partner included) is
scored under the deal by :func:`model_score`, a few features of the play and the hand it left
(pips, double, tiles that follow the new ends, numbers given up, ends the next seat or the
partner lacks) with weights fitted to how real players chose (``python -m
benchmarks.playmodel``); the deal's weight is how likely that seat's actual choices were under
a softmax of those scores. Deals where the partner or an opponent would have played very
differently are drawn rarely: this reads partner signals (he opened with or kept feeding a
number: he holds more of it) and an opponent's reluctance to play a number.

**Searched endgame.** Once :data:`ENDGAME_TILES` or fewer tiles are left in the hands and
nothing can be drawn, each weighed deal is solved by alpha-beta instead
(:func:`~domino.ai.tree.endgame_search`): so few hidden tiles leave little for a seat to guess.

It stops after :data:`EXPERT_ITERATIONS` iterations (deals, in the endgame: at most
:data:`~domino.ai.tree.POOL`) or when its time budget is nearly spent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from time import perf_counter

from domino.actions import Action, Play
from domino.ai.sim import DOUBLES, OTHER, PIPS, bits, mask_of, to_move
from domino.ai.tree import tree_search
from domino.match import NUM
from domino.views import View

EXPERT_BUDGET = 0.5
# At most this many iterations per decision (the duels in docs/benchmarks.md were measured with it).
EXPERT_ITERATIONS = 3000
# The play model: a seat's choice among its plays is a softmax of these weights times
# :func:`model_features`, fitted by maximum likelihood to recorded plays of ``expert``,
# ``hard``, OpenSpiel's ISMCTS and the ``dominoes`` package (``python -m benchmarks.playmodel``).
FEATURES = (
    "pips",  # pips of the tile laid: heavy tiles go first
    "early_pips",  # pips times the tiles in hand (sevenths): ... above all early on
    "double",  # the tile is a double
    "follow",  # own tiles left that follow an open end (up to 2 per end)
    "same",  # both open ends show the same number
    "lock",  # both open ends are numbers the next seat lacks
    "lack",  # one open end is a number the next seat lacks
    "partner_lack",  # an open end is a number the partner lacks
    "covered",  # own tiles left of the number the play covers (up to 2)
    "lost",  # numbers the play leaves the hand without
    "open_out",  # tiles of the new ends' numbers neither in hand nor on the line
)
WEIGHTS: tuple[float, ...] = (
    0.012, 0.191, 0.613, 0.148, 0.148, -0.007, 0.277, -0.148, -0.231, -0.456, -0.289
)
BUDGET_SHARE = 0.85  # of the budget spent searching (the rest is margin)
ENDGAME_TILES = 12  # solve each deal once the hands hold this many tiles or fewer in all


class _Decision:
    """One earlier choice of another seat, as the play model reads it."""

    __slots__ = ("chosen", "ends", "fresh", "lack_next", "lack_partner", "later", "seat")

    def __init__(
        self,
        seat: int,
        ends: tuple[int, int] | None,
        chosen: int,
        later: int,
        lack_next: int,
        lack_partner: int,
        fresh: int,
    ) -> None:
        self.seat = seat
        self.ends = ends
        self.chosen = chosen  # simulator move actually made
        self.later = later  # tiles this seat laid from this decision on (this one included)
        self.lack_next = lack_next
        self.lack_partner = lack_partner
        self.fresh = fresh  # the set's tiles not yet on the line


def decisions(view: View) -> list[_Decision]:
    """The other seats' earlier plays the play model can judge.

    A seat's hand at a play is its hidden hand now plus the tiles it laid since; that holds
    while it drew nothing since, so plays followed by a draw of the same seat are left out.
    A forced opening is no choice and is left out too.
    """
    rs = view.ruleset
    me = view.seat
    seats = rs.seats
    teams = seats == 4 and rs.teams
    lacks = [0] * seats
    out: list[_Decision] = []
    plays: list[tuple[int, int, tuple[int, int] | None, int, int, int]] = []
    first_play = True
    fresh = mask_of(rs.tiles)
    for e in view.events:
        s = e.seat
        if e.kind == "start" and e.tile is not None:
            fresh &= ~mask_of([e.tile])
        if s is None:
            continue
        if e.kind in ("pass", "draw"):
            if e.ends_before is not None:
                a, b = e.ends_before
                lacks[s] |= (1 << a) | (1 << b)
            if e.kind == "draw":
                plays = [p for p in plays if p[0] != s]  # its hand changed since
            continue
        if e.kind != "play" or e.tile is None:
            continue
        move = to_move(Play(e.tile, e.end))  # type: ignore[arg-type]
        before = fresh
        fresh &= ~(1 << (move >> 2))
        forced = first_play and _opening_forced(view)
        first_play = False
        if s == me or forced:
            continue
        lack_next = lacks[(s + 1) % seats]
        lack_partner = lacks[(s + 2) % 4] if teams else 0
        plays.append((s, move, e.ends_before, lack_next, lack_partner, before))
    # the tiles each seat laid from each kept play on
    for idx, (s, move, ends, lack_next, lack_partner, before) in enumerate(plays):
        later = 0
        for s2, move2, *_ in plays[idx:]:
            if s2 == s:
                later |= 1 << (move2 >> 2)
        out.append(_Decision(s, ends, move, later, lack_next, lack_partner, before))
    return out


def _opening_forced(view: View) -> bool:
    rs = view.ruleset
    rule = rs.first_hand if view.hand_number == 1 else rs.next_hand
    return rule in ("double-six", "highest-double", "heaviest") and not rs.start_tile


def log_weight(choices: list[_Decision], hands: list[int]) -> float:
    """Log-likelihood of the seats' actual plays if their hands were ``hands``."""
    total = 0.0
    for d in choices:
        hand = hands[d.seat] | d.later
        ends = d.ends
        if ends is None:
            options = [i * 4 for i in bits(hand)]
            left0 = right0 = -1
        else:
            left0, right0 = ends
            options = plays_on(hand, left0, right0)
        if len(options) < 2:
            continue
        best = -1e18
        scores = []
        chosen = 0.0
        for move in options:
            sc = model_score(move, hand, left0, right0, d.lack_next, d.lack_partner, d.fresh)
            scores.append(sc)
            if sc > best:
                best = sc
            if move == d.chosen:
                chosen = sc
        z = 0.0
        for sc in scores:
            z += math.exp(sc - best)
        total += chosen - best - math.log(z)
    return total


def model_features(
    move: int, hand: int, left0: int, right0: int, lack_next: int, lack_partner: int,
    fresh: int,
) -> tuple[float, ...]:
    """The play model's :data:`FEATURES` of play ``move`` from ``hand`` on ends
    ``left0``/``right0`` (-1: empty line), given the numbers the next seat and the partner
    showed they lack and the set's tiles not on the line (``fresh``)."""
    i = move >> 2
    rest = hand ^ (1 << i)
    end = move & 3
    if end == 1:
        left, right, covered = OTHER[i * 10 + left0], right0, left0
    elif end == 2:
        left, right, covered = left0, OTHER[i * 10 + right0], right0
    else:
        left, right, covered = i // 10, i % 10, -1
    follow = min((rest & NUM[left]).bit_count(), 2)
    if right != left:
        follow += min((rest & NUM[right]).bit_count(), 2)
    open_mask = (1 << left) | (1 << right)
    hit = lack_next & open_mask
    a, b = i // 10, i % 10
    pips = PIPS[i]
    return (
        pips,
        pips * hand.bit_count() / 7,
        1.0 if (1 << i) & DOUBLES else 0.0,
        follow,
        1.0 if left == right else 0.0,
        1.0 if hit == open_mask else 0.0,
        1.0 if hit and hit != open_mask else 0.0,
        1.0 if lack_partner & open_mask else 0.0,
        min((rest & NUM[covered]).bit_count(), 2) if covered >= 0 else 0,
        (not rest & NUM[a]) + (a != b and not rest & NUM[b]),
        (fresh & ~hand & (NUM[left] | NUM[right])).bit_count(),
    )


def model_score(
    move: int, hand: int, left0: int, right0: int, lack_next: int, lack_partner: int,
    fresh: int,
) -> float:
    """The play model's log-odds score of a play: :data:`WEIGHTS` times its features."""
    w = WEIGHTS
    f = model_features(move, hand, left0, right0, lack_next, lack_partner, fresh)
    return (
        w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3] + w[4] * f[4] + w[5] * f[5]
        + w[6] * f[6] + w[7] * f[7] + w[8] * f[8] + w[9] * f[9] + w[10] * f[10]
    )


def plays_on(hand: int, left: int, right: int) -> list[int]:
    """The simulator moves that lay a tile of ``hand`` on ends ``left``/``right``."""
    if left == right:
        return [i * 4 + 2 for i in bits(hand & NUM[left])]
    nl = NUM[left]
    nr = NUM[right]
    out = []
    for i in bits(hand & (nl | nr)):
        bit = 1 << i
        if bit & nl:
            out.append(i * 4 + 1)
        if bit & nr:
            out.append(i * 4 + 2)
    return out


def choose_expert(
    view: View,
    rng: random.Random,
    budget: float = EXPERT_BUDGET,
    samples: int | None = None,
    stats: dict[str, float] | None = None,
    clock: Callable[[], float] = perf_counter,
    deadline: float | None = None,
    values: dict[Action, float] | None = None,
) -> Action:
    """The legal action the information-set tree search tries most, over consistent deals
    weighed by the play model; ``samples`` fixes the number of iterations; the search stops
    at ``deadline`` (a :func:`time.monotonic` instant) at the latest. ``values`` receives the
    search's estimate of each tried action (see :func:`~domino.ai.tree.tree_search`)."""
    choices = decisions(view)

    def weigh(hands: list[int]) -> float:
        return log_weight(choices, hands)

    return tree_search(
        view, rng, budget, samples, stats,
        weigh=weigh if choices else None, most=EXPERT_ITERATIONS, share=BUDGET_SHARE,
        endgame=ENDGAME_TILES, clock=clock, deadline=deadline, values=values,
    )


__all__ = [
    "ENDGAME_TILES",
    "EXPERT_BUDGET",
    "EXPERT_ITERATIONS",
    "FEATURES",
    "WEIGHTS",
    "choose_expert",
    "decisions",
    "log_weight",
    "model_features",
    "model_score",
    "plays_on",
]
