"""The hand picture keeps its height through a hand and a match; partners sit across."""

from __future__ import annotations

import io
import random

from PIL import Image

from domino import PRESETS, Match, preset
from render import render_hand
from render.hand import draw_hand, hand_height
from render.table import seat_boxes


def _heights(pid: str, seed: int) -> dict[tuple[int, int], set[int]]:
    """Per (hand, seat), the heights of that seat's hand picture at every state of a match."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    seen: dict[tuple[int, int], set[int]] = {}
    steps = 0
    while m.outcome is None and steps < 400:
        for seat in range(m.ruleset.seats):
            view = m.view(seat)
            seen.setdefault((m.hand_number, seat), set()).add(draw_hand(view).height)
        m = m.apply(rng.choice(m.legal_actions()))
        steps += 1
    return seen


def test_the_hand_picture_keeps_its_height_while_the_hand_empties() -> None:
    """Our decision: the hand picture keeps room for the fullest the hand has been (the deal,
    or more after draws), so the private message does not jump as tiles are laid."""
    for pid in sorted(PRESETS):
        rs = preset(pid)
        dealt = 92 + -(-rs.hand_size // 5) * 159 + 10
        for seed in range(3):
            for (hand, seat), heights in _heights(pid, seed).items():
                if not rs.draw:
                    assert heights == {dealt}, (pid, seed, hand, seat, heights)
                else:  # a draw may add a row; nothing ever takes one away within a hand
                    assert min(heights) == dealt, (pid, hand, seat, heights)


def test_a_hand_of_five_tiles_down_to_one_keeps_the_two_row_picture_of_seven() -> None:
    """The picture a player gets with 5 tiles left of 7 is as tall as the one he was dealt."""
    rng = random.Random(3)
    m = Match.new(preset("partners"), 3)
    first = m.view(0)
    assert len(first.hand or ()) == 7
    tall = Image.open(io.BytesIO(render_hand(first))).height
    while m.hand_number == 1 and m.turn is not None and len(m.view(0).hand or ()) > 1:
        m = m.apply(rng.choice(m.legal_actions()))
    later = m.view(0)
    assert len(later.hand or ()) <= 5
    assert Image.open(io.BytesIO(render_hand(later))).height == tall == hand_height(later)


def test_partners_sit_across_the_table_picture() -> None:
    """Our decision: four seats' cards go round the picture as round a real table (top left,
    top right, bottom right, bottom left), so partners (seats 1 and 3, 2 and 4) sit across:
    neither in the same column nor in the same row."""
    boxes = seat_boxes(4)
    rs = preset("partners")
    for side in range(rs.sides):
        a, b = (boxes[s] for s in rs.seats_of_side(side))
        assert a[0] != b[0] and a[1] != b[1], (side, a, b)
    # the turn (1, 2, 3, 4) goes round: right along the top, down, left along the bottom
    assert boxes[0][0] < boxes[1][0] and boxes[0][1] == boxes[1][1]
    assert boxes[1][0] == boxes[2][0] and boxes[1][1] < boxes[2][1]
    assert boxes[2][0] > boxes[3][0] and boxes[2][1] == boxes[3][1]
    assert sorted(boxes) == sorted(set(boxes))
