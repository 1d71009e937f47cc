"""``python -m bot achievements-backfill``: award the achievements of the matches recorded
before achievements existed (or before a moment was read), from their stored action logs.

Safe to run at any time, also while the bot records matches, and again: each match's moments
are read and awarded in one transaction that marks it read, the thresholds are computed again
from every person's rated matches, and each achievement stays with the earliest match that
earned it, so a second run, or a run stopped at any instant and run again, leaves the same rows.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TextIO

from bot.achievements.service import Achievements
from bot.store import Store

__all__ = ["backfill_main", "run_backfill"]


async def run_backfill(database_url: str, out: TextIO = sys.stdout) -> int:
    """Run the back-fill on ``database_url``; prints what it did; returns the exit status."""
    started = time.monotonic()
    store = await Store.open(database_url)
    try:
        done = await Achievements(store).backfill()
    finally:
        await store.close()
    print(
        f"achievements back-fill: {done.matches_read} match(es) read, {done.rows} achievement(s)"
        f" written, in {time.monotonic() - started:.1f} s",
        file=out,
    )
    return 0


def backfill_main(database_url: str) -> int:
    return asyncio.run(run_backfill(database_url))
