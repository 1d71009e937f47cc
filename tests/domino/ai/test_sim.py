"""The bitmask simulator reproduces the engine's rules for one hand exactly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domino import PRESETS, Match, Tile
from domino.ai.belief import Belief
from domino.ai.hard import root_sim
from domino.ai.policy import rollout_move
from domino.ai.sim import BIT, Sim, to_action, to_move

SEEDS = 40


def state(sim: Sim) -> tuple[object, ...]:
    return (
        sim.hands,
        sim.pile,
        sim.left,
        sim.right,
        sim.table,
        sim.turn,
        sim.drawn,
        sim.last,
        sim.forced,
    )


def from_view(match: Match) -> Sim:
    """The simulator built the way ``hard`` builds it: a view plus the (true) hidden tiles."""
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    belief = Belief.from_view(view)
    assert belief.consistent
    hands = [0 if s == seat else sum(BIT[t] for t in h) for s, h in enumerate(match.hands)]
    pile = [BIT[t].bit_length() - 1 for t in reversed(match.pile)]
    return root_sim(view, belief, hands, pile)


def walk(rs_id: str, seed: int, kinds: Counter[str]) -> None:
    """Play a whole match with random (or heuristic) moves, comparing sim and engine."""
    rng = random.Random(seed)
    match = Match.new(PRESETS[rs_id], seed)
    sim = Sim.from_match(match)
    smart = seed % 2 == 1  # half the matches follow the rollout heuristic, for other endings
    while match.outcome is None:
        legal = match.legal_actions()
        assert [to_action(m) for m in sim.legal()] == legal
        assert state(from_view(match)) == state(sim)
        action = to_action(rollout_move(sim)) if smart else rng.choice(legal)
        pile_before = match.pile_size
        sim.apply(to_move(action))
        after = match.apply(action)
        if after.hand_number != match.hand_number or after.outcome is not None:
            expected = after.hand_results[-1]
            got = sim.result
            assert got is not None
            assert (got.kind, got.winner_seat, got.winner_side, got.points, got.pips) == (
                expected.kind,
                expected.winner_seat,
                expected.winner_side,
                expected.points,
                expected.pips,
            ), (rs_id, seed, match.hand_number)
            kinds[got.kind] += 1
            if got.kind == "block" and pile_before:
                kinds["block with pile"] += 1
            if after.outcome is None:
                sim = Sim.from_match(after)
        else:
            assert sim.result is None
            assert state(Sim.from_match(after)) == state(sim)
        match = after


TWO_ENDED = [rid for rid, rs in PRESETS.items() if not rs.spinner]


@pytest.mark.parametrize("rs_id", TWO_ENDED)
def test_sim_matches_engine(rs_id: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(SEEDS):
        walk(rs_id, seed, kinds)
    assert kinds["domino"] and kinds["block"], kinds
    if PRESETS[rs_id].close_gives_pile:
        assert kinds["block with pile"], kinds  # two: the closer's opponent takes the pile


def test_sim_refuses_a_spinner() -> None:
    """The simulator models a line with two ends; All Fives' computers use domino.ai.fives."""
    spinners = [rid for rid, rs in PRESETS.items() if rs.spinner]
    assert spinners == ["all-fives"]
    with pytest.raises(ValueError, match="no spinner"):
        Sim.from_match(Match.new(PRESETS["all-fives"], 1))


def test_conversions_round_trip() -> None:
    match = Match.new(PRESETS["draw"], 3)
    for action in match.legal_actions():
        assert to_action(to_move(action)) is action
    tile = Tile(2, 5)
    assert to_move(to_action(BIT[tile].bit_length() - 1 << 2 | 1)) >> 2 == 25
