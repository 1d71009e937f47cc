"""Knockout: single elimination, seeded by rating (or by a Swiss event's standings), byes to the
top seeds.

An individual knockout (four people a table, partners changing) is re-seated every round from
the people still in: see :func:`people_round`.

The bracket is a power of two; seeds sit in the standard order (1 meets 16, 8 meets 9, …, so
the first two seeds can meet only in the final), and the places beyond the entrants are byes,
which fall to the top seeds. Who went through is read from the results: the side ahead on
points, a side that forfeited loses; level on points, or both sides forfeited, the better
seed goes through (our decision); an entrant who withdrew before playing loses by walkover;
a ``Bye`` record in a round is a walkover for its entrant.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.tournaments.model import (
    Bracket,
    Bye,
    Entrant,
    Format,
    KnockoutMatch,
    PairedTable,
    Pairing,
    Result,
    Side,
    TableResult,
    people_field,
)
from bot.tournaments.pairing import History, min_cost_matching


def seed_positions(size: int) -> list[int]:
    """The seeds (1-based) from the top of a bracket of ``size`` (a power of two)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def seeding(entrants: Sequence[Entrant]) -> list[int]:
    """Entrant ids by rating at the start, best first (equal ratings: entry order)."""
    return [e.id for e in sorted(entrants, key=lambda e: -e.rating)]


def bracket(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    seeds: Sequence[int] | None = None,
    first_round: int = 1,
) -> Bracket:
    """The bracket as far as the results go. ``seeds``: entrant ids best first (default: by
    rating; a Swiss event's playoff passes its top places); ``first_round``: the event's round
    number of the bracket's first round (a playoff after five Swiss rounds starts at 6)."""
    order = list(seeds) if seeds is not None else seeding(entrants)
    if fmt == "individual":
        return _people_bracket(order, results, first_round)
    if len(order) < 2:
        raise ValueError("a knockout needs at least two entrants")
    size = 1 << math.ceil(math.log2(len(order)))
    seed_of = {e: i for i, e in enumerate(order)}
    withdrawn = {e.id for e in entrants if e.withdrawn}
    slots: list[int | None] = [
        order[s - 1] if s <= len(order) else None for s in seed_positions(size)
    ]
    rounds: list[tuple[KnockoutMatch, ...]] = []
    for k in range(int(math.log2(size))):
        number = first_round + k
        played = [r for r in results if r.round == number]
        matches = []
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            winner, points = _winner(a, b, played, withdrawn, seed_of)
            matches.append(KnockoutMatch(k + 1, i // 2, (a, b), winner, points))
        rounds.append(tuple(matches))
        if any(m.winner is None and m.entrants != (None, None) for m in matches):
            break
        slots = [m.winner for m in matches]
    return Bracket(size=size, seeds=tuple(order), rounds=tuple(rounds))


def knockout(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    seed: int = 0,
    *,
    seeds: Sequence[int] | None = None,
    first_round: int = 1,
) -> Pairing | None:
    """The tables of knockout round ``round_no`` (an event round number), or None when the
    bracket has a champion. Entrants going through without a table (a bye or a walkover) are
    the pairing's byes. Raises ValueError if the round before is not finished."""
    del seed  # the bracket leaves nothing to chance
    if fmt == "individual":
        return people_round(entrants, results, round_no, seeds=seeds, first_round=first_round)
    b = bracket(fmt, entrants, results, seeds=seeds, first_round=first_round)
    k = round_no - first_round
    if b.champion is not None or k >= int(math.log2(b.size)):
        return None
    if k < 0 or k >= len(b.rounds):
        raise ValueError(f"round {round_no - 1} of the knockout is not finished")
    tables: list[PairedTable] = []
    byes: list[int] = []
    for m in b.rounds[k]:
        a, c = m.entrants
        walkover = m.winner is not None and m.points is None  # a bye, a withdrawal
        if a is not None and c is not None and not walkover:
            tables.append(PairedTable(len(tables) + 1, ((a,), (c,))))
        elif m.winner is not None:
            byes.append(m.winner)
    return Pairing(round=round_no, tables=tuple(tables), byes=tuple(byes))


def _knockout_points(r: TableResult, side: int) -> int:
    """2 / 1 / 0 for ``side`` as a knockout reads a table: both sides forfeited is level (the
    better seed goes through), otherwise as the Swiss counts it."""
    return 1 if all(r.forfeited) else r.match_points(side)


def _winner(
    a: int | None,
    b: int | None,
    played: Sequence[Result],
    withdrawn: set[int],
    seed_of: dict[int, int],
) -> tuple[int | None, tuple[int, int] | None]:
    """Who went through between ``a`` and ``b`` (None: not known yet), and the table's points
    (oriented ``a`` first) when a table was played."""
    if a is None or b is None:
        return (a if b is None else b), None
    for r in played:
        if isinstance(r, TableResult) and {a, b} == set(r.entrants()):
            side_a = r.side_of(a)
            mp = _knockout_points(r, side_a)
            points = (r.points[side_a], r.points[1 - side_a])
            if mp == 1:
                return (a if seed_of[a] < seed_of[b] else b), points
            return (a if mp == 2 else b), points
    for r in played:
        if isinstance(r, Bye) and r.entrant in (a, b):
            return r.entrant, None
    if a in withdrawn or b in withdrawn:
        if a in withdrawn and b in withdrawn:
            return (a if seed_of[a] < seed_of[b] else b), None
        return (b if a in withdrawn else a), None
    return None, None


# -- individual: four people a table, re-seated every round -----------------------------------


def _people_bracket(order: Sequence[int], results: Sequence[Result], first_round: int) -> Bracket:
    """An individual knockout as far as it was played: each round's tables, then its byes (two
    people a slot), with who went through."""
    seed_of = {e: i for i, e in enumerate(order)}
    rounds: list[tuple[KnockoutMatch, ...]] = []
    fields: list[int] = []
    number = first_round
    while played := [r for r in results if r.round == number]:
        k = len(rounds) + 1
        tables = sorted(
            (r for r in played if isinstance(r, TableResult)),
            key=lambda r: min(seed_of.get(e, len(order)) for e in r.entrants()),
        )
        byes = sorted((r.entrant for r in played if isinstance(r, Bye)), key=seed_of.get)
        matches = [_people_match(k, i, t, seed_of) for i, t in enumerate(tables)]
        for i in range(0, len(byes), 2):
            two = tuple(byes[i:i + 2])
            matches.append(
                KnockoutMatch(k, len(matches), two, two[0], None, (two, ()), two, 0)
            )
        rounds.append(tuple(matches))
        fields.append(people_field(sum(len(m.entrants) for m in matches)))
        number += 1
    size = fields[0] if fields else people_field(len(order))
    return Bracket(size, tuple(order), tuple(rounds), people=True, fields=tuple(fields))


def _people_match(k: int, slot: int, r: TableResult, seed_of: dict[int, int]) -> KnockoutMatch:
    """A played table of an individual knockout: the side ahead goes through (a forfeit loses;
    level: the side of the better seed), its people but those a computer replaced."""
    mp = _knockout_points(r, 0)

    def best(side: Side) -> int:
        return min((seed_of.get(e, len(seed_of)) for e in side if e is not None), default=10**9)

    won = 0 if mp == 2 or (mp == 1 and best(r.sides[0]) < best(r.sides[1])) else 1
    through = tuple(e for e in r.sides[won] if e is not None and e not in r.absent)
    return KnockoutMatch(
        k,
        slot,
        r.entrants(),
        through[0] if through else None,
        r.points,
        r.sides,
        through,
        won,
    )


def people_round(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    *,
    seeds: Sequence[int] | None = None,
    first_round: int = 1,
) -> Pairing | None:
    """An individual knockout's round ``round_no``: the people still in (not withdrawn: the
    service marks who did not check in so), best seed first, in a field of four times a power
    of two (:func:`~bot.tournaments.model.people_field`). The top seeds get byes; when the
    people are odd the lowest seed who had a computer partner least often plays with one; two
    people left play each with a computer. Partners: strong with weak, never one's partner of
    an earlier round while another way exists (a maximum-weight matching); tables: the couple
    of the best seed against the couple that is weakest. None once the final was played or
    nobody is left; a lone survivor gets a bye, which ends the bracket."""
    order = list(seeds) if seeds is not None else seeding(entrants)
    tree = _people_bracket(order, results, first_round)
    if tree.complete:
        return None
    if round_no - first_round != len(tree.rounds):
        raise ValueError(f"round {round_no - 1} of the knockout is not finished")
    out = {e.id for e in entrants if e.withdrawn}
    if tree.rounds:
        still = {e for m in tree.rounds[-1] for e in m.advancing}
        alive = [e for e in order if e in still and e not in out]
    else:
        alive = [e for e in order if e not in out]
    n = len(alive)
    if n == 0:
        return None
    if n == 1:
        return Pairing(round=round_no, tables=(), byes=(alive[0],))
    half = people_field(n) // 2
    computers = 2 if n == 2 else n % 2
    tables = (n + computers - half) // 2 if n > 2 else 1
    byes = alive[: n + computers - 4 * tables]
    players = alive[len(byes):]
    h = History.of(entrants, results)
    rank = {e: i for i, e in enumerate(players)}
    with_computer = sorted(players, key=lambda e: (h.computer_partners[e], -rank[e]))[:computers]
    humans = [e for e in players if e not in with_computer]
    couples = repartner(humans, h)
    teams: list[Side] = [*couples, *((e, None) for e in sorted(with_computer, key=rank.get))]

    def strength(team: Side) -> tuple[int, int]:
        places = [rank[e] if e is not None else len(players) for e in team]
        return sum(places), min(places)

    teams.sort(key=strength)
    sides = [(teams[i], teams[len(teams) - 1 - i]) for i in range(len(teams) // 2)]
    return Pairing(
        round=round_no,
        tables=tuple(PairedTable(i + 1, s) for i, s in enumerate(sides)),
        byes=tuple(byes),
    )


def repartner(people: Sequence[int], h: History) -> list[tuple[int, int]]:
    """``people`` (an even number, best seed first) as couples: fewest partnerships repeated
    from earlier rounds, then strong with weak (the i-th best with the i-th weakest); each
    couple best seed first, in the order of the people."""
    last = len(people) - 1

    def cost(i: int, j: int) -> tuple[int, int]:
        return h.partners[people[i]][people[j]], (i + j - last) ** 2

    pairs = min_cost_matching(len(people), cost)
    couples = [(people[i], people[j]) for i, j in sorted(pairs)]
    return couples
