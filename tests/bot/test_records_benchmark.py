"""``python -m benchmarks.records`` fills a store and reports its figures (a tiny run)."""

from __future__ import annotations

import pytest

from benchmarks.records import main


def test_a_tiny_records_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "300", "--matches", "3000", "--guilds", "5", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "3,000 matches" in out
    assert "leaderboard, global, by rating, page 1" in out and "history" in out
