"""The ``hard`` player: Monte Carlo over deals of the hidden tiles consistent with the view.

Each round samples one deal (:meth:`Belief.sample`), then plays every candidate move in it and
finishes the hand with the fast heuristic for all seats. The candidate with the best average
outcome over all rounds wins. Rounds stop when the time budget is near.
"""

from __future__ import annotations

import random
from time import perf_counter

from domino.actions import Action
from domino.ai.belief import Belief
from domino.ai.policy import play_out
from domino.ai.sim import Sim, SimResult, mask_of, sim_rules, to_move
from domino.tiles import Tile
from domino.views import View

# Share of the budget spent simulating (the rest is margin for the slowest round and for
# the caller), and the fixed margin in seconds.
BUDGET_SHARE = 0.8
BUDGET_MARGIN = 0.004
WIN_BONUS = 0.0  # extra value of winning the hand, in points
MIN_ROUNDS = 64  # deals simulated before the first check whether one move is clearly best
SETTLED_Z = 3.5


def outcome_value(result: SimResult, side: int, penalty: bool) -> float:
    """The hand's value for ``side``: own points minus the others' average (penalty: the
    others' average penalty minus one's own)."""
    points = result.points
    others = (sum(points) - points[side]) / (len(points) - 1)
    value = others - points[side] if penalty else points[side] - others
    if WIN_BONUS and result.winner_side is not None:
        value += WIN_BONUS if result.winner_side == side else -WIN_BONUS
    return value


def root_sim(view: View, belief: Belief, hands: list[int], pile: list[int]) -> Sim:
    """The simulator position of ``view`` with the hidden tiles dealt as given."""
    me = view.seat
    assert me is not None
    rules = sim_rules(view.ruleset)
    hands = hands[:]
    hands[me] = belief.own
    last = -1
    for e in view.events:
        if e.kind == "play" and e.seat is not None:
            last = e.seat
    forced = -1
    if view.ends is None and len(view.legal) == 1:
        forced = to_move(view.legal[0]) >> 2
    lacks = [0] * rules.seats
    for s in range(rules.seats):
        if s != me:
            lacks[s] = belief.lacks(s)
    return Sim(
        rules,
        hands,
        pile,
        view.ends,
        mask_of(Tile(a, b) for a, b in view.line),
        me,
        view.drawn_this_turn,
        last,
        forced,
        lacks,
    )


def evaluate(sim: Sim, side: int, penalty: bool) -> float:
    """Finish the hand with the fast heuristic for every seat and value it for ``side``."""
    play_out(sim)
    assert sim.result is not None
    return outcome_value(sim.result, side, penalty)


def choose_hard(
    view: View,
    rng: random.Random,
    budget: float = 0.3,
    samples: int | None = None,
    stats: dict[str, float] | None = None,
) -> Action:
    """Pick the legal action with the best average simulated outcome.

    Simulates until ``budget`` seconds (measured from the call) are nearly spent or one
    move is clearly best (see :func:`settled`), or exactly ``samples`` deals when given
    (then the choice depends on ``view`` and ``rng`` only). ``stats``, when given, receives
    the number of deals simulated.
    """
    start = perf_counter()
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    me = view.seat
    assert me is not None
    belief = Belief.from_view(view)
    rules = sim_rules(view.ruleset)
    side = rules.side_of[me]
    penalty = rules.penalty
    moves = [to_move(a) for a in legal]
    values: list[list[float]] = [[] for _ in moves]
    deadline = start + budget * BUDGET_SHARE - BUDGET_MARGIN
    template: Sim | None = None
    rounds = 0
    check = MIN_ROUNDS
    while True:
        if samples is None:
            if rounds and perf_counter() >= deadline:
                break
            if rounds >= check:
                if settled(values):
                    break
                check *= 2
        elif rounds >= samples:
            break
        hands, pile = belief.sample(rng)
        hands[me] = belief.own
        if template is None:
            template = root = root_sim(view, belief, hands, pile)
        else:
            root = template.copy()
            root.hands = hands
            root.pile = pile
        for k, move in enumerate(moves):
            sim = root.copy()
            sim.apply(move)
            values[k].append(evaluate(sim, side, penalty))
        rounds += 1
    if stats is not None:
        stats["rounds"] = rounds
    best = max(range(len(moves)), key=lambda k: sum(values[k]))
    return legal[best]


def settled(values: list[list[float]]) -> bool:
    """Whether the best move so far beats every other one beyond doubt: the mean paired
    difference over the same deals is more than :data:`SETTLED_Z` standard errors above 0
    (or the two moves gave the same result in every deal)."""
    n = len(values[0])
    best = max(range(len(values)), key=lambda k: sum(values[k]))
    top = values[best]
    for k, other in enumerate(values):
        if k == best:
            continue
        diffs = [a - b for a, b in zip(top, other, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if var == 0.0:
            if mean < 0:
                return False
            continue
        if mean <= 0 or mean * mean * n < SETTLED_Z * SETTLED_Z * var:
            return False
    return True
