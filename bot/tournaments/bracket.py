"""Knockout: single elimination, seeded by rating (or by a Swiss event's standings), byes to the
top seeds.

The bracket is a power of two; seeds sit in the standard order (1 meets 16, 8 meets 9, …, so
the first two seeds can meet only in the final), and the places beyond the entrants are byes,
which fall to the top seeds. Who went through is read from the results: the side ahead on
points, a side that forfeited loses; level on points, the better seed goes through (our
decision); an entrant who withdrew before playing loses by walkover; a ``Bye`` record in a
round is a walkover for its entrant.
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
    TableResult,
)


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
    if fmt == "individual":
        raise ValueError("a knockout is played in pairs or one against one")
    order = list(seeds) if seeds is not None else seeding(entrants)
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
            mp = r.match_points(side_a)
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
