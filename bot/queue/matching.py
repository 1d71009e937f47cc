"""Who sits together: the quick match's rule, pure (no I/O, no clock of its own).

The people of one scope wait in the order they joined. The one waiting longest is the
*anchor*: as soon as his table can be filled with people within his rating range, he is
seated with the people closest to his rating among the next waiting ones (a window of twice
the seats to fill, so nobody is passed over by more than a table's worth of later arrivals);
among the window's choices the smallest rating spread wins, then the longest waits. His range
(:func:`gap_limit`) widens as he waits, as Lichess's pools do; a table he cannot fill within
it leaves him waiting and the next anchor is tried. When his computers' time has come (and he
accepts computers), he is seated at once with those of the window who accept computers too,
and computers of the level nearest the people's mean rating fill the rest.
A person queuing for "any" fits every variant; his table's variant is the one the oldest
other waiting person asked for, else the server's default.

In a game of teams, the people (and computers) are arranged so that the two sides' summed
ratings differ least; partners sit across (the sides' seats of the rules). Ties keep the
waiting order.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.queue.values import ANY

__all__ = [
    "DEFAULT_LEVELS",
    "GAP_BASE",
    "GAP_GROWTH",
    "Plan",
    "Seating",
    "Shape",
    "Waiting",
    "arrange",
    "gap_limit",
    "level_for",
    "match",
    "plan",
]

#: The computer levels' ratings (openskill ordinals) where a family has none recorded yet:
#: our decision, spaced around a newcomer's 0.
DEFAULT_LEVELS: Mapping[str, float] = {"easy": -6.0, "normal": -2.0, "hard": 2.0, "expert": 6.0}
#: The widest rating spread (ordinal units: 40 points of the shown rating each) of a table of
#: people whose anchor has just come, and how much it widens per second he waits: 120 shown
#: points at once, 360 after a minute (our decision).
GAP_BASE = 3.0
GAP_GROWTH = 0.1


def gap_limit(waited: float) -> float:
    """The widest rating spread a person accepts after waiting ``waited`` seconds."""
    return GAP_BASE + GAP_GROWTH * max(0.0, waited)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One person's place: what he waits for, since when, his ratings per family."""

    user_id: int
    variant: str  # a preset's id, or ANY
    joined_at: float
    fill_at: float  # from then on computers may fill his table
    computers: bool = True
    ratings: Mapping[str, float] = field(default_factory=dict)  # family -> ordinal

    def rating(self, family: str) -> float:
        return float(self.ratings.get(family, 0.0))


@dataclass(frozen=True, slots=True)
class Shape:
    """What the rule needs of a variant: people per table (seat groups), its rating family,
    and which seat groups form each side (one group per side: no arranging)."""

    variant: str
    people: int
    family: str
    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Seating:
    """A table to open: per seat group the person's id, None for a computer of ``level``."""

    variant: str
    people: tuple[int | None, ...]
    level: str | None
    anchor: int
    gap: float  # the people's rating spread (max - min ordinal)

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(p for p in self.people if p is not None)


def level_for(mean: float, levels: Mapping[str, float]) -> str:
    """The computer level whose rating is nearest ``mean`` (the lower one on a tie)."""
    return min(levels, key=lambda name: (abs(levels[name] - mean), levels[name]))


def arrange(
    ratings: Sequence[float], sides: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """The order of ``ratings``' indices per seat group: the sides' sums as even as can be,
    then the first given in the first groups (a game without teams keeps the order)."""
    groups = sum(len(s) for s in sides)
    if all(len(s) == 1 for s in sides):
        return tuple(range(groups))
    best: tuple[float, tuple[int, ...]] | None = None
    for order in itertools.permutations(range(groups)):
        sums = [sum(ratings[order[g]] for g in side) for side in sides]
        key = (round(max(sums) - min(sums), 9), order)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[1]


def _spread(values: Iterable[float]) -> float:
    found = list(values)
    return max(found) - min(found) if found else 0.0


def _closest(
    anchor: Waiting, window: Sequence[Waiting], need: int, family: str
) -> tuple[Waiting, ...]:
    """The ``need`` people of ``window`` forming the smallest spread with ``anchor``, the
    longest waits on a tie."""
    if len(window) <= need:
        return tuple(window)
    best: tuple[tuple[float, tuple[int, ...]], tuple[Waiting, ...]] | None = None
    for picked in itertools.combinations(range(len(window)), need):
        people = [anchor, *(window[i] for i in picked)]
        key = (round(_spread(p.rating(family) for p in people), 9), picked)
        if best is None or key < best[0]:
            best = (key, tuple(window[i] for i in picked))
    assert best is not None
    return best[1]


@dataclass(frozen=True, slots=True)
class Plan:
    """The tables to open now, and when a range that widens may fill another (None: never
    before the next arrival or computers' time)."""

    tables: tuple[Seating, ...]
    retry_at: float | None


def match(
    waiting: Iterable[Waiting],
    now: float,
    shapes: Mapping[str, Shape],
    *,
    default: str,
    levels: Mapping[str, Mapping[str, float]] | None = None,
    slack: float = 1.0,
    ranged: bool = True,
) -> list[Seating]:
    """The tables to open now (see :func:`plan`)."""
    return list(plan(waiting, now, shapes, default=default, levels=levels, slack=slack,
                     ranged=ranged).tables)


def plan(
    waiting: Iterable[Waiting],
    now: float,
    shapes: Mapping[str, Shape],
    *,
    default: str,
    levels: Mapping[str, Mapping[str, float]] | None = None,
    slack: float = 1.0,
    ranged: bool = True,
) -> Plan:
    """The tables to open now among ``waiting`` (one scope), oldest anchor first.

    ``levels``: per family, the computer levels' ratings (else :data:`DEFAULT_LEVELS`);
    ``slack``: the window beyond the seats to fill, in tables (0: first come, first served);
    ``ranged``: tables of people keep within the anchor's rating range (:func:`gap_limit`).
    """
    pool = sorted(waiting, key=lambda w: (w.joined_at, w.user_id))
    by_variant: dict[str, list[Waiting]] = {}
    for w in pool:
        by_variant.setdefault(w.variant, []).append(w)
    heads = dict.fromkeys(by_variant, 0)
    seated: set[int] = set()
    out: list[Seating] = []
    retry: list[float] = []

    def unseated(variant: str) -> Iterable[Waiting]:
        rows = by_variant.get(variant, ())
        i = heads.get(variant, 0)
        while i < len(rows) and rows[i].user_id in seated:
            i += 1
        if variant in heads:
            heads[variant] = i
        return (w for w in itertools.islice(rows, i, None) if w.user_id not in seated)

    def eligible(
        variant: str, anchor: Waiting, limit: int, with_computers: bool = False
    ) -> list[Waiting]:
        """The first ``limit`` waiting people (not the anchor) who fit ``variant``, oldest
        first: a merge of the variant's own queue and "any" (only those who accept computers,
        ``with_computers``)."""
        merged = heads_merge(unseated(variant), unseated(ANY) if variant != ANY else ())
        fits = (
            w for w in merged
            if w.user_id != anchor.user_id and (w.computers or not with_computers)
        )
        return list(itertools.islice(fits, limit))

    def choices(anchor: Waiting) -> list[str]:
        if anchor.variant != ANY:
            return [anchor.variant]
        named: list[tuple[float, int, str]] = []
        for variant in by_variant:
            if variant == ANY or variant not in shapes:
                continue
            first = next(iter(unseated(variant)), None)
            if first is not None:
                named.append((first.joined_at, first.user_id, variant))
        found = [v for _, _, v in sorted(named)]
        return [*found, default] if default not in found else found

    for anchor in pool:
        if anchor.user_id in seated:
            continue
        options = [v for v in choices(anchor) if v in shapes]
        made: Seating | None = None
        for variant in options:
            shape = shapes[variant]
            need = shape.people - 1
            window = eligible(variant, anchor, need + round(slack * need))
            if len(window) >= need:
                others = _closest(anchor, window, need, shape.family)
                gap = _spread(p.rating(shape.family) for p in (anchor, *others))
                if ranged and gap > gap_limit(now - anchor.joined_at) + 1e-9:
                    retry.append(anchor.joined_at + (gap - GAP_BASE) / GAP_GROWTH)
                    continue
                made = _seat(anchor, others, shape, levels)
                break
        if made is None and options and anchor.computers and now >= anchor.fill_at:
            shape = shapes[options[0]]
            need = shape.people - 1
            window = eligible(shape.variant, anchor, need + round(slack * need), True)
            limit = gap_limit(now - anchor.joined_at) if ranged else float("inf")
            for size in range(min(need, len(window)), -1, -1):  # those within his range
                others = _closest(anchor, window, size, shape.family)
                if _spread(p.rating(shape.family) for p in (anchor, *others)) <= limit + 1e-9:
                    break
            made = _seat(anchor, others, shape, levels)
        if made is not None:
            seated.update(made.seated)
            out.append(made)
    later = [t for t in retry if t > now]
    return Plan(tuple(out), min(later) if later else (now if retry else None))


def heads_merge(first: Iterable[Waiting], second: Iterable[Waiting]) -> Iterable[Waiting]:
    """Two queues in waiting order, merged."""
    return heapq.merge(first, second, key=lambda w: (w.joined_at, w.user_id))


def _seat(
    anchor: Waiting,
    others: Sequence[Waiting],
    shape: Shape,
    levels: Mapping[str, Mapping[str, float]] | None,
) -> Seating:
    people = [anchor, *others]
    family = shape.family
    ratings = [p.rating(family) for p in people]
    level: str | None = None
    filled: list[float] = list(ratings)
    if len(people) < shape.people:
        known = (levels or {}).get(family) or DEFAULT_LEVELS
        level = level_for(sum(ratings) / len(ratings), known)
        filled += [known[level]] * (shape.people - len(people))
    order = arrange(filled, shape.sides)
    ids: list[int | None] = [p.user_id for p in people]
    ids += [None] * (shape.people - len(people))
    return Seating(
        variant=shape.variant,
        people=tuple(ids[i] for i in order),
        level=level,
        anchor=anchor.user_id,
        gap=_spread(ratings),
    )
