"""Event-loop lag and computers' answer times while many computer-only tables play at once.

``python -m benchmarks.loop [--tables 25,50,100] [--seconds 30] [--level expert] [--threads]``

Each table is a task that asks :func:`bot.tables.computer.decide` for every move (the table
service's call) at a human pace and applies it, until its match ends, then starts another.
Decisions run where the bot's default settings put them (``AI_PROCESSES`` unset: a process
pool with one process per core); ``--threads`` adds a run with them in worker threads
(``AI_PROCESSES=0``), and ``--processes N`` a run with N processes.

Three things are measured, at each number of tables:

- **Event-loop lag.** A sampler sleeps 10 ms at a time and records how late it wakes up: that
  lateness is what a person at any other table feels when pressing a button (target: p99
  under 50 ms with 100 expert tables on 2 cores).
- **Answer time against the position.** Every decision's time from the call to the answer,
  split by whether one action was legal or several. A two-sample Kolmogorov-Smirnov test
  compares the two distributions: with ``p`` above 0.05 nothing in the timing tells how many
  tiles a computer could play. ``--pace`` scales the answer times (a faster clock gives more
  decisions per second of run).
- **Strength under load.** The share of the decisions that searched (two or more legal
  actions, a level that searches) whose search had not answered by the drawn time, so that
  ``normal``'s rules of thumb answered instead (``computer.fallback``). The most tables
  whose share stays under :data:`FULL_STRENGTH` is how many tables the machine's cores serve
  at the level's full strength.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
import time
from collections.abc import Sequence

from bot.settings import load_settings
from bot.tables import computer
from domino import Match, preset
from domino.ai import ALL_LEVELS

TICK = 0.01
FULL_STRENGTH = 0.01  # at most this share of searched decisions answered by the fallback


class Record:
    """What one run saw: loop lags, answer times by number of legal actions, fallbacks."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.single: list[float] = []  # answer times with one legal action
        self.several: list[float] = []  # ... with two or more
        self.late: tuple[list[float], list[float]] = ([], [])  # answer minus drawn time
        self.fallbacks = 0


async def table(
    index: int, level: str, pace: computer.Pace, stop: float, record: Record
) -> None:
    """One computer-only table: plays matches until ``stop`` (loop time)."""
    loop = asyncio.get_running_loop()
    seed = index
    match = Match.new(preset("partners"), seed)
    seq = 0
    while loop.time() < stop:
        if match.outcome is not None:
            seed += 1000
            match = Match.new(preset("partners"), seed)
            seq = 0
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        asked = time.monotonic()
        action = await computer.decide(
            view,
            level,
            rng=computer.rng_for(seed, seq),
            pace_rng=computer.pace_rng_for(seed, seq),
            pace=pace,
        )
        took = time.monotonic() - asked
        several = len(view.legal) > 1
        (record.several if several else record.single).append(took)
        record.late[several].append(took - pace.draw(computer.pace_rng_for(seed, seq)))
        match = match.apply(action, seat)
        seq += 1


async def sample_lag(stop: float, lags: list[float]) -> None:
    """Sleep :data:`TICK` at a time and record how late each wake-up is."""
    loop = asyncio.get_running_loop()
    while loop.time() < stop:
        start = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - start - TICK))


async def run(tables: int, seconds: float, level: str, pace: computer.Pace) -> Record:
    """Play ``tables`` tables for ``seconds``."""
    loop = asyncio.get_running_loop()
    stop = loop.time() + seconds
    record = Record()
    fallback = getattr(computer, "fallback", None)  # counted where the version has one

    def counted(view):  # type: ignore[no-untyped-def]
        record.fallbacks += 1
        return fallback(view)

    if fallback is not None:
        computer.fallback = counted  # type: ignore[assignment]
    try:
        tasks = [asyncio.create_task(table(i, level, pace, stop, record)) for i in range(tables)]
        await sample_lag(stop, record.lags)
        await asyncio.gather(*tasks)
    finally:
        if fallback is not None:
            computer.fallback = fallback  # type: ignore[assignment]
    return record


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def ks_test(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The two-sample Kolmogorov-Smirnov statistic ``D`` of ``a`` and ``b`` and its p-value
    (the asymptotic Kolmogorov distribution, with Stephens' small-sample correction)."""
    xs, ys = sorted(a), sorted(b)
    n, m = len(xs), len(ys)
    if not n or not m:
        return math.nan, math.nan
    i = j = 0
    d = 0.0
    while i < n and j < m:
        value = min(xs[i], ys[j])
        while i < n and xs[i] == value:
            i += 1
        while j < m and ys[j] == value:
            j += 1
        d = max(d, abs(i / n - j / m))
    root = math.sqrt(n * m / (n + m))
    lam = (root + 0.12 + 0.11 / root) * d
    if lam < 1e-3:
        return d, 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * (k * lam) ** 2) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


def load() -> str:
    """The machine's load averages (as ``uptime`` shows them)."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def measure(
    tables: int, args: argparse.Namespace, pace: computer.Pace, processes: int, label: str
) -> Record:
    """One run of ``tables`` tables with decisions in ``processes`` processes (0: threads);
    prints its line."""
    before = load()
    if processes:
        computer.use_processes(processes)
    try:
        started = time.perf_counter()
        record = asyncio.run(run(tables, args.seconds, args.level, pace))
        elapsed = time.perf_counter() - started
    finally:
        computer.use_executor(None, wait=True)
    decisions = len(record.single) + len(record.several)
    d, p = ks_test(record.single, record.several)
    share = record.fallbacks / max(len(record.several), 1)
    print(
        f"{label:<34} {quantile(record.lags, 0.5) * 1000:>6.1f}ms"
        f" {quantile(record.lags, 0.99) * 1000:>6.1f}ms {max(record.lags) * 1000:>6.1f}ms"
        f" {decisions / elapsed:>6.1f} {share:>7.1%} |"
        f" {len(record.single):>4} {quantile(record.single, 0.5):.2f} "
        f"{quantile(record.single, 0.9):.2f} | {len(record.several):>4}"
        f" {quantile(record.several, 0.5):.2f} {quantile(record.several, 0.9):.2f} |"
        f" {d:.3f} {p:.3f}   ({before} -> {load()})",
        flush=True,
    )
    single_late, several_late = record.late
    print(f"{'':<34} answer later than drawn, 1 legal: p50"
          f" {quantile(single_late, 0.5) * 1000:.1f} ms, p99"
          f" {quantile(single_late, 0.99) * 1000:.1f} ms | 2+ legal: p50"
          f" {quantile(several_late, 0.5) * 1000:.1f} ms, p99"
          f" {quantile(several_late, 0.99) * 1000:.1f} ms", flush=True)
    return record


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loop", description=__doc__)
    parser.add_argument("--tables", default="25,50,100",
                        help="numbers of tables, comma-separated: one run each")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--level", default="expert", choices=ALL_LEVELS)
    parser.add_argument("--threads", action="store_true",
                        help="also run with decisions in worker threads (AI_PROCESSES=0)")
    parser.add_argument("--processes", type=int, default=None,
                        help="also run with this many processes (AI_PROCESSES=N)")
    parser.add_argument("--pace", type=float, default=computer.HUMAN_PACE.median,
                        help="median answer time in seconds")
    args = parser.parse_args(argv)
    base = computer.HUMAN_PACE
    scale = args.pace / base.median
    pace = computer.Pace(base.median * scale, base.spread, base.low * scale, base.high * scale)
    default = load_settings(None, environ={}).ai_processes
    modes = [("default settings", default)]
    if args.threads:
        modes.append(("threads", 0))
    if args.processes is not None:
        modes.append((f"{args.processes} processes", args.processes))
    counts = [int(n) for n in args.tables.split(",")]
    print(
        f"{','.join(map(str, counts))} computer-only partners tables, level {args.level}, answer"
        f" time median {pace.median:.2f}s, {args.seconds:.0f}s per run, {os.cpu_count()} cores;"
        f" default AI_PROCESSES={default}"
    )
    print(f"{'tables, decisions run in':<34} {'lag p50':>8} {'p99':>8} {'max':>8} {'dec/s':>6}"
          f" {'fallback':>8} | answer s, 1 legal: n, p50, p90 | 2+ legal: n, p50, p90 |"
          f" KS D, p")
    verdict = []
    strength: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for tables in counts:
        for name, processes in modes:
            label = f"{name} ({processes or 'threads'})"
            record = measure(tables, args, pace, processes, f"{tables:>4} {label}")
            share = record.fallbacks / max(len(record.several), 1)
            strength.setdefault((label, processes), []).append((tables, share))
            decisions = len(record.single) + len(record.several)
            verdict.append(
                (f"{tables} tables, {label}", quantile(record.lags, 0.99), decisions,
                 ks_test(record.single, record.several)[1])
            )
    for label, p99, decisions, p in verdict:
        print(
            f"{label}: lag p99 {p99 * 1000:.1f} ms (target < 50 ms:"
            f" {'met' if p99 < 0.05 else 'NOT met'}); {decisions} decisions, answer time"
            f" independent of the number of legal moves (KS p > 0.05:"
            f" {'met' if p > 0.05 and decisions >= 500 else 'NOT met'})"
        )
    for (label, processes), shares in strength.items():
        served = [t for t, share in shares if share < FULL_STRENGTH]
        figures = ", ".join(f"{t} tables {share:.1%}" for t, share in shares)
        cores = processes or 1  # threads: the one interpreter
        full = (
            f"{max(served)} of those run ({max(served) / cores:.0f} a core)"
            if served else "none of those run"
        )
        print(
            f"{args.level} answered by the fallback (share of searched decisions), {label}:"
            f" {figures}; at full strength (< {FULL_STRENGTH:.0%}): {full}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
