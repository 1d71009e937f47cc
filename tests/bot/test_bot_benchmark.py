"""``python -m benchmarks.bot`` runs and reports its figures (a tiny run)."""

from __future__ import annotations

import pytest

from benchmarks.bot import HERE, main, percentile


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0 and percentile(values, 99) == 99.0
    assert percentile([3.0], 99) == 3.0


def test_a_tiny_benchmark_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "3", "--think", "0,0.01", "--seconds", "0.5", "--no-render"]) == 0
    out = capsys.readouterr().out
    assert out.count("actions/s") == 2 and "p99" in out


def test_the_report_says_how_late_the_event_loop_woke(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "2", "--think", "0", "--seconds", "0.3", "--no-render"]) == 0
    assert "event loop late:" in capsys.readouterr().out


def test_against_another_checkout_runs_both_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """Against itself here (a real use names an older worktree)."""
    argv = ["--tables", "2", "--think", "0", "--seconds", "0.3", "--no-render", "--rounds", "1"]
    assert main([*argv, "--against", str(HERE)]) == 0
    out = capsys.readouterr().out
    assert "think 0s, 2 tables: actions/s" in out and "x); p99" in out
