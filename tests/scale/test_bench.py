"""``python -m benchmarks.bot --database-url … --bot-processes 1,2`` runs (a tiny run)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bot import main


def test_bot_processes_share_one_postgresql(
    postgres_databases: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_databases.migrated()
    argv = ["--database-url", url, "--bot-processes", "1,2", "--tables", "4", "--rounds", "2"]
    assert main([*argv, "--think", "0", "--seconds", "0.5", "--no-render"]) == 0
    out = capsys.readouterr().out
    assert "== round 2: PostgreSQL" in out and "1 bot process(es); load " in out
    assert "2 bot process(es)" in out and "== round 1: SQLite" in out
    assert out.count(" actions/s (") == 6
    assert out.count("CPU s per 1,000 actions: bot process(es) ") == 6
    assert out.count("; PostgreSQL ") == 4  # its CPU, beside each PostgreSQL run's
    assert "actions/s against 1 process on PostgreSQL, median of 2 rounds: 2:" in out


def test_bot_processes_renew_their_leases(
    postgres_databases: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run longer than the lease (3 s here): the processes keep their shards' leases live,
    as the bot does, so no other process could take their tables meanwhile."""
    import asyncio
    import threading
    import time

    from bot.store import Store
    from bot.store.leases import LeaseRepo

    url = postgres_databases.migrated()
    monkeypatch.setenv("SHARD_LEASE_SECONDS", "3")
    argv = ["--database-url", url, "--bot-processes", "2", "--skip-sqlite", "--tables", "4",
            "--rounds", "1"]
    result: list[int] = []
    run = threading.Thread(
        target=lambda: result.append(
            main([*argv, "--think", "0.2", "--seconds", "7", "--no-render"])
        )
    )

    async def watch() -> float:
        """The longest a lease was seen live after it was taken (seconds)."""
        longest = 0.0
        async with await Store.open(url) as store:
            repo = LeaseRepo(store.driver)
            while run.is_alive():
                now = await repo.now()
                for lease in await repo.list():
                    if lease.expires_at > now:
                        longest = max(longest, now - lease.acquired_at)
                await asyncio.sleep(0.2)
        return longest

    run.start()
    started = time.monotonic()
    longest = asyncio.run(watch())
    run.join()
    assert result == [0] and time.monotonic() - started > 7
    assert longest > 4.5, f"leases lapsed {longest:.1f} s after they were taken"


def test_the_restart_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks.restart --rounds 1`` (a kill, a restart, a move; SQLite)."""
    from benchmarks.restart import main as restart_main

    assert restart_main(["--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "round 1: ready " in out and "lease taken at once: yes" in out and "target (2 s)" in out
