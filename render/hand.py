"""The hand picture: one seat's own tiles, sorted, labelled like their buttons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from domino import Tile, View
from render.sprites import (
    DIMMED,
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    IVORY,
    WHITE,
    fit_font,
    font,
    tile_face,
)
from render.table import MIN_TEXT, encode, label

WIDTH = 1024
HEADER = 92
COLUMNS = 5
LONG = 150
CELL_W = WIDTH // COLUMNS
CELL_H = LONG // 2 + 84
PLAYABLE = (76, 217, 100)
#: The label under a tile that cannot be played now: quieter than white, still easy to read.
DIMMED_LABEL = (176, 200, 184)


@dataclass(frozen=True, slots=True)
class HandSlot:
    """Where one tile of the hand is drawn, its label and whether it can be played now."""

    tile: Tile
    box: tuple[int, int, int, int]
    label: str
    playable: bool
    dimmed: bool = False  # on the seat's turn, the tiles it cannot play now


def hand_layout(view: View) -> list[HandSlot]:
    """The seat's tiles in order with their boxes (for tests and tools)."""
    if view.hand is None:
        raise ValueError("the hand picture needs a seat's view")
    playable = set(view.playable_tiles())
    my_turn = view.turn is not None and view.turn == view.seat
    slots = []
    for i, tile in enumerate(sorted(view.hand)):
        col, row = i % COLUMNS, i // COLUMNS
        x0 = col * CELL_W + (CELL_W - LONG) // 2
        y0 = HEADER + row * CELL_H + 14
        slots.append(HandSlot(tile, (x0, y0, x0 + LONG, y0 + LONG // 2), str(tile),
                              tile in playable, my_turn and tile not in playable))
    return slots


def most_held(view: View) -> int:
    """The most tiles the seat has held in this hand: the deal, then its draws and plays.

    The picture keeps room for that many, so it keeps its height while the hand empties."""
    held = most = view.ruleset.hand_size
    for event in view.events:
        if event.seat != view.seat:
            continue
        if event.kind == "draw":
            held += 1
        elif event.kind == "play":
            held -= 1
        most = max(most, held)
    return max(most, len(view.hand or ()))


def hand_rows(view: View) -> int:
    """Rows of tiles the picture has room for: as many as the fullest the hand has been."""
    return max(1, -(-most_held(view) // COLUMNS))


def hand_height(view: View) -> int:
    """The hand picture's height in pixels."""
    return HEADER + hand_rows(view) * CELL_H + 10


def draw_hand(view: View, labels: Mapping[str, str] | None = None) -> Image.Image:
    """The hand picture as an image (RGB), as tall through a hand as at its deal."""
    slots = hand_layout(view)
    rows = max(hand_rows(view), -(-len(slots) // COLUMNS))
    img = Image.new("RGB", (WIDTH, HEADER + rows * CELL_H + 10), FELT)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH, HEADER - 10), fill=FELT_DARK)
    parts = [label(labels, "your_tiles")]
    if view.turn is not None and view.turn == view.seat:
        parts.append(label(labels, "your_turn"))
    if view.ends is not None:
        parts.append(label(labels, "ends", left=view.ends[0], right=view.ends[1]))
    title = " · ".join(parts)
    draw.text((20, (HEADER - 10) // 2), title, font=fit_font(title, WIDTH - 40, 44, MIN_TEXT),
              fill=HIGHLIGHT if len(parts) > 1 and view.turn == view.seat else WHITE,
              anchor="lm")
    for slot in slots:
        x0, y0, x1, y1 = slot.box
        # A tile that cannot be played now gets a greyer face; its pips keep their contrast.
        face = tile_face(slot.tile.a, slot.tile.b, LONG, False, False,
                         DIMMED if slot.dimmed else IVORY)
        img.paste(face, (x0, y0), face)
        if slot.playable:
            draw.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), 12, outline=PLAYABLE,
                                   width=5)
        colour = PLAYABLE if slot.playable else DIMMED_LABEL if slot.dimmed else WHITE
        draw.text(((x0 + x1) // 2, y1 + 36), slot.label, font=font(MIN_TEXT), fill=colour,
                  anchor="mm")
    return img


def render_hand(view: View, *, labels: Mapping[str, str] | None = None) -> bytes:
    """The picture (PNG) of one seat's own hand, the playable tiles marked."""
    return encode(draw_hand(view, labels))
