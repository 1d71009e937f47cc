"""Swiss pairing: legal tables, no repeats while a legal pairing exists, fair byes and seats,
the same pairing for the same seed (property tests), and hand-made cases."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.tournaments.model import (
    Bye,
    Entrant,
    Format,
    Pairing,
    Result,
    TableResult,
    seat_fill,
)
from bot.tournaments.pairing import History, pair_swiss
from bot.tournaments.standings import standings


def entrants(n: int, fmt: Format, rng: random.Random) -> list[Entrant]:
    size = 2 if fmt == "pairs" else 1
    return [
        Entrant(i, float(rng.randint(1000, 2000)), tuple(range(10 * i, 10 * i + size)))
        for i in range(1, n + 1)
    ]


def random_history(
    fmt: Format, ents: list[Entrant], rounds: int, rng: random.Random, points: int = 150
) -> list[Result]:
    """Earlier rounds paired at random (not by our pairing), scored at random."""
    per_side = 2 if fmt == "individual" else 1
    results: list[Result] = []
    for r in range(1, rounds + 1):
        ids = [e.id for e in ents]
        rng.shuffle(ids)
        while len(ids) >= 2 * per_side:
            a = tuple(ids.pop() for _ in range(per_side))
            b = tuple(ids.pop() for _ in range(per_side))
            results.append(TableResult(r, (a, b), (rng.randint(0, points), rng.randint(0, points))))
        results += [Bye(r, e) for e in ids]
    return results


def play(pairing: Pairing, rng: random.Random) -> list[Result]:
    out: list[Result] = [Bye(pairing.round, e) for e in pairing.byes]
    for t in pairing.tables:
        out.append(TableResult(pairing.round, t.sides, (rng.randint(0, 99), rng.randint(0, 99))))
    return out


def legal_pairing_exists(active: list[int], forbidden: set[frozenset[int]],
                         bye_eligible: set[int]) -> bool:
    """Brute force: can ``active`` be paired with no forbidden couple (and one bye among the
    eligible if odd)?"""
    def pairs_up(rest: list[int]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            frozenset((first, o)) not in forbidden
            and pairs_up([x for x in others if x != o])
            for o in others
        )

    if len(active) % 2 == 0:
        return pairs_up(active)
    return any(pairs_up([x for x in active if x != b]) for b in bye_eligible)


def check_shape(fmt: Format, pairing: Pairing, active: list[int], fill: str) -> None:
    seated = [e for t in pairing.tables for e in t.entrants()]
    assert sorted(seated + list(pairing.byes)) == sorted(active)
    per_side = 2 if fmt == "individual" else 1
    computers = sum(t.computers for t in pairing.tables)
    for t in pairing.tables:
        assert [len(side) for side in t.sides] == [per_side, per_side]
        assert all(side[0] is not None for side in t.sides)  # a person holds seat 0 / 1
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    n = len(active)
    if fmt == "individual":
        # Our decision (docs/tournaments.md, "Filling an individual round").
        assert (len(pairing.byes), computers) == seat_fill(fill, n)  # type: ignore[arg-type]
        if fill == "mixed" and n >= 4:
            assert computers <= 1 and len(pairing.byes) <= 2
    else:
        assert (computers, len(pairing.byes)) == (0, n % 2)


events = st.tuples(
    st.sampled_from(["single", "pairs", "individual"]),
    st.integers(2, 13),  # entrants
    st.integers(0, 6),  # earlier rounds
    st.sampled_from(["bye", "computer", "mixed"]),
    st.integers(0, 2**32),  # random history and scores
    st.integers(0, 2**16),  # the pairing's seed
)


@settings(max_examples=150, deadline=None)
@given(events)
@example(("individual", 6, 3, "bye", 16068, 0))  # the one who never sat out must sit out now
@example(("individual", 9, 2, "mixed", 7, 1))  # nine people: two tables and a bye
@example(("individual", 11, 1, "mixed", 3, 2))  # eleven: three tables, one computer seat
def test_pairing_is_legal_or_none_exactly_when_no_legal_pairing_exists(event) -> None:
    fmt, n, rounds, fill, seed, pairing_seed = event
    rng = random.Random(seed)
    ents = entrants(n, fmt, rng)
    results = random_history(fmt, ents, rounds, rng)
    history = History.of(ents, results)
    active = [e.id for e in ents]
    pairing = pair_swiss(fmt, ents, results, rounds + 1, pairing_seed, fill=fill)
    if fmt == "individual":
        # No partner twice while a legal pairing exists (brute force on the partnerships).
        byes, computers = seat_fill(fill, n)
        if n - byes + computers < 4 or n - byes < 2:
            assert pairing is None
            return
        forbidden = {frozenset((a, b)) for a in active for b in history.partners[a]}
        # Whenever a legal seating exists (fair byes, computer partners for anyone), one is
        # returned (docs/tournaments.md, "Swiss pairing": None only when no legal pairing
        # remains).
        assert (pairing is not None) == _individual_possible(
            ents, results, forbidden, byes, computers)
        if pairing is None:
            return
        for t in pairing.tables:
            for side in t.sides:
                people = [e for e in side if e is not None]
                if len(people) == 2:
                    assert frozenset(people) not in forbidden
    else:
        forbidden = {frozenset((a, b)) for a in active for b in history.opponents[a]}
        fewest = min(history.byes[e] for e in active)
        eligible = {e for e in active if history.byes[e] == fewest}
        assert (pairing is not None) == legal_pairing_exists(active, forbidden, eligible)
        if pairing is None:
            return
        if pairing.byes:
            # docs/tournaments.md, "Byes" (FIDE: the bye goes to the lowest-ranked eligible
            # player): the lowest-ranked eligible entrant after whose bye the others pair up.
            order = [line.entrant for line in standings(fmt, ents, results)]
            lowest = next(
                e for e in reversed(order)
                if e in eligible and legal_pairing_exists(
                    [x for x in active if x != e], forbidden, set())
            )
            assert pairing.byes == (lowest,)
        for t in pairing.tables:
            assert frozenset(t.entrants()) not in forbidden
    check_shape(fmt, pairing, active, fill)
    # Byes are fair: nobody gets a second before every paired entrant had one.
    if pairing.byes:
        others = [history.byes[e] for e in active if e not in pairing.byes]
        assert max(history.byes[e] for e in pairing.byes) <= min(others, default=99)
    # The same input and seed give the same pairing.
    assert pair_swiss(fmt, ents, results, rounds + 1, pairing_seed, fill=fill) == pairing


def _individual_possible(ents: list[Entrant], results: list[Result],
                         forbidden: set[frozenset[int]], byes: int, computers: int) -> bool:
    """Brute force: fair byes (nobody with more byes than someone who plays) and computer
    partners for any of the others, such that the rest pair up with new partners."""
    active = [e.id for e in ents]
    history = History.of(ents, results)
    choices: list[tuple[int, ...]] = [()]
    if byes:
        threshold = sorted(history.byes[e] for e in active)[byes - 1]
        must = tuple(e for e in active if history.byes[e] < threshold)
        maybe = [e for e in active if history.byes[e] == threshold]
        choices = [must + rest for rest in itertools.combinations(maybe, byes - len(must))]
    for chosen in choices:
        rest = [e for e in active if e not in chosen]
        for with_computer in itertools.combinations(rest, computers):
            humans = [e for e in rest if e not in with_computer]
            if legal_pairing_exists(humans, forbidden, set()):
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["single", "pairs", "individual"]), st.integers(4, 12),
       st.sampled_from(["bye", "computer", "mixed"]), st.integers(0, 2**32))
def test_a_whole_event_repeats_nobody_and_gives_byes_in_turn(fmt, n, fill, seed) -> None:
    rng = random.Random(seed)
    ents = entrants(n, fmt, rng)
    results: list[Result] = []
    met: Counter[frozenset[int]] = Counter()
    partnered: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for r in range(1, 6):
        pairing = pair_swiss(fmt, ents, results, r, seed, fill=fill)
        if pairing is None:
            break
        check_shape(fmt, pairing, [e.id for e in ents], fill)
        for e in pairing.byes:
            assert all(byes[e] <= byes[x.id] for x in ents if x.id not in pairing.byes)
        byes.update(pairing.byes)
        for t in pairing.tables:
            a, b = ([x for x in side if x is not None] for side in t.sides)
            for x, y in itertools.product(a, b):
                met[frozenset((x, y))] += 1
            for side in (a, b):
                if len(side) == 2:
                    partnered[frozenset(side)] += 1
        results += play(pairing, rng)
    if fmt == "individual":
        assert max(partnered.values(), default=0) <= 1
    else:
        assert max(met.values(), default=0) <= 1
    assert max(byes.values(), default=0) - min(byes[e.id] for e in ents) <= 1


def test_withdrawn_absent_and_late_entrants_are_left_out() -> None:
    rng = random.Random(5)
    ents = entrants(8, "single", rng)
    ents[0] = Entrant(1, 1500.0, (10,), withdrawn=True)
    ents[1] = Entrant(2, 1500.0, (20,), joined_round=3)
    pairing = pair_swiss("single", ents, [], 1, 0, present={3, 4, 5, 6, 7, 8, 2})
    assert pairing is not None
    assert sorted(pairing.entrants()) == [3, 4, 5, 6, 7, 8]
    pairing = pair_swiss("single", ents, [], 3, 0, present={2, 3, 4, 5, 6, 7, 8})
    assert pairing is not None and sorted(pairing.entrants()) == [2, 3, 4, 5, 6, 7, 8]
    assert len(pairing.byes) == 1


def test_first_round_top_half_meets_bottom_half_by_rating() -> None:
    # FIDE Dutch system (C.04.3, A.2): in a score group the top half is paired with the bottom
    # half, the first of each against each other; in round one the ratings order the group.
    ents = [Entrant(i, 2000.0 - 10 * i, (i,)) for i in range(1, 9)]
    pairing = pair_swiss("single", ents, [], 1, 7)
    assert pairing is not None
    assert [sorted(t.entrants()) for t in pairing.tables] == [[1, 5], [2, 6], [3, 7], [4, 8]]


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one() -> None:
    ents = [Entrant(i, 2000.0 - 10 * i, (i,)) for i in range(1, 6)]
    first = pair_swiss("single", ents, [], 1, 0)
    assert first is not None and first.byes == (5,)
    results: list[Result] = [Bye(1, 5)] + [
        TableResult(1, t.sides, (50, 10)) for t in first.tables]
    second = pair_swiss("single", ents, results, 2, 0)
    assert second is not None and second.byes != (5,) and len(second.byes) == 1
    # The lowest-ranked of those without a bye (a loser of round one).
    order = [line.entrant for line in standings("single", ents, results)]
    assert second.byes[0] == next(e for e in reversed(order) if e != 5)
    assert standings("single", ents, results)[-1].match_points == 0


def test_the_opening_lead_alternates() -> None:
    # Our decision: like colours in chess, the side that led less so far leads; on equal terms
    # the one who followed last time.
    ents = [Entrant(i, 1500.0, (i,)) for i in range(1, 9)]
    rng = random.Random(3)
    results: list[Result] = []
    for r in range(1, 5):
        pairing = pair_swiss("single", ents, results, r, 11)
        assert pairing is not None
        results += play(pairing, rng)
    leads = History.of(ents, results).leads
    assert all(1 <= leads[e.id] <= 3 for e in ents), leads


def test_individual_partners_change_and_computers_spread() -> None:
    ents = [Entrant(i, 1500.0 + i, (i,)) for i in range(1, 10)]
    rng = random.Random(1)
    results: list[Result] = []
    for r in range(1, 4):
        pairing = pair_swiss("individual", ents, results, r, 2, fill="computer")
        assert pairing is not None
        # 9 people: three computer seats, one per table, never two at a table.
        assert [t.computers for t in pairing.tables] == [1, 1, 1]
        results += play(pairing, rng)
    # Each person had a computer partner once in three rounds.
    assert sorted(History.of(ents, results).computer_partners.values()) == [1] * 9


def test_individual_twelve_people_meet_new_opponents_in_round_two() -> None:
    # The issue: no repeated opponents while a legal pairing exists. Round one's winners are
    # partnered among themselves by score; two couples are then seated in the way (of the three
    # ways of splitting four people into sides) that repeats no opponent, so round two of twelve
    # people repeats nobody although no two winners' couples can face each other cleanly.
    for seed in range(8):
        rng = random.Random(seed)
        ents = [Entrant(i, float(rng.randint(1300, 1700)), (i,)) for i in range(1, 13)]
        first = pair_swiss("individual", ents, [], 1, seed)
        assert first is not None
        results = play(first, rng)
        second = pair_swiss("individual", ents, results, 2, seed)
        assert second is not None
        history = History.of(ents, results)
        for t in second.tables:
            a, b = t.sides
            assert not any(history.opponents[x][y] for x in a for y in b if x and y)
            assert all(not history.partners[side[0]][side[1]] for side in t.sides)


def test_seat_fill_leaves_the_fewest_seats_empty_by_default() -> None:
    """Our decision (docs/tournaments.md, "Filling an individual round"): (byes, computer
    seats) for each fill."""
    assert [seat_fill("mixed", n) for n in (8, 9, 10, 11, 2, 3, 5, 6)] == [
        (0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (0, 1), (1, 0), (2, 0)
    ]
    assert [seat_fill("computer", n) for n in (8, 9, 10, 11)] == [(0, 0), (0, 3), (0, 2), (0, 1)]
    assert [seat_fill("bye", n) for n in (8, 9, 10, 11)] == [(0, 0), (1, 0), (2, 0), (3, 0)]


def test_two_or_three_people_play_with_computers_whatever_the_fill() -> None:
    """docs/tournaments.md, "Filling an individual round": "Too few people to leave anyone out
    (two or three present) play with computers whatever the fill, so that one table can be
    played"."""
    for fill in ("bye", "computer", "mixed"):
        assert [seat_fill(fill, n) for n in (2, 3)] == [(0, 2), (0, 1)]  # type: ignore[arg-type]
        for n in (2, 3):
            ents = [Entrant(i, 1500.0 - i, (i,)) for i in range(1, n + 1)]
            pairing = pair_swiss("individual", ents, [], 1, 0, fill=fill)  # type: ignore[arg-type]
            assert pairing is not None and pairing.byes == ()
            assert sorted(pairing.entrants()) == list(range(1, n + 1))
            assert sum(t.computers for t in pairing.tables) == 4 - n


def test_when_the_lowest_cannot_take_the_bye_the_next_from_the_bottom_does() -> None:
    """docs/tournaments.md, "Byes": the bye goes to the lowest-ranked entrant who has not had
    one (FIDE: the lowest-ranked eligible player). Seven present before the last round: the
    three lowest without a bye cannot take it (the others could not be paired), and the bye
    goes up from the bottom to the 6-point entrant, not to the 8-point leader."""
    ratings = [1049, 1810, 1409, 1041, 1168, 1259, 1330]
    ents = [Entrant(i, float(r), (i,)) for i, r in enumerate(ratings, 1)]
    t = TableResult
    results: list[Result] = [
        t(1, ((7,), (1,)), (69, 58)), t(1, ((5,), (4,)), (51, 53)),
        t(2, ((4,), (7,)), (62, 20)), t(2, ((2,), (6,)), (37, 88)), t(2, ((3,), (5,)), (12, 23)),
        Bye(3, 2), t(3, ((4,), (3,)), (13, 43)), t(3, ((5,), (7,)), (50, 88)),
        Bye(4, 1), t(4, ((2,), (4,)), (90, 79)), t(4, ((7,), (3,)), (82, 0)),
        t(4, ((6,), (5,)), (69, 79)),
        t(5, ((7,), (2,)), (52, 28)), t(5, ((1,), (4,)), (10, 26)), t(5, ((3,), (6,)), (32, 41)),
    ]
    table = standings("single", ents, results)
    assert [(line.entrant, line.match_points) for line in table[:2]] == [(7, 8), (4, 6)]
    pairing = pair_swiss("single", ents, results, 6, 0)
    assert pairing is not None and pairing.byes == (4,)


def _round_one(sides: tuple[tuple[int | None, ...], tuple[int | None, ...]]) -> list[Result]:
    return [TableResult(1, sides, (60, 20))]


def test_the_computer_partner_goes_to_another_when_the_others_cannot_pair() -> None:
    """docs/tournaments.md, "Swiss pairing": None only when no legal pairing remains. Three
    present, 1 and 2 were partners in round 1: the lowest-ranked (3) cannot take the computer
    partner (1 and 2 would sit together again), so 2 does: (1, 3) against (2, computer)."""
    ents = [Entrant(i, 1500.0 - i, (i,)) for i in range(1, 5)]
    results = _round_one(((1, 2), (3, 4)))
    for fill in ("mixed", "computer", "bye"):
        pairing = pair_swiss("individual", ents, results, 2, 0, present={1, 2, 3},
                             fill=fill)  # type: ignore[arg-type]
        assert pairing is not None, fill
        (table,) = pairing.tables
        assert {frozenset(side) for side in table.sides} == {
            frozenset((1, 3)), frozenset((2, None))}


def test_nobody_gets_a_second_bye_while_someone_who_never_had_one_plays() -> None:
    """docs/tournaments.md, "Swiss pairing": "Byes are fair: nobody gets a second bye before
    every entrant being paired had one". Seven present, three byes: 1 never had one and must
    sit out; a fair seating exists ((3, 5) against (2, 6), byes 1, 4, 7)."""
    ratings = [1768, 1874, 1511, 1308, 1600, 1496, 1277]
    ents = [Entrant(i, float(r), (i,)) for i, r in enumerate(ratings, 1)]
    t = TableResult
    results: list[Result] = [
        Bye(1, 6), Bye(1, 4), Bye(1, 7), t(1, ((1, 5), (2, 3)), (50, 94)),
        Bye(2, 3), Bye(2, 5), t(2, ((2, 4), (6, 7)), (72, 19)),
        t(3, ((4, 7), (5, 2)), (46, 84)),
        Bye(4, 2), t(4, ((3, 7), (6, 4)), (33, 16)),
        Bye(5, 5), t(5, ((7, 2), (3, 4)), (76, 96)),
    ]
    pairing = pair_swiss("individual", ents, results, 6, 0, fill="bye")
    assert pairing is not None
    assert 1 in pairing.byes and 5 not in pairing.byes and len(pairing.byes) == 3
    partners = History.of(ents, results).partners
    assert all(not partners[side[0]][side[1]] for t in pairing.tables for side in t.sides)


def _met_again(tables: list[tuple[tuple[int | None, ...], tuple[int | None, ...]]],
               history: History) -> tuple[int, int]:
    """(tables with two computers, earlier meetings of the opponents) of a seating."""
    both = sum(1 for s, t in tables if None in s and None in t)
    again = sum(history.opponents[x][y] for s, t in tables for x in s for y in t
                if x is not None and y is not None)
    return both, again


def _fewest_met_again(people: list[int], with_computer: list[int],
                      history: History) -> tuple[int, int]:
    """Brute force: the least (two computers, repeats) of any seating of ``people`` in new
    partnerships and ``with_computer`` each with a computer."""
    def couplings(rest: list[int]) -> list[list[tuple[int, int]]]:
        if not rest:
            return [[]]
        first, others = rest[0], rest[1:]
        return [[(first, o), *more] for k, o in enumerate(others)
                if not history.partners[first][o]
                for more in couplings(others[:k] + others[k + 1:])]

    def tables(sides: list) -> list[list]:  # type: ignore[type-arg]
        if not sides:
            return [[]]
        first, others = sides[0], sides[1:]
        return [[(first, o), *more] for k, o in enumerate(others)
                for more in tables(others[:k] + others[k + 1:])]

    computer_sides = [(e, None) for e in with_computer]
    return min(_met_again(seating, history)
               for couples in couplings(people)
               for seating in tables([*couples, *computer_sides]))


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 10), st.integers(1, 5), st.sampled_from(["bye", "computer", "mixed"]),
       st.integers(0, 2**32))
@example(7, 1, "computer", 2)  # partners first, by score, left a repeat that another way avoids
def test_individual_repeats_the_fewest_opponents_it_can(n, rounds, fill, seed) -> None:
    """docs/tournaments.md, "Swiss pairing": "Opponents may meet again, but only when every
    other way is worse". Our decision: given who sits out and who has a computer partner,
    the seating has the fewest tables with two computers, then the fewest repeated
    opponents, of every legal seating (brute force)."""
    rng = random.Random(seed)
    ents = entrants(n, "individual", rng)
    results: list[Result] = []
    for r in range(1, rounds + 1):
        pairing = pair_swiss("individual", ents, results, r, seed, fill=fill)
        if pairing is None:
            return
        results += play(pairing, rng)
    history = History.of(ents, results)
    pairing = pair_swiss("individual", ents, results, rounds + 1, seed, fill=fill)
    if pairing is None:
        return
    seating = [t.sides for t in pairing.tables]
    with_computer = [e for s in seating for side in s if None in side
                     for e in side if e is not None]
    people = [e for s in seating for side in s if None not in side for e in side
              if e is not None]
    assert _met_again(seating, history) == _fewest_met_again(  # type: ignore[arg-type]
        people, with_computer, history)
