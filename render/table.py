"""The table picture: the line of play as a snake, the seats, scores, pile and turn."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from domino import HandResult, View
from render.layout import Layout, layout_line
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

WIDTH, HEIGHT = 1024, 768
TOP = 104  # height of the header band
BOTTOM = 124  # height of the seats band
LINE_AREA = (16, TOP + 12, WIDTH - 16, HEIGHT - BOTTOM - 12)
#: The banner at the end of a hand or of the match, and the line's room under it.
BANNER = (16, TOP + 12, WIDTH - 16, TOP + 100)
LINE_AREA_UNDER_BANNER = (16, BANNER[3] + 12, WIDTH - 16, HEIGHT - BOTTOM - 12)

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
    "domino": "Domino! {name} +{points}",
    "domino_penalty": "Domino! {name} went out",
    "blocked": "Blocked! {name} +{points}",
    "blocked_penalty": "Blocked: penalty points as they stand",
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


def scene(view: View) -> TableScene:
    """The line to draw: the current one, or the hand that just ended (before any move)."""
    result = view.previous
    if view.outcome is not None:  # the last line stays on the table; a resignation ends no hand
        shown = result if view.outcome.reason != "resign" else None
        return TableScene(view.line, view.opener_index, view.last_index, shown)
    started = any(e.kind != "start" for e in view.events)
    if result is not None and not started:
        return TableScene(result.line, result.opener_index, None, result)
    return TableScene(view.line, view.opener_index, view.last_index, None)


def banner_box(view: View) -> tuple[int, int, int, int] | None:
    """The banner announcing how the hand (or the match) ended, if the picture shows one."""
    return BANNER if view.outcome is not None or scene(view).result is not None else None


def line_area(view: View) -> tuple[int, int, int, int]:
    """Where the line is laid out: under the banner when there is one."""
    return LINE_AREA_UNDER_BANNER if banner_box(view) else LINE_AREA


def table_layout(view: View) -> Layout:
    """The geometry of the line as the table picture draws it (for tests and tools)."""
    s = scene(view)
    return layout_line(s.line, s.opener_index, line_area(view))


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The empty table: felt, with the header and seat bands."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    img.paste(FELT_DARK, (0, 0, WIDTH, TOP))
    img.paste(FELT_DARK, (0, HEIGHT - BOTTOM, WIDTH, HEIGHT))
    return img


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


def _text_left(img: Image.Image, xy: tuple[int, int], text: str, size: int,
               fill: tuple[int, int, int], bg: tuple[int, int, int]) -> int:
    """Paste cached text with its left edge at x, centred on y; returns its width."""
    sprite = text_sprite(text, size, fill, bg)
    img.paste(sprite, (xy[0], xy[1] - sprite.height // 2))
    return sprite.width


def _header(img: Image.Image, view: View, names: Sequence[str],
            labels: Mapping[str, str] | None, result: HandResult | None) -> None:
    rs = view.ruleset
    # Line 1: the scores, each side on a chip of its colour; names give way to the numbers.
    goal = (label(labels, "penalty") if rs.scoring == "penalty"
            else label(labels, "target", target=view.target))
    goal, goal_size = fit_text(goal, 260, 30, 18)
    goal_w = text_sprite(goal, goal_size, MUTED, FELT_DARK).width
    room = WIDTH - 20 - goal_w - 24 - 12
    sides = side_names(view, names)
    gap, pad = 14, 10
    each = (room - gap * (len(sides) - 1)) // len(sides)
    chips = []
    size = 36
    for name, score in zip(sides, view.scores, strict=True):
        number = f" {score}"
        text, size_i = fit_text(name, each - 2 * pad - text_width(number, 36), 36, 22)
        chips.append((text, number))
        size = min(size, size_i)
    x = 12
    for side, (text, number) in enumerate(chips):
        colour = TEAM_COLOURS[side % len(TEAM_COLOURS)]
        text, _ = fit_text(text, each - 2 * pad - text_width(number, size), size, size)
        w = text_width(text + number, size) + 2 * pad
        img.paste(chip(w, 48, colour, FELT_DARK), (x, 8))
        _text_left(img, (x + pad, 32), text + number, size, WHITE, colour)
        x += w + gap
    sprite = text_sprite(goal, goal_size, MUTED, FELT_DARK)
    img.paste(sprite, (WIDTH - 20 - sprite.width, 32 - sprite.height // 2))
    # Line 2: which hand, and what is left to draw.
    number = result.hand_number if result is not None else view.hand_number
    if view.hands_total:
        hand = label(labels, "hand_of", number=number, total=view.hands_total)
    else:
        hand = label(labels, "hand", number=number)
    stock = []
    if result is None:  # at the end of a hand the pile would be the next hand's
        if rs.draw:
            stock.append(label(labels, "pile", count=view.pile_size))
        if view.sleeping:
            stock.append(label(labels, "sleeping", count=view.sleeping))
    right = " · ".join(stock)
    right_w = 0
    if right:
        right, rsize = fit_text(right, 420, 32, 20)
        sprite = text_sprite(right, rsize, WHITE, FELT_DARK)
        right_w = sprite.width
        img.paste(sprite, (WIDTH - 20 - sprite.width, 80 - sprite.height // 2))
    hand, hsize = fit_text(hand, WIDTH - 60 - right_w, 32, 20)
    _text_left(img, (20, 80), hand, hsize, WHITE, FELT_DARK)


def _news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
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


def _banner(img: Image.Image, view: View, names: Sequence[str],
            labels: Mapping[str, str] | None, s: TableScene) -> None:
    box = banner_box(view)
    lines = _news(view, names, labels, s.result)
    if box is None or not lines:
        return
    x0, y0, x1, y1 = box
    img.paste(chip(x1 - x0, y1 - y0, BANNER_FILL, FELT, HIGHLIGHT, 16, 4), (x0, y0))
    inner = x1 - x0 - 48
    if len(lines) == 1:
        text, size = fit_text(lines[0], inner, 46, 26)
        rows = [(text, size, HIGHLIGHT)]
    else:
        first, size1 = fit_text(lines[-1], inner, 40, 24)
        second, size2 = fit_text(" · ".join(lines[:-1]), inner, 30, 18)
        rows = [(first, size1, HIGHLIGHT), (second, size2, WHITE)]
    heights = [text_sprite(t, z, c, BANNER_FILL).height for t, z, c in rows]
    y = (y0 + y1 - sum(heights)) // 2
    for (text, size, colour), h in zip(rows, heights, strict=True):
        sprite = text_sprite(text, size, colour, BANNER_FILL)
        img.paste(sprite, ((x0 + x1 - sprite.width) // 2, y))
        y += h


def _seats(img: Image.Image, view: View, names: Sequence[str],
           labels: Mapping[str, str] | None, result: HandResult | None) -> None:
    seats = view.ruleset.seats
    top = HEIGHT - BOTTOM
    width = (WIDTH - 16 * (seats + 1)) // seats
    height = BOTTOM - 24
    for seat in range(seats):
        x0 = 16 + seat * (width + 16)
        y0 = top + 12
        colour = _colour(view, seat)
        turn = view.turn == seat and result is None
        fill = HIGHLIGHT if turn else colour
        ink = INK if turn else WHITE
        img.paste(chip(width, height, fill, FELT_DARK, colour if turn else None, 14, 6),
                  (x0, y0))
        name, size = fit_text(_name(names, seat), width - 36, 34, 22)
        _text_left(img, (x0 + 18, y0 + 30), name, size, ink, fill)
        if result is not None:
            pips = result.pips[seat]
            info = label(labels, "one_pip") if pips == 1 else label(labels, "pips", count=pips)
        elif turn:
            info = label(labels, "to_play")
        else:
            count = view.hand_sizes[seat]
            info = label(labels, "one_tile") if count == 1 else label(labels, "tiles",
                                                                        count=count)
        info, isize = fit_text(info, width - 36, 28, 16)
        used = _text_left(img, (x0 + 18, y0 + 72), info, isize, ink, fill)
        if result is None:
            backs_x = x0 + 18 + used + 10
            back = tile_back(32, fill)
            room = (x0 + width - 12 - backs_x - back.width) // 11 + 1
            for k in range(min(view.hand_sizes[seat], max(0, room))):
                img.paste(back, (backs_x + k * 11, y0 + 56))


def _line(img: Image.Image, view: View, s: TableScene, labels: Mapping[str, str] | None,
          layout: Layout) -> None:
    if not s.line:
        text, size = fit_text(label(labels, "empty"), WIDTH - 80, 40, 20)
        sprite = text_sprite(text, size, MUTED, FELT)
        x0, y0, x1, y1 = layout.area
        img.paste(sprite, ((x0 + x1 - sprite.width) // 2, (y0 + y1 - sprite.height) // 2))
        return
    for placed in layout.tiles:
        face = tile_face(placed.first, placed.second, layout.tile,
                         placed.orientation == "vertical", placed.index == s.last_index)
        img.paste(face, placed.box[:2], face)
    for mark in layout.ends:
        x0, y0, x1, y1 = mark.box
        size = min(x1 - x0, y1 - y0)
        badge = end_badge(size, mark.value)
        img.paste(badge, ((x0 + x1 - size) // 2, (y0 + y1 - size) // 2))


def draw_table(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None
               ) -> Image.Image:
    """The table picture as an image (RGB)."""
    if view.hand is not None:
        raise ValueError("the table picture is drawn from the public view only")
    s = scene(view)
    img = _background().copy()
    _header(img, view, names, labels, s.result)
    _banner(img, view, names, labels, s)
    _line(img, view, s, labels, table_layout(view))
    _seats(img, view, names, labels, s.result)
    return img


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed 255-colour palette of every picture, taken once from reference pictures.

    Mapping a picture onto a fixed palette is fast (under a millisecond) and a palette PNG
    is a third of the data to compress: encoding costs a few milliseconds instead of ~20.
    """
    import random

    from domino import Match, preset
    from render.hand import draw_hand

    samples = []
    for pid, seed in (("cuban", 3), ("three", 1), ("draw", 2)):
        rng = random.Random(seed)
        m = Match.new(preset(pid), seed)
        while m.turn is not None and m.hand_number == 1 and len(m.line) < 12:
            m = m.apply(rng.choice(m.legal_actions()))
        samples.append(draw_table(m.public_view(), ["Ana", "Bruno", "Carla", "Diego"]))
        if m.turn is not None:
            samples.append(draw_hand(m.view(m.turn)))
        while m.turn is not None and m.hand_number == 1:
            m = m.apply(rng.choice(m.legal_actions()))
        samples.append(draw_table(m.public_view(), ["Ana", "Bruno", "Carla", "Diego"]))
    sheet = Image.new("RGB", (max(i.width for i in samples), sum(i.height for i in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (0, y))
        y += sample.height
    return sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE,
                          dither=Image.Dither.NONE)


def encode(img: Image.Image) -> bytes:
    """PNG bytes on the fixed palette, deterministic."""
    out = io.BytesIO()
    indexed = img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def render_table(view: View, names: Sequence[str], *,
                 labels: Mapping[str, str] | None = None) -> bytes:
    """The table picture (PNG) of a public view, with each seat's name."""
    return encode(draw_table(view, names, labels))
