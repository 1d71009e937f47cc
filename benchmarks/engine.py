"""Engine speed: complete random hands per second for every preset.

Run: ``python -m benchmarks.engine [--seconds S]``. When the ``dominoes`` package (6.1.0,
not a project dependency) is installed, its 4-player random game is timed in the same run
and the ratio printed: its plain loop (``Game.new()``, then ``make_move(*valid_moves[
randrange(len(valid_moves))])``) against ours (``Match.new``, then ``apply(actions[
randrange(len(actions))])`` of ``legal_actions()``), each choosing with the same kind of
random call, alternating rounds so a busy machine slows both alike. When the computer
players' simulator (``domino.ai.sim``) exists, its
random hands per second are printed too: that is the speed the computer players search with.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import time
from collections.abc import Callable

from domino import PRESETS, STAGED, Match, preset


def rate(one_hand: Callable[[int], None], seconds: float) -> float:
    """Hands per second of ``one_hand(seed)`` over about ``seconds``."""
    one_hand(0)  # warm up
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            one_hand(count)
            count += 1
    return count / (time.perf_counter() - start)


def match_hand(pid: str) -> Callable[[int], None]:
    """One complete random hand through the public Match API."""
    rs = preset(pid)
    rng = random.Random(1)

    def run(seed: int) -> None:
        m = Match.new(rs, seed)
        while m.hand_number == 1 and m.turn is not None:
            actions = m.legal_actions()
            m = m.apply(actions[rng.randrange(len(actions))])

    return run


def sim_hand(pid: str) -> Callable[[int], None] | None:
    """One complete random hand, dealt by the engine, played by the computer players' simulator."""
    try:
        sim = importlib.import_module("domino.ai.sim")
    except ImportError:
        return None
    rs = preset(pid)
    if rs.spinner:
        return None  # the simulator has no spinner
    rng = random.Random(1)

    def run(seed: int) -> None:
        hand = sim.Sim.from_match(Match.new(rs, seed))
        while hand.turn >= 0:
            hand.apply(rng.choice(hand.legal()))

    return run


def dominoes_hand() -> Callable[[int], None] | None:
    """One complete random game of the ``dominoes`` package (4 players, double six), its
    plain loop: no player object, a random valid move each turn."""
    try:
        dominoes = importlib.import_module("dominoes")
    except ImportError:
        return None

    rng = random.Random(1)

    def run(seed: int) -> None:
        game = dominoes.Game.new()
        while game.result is None:
            moves = game.valid_moves
            game.make_move(*moves[rng.randrange(len(moves))])

    return run


def paired_ratio(
    ours: Callable[[int], None], theirs: Callable[[int], None], seconds: float, rounds: int
) -> tuple[float, float, float]:
    """``(our rate, their rate, median ratio)`` over ``rounds`` alternating timings of
    ``seconds / rounds`` each, so a busy machine slows both sides alike."""
    ratios, mine, peer = [], [], []
    for _ in range(rounds):
        a = rate(ours, seconds / rounds)
        b = rate(theirs, seconds / rounds)
        mine.append(a)
        peer.append(b)
        ratios.append(a / b)
    return statistics.median(mine), statistics.median(peer), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.5, help="time per figure")
    parser.add_argument("--rounds", type=int, default=9, help="alternations against dominoes")
    args = parser.parse_args()
    print("load: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'preset':<12} {'Match API hands/s':>18} {'simulator hands/s':>18}")
    partners_sim: float | None = None
    for pid in (*PRESETS, *STAGED):
        ours = rate(match_hand(pid), args.seconds)
        sim = sim_hand(pid)
        sim_rate = rate(sim, args.seconds) if sim else None
        print(f"{pid:<12} {ours:>18,.0f} {sim_rate:>18,.0f}" if sim_rate else
              f"{pid:<12} {ours:>18,.0f} {'-':>18}")
        if pid == "partners":
            partners_sim = sim_rate
    theirs = dominoes_hand()
    if theirs is None:
        print("dominoes package not installed: pip install -e '.[bench]' to compare")
        return
    mine, peer, ratio = paired_ratio(match_hand("partners"), theirs, 2 * args.seconds, args.rounds)
    print(f"\npartners via the Match API, {args.rounds} rounds alternating with dominoes 6.1.0:")
    print(f"Match API {mine:,.0f} hands/s, dominoes random 4-player game {peer:,.0f} hands/s")
    print(f"partners Match API / dominoes: {ratio:.2f}x (median of the rounds; target >= 1.5x)")
    print("load: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if partners_sim:
        print(f"partners simulator / dominoes: {partners_sim / peer:.2f}x")


if __name__ == "__main__":
    main()
