"""What each seat did last in the hand on the table, as plain data for the pictures."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from domino import View


@dataclass(frozen=True, slots=True)
class LastMove:
    """A seat's latest turn in the hand shown.

    ``kind`` is "play" (laid ``tile``), "pass", or "draw" (drew and has not finished the
    turn yet). ``drew`` counts the tiles drawn in that turn, ``timed_out`` says the turn
    timer moved for the player.
    """

    kind: Literal["play", "pass", "draw"]
    tile: tuple[int, int] | None = None
    drew: int = 0
    timed_out: bool = False


def last_moves(view: View, timed_out: Collection[int] = ()) -> tuple[LastMove | None, ...]:
    """Each seat's latest turn in the hand on ``view``'s table (None: no move yet).

    Reads only public events. ``timed_out`` holds the seats whose latest turn the timer
    played (the caller knows who acted; the view does not).
    """
    seats = view.ruleset.seats
    latest: list[LastMove | None] = [None] * seats
    previous: int | None = None
    for event in view.events:
        seat = event.seat
        if seat is None or not 0 <= seat < seats:
            previous = None
            continue
        current = latest[seat] if previous == seat else None
        drew = current.drew if current is not None else 0
        if event.kind == "draw":
            latest[seat] = LastMove("draw", None, drew + 1)
        elif event.kind == "pass":
            latest[seat] = LastMove("pass", None, drew)
        elif event.kind == "play" and event.tile is not None:
            latest[seat] = LastMove("play", (event.tile.a, event.tile.b), drew)
        previous = seat
    return tuple(
        LastMove(m.kind, m.tile, m.drew, True) if m is not None and s in timed_out else m
        for s, m in enumerate(latest)
    )
