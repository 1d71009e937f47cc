"""``python -m benchmarks.arena``: the arena's pairing of whoever waits, against a sorted rule.

A simulated arena of ``--entrants`` (default 200) people (one against one; ``--format
individual``: tables of four) runs for ``--minutes`` (default 60) of simulated time, paired by
the arena's pairing (:func:`bot.tournaments.arena.pair`: a minimum-cost matching of the most
tables, never the last opponent again before 30 s): each table lasts 3 to 9 minutes (drawn),
its result is drawn from the ratings, and whenever tables end their people wait and the
waiting set is paired. At each of those instants a plain sorted rule (the waiting in the
standings' order, each with the next one he may meet) pairs the same waiting set too, in the
same run. Printed for each: the tables it makes, the mean squared gap of arena score between a
table's sides, how many meetings repeat a last opponent (after the 30 s wait), the CPU time of
a pairing (mean and largest); with the machine's load.
"""

from __future__ import annotations

import argparse
import heapq
import random
import time
from collections.abc import Callable, Sequence

from benchmarks.tournament import load
from bot.tournaments import arena
from bot.tournaments.arena import REPEAT_WAIT, ArenaPairing, Waiting
from bot.tournaments.model import WIN, Format, Side

Pairer = Callable[[Format, Sequence[Waiting], float], ArenaPairing]


def sorted_rule(fmt: Format, waiting: Sequence[Waiting], now: float) -> ArenaPairing:
    """The peer: in the standings' order, each with the next one(s) he may meet (one against
    one; individual: the next three with whom the first and fourth against the second and
    third repeat no opponent and no partner of their last table)."""
    people = arena.order(waiting)
    tables: list[tuple[Side, Side]] = []
    used: set[int] = set()
    size = 4 if fmt == "individual" else 2
    for i, a in enumerate(people):
        if a.entrant in used:
            continue
        group = [a]
        for b in people[i + 1:]:
            if b.entrant in used or not _fits(group, b, now):
                continue
            group.append(b)
            if len(group) == size:
                break
        if len(group) == size:
            used.update(g.entrant for g in group)
            if size == 2:
                tables.append(((group[0].entrant,), (group[1].entrant,)))
            else:
                tables.append(
                    ((group[0].entrant, group[3].entrant), (group[1].entrant, group[2].entrant))
                )
    return ArenaPairing(tuple(tables), None)


def _fits(group: list[Waiting], b: Waiting, now: float) -> bool:
    """Whether ``b`` may take the next place of the group (places 1 and 4 partners against
    2 and 3)."""
    place = len(group)
    if place in (1, 2):  # an opponent of the first (and the second's partner)
        return arena.may_meet(group[0], b, now) and (
            place == 1 or arena._partners(group[1], b, now)
        )
    return (
        arena._partners(group[0], b, now)
        and arena.may_meet(group[1], b, now)
        and arena.may_meet(group[2], b, now)
    )


def gap_of(tables: Sequence[tuple[Side, Side]], score: dict[int, int]) -> list[int]:
    """The squared gap of arena score between the two sides of each table."""
    return [
        (sum(score[e] for e in s0 if e is not None) - sum(score[e] for e in s1 if e is not None))
        ** 2
        for s0, s1 in tables
    ]


def simulate(fmt: Format, entrants: int, minutes: int, seed: int) -> dict[str, dict[str, float]]:
    """The arena run by our pairing; at each pairing instant the sorted rule is also asked to
    pair the same waiting set (its tables are not played), so both are measured on the same
    instants."""
    rng = random.Random(seed)
    ratings = {i: rng.gauss(1500, 250) for i in range(1, entrants + 1)}
    games: dict[int, list[int]] = {i: [] for i in ratings}
    last: dict[int, frozenset[int]] = {}
    partner: dict[int, int | None] = {}
    since = {i: 0.0 for i in ratings}
    waiting = set(ratings)
    ends: list[tuple[float, int, tuple[Side, Side]]] = []
    now, end, counter = 0.0, minutes * 60.0, 0
    figures = {
        name: {"tables": 0.0, "gaps": 0.0, "cpu": 0.0, "cpu_max": 0.0, "repeats": 0.0}
        for name in PAIRERS
    }
    instants = 0
    while now < end:
        people = [
            Waiting(e, sum(arena.game_points(games[e])), ratings[e], since[e],
                    last.get(e, frozenset()), partner.get(e))
            for e in sorted(waiting)
        ]
        score = {w.entrant: w.score for w in people}
        instants += 1
        found = None
        for name, pairer in PAIRERS.items():
            started = time.process_time()
            got = pairer(fmt, people, now)
            spent = time.process_time() - started
            f = figures[name]
            f["cpu"] += spent
            f["cpu_max"] = max(f["cpu_max"], spent)
            f["tables"] += len(got.tables)
            f["gaps"] += sum(gap_of(got.tables, score))
            f["repeats"] += sum(
                len(last.get(e, frozenset()) & set(t[1 - k]))  # type: ignore[arg-type]
                for t in got.tables for k in (0, 1) for e in t[k]  # type: ignore[misc]
            ) // 2
            if found is None:
                found = got
        assert found is not None
        for sides in found.tables:
            for e in (*sides[0], *sides[1]):
                waiting.discard(e)  # type: ignore[arg-type]
            counter += 1
            heapq.heappush(ends, (now + rng.uniform(180, 540), counter, sides))
        if not ends:
            break
        now = ends[0][0] if found.again_at is None else min(ends[0][0], found.again_at)
        while ends and ends[0][0] <= now:
            _, _, sides = heapq.heappop(ends)
            strength = [sum(ratings[e] for e in s) / len(s) for s in sides]  # type: ignore[index]
            p0 = 1 / (1 + 10 ** ((strength[1] - strength[0]) / 400))
            won = 0 if rng.random() < p0 else 1
            for side in (0, 1):
                for e in sides[side]:
                    games[e].append(WIN if side == won else 0)  # type: ignore[index]
                    last[e] = frozenset(sides[1 - side])  # type: ignore[arg-type]
                    partner[e] = next((p for p in sides[side] if p != e), None)  # type: ignore[assignment]
                    since[e] = now  # type: ignore[index]
                    waiting.add(e)  # type: ignore[arg-type]
    for f in figures.values():
        f["gap"] = f["gaps"] / max(f["tables"], 1)
        f["cpu_mean_ms"] = 1000 * f["cpu"] / max(instants, 1)
        f["cpu_max_ms"] = 1000 * f["cpu_max"]
    return figures


PAIRERS: dict[str, Pairer] = {"matching (ours)": arena.pair, "sorted rule": sorted_rule}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--format", default="single", choices=("single", "individual"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    fmt: Format = args.format
    print(f"arena of {args.entrants} ({fmt}), {args.minutes} min simulated; {load()}")
    found = simulate(fmt, args.entrants, args.minutes, args.seed)
    for name, figures in found.items():
        print(
            f"{name:16} tables {figures['tables']:5.0f}  mean squared score gap"
            f" {figures['gap']:7.2f}  repeats {figures['repeats']:4.0f}  CPU a pairing"
            f" {figures['cpu_mean_ms']:7.2f} ms (largest {figures['cpu_max_ms']:7.1f} ms)"
        )
    ours, peer = found["matching (ours)"], found["sorted rule"]
    if peer["gap"]:
        print(f"score gap ours / sorted: {ours['gap'] / peer['gap']:.2f}")
    print(f"repeat wait {REPEAT_WAIT:.0f} s; {load()}")


if __name__ == "__main__":
    main()
