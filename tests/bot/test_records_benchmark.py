"""``python -m benchmarks.records`` fills a store and reports its figures (a tiny run); a second
run reuses the kept store (and the kept PostgreSQL copy)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from benchmarks.records import main
from tests.pg import find_bindir


def test_a_tiny_records_benchmark(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["--players", "300", "--matches", "3000", "--guilds", "5", "--repeat", "2"]
    assert main([*argv, "--cache", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "filled in" in out and "3,000 matches" in out
    assert "leaderboard, global, by rating, page 1" in out and "history" in out
    assert "median" in out and "p99" in out and "CPU" in out
    assert main([*argv, "--cache", str(tmp_path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "kept from an earlier run" in out and "3,000 matches" in out
    assert "record a match into the full store" in out
    assert "USING COVERING INDEX season_lines_board" in out  # the plans, with --explain


def test_a_tiny_records_benchmark_on_postgres(
    capsys: pytest.CaptureFixture[str], postgres_databases, tmp_path: Path
) -> None:
    url = postgres_databases.create()
    argv = ["--players", "200", "--matches", "1000", "--guilds", "4", "--repeat", "2"]
    assert main([*argv, "--cache", str(tmp_path), "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "copied to postgresql://" in out and "Postgres" in out and "ratio" in out
    assert "leaderboard, global, by rating, page 1" in out.split("PostgreSQL")[-1]


@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL server programs")
def test_the_kept_postgresql_copy_is_made_once(capsys: pytest.CaptureFixture[str]) -> None:
    # (a folder the server's own account can reach when the tests run as root)
    with tempfile.TemporaryDirectory(prefix="records-cache-") as cache:
        Path(cache).chmod(0o755)
        kept_twice(capsys, cache)


def kept_twice(capsys: pytest.CaptureFixture[str], cache: str) -> None:
    argv = ["--players", "200", "--matches", "1000", "--guilds", "4", "--repeat", "1"]
    argv += ["--cache", cache, "--database-url", "kept"]
    assert main(argv) == 0
    assert "copied to postgresql://" in capsys.readouterr().out
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "the copy kept in" in out and "copied to" not in out
    assert "record a match into the full store" in out.split("PostgreSQL")[-1]
