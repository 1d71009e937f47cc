"""The quick match's rule (``bot/queue/matching.py``), by properties: our decisions in
docs/queue.md ("Our decision")."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.queue.matching import (
    DEFAULT_LEVELS,
    Seating,
    Waiting,
    arrange,
    gap_limit,
    level_for,
    match,
    plan,
)
from bot.queue.service import SHAPES
from bot.queue.values import ANY

VARIANTS = ("partners", "draw", "three", "seven-seven")
FAMILY = {v: SHAPES[v].family for v in VARIANTS}


@st.composite
def queues(draw: st.DrawFn, variants: tuple[str, ...] = (*VARIANTS, ANY)) -> list[Waiting]:
    count = draw(st.integers(0, 40))
    out = []
    for i in range(count):
        variant = draw(st.sampled_from(variants))
        joined = draw(st.floats(0, 1000, allow_nan=False))
        rating = draw(st.floats(-10, 10, allow_nan=False))
        out.append(Waiting(
            user_id=i + 1,
            variant=variant,
            joined_at=joined,
            fill_at=joined + 60,
            computers=draw(st.booleans()),
            ratings={f: rating for f in set(FAMILY.values())},
        ))
    return out


def seated_people(tables: list[Seating]) -> list[int]:
    return [p for t in tables for p in t.seated]


@settings(max_examples=300, deadline=None)
@given(queues(), st.floats(0, 2000, allow_nan=False))
def test_no_one_is_seated_twice_and_each_fits_his_table(waiting: list[Waiting], now: float) -> None:
    tables = match(waiting, now, SHAPES, default="partners")
    seated = seated_people(tables)
    assert len(seated) == len(set(seated))
    by_id = {w.user_id: w for w in waiting}
    for table in tables:
        assert len(table.people) == SHAPES[table.variant].people
        for p in table.seated:
            assert by_id[p].variant in (table.variant, ANY)
        if None in table.people:  # computers only for people who accept them, after the wait
            assert table.level is not None
            assert all(by_id[p].computers for p in table.seated)
            assert now >= by_id[table.anchor].fill_at


@settings(max_examples=300, deadline=None)
@given(queues(variants=("draw",)))
def test_the_longest_waiting_are_seated_first(waiting: list[Waiting]) -> None:
    """Before anyone's computers are due and without the rating range: every full table is
    made, the oldest person of the queue is always seated, and nobody is passed over by more
    than a table's worth of later arrivals (the window)."""
    now = -1.0
    tables = match(waiting, now, SHAPES, default="draw", ranged=False)
    order = sorted(waiting, key=lambda w: (w.joined_at, w.user_id))
    assert len(tables) == len(waiting) // 2
    seated = set(seated_people(tables))
    if len(order) >= 2:
        assert order[0].user_id in seated
    left = [w for w in order if w.user_id not in seated]
    assert len(left) == len(waiting) % 2
    for table in tables:  # each table's people come from its anchor's window of 2 more
        anchor = next(i for i, w in enumerate(order) if w.user_id == table.anchor)
        behind = [w.user_id for w in order[anchor + 1:] if w.user_id not in seated_before(
            tables, table)]
        assert set(table.seated) - {table.anchor} <= set(behind[:2])


def seated_before(tables: list[Seating], table: Seating) -> set[int]:
    return set(seated_people(tables[: tables.index(table)]))


@settings(max_examples=300, deadline=None)
@given(queues(variants=("partners", "draw", "three")))
def test_the_rating_gap_is_never_wider_than_first_come_first_served(
    waiting: list[Waiting],
) -> None:
    """The first table (the same anchor either way) has a spread no wider than the one a plain
    first-come-first-served queue would seat."""
    ours = match(waiting, -1.0, SHAPES, default="partners", ranged=False)
    fcfs = match(waiting, -1.0, SHAPES, default="partners", slack=0, ranged=False)
    assert [t.anchor for t in ours[:1]] == [t.anchor for t in fcfs[:1]]
    if ours:
        assert ours[0].gap <= fcfs[0].gap + 1e-9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=4, max_size=4))
def test_partners_sit_across_in_teams_as_even_as_can_be(ratings: list[float]) -> None:
    sides = SHAPES["partners"].sides
    assert sides == ((0, 2), (1, 3))  # partners sit across
    order = arrange(ratings, sides)
    assert sorted(order) == [0, 1, 2, 3]

    def diff(o: tuple[int, ...]) -> float:
        return abs(ratings[o[0]] + ratings[o[2]] - ratings[o[1]] - ratings[o[3]])

    assert all(diff(order) <= diff(o) + 1e-9 for o in itertools.permutations(range(4)))


@settings(max_examples=300, deadline=None)
@given(queues(), st.floats(0, 2000, allow_nan=False))
def test_tables_of_people_keep_within_the_anchors_widening_range(
    waiting: list[Waiting], now: float
) -> None:
    """Our decision: a table of people only is opened when its spread is within the range of
    its anchor, which widens as he waits; one that could not be says when to look again."""
    made = plan(waiting, now, SHAPES, default="partners")
    by_id = {w.user_id: w for w in waiting}
    for table in made.tables:
        if table.level is None:
            assert table.gap <= gap_limit(now - by_id[table.anchor].joined_at) + 1e-9
    if made.retry_at is not None:
        assert made.retry_at >= now


def test_a_wide_gap_waits_until_the_range_has_widened() -> None:
    weak = Waiting(1, "draw", 0.0, 10_000.0, True, {"two-player": -5.0})
    strong = Waiting(2, "draw", 0.0, 10_000.0, True, {"two-player": 5.0})
    early = plan([weak, strong], 10.0, SHAPES, default="draw")
    assert not early.tables and early.retry_at == 70.0  # a spread of 10: 3 + 0.1 x 70 s
    (table,) = plan([weak, strong], 70.0, SHAPES, default="draw").tables
    assert set(table.seated) == {1, 2} and table.level is None


def test_computers_of_the_level_nearest_the_people_fill_after_the_wait() -> None:
    strong = Waiting(1, "partners", 0.0, 60.0, True, {"partnership": 5.5})
    assert match([strong], 59.0, SHAPES, default="partners") == []
    (table,) = match([strong], 60.0, SHAPES, default="partners")
    assert table.people.count(None) == 3 and table.level == "expert"
    assert level_for(0.0, DEFAULT_LEVELS) in ("normal", "hard")
    refuses = Waiting(2, "partners", 0.0, 60.0, False, {})
    assert match([refuses], 10_000.0, SHAPES, default="partners") == []


def test_any_takes_the_variant_the_oldest_other_asked_for_else_the_servers() -> None:
    a = Waiting(1, ANY, 0.0, 60.0)
    b = Waiting(2, "three", 1.0, 61.0)
    c = Waiting(3, ANY, 2.0, 62.0)
    (table,) = match([a, b, c], 0.0, SHAPES, default="partners")
    assert table.variant == "three" and set(table.seated) == {1, 2, 3}
    (alone,) = match([a], 60.0, SHAPES, default="draw")
    assert alone.variant == "draw" and alone.people.count(None) == 1
