"""The engine's fast paths give exactly what the plain computations give."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domino import PRESETS, Match
from domino.match import NUM, _two_end_plays, shuffle


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.text(max_size=12))
def test_shuffle_is_random_shuffle(n: int, seed: str) -> None:
    """Our decision: deals are replayable from the seed, so the engine's shuffle must draw
    exactly what ``random.Random.shuffle`` draws and leave the generator in the same state."""
    ours, theirs = list(range(n)), list(range(n))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(ours, a)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.getrandbits(64) == b.getrandbits(64)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**28 - 1), st.integers(0, 6), st.integers(0, 6))
def test_cached_plays_are_the_plain_plays(hand: int, left: int, right: int) -> None:
    mask = hand & (NUM[left] | NUM[right])
    plays = _two_end_plays(mask, left, right)
    for play in plays:
        assert play.tile.bit & mask
        number = left if play.end == "left" else right
        assert play.tile.has(number)
    tiles = {p.tile for p in plays}
    assert all(t.bit & mask for t in tiles) and len(tiles) == mask.bit_count()
    if left != right:
        both = sum(1 for t in tiles if t.has(left) and t.has(right))
        assert len(plays) == len(tiles) + both


def test_a_match_replays_the_same_deals() -> None:
    for rs in PRESETS.values():
        first = Match.new(rs, "same seed")
        again = Match.new(rs, "same seed")
        assert first.hands == again.hands and first.turn == again.turn
