"""The rating-over-time picture of ``/domino stats``: one line per variant family.

A pure function from numbers to PNG bytes (Pillow, with the font shipped in render/fonts);
the caller passes every text already translated.
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable, Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

from render.sprites import font

__all__ = ["COLOURS", "rating_chart"]

BACKGROUND = (43, 45, 49)  # Discord's dark theme
GRID = (70, 73, 80)
AXIS_TEXT = (181, 186, 193)
TITLE_TEXT = (242, 243, 245)
COLOURS: tuple[tuple[int, int, int], ...] = (
    (88, 166, 255),  # blue
    (255, 176, 59),  # amber
    (87, 242, 135),  # green
    (237, 66, 69),  # red
    (200, 130, 255),  # violet
)

Series = Sequence[tuple[float, float]]  # (unix time, rating)


def _font(size: int) -> ImageFont.FreeTypeFont:
    """The project's shipped font (accents included), as in the table pictures."""
    return font(size)


def _nice_step(span: float, ticks: int = 4) -> int:
    """A whole step between ticks (1, 2, 5 or 10 times a power of ten): labels without
    decimals."""
    raw = max(span, 1.0) / ticks
    power = 10 ** max(0, math.floor(math.log10(raw)))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)


def _date(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(t))


def rating_chart(
    series: Mapping[str, Series],
    *,
    title: str,
    labels: Mapping[str, str] | None = None,
    empty_text: str = "",
    start: float | None = None,
    number: Callable[[float], str] = lambda value: f"{value:g}",
    width: int = 640,
    height: int = 300,
) -> bytes:
    """A PNG of each series (key -> points) as a line of rating against time.

    ``labels`` names the series in the legend (default: their keys); ``empty_text`` is
    written when there is no point at all; ``start``: the rating every series begins from
    (drawn just before its first point, so one match is a line, not a lone dot); ``number``
    writes a tick's value (the reader's digits).
    """
    if start is not None:
        series = {
            key: [(pts[0][0] - 1.0, start), *pts] if pts else [] for key, pts in series.items()
        }
    labels = labels or {}
    scale = 2  # draw at twice the size, then shrink: smooth lines without anti-aliasing code
    w, h = width * scale, height * scale
    img = Image.new("RGB", (w, h), BACKGROUND)
    draw = ImageDraw.Draw(img)
    small, big = _font(12 * scale), _font(16 * scale)
    pad = 12 * scale
    draw.text((pad, pad), title, font=big, fill=TITLE_TEXT)

    points = [p for s in series.values() for p in s]
    if not points:
        draw.text((w // 2, h // 2), empty_text, font=small, fill=AXIS_TEXT, anchor="mm")
        return _png(img)

    # Legend right-aligned on the title line, or on a line of its own when they would meet.
    names = [labels.get(key, key) for key in series]
    legend = sum(draw.textlength(n, font=small) + 28 * scale for n in names)
    below = pad + draw.textlength(title, font=big) + legend + 16 * scale > w
    legend_y = pad + (24 if below else 2) * scale
    x = w - pad
    for i, name in reversed(list(enumerate(names))):
        x -= draw.textlength(name, font=small)
        draw.text((x, legend_y), name, font=small, fill=AXIS_TEXT)
        x -= 16 * scale
        y0 = legend_y + 7 * scale
        draw.line((x, y0, x + 12 * scale, y0), fill=COLOURS[i % len(COLOURS)], width=3 * scale)
        x -= 12 * scale

    lo = min(r for _, r in points)
    hi = max(r for _, r in points)
    step = _nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    if hi == lo:
        lo, hi = lo - step, hi + step
    t0 = min(t for t, _ in points)
    t1 = max(t for t, _ in points)

    ticks = [lo + k * step for k in range(round((hi - lo) / step) + 1)]
    widest = max(draw.textlength(number(value), font=small) for value in ticks)
    left = pad + int(widest) + 8 * scale
    right = w - pad
    top = pad + (52 if below else 30) * scale
    bottom = h - pad - 18 * scale

    def px(t: float) -> float:
        if t1 == t0:
            return (left + right) / 2
        return left + (t - t0) / (t1 - t0) * (right - left)

    def py(r: float) -> float:
        return bottom - (r - lo) / (hi - lo) * (bottom - top)

    for value in ticks:
        y = py(value)
        draw.line((left, y, right, y), fill=GRID, width=scale)
        draw.text((left - 6 * scale, y), number(value), font=small, fill=AXIS_TEXT, anchor="rm")
    draw.text((left, bottom + 4 * scale), _date(t0), font=small, fill=AXIS_TEXT, anchor="la")
    if _date(t1) != _date(t0):
        draw.text((right, bottom + 4 * scale), _date(t1), font=small, fill=AXIS_TEXT, anchor="ra")

    for i, pts in enumerate(series.values()):
        colour = COLOURS[i % len(COLOURS)]
        xy = [(px(t), py(r)) for t, r in pts]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3 * scale)
        if xy:
            cx, cy = xy[-1]
            radius = 4 * scale
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
    return _png(img)


def _png(img: Image.Image) -> bytes:
    """Shrink the twice-as-big drawing (box filter: fast) and encode it quickly."""
    out = io.BytesIO()
    img.reduce(2).save(out, format="PNG", compress_level=1)
    return out.getvalue()
