"""The rating-over-time picture of /domino stats (render/stats.py)."""

from __future__ import annotations

import io

from PIL import Image

from render.stats import COLOURS, rating_chart

DAY = 86_400.0


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def colours_of(img: Image.Image) -> set[tuple[int, int, int]]:
    """Every colour the picture uses."""
    return {colour for _, colour in img.getcolors(img.width * img.height) or []}


def test_chart_draws_one_line_per_family() -> None:
    series = {
        "partnership": [(1.7e9 + i * DAY, 1000 + 15 * i) for i in range(30)],
        "two-player": [(1.7e9 + i * DAY, 1000 - 5 * i) for i in range(10)],
    }
    img = open_png(rating_chart(series, title="Ana", labels={"partnership": "Partnerships"}))
    assert img.size == (640, 300)
    colours = colours_of(img)
    for colour in COLOURS[:2]:
        assert colour in colours


def test_chart_copes_with_one_point_and_with_none() -> None:
    one = open_png(rating_chart({"three-player": [(1.7e9, 1000)]}, title="Bea", width=320))
    assert one.size == (320, 300)
    assert COLOURS[0] in colours_of(one)
    empty = open_png(rating_chart({}, title="Cid", empty_text="No rated matches yet"))
    assert not colours_of(empty) & set(COLOURS)


def test_one_match_is_a_line_and_no_tick_label_is_cut() -> None:
    """After a first match the rating is a line from the newcomer's 1000 (not a lone dot);
    tick labels, written the reader's way, fit left of the axis (none runs off the edge)."""
    dot = open_png(rating_chart({"two-player": [(1.7e9, 1097.25)]}, title="Bea"))
    line = open_png(
        rating_chart(
            {"two-player": [(1.7e9, 1097.25)]},
            title="Bea",
            start=1000,
            number=lambda value: f"{value:,.0f}".replace(",", "."),
        )
    )
    blue = COLOURS[0]
    assert sum(1 for p in line.getdata() if p == blue) > 5 * sum(
        1 for p in dot.getdata() if p == blue
    )
    for img in (dot, line):
        edge = img.crop((0, 0, 4, img.height))
        assert colours_of(edge) == {(43, 45, 49)}, "a label runs off the left edge"
