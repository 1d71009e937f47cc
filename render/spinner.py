"""Geometry of an All Fives layout once its spinner is open on four sides: a cross.

The spinner (the first double) stands crosswise in the middle of the main line, which runs
straight left and right of it; the "up" and "down" arms run straight above and below it.
Tiles shrink until the whole cross, with a slot for each open end's number, fits the area.
Before the spinner's up and down sides open, the usual snake of :mod:`render.layout` is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domino.spinner import Arms, arms_open, open_ends
from render.layout import TILE_SIZES, Box, EndMark, Layout, Pair, PlacedTile, _gap

#: ``PlacedTile.index`` of the k-th tile of the up arm is UP + k, of the down arm DOWN + k.
UP, DOWN = 1000, 2000
#: The smallest side of an end's number square, whatever the tiles' size (legible on a phone).
BADGE = 40


def _badge(long: int) -> int:
    return max(long // 2, BADGE)


def uses_cross(line: Sequence[Pair], spinner: int | None) -> bool:
    """Whether the layout is drawn as a cross (the spinner's four sides are open)."""
    return arms_open(tuple(line), spinner)


def arm_index(arm: int, position: int) -> int:
    """The ``PlacedTile.index`` of tile ``position`` of arm 0 (up) or 1 (down)."""
    return (UP if arm == 0 else DOWN) + position


def _extent(pairs: Sequence[Pair], long: int, short: int, gap: int) -> int:
    """Length along an arm: a tile is long, a crosswise double short, plus gaps."""
    return sum((short if a == b else long) + gap for a, b in pairs)


def _size(line: tuple[Pair, ...], spinner: int, arms: Arms, area: Box) -> int:
    x0, y0, x1, y1 = area
    for long in TILE_SIZES:
        short, gap, badge = long // 2, _gap(long), _badge(long)
        left = _extent(line[:spinner], long, short, gap) + badge + gap
        right = _extent(line[spinner + 1 :], long, short, gap) + badge + gap
        up = _extent(arms[0], long, short, gap) + badge + gap
        down = _extent(arms[1], long, short, gap) + badge + gap
        if left + short + right <= x1 - x0 and up + long + down <= y1 - y0:
            return long
    raise ValueError(f"a cross of {len(line) + len(arms[0]) + len(arms[1])} tiles does not fit")


def layout_cross(
    line: Sequence[Pair], spinner: int, arms: Arms, area: Box, *, ends: bool = True
) -> Layout:
    """Lay out the main ``line`` and the spinner's ``arms`` (pairs oriented outward) as a
    cross inside ``area``; ``ends`` adds the square of each open end's number."""
    line = tuple((int(a), int(b)) for a, b in line)
    if not uses_cross(line, spinner):
        raise ValueError("the spinner's up and down sides are not open")
    long = _size(line, spinner, arms, area)
    short, gap, half, badge = long // 2, _gap(long), long // 4, _badge(long)
    x0, y0, x1, y1 = area
    left_len = _extent(line[:spinner], long, short, gap) + badge + gap
    right_len = _extent(line[spinner + 1 :], long, short, gap) + badge + gap
    up_len = _extent(arms[0], long, short, gap) + badge + gap
    down_len = _extent(arms[1], long, short, gap) + badge + gap
    sx = x0 + (x1 - x0 - (left_len + short + right_len)) // 2 + left_len  # spinner's left
    sy = y0 + (y1 - y0 - (up_len + long + down_len)) // 2 + up_len  # spinner's top
    cy = sy + long // 2  # the main line's centre row
    cx = sx + short // 2  # the arms' centre column
    s = line[spinner][0]
    placed = [PlacedTile(spinner, (sx, sy, sx + short, sy + long), "vertical", s, s)]
    marks: list[EndMark] = []

    def row_tile(i: int, start: int, sense: int) -> int:
        """Place line[i] along the row from ``start`` in direction ``sense``; its far edge."""
        a, b = line[i]
        w = short if a == b else long
        lo = start if sense > 0 else start - w
        if a == b:  # crosswise: standing across the row
            box: Box = (lo, cy - long // 2, lo + w, cy + long // 2)
        else:
            box = (lo, cy - half, lo + w, cy + half)
        placed.append(PlacedTile(i, box, "vertical" if a == b else "horizontal", a, b))
        return lo + w if sense > 0 else lo

    edge = sx + short
    for i in range(spinner + 1, len(line)):
        edge = row_tile(i, edge + gap, 1)
    if ends:
        top = cy - badge // 2
        marks.append(EndMark("right", line[-1][1], (edge + gap, top, edge + gap + badge,
                                                    top + badge)))
    edge = sx
    for i in range(spinner - 1, -1, -1):
        edge = row_tile(i, edge - gap, -1)
    if ends:
        top = cy - badge // 2
        marks.append(EndMark("left", line[0][0], (edge - gap - badge, top, edge - gap,
                                                  top + badge)))
    numbers = dict(open_ends(line, spinner, arms))
    for k, (arm, sense, side) in enumerate(((arms[0], -1, "up"), (arms[1], 1, "down"))):
        edge = sy if sense < 0 else sy + long
        for position, (near, far) in enumerate(arm):
            h = short if near == far else long
            lo = edge + gap if sense > 0 else edge - gap - h
            if near == far:  # crosswise: lying across the arm
                box = (cx - long // 2, lo, cx + long // 2, lo + h)
                orientation: Literal["horizontal", "vertical"] = "horizontal"
                first, second = near, far
            else:
                box = (cx - half, lo, cx + half, lo + h)
                orientation = "vertical"
                first, second = (far, near) if sense < 0 else (near, far)
            placed.append(PlacedTile(arm_index(k, position), box, orientation, first, second))
            edge = lo + h if sense > 0 else lo
        if ends:
            lo = edge + gap if sense > 0 else edge - gap - badge
            left = cx - badge // 2
            marks.append(EndMark(side, numbers[side], (left, lo, left + badge, lo + badge)))
    placed.sort(key=lambda p: p.index)
    return Layout(area, long, 1, tuple(placed), tuple(marks))  # type: ignore[arg-type]


def last_arm_tile(events: Sequence[object], arms: Arms) -> int | None:
    """The ``PlacedTile.index`` of the last tile laid when it went on an arm, else None."""
    for event in reversed(events):
        if getattr(event, "kind", None) == "play":
            end = getattr(event, "end", None)
            if end in ("up", "down"):
                k = 0 if end == "up" else 1
                return arm_index(k, len(arms[k]) - 1)
            return None
    return None
