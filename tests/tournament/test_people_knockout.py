"""An individual knockout: four people a table, both winners through, partners re-seated by
seed every round (docs/tournaments.md, "An individual knockout": our decision throughout)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.bracket import bracket, knockout, repartner
from bot.tournaments.core import _bracket_places
from bot.tournaments.model import (
    Bye,
    Entrant,
    PairedTable,
    Pairing,
    Result,
    Side,
    TableResult,
    people_field,
    people_rounds,
)
from bot.tournaments.pairing import History


def field(n: int) -> list[Entrant]:
    # Entrant i has the i-th best rating.
    return [Entrant(i, 2000.0 - i, (i,)) for i in range(1, n + 1)]


def sides(p: Pairing) -> list[tuple[Side, Side]]:
    return [t.sides for t in p.tables]


def play(p: Pairing, winners: dict[int, int] | None = None,
         absent: Sequence[int] = ()) -> list[Result]:
    """The results of a round: each table won by side 0 unless ``winners`` says otherwise
    (table number -> side); byes as byes."""
    out: list[Result] = []
    for t in p.tables:
        won = (winners or {}).get(t.number, 0)
        points = (10, 0) if won == 0 else (0, 10)
        here = tuple(e for e in absent if e in t.entrants())
        out.append(TableResult(p.round, t.sides, points, absent=here))
    out += [Bye(p.round, e) for e in p.byes]
    return out


def test_the_field_is_four_times_a_power_of_two() -> None:
    assert [people_field(n) for n in (1, 2, 4, 5, 8, 9, 16, 17)] == [4, 4, 4, 8, 8, 16, 16, 32]
    assert [people_rounds(n) for n in (2, 4, 6, 8, 9, 16, 17)] == [1, 1, 2, 2, 3, 3, 4]


def test_eight_people_strong_with_weak_and_the_top_seeds_apart() -> None:
    """Our decision: 1+8 against 4+5, 2+7 against 3+6 (seed sums equal at both tables)."""
    p = knockout("individual", field(8), [], 1)
    assert p is not None and p.byes == ()
    assert sides(p) == [((1, 8), (4, 5)), ((2, 7), (3, 6))]


def test_both_winners_go_through_and_are_partnered_apart() -> None:
    """The final re-partners the four winners: the two who won together are split, strong
    with weak; the final's winning side are joint champions."""
    entrants = field(8)
    first = knockout("individual", entrants, [], 1)
    assert first is not None
    results = play(first)  # 1+8 and 2+7 win
    final = knockout("individual", entrants, results, 2)
    assert final is not None
    ((a, b),) = sides(final)
    assert {frozenset(a), frozenset(b)} == {frozenset({1, 7}), frozenset({2, 8})}
    results += play(final, {1: 1})
    tree = bracket("individual", entrants, results)
    assert tree.complete and set(tree.champions) == set(final.tables[0].sides[1])
    assert knockout("individual", entrants, results, 3) is None
    places = dict((e, place) for place, e in _bracket_places(tree))
    assert sorted(places.values()) == [1, 1, 3, 3, 5, 5, 5, 5]
    assert tree.left() == [2, 1]


def test_six_people_byes_to_the_top_two() -> None:
    p = knockout("individual", field(6), [], 1)
    assert p is not None
    assert p.byes == (1, 2) and sides(p) == [((3, 6), (4, 5))]
    results = play(p, {1: 1})
    final = knockout("individual", field(6), results, 2)
    assert final is not None and sorted(final.entrants()) == [1, 2, 4, 5]
    # 1 and 2 had a bye together, not a table: they may be partners; strong with weak wins.
    assert sides(final) == [((1, 5), (2, 4))]


def test_odd_people_the_lowest_seed_plays_with_a_computer_who_never_goes_through() -> None:
    entrants = field(5)
    p = knockout("individual", entrants, [], 1)
    assert p is not None
    assert p.byes == (1, 2) and sides(p) == [((3, 4), (5, None))]
    results = play(p, {1: 1})  # the computer's side wins: only 5 goes on
    final = knockout("individual", entrants, results, 2)
    assert final is not None and sorted(final.entrants()) == [1, 2, 5]
    assert sum(t.computers for t in final.tables) == 1
    tree = bracket("individual", entrants, results)
    assert tree.rounds[0][0].advancing == (5,)


def test_a_person_a_computer_replaced_does_not_go_through() -> None:
    entrants = field(4)
    p = knockout("individual", entrants, [], 1)
    assert p is not None
    results = play(p, absent=(1,))  # side 0 (1 and 4) wins, 1 did not come
    tree = bracket("individual", entrants, results)
    assert tree.complete and tree.champions == (4,)


def test_level_the_side_of_the_better_seed_goes_through() -> None:
    entrants = field(4)
    p = knockout("individual", entrants, [], 1)
    assert p is not None and sides(p) == [((1, 4), (2, 3))]
    level = TableResult(1, ((2, 3), (1, 4)), (5, 5))
    assert bracket("individual", entrants, [level]).champions == (1, 4)


def test_who_does_not_check_in_is_out_and_a_lone_survivor_is_champion() -> None:
    entrants = field(8)
    first = knockout("individual", entrants, [], 1)
    assert first is not None
    results = play(first)
    gone = {e.id for e in entrants} - {1}
    marked = [Entrant(e.id, e.rating, e.members, withdrawn=e.id in gone) for e in entrants]
    last = knockout("individual", marked, results, 2)
    assert last == Pairing(round=2, tables=(), byes=(1,))
    results += play(last)
    tree = bracket("individual", entrants, results)
    assert tree.complete and tree.champions == (1,)
    assert knockout("individual", marked, results, 3) is None


def test_two_people_each_play_with_a_computer() -> None:
    p = knockout("individual", field(2), [], 1)
    assert p is not None and p.tables == (PairedTable(1, ((1, None), (2, None))),)


def test_a_playoff_avoids_the_swiss_partners() -> None:
    """Seeded by the Swiss standings (seeds given), partners of the Swiss rounds are avoided:
    1 and 4 partnered in round 1, so the playoff's final table splits them."""
    entrants = field(4)
    swiss = [TableResult(1, ((1, 4), (2, 3)), (3, 1))]
    p = knockout("individual", entrants, swiss, 2, seeds=[1, 2, 3, 4], first_round=2)
    assert p is not None
    ((a, b),) = sides(p)
    assert 4 not in a or 1 not in a
    assert {frozenset(a), frozenset(b)} in (
        {frozenset({1, 3}), frozenset({2, 4})}, {frozenset({1, 2}), frozenset({3, 4})}
    )


def _fewest_repeats(people: list[int], h: History) -> int:
    """By brute force: the fewest earlier partnerships any way of coupling ``people`` repeats."""
    if not people:
        return 0
    first, rest = people[0], people[1:]
    best = None
    for i, other in enumerate(rest):
        here = h.partners[first][other] + _fewest_repeats(rest[:i] + rest[i + 1:], h)
        best = here if best is None else min(best, here)
    assert best is not None
    return best


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Entrant], list[Result], int]:
    """A field of people, and earlier rounds of random four-person tables among them."""
    n = draw(st.integers(2, 20))
    earlier = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    entrants = field(n)
    results: list[Result] = []
    for r in range(1, earlier + 1):
        ids = [e.id for e in entrants]
        rng.shuffle(ids)
        for k in range(0, len(ids) - 3, 4):
            a, b, c, d = ids[k:k + 4]
            results.append(TableResult(r, ((a, b), (c, d)), (rng.randint(0, 9), 0)))
    return entrants, results, earlier


@settings(max_examples=150, deadline=None)
@given(histories())
def test_every_survivor_is_seated_once_and_no_partner_repeats_while_avoidable(
    case: tuple[list[Entrant], list[Result], int],
) -> None:
    """A round of the people still in, after any earlier partnerships (the earlier rounds are
    given as a Swiss event's, so the round is a playoff's first): everyone sits exactly once or
    has a bye, the byes are the top seeds, a table has four seats with one computer at most
    (two for two people), the field is full, and the couples repeat no more partnerships
    than the best coupling of the same people would."""
    entrants, results, earlier = case
    n = len(entrants)
    order = [e.id for e in entrants]
    p = knockout("individual", entrants, results, earlier + 1, seeds=order,
                 first_round=earlier + 1)
    assert p is not None
    seated = [e for t in p.tables for e in t.entrants()]
    assert sorted(seated + list(p.byes)) == order
    assert list(p.byes) == order[: len(p.byes)]
    assert all(len(side) == 2 for t in p.tables for side in t.sides)
    assert all(t.computers <= (2 if n == 2 else 1) for t in p.tables)
    assert sum(t.computers for t in p.tables) == (2 if n == 2 else n % 2)
    assert len(p.byes) + 2 * len(p.tables) == (2 if n == 2 else people_field(n) // 2)
    h = History.of(entrants, results)
    couples = [tuple(side) for t in p.tables for side in t.sides if None not in side]
    humans = sorted(e for c in couples for e in c)
    if len(humans) <= 12:
        chosen = sum(h.partners[a][b] for a, b in couples)  # type: ignore[index]
        assert chosen == _fewest_repeats(humans, h)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10**6))
def test_a_whole_knockout_ends_with_its_champions(n: int, seed: int) -> None:
    """Random winners every round: the bracket ends within the planned rounds, with one or two
    champions (the final's winning side, computers never), and every person gets a place."""
    rng = random.Random(seed)
    entrants = field(n)
    results: list[Result] = []
    for number in range(1, 10):
        p = knockout("individual", entrants, results, number)
        if p is None:
            break
        results += play(p, {t.number: rng.randint(0, 1) for t in p.tables})
    assert number - 1 <= people_rounds(n)
    tree = bracket("individual", entrants, results)
    assert tree.complete and 1 <= len(tree.champions) <= 2
    places = _bracket_places(tree)
    assert sorted(e for _, e in places) == [e.id for e in entrants]
    assert {e for place, e in places if place == 1} == set(tree.champions)


def test_repartner_pairs_strong_with_weak_without_history() -> None:
    h = History.of(field(6), [])
    assert repartner([1, 2, 3, 4, 5, 6], h) == [(1, 6), (2, 5), (3, 4)]


def test_the_web_page_and_the_picture_show_two_partners_a_side() -> None:
    """The web page's bracket and the picture name both partners of each side (a computer
    named so), the byes, and both people who went through."""
    from bot.web.app import bracket_rounds

    entrants = field(5)
    first = knockout("individual", entrants, [], 1)
    assert first is not None
    results = play(first)
    tree = bracket("individual", entrants, results)
    rows = bracket_rounds("en-US", tree, lambda e: "Computer" if e is None else f"P{e}")
    assert rows == [
        ("Semi-finals", [
            (["P3 and P4", "P5 and Computer"], "10–0", "P3 and P4"),
            (["P1 and P2", "bye"], "", "P1 and P2"),
        ]),
    ]


def test_both_sides_forfeited_the_side_of_the_better_seed_goes_through() -> None:
    """Our decision (docs/tournaments.md, "An individual knockout"): level, the side with the
    better seed goes through; both sides forfeiting is level."""
    entrants = field(4)
    for table in (((1, 4), (2, 3)), ((2, 3), (1, 4))):
        both = TableResult(1, table, (0, 0), forfeited=(True, True))
        assert bracket("individual", entrants, [both]).champions == (1, 4)
