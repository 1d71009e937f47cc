"""The expert's judgement of one decision (:func:`domino.ai.evaluate.evaluate`): from the
seat's view only, the same for a seed, its best move costs nothing, the rest never less."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domino import Match, preset
from domino.ai.evaluate import Evaluation, evaluate
from domino.ai.expert import ENDGAME_TILES, choose_expert
from domino.ai.fives import fives, fives_values
from tests.domino.ai.helpers import any_opener
from tests.domino.ai.test_players import same_view_two_deals


def midgame(rs_id: str, seed: int, moves: int) -> Match:
    """A match of ``rs_id`` after ``moves`` random moves of its first hand (or fewer)."""
    rng = random.Random(seed)
    m = Match.new(preset(rs_id), seed)
    for _ in range(moves):
        if m.outcome is not None or m.hand_number != 1:
            break
        m = m.apply(rng.choice(m.legal_actions()))
    return m


def test_the_judgement_reads_only_the_seats_view() -> None:
    """Our decision: a review judges a move by what its player could see. Two deals that give
    the seat the same view get the same judgement."""
    for rs_id in ("partners", "draw"):
        view_a, view_b = same_view_two_deals(rs_id)
        assert evaluate(view_a, random.Random(3), 60) == evaluate(view_b, random.Random(3), 60)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["partners", "draw", "cuban"]), st.integers(0, 10**6),
       st.integers(0, 20))
def test_the_best_move_costs_nothing_and_no_move_costs_less(
    rs_id: str, seed: int, moves: int
) -> None:
    m = midgame(rs_id, seed, moves)
    if m.outcome is not None or m.turn is None:
        return
    view = m.view(m.turn)
    judged = evaluate(view, random.Random(seed), 80)
    assert judged.best in view.legal and judged.cost(judged.best) == 0.0
    assert all(judged.cost(a) >= 0.0 for a in view.legal)
    assert judged == evaluate(view, random.Random(seed), 80)  # the same for a seed
    if len(view.legal) > 1:
        # the estimates are the tree search's own: its choice for the same seed and count
        assert judged.best == choose_expert(view, random.Random(seed), samples=80)
        assert set(judged.values) <= set(view.legal)


def test_a_move_the_search_never_tried_counts_as_its_worst() -> None:
    m = Match.new(any_opener(preset("partners")), 4)
    view = m.view(m.turn)
    first, second, *_ = view.legal
    judged = Evaluation(first, {first: 5.0, second: -2.0})
    assert all(judged.cost(a) == 7.0 for a in view.legal[1:])


def test_in_the_endgame_the_estimates_are_the_solved_deals_means() -> None:
    """With ENDGAME_TILES tiles or fewer in the hands, every legal move gets an estimate
    (each pooled deal solved exactly), and the best is the highest."""
    rng = random.Random(5)
    m = Match.new(preset("partners"), 5, None)
    while sum(len(h) for h in m.hands) > ENDGAME_TILES or len(m.legal_actions()) < 2:
        m = m.apply(rng.choice(m.legal_actions()))
    view = m.view(m.turn)
    judged = evaluate(view, random.Random(1), 50)
    assert set(judged.values) == set(view.legal)
    assert judged.values[judged.best] == max(judged.values.values())


def test_all_fives_is_judged_by_its_own_player() -> None:
    """Our decision: in games scored at the ends the expert plays :func:`fives`; its values
    of the plays are the review's estimates."""
    for seed in range(30):
        m = midgame("all-fives", seed, 6)
        if m.outcome is not None or m.turn is None:
            continue
        view = m.view(m.turn)
        if len(view.legal) < 2:
            continue
        judged = evaluate(view, random.Random(0))
        assert judged.best == fives(view) and judged.values == fives_values(view)
