"""The computer players of All Fives value the points scored at the ends."""

from __future__ import annotations

import random

import pytest

from domino import Match, Play, Tile, preset
from domino.ai import LEVELS, choose
from tests.domino.test_fives import FIVES, PILE, S0, S1


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_the_points_at_the_ends(level: str) -> None:
    """After the 5-5 spinner, 0-5 makes 10 + 0 = 10; 3-5 (13) and 5-6 (16) score nothing."""
    m = Match.new(FIVES, 1, {"hands": [S0, S1], "pile": PILE}).apply(Play(Tile(5, 5)))
    assert choose(m.view(1), level, rng=random.Random(1)) == Play(Tile(0, 5), "right")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_finishes_matches_with_legal_moves(players: int) -> None:
    rs = preset("all-fives", players=players, target=100)
    rng = random.Random(players)
    for seed in range(2):
        m = Match.new(rs, seed)
        while m.turn is not None:
            view = m.view(m.turn)
            action = choose(view, LEVELS[m.turn % len(LEVELS)], rng=rng, samples=4)
            assert action in view.legal
            m = m.apply(action)
        assert m.outcome is not None


def test_normal_beats_random_play() -> None:
    """Two players, 40 matches to 150: the end-scoring player wins most of them."""
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        m = Match.new(FIVES, seed)
        smart = seed % 2
        while m.turn is not None:
            level = "normal" if m.turn == smart else "easy"
            m = m.apply(choose(m.view(m.turn), level, rng=rng))
        assert m.outcome is not None
        wins += m.outcome.winner_side == smart
    assert wins >= 30
