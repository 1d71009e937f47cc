"""``python -m benchmarks.tournament_repeats``: how often individual Swiss events repeat opponents.

``--events`` (default 500) random individual events (6 to 20 people, the default number of
rounds, ``--fill`` default ``mixed``, tables scored at random) are paired round after round by
:func:`bot.tournaments.pairing.pair_swiss`. Printed: the repeated meetings of opponents (two
people on opposite sides who were opponents before; once per earlier meeting), in all and
from round 3 on, the events that ended early (no pairing before their last round), and the
machine's load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass

from benchmarks.tournament import load
from bot.tournaments.model import Bye, Entrant, Fill, Result, TableResult, default_rounds
from bot.tournaments.pairing import pair_swiss


@dataclass(frozen=True, slots=True)
class Repeats:
    """What the events repeated."""

    events: int
    repeats: int  # repeated opponent meetings, every round
    from_round_3: int
    ended_early: int
    seconds: float


def run(events: int = 500, fill: Fill = "mixed", seed: int = 1) -> Repeats:
    """Pair ``events`` random events; count their repeated opponents."""
    repeats = late = early = 0
    start = time.perf_counter()
    for k in range(events):
        rng = random.Random(f"{seed}:{k}")
        n = rng.randint(6, 20)
        ents = [Entrant(i, float(rng.randint(1000, 2000)), (i,)) for i in range(1, n + 1)]
        met: Counter[frozenset[int]] = Counter()
        results: list[Result] = []
        rounds = default_rounds(n)
        for r in range(1, rounds + 1):
            pairing = pair_swiss("individual", ents, results, r, k, fill=fill)
            if pairing is None:
                early += 1
                break
            for t in pairing.tables:
                a, b = ([x for x in side if x is not None] for side in t.sides)
                for x in a:
                    for y in b:
                        pair = frozenset((x, y))
                        repeats += met[pair]
                        late += met[pair] if r >= 3 else 0
                        met[pair] += 1
            results += [Bye(r, e) for e in pairing.byes]
            results += [
                TableResult(r, t.sides, (rng.randint(0, 150), rng.randint(0, 150)))
                for t in pairing.tables
            ]
    return Repeats(events, repeats, late, early, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Run the measure and print its figures."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tournament_repeats", description=__doc__)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--fill", default="mixed", choices=["mixed", "bye", "computer"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.events} individual events, fill {args.fill} ({load()})")
    got = run(args.events, args.fill, args.seed)
    print(f"  repeated opponents: {got.repeats} ({got.from_round_3} from round 3 on); "
          f"ended early: {got.ended_early}; {got.seconds:.1f} s ({load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
