"""Information-set tree search, the search ``expert`` plays by.

One tree is grown over the public course of the hand from the decision on: a node is the
sequence of moves since, which every seat sees alike, so no seat's choice in the tree can
depend on tiles it cannot see. Each iteration:

1. draws one deal of the hidden tiles from a pool of consistent deals, each drawn as often as
   its weight says (what makes every consistent deal count the same, times the play model's
   likelihood of the other seats' earlier plays; see :mod:`domino.ai.expert`);
2. walks down the tree among the moves legal in that deal, each seat picking by UCB on its
   own side's results (counting a move's chances only in the deals where it was legal);
3. adds one node (the move the deal-reading heuristic likes best when untried, else an untried
   one at random) and finishes the hand with deal-reading play-outs
   (:func:`~domino.ai.policy.play_out_seen`);
4. credits the hand's outcome to every node on the way, for the side that moved into it.

The move tried most often at the root is played. Late in a hand, when asked, the tree gives
way to solving each pooled deal exactly (:func:`endgame_search`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from time import perf_counter

from domino.actions import Action
from domino.ai.belief import Belief
from domino.ai.hard import in_endgame, outcome_value, root_sim, solve_moves, stop_time
from domino.ai.policy import play_out_seen, seen_move
from domino.ai.sim import Sim, sim_rules, to_move
from domino.views import View

EXPLORATION = 0.7  # UCB constant, on outcomes divided by VALUE_SCALE
VALUE_SCALE = 60.0  # points: a typical hand's swing
POOL = 400  # consistent deals drawn from


class _Node:
    """A public sequence of moves: its visits, its side's total outcome and its chances."""

    __slots__ = ("chances", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.chances = 0  # iterations in which this move was legal at its parent


def tree_search(
    view: View,
    rng: random.Random,
    budget: float,
    iterations: int | None = None,
    stats: dict[str, float] | None = None,
    *,
    weigh: Callable[[list[int]], float] | None = None,
    most: int | None = None,
    share: float = 0.85,
    endgame: int = 0,
    clock: Callable[[], float] = perf_counter,
    deadline: float | None = None,
    values: dict[Action, float] | None = None,
) -> Action:
    """The legal action the tree search tries most.

    Runs until ``share`` of ``budget`` seconds of ``clock`` is spent or ``most`` iterations
    are done, or exactly ``iterations`` when given (the choice then depends on ``view`` and
    ``rng`` only). ``weigh`` gives a deal's log-weight from the other seats' hands.
    ``stats``, when given, receives the iterations run as ``rounds``. Once the hands hold
    ``endgame`` tiles or fewer and nothing can be drawn, it solves each pooled deal instead
    (:func:`endgame_search`). ``deadline`` (a :func:`time.monotonic` instant) stops it
    earlier, drawing of deals included: it returns the best move found by then (an anytime
    search). ``values``, when given, receives each tried legal action's mean outcome for the
    seat's side, in points (own side's points minus the others').
    """
    start = clock()
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    me = view.seat
    assert me is not None
    belief = Belief.from_view(view)
    rules = sim_rules(view.ruleset)
    side_of = rules.side_of
    penalty = rules.penalty
    sides = len(rules.seats_of_side)
    limit = iterations if iterations is not None else most
    pool: list[Sim] = []
    cumulative: list[float] = []
    log_weights: list[float] = []
    stop = None if iterations is not None else stop_time(clock, start, budget * share, deadline)
    for _ in range(min(POOL, limit) if limit is not None else POOL):
        if stop is not None and pool and clock() >= stop:
            break
        hands, pile, deal_weight = belief.sample_weighted(rng)
        hands[me] = belief.own
        if pool:
            sim = pool[0].copy()
            sim.hands = hands
            sim.pile = pile
        else:
            sim = root_sim(view, belief, hands, pile)
        pool.append(sim)
        log_weights.append(deal_weight + (weigh(hands) if weigh is not None else 0.0))
    top = max(log_weights)
    if endgame and in_endgame(pool[0], endgame):
        weights = [math.exp(x - top) for x in log_weights]
        return endgame_search(view, pool, weights, stop, stats, clock, values)
    total = 0.0
    for x in log_weights:
        total += math.exp(x - top)
        cumulative.append(total)
    root = _Node()
    done = 0
    while limit is None or done < limit:
        if stop is not None and done and clock() >= stop:
            break
        sim = rng.choices(pool, cum_weights=cumulative)[0].copy()
        path = _descend(root, sim, rng, side_of)
        if sim.turn >= 0:
            play_out_seen(sim)
        result = sim.result
        assert result is not None
        scores = [outcome_value(result, s, penalty) / VALUE_SCALE for s in range(sides)]
        for node, side in path:
            node.visits += 1
            node.total += scores[side]
        done += 1
    if stats is not None:
        stats["rounds"] = done
    if values is not None:
        for action in legal:
            child = root.children.get(to_move(action))
            if child is not None and child.visits:
                values[action] = child.total / child.visits * VALUE_SCALE
    visits = [root.children[m].visits if m in root.children else -1 for m in map(to_move, legal)]
    return legal[max(range(len(legal)), key=visits.__getitem__)]


def endgame_search(
    view: View,
    pool: list[Sim],
    weights: list[float],
    deadline: float | None,
    stats: dict[str, float] | None,
    clock: Callable[[], float],
    values: dict[Action, float] | None = None,
) -> Action:
    """The legal action with the best weighted mean over ``pool``'s deals, each solved by
    alpha-beta with every seat seeing the deal (:func:`~domino.ai.hard.solve_moves`), until
    ``deadline`` on ``clock`` when given; ``values`` receives each action's weighted mean."""
    legal = view.legal
    moves = [to_move(a) for a in legal]
    me = view.seat
    assert me is not None
    rules = pool[0].rules
    side = rules.side_of[me]
    sums = [0.0] * len(moves)
    done = 0
    weighed = 0.0
    for sim, weight in zip(pool, weights, strict=True):
        if deadline is not None and done and clock() >= deadline:
            break
        for k, value in enumerate(solve_moves(sim, moves, side, rules.penalty)):
            sums[k] += weight * value
        weighed += weight
        done += 1
    if stats is not None:
        stats["rounds"] = done
    if values is not None and weighed > 0:
        for action, total in zip(legal, sums, strict=True):
            values[action] = total / weighed
    return legal[max(range(len(moves)), key=sums.__getitem__)]


def _descend(
    node: _Node, sim: Sim, rng: random.Random, side_of: tuple[int, ...] | list[int]
) -> list[tuple[_Node, int]]:
    """Walk ``sim`` down the tree by UCB, add one node, and return the path with the side
    that moved into each node."""
    path: list[tuple[_Node, int]] = []
    while sim.turn >= 0:
        moves = sim.legal()
        side = side_of[sim.turn]
        untried = [m for m in moves if m not in node.children]
        for m in moves:
            child = node.children.get(m)
            if child is not None:
                child.chances += 1
        if untried:
            if len(untried) == 1:
                move = untried[0]
            else:
                liked = seen_move(sim)
                move = liked if liked in untried else rng.choice(untried)
            child = node.children[move] = _Node()
            sim.apply(move)
            path.append((child, side))
            return path
        best = moves[0]
        if len(moves) > 1:
            score = -1e18
            for m in moves:
                child = node.children[m]
                value = child.total / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.chances) / child.visits
                )
                if value > score:
                    score = value
                    best = m
        sim.apply(best)
        node = node.children[best]
        path.append((node, side))
    return path


__all__ = ["EXPLORATION", "POOL", "VALUE_SCALE", "endgame_search", "tree_search"]
