"""The pictures: geometry over thousands of random hands, determinism, what each shows."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from domino import PRESETS, Match, Play, preset
from render import LABELS, hand_layout, render_hand, render_table, table_layout
from render.table import HEIGHT, LINE_AREA, WIDTH, scene


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_geometry(m: Match) -> None:
    view = m.public_view()
    s = scene(view)
    layout = table_layout(view)
    boxes = [p.box for p in layout.tiles] + [e.box for e in layout.ends]
    assert sorted(p.index for p in layout.tiles) == list(range(len(s.line))), "drawn once"
    for i, box in enumerate(boxes):
        assert LINE_AREA[0] <= box[0] < box[2] <= LINE_AREA[2], "inside the canvas"
        assert LINE_AREA[1] <= box[1] < box[3] <= LINE_AREA[3], "inside the canvas"
        for other in boxes[i + 1 :]:
            assert not _overlap(box, other), "tiles overlap"
    for p in layout.tiles:
        w, h = p.box[2] - p.box[0], p.box[3] - p.box[1]
        assert {w, h} == {layout.tile, layout.tile // 2}
        a, b = s.line[p.index]
        assert {p.first, p.second} == {a, b}


@settings(max_examples=120, deadline=None)
@given(pid=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_every_position_of_random_hands_lays_out(pid: str, seed: int) -> None:
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    while m.turn is not None and m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
        check_geometry(m)


def test_thousands_of_finished_lines_fit() -> None:
    """The longest lines of every preset (finished hands) fit, tiles never cut or overlap."""
    longest = 0
    for pid in PRESETS:
        for seed in range(300):
            rng = random.Random(seed)
            m = Match.new(preset(pid), seed)
            while m.turn is not None and m.hand_number == 1:
                m = m.apply(rng.choice(m.legal_actions()))
            check_geometry(m)
            longest = max(longest, len(m.hand_results[0].line))
    assert longest >= 36  # double-nine cuban hands run long


def _mid(pid: str, seed: int = 3, moves: int = 9) -> Match:
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    for _ in range(moves):
        m = m.apply(rng.choice(m.legal_actions()))
    return m


def test_table_picture_is_a_phone_sized_png_and_deterministic() -> None:
    view = _mid("partners").public_view()
    names = ["Ana", "Bruno", "Carla", "Diego"]
    png = render_table(view, names)
    assert png == render_table(view, names)
    img = Image.open(io.BytesIO(png))
    assert img.size == (WIDTH, HEIGHT) and img.format == "PNG"
    assert len(png) < 200_000


def test_table_picture_refuses_a_seat_view() -> None:
    with pytest.raises(ValueError, match="public view"):
        render_table(_mid("partners").view(0), ["a", "b", "c", "d"])


def test_table_picture_does_not_depend_on_hidden_tiles() -> None:
    """Two matches whose public views are equal give the same picture."""
    a = _mid("venezuelan", 1, 0)
    hands = [list(map(str, h)) for h in a.hands]
    hands[1], hands[3] = hands[3], hands[1]  # swap two hidden hands: same public view
    deal = {"hands": hands, "opener": a.turn}
    b = Match.new(preset("venezuelan"), 1, deal)
    c = Match.new(preset("venezuelan"), 1, {"hands": [list(map(str, h)) for h in a.hands],
                                            "opener": a.turn})
    assert b.public_view() == c.public_view()
    names = ["A", "B", "C", "D"]
    assert render_table(b.public_view(), names) == render_table(c.public_view(), names)


def test_end_of_hand_shows_the_finished_line() -> None:
    rng = random.Random(2)
    m = Match.new(preset("partners", target=200), 2)
    while m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
    s = scene(m.public_view())
    assert s.result is m.hand_results[0]
    assert s.line == m.hand_results[0].line
    render_table(m.public_view(), ["A", "B", "C", "D"])
    m = m.apply(m.legal_actions()[0])
    assert scene(m.public_view()).result is None


def test_hand_picture_marks_exactly_the_playable_tiles() -> None:
    for pid in ("partners", "draw", "cuban", "three"):
        m = _mid(pid)
        seat = m.turn
        assert seat is not None
        view = m.view(seat)
        slots = hand_layout(view)
        playable = {a.tile for a in m.legal_actions() if isinstance(a, Play)}
        assert [s.tile for s in slots] == sorted(m.hands[seat])
        assert {s.tile for s in slots if s.playable} == playable
        assert all(s.label == str(s.tile) for s in slots)
        other = m.view((seat + 1) % m.ruleset.seats)
        assert not any(s.playable for s in hand_layout(other))
        png = render_hand(view)
        assert png == render_hand(view)
        assert Image.open(io.BytesIO(png)).width == 1024


def test_labels_translate_the_words() -> None:
    view = _mid("partners").public_view()
    names = ["A", "B", "C", "D"]
    english = render_table(view, names)
    spanish = render_table(view, names, labels={"hand": "Mano {number}", "target": "a {target}"})
    assert english != spanish
    assert all("{" not in LABELS[k] or "}" in LABELS[k] for k in LABELS)
