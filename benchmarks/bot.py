"""``python -m benchmarks.bot``: many concurrent tables through the table service and store.

No Discord. Every table is a ``partners`` match (by default) whose four seats are simulated
people: each chooses a random legal move from his private view (not timed), then submits it.
Timed, per action: from its arrival at :meth:`TableService.act` to its commit in SQLite and the
new table picture (``render.render_table`` through :mod:`bot.pictures`: worker threads, or a
process pool with ``--processes``).

``--think`` is the mean pause between two actions of one table (people think, computers wait
their human-looking delay). ``0`` drives every table as fast as possible: that measures the
capacity (actions/s), while its latencies are mostly queueing (Little's law: 200 actions in
flight). The paced runs show the latency people would feel at that load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot import pictures
from bot.store import Store
from bot.tables.service import TableService


@dataclass
class Stats:
    """Collected timings (seconds)."""

    total: list[float] = field(default_factory=list)  # arrival -> commit + picture
    commit: list[float] = field(default_factory=list)  # arrival -> commit
    render: list[float] = field(default_factory=list)
    hands: int = 0
    matches: int = 0
    elapsed: float = 0.0
    rendered: bool = False


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by the nearest-rank method."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


async def play_table(
    service: TableService,
    table_id: int,
    users: list[int],
    stats: Stats,
    render: bool,
    *,
    rng: random.Random,
    think: float,
    stop_at: float,
) -> None:
    """Play one table to its end (or until ``stop_at``), timing every action."""
    info = await service.get(table_id)
    names = info.names
    while info.status == "running" and time.perf_counter() < stop_at:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        turn = info.turn
        assert turn is not None
        user = users[turn]
        view = next(v for v in await service.views_for(table_id, user) if v.seat == turn)
        action = rng.choice(view.legal)
        t0 = time.perf_counter()
        result = await service.act(table_id, user, action, expected_seq=info.seq)
        t1 = time.perf_counter()
        if render:
            await pictures.table_png(result.view, names)
        t2 = time.perf_counter()
        stats.commit.append(t1 - t0)
        stats.render.append(t2 - t1)
        stats.total.append(t2 - t0)
        stats.hands += result.hand_result is not None
        stats.matches += result.outcome is not None
        info = result.table


async def run(args: argparse.Namespace) -> Stats:
    """Create the tables, play them concurrently, return the timings."""
    render = not args.no_render and pictures.table_renderer() is not None
    pool = pictures.use_processes(args.processes) if render and args.processes else None
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"  # a file or a database URL
        store = await Store.open(db)
        try:
            seeds = iter(range(args.seed, args.seed + args.tables))
            service = TableService(store, seed_source=lambda: next(seeds), computer_pace=None)
            tables: list[tuple[int, list[int]]] = []
            for n in range(args.tables):
                base = 10_000 * (n + 1)
                users = [base + s for s in range(4)]
                t = await service.create_table(
                    host_id=users[0],
                    host_name=f"P{base}",
                    variant=args.variant,
                    options={"target": args.target} if args.target else None,
                    channel_id=base,
                )
                for uid in users[1 : t.ruleset.people]:
                    t = await service.join(t.id, uid, f"P{uid}")
                t = await service.start(t.id, users[0])
                seat_users = [s.user_id for s in t.seats]  # type: ignore[union-attr]
                tables.append((t.id, seat_users))  # type: ignore[arg-type]
            if render:
                await pictures.warm_up()
            stats = Stats()
            stop_at = time.perf_counter() + args.seconds if args.seconds else float("inf")
            rng = random.Random(args.seed)
            start = time.perf_counter()
            await asyncio.gather(
                *(
                    play_table(
                        service,
                        tid,
                        users,
                        stats,
                        render,
                        rng=random.Random(rng.random()),
                        think=args.think,
                        stop_at=stop_at,
                    )
                    for tid, users in tables
                )
            )
            stats.elapsed = time.perf_counter() - start
            stats.rendered = render
            await service.aclose()
            return stats
        finally:
            await store.close()
            if pool is not None:
                pictures.use_executor(None)


def _dist(values: list[float]) -> str:
    ms = 1000.0
    return (
        f"p50 {percentile(values, 50) * ms:.2f} ms, p99 {percentile(values, 99) * ms:.2f} ms, "
        f"max {max(values) * ms:.2f} ms"
    )


def report(args: argparse.Namespace, stats: Stats) -> str:
    """A few lines of figures."""
    if not stats.rendered:
        drawn = "none" if args.no_render else "none (render/ not available)"
    else:
        where = f"{args.processes} processes" if args.processes else "threads"
        drawn = f"render.render_table in {where}"
    lines = [
        f"{args.tables} concurrent {args.variant} tables, think {args.think:g}s, "
        f"{os.cpu_count()} CPU(s), pictures: {drawn}",
        f"{len(stats.total)} actions in {stats.elapsed:.2f}s = "
        f"{len(stats.total) / stats.elapsed:.0f} actions/s "
        f"({stats.hands} hands, {stats.matches} matches finished)",
        f"arrival -> commit + picture: {_dist(stats.total)}",
        f"arrival -> commit:           {_dist(stats.commit)}",
    ]
    if stats.rendered:
        lines.append(
            f"picture alone:               {_dist(stats.render)}, "
            f"mean {statistics.fmean(stats.render) * 1000:.2f} ms"
        )
    return "\n".join(lines)


def _thinks(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot", description=__doc__)
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument("--variant", default="partners", help="preset id (partners)")
    parser.add_argument("--target", type=int, default=None, help="match target (preset's)")
    parser.add_argument(
        "--think",
        type=_thinks,
        default=[0.0, 1.0, 3.0],
        help="mean seconds between two actions of a table; one run per value, separated by "
        "commas (default 0,1,3: as fast as possible, then two human-like paces)",
    )
    parser.add_argument(
        "--seconds", type=float, default=12.0, help="length of each run (12; 0 = to the end)"
    )
    parser.add_argument("--no-render", action="store_true", help="skip the pictures")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="draw pictures in a pool of this many processes (0: worker threads, the default)",
    )
    parser.add_argument("--seed", type=int, default=1, help="first table's seed")
    parser.add_argument(
        "--db",
        default=None,
        help="database file or URL, e.g. postgresql://user@host/db (a temporary SQLite file)",
    )
    args = parser.parse_args(argv)
    thinks = args.think
    for n, think in enumerate(thinks):
        args.think = think
        stats = asyncio.run(run(args))
        if not stats.total:
            print("no action was played", file=sys.stderr)
            return 1
        if n:
            print()
        print(report(args, stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
