"""Duplicate-deal benchmark of the computer players, among themselves and against peers.

``python -m benchmarks.ai [--deals N] [--budget S] [--jobs J]``: our levels against each other.
``python -m benchmarks.ai --against dominoes|openspiel|hard [--level expert] --deals 400``:
one level against the ``dominoes`` package's probabilistic alpha-beta player (10 samples,
depth 4), OpenSpiel's ISMCTS (1,000 simulations per move) or another level of ours, on the
first hand of a partnership game where a domino or a block scores all pips left
(``partners`` with ``scoring=all``, the rules the ``dominoes`` package plays). The peers
need the bench extra: ``pip install -e ".[bench]"``. ``--level seer`` puts a yardstick that
sees every hand in our place (:func:`seer`): how much the hidden tiles are worth.

Every deal (a seed) is played twice, the second time with the sides swapped, so both
players hold the same tiles once. One hand per deal. Prints, per matchup: hands won by each
player (and ties), the first player's win rate over decided hands with a 95% (Wilson)
interval, his net points per deal (own side's points minus the other's, per hand) with a 95%
interval over deals, and the median and 95th percentile of each player's decision time over
decisions with more than one legal action, in CPU seconds of its process (the machine may be
shared: wall time counts other people's work too), and the wall-time 95th percentiles apart.
Our levels' budgets count the same CPU seconds (``--wall``: wall time, as the bot does).
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
from domino.actions import Action
from domino.ai import ALL_LEVELS, choose
from domino.ai.belief import Belief
from domino.ai.hard import search
from domino.ai.policy import play_out_seen
from domino.ai.sim import mask_of
from domino.rules import Ruleset

MATCHUPS: tuple[tuple[str, str, str], ...] = (
    ("partners", "hard", "heaviest"),
    ("partners", "normal", "easy"),
    ("partners", "hard", "normal"),
    ("draw", "hard", "heaviest"),
    ("draw", "normal", "easy"),
    ("draw", "hard", "normal"),
)


PEERS = ("dominoes", "openspiel")
SEER = "seer"
DUEL_RULES = "partners-all"
_peer_cache: dict[str, object] = {}
PEER_OPTIONS: dict[str, dict[str, int]] = {"dominoes": {}, "openspiel": {}}
CLOCK: dict[str, bool] = {"wall": False}  # budgets count wall time instead of CPU time


def ruleset_of(name: str) -> Ruleset:
    """A preset by id, or ``partners-all``: partners where a domino or block scores all pips."""
    if name == DUEL_RULES:
        return preset("partners", scoring="all")
    return preset(name)


def seer(match: Match, seat: int, rng: random.Random) -> Action:
    """A yardstick that sees every hand (benchmarks only): the move that is best on the
    true deal, by alpha-beta with every seat seeing it (4,000 positions, then played out)."""
    view = match.view(seat)
    if len(view.legal) == 1:
        return view.legal[0]
    belief = Belief.from_view(view).knowing([mask_of(hand) for hand in match.hands])
    return search(
        view, rng, 1.0, samples=1, endgame=len(view.ruleset.tiles), finish=play_out_seen,
        belief=belief,
    )


def act(
    level: str, match: Match, seat: int, rng: random.Random, budget: float | None
) -> Action:
    """The action of player ``level`` (one of ours, the seer, or a peer) for ``seat``."""
    if level == SEER:
        return seer(match, seat, rng)
    if level in PEERS:
        peer = _peer_cache.get(level)
        if peer is None:
            from benchmarks import peers

            options = PEER_OPTIONS[level]
            peer = (
                peers.dominoes_player(**options)
                if level == "dominoes"
                else peers.openspiel_player(**options)
            )
            _peer_cache[level] = peer
        return peer(match, seat, rng)  # type: ignore[operator]
    clock = time.perf_counter if CLOCK["wall"] else time.process_time
    return choose(match.view(seat), level, rng=rng, budget=budget, clock=clock)


@dataclass
class DealResult:
    """One deal played twice: the first player's net points and win/loss per play."""

    net: list[float] = field(default_factory=list)
    won: list[int] = field(default_factory=list)  # +1 first player won, -1 lost, 0 tie
    times: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds per decision
    walls: dict[str, list[float]] = field(default_factory=dict)  # wall seconds per decision


def play_deal(args: tuple[str, str, str, int, float | None]) -> DealResult:
    """Play hand 1 of deal ``seed`` twice, swapping which side each player holds."""
    ruleset_id, first, second, seed, budget = args
    rs = ruleset_of(ruleset_id)
    out = DealResult(times={first: [], second: []}, walls={first: [], second: []})
    for swap in (0, 1):
        side_a = swap  # side held by the first player
        match = Match.new(rs, seed)
        count = 0
        while match.hand_number == 1 and match.outcome is None:
            seat = match.turn
            assert seat is not None
            level = first if rs.side_of(seat) == side_a else second
            rng = random.Random(f"{seed}/{swap}/{count}")
            choices = len(match.legal_actions())
            t0 = time.perf_counter()
            c0 = time.process_time()
            action = act(level, match, seat, rng, budget)
            if choices > 1:
                out.times[level].append(time.process_time() - c0)
                out.walls[level].append(time.perf_counter() - t0)
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


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


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
    walls = {lvl: [t for d in deals for t in d.walls.get(lvl, [])] for lvl in (first, second)}
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
        "walls": walls,
    }


def ms(values: list[float], q: float) -> str:
    """A percentile in milliseconds, or '-' without data."""
    return f"{percentile(values, q) * 1000:6.2f}" if values else "     -"


def row(s: dict[str, object]) -> str:
    """One printed line of a matchup's summary."""
    first, second = str(s["a"]), str(s["b"])
    times: dict[str, list[float]] = s["times"]  # type: ignore[assignment]
    walls: dict[str, list[float]] = s["walls"]  # type: ignore[assignment]
    low, high = wilson(int(s["a_won"]), int(s["a_won"]) + int(s["b_won"]))  # type: ignore[call-overload]
    rate = f"{s['a_rate'] * 100:5.1f}% ({low * 100:4.1f}-{high * 100:4.1f})"  # type: ignore[operator]
    ci = f"{s['net']:+6.2f} ± {s['half']:5.2f}"
    return (
        f"{s['preset']:12} {first:8} {second:9} {s['hands']:5d} {s['a_won']:5d} "
        f"{s['b_won']:5d} {s['tied']:4d} {rate:>19} {ci:>16}  "
        f"{ms(times[first], 0.5)}/{ms(times[first], 0.95)}  "
        f"{ms(times[second], 0.5)}/{ms(times[second], 0.95)}  "
        f"{ms(walls[first], 0.95)}/{ms(walls[second], 0.95)}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__)
    parser.add_argument("--deals", type=int, default=30, help="deals per matchup (x2 hands)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument(
        "--only", default="", help="comma-separated matchups like partners:hard:heaviest"
    )
    parser.add_argument(
        "--against", default="", help="a duel on partners-all: dominoes, openspiel or a level"
    )
    parser.add_argument(
        "--level", default="expert", help=f"our level in an --against duel (or {SEER})"
    )
    parser.add_argument(
        "--every", type=int, default=0, help="print running figures every N deals"
    )
    parser.add_argument("--samples", type=int, default=10, help="the dominoes player's deals")
    parser.add_argument("--depth", type=int, default=4, help="the dominoes player's plies")
    parser.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations per move")
    parser.add_argument(
        "--wall", action="store_true", help="our budgets count wall time, not CPU time"
    )
    args = parser.parse_args(argv)
    CLOCK["wall"] = args.wall
    PEER_OPTIONS["dominoes"] = {"samples": args.samples, "depth": args.depth}
    PEER_OPTIONS["openspiel"] = {"sims": args.sims}
    matchups = MATCHUPS
    if args.against:
        if args.against not in (*PEERS, *ALL_LEVELS) or args.level not in (*ALL_LEVELS, SEER):
            parser.error(
                f"--against takes one of {', '.join((*PEERS, *ALL_LEVELS))};"
                f" --level one of {', '.join((*ALL_LEVELS, SEER))}"
            )
        matchups = ((DUEL_RULES, args.level, args.against),)
    elif args.only:
        matchups = tuple(tuple(m.split(":")) for m in args.only.split(","))  # type: ignore[misc]
    budget = args.budget
    header = (
        f"{'rules':12} {'A':8} {'B':9} {'hands':>5} {'A won':>5} {'B won':>5} {'tied':>4} "
        f"{'A win% (95% CI)':>19} {'A pts/deal (CI)':>16}  {'A ms med/p95':>15}"
        f"  {'B ms med/p95':>15}  {'wall p95 A/B':>15}"
    )
    shown = "each level's default" if budget is None else f"{budget}s"
    print(f"deals per matchup: {args.deals} (each played twice), budget per decision {shown}")
    if args.against == "dominoes":
        print(f"dominoes: probabilistic alpha-beta, {args.samples} deals, {args.depth} plies")
    elif args.against == "openspiel":
        print(f"openspiel: ISMCTS, {args.sims} simulations per move")
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for ruleset_id, first, second in matchups:
            tasks = [
                (ruleset_id, first, second, seed, budget)
                for seed in range(args.seed, args.seed + args.deals)
            ]
            results: list[DealResult] = []
            stream = pool.map(play_deal, tasks) if pool else map(play_deal, tasks)
            for result in stream:
                results.append(result)
                if args.every and len(results) % args.every == 0 and len(results) < len(tasks):
                    print(f"  after {len(results)} deals: " + row(
                        summarize(ruleset_id, first, second, results)
                    ), flush=True)
            print(row(summarize(ruleset_id, first, second, results)), flush=True)
    finally:
        if pool:
            pool.shutdown()
    print(
        "win% over decided hands (95% Wilson interval); pts/deal = A's side points minus B's"
        " per hand, 95% interval over deals; ms = CPU milliseconds per decision (wall p95"
        " apart) over decisions with more than one legal action; our budgets count"
        f" {'wall' if args.wall else 'CPU'} time; {time.perf_counter() - started:.0f}s in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
