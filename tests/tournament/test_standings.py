"""Standings: match points 2/1/0, then point difference, Buchholz (individually minus
partners'), head-to-head and rating, on hand-made events; which tie-break decided each line."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import TIE_BREAKS, Bye, Entrant, Result, Standing, TableResult
from bot.tournaments.standings import standings
from tests.tournament.test_pairing import random_history


def people(*ratings: float) -> list[Entrant]:
    return [Entrant(i, r, (100 + i,)) for i, r in enumerate(ratings, start=1)]


def lines(results: list[Result], ents: list[Entrant], fmt: str = "single") -> list[tuple]:
    return [(s.rank, s.entrant, s.match_points, s.decided_by)
            for s in standings(fmt, ents, results)]  # type: ignore[arg-type]


def test_match_points_then_point_difference() -> None:
    # The issue: match points 2 / 1 / 0 (ahead / level / behind), then the difference of
    # points (tantos) for and against.
    ents = people(1500, 1500, 1500, 1500)
    results: list[Result] = [
        TableResult(1, ((1,), (2,)), (100, 20)),
        TableResult(1, ((3,), (4,)), (60, 60)),
    ]
    table = standings("single", ents, results)
    assert [(s.entrant, s.match_points, s.difference) for s in table] == [
        (1, 2, 80), (3, 1, 0), (4, 1, 0), (2, 0, -80)]
    assert [s.decided_by for s in table] == [None, "match_points", None, "match_points"]
    assert [s.rank for s in table] == [1, 2, 2, 4]  # 3 and 4: equal on every tie-break
    assert (table[0].wins, table[1].draws, table[3].losses) == (1, 1, 1)
    assert (table[0].points_for, table[0].points_against) == (100, 20)


def test_difference_separates_equal_match_points() -> None:
    ents = people(1500, 1500, 1500, 1500)
    results: list[Result] = [
        TableResult(1, ((1,), (2,)), (100, 90)),
        TableResult(1, ((3,), (4,)), (100, 10)),
    ]
    assert lines(results, ents)[:2] == [(1, 3, 2, None), (2, 1, 2, "difference")]


def test_buchholz_counts_opponents_match_points() -> None:
    # FIDE Handbook C.07 (tie-break regulations), Buchholz: the sum of the opponents' scores.
    # 1 and 2 both won by 50 and lost by 50; 1's opponents did better.
    ents = people(1500, 1500, 1500, 1500, 1500, 1500)
    results: list[Result] = [
        TableResult(1, ((1,), (3,)), (100, 50)),  # 3 then wins twice
        TableResult(1, ((2,), (4,)), (100, 50)),
        TableResult(1, ((5,), (6,)), (100, 50)),
        TableResult(2, ((3,), (5,)), (100, 50)),
        TableResult(2, ((1,), (6,)), (50, 100)),
        TableResult(2, ((2,), (4,)), (50, 100)),
    ]
    table = {s.entrant: s for s in standings("single", ents, results)}
    # 1 met 3 (2 points) and 6 (2 points); 2 met 4 twice (2 points each time).
    assert (table[1].buchholz, table[2].buchholz) == (4, 4)
    results.append(TableResult(3, ((3,), (4,)), (100, 0)))
    table = {s.entrant: s for s in standings("single", ents, results)}
    assert (table[1].buchholz, table[2].buchholz) == (6, 4)
    order = [s.entrant for s in standings("single", ents, results)]
    assert order.index(1) < order.index(2)
    assert standings("single", ents, results)[order.index(2)].decided_by == "buchholz"


def test_a_bye_counts_as_its_own_score_in_buchholz() -> None:
    # The issue: a bye is worth 2 match points and difference 0, and counts as the entrant's
    # own score, so it lowers nobody's tie-break.
    ents = people(1500, 1500, 1500)
    results: list[Result] = [
        Bye(1, 1),
        TableResult(1, ((2,), (3,)), (70, 30)),
        TableResult(2, ((1,), (2,)), (50, 50)),
        Bye(2, 3),
    ]
    table = {s.entrant: s for s in standings("single", ents, results)}
    assert (table[1].match_points, table[1].difference, table[1].byes) == (3, 0, 1)
    # 1: own score (3) for the bye + opponent 2 (3 points).
    assert table[1].buchholz == 3 + 3
    # 3: opponent 2 (3) + own score for the bye (2).
    assert table[3].buchholz == 3 + 2


def test_head_to_head_then_rating() -> None:
    # 1 and 2 end level on match points, difference (+10) and Buchholz (4); 2 beat 1.
    ents = people(1600, 1400, 1500, 1500, 1500, 1500)
    results: list[Result] = [
        TableResult(1, ((1,), (2,)), (30, 70)),
        TableResult(1, ((5,), (6,)), (50, 40)),
        TableResult(1, ((3,), (4,)), (60, 40)),
        TableResult(2, ((1,), (5,)), (80, 30)),
        TableResult(2, ((2,), (6,)), (30, 60)),
        TableResult(2, ((3,), (4,)), (60, 40)),
    ]
    table = standings("single", ents, results)
    by = {s.entrant: s for s in table}
    assert (by[1].match_points, by[1].difference, by[1].buchholz) == (2, 10, 4)
    assert (by[2].match_points, by[2].difference, by[2].buchholz) == (2, 10, 4)
    order = [s.entrant for s in table]
    assert order.index(2) == order.index(1) - 1  # despite 1's higher rating
    assert by[1].decided_by == "head_to_head" and (by[2].head_to_head, by[1].head_to_head) == (2, 0)
    # Never met and equal on everything else: the higher rating at the start is first.
    ents = people(1400, 1600)
    table = standings("single", ents, [Bye(1, 1), Bye(1, 2)])
    assert [(s.entrant, s.rank, s.decided_by) for s in table] == [(2, 1, None), (1, 2, "rating")]


def test_individual_buchholz_is_opponents_minus_partners() -> None:
    ents = people(1500, 1500, 1500, 1500, 1500)
    results: list[Result] = [
        TableResult(1, ((1, 2), (3, 4)), (80, 20)),
        Bye(1, 5),
        TableResult(2, ((1, 3), (5, None)), (10, 90)),  # a computer partners 5
        Bye(2, 2),
        Bye(2, 4),
    ]
    table = {s.entrant: s for s in standings("individual", ents, results)}
    mp = {e: table[e].match_points for e in table}
    assert mp == {1: 2, 2: 4, 3: 0, 4: 2, 5: 4}
    # 1: round 1 opponents 3, 4 minus partner 2; round 2 opponents 5 and a computer (1's own
    # score) minus partner 3.
    assert table[1].buchholz == (mp[3] + mp[4] - mp[2]) + (mp[5] + mp[1] - mp[3])
    # 5: a bye (own score), then opponents 1 and 3 minus the computer partner (own score).
    assert table[5].buchholz == mp[5] + (mp[1] + mp[3] - mp[5])


def test_late_entrant_half_point_bye_absence_and_forfeit() -> None:
    ents = [*people(1500, 1500, 1500), Entrant(4, 1500.0, (104,), joined_round=2)]
    results: list[Result] = [
        TableResult(1, ((1,), (2,)), (0, 0), forfeited=(False, True)),
        Bye(1, 3),
        TableResult(2, ((3,), (4,)), (30, 20)),
    ]
    table = {s.entrant: s for s in standings("single", ents, results)}
    # Our decision: a forfeit is a win for the side that came, worth no points (tantos).
    assert (table[1].match_points, table[1].difference, table[2].match_points) == (2, 0, 0)
    # The issue: late entry with one half-point bye (1 match point) for the rounds missed.
    assert (table[4].match_points, table[4].byes, table[4].played) == (1, 1, 1)
    # Individual: a person whose seat a computer played scores nothing for that table.
    ind = people(1500, 1500, 1500, 1500)
    res: list[Result] = [TableResult(1, ((1, 2), (3, 4)), (100, 0), absent=(2,))]
    by = {s.entrant: s for s in standings("individual", ind, res)}
    assert (by[1].match_points, by[2].match_points, by[2].losses) == (2, 0, 1)
    assert by[2].points_for == 0


def test_withdrawn_entrants_stay_in_the_standings() -> None:
    ents = [Entrant(1, 1500.0, (1,), withdrawn=True), Entrant(2, 1500.0, (2,))]
    table = standings("single", ents, [TableResult(1, ((1,), (2,)), (10, 5))])
    assert [(s.entrant, s.withdrawn) for s in table] == [(1, True), (2, False)]


events = st.tuples(
    st.sampled_from(["single", "pairs", "individual"]),
    st.integers(2, 14),
    st.integers(1, 5),
    st.integers(0, 2**32),
)


@settings(max_examples=80, deadline=None)
@given(events)
def test_standings_properties(event) -> None:  # type: ignore[no-untyped-def]
    """Whatever the results: every entrant once; lines in the order of the tie-breaks; a shared
    rank exactly when every tie-break is equal; the line's reason is the first that differs;
    match points add up to 2 per table and per bye; without byes or computers, Buchholz adds
    up to each entrant's match points times the opponents he had."""
    fmt, n, rounds, seed = event
    rng = random.Random(seed)
    ents = [Entrant(i, float(rng.choice([1400, 1500, 1600])), (i,)) for i in range(1, n + 1)]
    per_side = 2 if fmt == "individual" else 1
    results = random_history(fmt, ents, rounds, rng, points=3)
    table = standings(fmt, ents, results)  # type: ignore[arg-type]
    assert sorted(s.entrant for s in table) == [e.id for e in ents]

    def key(s: Standing) -> tuple[float, ...]:
        return (s.match_points, s.difference, s.buchholz, s.head_to_head, s.rating)

    for above, line in itertools.pairwise(table):
        assert key(above) >= key(line)
        assert (line.rank == above.rank) == (key(above) == key(line))
        if line.rank != above.rank:
            assert line.rank == table.index(line) + 1
            first = next(i for i, (x, y) in enumerate(zip(key(above), key(line), strict=True))
                         if x != y)
            assert line.decided_by == TIE_BREAKS[first]
        else:
            assert line.decided_by is None
    tables = [r for r in results if isinstance(r, TableResult)]
    byes = [r for r in results if isinstance(r, Bye)]
    assert sum(s.match_points for s in table) == per_side * 2 * len(tables) + 2 * len(byes)
    if not byes:
        opponents = per_side  # each table: this many opponents, partners subtracted
        expected = sum(s.match_points * s.played * opponents for s in table)
        partners = sum(s.match_points * s.played for s in table) if per_side == 2 else 0
        assert sum(s.buchholz for s in table) == expected - partners
