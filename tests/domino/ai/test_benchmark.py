"""Smoke test of ``python -m benchmarks.ai``."""

from __future__ import annotations

import pytest

from benchmarks import ai as bench


def test_benchmark_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(
        ["--deals", "2", "--budget", "0.01", "--only", "partners:hard:heaviest,draw:normal:easy"]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split()[:3] == ["rules", "A", "B"]
    assert lines[3].split()[:4] == ["partners", "hard", "heaviest", "4"]
    assert lines[4].split()[:4] == ["draw", "normal", "easy", "4"]


def test_duplicate_deal_swaps_sides() -> None:
    result = bench.play_deal(("draw", "heaviest", "heaviest", 3, 0.01))
    # the same player on both sides: the two plays of a deal mirror each other
    assert result.net[0] == -result.net[1]
    assert result.won[0] == -result.won[1]


def test_the_seer_who_sees_every_hand_beats_the_heaviest_tile_player() -> None:
    """The yardstick searches the true deal, so it should lose almost no hand."""
    won = []
    for seed in range(6):
        won += bench.play_deal(("partners-all", "seer", "heaviest", seed, None)).won
    assert won.count(1) >= 10, won  # the same player on both sides wins about half
