"""Property tests: many random complete matches of every preset keep the invariants."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino import PRESETS, STAGED, Match, Tile, View, preset

PRESET_IDS = sorted({**PRESETS, **STAGED})


VIEW_FIELDS = {
    "ruleset", "seat", "hand", "hand_sizes", "line", "ends", "opener_index", "last_index",
    "pile_size", "sleeping", "turn", "hand_number", "scores", "target", "hands_total",
    "events", "hand_results", "outcome", "legal", "drawn_this_turn", "opener",
    "spinner", "arms", "open_ends", "end_count",
}


def _tiles_in(view: View) -> set[Tile]:
    """Every tile a view shows: own hand, the line, events, finished hands, legal plays."""
    assert {f.name for f in dataclasses.fields(view)} == VIEW_FIELDS, "review new view fields"
    found = set(view.hand or ())
    found |= {Tile(a, b) for a, b in view.line}
    found |= {Tile(a, b) for arm in view.arms for a, b in arm}
    found |= {e.tile for e in view.events if e.tile is not None}
    for r in view.hand_results:
        found |= {Tile(a, b) for a, b in (*r.line, *r.arms[0], *r.arms[1])}
    found |= {a.tile for a in view.legal if hasattr(a, "tile")}
    return found


def check_position(m: Match) -> None:
    """Every tile in exactly one place; hand sizes right; views hide what they must."""
    rs = m.ruleset
    places = [t for h in m.hands for t in h]
    table = [*m.line, *m.arms[0], *m.arms[1]]
    places += [Tile(a, b) for a, b in table] + list(m.pile) + list(m.sleeping)
    counts = Counter(places)
    assert all(c == 1 for c in counts.values()), "a tile is in two places"
    assert set(counts) == set(rs.tiles), "a tile is lost"
    pile_taken = m.outcome is not None and rs.close_gives_pile  # two: the closer's opponent
    for seat in range(rs.seats if not pile_taken else 0):
        plays = sum(1 for e in m.events if e.seat == seat and e.kind == "play")
        draws = sum(1 for e in m.events if e.seat == seat and e.kind == "draw")
        assert len(m.hands[seat]) == rs.hand_size - plays + draws, "wrong hand size"
    if not rs.draw:
        assert not m.pile
    public_tiles = {Tile(a, b) for a, b in table}
    for r in m.hand_results:
        public_tiles |= {Tile(a, b) for a, b in (*r.line, *r.arms[0], *r.arms[1])}
    public = m.public_view()
    assert public.hand is None
    assert _tiles_in(public) <= public_tiles
    for seat in range(rs.seats):
        view = m.view(seat)
        assert view.hand == m.hands[seat]
        assert _tiles_in(view) <= public_tiles | set(m.hands[seat])
        assert view.hand_sizes == tuple(len(h) for h in m.hands)
        assert view.legal == (tuple(m.legal_actions()) if seat == m.turn else ())


def play_match(pid: str, seed: int, check_every: int) -> Match:
    """A random complete match, checking the invariants along the way."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    scores = m.scores
    steps = 0
    hand_steps = 0
    hand = m.hand_number
    while m.turn is not None:
        if steps % check_every == 0:
            check_position(m)
        m = m.apply(rng.choice(m.legal_actions()))
        steps += 1
        hand_steps += 1
        if m.hand_number != hand:
            hand, hand_steps = m.hand_number, 0
        assert hand_steps < 200, "a hand does not end"
        # scores (and penalty totals) never go down
        assert all(b >= a for a, b in zip(scores, m.scores, strict=True))
        scores = m.scores
    check_position(m)
    return m


def check_match_end(m: Match) -> None:
    rs = m.ruleset
    assert m.outcome is not None
    assert len(m.hand_results) == m.hand_number
    totals = [0] * rs.sides
    for r in m.hand_results:
        for side, points in enumerate(r.points):
            totals[side] += points
        if rs.scoring != "penalty" and not rs.end_scoring:
            assert sum(1 for p in r.points if p) <= 1, "only the winning side scores"
    assert tuple(totals) == m.scores, "the scores add up to the hands' points"
    if rs.hands is not None:
        assert m.hand_number == rs.hands
    else:
        assert rs.target is not None
        assert m.scores[m.outcome.winner_side] >= rs.target  # type: ignore[index]
        if rs.end_scoring:  # both sides may pass the target in a hand: the higher one wins
            assert sorted(m.scores)[-2] < m.scores[m.outcome.winner_side]  # type: ignore[index]
        else:
            assert sorted(m.scores)[-2] < rs.target
    data = json.loads(json.dumps(m.to_dict()))
    assert Match.from_dict(data) == m
    assert Match.replay(rs, m.seed, [str(a) for a in m.actions]) == m


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pid=st.sampled_from(PRESET_IDS), seed=st.integers(0, 2**32))
def test_random_matches_keep_invariants(pid: str, seed: int) -> None:
    m = play_match(pid, seed, check_every=3)
    check_match_end(m)


def test_a_thousand_matches_end_and_replay() -> None:
    """1,100 more complete random matches (100 per preset), lighter checks."""
    for pid in PRESET_IDS:
        for seed in range(100):
            m = play_match(pid, 10_000 + seed, check_every=25)
            check_match_end(m)


def test_apply_leaves_the_old_match_unchanged() -> None:
    m = Match.new(preset("draw"), 4)
    snapshot = (m.hands, m.line, m.pile, m.turn, m.scores, m.history)
    for action in m.legal_actions():
        m.apply(action)
    assert (m.hands, m.line, m.pile, m.turn, m.scores, m.history) == snapshot


def test_view_is_a_plain_value() -> None:
    view = Match.new(preset("partners"), 1).view(0)
    assert isinstance(view, View)
    assert not any(isinstance(getattr(view, f.name), Match) for f in dataclasses.fields(view))
