"""Fit ``expert``'s play model to recorded plays, and score it against the old heuristic.

``python -m benchmarks.playmodel [--deals 100] [--seed 5000] [--jobs 2]``: records the first
hand of ``--deals`` duplicate deals of ``expert`` (1,000 iterations per decision) against each
of OpenSpiel's ISMCTS, ``hard`` and the ``dominoes`` package's player (the duel rules of
``python -m benchmarks.ai``; needs the bench extra), and collects every play onto the line
that had an alternative, with the hand it came from. It fits the weights of
:func:`domino.ai.expert.model_features` by maximum likelihood (a softmax over each play's
options, L2 penalty 0.01, Newton's method) and prints, per player whose plays are predicted,
the mean negative log-likelihood of the actual choice on held-out deals (fitted on even
seeds, scored on odd ones) for: every option alike; the rule-of-thumb heuristic with
temperature 8 (:func:`domino.ai.policy.play_score`, the play model before); the model fitted
here; and the weights in the code now. Last, the weights fitted on every play, to put in
:data:`domino.ai.expert.WEIGHTS`.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from benchmarks import ai as duel
from domino import Match
from domino.ai import choose
from domino.ai.expert import FEATURES, WEIGHTS, decisions, model_features, plays_on
from domino.ai.policy import play_score
from domino.ai.sim import mask_of

PEERS = ("openspiel", "hard", "dominoes")
ITERATIONS = 1000  # per expert decision while recording
L2 = 0.01
OLD_TEMPERATURE = 8.0


class Choice:
    """One recorded play that had alternatives: who made it and how the model sees it."""

    __slots__ = ("chosen", "old", "player", "rows", "seed")

    def __init__(
        self, player: str, seed: int, rows: list[tuple[float, ...]], old: list[float],
        chosen: int,
    ) -> None:
        self.player = player
        self.seed = seed
        self.rows = rows  # features of each option
        self.old = old  # the heuristic's score of each option
        self.chosen = chosen


def record(task: tuple[str, int]) -> list[Choice]:
    """Play deal ``seed`` twice (sides swapped) of ``expert`` against ``peer``; every play
    with alternatives, of either side, read as ``expert``'s play model reads it
    (:func:`~domino.ai.expert.decisions`) but from the hand it really came from."""
    peer, seed = task
    rs = duel.ruleset_of(duel.DUEL_RULES)
    out: list[Choice] = []
    for swap in (0, 1):
        match = Match.new(rs, seed)
        count = 0
        last = match
        while match.hand_number == 1 and match.outcome is None:
            seat = match.turn
            assert seat is not None
            rng = random.Random(f"{seed}/{swap}/{count}")
            if rs.side_of(seat) == swap:
                action = choose(match.view(seat), "expert", rng=rng, samples=ITERATIONS)
            else:
                action = duel.act(peer, match, seat, rng, None)
            last = match
            match = match.apply(action)
            count += 1
        # the plays before the hand's last one: seat 0 reads the others', seat 1 reads seat 0's
        held = [mask_of(hand) for hand in last.hands]
        for viewer in (0, 1):
            for d in decisions(last.view(viewer)):
                if d.ends is None or (viewer == 1 and d.seat != 0):
                    continue
                left, right = d.ends
                hand = held[d.seat] | d.later
                options = plays_on(hand, left, right)
                if len(options) < 2:
                    continue
                args = (hand, left, right, d.lack_next, d.lack_partner)
                out.append(Choice(
                    "expert" if rs.side_of(d.seat) == swap else peer, seed,
                    [model_features(m, *args, d.fresh) for m in options],
                    [play_score(m, *args) for m in options],
                    options.index(d.chosen),
                ))
    return out


def nll(weights: list[float], data: list[Choice]) -> float:
    """Mean negative log-likelihood of the choices under ``weights``."""
    total = 0.0
    for c in data:
        scores = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in c.rows]
        top = max(scores)
        total += top + math.log(sum(math.exp(s - top) for s in scores)) - scores[c.chosen]
    return total / max(1, len(data))


def fit(data: list[Choice], steps: int = 25) -> list[float]:
    """The weights that maximise the choices' likelihood with an L2 penalty (Newton's
    method on the convex objective)."""
    k = len(FEATURES)
    w = [0.0] * k
    n = max(1, len(data))
    for _ in range(steps):
        grad = [2 * L2 * x * n for x in w]
        hess = [[2 * L2 * n if i == j else 0.0 for j in range(k)] for i in range(k)]
        for c in data:
            scores = [sum(a * f for a, f in zip(w, row, strict=True)) for row in c.rows]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            z = sum(exps)
            probs = [e / z for e in exps]
            mean = [sum(p * row[i] for p, row in zip(probs, c.rows, strict=True)) for i in range(k)]
            chosen = c.rows[c.chosen]
            for i in range(k):
                grad[i] += mean[i] - chosen[i]
            for p, row in zip(probs, c.rows, strict=True):
                d = [row[i] - mean[i] for i in range(k)]
                for i in range(k):
                    if d[i]:
                        pi = p * d[i]
                        hi = hess[i]
                        for j in range(k):
                            hi[j] += pi * d[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-6:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    k = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, k):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, k + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * k
    for r in range(k - 1, -1, -1):
        x[r] = (m[r][k] - sum(m[r][c] * x[c] for c in range(r + 1, k))) / m[r][r]
    return x


def old_nll(data: list[Choice]) -> float:
    """Mean negative log-likelihood under the heuristic's softmax at temperature 8."""
    total = 0.0
    for c in data:
        scores = [s / OLD_TEMPERATURE for s in c.old]
        top = max(scores)
        total += top + math.log(sum(math.exp(s - top) for s in scores)) - scores[c.chosen]
    return total / max(1, len(data))


def main(argv: list[str] | None = None) -> int:
    """Record, fit and print the comparison and the weights."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.playmodel", description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="deals per peer (x2 hands)")
    parser.add_argument("--seed", type=int, default=5000, help="first deal seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    tasks = [(peer, args.seed + k) for peer in PEERS for k in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        data = [c for chunk in pool.map(record, tasks) for c in chunk]
    train = [c for c in data if c.seed % 2 == 0]
    test = [c for c in data if c.seed % 2 == 1]
    fitted = fit(train)
    print(f"plays with alternatives: {len(data)} ({len(train)} fitted, {len(test)} held out)")
    print(f"{'player':10} {'plays':>6} {'alike':>7} {'heuristic':>9} {'fitted':>7}"
          f" {'current':>7}   (mean -log P(actual choice), held-out deals)")
    for player in ("expert", *PEERS, "all"):
        part = [c for c in test if player in ("all", c.player)]
        alike = sum(math.log(len(c.rows)) for c in part) / max(1, len(part))
        print(
            f"{player:10} {len(part):6d} {alike:7.4f} {old_nll(part):9.4f}"
            f" {nll(fitted, part):7.4f} {nll(list(WEIGHTS), part):7.4f}"
        )
    weights = fit(data)
    print("weights fitted on every play (FEATURES order):")
    print("(" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
