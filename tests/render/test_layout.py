"""The snake layout on its own: any line, any opener, checked without drawing."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from render.layout import TILE_SIZES, Layout, PlacedTile, layout_line
from render.table import LINE_AREA, LINE_AREA_UNDER_BANNER

Box = tuple[int, int, int, int]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _distance(a: Box, b: Box) -> int:
    """Gap between two rectangles (0 when they touch)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0)
    dy = max(a[1] - b[3], b[1] - a[3], 0)
    return max(dx, dy)


def _half_centre(p: PlacedTile, value: int) -> tuple[float, float]:
    """Centre of the half of ``p`` that shows ``value``."""
    x0, y0, x1, y1 = p.box
    first = p.first == value
    if p.orientation == "horizontal":
        mid = (x0 + x1) / 2
        return ((x0 + mid) / 2 if first else (mid + x1) / 2, (y0 + y1) / 2)
    mid = (y0 + y1) / 2
    return ((x0 + x1) / 2, (y0 + mid) / 2 if first else (mid + y1) / 2)


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _dist2(a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def check_layout(line: list[tuple[int, int]], layout: Layout) -> None:
    """Every promise of :func:`layout_line` about ``line``."""
    area = layout.area
    tiles = layout.tiles
    assert [p.index for p in tiles] == list(range(len(line))), "every tile exactly once"
    boxes = [p.box for p in tiles] + [e.box for e in layout.ends]
    for i, box in enumerate(boxes):
        assert area[0] <= box[0] < box[2] <= area[2], f"{box} cut by the edge of {area}"
        assert area[1] <= box[1] < box[3] <= area[3], f"{box} cut by the edge of {area}"
        for other in boxes[i + 1 :]:
            assert not _overlap(box, other), f"{box} overlaps {other}"
    long, short = layout.tile, layout.tile // 2
    gap = max(2, long // 20)
    for p, (a, b) in zip(tiles, line, strict=True):
        w, h = p.box[2] - p.box[0], p.box[3] - p.box[1]
        assert (w, h) == ((long, short) if p.orientation == "horizontal" else (short, long))
        assert {p.first, p.second} == {a, b}
    for p, q in itertools.pairwise(tiles):
        assert _distance(p.box, q.box) <= gap, "the snake is continuous"
        a, b = line[p.index]
        c, d = line[q.index]
        assert b == c, "the test line must match itself"
        if a != b:  # the matching number faces the next tile
            assert _dist2(_half_centre(p, b), _centre(q.box)) < _dist2(
                _half_centre(p, a), _centre(q.box)
            )
        if c != d:
            assert _dist2(_half_centre(q, c), _centre(p.box)) < _dist2(
                _half_centre(q, d), _centre(p.box)
            )
    if line:
        left, right = layout.ends
        assert (left.side, left.value) == ("left", line[0][0])
        assert (right.side, right.value) == ("right", line[-1][1])
        assert _distance(left.box, tiles[0].box) <= gap
        assert _distance(right.box, tiles[-1].box) <= gap


@st.composite
def lines(draw: st.DrawFn) -> tuple[list[tuple[int, int]], int]:
    """A chain of matching tiles (numbers 0-9) of up to 55 tiles, and an opener in it."""
    n = draw(st.integers(1, 55))
    doubles = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    start = draw(st.integers(0, 9))
    line: list[tuple[int, int]] = []
    left = start
    for k in range(n):
        right = left if doubles[k] else draw(st.integers(0, 9).filter(lambda x, v=left: x != v))
        line.append((left, right))
        left = right
    return line, draw(st.integers(0, n - 1))


@settings(max_examples=400, deadline=None)
@given(case=lines(), banner=st.booleans())
def test_any_line_up_to_a_full_double_nine_set_lays_out(
    case: tuple[list[tuple[int, int]], int], banner: bool
) -> None:
    line, opener = case
    area = LINE_AREA_UNDER_BANNER if banner else LINE_AREA
    check_layout(line, layout_line(line, opener, area))


def test_worst_cases_fit_with_readable_tiles() -> None:
    """All doubles, no doubles, opener at either end: 40 tiles (cuban) stay large."""
    for n in (28, 40):
        for double in (False, True):
            line = [(5, 5)] * n if double else [(k % 2, (k + 1) % 2) for k in range(n)]
            for opener in (0, n // 2, n - 1):
                for area in (LINE_AREA, LINE_AREA_UNDER_BANNER):
                    layout = layout_line(line, opener, area)
                    check_layout(line, layout)
                    assert layout.tile >= 80, (n, double, opener, layout.tile)


def test_short_lines_are_centred_and_large() -> None:
    layout = layout_line([(3, 5)], 0, LINE_AREA)
    (tile,) = layout.tiles
    cx = (tile.box[0] + tile.box[2]) / 2
    assert abs(cx - (LINE_AREA[0] + LINE_AREA[2]) / 2) <= layout.tile // 4
    assert layout.tile == TILE_SIZES[0]
    assert (tile.first, tile.second) == (3, 5)


def test_layout_is_a_pure_function() -> None:
    line = [(1, 2), (2, 2), (2, 6), (6, 0)]
    assert layout_line(line, 1, LINE_AREA) == layout_line(tuple(line), 1, LINE_AREA)
