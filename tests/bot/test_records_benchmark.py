"""``python -m benchmarks.records`` fills a store and reports its figures (a tiny run)."""

from __future__ import annotations

import pytest

from benchmarks.records import main


def test_a_tiny_records_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "300", "--matches", "3000", "--guilds", "5", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "3,000 matches" in out
    assert "leaderboard, global, by rating, page 1" in out and "history" in out


def test_a_tiny_records_benchmark_on_postgres(
    capsys: pytest.CaptureFixture[str], postgres_databases
) -> None:
    url = postgres_databases.create()
    argv = ["--players", "200", "--matches", "1000", "--guilds", "4", "--repeat", "2"]
    assert main([*argv, "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "copied to postgresql://" in out and "Postgres" in out and "ratio" in out
    assert "leaderboard, global, by rating, page 1" in out.split("PostgreSQL")[-1]
