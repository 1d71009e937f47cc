"""Swiss pairing: a round's tables by maximum-weight matching (networkx's blossom algorithm).

Entrants are nodes; an edge is a table two of them may share (or a partnership, or a bye).
What the rules forbid has no edge; what they prefer is the edge's weight. Every edge's cost is
a tuple compared in order (most important first), turned into one integer by a mixed radix so
that no amount of a later part can outweigh one unit of an earlier part; the weight is a
constant minus the cost, and the matching is of maximum cardinality first, then of maximum
weight. ``docs/tournaments.md`` explains each part.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, islice

import networkx as nx
import numpy as np
from scipy import optimize, sparse

from bot.tournaments.model import (
    Bye,
    Entrant,
    Fill,
    Format,
    PairedTable,
    Pairing,
    Result,
    Side,
    seat_fill,
)
from bot.tournaments.standings import standings

#: Most entrants in one matching. The standings are cut into blocks of whole score groups (a
#: larger group into slices of its top half with the matching slices of its bottom half); each
#: block is matched in turn, its unpaired carried into the next. If the last block cannot be
#: completed, the blocks are doubled until one block holds everyone.
BLOCK = 24
#: Byes tried (lowest-ranked eligible first) before the bye joins one exact matching of all.
TRIES = 3
#: Most people of an individual round seated by one exact integer program (every table of
#: four considered); larger rounds match partners, then couples.
EXACT = 16
#: Most tables of an individual round whose every two tables are tried re-seated together.
EVERY_TWO = 8
#: Branch-and-bound nodes the integer program may explore (a count, not a time, so that the
#: same round is always seated the same way); the seatings met stop far below it.
NODES = 20_000

Cost = tuple[int, ...]
Node = Hashable
Places = dict[Node, tuple[int, int, int]]  # node -> (score, place in group, group size)


@dataclass(slots=True)
class History:
    """What earlier rounds say about each entrant."""

    opponents: dict[int, Counter[int]] = field(default_factory=dict)
    partners: dict[int, Counter[int]] = field(default_factory=dict)
    computer_partners: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    #: Tables at side 0 minus tables at side 1 (side 0 has the opening lead).
    balance: Counter[int] = field(default_factory=Counter)
    leads: Counter[int] = field(default_factory=Counter)  # tables at seat 0
    last_side: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, entrants: Sequence[Entrant], results: Sequence[Result]) -> History:
        """Read the results in round order."""
        h = cls()
        for e in entrants:
            h.opponents[e.id] = Counter()
            h.partners[e.id] = Counter()
            if e.joined_round > 1:
                h.byes[e.id] += 1  # the late entrant's half-point bye counts as his bye
        for r in sorted(results, key=lambda r: r.round):
            if isinstance(r, Bye):
                h.byes[r.entrant] += 1
                continue
            if r.sides[0] and r.sides[0][0] is not None:
                h.leads[r.sides[0][0]] += 1
            for side in (0, 1):
                for e in r.sides[side]:
                    if e is None or e not in h.opponents:
                        continue
                    h.balance[e] += 1 if side == 0 else -1
                    h.last_side[e] = side
                    h.opponents[e].update(o for o in r.sides[1 - side] if o is not None)
                    for p in r.sides[side]:
                        if p is None:
                            h.computer_partners[e] += 1
                        elif p != e:
                            h.partners[e][p] += 1
        return h


def pair_swiss(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    seed: int,
    *,
    present: Collection[int] | None = None,
    fill: Fill = "bye",
) -> Pairing | None:
    """The pairing of round ``round_no``, or None when no legal pairing remains.

    Paired: entrants not withdrawn, whose ``joined_round`` has come, and (if ``present`` is
    given) checked in. Legal: nobody meets an earlier opponent again (``pairs``, ``single``) or
    sits with an earlier partner again (``individual``, where opponents repeat only when they
    must); no entrant has a second bye before every paired entrant had one. ``fill`` says how
    an individual round whose entrants are not a multiple of four is completed
    (:func:`~bot.tournaments.model.seat_fill`: computer seats, byes, or mixed; pairs and
    single always give the odd one out a bye). The same input and ``seed``
    give the same pairing.
    """
    table = standings(fmt, entrants, results)
    order = [s.entrant for s in table]
    by_id = {e.id: e for e in entrants}
    active = [
        e for e in order
        if not by_id[e].withdrawn and by_id[e].joined_round <= round_no
        and (present is None or e in present)
    ]
    history = History.of(entrants, results)
    points = {s.entrant: s.match_points for s in table}
    rng = random.Random(f"{seed}:{round_no}")
    if fmt == "individual":
        return _individual(active, points, history, round_no, fill, rng)
    return _one_side_each(active, points, history, round_no, rng)


# -- pairs and one against one -----------------------------------------------------------------


def _one_side_each(
    active: list[int], points: dict[int, int], h: History, round_no: int, rng: random.Random
) -> Pairing | None:
    if len(active) < 2:
        return None
    pos = {e: i for i, e in enumerate(active)}
    place = _group_places(active, points.__getitem__)

    # (score difference², floating, place in the score group, both want the same side)
    def cost(a: Node, b: Node) -> Cost | None:
        if h.opponents[a][b]:
            return None
        return ((points[a] - points[b]) ** 2, 0, _slide(a, b, place), _lead_clash(a, b, h))

    def floating(e: Node, from_bottom: int, low: int) -> Cost:
        return ((points[e] - low) ** 2, from_bottom, 0, 0)

    byes: tuple[int, ...] = ()
    if len(active) % 2 == 0:
        couples = _pair(active, points.__getitem__, cost, floating)
    else:
        fewest = min(h.byes[e] for e in active)
        eligible = [e for e in reversed(active) if h.byes[e] == fewest]
        couples, byes = _with_byes(active, [[e] for e in eligible], points, cost, floating)
        if couples is None:  # one exact matching: the bye joined to every eligible entrant
            matched = _exact(
                active, {"bye": eligible}, cost, lambda _node, e: (len(active) - 1 - pos[e],)
            )
            if matched is None:
                return None
            byes = tuple(e for node, e in matched if node == "bye")
            couples = [(a, b) for a, b in matched if a != "bye"]
    if couples is None:
        return None
    tables = []
    for a, b in couples:
        first, second = _orient(a, b, h, rng)
        tables.append(((first,), (second,)))
    return _pairing(round_no, tables, byes, pos)


def _with_byes(
    active: list[int],
    choices: list[list[int]],
    points: dict[int, int],
    cost: Callable[[Node, Node], Cost | None],
    floating: Callable[[Node, int, int], Cost],
) -> tuple[list[tuple[Node, Node]] | None, tuple[int, ...]]:
    """The first of (up to ``TRIES``) ``choices`` of byes for which the others pair up."""
    for chosen in choices[:TRIES]:
        rest = [e for e in active if e not in chosen]
        couples = _pair(rest, points.__getitem__, cost, floating)
        if couples is not None:
            return couples, tuple(chosen)
    return None, ()


# -- individual ------------------------------------------------------------------------------


def _individual(
    active: list[int],
    points: dict[int, int],
    h: History,
    round_no: int,
    fill: Fill,
    rng: random.Random,
) -> Pairing | None:
    n = len(active)
    byes_wanted, computers = seat_fill(fill, n)
    if n - byes_wanted < 2 or n - byes_wanted + computers < 4:
        return None
    pos = {e: i for i, e in enumerate(active)}
    place = _group_places(active, points.__getitem__)

    # (score difference², floating, place in the score group)
    def partner_cost(a: Node, b: Node) -> Cost | None:
        if h.partners[a][b]:
            return None
        return ((points[a] - points[b]) ** 2, 0, _slide(a, b, place))

    def floating(e: Node, from_bottom: int, low: int) -> Cost:
        return ((points[e] - low) ** 2, from_bottom, 0)

    # The byes go to those who had fewest (a rule: everyone below the threshold sits out), the
    # lowest-ranked first; a computer partners the lowest-ranked of those who had one least
    # often. The likeliest choices are tried in that order, then one exact matching decides.
    must: list[int] = []
    maybe: list[int] = []
    if byes_wanted:
        threshold = sorted(h.byes[e] for e in active)[byes_wanted - 1]
        must = [e for e in reversed(active) if h.byes[e] < threshold]
        maybe = [e for e in reversed(active) if h.byes[e] == threshold]
    by_computer = sorted(active, key=lambda e: (h.computer_partners[e], -pos[e]))
    choices = [
        (must + list(rest), list(comps))
        for rest in islice(combinations(maybe, byes_wanted - len(must)), TRIES)
        for comps in islice(
            combinations([e for e in by_computer if e not in must + list(rest)], computers), TRIES)
    ]
    couples: list[tuple[Node, Node]] | None = None
    byes: tuple[int, ...] = ()
    with_computer: list[int] = []
    for byes_chosen, comps in choices[:TRIES]:
        humans = [e for e in active if e not in byes_chosen and e not in comps]
        couples = _pair(humans, points.__getitem__, partner_cost, floating)
        if couples is not None:
            byes, with_computer = tuple(byes_chosen), comps
            break
    if couples is None:
        seated = [e for e in active if e not in must]
        fewest = min(h.computer_partners[e] for e in active)
        specials: dict[Node, list[int]] = {
            ("bye", k): maybe for k in range(byes_wanted - len(must))}
        specials |= {("computer", k): seated for k in range(computers)}

        def chosen_cost(node: Node, e: int) -> Cost:
            unfair = h.computer_partners[e] - fewest if node in computer_nodes else 0
            return (unfair, n - 1 - pos[e])

        computer_nodes = {("computer", k) for k in range(computers)}
        matched = _exact(seated, specials, partner_cost, chosen_cost)
        if matched is None:
            return None
        byes = (*must, *(e for node, e in matched if node in specials and node[0] == "bye"))
        with_computer = [e for node, e in matched if node in computer_nodes]
        couples = [(a, b) for a, b in matched if a not in specials]
    teams: list[Team] = [(a, b) if pos[a] < pos[b] else (b, a) for a, b in couples]
    teams += [(e, None) for e in with_computer]
    team_points = {t: sum(points[m] if m is not None else points[t[0]] for m in t) for t in teams}
    teams.sort(key=lambda t: (-team_points[t], pos[t[0]]))
    team_place = _group_places(teams, team_points.__getitem__)

    def balance(t: Team) -> int:
        return sum(h.balance[m] for m in t if m is not None)

    def met(x: Team, y: Team) -> int:
        """How often the people of side ``x`` met those of side ``y`` as opponents."""
        total = 0
        for p in x:
            if p is not None:
                seen = h.opponents[p]
                total += sum(seen.get(q, 0) for q in y if q is not None)
        return total

    def ways(s: Team, t: Team) -> list[tuple[Team, Team]]:
        """The four people of two couples as two sides: the couples themselves or (people
        only) the other two ways of pairing them that repeat no partnership."""
        out = [(s, t)]
        if None not in s and None not in t:
            (a, b), (c, d) = s, t
            out += [(x, y) for x, y in (((a, c), (b, d)), ((a, d), (b, c)))
                     if not h.partners[x[0]].get(x[1]) and not h.partners[y[0]].get(y[1])]
        return out

    def repeats(s: Team, t: Team) -> int:
        """The fewest earlier meetings any way of seating two couples makes."""
        first = met(s, t)
        return first and min(met(x, y) for x, y in ways(s, t))

    def split(s: Team, t: Team) -> tuple[Team, Team]:
        """The way of seating two couples whose opponents met least often before, then whose
        sides' match points are closest."""

        def side_points(x: Team) -> int:
            return sum(points[p] for p in x if p is not None)

        def judged(way: tuple[Team, Team]) -> tuple[int, int]:
            return met(*way), (side_points(way[0]) - side_points(way[1])) ** 2

        return min(ways(s, t), key=judged)

    # (two computers at one table, opponents met again, score difference², floating, place in
    # the score group, both want the same side)
    def team_cost(s: Node, t: Node) -> Cost:
        met_again = repeats(s, t)
        both_computers = int(None in s and None in t)
        x, y = balance(s), balance(t)
        clash = min(abs(x), abs(y)) if x * y > 0 else 0
        return (both_computers, met_again, (team_points[s] - team_points[t]) ** 2, 0,
                _slide(s, t, team_place), clash)

    def team_floating(t: Node, from_bottom: int, low: int) -> Cost:
        return (0, 0, (team_points[t] - low) ** 2, from_bottom, 0, 0)

    def seating_cost(s: Team, t: Team) -> Cost:
        """(two computers, opponents met again, score differences², distance from the ideal
        places) of one table of sides ``s`` and ``t``."""
        score = (side_points(s) - side_points(t)) ** 2
        slide = 0
        for x in (s, t):
            if x[1] is not None:
                score += (points[x[0]] - points[x[1]]) ** 2
                slide += _slide(x[0], x[1], place)
        best_s, best_t = (min((p for p in x if p is not None), key=pos.__getitem__)
                          for x in (s, t))
        (gs, ps, size), (gt, pt, _) = place[best_s], place[best_t]
        if gs == gt:
            slide += abs(4 * abs(ps - pt) - size)
        return (int(None in s and None in t), met(s, t), score, slide)

    def side_points(x: Team) -> int:
        return sum(points[p] if p is not None else points[x[0]] for p in x)

    def total(seating: Sequence[tuple[Team, Team]]) -> Cost:
        return tuple(map(sum, zip(*(seating_cost(s, t) for s, t in seating), strict=True)))

    matches = _pair(teams, team_points.__getitem__, team_cost, team_floating)
    if matches is None:  # cannot happen: any two teams may meet
        return None
    small = len(couples) * 2 + len(with_computer) <= EXACT
    found = _improve([split(couple, other) for couple, other in matches], seating_cost, h,
                     everyone=len(matches) <= EVERY_TWO)
    if small and (worst := total(found)[:2]) > (0, 0):
        seated = [e for couple in couples for e in couple]
        exact = _seat_exactly(seated, with_computer, h, seating_cost, worst)
        if exact is not None and total(exact)[:2] < worst:
            found = _improve(exact, seating_cost, h, everyone=True)
    tables = []
    for s, t in found:
        if balance(s) > balance(t) or (balance(s) == balance(t) and rng.random() < 0.5):
            s, t = t, s
        tables.append((_seat_order(s, h), _seat_order(t, h)))
    return _pairing(round_no, tables, byes, pos)


def _improve(
    seating: list[tuple[Team, Team]],
    cost: Callable[[Team, Team], Cost],
    h: History,
    *,
    everyone: bool,
    window: int = 8,
    passes: int = 4,
) -> list[tuple[Team, Team]]:
    """``seating`` improved two tables at a time: the eight seats of two tables re-seated in
    the best way (no partnership repeated; a computer stays with its person) while that lowers
    the two tables' ``cost`` (summed, compared part by part). Every two tables if
    ``everyone``, else each table with a repeat or two computers and its ``window`` neighbours
    in the list."""
    known: dict[frozenset[frozenset[int | None]], Cost] = {}

    reckon = cost

    def remembered(s: Team, t: Team) -> Cost:
        key = frozenset((frozenset(s), frozenset(t)))
        if key not in known:
            known[key] = reckon(s, t)
        return known[key]

    cost = remembered
    seating = list(seating)
    costs = [cost(s, t) for s, t in seating]
    for _ in range(passes):
        changed = False
        for i in range(len(seating)):
            if not everyone and costs[i][:2] == (0, 0):
                continue
            others = range(i + 1, len(seating)) if everyone else (
                j for j in range(max(0, i - window), min(len(seating), i + window + 1)) if j != i)
            for j in others:
                if everyone and costs[i] == costs[j] == (0,) * len(costs[i]):
                    continue
                here = tuple(map(sum, zip(costs[i], costs[j], strict=True)))
                best = _reseat(seating[i], seating[j], cost, h, here)
                if best is not None:
                    (seating[i], costs[i]), (seating[j], costs[j]) = best
                    changed = True
        if not changed:
            break
    return seating


def _reseat(
    one: tuple[Team, Team],
    two: tuple[Team, Team],
    cost: Callable[[Team, Team], Cost],
    h: History,
    now: Cost,
) -> tuple[tuple[tuple[Team, Team], Cost], tuple[tuple[Team, Team], Cost]] | None:
    """The best seating of two tables' seats if it costs less than ``now``, else None."""
    sides = [*one, *two]
    fixed = [x for x in sides if x[1] is None]
    people = [p for x in sides if x[1] is not None for p in x if p is not None]
    best = None
    for couples in _couplings(people, h):
        a, b, c, d = [*fixed, *couples]
        for (s, t), (u, v) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            x, y = cost(s, t), cost(u, v)
            total = tuple(map(sum, zip(x, y, strict=True)))
            if total < now:
                now, best = total, (((s, t), x), ((u, v), y))
    return best


def _couplings(people: list[int], h: History) -> list[list[Team]]:
    """Every way of partnering ``people`` (an even number) that repeats no partnership."""
    if not people:
        return [[]]
    first, rest = people[0], people[1:]
    out = []
    for k, other in enumerate(rest):
        if not h.partners[first][other]:
            out += [[(first, other), *more]
                    for more in _couplings(rest[:k] + rest[k + 1:], h)]
    return out


def _seat_exactly(
    people: Sequence[int],
    with_computer: Sequence[int],
    h: History,
    cost: Callable[[Team, Team], Cost],
    known: Cost,
) -> list[tuple[Team, Team]] | None:
    """``people`` (partnered among themselves, never with an earlier partner) and
    ``with_computer`` (each partnered by a computer) seated at tables of four: a seating of
    fewest tables with two computers, then fewest repeated opponents (the first two parts of
    ``cost``; an integer program solved by HiGHS), or None when the solver stops before its
    optimum. ``known``: those two parts of a seating known, which no table may exceed."""
    def new(a: int, b: int) -> bool:
        return not h.partners[a][b]

    tables: list[tuple[Team, Team]] = []
    for a, b, c, d in combinations(people, 4):
        for s, t in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            if new(*s) and new(*t):
                tables.append((s, t))
    for x in with_computer:
        tables += [((x, None), (a, b)) for a, b in combinations(people, 2) if new(a, b)]
    tables += [((x, None), (y, None)) for x, y in combinations(with_computer, 2)]
    judged = [(x, c) for x in tables if (c := cost(*x)[:2]) <= known]
    if not judged:
        return None
    tables = [x for x, _ in judged]
    costs = np.array([c for _, c in judged], dtype=np.int64)
    count = (len(people) + len(with_computer)) // 4
    # (two computers, repeats) as one integer: a mixed radix.
    weights = costs[:, 0] * (int(costs[:, 1].max()) * count + 1) + costs[:, 1]
    row = {e: i for i, e in enumerate([*people, *with_computer])}
    rows, cols = [], []
    for k, (s, t) in enumerate(tables):
        for e in (*s, *t):
            if e is not None:
                rows.append(row[e])
                cols.append(k)
    seat = sparse.csc_array(
        (np.ones(len(rows)), (rows, cols)), shape=(len(row), len(tables)))
    res = optimize.milp(
        weights, constraints=optimize.LinearConstraint(seat, 1, 1),
        integrality=np.ones(len(tables)), bounds=optimize.Bounds(0, 1),
        options={"mip_rel_gap": 0.0, "node_limit": NODES, "time_limit": 60.0},
    )
    if res.status != 0:
        return None
    return [tables[k] for k in np.flatnonzero(res.x > 0.5)]


Team = tuple[int, int | None]


def _seat_order(team: Team, h: History) -> Side:
    """The partner with fewer opening leads sits first; a computer sits second."""
    a, b = team
    if b is None:
        return (a, None)
    return (a, b) if (h.leads[a], a) <= (h.leads[b], b) else (b, a)


# -- shared ------------------------------------------------------------------------------------


def _group_places(active: Sequence[Node], points: Callable[[Node], int]) -> Places:
    """Each node's score, its place in its score group and the group's size."""
    groups: dict[int, list[Node]] = {}
    for e in active:
        groups.setdefault(points(e), []).append(e)
    return {e: (key, i, len(g)) for key, g in groups.items() for i, e in enumerate(g)}


def _slide(a: Node, b: Node, place: Places) -> int:
    """How far ``a`` and ``b`` are from the ideal meeting inside their score group: the top
    half against the bottom half, first against first (0 when the groups differ)."""
    (ga, pa, size), (gb, pb, _) = place[a], place[b]
    if ga != gb:
        return 0
    return abs(2 * abs(pa - pb) - size)


def _lead_clash(a: int, b: int, h: History) -> int:
    """How much both want the same side (both led more, or both less, than they followed)."""
    x, y = h.balance[a], h.balance[b]
    return min(abs(x), abs(y)) if x * y > 0 else 0


def _orient(a: int, b: int, h: History, rng: random.Random) -> tuple[int, int]:
    """Who takes side 0 (the opening lead): the one who led less, then the one who followed
    last time, then by lot."""

    def want(e: int) -> tuple[int, int]:
        return (h.balance[e], -h.last_side.get(e, 0))

    wa, wb = want(a), want(b)
    if wa == wb:
        return (a, b) if rng.random() < 0.5 else (b, a)
    return (a, b) if wa < wb else (b, a)


def _pairing(
    round_no: int, tables: list[tuple[Side, Side]], byes: tuple[int, ...], pos: dict[int, int]
) -> Pairing:
    """Number the tables from the top of the standings."""

    def top(sides: tuple[Side, Side]) -> int:
        return min(pos[e] for side in sides for e in side if e is not None)

    tables.sort(key=top)
    return Pairing(
        round=round_no,
        tables=tuple(PairedTable(number=i + 1, sides=s) for i, s in enumerate(tables)),
        byes=tuple(sorted(byes, key=pos.__getitem__)),
    )


def _blocks(ranked: Sequence[Node], points: Callable[[Node], int], size: int) -> list[list[Node]]:
    """The ranked nodes cut into blocks of at most about ``size``: whole score groups together,
    a larger group as slices of its top half joined to the matching slices of its bottom half."""
    groups: list[list[Node]] = []
    for e in ranked:
        if groups and points(groups[-1][0]) == points(e):
            groups[-1].append(e)
        else:
            groups.append([e])
    blocks: list[list[Node]] = []
    current: list[Node] = []
    for g in groups:
        if len(g) > size:
            if current:
                blocks.append(current)
                current = []
            parts = -(-len(g) // size)
            half = -(-len(g) // 2)
            step = -(-half // parts)
            top, bottom = g[:half], g[half:]
            blocks += [top[k:k + step] + bottom[k:k + step] for k in range(0, half, step)]
        elif len(current) + len(g) > size:
            blocks.append(current)
            current = list(g)
        else:
            current += g
    if current:
        blocks.append(current)
    return blocks


def _pair(
    ranked: Sequence[Node],
    points: Callable[[Node], int],
    cost: Callable[[Node, Node], Cost | None],
    floating: Callable[[Node, int, int], Cost],
) -> list[tuple[Node, Node]] | None:
    """Everyone of ``ranked`` (an even number) paired block by block, or None when even one
    block of everyone cannot."""
    size = BLOCK
    while True:
        blocks = _blocks(ranked, points, size)
        pairs = _by_blocks(blocks, points, cost, floating)
        if pairs is not None or len(blocks) == 1:
            return pairs
        size *= 2


def _by_blocks(
    blocks: list[list[Node]],
    points: Callable[[Node], int],
    cost: Callable[[Node, Node], Cost | None],
    floating: Callable[[Node, int, int], Cost],
) -> list[tuple[Node, Node]] | None:
    carried: list[Node] = []
    out: list[tuple[Node, Node]] = []
    for k, block in enumerate(blocks):
        nodes = carried + block
        last = k == len(blocks) - 1
        edges = [
            (i, j, c)
            for i in range(len(nodes))
            for j in range(i + 1, len(nodes))
            if (c := cost(nodes[i], nodes[j])) is not None
        ]
        total = len(nodes)
        if total % 2 and not last:  # one floats down: a node joined to every other
            low = min(points(e) for e in nodes)
            edges += [(i, total, floating(e, total - 1 - i, low)) for i, e in enumerate(nodes)]
            total += 1
        pairs = _solve(total, edges)
        paired = {i for p in pairs for i in p if i < len(nodes)}
        paired -= {i for p in pairs if total - 1 in p and total > len(nodes) for i in p}
        carried = [e for i, e in enumerate(nodes) if i not in paired]
        if last and carried:
            return None
        out += [(nodes[i], nodes[j]) for i, j in pairs if j < len(nodes)]
    return out


def _exact(
    active: list[int],
    special: dict[Node, list[int]],
    cost: Callable[[Node, Node], Cost | None],
    special_cost: Callable[[Node, int], Cost],
) -> list[tuple[Node, Node]] | None:
    """One perfect matching of all ``active`` and the ``special`` nodes (each joined only to
    its listed entrants), or None when there is none. Of those, the least ``special_cost``
    (summed over the special nodes' edges) comes first, then the least ``cost``."""
    specials = list(special)
    index_of = {e: i for i, e in enumerate(active)}
    ordinary = [
        (i, j, c)
        for i in range(len(active))
        for j in range(i + 1, len(active))
        if (c := cost(active[i], active[j])) is not None
    ]
    extra = [
        (index_of[e], len(active) + k, special_cost(node, e))
        for k, node in enumerate(specials)
        for e in special[node]
    ]
    lead = len(extra[0][2]) if extra else 0
    rest = len(ordinary[0][2]) if ordinary else 0
    edges = [(i, j, (0,) * lead + c) for i, j, c in ordinary]
    edges += [(i, j, c + (0,) * rest) for i, j, c in extra]
    total = len(active) + len(specials)
    pairs = _solve(total, edges)
    if len(pairs) * 2 != total:
        return None
    nodes: list[Node] = [*active, *specials]
    return [(nodes[j], nodes[i]) if j >= len(active) else (nodes[i], nodes[j]) for i, j in pairs]


def min_cost_matching(count: int, cost: Callable[[int, int], Cost]) -> list[tuple[int, int]]:
    """Nodes ``0 .. count - 1`` (any two may meet) matched in pairs ``(i, j)``, ``i < j``: the
    most pairs, and of those the least ``cost`` (tuples compared part by part)."""
    return _solve(count, [(i, j, cost(i, j)) for i in range(count) for j in range(i + 1, count)])


def _solve(total: int, edges: list[tuple[int, int, Cost]]) -> list[tuple[int, int]]:
    """A matching of most pairs, and of least cost among those (costs compared as tuples)."""
    if not edges:
        return []
    parts = len(edges[0][2])
    # Mixed radix: part k's sum over a matching is below radix[k], so the parts never mix.
    radix = [max(c[k] for _, _, c in edges) * (total // 2) + 1 for k in range(parts)]
    scale = [1] * parts
    for k in range(parts - 2, -1, -1):
        scale[k] = scale[k + 1] * radix[k + 1]
    flat = [(i, j, sum(x * s for x, s in zip(c, scale, strict=True))) for i, j, c in edges]
    top = max(w for _, _, w in flat) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(total))
    # Below 2**52 the weights are exact as floats, and networkx skips its check of the optimum
    # (done for integer weights only), a sixth of the time.
    exact = float if top < 2**52 else int
    graph.add_weighted_edges_from((i, j, exact(top - w)) for i, j, w in flat)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(p), max(p)) for p in matching)
