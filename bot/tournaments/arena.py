"""Arena events: their score (Lichess's arena points, with streaks) and the pairing of the
entrants waiting for a table. Pure: no Discord, no SQL. ``docs/tournaments.md`` (Arena) says
every rule and each of our decisions.

An entrant is what scores: a pair (``pairs``), or a person (``single``, ``individual``). A
result is a finished table (:class:`~bot.tournaments.model.TableResult`); an entrant's games
are his tables in the order they were paired (he sits at one table at a time).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.tournaments.model import DRAW, LOSS, WIN, Entrant, Format, Side, TableResult

#: Wins in a row after which each game counts double, until one is not won (Lichess).
STREAK = 2
#: Seconds two who just met wait for someone else before they may meet again (our decision).
REPEAT_WAIT = 30.0
#: Entrants in one matching at most; a larger waiting set is matched in blocks of the
#: standings' order (our decision: the blossom algorithm grows with the cube of the nodes).
BLOCK = 40
#: The performance's step for a win or a loss (Lichess's tournament performance).
PERFORMANCE_STEP = 500


@dataclass(frozen=True, slots=True)
class ArenaLine:
    """An entrant's line in an arena's standings."""

    rank: int  # entrants equal on score, performance and rating share a rank
    entrant: int
    score: int
    sheet: tuple[int, ...]  # the points of each game, in order
    wins: int
    draws: int
    losses: int
    fire: bool  # on a streak now: his next game counts double
    performance: int  # mean opponents' rating, +500 a win, −500 a loss (0: no game)
    rating: float
    withdrawn: bool

    @property
    def games(self) -> int:
        return len(self.sheet)


def game_points(outcomes: Iterable[int]) -> list[int]:
    """The arena points of each game from its match points (2 win, 1 draw, 0 loss), in order:
    after :data:`STREAK` wins in a row each game counts double until one is not won."""
    out: list[int] = []
    run = 0
    for mp in outcomes:
        out.append(mp * 2 if run >= STREAK else mp)
        run = run + 1 if mp == WIN else 0
    return out


def on_fire(outcomes: Sequence[int]) -> bool:
    """Whether the next game counts double: the last :data:`STREAK` games or more were won."""
    run = 0
    for mp in outcomes:
        run = run + 1 if mp == WIN else 0
    return run >= STREAK


def outcomes(results: Iterable[TableResult]) -> dict[int, list[tuple[int, list[int]]]]:
    """Per entrant, each of his games in order: (match points, the opponents' entrants). A
    person whose seat a computer played (``absent``) lost that table."""
    out: dict[int, list[tuple[int, list[int]]]] = {}
    for r in results:
        for side in (0, 1):
            mp = r.match_points(side)
            them = [e for e in r.sides[1 - side] if e is not None]
            for e in r.sides[side]:
                if e is None:
                    continue
                out.setdefault(e, []).append((LOSS if e in r.absent else mp, them))
    return out


def standings(entrants: Sequence[Entrant], results: Sequence[TableResult]) -> list[ArenaLine]:
    """The arena's standings: by score, then performance, then rating at the start (Lichess
    breaks a tie by the tournament performance; the rating is our last tie-break)."""
    ratings = {e.id: e.rating for e in entrants}
    games = outcomes(results)
    lines: list[ArenaLine] = []
    for e in entrants:
        mine = games.get(e.id, [])
        mps = [mp for mp, _ in mine]
        sheet = game_points(mps)
        seen = [ratings.get(o, e.rating) for _, opp in mine for o in opp]
        performance = 0
        if mine:
            mean = sum(seen) / len(seen) if seen else e.rating
            step = PERFORMANCE_STEP * (mps.count(WIN) - mps.count(LOSS)) / len(mine)
            performance = round(mean + step)
        lines.append(
            ArenaLine(
                rank=0,
                entrant=e.id,
                score=sum(sheet),
                sheet=tuple(sheet),
                wins=mps.count(WIN),
                draws=mps.count(DRAW),
                losses=mps.count(LOSS),
                fire=on_fire(mps),
                performance=performance,
                rating=e.rating,
                withdrawn=e.withdrawn,
            )
        )
    order = {e.id: i for i, e in enumerate(entrants)}
    lines.sort(key=lambda x: (-x.score, -x.performance, -x.rating, order[x.entrant]))
    out: list[ArenaLine] = []
    for i, line in enumerate(lines):
        prev = out[-1] if out else None
        same = prev is not None and (prev.score, prev.performance, prev.rating) == (
            line.score,
            line.performance,
            line.rating,
        )
        rank = prev.rank if same and prev is not None else i + 1
        out.append(_with_rank(line, rank))
    return out


def _with_rank(line: ArenaLine, rank: int) -> ArenaLine:
    return ArenaLine(
        rank, line.entrant, line.score, line.sheet, line.wins, line.draws, line.losses,
        line.fire, line.performance, line.rating, line.withdrawn,
    )


# ----------------------------------------------------------------------------------- pairing


@dataclass(frozen=True, slots=True)
class Waiting:
    """An entrant waiting for a table."""

    entrant: int
    score: int
    rating: float
    since: float  # when he began to wait (joined, or his last table ended)
    last: frozenset[int] = frozenset()  # his opponents at his last table
    partner: int | None = None  # individual: his partner at his last table


Allowed = Callable[["Waiting", "Waiting", float], bool]


@dataclass(frozen=True, slots=True)
class ArenaPairing:
    """The tables to open now (each two sides) and when to pair again those left waiting
    because of a repeat (None: nothing to wait for)."""

    tables: tuple[tuple[Side, Side], ...]
    again_at: float | None


def patient(w: Waiting, now: float) -> bool:
    """Whether ``w`` has waited long enough to meet a recent opponent again."""
    return now - w.since >= REPEAT_WAIT


def may_meet(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may be opponents now: not each other's last opponents, unless
    both have waited :data:`REPEAT_WAIT` for someone else."""
    repeat = a.entrant in b.last or b.entrant in a.last
    return not repeat or (patient(a, now) and patient(b, now))


def order(waiting: Iterable[Waiting]) -> list[Waiting]:
    """The waiting entrants in the standings' order: score, rating, then who waited longest."""
    return sorted(waiting, key=lambda w: (-w.score, -w.rating, w.since, w.entrant))


def pair(fmt: Format, waiting: Sequence[Waiting], now: float) -> ArenaPairing:
    """Seat the waiting entrants: as many tables as the rules allow, each of entrants as near
    in arena score as can be (a minimum-cost matching of most pairs), nobody against his last
    opponent unless both waited :data:`REPEAT_WAIT`."""
    people = order(waiting)
    if fmt == "individual":
        tables = _people_tables(people, now)
    else:
        tables = [((a.entrant,), (b.entrant,)) for a, b in _matched(people, now, may_meet)]
    seated = {e for t in tables for side in t for e in side}
    left = [w for w in people if w.entrant not in seated]
    need = 4 if fmt == "individual" else 2
    again = None
    if len(left) >= need:
        later = [w.since + REPEAT_WAIT for w in left if not patient(w, now)]
        again = min(later) if later else None
    return ArenaPairing(tuple(tables), again)


def _cost(a: Waiting, b: Waiting, pairs: int) -> int:
    """How bad a meeting is: the squared gap of score first (no sum of ``pairs`` rating gaps
    outweighs one unit of it), then the gap of rating."""
    return (a.score - b.score) ** 2 * 10_000 * (pairs + 1) + min(
        int(abs(a.rating - b.rating)), 9_999
    )


def _matched(
    people: list[Waiting], now: float, allowed: Allowed
) -> list[tuple[Waiting, Waiting]]:
    """Pairs of ``people`` (in the standings' order) by blocks of :data:`BLOCK`: in each, the
    most pairs ``allowed(a, b, now)`` permits, of least total cost; who is left goes on to the
    next block."""
    out: list[tuple[Waiting, Waiting]] = []
    carry: list[Waiting] = []
    i = 0
    while True:
        room = BLOCK - len(carry)
        block = carry + people[i : i + room]
        i += room
        pairs = _matching(block, now, allowed)
        out.extend(pairs)
        used = {w.entrant for p in pairs for w in p}
        carry = [w for w in block if w.entrant not in used][: BLOCK // 2]
        if i >= len(people):
            return out


def _matching(block: list[Waiting], now: float, allowed: Allowed) -> list[tuple[Waiting, Waiting]]:
    graph = nx.Graph()
    top = 0
    edges = []
    for i, a in enumerate(block):
        for b in block[i + 1 :]:
            if allowed(a, b, now):
                cost = _cost(a, b, len(block) // 2)
                top = max(top, cost)
                edges.append((a.entrant, b.entrant, cost))
    graph.add_weighted_edges_from((x, y, top + 1 - c) for x, y, c in edges)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    by_id = {w.entrant: w for w in block}
    rank = {w.entrant: k for k, w in enumerate(block)}
    pairs = [tuple(sorted((by_id[x], by_id[y]), key=lambda w: rank[w.entrant])) for x, y in found]
    pairs.sort(key=lambda p: rank[p[0].entrant])
    return pairs  # type: ignore[return-value]


def _people_tables(people: list[Waiting], now: float) -> list[tuple[Side, Side]]:
    """Individual tables of four, by the better (more tables, then the smaller gaps of score
    between sides) of two seatings: by matchings (couples, then couples against couples) and
    in the standings' order (each with the nearest three below him it may sit with)."""
    by = {w.entrant: w for w in people}

    def cost(tables: list[tuple[Side, Side]]) -> tuple[int, int]:
        gaps = sum(
            (sum(by[e].score for e in s0) - sum(by[e].score for e in s1)) ** 2  # type: ignore[index]
            for s0, s1 in tables
        )
        return -len(tables), gaps

    return min(_matched_tables(people, now), _ordered_tables(people, now), key=cost)


def _partners(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may be partners now: not each other's last partner, unless both
    waited :data:`REPEAT_WAIT`."""
    repeat = a.partner == b.entrant or b.partner == a.entrant
    return not repeat or (patient(a, now) and patient(b, now))


def _matched_tables(people: list[Waiting], now: float) -> list[tuple[Side, Side]]:
    """Couples by a matching of score (never a last partner again), then couples against
    couples (nobody against a last opponent); the four then sit in the legal split of sides
    nearest in score."""
    couples = _matched(people, now, _partners)
    pseudo = [
        Waiting(
            entrant=k,
            score=a.score + b.score,
            rating=(a.rating + b.rating) / 2,
            since=min(a.since, b.since),
        )
        for k, (a, b) in enumerate(couples)
    ]

    def against(x: Waiting, y: Waiting, t: float) -> bool:
        return all(may_meet(a, b, t) for a in couples[x.entrant] for b in couples[y.entrant])

    tables: list[tuple[Side, Side]] = []
    for x, y in _matched(pseudo, now, against):
        split = _balanced((*couples[x.entrant], *couples[y.entrant]), now)
        assert split is not None  # (the couples as matched are a legal split)
        (p, q), (r, t) = split
        tables.append(((p.entrant, q.entrant), (r.entrant, t.entrant)))
    return tables


def _ordered_tables(people: list[Waiting], now: float) -> list[tuple[Side, Side]]:
    """In the standings' order, each person not seated yet with the first three of the next
    eight below him whose four have a legal split of sides."""
    tables: list[tuple[Side, Side]] = []
    free = list(people)
    while len(free) >= 4:
        first, rest = free[0], free[1:9]
        for trio in itertools.combinations(rest, 3):
            split = _balanced((first, *trio), now)
            if split is not None:
                (p, q), (r, t) = split
                tables.append(((p.entrant, q.entrant), (r.entrant, t.entrant)))
                seated = {first.entrant, *(w.entrant for w in trio)}
                free = [w for w in free if w.entrant not in seated]
                break
        else:
            free = free[1:]  # he waits
    return tables


def _balanced(
    four: tuple[Waiting, ...], now: float
) -> tuple[tuple[Waiting, Waiting], tuple[Waiting, Waiting]] | None:
    """The four people of a table split into the two sides nearest in score (then rating)
    that the rules allow (None: no split is allowed)."""
    a, b, c, d = four
    best = None
    for sides in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        (p, q), (r, t) = sides
        if not (_partners(p, q, now) and _partners(r, t, now)):
            continue
        if not all(may_meet(x, y, now) for x in (p, q) for y in (r, t)):
            continue
        gap = (p.score + q.score - r.score - t.score) ** 2
        rating = abs(p.rating + q.rating - r.rating - t.rating)
        if best is None or (gap, rating) < best[0]:
            best = ((gap, rating), sides)
    return None if best is None else best[1]


def score_of(lines: Sequence[ArenaLine]) -> dict[int, int]:
    """Each entrant's arena score."""
    return {line.entrant: line.score for line in lines}


def last_meetings(
    results: Sequence[TableResult],
) -> dict[int, tuple[frozenset[int], int | None]]:
    """Per entrant, his last table's opponents and (individual) partner."""
    out: dict[int, tuple[frozenset[int], int | None]] = {}
    for r in results:
        for side in (0, 1):
            them = frozenset(e for e in r.sides[1 - side] if e is not None)
            mine = [e for e in r.sides[side] if e is not None]
            for e in mine:
                partner = next((p for p in mine if p != e), None)
                out[e] = (them, partner)
    return out
