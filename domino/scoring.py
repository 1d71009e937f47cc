"""How a finished hand scores: one function for the engine and the computer players' simulator."""

from __future__ import annotations

from collections.abc import Sequence

from domino.rules import Ruleset


def score_hand(
    rs: Ruleset,
    kind: str,
    pips: Sequence[int],
    domino_seat: int | None,
    blocker: int | None,
    side_of: Sequence[int] | None = None,
    seats_of_side: Sequence[Sequence[int]] | None = None,
) -> tuple[int | None, int | None, tuple[int, ...]]:
    """``(winner_seat, winner_side, points per side)`` of a hand that ended by ``kind``.

    ``pips`` are the pips left per seat; ``domino_seat`` who went out (domino); ``blocker``
    who laid the last tile. ``winner_side`` None means nobody scores (a tie). ``side_of`` and
    ``seats_of_side`` may be passed precomputed (the simulator does, for speed).
    """
    seats = rs.seats
    if side_of is None:
        side_of = [rs.side_of(s) for s in range(seats)]
    if seats_of_side is None:
        seats_of_side = [rs.seats_of_side(side) for side in range(rs.sides)]
    sides = len(seats_of_side)
    points = [0] * sides
    winner_side: int | None = None
    winner_seat: int | None = None
    if rs.scoring == "penalty":
        for s in range(seats):
            points[s] = pips[s]
            if kind == "domino" and s != domino_seat:
                points[s] += rs.domino_penalty
        if kind == "domino":
            winner_seat = winner_side = domino_seat
        else:
            low = min(pips)
            if list(pips).count(low) == 1:
                winner_seat = winner_side = list(pips).index(low)
        return winner_seat, winner_side, tuple(points)
    pip = pips.__getitem__
    side_pips = [sum(map(pip, seats)) for seats in seats_of_side]
    if kind == "domino":
        assert domino_seat is not None
        winner_seat = domino_seat
        winner_side = side_of[domino_seat]
    elif rs.blocked == "team":
        low = min(side_pips)
        if side_pips.count(low) == 1:
            winner_side = side_pips.index(low)
        elif rs.block_tie == "blocker-loses" and blocker is not None:
            winner_side = 1 - side_of[blocker]
    else:  # individual / lowest: the single player with fewest pips (tie across sides: none)
        low = min(pips)
        found = {side_of[s] for s in range(seats) if pips[s] == low}
        if len(found) == 1:
            winner_side = found.pop()
    if winner_side is not None:
        if winner_seat is None:  # fewest pips on the winning side; tie: first after the blocker
            after = -1 if blocker is None else blocker
            winner_seat = min(
                seats_of_side[winner_side], key=lambda s: (pips[s], (s - after - 1) % seats)
            )
        if kind == "block" and rs.blocked == "lowest":
            low = pips[winner_seat]
            gained = sum(p - low for s, p in enumerate(pips) if s != winner_seat)
        elif rs.scoring == "all":
            gained = sum(pips)
        else:
            gained = sum(side_pips) - side_pips[winner_side]
        if rs.round_to:
            gained = round_to(gained, rs.round_to)
        points[winner_side] = gained
    return winner_seat, winner_side, tuple(points)


def round_to(value: int, step: int) -> int:
    """``value`` rounded to the nearest multiple of ``step`` (halves round up)."""
    return (value + step // 2) // step * step
