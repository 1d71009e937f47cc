"""The ``hard`` player: Monte Carlo over deals of the hidden tiles consistent with the view.

Each round samples one deal (:meth:`Belief.sample_weighted`), then plays every candidate move
in it and finishes the hand with the fast heuristic for all seats (or, near the end when asked,
searches it by alpha-beta: the benchmarks' seer does). The candidate with the best average
outcome over all rounds wins. Rounds stop when the time budget is near or one move is clearly
best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from time import monotonic, perf_counter

from domino.actions import Action
from domino.ai.belief import Belief
from domino.ai.policy import play_out
from domino.ai.sim import (
    DOUBLES,
    NUM,
    OTHER,
    PIPS,
    Sim,
    SimResult,
    bits,
    mask_of,
    pips_of,
    sim_rules,
    to_move,
)
from domino.scoring import score_hand
from domino.tiles import Tile
from domino.views import View

# Share of the budget spent simulating (the rest is margin for the slowest round and for
# the caller), and the fixed margin in seconds.
BUDGET_SHARE = 0.8
BUDGET_MARGIN = 0.004
MIN_ROUNDS = 64  # deals simulated before the first check whether one move is clearly best
SETTLED_Z = 3.5
NODE_LIMIT = 4000  # exact-search nodes per deal before the rest is played out


def stop_time(
    clock: Callable[[], float], start: float, seconds: float, deadline: float | None
) -> float:
    """When a search begun at ``start`` on ``clock`` stops: after ``seconds``, or earlier at
    ``deadline`` (an instant of :func:`time.monotonic`, which every process shares)."""
    end = start + seconds
    if deadline is not None:
        end = min(end, clock() + deadline - monotonic())
    return end


def outcome_value(result: SimResult, side: int, penalty: bool, bonus: float = 0.0) -> float:
    """The hand's value for ``side``: own points minus the others' average (penalty: the
    others' average penalty minus one's own)."""
    points = result.points
    others = (sum(points) - points[side]) / (len(points) - 1)
    value = others - points[side] if penalty else points[side] - others
    if bonus and result.winner_side is not None:
        value += bonus if result.winner_side == side else -bonus
    return value


def in_endgame(sim: Sim, tiles: int) -> bool:
    """Whether nothing can be drawn and the hands hold ``tiles`` tiles or fewer in all."""
    rules = sim.rules
    drawing = rules.draw and len(sim.pile) > rules.floor
    return not drawing and sum(h.bit_count() for h in sim.hands) <= tiles


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


def evaluate(
    sim: Sim,
    side: int,
    penalty: bool,
    finish: Callable[[Sim], None] = play_out,
    bonus: float = 0.0,
) -> float:
    """Finish the hand with ``finish`` (the fast heuristic for every seat) and value it for
    ``side`` (:func:`outcome_value`)."""
    finish(sim)
    assert sim.result is not None
    return outcome_value(sim.result, side, penalty, bonus)


def search(
    view: View,
    rng: random.Random,
    budget: float,
    samples: int | None = None,
    stats: dict[str, float] | None = None,
    *,
    share: float = BUDGET_SHARE,
    endgame: int = 0,
    finish: Callable[[Sim], None] = play_out,
    clock: Callable[[], float] = perf_counter,
    bonus: float = 0.0,
    belief: Belief | None = None,
    deadline: float | None = None,
) -> Action:
    """The legal action with the best (weighted) average outcome over consistent deals.

    Simulates until ``share`` of ``budget`` seconds (measured from the call) is nearly spent
    or one move is clearly best (see :func:`settled`), or exactly ``samples`` deals when
    given (then the choice depends on ``view`` and ``rng`` only). Each deal weighs what makes
    every consistent deal count the same (:meth:`Belief.sample_weighted`). Once the hands
    hold ``endgame`` tiles or fewer and nothing can be drawn, each deal is solved exactly
    (:func:`solve`) instead of played out by ``finish``. ``stats``, when given, receives the
    number of deals simulated. ``clock`` reads the seconds the budget counts (wall time by
    default; the benchmarks pass the process's CPU time). ``bonus`` is added
    to the value of a won hand and taken from a lost one (:func:`outcome_value`). ``belief``
    replaces what the view tells of the hidden tiles (default: :meth:`Belief.from_view`).
    ``deadline`` (a :func:`time.monotonic` instant) ends the search earlier than the budget
    would: the best move found by then is returned.
    """
    start = clock()
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    me = view.seat
    assert me is not None
    if belief is None:
        belief = Belief.from_view(view)
    rules = sim_rules(view.ruleset)
    side = rules.side_of[me]
    penalty = rules.penalty
    moves = [to_move(a) for a in legal]
    values: list[list[float]] = [[] for _ in moves]
    log_weights: list[float] = []
    until = stop_time(clock, start, budget * share - BUDGET_MARGIN, deadline)
    template: Sim | None = None
    exact = False
    rounds = 0
    check = MIN_ROUNDS
    while True:
        if samples is None:
            if rounds and clock() >= until:
                break
            if rounds >= check:
                if settled(values, log_weights):
                    break
                check *= 2
        elif rounds >= samples:
            break
        hands, pile, deal_weight = belief.sample_weighted(rng)
        hands[me] = belief.own
        if template is None:
            template = root = root_sim(view, belief, hands, pile)
            exact = in_endgame(root, endgame)
        else:
            root = template.copy()
            root.hands = hands
            root.pile = pile
        log_weights.append(deal_weight)
        if exact:
            for k, value in enumerate(solve_moves(root, moves, side, penalty, bonus)):
                values[k].append(value)
        else:
            for k, move in enumerate(moves):
                sim = root.copy()
                sim.apply(move)
                values[k].append(evaluate(sim, side, penalty, finish, bonus))
        rounds += 1
    if stats is not None:
        stats["rounds"] = rounds
    means = weighted_means(values, normalised(log_weights))
    return legal[max(range(len(moves)), key=lambda k: means[k])]


def choose_hard(
    view: View,
    rng: random.Random,
    budget: float = 0.3,
    samples: int | None = None,
    stats: dict[str, float] | None = None,
    clock: Callable[[], float] = perf_counter,
    deadline: float | None = None,
) -> Action:
    """Pick the legal action with the best average simulated outcome (:func:`search` with
    every consistent deal counting the same and heuristic play-outs to the end), by
    ``deadline`` when given."""
    return search(view, rng, budget, samples, stats, clock=clock, deadline=deadline)


def solve(
    sim: Sim,
    side: int,
    penalty: bool,
    alpha: float,
    beta: float,
    budget: list[int],
    bonus: float = 0.0,
) -> float:
    """The exact value of ``sim`` for ``side`` when every seat plays its best (alpha-beta on
    a position where nothing can be drawn; with more than two sides the others play against
    ``side``). ``budget[0]`` counts nodes left; once spent, the remaining lines are finished
    with the heuristic play-out. Values as :func:`outcome_value` with ``bonus``."""
    rules = sim.rules
    if (
        sim.turn >= 0
        and sim.left >= 0
        and not rules.close_gives_pile
        and not rules.stuck_ends_hand
        and not (rules.draw and len(sim.pile) > rules.floor)
    ):
        return _Solver(sim, side, penalty, budget, bonus).run(
            sim.hands[:], sim.left, sim.right, sim.turn, sim.last, alpha, beta
        )
    return _solve_sim(sim, side, penalty, alpha, beta, budget, bonus)


def solve_moves(
    sim: Sim, moves: list[int], side: int, penalty: bool, bonus: float = 0.0
) -> list[float]:
    """The exact value for ``side`` of each of ``moves`` made in ``sim`` (:func:`solve`,
    each with its own node budget of :data:`NODE_LIMIT`)."""
    out = []
    for move in moves:
        child = sim.copy()
        child.apply(move)
        out.append(solve(child, side, penalty, -1e18, 1e18, [NODE_LIMIT], bonus))
    return out


def _solve_sim(
    sim: Sim,
    side: int,
    penalty: bool,
    alpha: float,
    beta: float,
    budget: list[int],
    bonus: float = 0.0,
) -> float:
    """:func:`solve` on simulator copies (any rules)."""
    if sim.turn < 0:
        assert sim.result is not None
        return outcome_value(sim.result, side, penalty, bonus)
    budget[0] -= 1
    if budget[0] <= 0:
        return evaluate(sim, side, penalty, bonus=bonus)
    moves = sim.legal()
    maximize = sim.rules.side_of[sim.turn] == side
    if len(moves) > 1:
        moves.sort(key=_order)
    best = -1e18 if maximize else 1e18
    for m in moves:
        child = sim.copy()
        child.apply(m)
        v = _solve_sim(child, side, penalty, alpha, beta, budget, bonus)
        if maximize:
            if v > best:
                best = v
                alpha = max(alpha, v)
        elif v < best:
            best = v
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def _order(move: int) -> int:
    """Sort key of moves in the exact search: doubles first, then heavier tiles."""
    return -PIPS[move >> 2] - (20 if (1 << (move >> 2)) & DOUBLES else 0)


class _Solver:
    """Alpha-beta on bare hand masks for a hand with two ends where nothing can be drawn and
    a block is only the end of all plays (no ``two`` closing, no penalty stuck end): the
    same values as :func:`_solve_sim`, without copying the simulator at each node."""

    __slots__ = ("bonus", "budget", "penalty", "root", "rules", "side")

    def __init__(
        self, root: Sim, side: int, penalty: bool, budget: list[int], bonus: float
    ) -> None:
        self.bonus = bonus
        self.root = root
        self.rules = root.rules
        self.side = side
        self.penalty = penalty
        self.budget = budget

    def run(
        self, hands: list[int], left: int, right: int, turn: int, last: int,
        alpha: float, beta: float,
    ) -> float:
        """The value with ``turn`` to act on ends ``left``/``right`` (not blocked)."""
        rules = self.rules
        seats = rules.seats
        ends = NUM[left] | NUM[right]
        while not hands[turn] & ends:  # a pass: no choice
            turn = (turn + 1) % seats
        budget = self.budget
        budget[0] -= 1
        if budget[0] <= 0:
            sim = self.root.copy()
            sim.hands = hands[:]
            sim.left, sim.right, sim.turn, sim.last = left, right, turn, last
            sim.drawn = 0
            sim.forced = -1
            return evaluate(sim, self.side, self.penalty, bonus=self.bonus)
        hand = hands[turn]
        moves: list[tuple[int, int, int]] = []  # (tile, new left, new right)
        if left == right:
            for i in bits(hand & ends):
                moves.append((i, left, OTHER[i * 10 + right]))
        else:
            nl = NUM[left]
            nr = NUM[right]
            for i in bits(hand & ends):
                bit = 1 << i
                if bit & nl:
                    moves.append((i, OTHER[i * 10 + left], right))
                if bit & nr:
                    moves.append((i, left, OTHER[i * 10 + right]))
        if len(moves) > 1:
            moves.sort(key=lambda m: _order(m[0] * 4))
        maximize = rules.side_of[turn] == self.side
        best = -1e18 if maximize else 1e18
        nxt = (turn + 1) % seats
        for i, new_left, new_right in moves:
            rest = hand ^ (1 << i)
            hands[turn] = rest
            if not rest:
                v = self.value(hands, "domino", turn, turn)
            else:
                open_ends = NUM[new_left] | NUM[new_right]
                if any(h & open_ends for h in hands):
                    v = self.run(hands, new_left, new_right, nxt, turn, alpha, beta)
                else:
                    v = self.value(hands, "block", -1, turn)
            hands[turn] = hand
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    def value(self, hands: list[int], kind: str, domino_seat: int, blocker: int) -> float:
        """The finished hand's value for the searching side."""
        r = self.rules
        pips = tuple(pips_of(h) for h in hands)
        winner_seat, winner_side, points = score_hand(
            r.ruleset, kind, pips, domino_seat if domino_seat >= 0 else None,
            blocker if blocker >= 0 else None, r.side_of, r.seats_of_side,
        )
        return outcome_value(
            SimResult(kind, winner_seat, winner_side, points, pips),
            self.side,
            self.penalty,
            self.bonus,
        )


def normalised(log_weights: list[float]) -> list[float]:
    """Weights from log-weights, scaled so the largest is 1."""
    if not log_weights:
        return []
    top = max(log_weights)
    return [math.exp(x - top) for x in log_weights]


def weighted_means(values: list[list[float]], weights: list[float]) -> list[float]:
    """Each move's weighted mean value."""
    total = sum(weights) or 1.0
    return [sum(a * b for a, b in zip(weights, v, strict=True)) / total for v in values]


def settled(values: list[list[float]], log_weights: list[float]) -> bool:
    """Whether the best move so far beats every other one beyond doubt: the weighted mean
    paired difference over the same deals is more than :data:`SETTLED_Z` standard errors
    above 0 (effective sample size from the weights), or the two moves gave the same result
    in every deal."""
    w = normalised(log_weights)
    total = sum(w)
    n_eff = total * total / sum(x * x for x in w)
    if n_eff < 8:
        return False
    means = weighted_means(values, w)
    best = max(range(len(values)), key=lambda k: means[k])
    top = values[best]
    for k, other in enumerate(values):
        if k == best:
            continue
        mean = means[best] - means[k]
        var = sum(
            x * (a - b - mean) ** 2 for x, a, b in zip(w, top, other, strict=True)
        ) / total
        if var == 0.0:
            if mean < 0:
                return False
            continue
        if mean <= 0 or mean * mean * n_eff < SETTLED_Z * SETTLED_Z * var:
            return False
    return True
