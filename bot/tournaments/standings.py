"""The standings of an event: match points, then the tie-breaks, and why each line is where it is.

Order: match points, point difference (tantos for minus against), Buchholz, head-to-head,
rating at the start. Entrants equal on all of them share a rank and are listed in entry order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.tournaments.model import (
    BYE_POINTS,
    DRAW,
    LATE_BYE_POINTS,
    LOSS,
    TIE_BREAKS,
    WIN,
    Bye,
    Entrant,
    Format,
    Result,
    Standing,
    TieBreak,
)


@dataclass(slots=True)
class _Tally:
    match_points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    #: Per table: (opponents, partners) as entrant ids, None for a computer seat.
    tables: list[tuple[tuple[int | None, ...], tuple[int | None, ...]]] = field(
        default_factory=list
    )
    #: Match points scored at each table, with the opponents met there.
    scored: list[tuple[int, tuple[int | None, ...]]] = field(default_factory=list)


def tally(entrants: Iterable[Entrant], results: Iterable[Result]) -> dict[int, _Tally]:
    """Each entrant's totals from the results (a late entrant's half-point bye included)."""
    out: dict[int, _Tally] = {}
    for e in entrants:
        out[e.id] = _Tally()
        if e.joined_round > 1:
            out[e.id].match_points += LATE_BYE_POINTS
            out[e.id].byes += 1
    for r in results:
        if isinstance(r, Bye):
            if r.entrant in out:
                out[r.entrant].match_points += BYE_POINTS
                out[r.entrant].byes += 1
            continue
        for side in (0, 1):
            mp = r.match_points(side)
            opponents = r.sides[1 - side]
            for e in r.sides[side]:
                if e is None or e not in out:
                    continue
                t = out[e]
                partners = tuple(p for p in r.sides[side] if p != e)
                t.tables.append((opponents, partners))
                t.played += 1
                if e in r.absent:
                    t.losses += 1
                    t.scored.append((LOSS, opponents))
                    continue
                t.match_points += mp
                t.wins += mp == WIN
                t.draws += mp == DRAW
                t.losses += mp == LOSS
                t.points_for += r.points[side]
                t.points_against += r.points[1 - side]
                t.scored.append((mp, opponents))
    return out


def _buchholz(me: int, tallies: dict[int, _Tally]) -> int:
    """Opponents' match points minus partners' (individual); a bye, a computer seat or an
    unknown entrant counts as the entrant's own score."""
    own = tallies[me].match_points
    total = own * tallies[me].byes
    for opponents, partners in tallies[me].tables:
        for o in opponents:
            total += tallies[o].match_points if o in tallies else own
        for p in partners:
            total -= tallies[p].match_points if p in tallies else own
    return total


def _head_to_head(group: Sequence[int], tallies: dict[int, _Tally]) -> dict[int, int]:
    """Match points each of ``group`` scored at tables where it met another of ``group``."""
    members = set(group)
    return {
        e: sum(mp for mp, opponents in tallies[e].scored if members.intersection(opponents))
        for e in group
    }


def standings(
    fmt: Format, entrants: Sequence[Entrant], results: Sequence[Result]
) -> list[Standing]:
    """Every entrant's line, best first, with ranks and the tie-break that decided each line.

    ``fmt`` does not change the arithmetic (a side's entrants share its score); it is taken so
    that callers never rank one format's results by another's rules.
    """
    del fmt
    tallies = tally(entrants, results)
    by_id = {e.id: e for e in entrants}
    entry = {e.id: i for i, e in enumerate(entrants)}
    buchholz = {e: _buchholz(e, tallies) for e in tallies}

    def primary(e: int) -> tuple[int, int, int]:
        t = tallies[e]
        return (t.match_points, t.points_for - t.points_against, buchholz[e])

    groups: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for e in tallies:
        groups[primary(e)].append(e)
    h2h: dict[int, int] = {}
    for group in groups.values():
        h2h.update(_head_to_head(group, tallies) if len(group) > 1 else {group[0]: 0})

    def key(e: int) -> tuple[float, ...]:
        mp, diff, bh = primary(e)
        return (mp, diff, bh, h2h[e], by_id[e].rating)

    order = sorted(tallies, key=lambda e: (*(-k for k in key(e)), entry[e]))
    lines: list[Standing] = []
    for i, e in enumerate(order):
        t = tallies[e]
        decided: TieBreak | None = None
        rank = i + 1
        if i:
            above = key(order[i - 1])
            mine = key(e)
            decided = next((tb for tb, a, b in zip(TIE_BREAKS, above, mine, strict=True)
                            if a != b), None)
            if decided is None:
                rank = lines[-1].rank
        lines.append(Standing(
            rank=rank, entrant=e, match_points=t.match_points, played=t.played, wins=t.wins,
            draws=t.draws, losses=t.losses, byes=t.byes, points_for=t.points_for,
            points_against=t.points_against, buchholz=buchholz[e], rating=by_id[e].rating,
            withdrawn=by_id[e].withdrawn, decided_by=decided, head_to_head=h2h[e],
        ))
    return lines

