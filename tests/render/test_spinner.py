"""All Fives pictures: the spinner drawn with its four arms."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from domino import Match, Play, Tile, View, preset
from domino.spinner import open_ends
from render import render_table, table_layout
from render.layout import PlacedTile
from render.spinner import DOWN, UP, layout_cross, uses_cross
from render.table import scene, table_texts
from tests.domino.test_fives import FIVES, PILE, S0, S1
from tests.render.test_layout import _distance, _overlap


def open_cross() -> Match:
    """5-5 spinner, 5-0 right, 4-5 left, 3-5 up, 3-3 up, 5-6 down (see tests.domino)."""
    m = Match.new(FIVES, 1, {"hands": [S0, S1], "pile": PILE})
    for tile, end in (("5-5", None), ("0-5", "right"), ("4-5", "left"), ("3-5", "up"),
                      ("3-3", "up"), ("5-6", "down")):
        m = m.apply(Play(Tile.parse(tile), end))  # type: ignore[arg-type]
    return m


def check_cross(m: Match) -> None:
    """Every tile on the table placed once, inside the area, none overlapping, each arm
    continuous from the spinner, and one end square per open end with its number."""
    check_drawn_cross(m.public_view())


def check_drawn_cross(view: View) -> None:
    """:func:`check_cross` of what ``view``'s picture draws (a finished hand's line too)."""
    m = scene(view)
    layout = table_layout(view)
    tiles = {p.index: p for p in layout.tiles}
    expected = set(range(len(m.line)))
    expected |= {UP + k for k in range(len(m.arms[0]))} | {DOWN + k for k in range(len(m.arms[1]))}
    assert set(tiles) == expected and len(layout.tiles) == len(expected)
    area = layout.area
    boxes = [p.box for p in layout.tiles] + [e.box for e in layout.ends]
    for i, box in enumerate(boxes):
        assert area[0] <= box[0] < box[2] <= area[2] and area[1] <= box[1] < box[3] <= area[3]
        for other in boxes[i + 1 :]:
            assert not _overlap(box, other), f"{box} overlaps {other}"
    long, short = layout.tile, layout.tile // 2
    for p in layout.tiles:
        w, h = p.box[2] - p.box[0], p.box[3] - p.box[1]
        assert (w, h) == ((long, short) if p.orientation == "horizontal" else (short, long))
    gap = max(2, long // 20)
    spinner = tiles[m.spinner]  # type: ignore[index]
    assert spinner.orientation == "vertical" and spinner.is_double
    for base, arm in ((UP, m.arms[0]), (DOWN, m.arms[1])):
        previous: PlacedTile = spinner
        for k, (near, far) in enumerate(arm):
            placed = tiles[base + k]
            assert {placed.first, placed.second} == {near, far}
            assert _distance(previous.box, placed.box) <= gap, "an arm is continuous"
            above = placed.box[3] <= spinner.box[1]
            assert above is (base == UP)
            previous = placed
    for i in range(1, len(m.line)):
        assert _distance(tiles[i - 1].box, tiles[i].box) <= gap, "the main line is continuous"
    ends = {e.side: e.value for e in layout.ends}
    assert ends == dict(open_ends(m.line, m.spinner, m.arms))


def test_the_spinner_is_drawn_with_four_arms() -> None:
    m = open_cross()
    assert uses_cross(m.line, m.spinner)
    check_cross(m)
    layout = table_layout(m.public_view())
    up = [p for p in layout.tiles if p.index >= UP and p.index < DOWN]
    # The up arm rises a tile's length (3-5 upright), then winds to the right: the 3-3 lies
    # across that row, upright beside the 3-5's far half.
    assert [p.orientation for p in up] == ["vertical", "vertical"]
    stem, double = up
    assert double.box[0] > stem.box[2] and double.box[1] < stem.box[1] + stem.box[3] // 2
    png = render_table(m.public_view(), ["Ann", "Bob"])
    assert Image.open(io.BytesIO(png)).size == (1024, 960)


def test_the_snake_until_the_spinner_opens_up_and_down() -> None:
    m = Match.new(FIVES, 1, {"hands": [S0, S1], "pile": PILE}).apply(Play(Tile(5, 5)))
    assert not uses_cross(m.line, m.spinner)
    assert [e.side for e in table_layout(m.public_view()).ends] == ["left", "right"]
    with pytest.raises(ValueError):
        layout_cross(m.line, 0, m.arms, (0, 0, 1000, 500))


def test_the_last_tile_on_an_arm_is_the_highlighted_one() -> None:
    m = open_cross()
    assert scene(m.public_view()).last_index == DOWN  # 5-6 went down


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_all_fives_hands_lay_out(players: int) -> None:
    rs = preset("all-fives", players=players)
    crosses = 0
    for seed in range(25):
        rng = random.Random(seed)
        m = Match.new(rs, seed)
        while m.turn is not None and m.hand_number == 1:
            after = m.apply(rng.choice(m.legal_actions()))
            if after.hand_number != 1:
                break
            m = after
            if uses_cross(m.line, m.spinner):
                check_cross(m)
                crosses += 1
            else:
                table_layout(m.public_view())
    assert crosses > 50


def test_the_ends_sum_and_what_it_scores_are_on_the_picture() -> None:
    """Our decision: an All Fives player counts the open ends after every play, so the
    picture says their sum, and what it scores when it is a multiple of five."""
    m = open_cross()  # ends: 4 left, 0 right, the double 3-3 up (6), 6 down
    view = m.public_view()
    assert view.end_count == 16
    _img, marks = table_texts(view, ["Ann", "Bob"])
    stock = next(mark.text for mark in marks if mark.role == "stock")
    assert stock.split(" · ")[0] == "Ends 16"
    rng = random.Random(4)
    m = Match.new(preset("all-fives"), 4)
    scored = 0
    while m.hand_number == 1 and m.turn is not None:
        m = m.apply(rng.choice(m.legal_actions()))
        view = m.public_view()
        if view.hand_number != 1 or not view.line:
            continue
        _img, marks = table_texts(view, ["Ann", "Bob"])
        stock = next(mark.text for mark in marks if mark.role == "stock")
        total = view.end_count
        if total % 5 == 0:
            scored += 1
            assert stock.split(" · ")[0] == f"Ends {total}: +{total}"
        else:
            assert stock.split(" · ")[0] == f"Ends {total}"
    assert scored
    plain = Match.new(preset("draw"), 1)
    plain = plain.apply(plain.legal_actions()[0])
    _img, marks = table_texts(plain.public_view(), ["Ann", "Bob"])
    assert not any("Ends" in mark.text for mark in marks)
