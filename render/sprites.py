"""Cached drawing pieces: the font, tile faces, tile backs. Everything here never changes."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans-Bold.ttf"

FELT = (24, 84, 52)
FELT_DARK = (14, 56, 34)
IVORY = (250, 246, 234)
#: The face of a tile that cannot be played now: greyer than ivory, pips keep their contrast.
DIMMED = (200, 198, 188)
EDGE = (92, 74, 44)
PIP = (28, 28, 28)
#: Pip colour per number, chosen so any two stay apart (CIEDE2000 >= 12) for normal sight
#: and under deuteranopia and protanopia, and dark enough on ivory and on a dimmed face.
#: The pip layouts tell the numbers apart too: colour is never the only cue.
PIP_COLOURS = (
    PIP,
    (128, 0, 0),  # 1 maroon
    (0, 97, 61),  # 2 green
    (0, 0, 246),  # 3 blue
    (110, 40, 78),  # 4 plum
    (110, 114, 17),  # 5 olive
    PIP,  # 6 black
    (28, 112, 160),  # 7 steel blue
    (191, 60, 100),  # 8 raspberry
    (0, 66, 142),  # 9 navy
)
HIGHLIGHT = (255, 204, 0)
WHITE = (255, 255, 255)
MUTED = (190, 214, 198)
INK = (24, 24, 24)
BANNER_FILL = (8, 38, 24)
BACK = (44, 44, 44)
BACK_EDGE = (150, 150, 150)
TEAM_COLOURS = ((66, 135, 245), (239, 83, 80), (171, 71, 188), (255, 167, 38))

def _grid(*cells: tuple[int, int]) -> tuple[tuple[float, float], ...]:
    """Pip centres on the classic 3x3 grid (column, row), as fractions of the half."""
    return tuple((0.24 + 0.26 * c, 0.24 + 0.26 * r) for c, r in cells)


_HEX = tuple((0.5 + 0.29 * x, 0.5 + 0.29 * y) for x, y in (
    (-1.0, 0.0), (1.0, 0.0), (-0.5, -0.866), (0.5, -0.866), (-0.5, 0.866), (0.5, 0.866)))

_RING = tuple((0.5 + 0.32 * math.cos(math.pi * (k + 0.5) / 4),
               0.5 + 0.32 * math.sin(math.pi * (k + 0.5) / 4)) for k in range(8))

#: Pip centres (x, y as fractions of the half) and radius per number, 0 to 9. Up to 6 the
#: classic faces; 7 is a hexagon round a centre pip, 8 a ring of eight, 9 a full square, so
#: the three read apart by shape alone, with pips as large as the nine's.
PIP_LAYOUTS: dict[int, tuple[tuple[tuple[float, float], ...], float]] = {
    0: ((), 0.115),
    1: (_grid((1, 1)), 0.115),
    2: (_grid((0, 0), (2, 2)), 0.115),
    3: (_grid((0, 0), (1, 1), (2, 2)), 0.115),
    4: (_grid((0, 0), (2, 0), (0, 2), (2, 2)), 0.115),
    5: (_grid((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)), 0.115),
    6: (tuple((x, y) for x in (0.24, 0.76) for y in (0.2, 0.5, 0.8)), 0.115),
    7: ((*_HEX, (0.5, 0.5)), 0.1),
    8: (_RING, 0.1),
    9: (_grid(*((c, r) for r in range(3) for c in range(3))), 0.1),
}


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The project's font (DejaVu Sans Bold, shipped with its licence) at ``size`` px."""
    return ImageFont.truetype(str(FONT_PATH), size)


def fit_font(text: str, width: int, size: int, smallest: int = 14) -> ImageFont.FreeTypeFont:
    """The largest font not above ``size`` in which ``text`` fits ``width`` pixels."""
    while size > smallest and font(size).getlength(text) > width:
        size -= 2
    return font(size)


#: Tiles, chips and badges are drawn this many times larger, then shrunk (each pixel the mean
#: of its k × k: ``reduce``, ten times faster than a box ``resize`` on the large chips):
#: smooth pips and corners.
_SUPER = 4


def _draw_pips(draw: ImageDraw.ImageDraw, n: int, x0: int, y0: int, side: int) -> None:
    """The pips of ``n`` on an upright half (a ``side`` square at ``x0, y0``)."""
    centres, radius = PIP_LAYOUTS[n]
    r = side * radius
    for fx, fy in centres:
        cx, cy = x0 + side * fx, y0 + side * fy
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PIP_COLOURS[n])


@lru_cache(maxsize=2048)
def tile_face(first: int, second: int, long: int, vertical: bool, highlight: bool,
              face: tuple[int, int, int] = IVORY) -> Image.Image:
    """A tile ``first|second`` (left|right, or top|bottom when vertical), ``long`` px long.

    RGBA with transparent corners; ``highlight`` gives it a thick gold frame; ``face`` is
    the colour under the pips (:data:`DIMMED` for tiles that cannot be played now).
    """
    if not vertical:  # drawn upright, then turned a quarter left: the top half goes left
        return tile_face(first, second, long, True, highlight, face).transpose(
            Image.Transpose.ROTATE_90
        )
    short = long // 2
    img = Image.new("RGBA", (short, long))
    img.paste(tile_half(first, True, long, highlight, face), (0, 0))
    img.paste(tile_half(second, False, long, highlight, face), (0, short))
    return img


@lru_cache(maxsize=64)
def _blank(long: int, highlight: bool, face: tuple[int, int, int]) -> Image.Image:
    """An upright tile without pips, drawn :data:`_SUPER` times larger."""
    k = _SUPER
    short = long // 2
    w, h = short * k, long * k
    img = Image.new("RGBA", (w, h), (*IVORY, 0))
    draw = ImageDraw.Draw(img)
    radius = max(3, short // 7) * k
    frame = (max(4, long // 16) if highlight else max(2, long // 40)) * k
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=HIGHLIGHT if highlight else EDGE)
    draw.rounded_rectangle((frame, frame, w - 1 - frame, h - 1 - frame),
                           max(k, radius - frame), fill=face)
    inset = frame + short * k // 8
    line = max(1, long // 60) * k
    draw.rectangle((inset, h // 2 - line // 2, w - 1 - inset, h // 2 + line // 2), fill=EDGE)
    return img


@lru_cache(maxsize=1024)
def tile_half(n: int, top: bool, long: int, highlight: bool, face: tuple[int, int, int]
          ) -> Image.Image:
    """The top (or bottom) part of an upright tile with ``n`` on it: its first ``long // 2``
    rows (or the rest). Each pixel is the mean of its own :data:`_SUPER` × :data:`_SUPER`,
    none of which a pip of the other half reaches, so the two parts make the tile."""
    k = _SUPER
    short = long // 2
    img = _blank(long, highlight, face).copy()
    _draw_pips(ImageDraw.Draw(img), n, 0, 0 if top else short * k, short * k)
    box = (0, 0, img.width, short * k) if top else (0, short * k, img.width, img.height)
    return img.reduce(k, box)


@lru_cache(maxsize=64)
def tile_back(height: int, bg: tuple[int, int, int]) -> Image.Image:
    """A small upright face-down tile on ``bg``, for counts of hidden tiles."""
    k = _SUPER
    w, h = height // 2 * k, height * k
    img = Image.new("RGB", (w, h), bg)
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, w - 1, h - 1), max(2, w // 6), fill=BACK, outline=BACK_EDGE, width=2 * k
    )
    return img.reduce(k)


@lru_cache(maxsize=128)
def end_badge(size: int, value: int) -> Image.Image:
    """A gold rounded square on the felt with an open end's number, its digits as tall as
    the square allows (about three quarters of ``size``)."""
    k = _SUPER
    img = Image.new("RGB", (size * k, size * k), FELT)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, size * k - 1, size * k - 1), size * k // 5,
                                          fill=HIGHLIGHT)
    img = img.reduce(k)
    text = str(value)
    f = fit_font(text, size - 6, size + 4, 12)
    x0, y0, x1, y1 = f.getbbox(text)  # centre the ink itself, not the line box
    ImageDraw.Draw(img).text(((size - x1 - x0) / 2, (size - y1 - y0) / 2), text, font=f,
                             fill=INK)
    return img


@lru_cache(maxsize=256)
def chip(width: int, height: int, fill: tuple[int, int, int], bg: tuple[int, int, int],
         border: tuple[int, int, int] | None = None, radius: int = 12,
         border_width: int = 5) -> Image.Image:
    """A rounded panel on ``bg`` (score chips, seat cards, the banner)."""
    k = _SUPER
    img = Image.new("RGB", (width * k, height * k), bg)
    draw = ImageDraw.Draw(img)
    box = (0, 0, width * k - 1, height * k - 1)
    if border is None:
        draw.rounded_rectangle(box, radius * k, fill=fill)
    else:
        b = border_width * k
        draw.rounded_rectangle(box, radius * k, fill=border)
        draw.rounded_rectangle((b, b, width * k - 1 - b, height * k - 1 - b),
                               max(k, (radius - border_width) * k), fill=fill)
    return img.reduce(k)


@lru_cache(maxsize=32768)
def text_width(text: str, size: int) -> int:
    """How many pixels ``text`` takes at ``size``."""
    return int(font(size).getlength(text) + 0.999)


@lru_cache(maxsize=32768)
def fit_text(text: str, width: int, size: int, smallest: int = 14) -> tuple[str, int]:
    """``text`` and a font size not above ``size`` that fit ``width`` pixels: smaller type
    first, down to ``smallest``, then the text cut short with an ellipsis."""
    while size > smallest and text_width(text, size) > width:
        size -= 2
    if text_width(text, size) <= width:
        return text, size
    cut = text
    while cut and text_width(cut.rstrip() + "…", size) > width:
        cut = cut[:-1]
    return cut.rstrip() + "…", size


@lru_cache(maxsize=64)
def line_height(size: int) -> int:
    """The height of a line of text at ``size`` (every :func:`text_sprite` of that size)."""
    ascent, descent = font(size).getmetrics()
    return ascent + descent


def text_size(text: str, size: int) -> tuple[int, int]:
    """The size of :func:`text_sprite` of ``text`` at ``size``, without drawing it."""
    return max(1, text_width(text, size)), line_height(size)


@lru_cache(maxsize=1024)
def text_sprite(text: str, size: int, fill: tuple[int, int, int],
                bg: tuple[int, int, int]) -> Image.Image:
    """One line of text on ``bg``, as tall as the font's line (so lines of a size align)."""
    img = Image.new("RGB", text_size(text, size), bg)
    ImageDraw.Draw(img).text((0, 0), text, font=font(size), fill=fill)
    return img
