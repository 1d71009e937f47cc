"""The verdict on a try at "Find a better move" (pure): judged by the search that judged the
decision, so a try costs what the review would have said had it been played."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.review.exercise import (
    BEST,
    BETTER,
    GOOD,
    PLAYED,
    WORSE,
    Exercise,
    _values,
    flagged,
    move_code,
    read_move,
    verdict,
)
from bot.review.judge import INACCURACY, Judged, Position, judge_one
from cogs.review.exercise import MAX_MOVES, move_buttons
from domino import Draw, Pass, Play, Resign, Tile, encode_action
from tests.review.test_evaluate import midgame

FEW = 60
TABLE = 17


def judged(cost: float, seq: int = 3, played: str = "play 1-2", best: str = "play 3-4"
           ) -> Judged:
    return Judged(1, seq, 0, played, best, 10.0 - cost, 10.0, "it is your only move.")


def test_the_exercises_are_the_decisions_of_an_inaccuracys_worth_in_the_matchs_order() -> None:
    """Our decision: a decision is an exercise when it gave away an inaccuracy's worth or more
    (the review's own threshold), in the order it was played."""
    decisions = [judged(9, seq=8), judged(INACCURACY - 0.01, seq=2), judged(INACCURACY, seq=5),
                 judged(25, seq=1), judged(0, seq=4, best="play 1-2")]
    assert [d.seq for d in flagged(decisions)] == [1, 5, 8]


@given(st.sampled_from([Draw(), Pass(), *(Play(Tile(a, b), e) for a in range(7)
                                          for b in range(a, 7)
                                          for e in (None, "left", "right", "up", "down"))]))
def test_a_move_reads_back_from_its_button(action: Play | Draw | Pass) -> None:
    code = move_code(action)
    assert read_move(code) == action and len(code) <= 10


def test_a_forged_move_does_not_read() -> None:
    for code in ("banana", "7-7.middle", "play", "resign.1", ""):
        try:
            read_move(code)
        except ValueError:
            continue
        raise AssertionError(code)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["partners", "draw", "all-fives"]), st.integers(0, 10**6),
       st.integers(0, 14))
def test_a_try_costs_what_the_review_says_had_it_been_played(
    rs_id: str, seed: int, moves: int
) -> None:
    """Our decision: a try is judged by the same search (same seed, same iterations) that
    judged the decision, so the verdict on a move is the review's judgement of that move."""
    m = midgame(rs_id, seed, moves)
    if m.outcome is not None or m.turn is None:
        return
    view = m.view(m.turn)
    legal = [a for a in view.legal if not isinstance(a, Resign)]
    if len(legal) < 2:
        return
    seq = moves
    first = judge_one(Position(1, seq, m.turn, encode_action(legal[0]), view), TABLE, FEW)
    exercise = Exercise(TABLE, 1, first, 1, 1, None, None, m.public_view(), view)
    values = _values(view, TABLE, seq, FEW)
    for action in legal:
        found = verdict(exercise, action, values)
        as_played = judge_one(Position(1, seq, m.turn, encode_action(action), view), TABLE, FEW)
        assert found.cost == as_played.cost or found.outcome == BEST
        if action == exercise.best:
            assert (found.outcome, found.cost) == (BEST, 0.0)
        elif action == exercise.played:
            assert (found.outcome, found.cost) == (PLAYED, first.cost)
        elif found.cost < INACCURACY:
            assert found.outcome == GOOD
        else:
            assert found.outcome == (BETTER if found.cost < first.cost else WORSE)


def test_a_position_with_more_moves_than_buttons_keeps_the_experts_and_the_played() -> None:
    """Our decision: at most 20 move buttons (four rows of five; the fifth row steps), always
    with the expert's move and the one played."""
    m = midgame("draw", 5, 0)
    view = m.view(m.turn)
    many = tuple(Play(Tile(a, b), end) for a in range(7) for b in range(a, 7)
                 for end in ("left", "right"))
    view = replace(view, legal=many)
    best, played = many[-1], many[-2]
    decision = Judged(1, 0, view.seat, encode_action(played), encode_action(best), 0.0, 9.0,
                      "it is your only move.")
    exercise = Exercise(TABLE, 1, decision, 1, 1, None, None, m.public_view(), view)
    shown = [b.custom_id.rsplit(":", 1)[1] for b in move_buttons("en-US", exercise)]
    assert len(shown) == MAX_MOVES and len(set(shown)) == MAX_MOVES
    assert {move_code(best), move_code(played)} <= set(shown)
    assert shown[:MAX_MOVES - 2] == [move_code(a) for a in many[:MAX_MOVES - 2]]
