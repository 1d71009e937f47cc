"""Knockout: seeding, byes to the top seeds, who goes through, a Swiss event's playoff."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.bracket import bracket, knockout, seed_positions, seeding
from bot.tournaments.model import Bye, Entrant, Result, TableResult, systems_for


def field(n: int) -> list[Entrant]:
    # Entrant i has the i-th best rating.
    return [Entrant(i, 2000.0 - i, (i,)) for i in range(1, n + 1)]


def test_standard_seed_order_keeps_the_top_seeds_apart() -> None:
    # The usual seeded bracket: 1 meets 8, 4 meets 5; 1 and 2 can meet only in the final.
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(16)[:4] == [1, 16, 8, 9]
    assert seed_positions(2) == [1, 2]


def play(pairing, winner_first: bool = True) -> list[Result]:  # type: ignore[no-untyped-def]
    out: list[Result] = []
    for t in pairing.tables:
        out.append(TableResult(pairing.round, t.sides, (100, 40) if winner_first else (40, 100)))
    return out


def test_five_entrants_byes_to_the_top_three_then_to_the_final() -> None:
    ents = field(5)
    first = knockout("single", ents, [], 1)
    assert first is not None
    assert [t.entrants() for t in first.tables] == [(4, 5)]
    assert first.byes == (1, 2, 3)
    results = play(first, winner_first=False)  # 5 beats 4
    second = knockout("single", ents, results, 2)
    assert second is not None
    assert [t.entrants() for t in second.tables] == [(1, 5), (2, 3)]
    results += play(second)  # 1 and 2 win
    final = knockout("single", ents, results, 3)
    assert final is not None and [t.entrants() for t in final.tables] == [(1, 2)]
    results += [TableResult(3, ((1,), (2,)), (50, 50))]
    # Our decision: level on points, the better seed goes through.
    b = bracket("single", ents, results)
    assert b.champion == 1
    assert knockout("single", ents, results, 4) is None
    assert [len(r) for r in b.rounds] == [4, 2, 1]
    assert b.rounds[0][1].points == (40, 100) and b.rounds[0][1].winner == 5


def test_a_withdrawal_or_forfeit_is_a_walkover() -> None:
    ents = field(4)
    ents[3] = Entrant(4, 1996.0, (4,), withdrawn=True)
    first = knockout("single", ents, [], 1)
    assert first is not None
    assert [t.entrants() for t in first.tables] == [(2, 3)] and first.byes == (1,)
    results: list[Result] = [Bye(1, 1), TableResult(1, ((3,), (2,)), (0, 0),
                                                   forfeited=(False, True))]
    final = knockout("single", ents, results, 2)
    assert final is not None and [t.entrants() for t in final.tables] == [(1, 3)]


def test_a_swiss_events_top_four_playoff() -> None:
    ents = field(10)
    top = [7, 3, 9, 1]  # the Swiss standings' first four
    semis = knockout("pairs", ents, [], 6, seeds=top, first_round=6)
    assert semis is not None and semis.round == 6
    assert [t.entrants() for t in semis.tables] == [(7, 1), (3, 9)]
    with pytest.raises(ValueError):
        knockout("pairs", ents, [], 7, seeds=top, first_round=6)  # the semis are not played
    final = knockout("pairs", ents, play(semis), 7, seeds=top, first_round=6)
    assert final is not None and [t.entrants() for t in final.tables] == [(7, 3)]


def test_every_format_plays_swiss_or_a_knockout() -> None:
    """The issue: knockout "as a second format for all three"."""
    for fmt in ("pairs", "individual", "single"):
        assert systems_for(fmt) == ("swiss", "knockout")
    assert bracket("individual", field(4), []).people


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**32))
def test_any_field_is_played_down_to_one_champion(n: int, seed: int) -> None:
    rng = random.Random(seed)
    ents = [Entrant(i, float(rng.randint(1000, 2000)), (i,)) for i in range(1, n + 1)]
    seeds = seeding(ents)
    results: list[Result] = []
    alive = set(seeds)
    number = 1
    while (pairing := knockout("single", ents, results, number)) is not None:
        playing = [e for t in pairing.tables for e in t.entrants()]
        assert len(set(playing + list(pairing.byes))) == len(playing) + len(pairing.byes)
        assert set(playing) | set(pairing.byes) == alive
        if number == 1:  # byes only to the top seeds, as many as the bracket's empty places
            size = 1 << (n - 1).bit_length()
            assert set(pairing.byes) == set(seeds[: size - n])
        else:
            assert pairing.byes == ()
        for t in pairing.tables:
            points = (rng.randint(0, 3), rng.randint(0, 3))
            results.append(TableResult(number, t.sides, points))
            a, b = t.entrants()
            loser = b if points[0] > points[1] else a if points[1] > points[0] else max(
                (a, b), key=seeds.index)
            alive.discard(loser)
        number += 1
    champion = bracket("single", ents, results).champion
    assert alive == {champion}
    assert number - 1 == (n - 1).bit_length()


def test_both_sides_forfeited_the_better_seed_goes_through() -> None:
    """Our decision (docs/tournaments.md, "Knockout"): level on points, the better seed goes
    through; a table both sides forfeited is level (each lost), so the better seed goes
    through, whichever side or bracket place he holds."""
    ents = field(4)
    first = knockout("single", ents, [], 1)
    assert first is not None and [t.entrants() for t in first.tables] == [(1, 4), (2, 3)]
    both = (True, True)
    results: list[Result] = [TableResult(1, ((1,), (4,)), (0, 0), forfeited=both),
                             TableResult(1, ((3,), (2,)), (0, 0), forfeited=both)]
    final = knockout("single", ents, results, 2)
    assert final is not None and [t.entrants() for t in final.tables] == [(1, 2)]
