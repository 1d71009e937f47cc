"""``python -m benchmarks.restart``: how soon the default, one-process bot plays again after a
crash.

A real bot process (``python -m tests.scale.runner``, default settings: no ``SHARD_COUNT``,
30 s leases) against the fake Discord and a SQLite file (``--database-url`` for another
database). A person plays a few moves; the process is killed with SIGKILL; a new one is
started at once. Timed, each round: from the restart to the process being ready (logged in,
lease taken, tables loaded, gateway connected) and to the person's first acknowledged move.
Target: play again within 2 s (without recognising its dead predecessor's lease the bot
waited for the 30 s lease to expire).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bot.settings import sqlite_url
from bot.store.leases import LeaseRepo
from tests.fakediscord import FakeDiscord
from tests.scale.cluster import Table, open_table, play, watching

DEFAULTS = {"SHARD_COUNT": "", "SHARD_IDS": "", "SHARD_LEASE_SECONDS": ""}  # none set
TARGET = 2.0


def load() -> str:
    """The machine's load averages (as ``uptime`` shows them)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


async def rounds(count: int, url: str | None, folder: Path) -> list[tuple[float, float, bool]]:
    """(seconds to ready, seconds to the first acknowledged move, lease taken at once)."""
    results = []
    async with FakeDiscord() as fake:
        table = Table(fake.add_user(2001, "player", "Player"), fake.channel_id)
        where = url or sqlite_url(folder / "bench.sqlite3")
        async with watching(
            fake, where, folder, timeout=60 + 40 * count, lease_ttl=30.0, env=DEFAULTS
        ) as watch:
            leases = LeaseRepo(watch.store.driver)
            bot = await watch.procs.start("bot0", "")
            await fake.wait_for(lambda: fake.commands(), timeout=10, what="the commands")
            await open_table(fake, table, target=500)
            for n in range(1, count + 1):
                info = await play(fake, watch.observer, table, after_ack=lambda i: True)
                (old,) = await leases.list()
                bot.kill()
                await bot.proc.wait()
                started = time.monotonic()
                bot = await watch.procs.start(f"bot{n}", "", wait=False)
                await watch.procs.wait_ready(bot)
                ready = time.monotonic() - started
                await play(fake, watch.observer, table, after_ack=lambda i, s=info.seq: i.seq > s)
                moved = time.monotonic() - started
                (new,) = await leases.list()
                results.append((ready, moved, new.acquired_at < old.expires_at))
                print(
                    f"round {n}: ready {ready:.2f} s, first acknowledged move {moved:.2f} s"
                    f" ({load()})",
                    flush=True,
                )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.restart", description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="kills and restarts (5)")
    parser.add_argument(
        "--database-url", default=None, help="the database (default: a temporary SQLite file)"
    )
    args = parser.parse_args(argv)
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory() as folder:
        results = asyncio.run(rounds(args.rounds, args.database_url, Path(folder)))
    moved = [m for _, m, _ in results]
    at_once = all(taken for _, _, taken in results)
    ready = statistics.median(r for r, _, _ in results)
    print(
        "restart after kill -9 to the first acknowledged move: median"
        f" {statistics.median(moved):.2f} s, worst {max(moved):.2f} s; ready: median {ready:.2f}"
        f" s; the dead process's lease taken at once: {'yes' if at_once else 'NO'} ({load()})"
    )
    met = max(moved) <= TARGET and at_once
    print(f"target ({TARGET:g} s): {'met' if met else 'NOT met'}")
    return 0 if at_once else 1


if __name__ == "__main__":
    sys.exit(main())
