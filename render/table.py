"""The table picture: the line of play as a snake, the seats, scores, pile and turn."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from domino import HandResult, View
from render.layout import Layout, layout_line
from render.moves import LastMove, last_moves
from render.spinner import last_arm_tile, layout_cross, uses_cross
from render.sprites import (
    BANNER_FILL,
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    INK,
    MUTED,
    TEAM_COLOURS,
    WHITE,
    chip,
    end_badge,
    fit_text,
    text_sprite,
    text_width,
    tile_back,
    tile_face,
)

WIDTH, HEIGHT = 1024, 832
#: The smallest type for anything a player reads (names, scores, counts, target): its
#: capitals and digits are 29 px tall, 11 px when the picture is shown 400 px wide.
MIN_TEXT = 40
SCORE_TEXT = 46  # the scores, in their boxes
SIDE_TEXT = 28  # a long team name in the header may shrink to this (the cards keep MIN_TEXT)
TOP = 128  # the header band: scores, then the hand, the target and the stock
CARD_ROW = 48  # one line of a seat card
CARD_GAP = 16


def seat_grid(seats: int) -> tuple[int, int]:
    """Seat cards as (columns, rows): four seats sit two by two, so long names fit."""
    return (2, 2) if seats == 4 else (seats, 1)


def card_lines(seats: int) -> int:
    """Lines of text on each seat card: name, tile count, last move (two when two by two)."""
    return 2 if seat_grid(seats)[1] > 1 else 3


def bottom(seats: int) -> int:
    """Height of the seat band."""
    rows = seat_grid(seats)[1]
    card = card_lines(seats) * CARD_ROW + 12
    return rows * card + (rows - 1) * CARD_GAP + 20


def line_box(seats: int, banner: bool) -> tuple[int, int, int, int]:
    """Where the line of play is laid out."""
    y0 = BANNER[3] + 10 if banner else TOP + 10
    return (16, y0, WIDTH - 16, HEIGHT - bottom(seats) - 14)


#: The banner at the end of a hand or of the match; the line goes under it.
BANNER = (16, TOP + 10, WIDTH - 16, TOP + 96)
#: The line's room for four seats (the tallest seat band), without and with a banner.
LINE_AREA = line_box(4, False)
LINE_AREA_UNDER_BANNER = line_box(4, True)

#: Every word drawn in the pictures (key -> English); translated through ``labels=``.
LABELS: dict[str, str] = {
    "hand": "Hand {number}",
    "hand_of": "Hand {number} of {total}",
    "target": "to {target}",
    "penalty": "penalty points",
    "pile": "Pile {count}",
    "sleeping": "{count} face down",
    "tiles": "{count} tiles",
    "one_tile": "1 tile",
    "pips": "{count} pips",
    "one_pip": "1 pip",
    "to_play": "to play",
    "played": "played {tile}",
    "passed": "passed",
    "drew": "drew {count}",
    "drew_played": "drew {count}, played {tile}",
    "drew_passed": "drew {count}, passed",
    "timed_out": "timed out",
    "domino": "Domino! {name} +{points}",
    "domino_penalty": "Domino! {name} went out",
    "blocked": "Blocked! {name} +{points}",
    "blocked_penalty": "Blocked: penalty points as they stand",
    "stuck": "No play with {pile} left in the pile: penalty points as they stand",
    "nobody": "Blocked, tied: nobody scores",
    "wins": "{name} win the match!",
    "wins_one": "{name} wins the match!",
    "draw": "The match is a draw",
    "resigned": "{name} resigned",
    "your_tiles": "Your tiles",
    "your_turn": "Your turn",
    "waiting": "Waiting for {name}",
    "ends": "Ends {left} and {right}",
    "empty": "The first tile opens the line",
}


def label(labels: Mapping[str, str] | None, key: str, **params: object) -> str:
    """The word ``key`` in the caller's language, placeholders filled."""
    template = (labels or {}).get(key) or LABELS[key]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return LABELS[key].format(**params)


@dataclass(frozen=True, slots=True)
class TableScene:
    """What the table picture shows: the line drawn, and the hand result if one just ended."""

    line: tuple[tuple[int, int], ...]
    opener_index: int | None
    last_index: int | None
    result: HandResult | None
    spinner: int | None = None  # All Fives: the spinner and its up and down arms
    arms: tuple[tuple[tuple[int, int], ...], ...] = ((), ())


def scene(view: View) -> TableScene:
    """The line to draw: the current one, or the hand that just ended (before any move)."""
    result = view.previous
    last = view.last_index if view.last_index is not None else last_arm_tile(view.events,
                                                                            view.arms)
    if view.outcome is not None:  # the last line stays on the table; a resignation ends no hand
        shown = result if view.outcome.reason != "resign" else None
        return TableScene(view.line, view.opener_index, last, shown, view.spinner, view.arms)
    started = any(e.kind != "start" for e in view.events)
    if result is not None and not started:
        return TableScene(result.line, result.opener_index, None, result, result.spinner,
                          result.arms)
    return TableScene(view.line, view.opener_index, last, None, view.spinner, view.arms)


def banner_box(view: View) -> tuple[int, int, int, int] | None:
    """The banner announcing how the hand (or the match) ended, if the picture shows one."""
    return BANNER if view.outcome is not None or scene(view).result is not None else None


def line_area(view: View) -> tuple[int, int, int, int]:
    """Where the line is laid out: under the banner when there is one."""
    return line_box(view.ruleset.seats, banner_box(view) is not None)


def table_layout(view: View) -> Layout:
    """The geometry of the line as the table picture draws it (for tests and tools)."""
    s = scene(view)
    if uses_cross(s.line, s.spinner):
        assert s.spinner is not None
        return layout_cross(s.line, s.spinner, (s.arms[0], s.arms[1]), line_area(view))
    return layout_line(s.line, s.opener_index, line_area(view))


@lru_cache(maxsize=8)
def _background(seats: int) -> Image.Image:
    """The empty table: felt, with the header and seat bands."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    img.paste(FELT_DARK, (0, 0, WIDTH, TOP))
    img.paste(FELT_DARK, (0, HEIGHT - bottom(seats), WIDTH, HEIGHT))
    return img


@dataclass(frozen=True, slots=True)
class TextMark:
    """One piece of text the picture shows: what it is, the words, where, on which colour."""

    role: str  # "name", "score", "side", "hand", "stock", "tiles", "last", "end", "banner"
    text: str
    box: tuple[int, int, int, int]
    bg: tuple[int, int, int]


Marks = list[TextMark] | None


def _put(img: Image.Image, marks: Marks, role: str, xy: tuple[int, int], text: str, size: int,
         fill: tuple[int, int, int], bg: tuple[int, int, int], align: str = "left") -> int:
    """Paste cached text centred on y, its left (or right, or centre) edge at x; its width."""
    sprite = text_sprite(text, size, fill, bg)
    x = {"left": xy[0], "right": xy[0] - sprite.width, "centre": xy[0] - sprite.width // 2}[align]
    y = xy[1] - sprite.height // 2
    img.paste(sprite, (x, y))
    if marks is not None:
        marks.append(TextMark(role, text, (x, y, x + sprite.width, y + sprite.height), bg))
    return sprite.width


def side_names(view: View, names: Sequence[str]) -> list[str]:
    """A display name per scoring side: ``Ana & Carla`` for a team, the name otherwise."""
    rs = view.ruleset
    out = []
    for side in range(rs.sides):
        seats = rs.seats_of_side(side)
        people = list(dict.fromkeys(_name(names, s) for s in seats))
        out.append(" & ".join(people))
    return out


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"
    name = " ".join(str(name).split())
    return name if len(name) <= 16 else name[:15] + "…"


def _colour(view: View, seat: int) -> tuple[int, int, int]:
    return TEAM_COLOURS[view.ruleset.side_of(seat) % len(TEAM_COLOURS)]


def _header(img: Image.Image, marks: Marks, view: View, names: Sequence[str],
            labels: Mapping[str, str] | None, result: HandResult | None) -> None:
    rs = view.ruleset
    # Line 1: per side, its name on a chip of its colour, then its score in a box of its own.
    sides = side_names(view, names)
    draw = ImageDraw.Draw(img)
    gap, pad = 20, 12
    each = (WIDTH - 24 - gap * (len(sides) - 1)) // len(sides)
    x = 12
    for side, (name, score) in enumerate(zip(sides, view.scores, strict=True)):
        colour = TEAM_COLOURS[side % len(TEAM_COLOURS)]
        number = str(score)
        box_w = max(80, text_width(number, SCORE_TEXT) + 2 * pad)
        room = each - box_w - 8 - 2 * pad
        text, size = fit_text(name, room, MIN_TEXT, SIDE_TEXT)
        chip_w = text_width(text, size) + 2 * pad
        img.paste(chip(chip_w, 56, colour, FELT_DARK), (x, 8))
        _put(img, marks, "side", (x + pad, 36), text, size, WHITE, colour)
        bx = x + chip_w + 8
        img.paste(chip(box_w, 56, WHITE, FELT_DARK), (bx, 8))
        _put(img, marks, "score", (bx + box_w // 2, 36), number, SCORE_TEXT, INK, WHITE,
             "centre")
        draw.rounded_rectangle((bx, 8, bx + box_w - 1, 63), 12, outline=colour, width=4)
        x += each + gap
    # Line 2: which hand and the goal; what is left to draw.
    number = result.hand_number if result is not None else view.hand_number
    if view.hands_total:
        hand = label(labels, "hand_of", number=number, total=view.hands_total)
    else:
        hand = label(labels, "hand", number=number)
    goal = (label(labels, "penalty") if rs.scoring == "penalty"
            else label(labels, "target", target=view.target))
    stock = []
    if result is None:  # at the end of a hand the pile would be the next hand's
        if rs.draw:
            stock.append(label(labels, "pile", count=view.pile_size))
        if view.sleeping:
            stock.append(label(labels, "sleeping", count=view.sleeping))
    right_w = 0
    if stock:
        right, rsize = fit_text(" · ".join(stock), 440, MIN_TEXT, MIN_TEXT)
        right_w = _put(img, marks, "stock", (WIDTH - 20, 98), right, rsize, WHITE, FELT_DARK,
                       "right")
    left, lsize = fit_text(f"{hand} · {goal}", WIDTH - 60 - right_w, MIN_TEXT, MIN_TEXT)
    _put(img, marks, "hand", (20, 98), left, lsize, WHITE, FELT_DARK)


def news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
         result: HandResult | None) -> list[str]:
    """How the match, or the hand just finished, ended (one item a line); empty while playing."""
    rs = view.ruleset
    sides = side_names(view, names)
    outcome = view.outcome
    lines: list[str] = []
    if outcome is not None:
        if outcome.reason == "resign" and outcome.resigned_seat is not None:
            lines.append(label(labels, "resigned", name=_name(names, outcome.resigned_seat)))
        elif result is not None:
            lines.extend(_hand_news(view, names, labels, result))
        if outcome.draw:
            lines.append(label(labels, "draw"))
        else:
            assert outcome.winner_side is not None
            winner = sides[outcome.winner_side]
            key = "wins" if rs.teams and rs.people == rs.seats else "wins_one"
            lines.append(label(labels, key, name=winner))
        return lines
    if result is None:
        return []
    return _hand_news(view, names, labels, result)


def _hand_news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
               result: HandResult) -> list[str]:
    rs = view.ruleset
    sides = side_names(view, names)
    if result.ending == "stuck":  # penalty: the round's second ending, not a block
        return [label(labels, "stuck", pile=rs.draw_floor)]
    if result.winner_side is None:
        return [label(labels, "blocked_penalty") if rs.scoring == "penalty"
                else label(labels, "nobody")]
    points = result.points[result.winner_side]
    if rs.scoring == "penalty":
        if result.kind == "domino":
            return [label(labels, "domino_penalty", name=_name(names, result.winner_seat or 0))]
        return [label(labels, "blocked_penalty")]
    if result.kind == "domino":
        return [label(labels, "domino", name=_name(names, result.winner_seat or 0),
                      points=points)]
    return [label(labels, "blocked", name=sides[result.winner_side], points=points)]


def _banner(img: Image.Image, marks: Marks, view: View, names: Sequence[str],
            labels: Mapping[str, str] | None, s: TableScene) -> None:
    box = banner_box(view)
    lines = news(view, names, labels, s.result)
    if box is None or not lines:
        return
    x0, y0, x1, y1 = box
    img.paste(chip(x1 - x0, y1 - y0, BANNER_FILL, FELT, HIGHLIGHT, 16, 4), (x0, y0))
    inner = x1 - x0 - 48
    if len(lines) == 1:
        text, size = fit_text(lines[0], inner, 46, MIN_TEXT)
        rows = [(text, size, HIGHLIGHT)]
    else:
        first, size1 = fit_text(lines[-1], inner, MIN_TEXT, MIN_TEXT - 6)
        second, size2 = fit_text(" · ".join(lines[:-1]), inner, 28, 22)
        rows = [(first, size1, HIGHLIGHT), (second, size2, WHITE)]
    heights = [text_sprite(t, z, c, BANNER_FILL).height for t, z, c in rows]
    y = (y0 + y1 - sum(heights)) // 2
    for (text, size, colour), h in zip(rows, heights, strict=True):
        _put(img, marks, "banner", ((x0 + x1) // 2, y + h // 2), text, size, colour,
             BANNER_FILL, "centre")
        y += h
    ImageDraw.Draw(img).rounded_rectangle((x0, y0, x1 - 1, y1 - 1), 16, outline=HIGHLIGHT,
                                          width=4)  # over the text's margins


def last_words(move: LastMove | None, labels: Mapping[str, str] | None) -> str:
    """A seat's last move in words: ``passed``, ``drew 2, played 3-5``, ``timed out``…"""
    if move is None:
        return ""
    if move.timed_out:
        return label(labels, "timed_out")
    tile = f"{move.tile[0]}-{move.tile[1]}" if move.tile is not None else ""
    if move.kind == "draw":
        return label(labels, "drew", count=move.drew)
    if move.kind == "pass":
        return (label(labels, "drew_passed", count=move.drew) if move.drew
                else label(labels, "passed"))
    return (label(labels, "drew_played", count=move.drew, tile=tile) if move.drew
            else label(labels, "played", tile=tile))


def seat_boxes(seats: int) -> list[tuple[int, int, int, int]]:
    """Each seat's card."""
    cols = seat_grid(seats)[0]
    band = HEIGHT - bottom(seats) + 10
    width = (WIDTH - 12 * (cols + 1)) // cols
    height = card_lines(seats) * CARD_ROW + 12
    boxes = []
    for seat in range(seats):
        col, row = seat % cols, seat // cols
        x0 = 12 + col * (width + 12)
        y0 = band + row * (height + CARD_GAP)
        boxes.append((x0, y0, x0 + width, y0 + height))
    return boxes


def _seats(img: Image.Image, marks: Marks, view: View, names: Sequence[str],
           labels: Mapping[str, str] | None, result: HandResult | None,
           last: Sequence[LastMove | None]) -> None:
    seats = view.ruleset.seats
    two_lines = card_lines(seats) == 2
    draw = ImageDraw.Draw(img)
    for seat, (x0, y0, x1, y1) in enumerate(seat_boxes(seats)):
        colour = _colour(view, seat)
        turn = view.turn == seat and result is None
        fill = HIGHLIGHT if turn else colour
        ink = INK if turn else WHITE
        width = x1 - x0
        img.paste(chip(width, y1 - y0, fill, FELT_DARK, colour if turn else None, 14, 6),
                  (x0, y0))
        pad = 16
        rows = [y0 + 8 + CARD_ROW // 2 + i * CARD_ROW for i in range(card_lines(seats))]
        if result is not None:
            pips = result.pips[seat]
            count = label(labels, "one_pip") if pips == 1 else label(labels, "pips", count=pips)
        else:
            n = view.hand_sizes[seat]
            count = label(labels, "one_tile") if n == 1 else label(labels, "tiles", count=n)
        count, csize = fit_text(count, width // 2 - pad if two_lines else width - 2 * pad,
                                MIN_TEXT, MIN_TEXT)
        count_w = text_width(count, csize)
        name_room = width - 2 * pad - (count_w + 16 if two_lines else 0)
        name, size = fit_text(_name(names, seat), name_room, MIN_TEXT, MIN_TEXT)
        _put(img, marks, "name", (x0 + pad, rows[0]), name, size, ink, fill)
        if two_lines:
            _put(img, marks, "tiles", (x1 - pad, rows[0]), count, csize, ink, fill, "right")
            backs_from, last_row = x0 + pad, rows[1]
        else:
            backs_from = x0 + pad + _put(img, marks, "tiles", (x0 + pad, rows[1]), count, csize,
                                         ink, fill) + 12
            last_row = rows[2]
        words = last_words(last[seat] if seat < len(last) else None, labels)
        if not words and turn:
            words = label(labels, "to_play")
        used = 0
        if words:
            room = width - 2 * pad - (120 if two_lines else 0)
            words, wsize = fit_text(words, room, 34, 24)
            used = _put(img, marks, "last", (x0 + pad, last_row), words, wsize, ink, fill)
        if result is None:  # the hidden tiles as backs: a count that needs no reading
            back = tile_back(32, fill)
            if two_lines:
                backs_from, backs_y = x0 + pad + used + 16, last_row - 16
            else:
                backs_y = rows[1] - 16
            room = (x1 - 14 - backs_from - back.width) // 11 + 1
            for k in range(min(view.hand_sizes[seat], max(0, room))):
                img.paste(back, (backs_from + k * 11, backs_y))
        if turn:  # a frame and a pointer: the turn is marked by shape, not colour alone
            draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), 14, outline=colour, width=6)
            cx = x0 + width // 2
            draw.polygon([(cx - 22, y0 - 15), (cx + 22, y0 - 15), (cx, y0 + 6)],
                         fill=HIGHLIGHT, outline=INK, width=2)


def _line(img: Image.Image, marks: Marks, s: TableScene, labels: Mapping[str, str] | None,
          layout: Layout) -> None:
    if not s.line:
        text, size = fit_text(label(labels, "empty"), WIDTH - 80, 44, 28)
        x0, y0, x1, y1 = layout.area
        _put(img, marks, "empty", ((x0 + x1) // 2, (y0 + y1) // 2), text, size, MUTED, FELT,
             "centre")
        return
    for placed in layout.tiles:
        face = tile_face(placed.first, placed.second, layout.tile,
                         placed.orientation == "vertical", placed.index == s.last_index)
        img.paste(face, placed.box[:2], face)
    for mark in layout.ends:
        x0, y0, x1, y1 = mark.box
        size = min(x1 - x0, y1 - y0)
        badge = end_badge(size, mark.value)
        at = ((x0 + x1 - size) // 2, (y0 + y1 - size) // 2)
        img.paste(badge, at)
        if marks is not None:
            marks.append(TextMark("end", str(mark.value), (*at, at[0] + size, at[1] + size),
                                  HIGHLIGHT))


def _draw(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
          last: Sequence[LastMove | None] | None, marks: Marks) -> Image.Image:
    if view.hand is not None:
        raise ValueError("the table picture is drawn from the public view only")
    s = scene(view)
    if last is None:
        last = last_moves(view)
    img = _background(view.ruleset.seats).copy()
    _header(img, marks, view, names, labels, s.result)
    _banner(img, marks, view, names, labels, s)
    _line(img, marks, s, labels, table_layout(view))
    _seats(img, marks, view, names, labels, s.result, last)
    return img


def draw_table(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None,
               last: Sequence[LastMove | None] | None = None) -> Image.Image:
    """The table picture as an image (RGB)."""
    return _draw(view, names, labels, last, None)


def table_texts(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None,
                last: Sequence[LastMove | None] | None = None
                ) -> tuple[Image.Image, list[TextMark]]:
    """The table picture and every piece of text on it with its box (for tests and tools)."""
    marks: list[TextMark] = []
    return _draw(view, names, labels, last, marks), marks


PALETTE_FILE = Path(__file__).with_name("palette.png")


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed 255-colour palette of every picture (``render/palette.png``, made by
    ``python -m render.palette`` from reference pictures).

    Mapping a picture onto a fixed palette is fast (under a millisecond) and a palette PNG
    is a third of the data to compress: encoding costs a few milliseconds instead of ~20.
    """
    with Image.open(PALETTE_FILE) as img:
        img.load()
        return img.copy()


def encode(img: Image.Image) -> bytes:
    """PNG bytes on the fixed palette, deterministic."""
    out = io.BytesIO()
    indexed = img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def render_table(view: View, names: Sequence[str], *,
                 labels: Mapping[str, str] | None = None,
                 last: Sequence[LastMove | None] | None = None) -> bytes:
    """The table picture (PNG) of a public view, with each seat's name.

    ``last`` holds each seat's latest move (see :func:`render.moves.last_moves`); by
    default it is read from the view, which cannot tell a timed-out turn.
    """
    return encode(draw_table(view, names, labels, last))
