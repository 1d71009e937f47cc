"""The play model ``expert`` weighs deals with, and ``python -m benchmarks.playmodel`` that
fits it."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import playmodel
from benchmarks.playmodel import Choice, fit, nll, record
from domino import PRESETS, Match, Play
from domino.ai.expert import FEATURES, WEIGHTS, model_features, model_score, plays_on
from domino.ai.sim import mask_of, to_move


def _positions(seed: int) -> list[Match]:
    """The positions of one random partners hand with a tile on the line."""
    rng = random.Random(seed)
    match = Match.new(PRESETS["partners"], seed)
    out = []
    while match.turn is not None and match.hand_number == 1:
        if match.line:
            out.append(match)
        match = match.apply(rng.choice(match.legal_actions()))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_plays_on_are_the_legal_plays(seed: int) -> None:
    for match in _positions(seed):
        assert match.turn is not None
        view = match.view(match.turn)
        left, right = view.ends  # type: ignore[misc]
        hand = mask_of(match.hands[match.turn])
        legal = sorted(to_move(a) for a in view.legal if isinstance(a, Play))
        assert sorted(plays_on(hand, left, right)) == legal


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 127), st.integers(0, 127))
def test_a_plays_score_is_the_weights_times_its_features(
    seed: int, lack_next: int, lack_partner: int
) -> None:
    for match in _positions(seed):
        assert match.turn is not None
        left, right = match.view(match.turn).ends  # type: ignore[misc]
        hand = mask_of(match.hands[match.turn])
        fresh = mask_of([t for h in match.hands for t in h])  # no tiles left to draw
        for move in plays_on(hand, left, right):
            args = (move, hand, left, right, lack_next, lack_partner, fresh)
            features = model_features(*args)
            assert len(features) == len(FEATURES) == len(WEIGHTS)
            expected = sum(w * f for w, f in zip(WEIGHTS, features, strict=True))
            score = model_score(*args)
            assert math.isclose(score, expected, abs_tol=1e-9)


def test_the_features_read_the_play() -> None:
    """With 2-6 alone on the line, 6-6 on the 6 from a hand 6-6 6-3 2-4: 12 pips from three
    tiles, a double, 6-3 follows the 6 and 2-4 the 2, the ends differ, it covers a 6 (6-3
    left), keeps every number, and nine tiles of 6s and 2s are elsewhere."""
    hand = sum(1 << (a * 10 + b) for a, b in ((6, 6), (3, 6), (2, 4)))
    fresh = mask_of(PRESETS["partners"].tiles) & ~(1 << 26)
    move = 66 * 4 + 1
    lack_next = 1 << 2  # the next seat lacks 2s: one open end
    features = dict(zip(
        FEATURES, model_features(move, hand, 6, 2, lack_next, 1 << 6, fresh), strict=True
    ))
    assert features == {
        "pips": 12, "early_pips": 12 * 3 / 7, "double": 1.0, "follow": 2, "same": 0.0,
        "lock": 0.0, "lack": 1.0, "partner_lack": 1.0, "covered": 1, "lost": 0, "open_out": 9,
    }
    # 2-4 on the 2 instead: it leaves the hand without 2s and 4s and opens a 4 beside the 6
    # (elsewhere: 0-6 1-6 4-6 5-6 and 0-4 1-4 3-4 4-4 4-5)
    features = dict(zip(
        FEATURES, model_features(24 * 4 + 2, hand, 6, 2, 0, 0, fresh), strict=True
    ))
    assert features["lost"] == 2 and features["covered"] == 0 and features["follow"] == 2
    assert features["open_out"] == 9


def _synthetic(weights: list[float], count: int, rng: random.Random) -> list[Choice]:
    """Choices drawn from the softmax of ``weights`` over random options."""
    out = []
    for _ in range(count):
        rows = [
            tuple(float(rng.randint(0, 12 if k == 0 else 2)) for k in range(len(weights)))
            for _ in range(rng.randint(2, 4))
        ]
        scores = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
        pick = rng.choices(range(len(rows)), [math.exp(s) for s in scores])[0]
        out.append(Choice("x", 0, rows, [0.0] * len(rows), pick))
    return out


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    rng = random.Random(5)
    true = [0.2, 0.1, 0.8, 0.3, 0.5, 0.4, 0.3, 0.1, -0.4, -0.6, -0.2]
    data = _synthetic(true, 4000, rng)
    fitted = fit(data)
    assert max(abs(a - b) for a, b in zip(fitted, true, strict=True)) < 0.15, fitted
    assert nll(fitted, data) <= nll(true, data) + 0.005
    assert nll(fitted, data) < nll([0.0] * len(true), data) - 0.05


def test_recorded_plays_are_the_players_own_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each recorded play had alternatives, its options are the legal plays of the hand it
    came from, and the choice is one of them; both sides' plays are kept."""
    monkeypatch.setattr(playmodel, "ITERATIONS", 30)
    choices = record(("hard", 3))
    assert {c.player for c in choices} == {"expert", "hard"}
    for c in choices:
        assert len(c.rows) == len(c.old) >= 2
        assert 0 <= c.chosen < len(c.rows)
        assert all(len(row) == len(FEATURES) for row in c.rows)
