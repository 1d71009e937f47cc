"""Event-loop lag while many computer-only tables play at once.

``python -m benchmarks.loop [--tables 100] [--seconds 20] [--level hard] [--processes 2]``

Each table is a task that asks :func:`bot.computer.decide` for every move (the table
service's call) at a human pace and applies it, until its match ends, then starts another.
A sampler sleeps 10 ms at a time and records how late it wakes up: that lateness is what a
person at any other table feels when pressing a button. Run once with decisions in worker
threads (no pool) and once in a process pool (``AI_PROCESSES``); prints the lag's median,
p99 and maximum and the decisions made per second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from bot import computer
from domino import Match, preset
from domino.ai import ALL_LEVELS

TICK = 0.01


async def table(
    index: int, level: str, pace: computer.Pace, stop: float, counts: list[int]
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
        action = await computer.decide(
            match.view(seat),
            level,
            rng=computer.rng_for(seed, seq),
            pace_rng=computer.pace_rng_for(seed, seq),
            pace=pace,
        )
        match = match.apply(action, seat)
        seq += 1
        counts[0] += 1


async def sample_lag(stop: float, lags: list[float]) -> None:
    """Sleep :data:`TICK` at a time and record how late each wake-up is."""
    loop = asyncio.get_running_loop()
    while loop.time() < stop:
        start = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - start - TICK))


async def run(
    tables: int, seconds: float, level: str, pace: computer.Pace
) -> tuple[list[float], float]:
    """Play ``tables`` tables for ``seconds``; the lags seen and decisions per second."""
    loop = asyncio.get_running_loop()
    stop = loop.time() + seconds
    lags: list[float] = []
    counts = [0]
    started = time.perf_counter()
    tasks = [asyncio.create_task(table(i, level, pace, stop, counts)) for i in range(tables)]
    await sample_lag(stop, lags)
    await asyncio.gather(*tasks)
    return lags, counts[0] / (time.perf_counter() - started)


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark in both modes and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loop", description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--level", default="hard", choices=ALL_LEVELS)
    parser.add_argument("--processes", type=int, default=2, help="AI_PROCESSES of the pool run")
    parser.add_argument("--pace", type=float, default=computer.HUMAN_PACE.median,
                        help="median answer time in seconds")
    args = parser.parse_args(argv)
    base = computer.HUMAN_PACE
    scale = args.pace / base.median
    pace = computer.Pace(base.median * scale, base.spread, base.low * scale, base.high * scale)
    print(
        f"{args.tables} computer-only partners tables, level {args.level}, answer time median"
        f" {pace.median:.2f}s, {args.seconds:.0f}s per run"
    )
    print(f"{'decisions run in':<22} {'lag p50 ms':>10} {'lag p99 ms':>10} {'lag max ms':>10}"
          f" {'decisions/s':>12}")
    results = {}
    for mode in ("threads", f"{args.processes} processes"):
        if mode != "threads":
            computer.use_processes(args.processes)
        try:
            lags, rate = asyncio.run(run(args.tables, args.seconds, args.level, pace))
        finally:
            computer.use_executor(None, wait=True)
        results[mode] = quantile(lags, 0.99)
        print(
            f"{mode:<22} {quantile(lags, 0.5) * 1000:>10.1f} {quantile(lags, 0.99) * 1000:>10.1f}"
            f" {max(lags) * 1000:>10.1f} {rate:>12.1f}",
            flush=True,
        )
    pool_p99 = results[f"{args.processes} processes"]
    print(f"p99 lag with the process pool: {pool_p99 * 1000:.1f} ms (target < 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
