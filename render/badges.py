"""Achievement badges: a round medal per achievement, drawn once into one cached sheet (in its
colour, and greyed for one not earned yet), and pictures cut from it.

Pure functions of the looks the caller passes (a code, a colour, a mark: a few characters, or
``tile:<kind>`` for a small domino tile); no text to translate is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.sprites import fit_font

__all__ = ["BADGE", "BadgeLook", "badge_png", "badges_png"]

BADGE = 96  # a badge's side in pixels
_SCALE = 2  # drawn this much larger, then shrunk: smooth edges
_GAP = 12
_BACKGROUND = (43, 45, 49, 255)  # Discord's dark theme
_GREY = (92, 96, 104)
_INK = (30, 31, 34)
_TILE = (245, 243, 235)
_PIPS = {  # pip positions on a 3×3 grid, per number
    0: (),
    1: (4,),
    2: (0, 8),
    3: (0, 4, 8),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}
_TILES = {"capicua": (2, 5), "double": (6, 6), "block": (3, 3)}


@dataclass(frozen=True, slots=True)
class BadgeLook:
    """How one badge looks: its ``code``, its RGB ``colour`` and its ``mark``."""

    code: str
    colour: tuple[int, int, int]
    mark: str


def _shade(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def _half(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], n: int) -> None:
    x0, y0, x1, y1 = box
    step_x, step_y = (x1 - x0) / 3, (y1 - y0) / 3
    r = min(step_x, step_y) * 0.32
    for i in _PIPS[n]:
        cx = x0 + step_x * (i % 3 + 0.5)
        cy = y0 + step_y * (i // 3 + 0.5)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_INK)


def _tile(draw: ImageDraw.ImageDraw, size: int, kind: str) -> None:
    """A small upright domino tile in the middle of the medal (crossed for a block)."""
    a, b = _TILES.get(kind, (0, 0))
    w, h = size * 0.30, size * 0.56
    x0, y0 = (size - w) / 2, (size - h) / 2
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=size * 0.04, fill=_TILE,
                           outline=_INK, width=max(2, size // 64))
    mid = y0 + h / 2
    draw.line((x0 + w * 0.12, mid, x0 + w * 0.88, mid), fill=_INK, width=max(2, size // 80))
    pad = w * 0.08
    _half(draw, (x0 + pad, y0 + pad, x0 + w - pad, mid - pad), a)
    _half(draw, (x0 + pad, mid + pad, x0 + w - pad, y0 + h - pad), b)
    if kind == "block":
        width = max(3, size // 40)
        draw.line((x0 - w * 0.3, y0, x0 + w * 1.3, y0 + h), fill=_INK, width=width)
        draw.line((x0 + w * 1.3, y0, x0 - w * 0.3, y0 + h), fill=_INK, width=width)


def _medal(look: BadgeLook, earned: bool) -> Image.Image:
    size = BADGE * _SCALE
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    colour = look.colour if earned else _GREY
    edge = size * 0.04
    draw.ellipse((edge, edge, size - edge, size - edge), fill=_shade(colour, 0.55))
    inner = size * 0.11
    draw.ellipse((inner, inner, size - inner, size - inner), fill=colour)
    if look.mark.startswith("tile:"):
        _tile(draw, size, look.mark.removeprefix("tile:"))
    else:
        font = fit_font(look.mark, int(size * 0.6), int(size * 0.42), smallest=10)
        draw.text((size / 2, size / 2), look.mark, font=font, fill=_INK, anchor="mm")
    if not earned:  # a not-yet badge: faded
        img.putalpha(img.getchannel("A").point(lambda v: v * 6 // 10))
    return img.reduce(_SCALE)


@lru_cache(maxsize=8)
def _sheet(looks: tuple[BadgeLook, ...]) -> Image.Image:
    """Every badge once: the earned look on the first row, the greyed one on the second."""
    sheet = Image.new("RGBA", (BADGE * max(1, len(looks)), BADGE * 2), (0, 0, 0, 0))
    for i, look in enumerate(looks):
        sheet.paste(_medal(look, True), (i * BADGE, 0))
        sheet.paste(_medal(look, False), (i * BADGE, BADGE))
    return sheet


def _cut(looks: tuple[BadgeLook, ...], index: int, earned: bool) -> Image.Image:
    top = 0 if earned else BADGE
    return _sheet(looks).crop((index * BADGE, top, (index + 1) * BADGE, top + BADGE))


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def badges_png(
    looks: Sequence[BadgeLook], earned: Collection[str], *, columns: int = 6
) -> bytes:
    """Every badge in a grid, in ``looks``' order: earned ones in colour, the others greyed."""
    frozen = tuple(looks)
    rows = max(1, -(-len(frozen) // columns))
    width = columns * BADGE + (columns + 1) * _GAP
    height = rows * BADGE + (rows + 1) * _GAP
    img = Image.new("RGBA", (width, height), _BACKGROUND)
    for i, look in enumerate(frozen):
        x = _GAP + (i % columns) * (BADGE + _GAP)
        y = _GAP + (i // columns) * (BADGE + _GAP)
        badge = _cut(frozen, i, look.code in earned)
        img.alpha_composite(badge, (x, y))
    return _png(img.convert("RGB"))


def badge_png(looks: Sequence[BadgeLook], code: str) -> bytes:
    """One earned badge (``code``) on a transparent background."""
    frozen = tuple(looks)
    index = next(i for i, look in enumerate(frozen) if look.code == code)
    return _png(_cut(frozen, index, True))
