"""The table picture: the line of play as a snake, the seats, scores, pile and turn."""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from domino import HandResult, View
from render import png
from render.layout import Layout, layout_line
from render.moves import LastMove, last_moves
from render.spinner import arm_index, last_arm_tile, layout_cross, uses_cross
from render.sprites import (
    BANNER_FILL,
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    INK,
    IVORY,
    MUTED,
    TEAM_COLOURS,
    WHITE,
    chip,
    end_badge,
    fit_text,
    font,
    line_height,
    text_size,
    text_sprite,
    text_width,
    tile_back,
    tile_face,
    tile_half,
)

WIDTH, HEIGHT = 1024, 960
#: The smallest type for anything a player reads (names, scores, counts, target): its
#: capitals and digits are 29 px tall, 11 px when the picture is shown 400 px wide.
MIN_TEXT = 40
SCORE_TEXT = 46  # the scores, in their boxes
SIDE_TEXT = 28  # a long name in the header may shrink to this (the cards keep MIN_TEXT)
TEAM_TEXT = 30  # a team's names, one a line in the header
CHIP, TEAM_CHIP = 56, 72  # the header's chips: one name, or a team's two names
TOP = 128  # the header band: scores, then the hand, the target and the stock
CARD_ROW = 48  # one line of a seat card
CARD_GAP = 16


def seat_grid(seats: int) -> tuple[int, int]:
    """Seat cards as (columns, rows): four seats sit two by two, so long names fit."""
    return (2, 2) if seats == 4 else (seats, 1)


def seat_cell(seats: int, seat: int) -> tuple[int, int]:
    """A seat's card as (column, row). Two by two, the seats go round the grid as round a
    table (top left, top right, bottom right, bottom left): partners sit across."""
    cols, rows = seat_grid(seats)
    if rows == 2 and cols == 2:
        return ((0, 0), (1, 0), (1, 1), (0, 1))[seat]
    return seat % cols, seat // cols


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
    "one_hand": "One hand",
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
    "lost_on_time": "{name} lost on time",
    "your_tiles": "Your tiles",
    "your_turn": "Your turn",
    "waiting": "Waiting for {name}",
    "ends": "Ends {left} and {right}",
    "end_sum": "Ends {sum}",
    "end_scores": "Ends {sum}: +{points}",
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
        shown = result if not view.outcome.gave_up else None
        return TableScene(view.line, view.opener_index, last, shown, view.spinner, view.arms)
    started = any(e.kind != "start" for e in view.events)
    if result is not None and not started:
        return TableScene(result.line, result.opener_index, last_of(result), result,
                          result.spinner, result.arms)
    return TableScene(view.line, view.opener_index, last, None, view.spinner, view.arms)


def last_of(result: HandResult) -> int | None:
    """The ``PlacedTile.index`` of a finished hand's last tile (outlined like any last tile)."""
    end, line, arms = result.last_end, result.line, result.arms
    if not line:
        return None
    if end == "left":
        return 0
    if end in ("up", "down"):
        k = 0 if end == "up" else 1
        return arm_index(k, len(arms[k]) - 1) if arms[k] else None
    return len(line) - 1 if end == "right" or len(line) == 1 else None


def banner_box(view: View) -> tuple[int, int, int, int] | None:
    """The banner announcing how the hand (or the match) ended, if the picture shows one."""
    return BANNER if view.outcome is not None or scene(view).result is not None else None


def line_area(view: View) -> tuple[int, int, int, int]:
    """Where the line is laid out: under the banner when there is one."""
    return line_box(view.ruleset.seats, banner_box(view) is not None)


def table_layout(view: View) -> Layout:
    """The geometry of the line as the table picture draws it (for tests and tools)."""
    s = scene(view)
    return _laid(s.line, s.opener_index, s.spinner, s.arms, line_area(view))


@lru_cache(maxsize=2048)
def _laid(line: tuple[tuple[int, int], ...], opener_index: int | None, spinner: int | None,
          arms: tuple[tuple[tuple[int, int], ...], ...], area: tuple[int, int, int, int]
          ) -> Layout:
    """The line laid out in ``area``, kept for the next picture of the same line (after a
    draw, a pass, or a turn's timer)."""
    if uses_cross(line, spinner):
        assert spinner is not None
        return layout_cross(line, spinner, (arms[0], arms[1]), area)
    return layout_line(line, opener_index, area)


@lru_cache(maxsize=8)
def _background(seats: int) -> Image.Image:
    """The empty table on the palette: felt, with the header and seat bands.

    It is one pixel wider: column 0 holds colour 0, the byte that starts each row of a PNG
    (its filter, "none"), so the picture's rows are the file's rows as they are."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    img.paste(FELT_DARK, (0, 0, WIDTH, TOP))
    img.paste(FELT_DARK, (0, HEIGHT - bottom(seats), WIDTH, HEIGHT))
    out = Image.new("P", (WIDTH + 1, HEIGHT), 0)
    out.putpalette(palette().getpalette() or [])
    out.paste(_quantize(img), (1, 0))
    return out


@dataclass(frozen=True, slots=True)
class TextMark:
    """One piece of text the picture shows: what it is, the words, where, on which colour."""

    role: str  # "name", "score", "side", "hand", "stock", "tiles", "last", "end", "banner"
    text: str
    box: tuple[int, int, int, int]
    bg: tuple[int, int, int]


Marks = list[TextMark] | None
#: A sprite by what draws it: its kind (a key of ``_MAKERS``), then the maker's arguments.
Key = tuple[object, ...]
Op = tuple[Key, int, int]  # a sprite pasted with its top left at (x, y)


@dataclass(slots=True)
class Canvas:
    """The picture as the sprites pasted on the empty table, in order (nothing drawn yet)."""

    seats: int
    marks: Marks
    ops: list[Op] = field(default_factory=list)

    def put(self, key: Key, x: int, y: int) -> None:
        """Paste the sprite ``key`` with its top left at (x, y)."""
        self.ops.append((key, x, y))


def _tile_on_felt(first: int, second: int, long: int, vertical: bool,
                  highlight: bool) -> Image.Image:
    """A tile of the line on the felt; ``b|a`` is ``a|b`` turned half round (its pips too).
    Its sprite is made from the halves (:func:`sprite`): the same pixels, on the palette."""
    if first > second:
        return _tile_on_felt(second, first, long, vertical, highlight).transpose(
            Image.Transpose.ROTATE_180)
    face = tile_face(first, second, long, vertical, highlight)
    img = Image.new("RGB", face.size, FELT)
    img.paste(face, (0, 0), face)
    return img


def _outline(width: int, height: int, radius: int, colour: tuple[int, int, int],
             line: int) -> Image.Image:
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, width - 1, height - 1), radius,
                                          outline=colour, width=line)
    return img


def _backs(count: int, bg: tuple[int, int, int]) -> Image.Image:
    """``count`` face-down tiles in a row, each 11 px right of the one before."""
    back = tile_back(32, bg)
    img = Image.new("RGB", (back.width + 11 * (count - 1), back.height), bg)
    for k in range(count):
        img.paste(back, (k * 11, 0))
    return img


def _pointer() -> Image.Image:
    img = Image.new("RGBA", (45, 22), (0, 0, 0, 0))
    ImageDraw.Draw(img).polygon([(0, 0), (44, 0), (22, 21)], fill=HIGHLIGHT, outline=INK,
                                width=2)
    return img


_MAKERS: dict[str, Callable[..., Image.Image]] = {
    "text": text_sprite, "chip": chip, "backs": _backs, "badge": end_badge,
    "outline": _outline, "pointer": _pointer,
}


def _quantize(img: Image.Image) -> Image.Image:
    return img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=256)
def _blends(fill: tuple[int, int, int], bg: tuple[int, int, int]) -> bytes:
    """The palette index of each coverage (0-255) of text in ``fill`` on ``bg``: drawing text
    blends a pixel from its glyphs' coverage alone, so one row of all 256 maps any text."""
    strip = Image.new("RGB", (256, 1), bg)
    strip.paste(fill, (0, 0, 256, 1), Image.frombytes("L", (256, 1), bytes(range(256))))
    return _quantize(strip).tobytes()


@lru_cache(maxsize=16384)  # a name's coverage serves its seat card in both colours
def _coverage(text: str, size: int) -> Image.Image:
    """How much of each pixel of :func:`text_sprite` the glyphs cover (0-255)."""
    img = Image.new("L", text_size(text, size), 0)
    if "\n" in text:  # lines one under the other
        ImageDraw.Draw(img).text((0, 0), text, font=font(size), fill=255)
        return img
    # What ImageDraw's text does for one line at (0, 0), without its layout of lines.
    mask, (x, y) = font(size).getmask2(text, "L", anchor="la", ink=255, start=(0.0, 0.0),
                                       stroke_filled=True)
    img.im.paste(255, (x, y, x + mask.size[0], y + mask.size[1]), mask)
    return img


def _text_on_palette(text: str, size: int, fill: tuple[int, int, int],
                     bg: tuple[int, int, int]) -> Image.Image:
    """:func:`text_sprite` on the palette, mapped from the glyphs' coverage (the same pixels
    as quantizing it, without a nearest-colour search per picture)."""
    covered = _coverage(text, size)
    out = Image.frombytes("P", covered.size, covered.tobytes().translate(_blends(fill, bg)))
    out.putpalette(_palette_bytes())
    return out


_SERIALS = itertools.count()


class Sprite:
    """A piece of picture on the palette, and its mask when it has transparent pixels;
    ``serial`` tells it from every other sprite made in this process (a band's key names its
    sprites by it: a small number hashes faster than the sprite's own key)."""

    __slots__ = ("_core", "_mask", "height", "image", "mask", "serial", "width")

    def __init__(self, image: Image.Image, mask: Image.Image | None) -> None:
        image.load()
        self.image, self.mask = image, mask
        self.width, self.height = image.size
        self.serial = next(_SERIALS)
        self._core = image.im
        self._mask = None if mask is None else mask.im

    def paste(self, core: object, x: int, y: int) -> None:
        """Paste it into a loaded image's core with its top left at (x, y)."""
        box = (x, y, x + self.width, y + self.height)
        if self._mask is None:
            core.paste(self._core, box)  # type: ignore[attr-defined]
        else:
            core.paste(self._core, box, self._mask)  # type: ignore[attr-defined]


@lru_cache(maxsize=2048)
def half_on_palette(n: int, top: bool, long: int, highlight: bool) -> Image.Image:
    """The top (or bottom) part of an upright tile with ``n`` on it, on the felt, on the
    palette (see :func:`render.sprites.tile_half`, whose own cache it leaves to the hands)."""
    half = tile_half.__wrapped__(n, top, long, highlight, IVORY)
    img = Image.new("RGB", half.size, FELT)
    img.paste(half, (0, 0), half)
    return _quantize(img)


#: How a tile's sprite is turned from the upright one with its smaller number on top, by
#: (its first number is the larger, it stands upright); see :func:`_tile_on_felt`.
_TURNS = {(True, True): Image.Transpose.ROTATE_180, (False, False): Image.Transpose.ROTATE_90,
          (True, False): Image.Transpose.ROTATE_270}


@lru_cache(maxsize=16384)
def sprite(key: Key) -> Sprite:
    """The sprite ``key`` on the pictures' palette."""
    kind, *args = key
    if kind == "text":
        return Sprite(_text_on_palette(*args), None)
    if kind == "tile":
        first, second, long, vertical, highlight = args
        if first > second or not vertical:  # a turn of the upright a|b
            upright = sprite(("tile", min(first, second), max(first, second), long, True,
                              highlight))
            return Sprite(upright.image.transpose(_TURNS[first > second, vertical]), None)
        # Each pixel of a tile on the felt, and its colour on the palette, comes from the
        # pixel of the tile's half alone: the halves are put on the palette once.
        img = Image.new("P", (long // 2, long))
        img.putpalette(_palette_bytes())
        img.im.paste(half_on_palette(first, True, long, highlight).im,
                     (0, 0, long // 2, long // 2))
        img.im.paste(half_on_palette(second, False, long, highlight).im,
                     (0, long // 2, long // 2, long))
        return Sprite(img, None)
    img = _MAKERS[str(kind)](*args)
    mask = None
    if img.mode == "RGBA":
        mask = img.getchannel("A").point(lambda a: 255 if a else 0)
        mask.load()
    indexed = _quantize(img)
    indexed.load()
    return Sprite(indexed, mask)


def _put(c: Canvas, role: str, xy: tuple[int, int], text: str, size: int,
         fill: tuple[int, int, int], bg: tuple[int, int, int], align: str = "left") -> int:
    """Paste cached text centred on y, its left (or right, or centre) edge at x; its width."""
    w, h = text_size(text, size)
    x = {"left": xy[0], "right": xy[0] - w, "centre": xy[0] - w // 2}[align]
    y = xy[1] - h // 2
    c.put(("text", text, size, fill, bg), x, y)
    if c.marks is not None:
        c.marks.append(TextMark(role, text, (x, y, x + w, y + h), bg))
    return w


Join = Callable[[Sequence[str]], str]


def _ampersand(people: Sequence[str]) -> str:
    return " & ".join(people)


def side_names(view: View, names: Sequence[str], join: Join = _ampersand, *,
               full: bool = False) -> list[str]:
    """A display name per scoring side: ``Ana & Carla`` for a team (``join``: how a team's
    names are joined, e.g. "Ana and Carla" in words), the name otherwise; ``full``: names
    not shortened to fit the picture."""
    rs = view.ruleset
    name = _full_name if full else _name
    out = []
    for side in range(rs.sides):
        seats = rs.seats_of_side(side)
        people = list(dict.fromkeys(name(names, s) for s in seats))
        out.append(join(people))
    return out


def _name(names: Sequence[str], seat: int) -> str:
    name = _full_name(names, seat)
    return name if len(name) <= 16 else name[:15] + "…"


def _colour(view: View, seat: int) -> tuple[int, int, int]:
    return TEAM_COLOURS[view.ruleset.side_of(seat) % len(TEAM_COLOURS)]


def side_people(view: View, names: Sequence[str]) -> list[list[str]]:
    """Per scoring side, each of its people's names once, whole (spaces made single)."""
    rs = view.ruleset
    return [list(dict.fromkeys(_full_name(names, s) for s in rs.seats_of_side(side)))
            for side in range(rs.sides)]


def _full_name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"
    return " ".join(str(name).split())


def _header(c: Canvas, view: View, names: Sequence[str], labels: Mapping[str, str] | None,
            result: HandResult | None) -> None:
    rs = view.ruleset
    # Line 1: per side, its name on a chip of its colour, then its score in a box of its own.
    # A team's chip holds one partner's name a line, so both are read whole.
    people = side_people(view, names)
    lines = max(len(p) for p in people)
    height = CHIP if lines == 1 else TEAM_CHIP
    gap, pad = 20, 12
    each = (WIDTH - 24 - gap * (len(people) - 1)) // len(people)
    x = 12
    for side, (members, score) in enumerate(zip(people, view.scores, strict=True)):
        colour = TEAM_COLOURS[side % len(TEAM_COLOURS)]
        number = str(score)
        box_w = max(80, text_width(number, SCORE_TEXT) + 2 * pad)
        room = each - box_w - 8 - 2 * pad
        if lines == 1:
            fitted = [fit_text(members[0], room, MIN_TEXT, SIDE_TEXT)]
        else:  # one size for both partners, the largest at which both fit
            size = TEAM_TEXT
            while size > SIDE_TEXT and max(text_width(n, size) for n in members) > room:
                size -= 2
            fitted = [fit_text(n, room, size, size) for n in members]
        chip_w = max(text_width(t, z) for t, z in fitted) + 2 * pad
        c.put(("chip", chip_w, height, colour, FELT_DARK, None, 12, 5), x, 8)
        row = height // len(fitted)
        for k, (text, size) in enumerate(fitted):
            _put(c, "side", (x + pad, 8 + row * k + row // 2), text, size, WHITE, colour)
        bx = x + chip_w + 8
        c.put(("chip", box_w, height, WHITE, FELT_DARK, None, 12, 5), bx, 8)
        _put(c, "score", (bx + box_w // 2, 8 + height // 2), number, SCORE_TEXT, INK, WHITE,
             "centre")
        c.put(("outline", box_w, height, 12, colour, 4), bx, 8)
        x += each + gap
    # Line 2: which hand and the goal; what is left to draw.
    second = 98 if lines == 1 else 104
    number = result.hand_number if result is not None else view.hand_number
    if view.hands_total == 1 and view.target is None:
        hand = label(labels, "one_hand")
    elif view.hands_total:
        hand = label(labels, "hand_of", number=number, total=view.hands_total)
    else:
        hand = label(labels, "hand", number=number)
    if rs.scoring == "penalty":
        goal = label(labels, "penalty")
    else:  # no target: the hands are the match ("Hand 2 of 4", "One hand")
        goal = label(labels, "target", target=view.target) if view.target is not None else ""
    stock = []
    if result is None:  # at the end of a hand the pile would be the next hand's
        if rs.end_scoring and view.line:  # the number an All Fives player counts
            total = view.end_count
            stock.append(label(labels, "end_scores", sum=total, points=total)
                         if total % rs.end_scoring == 0 else label(labels, "end_sum", sum=total))
        if rs.draw:
            stock.append(label(labels, "pile", count=view.pile_size))
        if view.sleeping:
            stock.append(label(labels, "sleeping", count=view.sleeping))
    right_w = 0
    if stock:
        right, rsize = fit_text(" · ".join(stock), 560, MIN_TEXT, MIN_TEXT)
        right_w = _put(c, "stock", (WIDTH - 20, second), right, rsize, WHITE, FELT_DARK,
                       "right")
    left, lsize = fit_text(" · ".join(p for p in (hand, goal) if p), WIDTH - 60 - right_w,
                           MIN_TEXT, MIN_TEXT)
    _put(c, "hand", (20, second), left, lsize, WHITE, FELT_DARK)


def news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
         result: HandResult | None, join: Join = _ampersand) -> list[str]:
    """How the match, or the hand just finished, ended (one item a line); empty while playing
    (``join``: how a team's names are joined)."""
    rs = view.ruleset
    sides = side_names(view, names, join)
    outcome = view.outcome
    lines: list[str] = []
    if outcome is not None:
        if outcome.gave_up and outcome.resigned_seat is not None:
            key = "lost_on_time" if outcome.reason == "time" else "resigned"
            lines.append(label(labels, key, name=_name(names, outcome.resigned_seat)))
        elif result is not None:
            lines.extend(_hand_news(view, names, labels, result, join))
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
    return _hand_news(view, names, labels, result, join)


def _hand_news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
               result: HandResult, join: Join = _ampersand) -> list[str]:
    rs = view.ruleset
    sides = side_names(view, names, join)
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


def _banner(c: Canvas, view: View, names: Sequence[str], labels: Mapping[str, str] | None,
            s: TableScene) -> None:
    box = banner_box(view)
    lines = news(view, names, labels, s.result)
    if box is None or not lines:
        return
    x0, y0, x1, y1 = box
    c.put(("chip", x1 - x0, y1 - y0, BANNER_FILL, FELT, HIGHLIGHT, 16, 4), x0, y0)
    inner = x1 - x0 - 48
    if len(lines) == 1:
        text, size = fit_text(lines[0], inner, 46, MIN_TEXT)
        rows = [(text, size, HIGHLIGHT)]
    else:
        first, size1 = fit_text(lines[-1], inner, MIN_TEXT, MIN_TEXT - 6)
        second, size2 = fit_text(" · ".join(lines[:-1]), inner, 28, 22)
        rows = [(first, size1, HIGHLIGHT), (second, size2, WHITE)]
    heights = [line_height(z) for _t, z, _c in rows]
    y = (y0 + y1 - sum(heights)) // 2
    for (text, size, colour), h in zip(rows, heights, strict=True):
        _put(c, "banner", ((x0 + x1) // 2, y + h // 2), text, size, colour, BANNER_FILL,
             "centre")
        y += h
    c.put(("outline", x1 - x0, y1 - y0, 16, HIGHLIGHT, 4), x0, y0)  # over the text's margins


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
        col, row = seat_cell(seats, seat)
        x0 = 12 + col * (width + 12)
        y0 = band + row * (height + CARD_GAP)
        boxes.append((x0, y0, x0 + width, y0 + height))
    return boxes


def _seats(c: Canvas, view: View, names: Sequence[str], labels: Mapping[str, str] | None,
           result: HandResult | None, last: Sequence[LastMove | None]) -> None:
    seats = view.ruleset.seats
    two_lines = card_lines(seats) == 2
    for seat, (x0, y0, x1, y1) in enumerate(seat_boxes(seats)):
        colour = _colour(view, seat)
        turn = view.turn == seat and result is None
        fill = HIGHLIGHT if turn else colour
        ink = INK if turn else WHITE
        width = x1 - x0
        c.put(("chip", width, y1 - y0, fill, FELT_DARK, colour if turn else None, 14, 6), x0, y0)
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
        _put(c, "name", (x0 + pad, rows[0]), name, size, ink, fill)
        if two_lines:
            _put(c, "tiles", (x1 - pad, rows[0]), count, csize, ink, fill, "right")
            backs_from, last_row = x0 + pad, rows[1]
        else:
            backs_from = x0 + pad + _put(c, "tiles", (x0 + pad, rows[1]), count, csize, ink,
                                         fill) + 12
            last_row = rows[2]
        words = last_words(last[seat] if seat < len(last) else None, labels)
        if not words and turn:
            words = label(labels, "to_play")
        used = 0
        if words:
            room = width - 2 * pad - (120 if two_lines else 0)
            words, wsize = fit_text(words, room, 34, 24)
            used = _put(c, "last", (x0 + pad, last_row), words, wsize, ink, fill)
        if result is None:  # the hidden tiles as backs: a count that needs no reading
            back = tile_back(32, fill)
            if two_lines:
                backs_from, backs_y = x0 + pad + used + 16, last_row - 16
            else:
                backs_y = rows[1] - 16
            room = (x1 - 14 - backs_from - back.width) // 11 + 1
            shown = min(view.hand_sizes[seat], max(0, room))
            if shown:
                c.put(("backs", shown, fill), backs_from, backs_y)
        if turn:  # a frame and a pointer: the turn is marked by shape, not colour alone
            c.put(("outline", width, y1 - y0, 14, colour, 6), x0, y0)
            c.put(("pointer",), x0 + width // 2 - 22, y0 - 15)


def _line(c: Canvas, s: TableScene, labels: Mapping[str, str] | None, layout: Layout) -> None:
    if not s.line:
        text, size = fit_text(label(labels, "empty"), WIDTH - 80, 44, 28)
        x0, y0, x1, y1 = layout.area
        _put(c, "empty", ((x0 + x1) // 2, (y0 + y1) // 2), text, size, MUTED, FELT, "centre")
        return
    for placed in layout.tiles:
        c.put(("tile", placed.first, placed.second, layout.tile,
               placed.orientation == "vertical", placed.index == s.last_index), *placed.box[:2])
    for mark in layout.ends:
        x0, y0, x1, y1 = mark.box
        size = min(x1 - x0, y1 - y0)
        at = ((x0 + x1 - size) // 2, (y0 + y1 - size) // 2)
        c.put(("badge", size, mark.value), *at)
        if c.marks is not None:
            c.marks.append(TextMark("end", str(mark.value), (*at, at[0] + size, at[1] + size),
                                    HIGHLIGHT))


def _canvas(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
            last: Sequence[LastMove | None] | None, marks: Marks) -> Canvas:
    """Every sprite of the picture, in drawing order."""
    if view.hand is not None:
        raise ValueError("the table picture is drawn from the public view only")
    s = scene(view)
    if last is None:
        last = last_moves(view)
    c = Canvas(view.ruleset.seats, marks)
    _header(c, view, names, labels, s.result)
    _banner(c, view, names, labels, s)
    _line(c, s, labels, table_layout(view))
    _seats(c, view, names, labels, s.result, last)
    return c


Made = list[tuple[Sprite, int, int]]  # the sprites of a canvas's ops, made, and where


def _made(c: Canvas) -> Made:
    return [(sprite(key), x, y) for key, x, y in c.ops]


def _paint(img: Image.Image, made: Made, top: int = 0) -> Image.Image:
    """Paste the sprites on ``img`` (the wide background's rows from ``top`` on)."""
    img.load()
    core = img.im
    for made_sprite, x, y in made:
        made_sprite.paste(core, x + 1, y - top)
    return img


def _full(c: Canvas) -> Image.Image:
    """The whole picture drawn at once, on the palette."""
    return _paint(_background(c.seats).copy(), _made(c)).crop((1, 0, WIDTH + 1, HEIGHT))


def draw_table(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None,
               last: Sequence[LastMove | None] | None = None) -> Image.Image:
    """The table picture as an image (RGB)."""
    return _full(_canvas(view, names, labels, last, None)).convert("RGB")


def table_texts(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None,
                last: Sequence[LastMove | None] | None = None
                ) -> tuple[Image.Image, list[TextMark]]:
    """The table picture and every piece of text on it with its box (for tests and tools)."""
    marks: list[TextMark] = []
    return _full(_canvas(view, names, labels, last, marks)).convert("RGB"), marks


PALETTE_FILE = Path(__file__).with_name("palette.png")


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed 255-colour palette of every picture (``render/palette.png``, made by
    ``python -m render.palette`` from reference pictures).

    Every sprite is mapped onto it once, when first drawn, so a picture is drawn and
    encoded on the palette directly: a third of the data of RGB, and nothing to convert.
    """
    with Image.open(PALETTE_FILE) as img:
        img.load()
        return img.copy()


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return bytes(palette().getpalette() or [])


#: Rows per band: a band is compressed on its own and reused while its sprites stay the same.
BAND = 32
BAND_CACHE = 40960  # about 100 MB when full: the latest pictures of some 1,350 open tables


#: (seats, band, the sprites that reach into it, in drawing order, as (serial, x, y))
BandKey = tuple[int, int, tuple[tuple[int, int, int], ...]]


def _bands(c: Canvas) -> tuple[list[BandKey], Made]:
    """Per band of rows: (seats, band, the sprites that reach into it, in drawing order); and
    the sprites made."""
    n = -(-HEIGHT // BAND)
    per: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    made = _made(c)
    for one, x, y in made:
        here = (one.serial, x, y)
        for b in range(max(0, y // BAND), min(n - 1, (y + one.height - 1) // BAND) + 1):
            per[b].append(here)
    return [(c.seats, b, tuple(ops)) for b, ops in enumerate(per)], made


class _Bands:
    """Compressed bands by their sprites, the least recently used dropped first (shared by
    every table and thread: the same sprites in the same band give the same bytes, so any
    picture that drew them already saves drawing them again)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[BandKey, png.Band] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, keys: Sequence[BandKey]) -> list[png.Band | None]:
        with self._lock:
            found = [self._kept.get(key) for key in keys]
            for key, band in zip(keys, found, strict=True):
                if band is not None:
                    self._kept.move_to_end(key)
        return found

    def put(self, key: BandKey, band: png.Band) -> None:
        with self._lock:
            self._kept[key] = band
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


_KEPT = _Bands(BAND_CACHE)


@lru_cache(maxsize=8)
def _background_rows(seats: int) -> bytes:
    """The rows of :func:`_background`, each after its filter byte."""
    return _background(seats).tobytes()


def _painted_rows(seats: int, made: Made, top: int, bottom: int) -> memoryview:
    """Rows ``top`` to ``bottom`` of the picture as the PNG file holds them: the empty
    table's, with the sprites that reach into them pasted (onto a copy of its bytes, as an
    image over them, so the rows are not read out of an image again)."""
    row = WIDTH + 1
    rows = bytearray(memoryview(_background_rows(seats))[top * row : bottom * row])
    core = Image.core.map_buffer(rows, (row, bottom - top), "raw", 0, ("P", 0, 1))
    for made_sprite, x, y in made:
        if y < bottom and y + made_sprite.height > top:
            made_sprite.paste(core, x + 1, y - top)
    return memoryview(rows)


def _draw_missing(c: Canvas, made: Made, keys: Sequence[BandKey],
                  found: list[png.Band | None]) -> None:
    """Draw and compress the bands not found, each run of neighbouring ones painted at once
    (every sprite pasted once, the rows read out once), into ``found`` and the cache."""
    row = WIDTH + 1
    b = 0
    while b < len(keys):
        if found[b] is not None:
            b += 1
            continue
        first = b
        while b < len(keys) and found[b] is None:
            b += 1
        top, bottom = first * BAND, min(HEIGHT, b * BAND)
        raw = _painted_rows(c.seats, made, top, bottom)
        for k in range(first, b):
            start = (k * BAND - top) * row
            band = png.compress_band(raw[start : start + BAND * row])
            found[k] = band
            _KEPT.put(keys[k], band)


def encode(img: Image.Image) -> bytes:
    """PNG bytes of any picture of the table's size or other, on the fixed palette."""
    indexed = img if img.mode == "P" else _quantize(img)
    bands = [png.compress_band(png.rows(indexed.crop((0, y, indexed.width,
                                                      min(indexed.height, y + BAND)))))
             for y in range(0, indexed.height, BAND)]
    return png.write(indexed.width, indexed.height, _palette_bytes(), bands)


def redraw(view: View, names: Sequence[str], *, labels: Mapping[str, str] | None = None,
           last: Sequence[LastMove | None] | None = None) -> bytes:
    """The table picture drawn whole and compressed whole, nothing reused: the bytes
    :func:`render_table` gives (for tests and benchmarks)."""
    c = _canvas(view, names, labels, last, None)
    raw = _painted_rows(c.seats, _made(c), 0, HEIGHT)
    row = WIDTH + 1
    bands = [png.compress_band(raw[top * row : min(HEIGHT, top + BAND) * row])
             for top in range(0, HEIGHT, BAND)]
    return png.write(WIDTH, HEIGHT, _palette_bytes(), bands)


def band_rows(view: View, names: Sequence[str]) -> list[bytes]:
    """Each band's filtered rows of the table picture, uncompressed (for comparing encoders)."""
    c = _canvas(view, names, None, None, None)
    raw = _painted_rows(c.seats, _made(c), 0, HEIGHT)
    row = WIDTH + 1
    return [bytes(raw[top * row : min(HEIGHT, top + BAND) * row])
            for top in range(0, HEIGHT, BAND)]


def render_table(view: View, names: Sequence[str], *,
                 labels: Mapping[str, str] | None = None,
                 last: Sequence[LastMove | None] | None = None) -> bytes:
    """The table picture (PNG) of a public view, with each seat's name.

    ``last`` holds each seat's latest move (see :func:`render.moves.last_moves`); by
    default it is read from the view, which cannot tell a timed-out turn. Only the bands
    of rows whose sprites no earlier picture had are drawn and compressed: the bytes are
    those of :func:`encode` of :func:`draw_table`'s picture.
    """
    c = _canvas(view, names, labels, last, None)
    keys, made = _bands(c)
    found = _KEPT.get(keys)
    _draw_missing(c, made, keys, found)
    return png.write(WIDTH, HEIGHT, _palette_bytes(), found)  # type: ignore[arg-type]
