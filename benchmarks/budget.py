"""The bot's budget of Discord requests at twice its demand, from 1 and 2 processes.

``python -m benchmarks.budget [--rate 45] [--limit 50] [--seconds 20] [--processes 1,2]
[--database-url temp|postgresql://…]``

A fake Discord (in this process) enforces a global limit of ``--limit`` bot-token requests a
second (per-route limits generous: they are discord.py's business). Each of N processes
(``python -m benchmarks.budget --source …``) asks ``2 × rate / N`` posts a second for
``--seconds`` — a third game messages, a third pings, a third boards — through the bot's
limiter sharing one budget of ``--rate`` through the database (a temporary SQLite file, or
PostgreSQL), then the same demand without the limiter: the peer. A refused request is sent
again after its ``retry_after``, as discord.py does. Printed per run: global 429s, requests
sent a second, the slots lost (a process woke up too late for them, or was about to write a
request too late after its slot), and each priority's time from the request to its answer
(p50, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.bot import postgres_url
from bot.ratelimit import Limiter, SharedBudget
from bot.settings import sqlite_url
from bot.store import Store
from bot.store.budget import BudgetRepo
from bot.traffic import purpose
from tests.fakediscord import FakeDiscord, RateLimits

MIX = ("game", "ping", "board")
CHANNELS = 20


async def source(options: dict[str, Any]) -> dict[str, Any]:
    """One process's demand; returns its requests' times by purpose and its 429s."""
    store = limiter = None
    trace = aiohttp.TraceConfig()
    if options["limited"]:
        store = await Store.open(options["database"])
        limiter = Limiter(options["rate"], SharedBudget(BudgetRepo(store.driver)))
        limiter.trace(trace)
    times: dict[str, list[float]] = defaultdict(list)
    refused = 0
    headers = {"Authorization": f"Bot {options['token']}"}
    loop = asyncio.get_running_loop()

    async def post(session: aiohttp.ClientSession, n: int) -> None:
        nonlocal refused
        kind = MIX[n % len(MIX)]
        channel = options["channels"][n % len(options["channels"])]
        url = f"{options['api']}/channels/{channel}/messages"
        asked = loop.time()
        with purpose(kind):
            while True:
                async with session.post(url, json={"content": f"{kind} {n}"}, headers=headers) as r:
                    body = await r.json()
                    if r.status != 429:
                        break
                    refused += 1
                    await asyncio.sleep(float(body["retry_after"]))
        times[kind].append(loop.time() - asked)

    rate, count = options["demand"], round(options["demand"] * options["seconds"])
    async with aiohttp.ClientSession(trace_configs=[trace]) as session:
        start = loop.time()
        tasks = []
        for n in range(count):
            await asyncio.sleep(max(0.0, start + n / rate - loop.time()))
            tasks.append(asyncio.ensure_future(post(session, n)))
        await asyncio.gather(*tasks)
        took = loop.time() - start
    late = resent = 0
    if limiter is not None:
        late, resent = limiter.late, limiter.resent
        await limiter.aclose()
    if store is not None:
        await store.close()
    return {
        "times": times,
        "refused": refused,
        "sent": count,
        "seconds": took,
        "late": late,
        "resent": resent,
    }


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] if values else 0.0


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


async def one_run(
    fake: FakeDiscord, args: argparse.Namespace, database: str, processes: int, limited: bool
) -> str:
    limits = fake.rate_limits = RateLimits(global_limit=args.limit, route_limit=1000, route_per=1.0)
    channels = [fake.add_channel(f"c{n}").id for n in range(CHANNELS)]
    options = {
        "api": fake.api_base,
        "token": fake.token,
        "channels": channels,
        "database": database,
        "rate": args.rate,
        "demand": 2 * args.rate / processes,
        "seconds": args.seconds,
        "limited": limited,
    }
    before = load()
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.budget",
            "--source",
            json.dumps(options),
            stdout=asyncio.subprocess.PIPE,
        )
        for _ in range(processes)
    ]
    results = [json.loads((await p.communicate())[0]) for p in procs]
    fake.rate_limits = None
    times: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for kind, values in result["times"].items():
            times[kind].extend(values)
    sent = sum(r["sent"] for r in results)
    took = max(r["seconds"] for r in results)
    globals_ = limits.refused.count("global")
    late = sum(r["late"] for r in results)
    resent = sum(r["resent"] for r in results)
    lines = ", ".join(
        f"{kind} p50 {quantile(times[kind], 0.5):.2f} s, p99 {quantile(times[kind], 0.99):.2f} s"
        for kind in MIX
    )
    return (
        f"{processes} process(es), {'limiter' if limited else 'no limiter (peer)'}:"
        f" {sent} requests in {took:.1f} s ({sent / took:.1f}/s), global 429s {globals_}"
        f" ({globals_ / (sent + globals_):.1%} of answers); slots lost to a late wake-up {late},"
        f" to a late write {resent};"
        f" {lines}   ({before} -> {load()})"
    )


async def main_async(args: argparse.Namespace) -> None:
    with postgres_url(args.database_url or "sqlite") as url, tempfile.TemporaryDirectory() as tmp:
        if not args.database_url:
            url = sqlite_url(Path(tmp) / "budget.sqlite3")
        store = await Store.open(url)  # migrated once, before the processes open it
        await store.close()
        print(
            f"budget {args.rate}/s, Discord's limit {args.limit}/s, demand {2 * args.rate}/s"
            f" for {args.seconds:.0f} s, {os.cpu_count()} cores, budget shared through"
            f" {url.partition(':')[0]}",
            flush=True,
        )
        async with FakeDiscord() as fake:
            for processes in args.processes:
                for limited in (True, False):
                    print(await one_run(fake, args, url, processes, limited), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.budget", description=__doc__)
    parser.add_argument("--rate", type=int, default=45, help="the bot's budget a second")
    parser.add_argument("--limit", type=int, default=50, help="Discord's global limit")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--processes", default="1,2")
    parser.add_argument(
        "--database-url",
        default="",
        help="postgresql://… or temp (a throw-away server); default SQLite",
    )
    parser.add_argument("--source", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.source:
        result = asyncio.run(source(json.loads(args.source)))
        print(json.dumps(result))
        return 0
    args.processes = [int(n) for n in args.processes.split(",")]
    started = time.perf_counter()
    asyncio.run(main_async(args))
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
