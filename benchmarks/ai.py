"""Duplicate-deal benchmark of the computer players.

``python -m benchmarks.ai [--deals N] [--budget S] [--jobs J]``

Every deal (a seed) is played twice, the second time with the sides swapped, so both
players hold the same tiles once. One hand per deal. Prints, per matchup: hands won by each
player (and ties), the first player's win rate over decided hands, his net points per hand
(own side's points minus the other's) with a 95% interval over deals, and the median and
95th percentile of each player's decision time over decisions with more than one legal action.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from domino import Match, preset
from domino.ai import choose

MATCHUPS: tuple[tuple[str, str, str], ...] = (
    ("partners", "hard", "heaviest"),
    ("partners", "normal", "easy"),
    ("partners", "hard", "normal"),
    ("draw", "hard", "heaviest"),
    ("draw", "normal", "easy"),
    ("draw", "hard", "normal"),
)


@dataclass
class DealResult:
    """One deal played twice: the first player's net points and win/loss per play."""

    net: list[float] = field(default_factory=list)
    won: list[int] = field(default_factory=list)  # +1 first player won, -1 lost, 0 tie
    times: dict[str, list[float]] = field(default_factory=dict)


def play_deal(args: tuple[str, str, str, int, float]) -> DealResult:
    """Play hand 1 of deal ``seed`` twice, swapping which side each player holds."""
    ruleset_id, first, second, seed, budget = args
    rs = preset(ruleset_id)
    out = DealResult(times={first: [], second: []})
    for swap in (0, 1):
        side_a = swap  # side held by the first player
        match = Match.new(rs, seed)
        count = 0
        while match.hand_number == 1 and match.outcome is None:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            level = first if rs.side_of(seat) == side_a else second
            rng = random.Random(f"{seed}/{swap}/{count}")
            t0 = time.perf_counter()
            action = choose(view, level, rng=rng, budget=budget)
            elapsed = time.perf_counter() - t0
            if len(view.legal) > 1:
                out.times[level].append(elapsed)
            match = match.apply(action)
            count += 1
        result = match.hand_results[0]
        points = result.points
        mine = points[side_a]
        others = (sum(points) - mine) / (len(points) - 1)
        net = others - mine if rs.scoring == "penalty" else mine - others
        out.net.append(net)
        if result.winner_side is None:
            out.won.append(0)
        else:
            out.won.append(1 if result.winner_side == side_a else -1)
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1), nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def summarize(
    ruleset_id: str, first: str, second: str, deals: Iterable[DealResult]
) -> dict[str, object]:
    """Aggregate the deals of one matchup."""
    deals = list(deals)
    won = [w for d in deals for w in d.won]
    pair_means = [sum(d.net) / len(d.net) for d in deals]
    mean = statistics.fmean(pair_means)
    half = (
        1.96 * statistics.stdev(pair_means) / math.sqrt(len(pair_means))
        if len(pair_means) > 1
        else float("nan")
    )
    times = {lvl: [t for d in deals for t in d.times.get(lvl, [])] for lvl in (first, second)}
    wins, losses = won.count(1), won.count(-1)
    return {
        "preset": ruleset_id,
        "a": first,
        "b": second,
        "hands": len(won),
        "a_won": wins,
        "b_won": losses,
        "tied": won.count(0),
        "a_rate": wins / (wins + losses) if wins + losses else float("nan"),
        "net": mean,
        "half": half,
        "times": times,
    }


def ms(values: list[float], q: float) -> str:
    """A percentile in milliseconds, or '-' without data."""
    return f"{percentile(values, q) * 1000:6.2f}" if values else "     -"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__)
    parser.add_argument("--deals", type=int, default=30, help="deals per matchup (x2 hands)")
    parser.add_argument("--budget", type=float, default=0.3, help="hard's seconds per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument(
        "--only", default="", help="comma-separated matchups like partners:hard:heaviest"
    )
    args = parser.parse_args(argv)
    matchups = MATCHUPS
    if args.only:
        matchups = tuple(tuple(m.split(":")) for m in args.only.split(","))  # type: ignore[misc]
    header = (
        f"{'preset':9} {'A':8} {'B':8} {'hands':>5} {'A won':>5} {'B won':>5} {'tied':>4} "
        f"{'A win%':>6} {'A net pts/hand (95% CI)':>24}  {'A ms med/p95':>13}  {'B ms med/p95':>13}"
    )
    print(f"deals per matchup: {args.deals} (each played twice), hard budget {args.budget}s")
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for ruleset_id, first, second in matchups:
            tasks = [
                (ruleset_id, first, second, seed, args.budget)
                for seed in range(args.seed, args.seed + args.deals)
            ]
            results = list(pool.map(play_deal, tasks)) if pool else [play_deal(t) for t in tasks]
            s = summarize(ruleset_id, first, second, results)
            times: dict[str, list[float]] = s["times"]  # type: ignore[assignment]
            ci = f"{s['net']:+6.2f} ± {s['half']:5.2f}"
            print(
                f"{ruleset_id:9} {first:8} {second:8} {s['hands']:5d} {s['a_won']:5d} "
                f"{s['b_won']:5d} {s['tied']:4d} {s['a_rate'] * 100:5.1f}% {ci:>24}  "
                f"{ms(times[first], 0.5)}/{ms(times[first], 0.95)}  "
                f"{ms(times[second], 0.5)}/{ms(times[second], 0.95)}",
                flush=True,
            )
    finally:
        if pool:
            pool.shutdown()
    print(
        "win% over decided hands; net = A's side points minus B's per hand, 95% interval over"
        " deals; times over decisions with more than one legal action;"
        f" {time.perf_counter() - started:.0f}s in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
