"""Cached drawing pieces: the font, tile faces, tile backs. Everything here never changes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans-Bold.ttf"

FELT = (24, 84, 52)
FELT_DARK = (14, 56, 34)
IVORY = (250, 246, 234)
EDGE = (92, 74, 44)
PIP = (28, 28, 28)
HIGHLIGHT = (255, 204, 0)
WHITE = (255, 255, 255)
MUTED = (190, 214, 198)
TEAM_COLOURS = ((66, 135, 245), (239, 83, 80), (171, 71, 188), (255, 167, 38))

# Pip centres on a 3x3 grid (column, row), for 0 to 9.
_GRID = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The project's font (DejaVu Sans Bold, shipped with its licence) at ``size`` px."""
    return ImageFont.truetype(str(FONT_PATH), size)


def fit_font(text: str, width: int, size: int, smallest: int = 14) -> ImageFont.FreeTypeFont:
    """The largest font not above ``size`` in which ``text`` fits ``width`` pixels."""
    while size > smallest and font(size).getlength(text) > width:
        size -= 2
    return font(size)


def _draw_pips(draw: ImageDraw.ImageDraw, n: int, x0: int, y0: int, side: int) -> None:
    r = max(2, round(side * 0.085))
    for col, row in _GRID[n]:
        cx = x0 + side * (0.24 + 0.26 * col)
        cy = y0 + side * (0.24 + 0.26 * row)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PIP)


@cache
def tile_face(first: int, second: int, long: int, vertical: bool, highlight: bool) -> Image.Image:
    """A tile ``first|second`` (left|right, or top|bottom when vertical), ``long`` px long."""
    short = long // 2
    img = Image.new("RGBA", (long, short), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = max(3, short // 7)
    border = max(2, long // 40)
    outline = HIGHLIGHT if highlight else EDGE
    width = max(4, long // 16) if highlight else border
    draw.rounded_rectangle((0, 0, long - 1, short - 1), radius, fill=IVORY, outline=outline,
                           width=width)
    inset = width + 1
    mid = long // 2
    draw.line((mid, inset + 1, mid, short - inset - 2), fill=EDGE, width=max(1, border - 1))
    side = short
    _draw_pips(draw, first, 0, 0, side)
    _draw_pips(draw, second, mid, 0, side)
    if vertical:
        img = img.transpose(Image.Transpose.ROTATE_270)
    return img


@cache
def tile_back(long: int, vertical: bool) -> Image.Image:
    """The back of a tile, for counts of hidden tiles."""
    short = long // 2
    w, h = (short, long) if vertical else (long, short)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, w - 1, h - 1), max(2, short // 6), fill=(40, 40, 40), outline=(120, 120, 120),
        width=max(1, long // 40),
    )
    return img
