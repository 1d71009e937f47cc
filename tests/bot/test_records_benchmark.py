"""``python -m benchmarks.records`` fills a store and reports its figures (a tiny run); a second
run reuses the kept store (and the kept PostgreSQL copy)."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

import pytest

from benchmarks.records import _migrate, fill, main
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


def test_the_filling_writes_the_triggers_tables_in_bulk_and_puts_the_triggers_back(
    tmp_path: Path,
) -> None:
    """The records' triggers are off while the synthetic records are filled; their tables
    are then written in bulk: each board's size as counted from the lines, each server's
    stamp of the pages at least its recorded matches, and every trigger back."""
    path = tmp_path / "filled.sqlite3"
    asyncio.run(_migrate(path))
    conn = sqlite3.connect(path)
    triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    before = conn.execute(triggers).fetchall()
    conn.close()
    fill(path, 200, 1500, 4, 1)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute(triggers).fetchall() == before
        sizes = "SELECT * FROM record_board_sizes ORDER BY scope, bucket"
        kept = conn.execute(sizes).fetchall()
        assert kept
        conn.execute("DELETE FROM record_board_sizes")  # what migration 0821 counts
        conn.execute(
            "INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle,"
            " idle_rated) SELECT scope, bucket, sum(hidden = 0), sum(hidden = 0 AND rating IS"
            " NOT NULL), sum(hidden = 2), sum(hidden = 2 AND rating IS NOT NULL)"
            " FROM record_stats WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket"
        )
        assert conn.execute(sizes).fetchall() == kept
        short = conn.execute(
            "SELECT count(*) FROM (SELECT guild_id, count(*) AS n FROM record_matches"
            " GROUP BY guild_id) m LEFT JOIN web_boards w ON w.guild_id = m.guild_id"
            " WHERE coalesce(w.stamp, 0) < m.n"
        ).fetchone()[0]
        assert short == 0
    finally:
        conn.close()
