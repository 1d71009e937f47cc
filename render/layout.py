"""Geometry of the line of play: a snake grown from the opening tile, without drawing.

The opener sits in one row; the right part of the line runs away from it (to the right,
then turning down at the edge and coming back), the left part runs the other way (to the
left, then turning up). A tile that does not fit before the edge becomes a corner: it is
stood upright half way between its row and the next, and the next row starts beside it.
Doubles lie crosswise. Rows are a tile and a half apart, so a double reaches half way to the
next row; when two doubles of neighbouring rows would meet, the rows are a tile apart.

One extra "ghost" slot is reserved after each open end: the picture draws the end's number
there, exactly where the next tile would go, so it can never cover a tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Box = tuple[int, int, int, int]
Pair = tuple[int, int]

#: Long side of a tile, largest first; the layout takes the first that fits. Steps of about
#: 8%: the size changes on few moves of a hand, and a move that keeps it redraws little.
TILE_SIZES: tuple[int, ...] = (168, 156, 144, 132, 120, 112, 108, 104, 96, 88, 80, 72, 64, 60, 56,
                               52, 48, 44, 40, 36, 32, 28)

_ROW, _DOUBLE, _CORNER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One tile of the line as drawn.

    ``first`` is the number on the left half (horizontal) or top half (vertical);
    ``second`` the other one. A double has ``first == second``.
    """

    index: int
    box: Box
    orientation: Literal["horizontal", "vertical"]
    first: int
    second: int

    @property
    def is_double(self) -> bool:
        """True for a double (drawn crosswise in a row, or upright in a corner)."""
        return self.first == self.second


@dataclass(frozen=True, slots=True)
class EndMark:
    """Where the number of an open end is shown: a square next to the end tile."""

    side: Literal["left", "right"]
    value: int
    box: Box


@dataclass(frozen=True, slots=True)
class Layout:
    """Every tile of a line placed inside ``area``; ``tile`` is the long side in pixels."""

    area: Box
    tile: int
    rows: int
    tiles: tuple[PlacedTile, ...]
    ends: tuple[EndMark, ...]

    @property
    def short(self) -> int:
        """The short side of a tile."""
        return self.tile // 2


def _gap(long: int) -> int:
    return max(2, long // 20)


def _pitch(long: int, dense: bool = True) -> int:
    """From one row's middle to the next: a tile and a half's width, so a crosswise double
    reaches half way to the next row (two doubles one over the other are kept apart); or,
    when doubles of neighbouring rows would meet, a whole tile's length."""
    return (long * 3 // 4 if dense else long) + _gap(long)


def _arm(
    widths: Sequence[int], start: int, direction: int, long: int, lo: int, hi: int, max_k: int,
    span: list[int] | None = None,
) -> list[tuple[int, int, int, int]] | None:
    """Place one arm of the snake in normalised rows (0 = the opener's row, 1 = next, ...).

    ``widths`` holds each tile's width along the row (long side, or short side for a
    double); ``start`` is the cursor next to the opener; ``direction`` +1 runs right, -1
    left. Returns ``(row, x0, x1, kind)`` per tile, or None when more than ``max_k``
    further rows would be needed. ``span``, [least, most], is narrowed to the values of
    ``hi`` with which the arm would be placed the same.
    """
    short = long // 2
    gap = _gap(long)
    out: list[tuple[int, int, int, int]] = []
    k = 0
    c = start
    corner: tuple[int, int] | None = None
    for w in widths:
        double = w == short
        if corner is not None:  # the row after a corner starts beside its lower half
            cx0, cx1 = corner
            corner = None
            if direction < 0:
                x1 = cx0 - gap
                x0 = x1 - w
                c = x0 - gap
            else:
                x0 = cx1 + gap
                x1 = x0 + w
                c = x1 + gap
            out.append((k, x0, x1, _DOUBLE if double else _ROW))
            continue
        if direction > 0:
            if c + w <= hi:
                if span is not None:
                    span[0] = max(span[0], c + w)
                out.append((k, c, c + w, _DOUBLE if double else _ROW))
                c += w + gap
                continue
            if span is not None:
                span[1] = min(span[1], c + w - 1)
            corner = (c, c + short)
        else:
            if c - w >= lo:
                out.append((k, c - w, c, _DOUBLE if double else _ROW))
                c -= w + gap
                continue
            corner = (c - short, c)
        out.append((k, corner[0], corner[1], _CORNER))
        k += 1
        direction = -direction
        if k > max_k:
            return None
    return out


def _doubles_meet(left: list[tuple[int, int, int, int]], right: list[tuple[int, int, int, int]],
                  x: int, w_op: int, opener_double: bool, gap: int) -> bool:
    """Whether two crosswise doubles of neighbouring rows would touch (one over the other)."""
    doubles: dict[int, list[tuple[int, int]]] = {}
    if opener_double:
        doubles[0] = [(x, x + w_op)]
    for sense, arm in ((1, right), (-1, left)):
        for k, x0, x1, kind in arm:
            if kind == _DOUBLE:
                doubles.setdefault(sense * k, []).append((x0, x1))
    return any(a0 < b1 + gap and b0 < a1 + gap
               for row, spans in doubles.items() for a0, a1 in spans
               for b0, b1 in doubles.get(row + 1, ()))


def _rows(arm: list[tuple[int, int, int, int]]) -> int:
    """Rows below (or above) the opener's row an arm needs."""
    if not arm:
        return 0
    last = arm[-1]
    return last[0] + (1 if last[3] == _CORNER else 0)


@lru_cache(maxsize=512)
def _solve(
    widths: tuple[int, ...], opener: int, area: Box, ghosts: bool
) -> tuple[int, int, int, int, list[tuple[int, int, int, int]],
           list[tuple[int, int, int, int]]]:
    """Choose the tile size, the rows' pitch, the opener's x and row. Returns (long, pitch,
    x, r0, left, right)."""
    for long in TILE_SIZES:
        for dense in (True, False):
            found = _place(widths, opener, area, ghosts, long, dense)
            if found is not None:
                return found
    raise ValueError(f"a line of {len(widths)} tiles does not fit in {area}")


def _place(
    widths: tuple[int, ...], opener: int, area: Box, ghosts: bool, long: int, dense: bool
) -> tuple[int, int, int, int, list[tuple[int, int, int, int]],
           list[tuple[int, int, int, int]]] | None:
    """The line with tiles ``long`` px long and rows ``dense`` or not, or None."""
    x_lo, y_lo, x_hi, y_hi = area
    short = long // 2
    gap = _gap(long)
    pitch = _pitch(long, dense)
    if y_hi - y_lo < long:
        return None
    max_rows = (y_hi - y_lo - long) // pitch + 1
    ws = [short if w else long for w in widths]
    extra = [long] if ghosts else []
    right_ws = ws[opener + 1 :] + extra
    left_ws = ws[:opener][::-1] + extra
    w_op = ws[opener]
    lo = x_lo + short + gap
    hi = x_hi - short - gap
    if hi - lo < 3 * long:
        return None
    total = sum(ws) + gap * (len(ws) - 1)
    # Rough capacity check before the search.
    if total + 2 * len(extra) * (long + gap) > max_rows * (x_hi - x_lo):
        return None
    # The opener stays put while it can: on a grid of steps from the middle, the place
    # nearest the middle, so a move rarely shifts the tiles laid.
    step = max(2, short // 2)
    middle = (x_lo + x_hi) // 2 - w_op // 2
    order = sorted(range(middle - (middle - lo) // step * step, hi - w_op + 1, step),
                   key=lambda x: (abs(x - middle), x))
    for x in order:
        right = _arm(right_ws, x + w_op + gap, 1, long, lo, hi, max_rows - 1)
        if right is None:
            continue
        a = _rows(right)
        left = _arm(left_ws, x - gap, -1, long, lo, hi, max_rows - 1 - a)
        if left is None:
            continue
        if a + _rows(left) + 1 > max_rows:
            continue
        if dense and _doubles_meet(left, right, x, w_op, widths[opener], gap):
            continue
        return long, pitch, x, _rows(left), left, right
    return None


def layout_line(
    line: Sequence[Pair], opener_index: int | None, area: Box, *, ends: bool = True
) -> Layout:
    """Lay out ``line`` (oriented pairs, left to right) inside ``area`` = (x0, y0, x1, y1).

    ``opener_index`` is the index of the hand's first tile. ``ends`` reserves a slot after
    each open end for its number. Raises ValueError if the area is too small for any size.
    """
    line = tuple((int(a), int(b)) for a, b in line)
    if not line:
        return Layout(area, TILE_SIZES[0], 0, (), ())
    if opener_index is None or not 0 <= opener_index < len(line):
        raise ValueError(f"opener_index {opener_index} outside a line of {len(line)}")
    widths = tuple(a == b for a, b in line)
    long, pitch, x, r0, left, right = _solve(widths, opener_index, area, ends)
    short = long // 2
    half = short // 2
    rows = _rows(left) + _rows(right) + 1
    _x_lo, y_lo, _x_hi, y_hi = area
    # The opener's row in the middle, moved only as far as the rows above or below need.
    highest = y_lo + r0 * pitch + long // 2
    lowest = y_hi - (rows - 1 - r0) * pitch - long + long // 2
    yc0 = min(max((y_lo + y_hi) // 2, highest), lowest)

    placed: list[PlacedTile] = []
    marks: list[EndMark] = []
    w_op = short if widths[opener_index] else long

    def row_box(yc: int, x0: int, x1: int, kind: int) -> tuple[Box, bool]:
        if kind == _DOUBLE:
            return (x0, yc - short, x1, yc + short), True
        return (x0, yc - half, x1, yc + half), False

    # The opener.
    a, b = line[opener_index]
    box, vertical = row_box(yc0, x, x + w_op, _DOUBLE if a == b else _ROW)
    placed.append(PlacedTile(opener_index, box, "vertical" if vertical else "horizontal", a, b))

    for sense, arm, indices in (
        (1, right, range(opener_index + 1, len(line) + 1)),
        (-1, left, range(opener_index - 1, -2, -1)),
    ):
        prev_box = box
        for (k, x0, x1, kind), i in zip(arm, indices, strict=True):
            yc = yc0 + sense * k * pitch
            # A tile's connecting number faces the previous tile; which half that is
            # depends on the row's direction (rows alternate, starting away from the opener).
            going_right = (k % 2 == 0) == (sense > 0)
            if kind == _CORNER:  # upright, half way between its two rows
                y0 = yc + sense * (pitch // 2) - short
                tbox: Box = (x0, y0, x1, y0 + long)
                vertical = True
            else:
                tbox, vertical = row_box(yc, x0, x1, kind)
            if i in (-1, len(line)):
                marks.append(_end_mark(sense, line, tbox, prev_box, short))
                continue
            a, b = line[i]
            # Right arm: a connects backwards; left arm: b connects backwards.
            near, far = (a, b) if sense > 0 else (b, a)
            if kind == _CORNER:
                first, second = (near, far) if sense > 0 else (far, near)
            else:
                first, second = (near, far) if going_right else (far, near)
            orient: Literal["horizontal", "vertical"] = "vertical" if vertical else "horizontal"
            placed.append(PlacedTile(i, tbox, orient, first, second))
            prev_box = tbox
    placed.sort(key=lambda p: p.index)
    marks.sort(key=lambda m: m.side)
    return Layout(area, long, rows, tuple(placed), tuple(marks))


def _end_mark(sense: int, line: tuple[Pair, ...], ghost: Box, prev: Box, short: int) -> EndMark:
    """The square of the ghost slot nearest the end tile."""
    value = line[-1][1] if sense > 0 else line[0][0]
    gx0, gy0, gx1, gy1 = ghost
    pcx, pcy = (prev[0] + prev[2]) / 2, (prev[1] + prev[3]) / 2
    if gx1 - gx0 > gy1 - gy0:  # horizontal ghost: left or right half
        x0 = gx0 if abs(gx0 + short / 2 - pcx) <= abs(gx1 - short / 2 - pcx) else gx1 - short
        box = (x0, gy0, x0 + short, gy1)
    else:
        y0 = gy0 if abs(gy0 + short / 2 - pcy) <= abs(gy1 - short / 2 - pcy) else gy1 - short
        box = (gx0, y0, gx1, y0 + short)
    return EndMark("right" if sense > 0 else "left", value, box)
