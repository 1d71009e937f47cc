"""Matches are values: ``apply`` leaves the old match as it was, whatever states share and
however late a hand is dealt, and the fast paths agree with plain re-computations."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domino import PRESETS, STAGED, Action, Draw, Match, Pass, Play, Tile, preset

PRESET_IDS = sorted({**PRESETS, **STAGED})
TWO_ENDED = [pid for pid in PRESET_IDS if not preset(pid).spinner]


def snapshot(m: Match) -> str:
    """Everything a caller can read of a match, as text."""
    parts: list[object] = [
        m.ruleset, m.seed, m.deal, m.hand_number, m.turn, m.hands, m.line, m.ends, m.pile,
        m.sleeping, m.scores, m.hand_results, m.outcome, m.opener, m.forced, m.drawn,
        m.last_player, m.opener_index, m.last_index, m.spinner, m.arms, m.open_ends(),
        m.events, m.history, m.legal_actions(), m.to_dict(),
    ]
    parts += [m.view(seat) for seat in (None, *range(m.ruleset.seats))]
    return repr(parts)


def reference_legal(m: Match) -> list[Action]:
    """The legal actions of a two-ended game, computed plainly from the public state."""
    rs = m.ruleset
    if m.turn is None:
        return []
    hand = m.hands[m.turn]
    plays: list[Action] = []
    if not m.line:
        if m.forced is not None:
            return [Play(m.forced, None)]
        return [Play(t, None) for t in hand]
    assert m.ends is not None
    left, right = m.ends
    for tile in hand:
        if left == right:
            if tile.has(left):
                plays.append(Play(tile, "right"))
            continue
        if tile.has(left):
            plays.append(Play(tile, "left"))
        if tile.has(right):
            plays.append(Play(tile, "right"))
    if plays:
        return plays
    if (
        rs.draw
        and m.pile_size > rs.draw_floor
        and (rs.draw_limit is None or m.drawn < rs.draw_limit)
    ):
        return [Draw()]
    return [Pass()]


def reference_line(m: Match) -> tuple[tuple[int, int], ...]:
    """The line rebuilt from the hand's public events."""
    line: list[tuple[int, int]] = []
    for e in m.events:
        if e.kind == "start" or (e.kind == "play" and e.end is None):
            assert e.tile is not None
            line = [(e.tile.a, e.tile.b)]
        elif e.kind == "play":
            assert e.tile is not None
            if e.end == "left":
                line.insert(0, (e.tile.other(line[0][0]), line[0][0]))
            else:
                line.append((line[-1][1], e.tile.other(line[-1][1])))
    return tuple(line)


@settings(max_examples=25, deadline=None)
@given(pid=st.sampled_from(PRESET_IDS), seed=st.integers(0, 2**32))
def test_apply_leaves_every_earlier_state_unchanged(pid: str, seed: int) -> None:
    """Our decision: a Match is a value. Every state of a random match (the states just
    after a hand ended included) reads the same after the later states were made, and after
    every other legal action was tried on it."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    states: list[tuple[Match, str]] = []
    while m.turn is not None:
        legal = m.legal_actions()
        if rng.random() < 0.2:
            before = snapshot(m)
            for other in legal:
                m.apply(other)
            assert snapshot(m) == before
        states.append((m, snapshot(m)) if rng.random() < 0.2 else (m, ""))
        m = m.apply(rng.choice(legal))
    for state, seen in states:
        if seen:
            assert snapshot(state) == seen


@settings(max_examples=60, deadline=None)
@given(pid=st.sampled_from(TWO_ENDED), seed=st.integers(0, 2**32))
def test_legal_actions_and_line_match_plain_computations(pid: str, seed: int) -> None:
    """The cached legal actions and the line kept as a list of placements equal what the
    public state gives plainly, in the same order."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    while m.turn is not None:
        assert m.legal_actions() == reference_legal(m)
        assert m.line == reference_line(m)
        m = m.apply(rng.choice(m.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(pid=st.sampled_from(PRESET_IDS), seed=st.integers(0, 2**32), look=st.integers(0, 5))
def test_a_following_hand_reads_the_same_whatever_is_read_first(
    pid: str, seed: int, look: int
) -> None:
    """The hand after a finished one is dealt when first read: whichever field is read first,
    it is the hand that the seed deals, and copies of that state are equal to it."""
    rs = preset(pid)
    rng = random.Random(seed)
    m = Match.new(rs, seed)
    while m.turn is not None and m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
    if m.turn is None:
        return
    twin = Match.replay(rs, seed, m.actions)
    first = (lambda: m.turn, lambda: m.hands, lambda: m.line, lambda: m.pile,
             lambda: m.view(None), lambda: pickle.dumps(m))[look]
    first()
    assert snapshot(m) == snapshot(twin)
    assert m == twin and hash(m) == hash(twin)
    assert pickle.loads(pickle.dumps(twin)) == m
    assert copy.deepcopy(m) == twin


def test_two_moves_from_one_state_make_two_independent_matches() -> None:
    """Our decision: branching is allowed; each branch replays to itself."""
    rs = preset("partners")
    rng = random.Random(5)
    m = Match.new(rs, 5)
    for _ in range(6):
        m = m.apply(rng.choice(m.legal_actions()))
    branches = []
    for action in m.legal_actions():
        b = m.apply(action)
        while b.turn is not None:
            b = b.apply(rng.choice(b.legal_actions()))
        branches.append(b)
    for b in branches:
        assert Match.replay(rs, 5, b.actions) == b


def test_setting_a_field_changes_only_that_match() -> None:
    """Tests construct positions by setting a field (``m.scores = ...``); the states that
    share its hand with it keep theirs."""
    m = Match.new(preset("partners"), 2)
    after = m.apply(m.legal_actions()[0])
    m.scores = (40, 10)
    assert m.scores == (40, 10)
    assert after.scores == (0, 0)
    assert m.apply(m.legal_actions()[0]).scores == (40, 10)


def test_a_play_with_a_text_end_is_the_same_play() -> None:
    """An end read from text (not the engine's own string) is checked in full and lands
    where the engine's own play would."""
    m = Match.new(preset("partners"), 1, {"hands": [
        ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["5-6", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"],
        ["4-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"],
        ["3-6", "3-4", "3-5", "4-4", "4-5", "5-5", "0-0"],
    ]})
    m = m.apply(Play(Tile(6, 6), None))
    end = "".join(["ri", "ght"])  # not the interned literal
    ours = m.apply(Play(Tile(5, 6), end))  # type: ignore[arg-type]
    theirs = m.apply(Play(Tile(5, 6), "right"))
    assert ours == theirs and ours.line == ((6, 6), (6, 5))
