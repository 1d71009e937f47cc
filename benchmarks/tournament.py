"""``python -m benchmarks.tournament``: the cost of running a tournament.

Pairing: a Swiss event of ``--entrants`` (default 1,000) in each format (one against one, pairs,
individual with the default mixed fill, with byes, with computer seats) is paired round after
round by :func:`bot.tournaments.pairing.pair_swiss`, each table scored at random; every round's
pairing is timed on this one process (one core): the wall time and the CPU time of the process
(on a busy machine the wall time includes waiting for a core). Target: each round paired in
under 1 s of CPU time. Then a
``--people`` (default 64) person event of ``--event-rounds`` (default 5) rounds is simulated end
to end with computer players on an accelerated clock (:mod:`benchmarks.tournament_play`): the
time of each round and the peak memory. The figures are printed with the machine's load
averages.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournaments.model import Bye, Entrant, Fill, Format, Result, TableResult
from bot.tournaments.pairing import pair_swiss

TARGET_S = 1.0
#: (format, fill) pairs timed by :func:`pairing`.
CASES: tuple[tuple[Format, Fill], ...] = (
    ("single", "bye"), ("pairs", "bye"), ("individual", "mixed"), ("individual", "bye"),
    ("individual", "computer"),
)


@dataclass(frozen=True, slots=True)
class RoundTime:
    """One round's pairing: how long it took and what it produced."""

    fmt: Format
    fill: Fill
    round: int
    seconds: float  # wall time
    cpu_seconds: float  # this process's CPU time
    tables: int
    byes: int


def load() -> str:
    """The machine's load averages (as ``uptime`` shows them)."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def make_entrants(fmt: Format, entrants: int, rng: random.Random) -> list[Entrant]:
    """``entrants`` entrants with ratings spread like a real server's."""
    size = 2 if fmt == "pairs" else 1
    return [
        Entrant(i, round(rng.gauss(1500, 250), 1), tuple(range(size * i, size * i + size)))
        for i in range(1, entrants + 1)
    ]


def pairing(
    entrants: int = 1000,
    rounds: int = 5,
    seed: int = 1,
    cases: Sequence[tuple[Format, Fill]] = CASES,
) -> list[RoundTime]:
    """Pair ``rounds`` Swiss rounds of ``entrants`` in each case; every round timed."""
    times = []
    for fmt, fill in cases:
        rng = random.Random(seed)
        ents = make_entrants(fmt, entrants, rng)
        results: list[Result] = []
        for r in range(1, rounds + 1):
            start, cpu = time.perf_counter(), time.process_time()
            paired = pair_swiss(fmt, ents, results, r, seed, fill=fill)
            seconds = time.perf_counter() - start
            cpu_seconds = time.process_time() - cpu
            if paired is None:
                break
            times.append(RoundTime(
                fmt, fill, r, seconds, cpu_seconds, len(paired.tables), len(paired.byes)))
            results += [Bye(r, e) for e in paired.byes]
            results += [
                TableResult(r, t.sides, (rng.randint(0, 150), rng.randint(0, 150)))
                for t in paired.tables
            ]
    return times


def print_pairing(times: list[RoundTime], entrants: int) -> bool:
    """Print each round's time; True when every round met the target."""
    print(f"Swiss pairing of {entrants} entrants, one core ({load()})")
    for t in times:
        flag = "" if t.cpu_seconds < TARGET_S else "  over the target"
        print(f"  {t.fmt:<10} {t.fill:<8} round {t.round}: {t.cpu_seconds * 1000:7.1f} ms CPU, "
              f"{t.seconds * 1000:7.1f} ms wall ({t.tables} tables, {t.byes} byes){flag}")
    worst = max((t.cpu_seconds for t in times), default=0.0)
    wall = max((t.seconds for t in times), default=0.0)
    met = worst < TARGET_S
    print(f"  slowest round {worst * 1000:.1f} ms CPU ({wall * 1000:.1f} ms wall at most); "
          f"target {TARGET_S:.0f} s of CPU: {'met' if met else 'missed'} ({load()})")
    return met


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--people", type=int, default=64, help="entrants of the simulated event")
    parser.add_argument("--event-rounds", type=int, default=5, help="its rounds")
    parser.add_argument("--level", default="easy", help="its computer players' level")
    parser.add_argument("--no-event", action="store_true", help="time the pairing only")
    args = parser.parse_args(argv)
    met = print_pairing(pairing(args.entrants, args.rounds, args.seed), args.entrants)
    if not args.no_event:
        from benchmarks import tournament_play

        tournament_play.run(args.people, args.event_rounds, args.level, load())
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
