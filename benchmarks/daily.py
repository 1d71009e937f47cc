"""What the daily deal's expert play costs: once per day and variant, when the first attempt
is over.

``python -m benchmarks.daily [--workers 2] [--day 2026-11-27]``

For each variant of the daily deal, in a throw-away SQLite database: the day's seed is drawn,
the expert plays every seat of the deal in the computers' process pool (``--workers``
processes, the expert's own budget per move), and the replay of its play is drawn as the
result post shows it. Prints the seconds of each step, the moves, and the machine's load
averages (``uptime``): the machine may be shared. Target (our decision): the expert's play
and its replay within 60 s, the time a finished player waits at most for his result post.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.daily.service import VARIANTS, DailyService
from bot.store import Store
from bot.tables import computer
from bot.tables.service import TableService
from cogs.daily.words import draw_expert

TARGET = 60.0


def load() -> str:
    """The load averages, as ``uptime`` shows them."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


async def run(workers: int, day: str) -> bool:
    pool = ProcessPoolExecutor(workers)
    computer.use_executor(pool, wait=True)
    ok = True
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(Path(folder) / "daily.sqlite3")
            try:
                daily = DailyService(store, TableService(store))
                for variant in VARIANTS:
                    start = time.perf_counter()
                    play = await daily.expert_play(day, variant)
                    played = time.perf_counter() - start
                    start = time.perf_counter()
                    gif = await asyncio.to_thread(draw_expert, play, None)
                    drawn = time.perf_counter() - start
                    total = played + drawn
                    ok &= total <= TARGET and gif is not None
                    print(
                        f"{variant:10} expert play {played:5.1f} s ({len(play.moves)} moves), "
                        f"replay {drawn:4.1f} s ({len(gif or b'') // 1024} kB), "
                        f"total {total:5.1f} s (target {TARGET:.0f} s) | {load()}"
                    )
            finally:
                await store.close()
    finally:
        computer.use_executor(None)
        pool.shutdown()
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--day", default="2026-11-27")
    args = parser.parse_args()
    return 0 if asyncio.run(run(args.workers, args.day)) else 1


if __name__ == "__main__":
    sys.exit(main())
