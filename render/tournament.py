"""A tournament's pictures: the standings table and a knockout bracket.

Pure functions from rows of text to PNG bytes (Pillow, the shipped font, the colours of the
other pictures). The caller passes every word already translated and every name as it may be
shown (the global name outside the name's server); nothing here reads an event.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.sprites import fit_text, font, text_width

__all__ = ["BracketMatch", "StandingRow", "bracket_picture", "standings_picture"]

BACKGROUND = (43, 45, 49)  # Discord's dark theme, as the stats chart
STRIPE = (49, 51, 56)
RULE = (70, 73, 80)
TEXT = (242, 243, 245)
MUTED = (181, 186, 193)
GOLD = (255, 204, 0)
SILVER = (200, 205, 212)
BRONZE = (214, 140, 70)
WON = (87, 242, 135)
MEDALS = (GOLD, SILVER, BRONZE)

#: Lines drawn at most; the caller says in ``more`` how many are left out.
MAX_ROWS = 40
PAD = 16
ROW = 34
TEXT_SIZE = 18
SMALL = 14
NAME_WIDTH = 260
CELL_WIDTH = 76
NOTE_WIDTH = 150


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings, as text: ``rank`` ("1", "=3"), the name, the cells under
    the headers (match points, record, difference, Buchholz…), and a short note (the tie-break
    that placed it, or "withdrawn")."""

    rank: str
    name: str
    cells: tuple[str, ...]
    note: str = ""
    place: int = 0  # 1-3: drawn in the medal's colour; 0: none


def standings_picture(
    title: str,
    headers: Sequence[str],
    rows: Sequence[StandingRow],
    *,
    name_header: str = "",
    note_header: str = "",
    more: str = "",
) -> bytes:
    """A PNG of the standings: a title, a header line, up to ``MAX_ROWS`` lines, ``more``."""
    shown = list(rows[:MAX_ROWS])
    cells = len(headers)
    rank_width = max([text_width(r.rank, TEXT_SIZE) for r in shown] + [text_width("00", TEXT_SIZE)])
    width = PAD * 2 + rank_width + 12 + NAME_WIDTH + cells * CELL_WIDTH + NOTE_WIDTH
    title_h = 40
    height = PAD + title_h + ROW * (len(shown) + 1) + (ROW if more else 0) + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    text, size = fit_text(title, width - 2 * PAD, 24, SMALL)
    draw.text((PAD, PAD), text, font=font(size), fill=TEXT)
    y = PAD + title_h
    x_name = PAD + rank_width + 12
    x_cells = x_name + NAME_WIDTH
    x_note = x_cells + cells * CELL_WIDTH

    def line(y: int, rank: str, name: str, values: Sequence[str], note: str,
             colour: tuple[int, int, int], size: int) -> None:
        middle = y + ROW // 2
        draw.text((x_name - 12, middle), rank, font=font(size), fill=colour, anchor="rm")
        shown_name, name_size = fit_text(name, NAME_WIDTH - 8, size, SMALL)
        draw.text((x_name, middle), shown_name, font=font(name_size), fill=colour, anchor="lm")
        for k, value in enumerate(values):
            v, v_size = fit_text(value, CELL_WIDTH - 6, size, SMALL - 2)
            cx = x_cells + k * CELL_WIDTH + CELL_WIDTH // 2
            draw.text((cx, middle), v, font=font(v_size), fill=colour, anchor="mm")
        if note:
            n, n_size = fit_text(note, NOTE_WIDTH - 8, SMALL, SMALL - 4)
            draw.text((x_note + 4, middle), n, font=font(n_size), fill=MUTED, anchor="lm")

    line(y, "", name_header, headers, note_header, MUTED, SMALL)
    draw.line((PAD, y + ROW - 2, width - PAD, y + ROW - 2), fill=RULE, width=2)
    y += ROW
    for i, row in enumerate(shown):
        if i % 2:
            draw.rectangle((PAD, y, width - PAD, y + ROW - 1), fill=STRIPE)
        colour = MEDALS[row.place - 1] if 1 <= row.place <= 3 else TEXT
        line(y, row.rank, row.name, row.cells, row.note, colour, TEXT_SIZE)
        y += ROW
    if more:
        m, m_size = fit_text(more, width - 2 * PAD, SMALL, SMALL - 4)
        draw.text((PAD, y + ROW // 2), m, font=font(m_size), fill=MUTED, anchor="lm")
    return _png(img)


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of a bracket as text: two names (a bye's word for an empty place), their
    points ("" before the table is played) and which of the two went through (None: not yet)."""

    names: tuple[str, str]
    points: tuple[str, str] = ("", "")
    winner: int | None = None


BOX_W = 230
BOX_H = 56
GAP_X = 40
SLOT_H = 72  # the height one first-round match takes


def bracket_picture(
    title: str,
    round_titles: Sequence[str],
    rounds: Sequence[Sequence[BracketMatch]],
    *,
    box_w: int = BOX_W,
) -> bytes:
    """A PNG of a single-elimination bracket: a column per round, each match a box of two
    lines (``box_w`` wide: wider for sides of two partners), lines joining a match to the one
    its winner goes to."""
    first = max(1, len(rounds[0]) if rounds else 1)
    columns = max(1, len(round_titles), len(rounds))
    width = PAD * 2 + columns * box_w + (columns - 1) * GAP_X
    top = PAD + 40 + 28
    height = top + first * SLOT_H + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    text, size = fit_text(title, width - 2 * PAD, 24, SMALL)
    draw.text((PAD, PAD), text, font=font(size), fill=TEXT)
    for k in range(columns):
        x = PAD + k * (box_w + GAP_X)
        if k < len(round_titles):
            t, t_size = fit_text(round_titles[k], box_w, SMALL, SMALL - 4)
            draw.text((x, PAD + 40), t, font=font(t_size), fill=MUTED)
        slot = SLOT_H * (2 ** k)  # the height a match of this round spans
        matches = rounds[k] if k < len(rounds) else ()
        count = max(len(matches), first // (2 ** k))
        for i in range(count):
            cy = top + slot * i + slot // 2
            box = (x, cy - BOX_H // 2, x + box_w, cy + BOX_H // 2)
            draw.rectangle(box, fill=STRIPE, outline=RULE, width=2)
            draw.line((x, cy, x + box_w, cy), fill=RULE, width=1)
            if i < len(matches):
                _match_lines(draw, matches[i], box)
            if k + 1 < columns:  # the line to the next round's match
                nx0 = x + box_w
                mid = nx0 + GAP_X // 2
                ny = top + slot * 2 * (i // 2) + slot
                draw.line((nx0, cy, mid, cy), fill=RULE, width=2)
                draw.line((mid, cy, mid, ny), fill=RULE, width=2)
                draw.line((mid, ny, nx0 + GAP_X, ny), fill=RULE, width=2)
    return _png(img)


def _match_lines(draw: ImageDraw.ImageDraw, match: BracketMatch,
                 box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    half = (y1 - y0) // 2
    for j in (0, 1):
        middle = y0 + half * j + half // 2
        won = match.winner == j
        lost = match.winner is not None and not won
        colour = WON if won else MUTED if lost else TEXT
        points = match.points[j]
        points_w = text_width(points, SMALL) + 8 if points else 0
        name, size = fit_text(match.names[j], x1 - x0 - 16 - points_w, SMALL + 2, SMALL - 4)
        draw.text((x0 + 8, middle), name, font=font(size), fill=colour, anchor="lm")
        if points:
            draw.text((x1 - 8, middle), points, font=font(SMALL), fill=colour, anchor="rm")


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()
