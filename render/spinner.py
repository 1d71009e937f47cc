"""Geometry of an All Fives layout once its spinner is open on four sides: a cross.

The spinner (the first double) stands crosswise in the main line, which runs left and right
of it; the "up" and "down" arms start above and below it. Each arm winds as a snake of rows
in its own quarter of the area, like a pinwheel (see ``_FRAMES``), so the four never meet.
The largest tiles are taken with which the whole cross, with a square for each open end's
number, fits the area without overlaps.
Before the spinner's up and down sides open, the usual snake of :mod:`render.layout` is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from domino.spinner import Arms, arms_open, open_ends
from render.layout import (
    _CORNER,
    _DOUBLE,
    TILE_SIZES,
    Box,
    EndMark,
    Layout,
    Pair,
    PlacedTile,
    _arm,
    _gap,
    _pitch,
)

#: ``PlacedTile.index`` of the k-th tile of the up arm is UP + k, of the down arm DOWN + k.
UP, DOWN = 1000, 2000
#: The smallest side of an end's number square, whatever the tiles' size (legible on a phone).
BADGE = 40
_FAR = 1 << 30  # further than any picture reaches


def _badge(long: int) -> int:
    return max(long // 2, BADGE)


def uses_cross(line: Sequence[Pair], spinner: int | None) -> bool:
    """Whether the layout is drawn as a cross (the spinner's four sides are open)."""
    return arms_open(tuple(line), spinner)


def arm_index(arm: int, position: int) -> int:
    """The ``PlacedTile.index`` of tile ``position`` of arm 0 (up) or 1 (down)."""
    return (UP if arm == 0 else DOWN) + position


# Each arm winds as a snake of rows in its own quarter of the table, like a pinwheel: the
# right arm below the main line's right part, the left arm above its left part; the up arm
# rises a tile's length, then winds right and upwards; the down arm goes down a tile's
# length, then winds left and downwards. A frame: the screen direction of the arm's first row
# and the one its rows step in.
_FRAMES = {"right": ("R", "D"), "left": ("L", "U"), "up": ("R", "U"), "down": ("L", "D")}
_STEM = {"up": "U", "down": "D"}
_STEP = {"R": (1, 0), "D": (0, 1), "L": (-1, 0), "U": (0, -1)}
_OPPOSITE = {"R": "L", "L": "R", "U": "D", "D": "U"}


def _inside(box: Box, area: Box) -> bool:
    return area[0] <= box[0] < box[2] <= area[2] and area[1] <= box[1] < box[3] <= area[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _screen(frame: tuple[str, str], ox: int, oy: int, u0: int, u1: int, v0: int, v1: int
            ) -> Box:
    """The screen box of [u0, u1] x [v0, v1] of a frame (u along its first row, v across its
    rows) whose origin is (ox, oy)."""
    (ax, ay), (sx, sy) = _STEP[frame[0]], _STEP[frame[1]]
    # The frame's two directions are square to each other: x follows one of u and v, y the
    # other, so the corners (u0, v0) and (u1, v1) hold both extremes of each.
    x0, x1 = ox + ax * u0 + sx * v0, ox + ax * u1 + sx * v1
    y0, y1 = oy + ay * u0 + sy * v0, oy + ay * u1 + sy * v1
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _reach(area: Box, x: int, y: int, d: str) -> int:
    """How far the area reaches from (x, y) in direction ``d``."""
    return {"R": area[2] - x, "L": x - area[0], "D": area[3] - y, "U": y - area[1]}[d]


def _tile(index: int, box: Box, travel: str, near: int, far: int) -> PlacedTile:
    """A tile in ``box`` laid travelling ``travel``: its near number first when that is left
    or up."""
    horizontal = box[2] - box[0] > box[3] - box[1]
    orientation: Literal["horizontal", "vertical"] = "horizontal" if horizontal else "vertical"
    first, second = (near, far) if travel in ("R", "D") else (far, near)
    return PlacedTile(index, box, orientation, first, second)


def _square(box: Box, travel: str, short: int) -> Box:
    """The half of a slot ``box`` that comes first when travelling ``travel``."""
    if travel in ("R", "L"):
        x0 = box[0] if travel == "R" else box[2] - short
        return (x0, box[1], x0 + short, box[3])
    y0 = box[1] if travel == "D" else box[3] - short
    return (box[0], y0, box[2], y0 + short)


def _rows(
    side: str, frame: tuple[str, str], ox: int, oy: int, tiles: Sequence[tuple[int, Pair]],
    start: int, reach: int, long: int, value: int | None, span: list[int],
) -> tuple[int, list[PlacedTile], list[EndMark]] | None:
    """``tiles`` as a snake of rows in ``frame`` from (ox, oy): the first row from ``start``
    on, each turning back before the column through the origin (its crosswise doubles and a
    corner's width left free) and before ``reach`` px from it. The rows are close unless two
    doubles of neighbouring rows would meet. (Rows the walks needed beyond the first, placed
    tiles, end square), or None if they do not fit however much room there is across.
    ``span``, [least, most], is narrowed to the reaches that give the same."""
    short, gap = long // 2, _gap(long)
    along, across = frame
    lo = short + gap + short + gap
    hi = reach - short - gap
    if hi - lo < 2 * long:
        span[1] = min(span[1], lo + 2 * long + short + gap - 1)
        return None
    span[0] = max(span[0], lo + 2 * long + short + gap)
    his = [-_FAR, _FAR]  # the same in values of hi
    widths = [short if near == far else long for _, (near, far) in tiles]
    if value is not None:
        widths.append(short + 2)  # the end's square (not a double: wider than half a tile)
    # Rows close together; a double that would touch the one of the row before lies along
    # its row instead (the tiles before it stay where they were).
    pitch = _pitch(long)
    need = 0
    for _ in range(len(widths)):
        walked = _arm(widths, start, 1, long, lo, hi, len(widths), his)
        assert walked is not None
        need = max(need, sum(kind == _CORNER for *_, kind in walked))
        later = _doubles_meet(walked, gap)
        if later is None:
            break
        widths[later] = long
    else:
        walked = None
    span[0] = max(span[0], his[0] + short + gap)
    span[1] = min(span[1], his[1] + short + gap)
    if walked is None:
        return None
    placed: list[PlacedTile] = []
    marks: list[EndMark] = []
    for n, (k, u0, u1, kind) in enumerate(walked):
        centre = k * pitch
        if kind == _CORNER:  # upright across the rows, half way between two of them
            v0, v1 = centre + pitch // 2 - short, centre + pitch // 2 + short
            travel = across
        else:
            thick = long if kind == _DOUBLE else short
            v0, v1 = centre - thick // 2, centre - thick // 2 + thick
            travel = along if k % 2 == 0 else _OPPOSITE[along]
        box = _screen(frame, ox, oy, u0, u1, v0, v1)
        if n == len(tiles):  # the end's square: the slot's half next to the last tile
            assert value is not None
            marks.append(EndMark(side, value, _square(box, travel, short)))  # type: ignore[arg-type]
            break
        index, (near, far) = tiles[n]
        placed.append(_tile(index, box, travel, near, far))
    return need, placed, marks


def _doubles_meet(walked: Sequence[tuple[int, int, int, int]], gap: int) -> int | None:
    """The position of the first crosswise double that would touch one of the row before,
    or None."""
    doubles = [(n, k, u0, u1) for n, (k, u0, u1, kind) in enumerate(walked) if kind == _DOUBLE]
    for n, k2, b0, b1 in doubles:
        if any(k1 == k2 - 1 and a0 < b1 + gap and b0 < a1 + gap for _, k1, a0, a1 in doubles):
            return n
    return None


@dataclass(frozen=True, slots=True)
class _Shape:
    """One arm laid out from the spinner's centre at (0, 0)."""

    need: int  # rows beyond its first that it takes (room across is checked where it lies)
    across: int  # where its rows start across the line, from the spinner's centre
    tiles: tuple[PlacedTile, ...]
    marks: tuple[EndMark, ...]
    bounds: Box | None  # the smallest box holding all of them (None: nothing)
    sound: bool  # no box is empty and none overlaps another

    def boxes(self) -> list[Box]:
        """Every tile's and end square's box."""
        return [p.box for p in self.tiles] + [m.box for m in self.marks]


def _shaped(tiles: Sequence[PlacedTile], marks: Sequence[EndMark], need: int, across: int
            ) -> _Shape:
    boxes = [p.box for p in tiles] + [m.box for m in marks]
    bounds = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
              max(b[3] for b in boxes)) if boxes else None
    sound = all(b[0] < b[2] and b[1] < b[3] for b in boxes) and not any(
        _overlap(box, other) for i, box in enumerate(boxes) for other in boxes[i + 1 :])
    return _Shape(need, across, tuple(tiles), tuple(marks), bounds, sound)


@lru_cache(maxsize=8192)
def _shapes(side: str, tiles: tuple[tuple[int, Pair], ...], long: int, value: int | None
            ) -> list[tuple[int, int, _Shape | None]]:
    """The shapes of one arm made so far, each with the least and most reach it holds for."""
    return []


def _shape(side: str, tiles: tuple[tuple[int, Pair], ...], long: int, reach: int,
           value: int | None) -> _Shape | None:
    """One arm (``tiles``: (index, (near, far)) outward) from the spinner's centre, its rows
    turning back before ``reach`` px from it, and its end's square when ``value`` is given;
    None if it does not fit. The same arm anywhere else is this one moved (every step of it
    is measured from the spinner's centre and from the area's edge along the rows)."""
    made = _shapes(side, tiles, long, value)
    for least, most, shape in made:
        if least <= reach <= most:
            return shape
    span = [-_FAR, _FAR]
    shape = _make_shape(side, tiles, long, reach, value, span)
    made.append((span[0], span[1], shape))
    return shape


def _make_shape(side: str, tiles: tuple[tuple[int, Pair], ...], long: int, reach: int,
                value: int | None, span: list[int]) -> _Shape | None:
    """:func:`_shape`, narrowing ``span`` to the reaches that give the same."""
    short, gap = long // 2, _gap(long)
    frame = _FRAMES[side]
    if side in ("right", "left"):  # the main line: its rows step away from it
        walked = _rows(side, frame, 0, 0, tiles, short // 2 + gap, reach, long, value, span)
        return None if walked is None else _shaped(walked[1], walked[2], walked[0], 0)
    # Up or down: a tile's length of column from the spinner, then rows away from the line.
    stem = _STEM[side]
    c = short + gap
    placed: list[PlacedTile] = []
    last: Box | None = None
    n = 0
    while n < len(tiles) and c - short - gap < long:
        index, (near, far) = tiles[n]
        length, thick = (short, long) if near == far else (long, short)
        box = _screen((stem, frame[0]), 0, 0, c, c + length, -(thick // 2), thick - thick // 2)
        placed.append(_tile(index, box, stem, near, far))
        last = box
        c += length + gap
        n += 1
    if n == len(tiles):
        if value is None:
            return _shaped(placed, [], 0, 0)
        # Only the end's square is left: at the column's end.
        square = _screen((stem, frame[0]), 0, 0, c, c + short, -(short // 2),
                         short - short // 2)
        return _shaped(placed, [EndMark(side, value, square)], 0, 0)  # type: ignore[arg-type]
    assert last is not None
    # The rows start beside the column's last tile, level with its far half.
    if last[3] - last[1] > last[2] - last[0]:  # upright: its far half
        oy = last[1] + short // 2 if stem == "U" else last[3] - short // 2
    else:
        oy = (last[1] + last[3]) // 2
    walked = _rows(side, frame, 0, oy, tiles[n:], (last[2] - last[0]) // 2 + gap, reach, long,
                   value, span)
    if walked is None:
        return None
    return _shaped(placed + walked[1], walked[2], walked[0], oy)


def _moved(box: Box, dx: int, dy: int) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


@dataclass(frozen=True, slots=True)
class _Cross:
    """A cross to lay out: its spinner tile and its four arms, the longest first."""

    spinner: int
    number: int  # the spinner's number
    walks: tuple[tuple[str, tuple[tuple[int, Pair], ...], int], ...]  # side, tiles, end

    @staticmethod
    def of(line: tuple[Pair, ...], spinner: int, arms: Arms) -> _Cross:
        """The cross of ``line`` and ``arms`` around ``spinner``."""
        numbers = dict(open_ends(line, spinner, arms))
        walks = sorted((  # the longest arm first: the one likeliest not to fit
            ("right", tuple((i, line[i]) for i in range(spinner + 1, len(line)))),
            ("left", tuple((i, (line[i][1], line[i][0])) for i in range(spinner - 1, -1, -1))),
            ("up", tuple((arm_index(0, k), p) for k, p in enumerate(arms[0]))),
            ("down", tuple((arm_index(1, k), p) for k, p in enumerate(arms[1]))),
        ), key=lambda walk: -len(walk[1]))
        return _Cross(spinner, line[spinner][0],
                      tuple((side, tiles, numbers[side]) for side, tiles in walks))


#: The arms' shapes with the spinner's centre at an x, and the least and most y of its centre
#: with which they all lie in the area (None: at no y).
Column = tuple[list[_Shape], int, int] | None


def _column(plan: _Cross, area: Box, long: int, cx: int, ends: bool) -> Column:
    """The arms with the spinner's centre at x = ``cx``, and the ys of its centre with which
    every arm lies inside the area, with room for its rows (overlaps not looked at)."""
    short = long // 2
    pitch = _pitch(long)
    least, most = -_FAR, _FAR
    shapes: list[_Shape] = []
    for side, tiles, value in plan.walks:
        along, across = _FRAMES[side]
        reach = area[2] - cx if along == "R" else cx - area[0]
        shape = _shape(side, tiles, long, reach, value if ends else None)
        if shape is None or not shape.sound:
            return None
        if shape.bounds is not None:
            x0, y0, x1, y1 = shape.bounds
            if cx + x0 < area[0] or cx + x1 > area[2]:
                return None
            least, most = max(least, area[1] - y0), min(most, area[3] - y1)
        if shape.need:  # rows beyond the first: the room across them
            room = shape.need * pitch + short
            if across == "D":
                most = min(most, area[3] - shape.across - room)
            else:
                least = max(least, area[1] - shape.across + room)
        shapes.append(shape)
    return shapes, least, most


def _cross(
    plan: _Cross, area: Box, long: int, sx: int, sy: int, ends: bool,
    columns: dict[int, Column] | None = None,
) -> Layout | None:
    """Every tile and end square with the spinner's top left at (sx, sy), or None."""
    short = long // 2
    spinner_box = (sx, sy, sx + short, sy + long)
    if not _inside(spinner_box, area):
        return None
    cx, cy = sx + short // 2, sy + long // 2
    if columns is None:
        column = _column(plan, area, long, cx, ends)
    elif cx in columns:
        column = columns[cx]
    else:
        column = columns[cx] = _column(plan, area, long, cx, ends)
    if column is None or not column[1] <= cy <= column[2]:
        return None
    shapes = column[0]
    # No two boxes of different arms, nor the spinner's, overlap (an arm's own never do).
    placed = [(shape, None if shape.bounds is None else _moved(shape.bounds, cx, cy))
              for shape in shapes]
    for i, (shape, bounds) in enumerate(placed):
        if bounds is None:
            continue
        if _overlap(bounds, spinner_box) and any(
                _overlap(_moved(box, cx, cy), spinner_box) for box in shape.boxes()):
            return None
        for other, around in placed[i + 1 :]:
            if around is not None and _overlap(bounds, around) and any(
                    _overlap(_moved(a, cx, cy), _moved(b, cx, cy))
                    for a in shape.boxes() for b in other.boxes()):
                return None
    tiles = [PlacedTile(plan.spinner, spinner_box, "vertical", plan.number, plan.number)]
    marks: list[EndMark] = []
    for shape in shapes:
        tiles += (PlacedTile(p.index, _moved(p.box, cx, cy), p.orientation, p.first, p.second)
                  for p in shape.tiles)
        marks += (EndMark(m.side, m.value, _moved(m.box, cx, cy)) for m in shape.marks)
    tiles.sort(key=lambda p: p.index)
    return Layout(area, long, 1, tuple(tiles), tuple(marks))


def _attempt(plan: _Cross, area: Box, ends: bool, long: int) -> Layout | None:
    """The cross with tiles ``long`` px long, the spinner placed where it first fits: the
    middle of the area first, then places a tile's width apart ever further from it."""
    x0, y0, x1, y1 = area
    short = long // 2
    mx, my = (x0 + x1 - short) // 2, (y0 + y1 - long) // 2
    step = max(2, short)
    xs = sorted(range(mx - (mx - x0) // step * step, x1 - short + 1, step),
                key=lambda x: (abs(x - mx), x))
    ys = sorted(range(my - (my - y0) // step * step, y1 - long + 1, step),
                key=lambda y: (abs(y - my), y))
    columns: dict[int, Column] = {}
    for sy in ys:
        cy = sy + long // 2
        for sx in xs:
            cx = sx + short // 2
            if cx in columns:
                column = columns[cx]
            else:
                column = columns[cx] = _column(plan, area, long, cx, ends)
            if column is None or not column[1] <= cy <= column[2]:
                continue  # what _cross would find first, looked at here
            found = _cross(plan, area, long, sx, sy, ends, columns)
            if found is not None:
                return found
    return None


def _search(plan: _Cross, area: Box, ends: bool, tiles: int) -> Layout:
    """The largest tiles that fit: a binary search over the sizes (smaller tiles fit more
    easily), then the sizes just above the one found are tried too."""
    best: Layout | None = None
    lo, hi = 0, len(TILE_SIZES) - 1  # TILE_SIZES runs from the largest down
    while lo <= hi:
        mid = (lo + hi) // 2
        found = _attempt(plan, area, ends, TILE_SIZES[mid])
        if found is None:
            lo = mid + 1
        else:
            best, hi = found, mid - 1
    if best is None:
        for long in TILE_SIZES:  # rare long arms under a banner: every size, largest first
            found = _attempt(plan, area, ends, long)
            if found is not None:
                return found
        raise ValueError(f"a cross of {tiles} tiles does not fit")
    index = TILE_SIZES.index(best.tile)
    for bigger in TILE_SIZES[max(0, index - 2) : index]:
        found = _attempt(plan, area, ends, bigger)
        if found is not None:
            return found
    return best


def _smaller(line: tuple[Pair, ...], spinner: int, arms: Arms
             ) -> tuple[tuple[Pair, ...], int, Arms] | None:
    """The same cross with the outer tile of its longest arm taken away (None if no arm can
    lose a tile and stay a cross)."""
    left, right = spinner, len(line) - 1 - spinner
    options = [(right - 1, 0), (left - 1, 1), (len(arms[1]), 2), (len(arms[0]), 3)]
    length, which = max(options, key=lambda o: (o[0], -o[1]))
    if length < 1:
        return None
    if which == 0:
        return line[:-1], spinner, arms
    if which == 1:
        return line[1:], spinner - 1, arms
    if which == 2:
        return line, spinner, (arms[0], arms[1][:-1])
    return line, spinner, (arms[0][:-1], arms[1])


@lru_cache(maxsize=4096)
def _solve(line: tuple[Pair, ...], spinner: int, arms: Arms, area: Box, ends: bool) -> Layout:
    """The cross as the same cross one tile smaller has it, with the new tile added, when that
    still fits (the tiles laid stay where they were); else the largest tiles that fit, not
    larger than before, the spinner kept where it was if it can."""
    plan = _Cross.of(line, spinner, arms)
    smaller = _smaller(line, spinner, arms)
    if smaller is None:
        return _search(plan, area, ends, len(line) + sum(map(len, arms)))
    before = _solve(*smaller, area, ends)
    sx, sy = next(p.box[:2] for p in before.tiles if p.index == smaller[1])
    found = _cross(plan, area, before.tile, sx, sy, ends)
    if found is not None:
        return found
    for long in TILE_SIZES[TILE_SIZES.index(before.tile):]:
        found = _attempt(plan, area, ends, long)
        if found is not None:
            return found
    return _search(plan, area, ends, len(line) + sum(map(len, arms)))


def layout_cross(
    line: Sequence[Pair], spinner: int, arms: Arms, area: Box, *, ends: bool = True
) -> Layout:
    """Lay out the main ``line`` and the spinner's ``arms`` (pairs oriented outward) as a
    cross inside ``area``, each arm turning once (rarely twice), clockwise, at the edge if it must;
    ``ends`` adds the square of each open end's number. The largest tiles that fit."""
    line = tuple((int(a), int(b)) for a, b in line)
    if not uses_cross(line, spinner):
        raise ValueError("the spinner's up and down sides are not open")
    up, down = (tuple((int(a), int(b)) for a, b in arm) for arm in arms)
    return _solve(line, spinner, (up, down), area, ends)


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
