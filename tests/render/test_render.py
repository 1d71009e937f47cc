"""The pictures: geometry over thousands of random hands, determinism, what each shows."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from domino import OPTION_CHOICES, PRESETS, Match, Play, preset
from render import LABELS, hand_layout, render_hand, render_table, table_layout
from render.spinner import uses_cross
from render.sprites import HIGHLIGHT, IVORY
from render.table import (
    BANNER,
    HEIGHT,
    LINE_AREA_UNDER_BANNER,
    WIDTH,
    banner_box,
    draw_table,
    line_box,
    scene,
)
from tests.render.test_layout import _overlap, check_layout
from tests.render.test_spinner import check_drawn_cross


def check_geometry(m: Match) -> None:
    """The line the table picture shows: laid out whole, inside the picture, no overlap,
    and clear of the banner when there is one."""
    view = m.public_view()
    s = scene(view)
    layout = table_layout(view)
    if uses_cross(s.line, s.spinner):
        check_drawn_cross(view)  # All Fives: the spinner with its arms
    else:
        check_layout(list(s.line), layout)
    banner = banner_box(view)
    assert layout.area == line_box(view.ruleset.seats, banner is not None)
    if banner is not None:
        assert not _overlap(banner, layout.area)
    for end in layout.ends:  # its digits 11 px tall at 400 px (see test_legibility)
        assert min(end.box[2] - end.box[0], end.box[3] - end.box[1]) >= 38, end
    assert layout.area[0] >= 0 and layout.area[2] <= WIDTH
    assert layout.area[1] >= 0 and layout.area[3] <= HEIGHT


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


def _near(colour: tuple[int, ...], ref: tuple[int, int, int], tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, ref, strict=False))


def _playing(pid: str, seed: int, tiles: int = 6) -> Match:
    """A first hand of ``pid`` with at least ``tiles`` tiles down (or as far as it goes)."""
    rng = random.Random(seed)
    targets = [t for t in OPTION_CHOICES[pid].get("target", ()) if t <= 250]
    m = Match.new(preset(pid, target=max(targets)) if targets else preset(pid), seed)
    while len(m.line) < tiles:
        nxt = m.apply(rng.choice(m.legal_actions()))
        if nxt.hand_number != 1 or nxt.turn is None:
            break
        m = nxt
    return m


def test_the_picture_shows_each_tile_the_last_one_gold_and_both_ends() -> None:
    """Read back from the pixels: every tile's face, a gold frame on the last tile only,
    a gold badge at each open end."""
    for pid in sorted(PRESETS):
        for seed in range(3):
            view = _playing(pid, seed).public_view()
            img = draw_table(view, ["A", "B", "C", "D"][: view.ruleset.seats])
            layout = table_layout(view)
            half = layout.tile // 2
            for p in layout.tiles:
                x0, y0, x1, y1 = p.box
                frame = img.getpixel((x0 + 1, (y0 + y1) // 2))
                assert _near(frame, HIGHLIGHT) == (p.index == view.last_index), (pid, p)
                face = img.getpixel((x0 + int(0.37 * half), y0 + int(0.37 * half)))
                assert _near(face, IVORY, 8), (pid, p, face)
            for end in layout.ends:
                x0, y0, x1, y1 = end.box
                assert _near(img.getpixel((x0 + (x1 - x0) // 6, (y0 + y1) // 2)), HIGHLIGHT)


def test_a_banner_tells_how_the_hand_ended_and_never_covers_the_line() -> None:
    names = ["Ana", "Bruno", "Carla", "Diego"]
    m = _playing("partners", 5, tiles=99)
    m = m.apply(m.legal_actions()[0])  # the hand's last move
    while m.hand_number == 1:
        m = m.apply(m.legal_actions()[0])
    view = m.public_view()
    assert banner_box(view) == BANNER
    img = draw_table(view, names)
    x0, y0, _x1, y1 = BANNER
    assert _near(img.getpixel((x0 + 1, (y0 + y1) // 2)), HIGHLIGHT)  # its gold border
    assert table_layout(view).area == LINE_AREA_UNDER_BANNER
    playing = _playing("partners", 5).public_view()
    assert banner_box(playing) is None
    assert not _near(draw_table(playing, names).getpixel((x0 + 1, (y0 + y1) // 2)), HIGHLIGHT)


def test_the_table_picture_reads_nothing_private() -> None:
    """Drawn through a spy: no seat, legal move or own-hand question is ever asked."""

    class Spy:
        def __init__(self, view: object) -> None:
            self._view = view
            self.read: set[str] = set()

        def __getattr__(self, name: str) -> object:
            self.read.add(name)
            return getattr(self._view, name)

    for pid in sorted(PRESETS):
        spy = Spy(_playing(pid, 1).public_view())
        draw_table(spy, ["A", "B", "C", "D"])  # type: ignore[arg-type]
        assert not spy.read & {"seat", "legal", "playable_tiles", "drawn_this_turn"}, spy.read


def test_hand_picture_pixels_mark_the_playable_tiles() -> None:
    from render.hand import CELL_H, HEADER, PLAYABLE, draw_hand

    for pid in sorted(PRESETS):
        m = _playing(pid, 2)
        assert m.turn is not None
        for seat in range(m.ruleset.seats):
            view = m.view(seat)
            img = draw_hand(view)
            slots = hand_layout(view)
            rows = max(1, -(-max(len(slots), view.ruleset.hand_size) // 5))
            assert img.size == (1024, HEADER + rows * CELL_H + 10)
            for slot in slots:
                x0, y0, _x1, y1 = slot.box
                ring = img.getpixel((x0 - 3, (y0 + y1) // 2))
                assert _near(ring, PLAYABLE) == slot.playable
                face = img.getpixel((x0 + 37, y0 + 68))  # off every pip layout
                assert _near(face, IVORY, 8) == (not slot.dimmed)
                assert slot.dimmed == (seat == m.turn and not slot.playable)


def test_the_last_tile_is_outlined_on_the_picture_of_a_hand_that_just_ended() -> None:
    """Our decision: every picture outlines the last tile laid, the hand's end too (its
    final line, before the next hand's first move), read back from the pixels."""
    for pid in sorted(PRESETS):
        rng = random.Random(7)
        m = Match.new(preset(pid), 7)
        last: tuple[int, int] | None = None
        while m.hand_number == 1 and m.turn is not None:
            action = rng.choice(m.legal_actions())
            if isinstance(action, Play):
                last = (action.tile.a, action.tile.b)
            m = m.apply(action)
        view = m.public_view()
        assert scene(view).result is not None and last is not None
        outlined = [p for p in table_layout(view).tiles if p.index == scene(view).last_index]
        assert len(outlined) == 1 and {outlined[0].first, outlined[0].second} == set(last), pid
        img = draw_table(view, ["A", "B", "C", "D"][: view.ruleset.seats])
        for p in table_layout(view).tiles:
            x0, y0, _x1, y1 = p.box
            assert _near(img.getpixel((x0 + 1, (y0 + y1) // 2)), HIGHLIGHT) == (p == outlined[0])
