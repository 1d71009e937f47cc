"""``python -m benchmarks.limits`` runs and reports its figures (a tiny run)."""

from __future__ import annotations

import pytest

from benchmarks.limits import main


def test_a_tiny_limits_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "60", "--guilds", "3", "--repeat", "5"]) == 0
    out = capsys.readouterr().out
    assert "60 open lobbies on 3 servers" in out and "ratio" in out
