"""``python -m benchmarks.bot`` runs and reports its figures (a tiny run)."""

from __future__ import annotations

import pytest

from benchmarks.bot import main, percentile


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0 and percentile(values, 99) == 99.0
    assert percentile([3.0], 99) == 3.0


def test_a_tiny_benchmark_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "3", "--think", "0,0.01", "--seconds", "0.5", "--no-render"]) == 0
    out = capsys.readouterr().out
    assert out.count("actions/s") == 2 and "p99" in out
