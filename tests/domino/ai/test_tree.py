"""The information-set tree search ``expert`` plays by."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino import PRESETS, Match, Play, Tile
from domino.ai import tree
from domino.ai.sim import mask_of, to_move
from domino.ai.tree import tree_search
from tests.domino.ai.helpers import position


def advanced(rs_id: str, seed: int, moves: int) -> Match:
    """A hand of ``rs_id`` after ``moves`` random actions (or its end, whichever first)."""
    rng = random.Random(seed)
    match = Match.new(PRESETS[rs_id], seed)
    for _ in range(moves):
        if match.hand_number != 1 or match.turn is None:
            break
        match = match.apply(rng.choice(match.legal_actions()))
    return match


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["partners", "cuban", "three", "draw", "two", "penalty", "seven-seven"]),
    st.integers(0, 10**6),
    st.integers(0, 30),
    st.sampled_from([0, 12, 100]),
)
def test_every_variant_gets_a_legal_action(
    rs_id: str, seed: int, moves: int, endgame: int
) -> None:
    """In the tree or, late in a hand, solving each deal."""
    match = advanced(rs_id, seed, moves)
    if match.hand_number != 1 or match.turn is None:
        return
    view = match.view(match.turn)
    stats: dict[str, float] = {}
    action = tree_search(view, random.Random(seed), 1.0, 40, stats, endgame=endgame)
    assert action in view.legal
    if len(view.legal) > 1:
        assert stats["rounds"] == 40


def test_a_sure_win_is_found() -> None:
    line = [(4, 2), (2, 1), (1, 1), (1, 0), (0, 3), (3, 1), (1, 5), (5, 0), (0, 6), (6, 1)]
    view = position("draw", "1-4 4-6", line, hand_sizes=(2, 14), pile=2)
    choice = tree_search(view, random.Random(3), 1.0, 200)
    assert isinstance(choice, Play) and choice.tile == Tile(1, 4)


def test_the_root_move_tried_most_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every iteration passes through one root move; the one with most visits is returned."""
    match = advanced("partners", 7, 4)
    assert match.turn is not None
    view = match.view(match.turn)
    assert len(view.legal) > 1
    roots: list[tree._Node] = []
    real = tree._Node

    def spy() -> tree._Node:
        node = real()
        if not roots:
            roots.append(node)
        return node

    monkeypatch.setattr(tree, "_Node", spy)
    action = tree_search(view, random.Random(1), 1.0, 300)
    root = roots[0]
    visits = {m: child.visits for m, child in root.children.items()}
    assert sum(visits.values()) == 300
    assert set(visits) <= {to_move(a) for a in view.legal}
    assert visits[to_move(action)] == max(visits.values())
    for child in root.children.values():
        assert child.chances >= child.visits - 1


def test_weights_steer_the_deals_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal weight that rules out every deal but those with a tile in one hand: every
    iteration plays such a deal."""
    match = next(
        m for k in range(4, 20) if len((m := advanced("partners", 11, k)).legal_actions()) > 1
    )
    assert match.turn is not None
    me = match.turn
    view = match.view(me)
    partner = (me + 2) % 4
    tile = match.hands[partner][0]
    bit = 1 << (tile.a * 10 + tile.b)
    seen: list[bool] = []
    real_descend = tree._descend

    def spy(node: tree._Node, sim: object, rng: random.Random, side_of: object) -> object:
        seen.append(bool(sim.hands[partner] & bit))  # type: ignore[attr-defined]
        return real_descend(node, sim, rng, side_of)  # type: ignore[arg-type]

    monkeypatch.setattr(tree, "_descend", spy)
    tree_search(
        view, random.Random(2), 1.0, 200,
        weigh=lambda hands: 0.0 if hands[partner] & bit else -200.0,
    )
    assert len(seen) == 200 and all(seen)


def _exact(match: Match, side: int) -> float:
    """The hand's value for ``side`` with every seat seeing every hand, by plain minimax
    over the public ``Match`` API."""
    if match.hand_number != 1 or match.turn is None:
        points = match.hand_results[0].points
        return points[side] - points[1 - side]
    values = [_exact(match.apply(a), side) for a in match.legal_actions()]
    return max(values) if match.ruleset.side_of(match.turn) == side else min(values)


def test_the_endgame_solves_each_deal_exactly() -> None:
    """Late in a partners hand, with only the true deal weighed in, the endgame search plays
    a move worth as much as the best one by minimax on the real match."""
    tested = 0
    for seed in range(40):
        match = advanced("partners", seed, 0)
        rng = random.Random(seed)
        while match.turn is not None and sum(len(h) for h in match.hands) > 8:
            match = match.apply(rng.choice(match.legal_actions()))
        if match.turn is None or match.hand_number != 1 or len(match.legal_actions()) < 2:
            continue
        me = match.turn
        side = match.ruleset.side_of(me)
        view = match.view(me)
        true = [mask_of(hand) for hand in match.hands]
        worth = {a: _exact(match.apply(a), side) for a in view.legal}
        if len(set(worth.values())) < 2:
            continue
        stats: dict[str, float] = {}
        choice = tree_search(
            view, random.Random(seed), 1.0, 400, stats, endgame=8,
            weigh=lambda hands, true=true: 0.0 if hands == true else -300.0,
        )
        assert worth[choice] == max(worth.values())
        assert stats["rounds"] == min(tree.POOL, 400)
        tested += 1
    assert tested >= 5
