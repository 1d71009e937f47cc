"""Property tests of the daily deal's pure rules: the legs' deals, the streak, a leg's points."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.daily.service import (
    RESIGNED_LEG,
    VARIANTS,
    day_of,
    deal_of,
    leg_points,
    next_day_at,
    ruleset_of,
    streak_of,
)
from domino import Match, Outcome

DAY0 = dt.date(2026, 1, 1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**62), variant=st.sampled_from(VARIANTS))
def test_every_leg_deals_the_same_tiles_turned_by_one_seat(seed: int, variant: str) -> None:
    """Duplicate style: leg k gives each seat the tiles seat k places after it held in leg 0,
    the undealt tiles in the same order; the day's seed deals leg 0 as it deals any match."""
    rules = ruleset_of(variant)
    first = Match.new(rules, seed, deal_of(variant, seed, 0))
    assert first.hands == Match.new(rules, seed).hands
    for leg in range(rules.seats):
        match = Match.new(rules, seed, deal_of(variant, seed, leg))
        assert match.hands == tuple(
            first.hands[(s + leg) % rules.seats] for s in range(rules.seats)
        )
        assert (match.pile, match.sleeping) == (first.pile, first.sleeping)


@settings(max_examples=200, deadline=None)
@given(played=st.sets(st.integers(0, 40), max_size=30), today=st.integers(0, 40))
def test_the_streak_counts_the_days_in_a_row_up_to_today_or_yesterday(
    played: set[int], today: int
) -> None:
    """Our decision: the days in a row with an attempt ending today, or yesterday while today
    has none yet (a later day in the list, impossible in the store, is ignored)."""
    days = [(DAY0 + dt.timedelta(days=d)).isoformat() for d in sorted(played, reverse=True)]
    end = today if today in played else today - 1
    expected = 0
    while end - expected in played:
        expected += 1
    assert streak_of(days, (DAY0 + dt.timedelta(days=today)).isoformat()) == expected


@settings(max_examples=200, deadline=None)
@given(instant=st.floats(1.6e9, 2.2e9))
def test_the_day_ends_at_the_next_utc_midnight(instant: float) -> None:
    end = next_day_at(instant)
    assert 0 < end - instant <= 86_400
    assert day_of(end - 0.001) == day_of(instant) != day_of(end)


@given(
    scores=st.lists(st.integers(0, 300), min_size=2, max_size=4),
    resigned=st.booleans(),
)
def test_a_legs_points_are_seat_zeros_side_against_the_best_other(
    scores: list[int], resigned: bool
) -> None:
    outcome = Outcome(None, False, "resign", 0) if resigned else Outcome(0, False, "hands")
    points = leg_points(scores, outcome)
    assert points == (RESIGNED_LEG if resigned else scores[0] - max(scores[1:]))
