"""``python -m benchmarks.bot``: many concurrent tables through the table service and store.

No Discord. Every table is a ``partners`` match (by default) whose four seats are simulated
people: each chooses a random legal move from his private view (not timed), then submits it.
Timed, per action: from its arrival at :meth:`TableService.act` to its commit in the store and the
new table picture (``render.render_table`` through :mod:`bot.workers.pictures`: worker threads, or a
process pool with ``--processes``).

``--think`` is the mean pause between two actions of one table (people think, computers wait
their human-looking delay). ``0`` drives every table as fast as possible: that measures the
capacity (actions/s), while its latencies are mostly queueing (Little's law: 200 actions in
flight). The paced runs show the latency people would feel at that load.

``--database-url postgresql://…`` (``temp``: a throw-away server, as the tests start one) with
``--bot-processes 1,2`` runs the same load through 1, then 2 bot processes sharing that
PostgreSQL, each an OS process holding one shard's lease and the tables of its shard's guilds
(``SHARD_COUNT`` = processes), and once through one process on SQLite for comparison; it prints
each run's figures and the ratio of 2 processes' actions/s to 1 process's (``--skip-sqlite``
leaves the SQLite run out). The process counts take turns for ``--rounds`` rounds (3); each run
prints the machine's load before and after it and the CPU seconds per 1,000 actions of each bot
process and of PostgreSQL (where the second core goes), and the medians of the ratios close.

``--against DIR`` compares this code with another checkout (``git worktree add --detach DIR
<commit>``): both sides' benchmarks run in turn, each in a fresh process, ``--rounds`` times per
``--think``, and the medians and their ratio are printed (the same machine load for both).

Each report also says how late the event loop woke up (a 10 ms sampler) and how long the full
garbage collections took: where a latency's tail comes from when it is not the work itself.
``--gc-freeze`` collects once after start-up and freezes what exists (``gc.freeze()``), so the
full collections during play walk only what play made.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import freeze_start_up
from bot.settings import redact_url, sqlite_url
from bot.store import Store
from bot.tables.leases import ShardLeases
from bot.tables.service import TableService
from bot.workers import pictures


@dataclass
class Stats:
    """Collected timings (seconds)."""

    total: list[float] = field(default_factory=list)  # arrival -> commit + picture
    commit: list[float] = field(default_factory=list)  # arrival -> commit
    render: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)  # how late the event loop woke up
    gc_pauses: list[float] = field(default_factory=list)  # full (generation 2) collections
    hands: int = 0
    matches: int = 0
    elapsed: float = 0.0
    rendered: bool = False
    cpu: list[float] = field(default_factory=list)  # CPU seconds of each bot process's play
    database_cpu: float = float("nan")  # PostgreSQL's CPU seconds meanwhile


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
            if time.perf_counter() >= stop_at:
                break  # the run is over: no new action (the in-flight ones finish)
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


LAG_PERIOD = 0.01  # seconds between two wake-ups of the lag sampler


@contextlib.contextmanager
def _watch(stats: Stats) -> Iterator[None]:
    """Record, while the tables play, how late the event loop wakes up and how long each full
    garbage collection stops the process (the usual sources of a latency's tail)."""
    began = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            stats.gc_pauses.append(time.perf_counter() - began[0])

    async def sample() -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_PERIOD)
            stats.lag.append(max(0.0, time.perf_counter() - t - LAG_PERIOD))

    sampler = asyncio.get_running_loop().create_task(sample())
    gc.callbacks.append(on_gc)
    try:
        yield
    finally:
        gc.callbacks.remove(on_gc)
        sampler.cancel()


def guild_for(n: int, shard: int, shard_count: int) -> int:
    """A server id of shard ``shard`` (Discord's rule: ``(id >> 22) % shard_count``)."""
    return ((1_000_000 + n) * shard_count + shard) << 22


async def make_tables(
    service: TableService, args: argparse.Namespace, count: int, *, shard: int = 0, shards: int = 1
) -> list[tuple[int, list[int]]]:
    """``count`` running tables in servers of ``shard``; returns (table id, user per seat)."""
    seeds = iter(range(args.seed + shard * count, args.seed + (shard + 1) * count))
    service.seed_source = lambda: next(seeds)
    tables: list[tuple[int, list[int]]] = []
    for n in range(count):
        base = 10_000 * (n + 1) + 10_000_000 * shard
        users = [base + s for s in range(4)]
        t = await service.create_table(
            host_id=users[0],
            host_name=f"P{base}",
            variant=args.variant,
            options={"target": args.target} if args.target else None,
            channel_id=base,
            guild_id=guild_for(n, shard, shards) if shards > 1 else None,
        )
        for uid in users[1 : t.ruleset.people]:
            t = await service.join(t.id, uid, f"P{uid}")
        t = await service.start(t.id, users[0])
        seat_users = [s.user_id for s in t.seats]  # type: ignore[union-attr]
        tables.append((t.id, seat_users))  # type: ignore[arg-type]
    return tables


async def play_tables(
    service: TableService,
    tables: list[tuple[int, list[int]]],
    args: argparse.Namespace,
    render: bool,
    start: float | None = None,
) -> Stats:
    """Play every table concurrently for ``args.seconds`` (from ``start``, a perf_counter)."""
    stats = Stats()
    start = time.perf_counter() if start is None else start
    stop_at = start + args.seconds if args.seconds else float("inf")
    rng = random.Random(args.seed)
    with _watch(stats):
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
    return stats


async def run(args: argparse.Namespace) -> Stats:
    """Create the tables, play them concurrently in this process, return the timings."""
    render = not args.no_render and pictures.table_renderer() is not None
    pool = pictures.use_processes(args.processes) if render and args.processes else None
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"  # a file or a database URL
        store = await Store.open(db)
        try:
            service = TableService(store)
            tables = await make_tables(service, args, args.tables)
            if render:
                await pictures.warm_up()
            _settle(args)
            stats = await play_tables(service, tables, args, render)
            await service.aclose()
            return stats
        finally:
            await store.close()
            if pool is not None:
                await pictures.shut_pool()


def _settle(args: argparse.Namespace) -> None:
    """After start-up: with ``--gc-freeze``, collect once and move every object made so far
    (tables, caches, modules) out of the collector's reach, so full collections stay short."""
    if args.gc_freeze:
        freeze_start_up()


# ------------------------------------------------------------------ several bot processes


def _bot_process(
    args: argparse.Namespace, url: str, shard: int, shards: int, ready: Any, go: Any, out: Any
) -> None:
    """One bot process: holds the lease of ``shard``, plays its share of the tables."""
    try:
        out.send(asyncio.run(_bot_process_main(args, url, shard, shards, ready, go)))
    except BaseException as exc:
        out.send(exc)
        raise


async def _bot_process_main(
    args: argparse.Namespace, url: str, shard: int, shards: int, ready: Any, go: Any
) -> Stats:
    render = not args.no_render and pictures.table_renderer() is not None
    if render and args.processes:
        pictures.use_processes(args.processes)
    store = await Store.open(url)
    ttl = float(os.environ.get("SHARD_LEASE_SECONDS") or 30)  # the bot's own setting
    leases = ShardLeases(store, shard_count=shards, shard_ids=[shard], ttl=ttl)
    try:
        await leases.refresh()
        if not leases.held:
            raise RuntimeError(f"shard {shard} is held by another process")
        leases.start()  # renewed on its heartbeat, as the bot does, for runs past the lease
        service = TableService(store, owns=leases.owns)
        share = args.tables // shards + (shard < args.tables % shards)
        tables = await make_tables(service, args, share, shard=shard, shards=shards)
        if render:
            await pictures.warm_up()
        _settle(args)
        ready.release()
        await asyncio.to_thread(go.wait)
        began = time.process_time()
        stats = await play_tables(service, tables, args, render)
        stats.cpu.append(time.process_time() - began)
        await service.aclose()
        return stats
    finally:
        await leases.stop()
        await store.close()
        if render and args.processes:
            await pictures.shut_pool()


def run_processes(args: argparse.Namespace, url: str, processes: int) -> Stats:
    """The load through ``processes`` bot processes sharing the database at ``url``."""
    ctx = multiprocessing.get_context("spawn")
    ready, go = ctx.Semaphore(0), ctx.Event()
    pipes, workers = [], []
    for shard in range(processes):
        mine, theirs = ctx.Pipe(duplex=False)
        worker = ctx.Process(
            target=_bot_process, args=(args, url, shard, processes, ready, go, theirs)
        )
        worker.start()
        pipes.append(mine)
        workers.append(worker)
    try:
        for _ in workers:
            while not ready.acquire(timeout=1.0):
                if any(not w.is_alive() for w in workers):
                    raise RuntimeError("a bot process stopped while making its tables")
        database_began = database_cpu(url)
        go.set()
        results = [pipe.recv() for pipe in pipes]
        database = database_cpu(url) - database_began
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
    total = Stats()
    for result in results:
        if isinstance(result, BaseException):
            raise result
        total.total += result.total
        total.commit += result.commit
        total.render += result.render
        total.lag += result.lag
        total.gc_pauses += result.gc_pauses
        total.hands += result.hands
        total.matches += result.matches
        total.elapsed = max(total.elapsed, result.elapsed)
        total.rendered = result.rendered
        total.cpu += result.cpu
    total.database_cpu = database
    return total


def _ticks(pid: str) -> tuple[int, int]:
    """(parent pid, CPU clock ticks of the process and of its children it waited for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1]), sum(int(f) for f in fields[11:15])


def database_cpu(url: str) -> float:
    """CPU seconds used so far by the PostgreSQL server on this machine that serves ``url``'s
    port (its postmaster, its live back-ends, and those that exited), or NaN (not found)."""
    port = re.search(r":(\d+)/", url)
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[str, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                procs[entry.name] = _ticks(entry.name)
    for pid in procs:
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if line[0].endswith(b"postgres") and port and (
                f"port={port[1]}".encode() in b" ".join(line)
                or _listens_on(pid, int(port[1]))
            ):
                ticks = procs[pid][1] + sum(t for p, t in procs.values() if p == int(pid))
                return ticks / tick
    return float("nan")


def _listens_on(pid: str, port: int) -> bool:
    """Whether process ``pid`` is a postmaster whose data directory's lock names ``port``."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        cwd = Path(f"/proc/{pid}").joinpath("cwd").resolve()
        lines = (cwd / "postmaster.pid").read_text().splitlines()
        return lines[0].strip() == pid and int(lines[3]) == port
    return False


@contextmanager
def postgres_url(url: str) -> Iterator[str]:
    """``url``, or a throw-away PostgreSQL server's for ``temp``."""
    if url != "temp":
        yield url
        return
    from tests.pg import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL 15+ programs (initdb, pg_ctl) for --database-url temp")
    with PostgresServer(bindir) as server:
        yield server.url()


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_report(stats: Stats) -> str:
    """Each bot process's and PostgreSQL's CPU seconds per 1,000 actions: where time goes."""
    actions = len(stats.total) / 1000
    each = ", ".join(f"{c / actions:.2f}" for c in stats.cpu)
    line = f"CPU s per 1,000 actions: bot process(es) {each}"
    if stats.database_cpu == stats.database_cpu:  # not NaN
        line += f"; PostgreSQL {stats.database_cpu / actions:.2f}"
    return line


def compare_processes(args: argparse.Namespace) -> int:
    """1..N bot processes on PostgreSQL, in turn for ``--rounds`` rounds, and one on SQLite:
    figures, CPU per action, and the medians of the speed-ups."""
    counts = args.bot_processes
    with postgres_url(args.database_url) as url, tempfile.TemporaryDirectory() as tmp:
        runs: list[tuple[str, int, str]] = [("PostgreSQL", n, url) for n in counts]
        if not args.skip_sqlite:
            runs.append(("SQLite", 1, sqlite_url(Path(tmp) / "bench.sqlite3")))
        for think in args.think:
            args.think = think
            ratios: dict[int, list[float]] = {n: [] for n in counts if n > 1}
            for round_ in range(args.rounds):
                rates: dict[int, float] = {}
                for backend, n, where in runs:
                    before = load()
                    stats = run_processes(args, where, n)
                    if not stats.total:
                        print("no action was played", file=sys.stderr)
                        return 1
                    rate = len(stats.total) / stats.elapsed
                    if backend == "PostgreSQL":
                        rates[n] = rate
                    print(f"== round {round_ + 1}: {backend} ({redact_url(where)}), "
                          f"{n} bot process(es); load {before} -> {load()}")
                    print(report(args, stats))
                    print(cpu_report(stats))
                    print()
                if 1 in rates:
                    for n in ratios:
                        ratios[n].append(rates[n] / rates[1])
            ratios = {n: r for n, r in ratios.items() if r}  # none without a 1-process run
            if ratios:
                text = "; ".join(
                    f"{n}: {statistics.median(r):.2f}x (rounds {', '.join(f'{x:.2f}' for x in r)})"
                    for n, r in ratios.items())
                print(f"think {think:g}s: actions/s against 1 process on PostgreSQL, median of "
                      f"{args.rounds} rounds: {text}; load now {load()}")
                print()
    return 0


_RATE = re.compile(r"(\d+) actions in ([\d.]+)s = \d+ actions/s")
_TOTAL = re.compile(r"arrival -> commit \+ picture: p50 ([\d.]+) ms, p99 ([\d.]+) ms")
HERE = Path(__file__).resolve().parents[1]  # this checkout


def _one_run(checkout: Path, args: argparse.Namespace, think: float) -> tuple[float, float]:
    """``python -m benchmarks.bot`` of ``checkout`` (its own code: the folder comes first on
    the path), one value of ``--think``, in a fresh process; (actions/s, p99 ms)."""
    command = [sys.executable, "-m", "benchmarks.bot", "--think", f"{think:g}"]
    command += ["--tables", str(args.tables), "--seconds", f"{args.seconds:g}"]
    command += ["--variant", args.variant, "--seed", str(args.seed)]
    if args.target:
        command += ["--target", str(args.target)]
    if args.processes:
        command += ["--processes", str(args.processes)]
    if args.no_render:
        command.append("--no-render")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        command, cwd=checkout, env=env, capture_output=True, text=True, check=True
    ).stdout
    rate, total = _RATE.search(out), _TOTAL.search(out)
    if rate is None or total is None:
        raise RuntimeError(f"no figures in the output of {checkout}:\n{out}")
    return int(rate[1]) / float(rate[2]), float(total[2])


def compare_code(args: argparse.Namespace) -> int:
    """This checkout against the one at ``--against`` (e.g. a git worktree of older code),
    run after run in turn, ``--rounds`` times per ``--think``: medians and the ratio."""
    peer = Path(args.against).resolve()
    if not (peer / "benchmarks" / "bot.py").is_file():
        raise SystemExit(f"{peer} holds no benchmarks/bot.py")
    print(f"this code: {HERE}; against: {peer}; {args.rounds} rounds, taking turns; "
          f"load {load()}")
    for think in args.think:
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        for _ in range(args.rounds):
            ours.append(_one_run(HERE, args, think))
            theirs.append(_one_run(peer, args, think))
        rate = [statistics.median(r for r, _ in runs) for runs in (ours, theirs)]
        p99 = [statistics.median(p for _, p in runs) for runs in (ours, theirs)]
        print(
            f"think {think:g}s, {args.tables} tables: actions/s {rate[0]:.0f} against "
            f"{rate[1]:.0f} ({rate[0] / rate[1]:.2f}x); p99 arrival -> commit + picture "
            f"{p99[0]:.0f} ms against {p99[1]:.0f} ms (medians of {args.rounds}); load {load()}"
        )
    return 0


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
        f"{os.cpu_count()} CPU(s), pictures: {drawn}, load {load()}"
        + (", gc frozen after start-up" if args.gc_freeze else ""),
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
    if stats.lag:
        pauses = stats.gc_pauses
        longest = f", longest {max(pauses) * 1000:.0f} ms" if pauses else ""
        lines.append(
            f"event loop late:             {_dist(stats.lag)}; "
            f"{len(pauses)} full garbage collection(s){longest}"
        )
    return "\n".join(lines)


def _thinks(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def _counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("bot processes are counted from 1, like 1,2")
    return counts


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
    parser.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL database (postgresql://…, or temp for a throw-away server): compare "
        "--bot-processes on it, and one process on SQLite",
    )
    parser.add_argument(
        "--bot-processes",
        type=_counts,
        default=[1, 2],
        help="bot processes sharing the database, one run each (1,2); needs --database-url",
    )
    parser.add_argument(
        "--skip-sqlite",
        action="store_true",
        help="with --database-url: leave out the comparison run on SQLite",
    )
    parser.add_argument(
        "--against",
        default=None,
        metavar="DIR",
        help="another checkout of the project (e.g. `git worktree add --detach DIR <commit>`): "
        "run its benchmark and this one in turn, each in a fresh process, and print the ratios",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --against: runs of each side; with --database-url: rounds of the process "
        "counts, taking turns (3)",
    )
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="after start-up (the tables made), collect once and gc.freeze() what exists",
    )
    parser.add_argument("--seed", type=int, default=1, help="first table's seed")
    parser.add_argument(
        "--db",
        default=None,
        help="database file or URL, e.g. postgresql://user@host/db (a temporary SQLite file)",
    )
    args = parser.parse_args(argv)
    if args.against:
        return compare_code(args)
    if args.database_url:
        return compare_processes(args)
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
