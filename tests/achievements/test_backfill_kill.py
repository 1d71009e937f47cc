"""The back-fill command as a real process: killed (SIGKILL) in the middle of its run and run
again, it leaves the rows an uninterrupted run gives; a third run changes nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.achievements.service import Achievements
from bot.achievements.store import AchievementRepo
from bot.records.service import Records
from bot.store import Store
from bot.tables.service import TableService
from tests.achievements.test_store import play, rows
from tests.bot.helpers import FakeClock
from tests.scale.cluster import until

ROOT = Path(__file__).resolve().parents[2]
COPIES = 60  # each recorded match is copied this many times: a run long enough to be killed
TABLES = ("tables", "seats", "matches", "actions", "hand_results", "record_matches",
          "record_entries")


async def copy_matches(store: Store, table_ids: list[int], copies: int) -> None:
    """Copies of recorded matches under new table ids (their rows as they are)."""
    step = 1000
    async with store.transaction() as tx:
        for k in range(1, copies + 1):
            for table in TABLES:
                key = "id" if table == "tables" else "table_id"
                cols = [
                    str(r[1]) for r in await tx.db.fetchall(f"PRAGMA table_info({table})")
                ] if store.dialect == "sqlite" else [
                    str(r[0]) for r in await tx.db.fetchall(
                        "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
                        " AND table_schema = current_schema() ORDER BY ordinal_position",
                        (table,),
                    )
                ]
                shifted = ", ".join(f"{c} + {k * step}" if c == key else c for c in cols)
                marks = ", ".join("?" for _ in table_ids)
                await tx.db.execute(
                    f"INSERT INTO {table} ({', '.join(cols)}) SELECT {shifted} FROM {table}"
                    f" WHERE {key} IN ({marks})",
                    table_ids,
                )


async def backfill_process(database_url: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--env-file", "/nonexistent.env", "achievements-backfill",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def test_a_killed_backfill_run_again_gives_an_uninterrupted_runs_rows(
    service: TableService, store: Store, clock: FakeClock, database_url: str
) -> None:
    records = Records(store, clock=clock)
    service.add_observer(records)
    tables = [
        await play(service, clock, "draw", seed=s, level=("easy", "hard")[s % 2],
                   options={"target": 50})
        for s in range(4)
    ]
    recorded = await rows(store)
    await copy_matches(store, tables, COPIES)
    # What an uninterrupted back-fill gives: what the recording gave (the copies come later)
    # and the thresholds the copies' figures reach.
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")
    await Achievements(store).backfill()
    live = await rows(store)
    assert set(recorded) < set(live)
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")

    proc = await backfill_process(database_url)

    async def scanned_or_ended() -> bool:
        read = int(await store.db.fetchval("SELECT count(*) FROM achievement_scans"))
        return read >= 20 or proc.returncode is not None

    await until(scanned_or_ended, "20 matches scanned")
    assert proc.returncode is None, "the back-fill ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    total = len(tables) * (COPIES + 1)
    read = int(await store.db.fetchval("SELECT count(*) FROM achievement_scans"))
    assert 20 <= read < total  # killed in the middle

    again = await backfill_process(database_url)
    out, err = await again.communicate()
    assert again.returncode == 0, err.decode()
    assert f"{total - read} match(es) read" in out.decode()
    assert await rows(store) == live
    third = await backfill_process(database_url)
    out, _ = await third.communicate()
    assert "0 match(es) read, 0 achievement(s) written" in out.decode()
    assert len(await AchievementRepo(store.db).all_rows()) == len(live)
