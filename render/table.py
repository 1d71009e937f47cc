"""The table picture: the line of play as a snake, the seats, scores, pile and turn."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from domino import HandResult, View
from render.layout import Layout, layout_line
from render.sprites import (
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    MUTED,
    TEAM_COLOURS,
    WHITE,
    fit_font,
    font,
    tile_back,
    tile_face,
)

WIDTH, HEIGHT = 1024, 768
TOP = 104  # height of the header band
BOTTOM = 124  # height of the seats band
LINE_AREA = (16, TOP + 12, WIDTH - 16, HEIGHT - BOTTOM - 12)

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


def table_layout(view: View) -> Layout:
    """The geometry of the line as the table picture draws it (for tests and tools)."""
    s = scene(view)
    return layout_line(s.line, s.opener_index, LINE_AREA)


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
    return name if len(name) <= 16 else name[:15] + "…"


def _colour(view: View, seat: int) -> tuple[int, int, int]:
    return TEAM_COLOURS[view.ruleset.side_of(seat) % len(TEAM_COLOURS)]


def _header(draw: ImageDraw.ImageDraw, view: View, names: Sequence[str],
            labels: Mapping[str, str] | None, result: HandResult | None) -> None:
    rs = view.ruleset
    draw.rectangle((0, 0, WIDTH, TOP), fill=FELT_DARK)
    sides = side_names(view, names)
    # Line 1: the scores, each side in its colour.
    x = 20
    score_font = fit_font(" · ".join(f"{n} {s}" for n, s in zip(sides, view.scores, strict=True)),
                          WIDTH - 300, 38, 20)
    for side, (name, score) in enumerate(zip(sides, view.scores, strict=True)):
        colour = TEAM_COLOURS[side % len(TEAM_COLOURS)]
        text = f"{name} {score}"
        draw.rounded_rectangle((x - 8, 8, x + score_font.getlength(text) + 8, 56), 10,
                               fill=colour)
        draw.text((x, 32), text, font=score_font, fill=WHITE, anchor="lm")
        x += int(score_font.getlength(text)) + 28
    goal = (label(labels, "penalty") if rs.scoring == "penalty"
            else label(labels, "target", target=view.target))
    draw.text((WIDTH - 20, 32), goal, font=font(30), fill=MUTED, anchor="rm")
    # Line 2: hand number and pile, or how the hand / match ended.
    number = result.hand_number if result is not None else view.hand_number
    if view.hands_total:
        hand = label(labels, "hand_of", number=number, total=view.hands_total)
    else:
        hand = label(labels, "hand", number=number)
    news = _news(view, names, labels, result)
    line2 = f"{hand} · {news}" if news else hand
    draw.text((20, 82), line2, font=fit_font(line2, WIDTH - 260, 32, 16),
              fill=HIGHLIGHT if news else WHITE, anchor="lm")
    stock = []
    if result is not None:  # the pile shown would be the next hand's
        return
    if rs.draw:
        stock.append(label(labels, "pile", count=view.pile_size))
    if view.sleeping:
        stock.append(label(labels, "sleeping", count=view.sleeping))
    if stock:
        draw.text((WIDTH - 20, 82), " · ".join(stock), font=font(30), fill=WHITE, anchor="rm")


def _news(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
          result: HandResult | None) -> str:
    """How the match, or the hand just finished, ended; empty while playing."""
    rs = view.ruleset
    sides = side_names(view, names)
    outcome = view.outcome
    if outcome is not None:
        if outcome.draw:
            return label(labels, "draw")
        assert outcome.winner_side is not None
        winner = sides[outcome.winner_side]
        key = "wins" if rs.teams and len(rs.seats_of_side(0)) > 1 and rs.people == rs.seats \
            else "wins_one"
        text = label(labels, key, name=winner)
        if outcome.reason == "resign" and outcome.resigned_seat is not None:
            resigned = label(labels, "resigned", name=_name(names, outcome.resigned_seat))
            text = f"{resigned} · {text}"
        return text
    if result is None:
        return ""
    if result.winner_side is None:
        return label(labels, "blocked_penalty") if rs.scoring == "penalty" else label(
            labels, "nobody")
    points = result.points[result.winner_side]
    if rs.scoring == "penalty":
        if result.kind == "domino":
            return label(labels, "domino_penalty", name=_name(names, result.winner_seat or 0))
        return label(labels, "blocked_penalty")
    if result.kind == "domino":
        return label(labels, "domino", name=_name(names, result.winner_seat or 0), points=points)
    return label(labels, "blocked", name=sides[result.winner_side], points=points)


def _seats(img: Image.Image, draw: ImageDraw.ImageDraw, view: View, names: Sequence[str],
           labels: Mapping[str, str] | None, result: HandResult | None) -> None:
    seats = view.ruleset.seats
    top = HEIGHT - BOTTOM
    draw.rectangle((0, top, WIDTH, HEIGHT), fill=FELT_DARK)
    width = (WIDTH - 16 * (seats + 1)) // seats
    for seat in range(seats):
        x0 = 16 + seat * (width + 16)
        box = (x0, top + 12, x0 + width, HEIGHT - 12)
        turn = view.turn == seat and result is None
        draw.rounded_rectangle(box, 14, fill=_colour(view, seat),
                               outline=HIGHLIGHT if turn else None, width=6 if turn else 0)
        name = ("▶ " if turn else "") + _name(names, seat)
        draw.text((x0 + 14, top + 40), name, font=fit_font(name, width - 28, 32, 16),
                  fill=WHITE, anchor="lm")
        if result is not None:
            info = label(labels, "pips", count=result.pips[seat])
        else:
            count = view.hand_sizes[seat]
            info = label(labels, "one_tile") if count == 1 else label(labels, "tiles",
                                                                        count=count)
        info_font = fit_font(info, width - 28, 28, 14)
        draw.text((x0 + 14, top + 84), info, font=info_font, fill=WHITE, anchor="lm")
        if result is None:
            backs_x = x0 + 24 + int(info_font.getlength(info))
            back = tile_back(36, True)
            room = (x0 + width - 10 - backs_x) // 12
            for k in range(min(view.hand_sizes[seat], max(0, room - 1))):
                img.paste(back, (backs_x + k * 12, top + 66), back)


def _line(img: Image.Image, draw: ImageDraw.ImageDraw, view: View, s: TableScene,
          labels: Mapping[str, str] | None) -> None:
    if not s.line:
        text = label(labels, "empty")
        cx = (LINE_AREA[0] + LINE_AREA[2]) // 2
        cy = (LINE_AREA[1] + LINE_AREA[3]) // 2
        draw.text((cx, cy), text, font=font(40), fill=MUTED, anchor="mm")
        return
    layout = layout_line(s.line, s.opener_index, LINE_AREA)
    for placed in layout.tiles:
        face = tile_face(placed.first, placed.second, layout.tile,
                         placed.orientation == "vertical", placed.index == s.last_index)
        img.paste(face, placed.box[:2], face)
    for mark in layout.ends:
        x0, y0, x1, y1 = mark.box
        size = min(x1 - x0, y1 - y0)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        r = size // 2 - 1
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HIGHLIGHT)
        draw.text((cx, cy), str(mark.value), font=font(max(14, int(size * 0.72))), fill=(0, 0, 0),
                  anchor="mm")


def draw_table(view: View, names: Sequence[str], labels: Mapping[str, str] | None = None
               ) -> Image.Image:
    """The table picture as an image (RGB)."""
    if view.hand is not None:
        raise ValueError("the table picture is drawn from the public view only")
    s = scene(view)
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(img)
    _header(draw, view, names, labels, s.result)
    _line(img, draw, view, s, labels)
    _seats(img, draw, view, names, labels, s.result)
    return img


def encode(img: Image.Image) -> bytes:
    """PNG bytes, deterministic."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def render_table(view: View, names: Sequence[str], *,
                 labels: Mapping[str, str] | None = None) -> bytes:
    """The table picture (PNG) of a public view, with each seat's name."""
    return encode(draw_table(view, names, labels))
