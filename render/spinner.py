"""Geometry of an All Fives layout once its spinner is open on four sides: a cross.

The spinner (the first double) stands crosswise in the main line, which runs left and right
of it; the "up" and "down" arms run above and below it. An arm that reaches the edge turns
once, clockwise (right turns down, down turns left, left turns up, up turns right), so the
four never meet. The largest tiles are taken with which the whole cross, with a square for
each open end's number, fits the area without overlaps.
Before the spinner's up and down sides open, the usual snake of :mod:`render.layout` is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
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


# Directions of travel, and the clockwise turn an arm takes at the edge of the area: the
# right arm turns down, the down arm left, the left arm up, the up arm right (a pinwheel).
_STEP = {"R": (1, 0), "D": (0, 1), "L": (-1, 0), "U": (0, -1)}
_TURN = {"R": "D", "D": "L", "L": "U", "U": "R"}


def _box(d: str, start: int, centre: int, length: int, thick: int) -> Box:
    """The box of something ``length`` long along direction ``d`` from ``start``, centred
    across on ``centre``."""
    lo, hi = centre - thick // 2, centre - thick // 2 + thick
    if d == "R":
        return (start, lo, start + length, hi)
    if d == "L":
        return (start - length, lo, start, hi)
    if d == "D":
        return (lo, start, hi, start + length)
    return (lo, start - length, hi, start)


def _inside(box: Box, area: Box) -> bool:
    return area[0] <= box[0] < box[2] <= area[2] and area[1] <= box[1] < box[3] <= area[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _arm(
    tiles: Sequence[tuple[int, Pair]], d: str, start: int, centre: int, long: int, area: Box,
    end: tuple[str, int] | None, turns: int = 1,
) -> tuple[list[PlacedTile], list[EndMark]] | None:
    """Walk one arm: ``tiles`` are (index, (near, far)) outward; it may turn ``turns`` times
    at the edge. Returns the placed tiles and the end's square, or None if it does not fit."""
    short, gap, badge = long // 2, _gap(long), _badge(long)
    sign = 1 if d in ("R", "D") else -1
    turned = 0
    placed: list[PlacedTile] = []
    for k, (index, (near, far)) in enumerate(tiles):
        double = near == far
        length, thick = (short, long) if double else (long, short)
        last = k == len(tiles) - 1 and end is not None
        need = length + (gap + badge if last else 0)
        box = _box(d, start, centre, need, thick)
        if not _inside(box, area):
            if turned == turns or k == 0:  # an arm goes straight for a tile before it turns
                return None
            turned += 1
            new = _TURN[d]
            new_centre = start + sign * (thick // 2)
            start = centre - (1 if new in ("R", "D") else -1) * (short // 2)
            d, centre = new, new_centre
            sign = 1 if d in ("R", "D") else -1
            if not _inside(_box(d, start, centre, need, thick), area):
                return None
        box = _box(d, start, centre, length, thick)
        across = d in ("U", "D")
        if double:
            orientation: Literal["horizontal", "vertical"] = "horizontal" if across else "vertical"
            first, second = near, far
        else:
            orientation = "vertical" if across else "horizontal"
            first, second = (near, far) if d in ("R", "D") else (far, near)
        placed.append(PlacedTile(index, box, orientation, first, second))
        start += sign * (length + gap)
    marks: list[EndMark] = []
    if end is not None:
        marks.append(EndMark(end[0], end[1], _box(d, start, centre, badge, badge)))  # type: ignore[arg-type]
    return placed, marks


def _cross(
    line: tuple[Pair, ...], spinner: int, arms: Arms, area: Box, long: int, sx: int, sy: int,
    ends: bool, turns: int = 1,
) -> Layout | None:
    """Every tile and end square with the spinner's top left at (sx, sy), or None."""
    short, gap = long // 2, _gap(long)
    s = line[spinner][0]
    spinner_box = (sx, sy, sx + short, sy + long)
    if not _inside(spinner_box, area):
        return None
    numbers = dict(open_ends(line, spinner, arms))
    cy, cx = sy + long // 2, sx + short // 2
    walks = (
        ([(i, line[i]) for i in range(spinner + 1, len(line))], "R", sx + short + gap, cy,
         "right"),
        ([(i, (line[i][1], line[i][0])) for i in range(spinner - 1, -1, -1)], "L", sx - gap, cy,
         "left"),
        ([(arm_index(0, k), p) for k, p in enumerate(arms[0])], "U", sy - gap, cx, "up"),
        ([(arm_index(1, k), p) for k, p in enumerate(arms[1])], "D", sy + long + gap, cx,
         "down"),
    )
    placed = [PlacedTile(spinner, spinner_box, "vertical", s, s)]
    marks: list[EndMark] = []
    for tiles, d, start, centre, side in walks:
        end = (side, numbers[side]) if ends else None
        # The main line may turn once more than the up and down arms: they stay above and
        # below the spinner, it winds round them.
        walked = _arm(tiles, d, start, centre, long, area, end, turns + (d in "RL"))
        if walked is None:
            return None
        placed += walked[0]
        marks += walked[1]
    boxes = [p.box for p in placed] + [m.box for m in marks]
    for i, box in enumerate(boxes):
        if not _inside(box, area) or any(_overlap(box, other) for other in boxes[i + 1 :]):
            return None
    placed.sort(key=lambda p: p.index)
    return Layout(area, long, 1, tuple(placed), tuple(marks))


def _extent(pairs: Sequence[Pair], long: int) -> int:
    """Length of a straight arm: a tile is long, a crosswise double short, plus gaps."""
    return sum((long // 2 if a == b else long) + _gap(long) for a, b in pairs)


def _attempt(
    line: tuple[Pair, ...], spinner: int, arms: Arms, area: Box, ends: bool, long: int,
    turns: int = 1,
) -> Layout | None:
    """The cross with tiles ``long`` px long, the spinner placed where it first fits."""
    x0, y0, x1, y1 = area
    short = long // 2
    # The spinner where straight arms would balance, then nearby places...
    left, right = _extent(line[:spinner], long), _extent(line[spinner + 1 :], long)
    up, down = _extent(arms[0], long), _extent(arms[1], long)
    room = _badge(long) + _gap(long)
    nx = (x0 + x1 - short) // 2 + (left - right) // 2
    ny = (y0 + y1 - long) // 2 + (up - down) // 2
    # ... and where one straight arm just fits, the other turning sooner.
    fit_x = (x0 + left + room, x1 - short - right - room)
    fit_y = (y0 + up + room, y1 - long - down - room)
    xs = sorted(
        {min(max(x, x0), x1 - short)
         for x in (nx, *fit_x, sum(fit_x) // 2, *(nx + f * long for f in (-1, 1, -2, 2)))},
        key=lambda x: abs(x - nx),
    )
    ys = sorted(
        {min(max(y, y0), y1 - long)
         for y in (ny, *fit_y, sum(fit_y) // 2, *(ny + f * long for f in (-1, 1, -2, 2)))},
        key=lambda y: abs(y - ny),
    )
    for sy in ys:
        for sx in xs:
            found = _cross(line, spinner, arms, area, long, sx, sy, ends, turns)
            if found is not None:
                return found
    return None


def _search(line: tuple[Pair, ...], spinner: int, arms: Arms, area: Box, ends: bool) -> Layout:
    """The largest tiles that fit: a binary search over the sizes (smaller tiles fit more
    easily), then the sizes just above the one found are tried too."""
    best: Layout | None = None
    lo, hi = 0, len(TILE_SIZES) - 1  # TILE_SIZES runs from the largest down
    while lo <= hi:
        mid = (lo + hi) // 2
        found = _attempt(line, spinner, arms, area, ends, TILE_SIZES[mid])
        if found is None:
            lo = mid + 1
        else:
            best, hi = found, mid - 1
    if best is None:
        # Rare long arms under a banner: every size, largest first, then arms turning twice.
        for turns in (1, 2):
            for long in TILE_SIZES:
                found = _attempt(line, spinner, arms, area, ends, long, turns)
                if found is not None:
                    return found
        raise ValueError(f"a cross of {len(line) + sum(map(len, arms))} tiles does not fit")
    index = TILE_SIZES.index(best.tile)
    for bigger in TILE_SIZES[max(0, index - 2) : index]:
        found = _attempt(line, spinner, arms, area, ends, bigger)
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
    smaller = _smaller(line, spinner, arms)
    if smaller is None:
        return _search(line, spinner, arms, area, ends)
    before = _solve(*smaller, area, ends)
    sx, sy = next(p.box[:2] for p in before.tiles if p.index == smaller[1])
    found = _cross(line, spinner, arms, area, before.tile, sx, sy, ends)
    if found is not None:
        return found
    for long in TILE_SIZES[TILE_SIZES.index(before.tile):]:
        found = _attempt(line, spinner, arms, area, ends, long)
        if found is not None:
            return found
    return _search(line, spinner, arms, area, ends)


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
