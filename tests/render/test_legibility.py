"""Pictures read on a phone: type measured at 400 px, counts on every seat, double-nine
faces told apart by shape, pip colours told apart by colour-blind players."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from coloraide import Color
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from domino import PRESETS, Match, Pass, preset
from render.moves import LastMove, last_moves
from render.sprites import DIMMED, IVORY, PIP_COLOURS, PIP_LAYOUTS, tile_face
from render.table import WIDTH, seat_boxes, table_texts

PHONE = 400  # the picture's width as a phone shows it
SMALLEST = 11  # px: the least a figure a player needs may measure there
NEEDED = {"name", "score", "tiles", "stock", "hand", "end"}
NAMES = ["Ana", "Computer 2", "Carla Beatriz", "Diego"]


def _ink_height(img: Image.Image, box: tuple[int, int, int, int],
                bg: tuple[int, int, int], inset: int = 0) -> int:
    """Height of the pixels in ``box`` that differ clearly from ``bg`` (the glyphs' ink)."""
    x0, y0, x1, y1 = box
    crop = img.crop((x0 + inset, y0 + inset, x1 - inset, y1 - inset)).convert("RGB")
    w, h = crop.size
    pixels = crop.load()
    rows = [y for y in range(h)
            if any(sum(abs(a - b) for a, b in zip(pixels[x, y], bg, strict=True)) > 120
                   for x in range(w))]
    return rows[-1] - rows[0] + 1 if rows else 0


def _positions() -> Iterator[tuple[str, Match]]:
    """Every preset early, in the middle and at the end of its first hand."""
    for pid in sorted(PRESETS):
        rng = random.Random(4)
        m = Match.new(preset(pid), 4)
        history = [m]
        while m.turn is not None and m.hand_number == 1:
            m = m.apply(rng.choice(m.legal_actions()))
            history.append(m)
        yield pid, history[1]
        yield pid, history[len(history) // 2]
        yield pid, m


@pytest.mark.parametrize(("pid", "match"), list(_positions()))
def test_every_needed_figure_is_11_px_tall_at_400_px(pid: str, match: Match) -> None:
    view = match.public_view()
    img, marks = table_texts(view, NAMES[: view.ruleset.seats])
    roles = {m.role for m in marks}
    assert {"name", "score", "tiles", "hand"} <= roles
    if view.line or view.previous:
        assert "end" in roles
    scale = PHONE / WIDTH
    for mark in marks:
        if mark.role not in NEEDED:
            continue
        inset = (mark.box[2] - mark.box[0]) // 8 if mark.role == "end" else 0
        height = _ink_height(img, mark.box, mark.bg, inset) * scale
        assert height >= SMALLEST, (pid, mark, height)


@pytest.mark.parametrize("pid", sorted(PRESETS))
def test_every_seat_shows_its_tile_count_the_one_to_move_too(pid: str) -> None:
    rng = random.Random(1)
    m = Match.new(preset(pid), 1)
    for _ in range(3):
        m = m.apply(rng.choice(m.legal_actions()))
    view = m.public_view()
    assert view.turn is not None
    _img, marks = table_texts(view, NAMES[: view.ruleset.seats])
    boxes = seat_boxes(view.ruleset.seats)
    for seat, (x0, y0, x1, y1) in enumerate(boxes):
        inside = [k for k in marks if k.role == "tiles" and x0 <= k.box[0] and k.box[2] <= x1
                  and y0 <= k.box[1] and k.box[3] <= y1]
        assert len(inside) == 1, (seat, inside)
        assert str(view.hand_sizes[seat]) in inside[0].text
        names = [k for k in marks if k.role == "name" and x0 <= k.box[0] < x1
                 and y0 <= k.box[1] < y1]
        assert len(names) == 1


def test_scores_sit_in_boxes_of_their_own_apart_from_the_names() -> None:
    view = Match.new(preset("partners"), 1).public_view()
    _img, marks = table_texts(view, ["Computer 1", "Computer 2", "Computer 3", "Computer 4"])
    sides = [m for m in marks if m.role == "side"]
    scores = [m for m in marks if m.role == "score"]
    assert [m.text for m in scores] == ["0", "0"]
    for team, score in zip((sides[:2], sides[2:]), scores, strict=True):
        for side in team:  # a team's partners one a line, each ending before the score
            assert side.box[2] + 8 <= score.box[0]
            assert score.bg != side.bg


def _blobs(mask: set[tuple[int, int]]) -> int:
    """Connected groups of pixels (4-neighbourhood)."""
    seen: set[tuple[int, int]] = set()
    count = 0
    for start in mask:
        if start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in mask and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return count


def _pips(n: int, long: int) -> set[tuple[int, int]]:
    """The pip pixels on the top half of an upright tile showing ``n``, frame left out."""
    img = tile_face(n, 0, long, True, False).convert("RGB")
    side = long // 2
    inset = max(2, long // 40) + 2
    px = img.load()
    return {(x, y) for x in range(inset, side - inset) for y in range(inset, side - inset)
            if sum(abs(a - b) for a, b in zip(px[x, y], IVORY, strict=True)) > 150}


@pytest.mark.parametrize("long", [76, 96, 150])
def test_every_pip_stands_apart_so_counts_can_be_made(long: int) -> None:
    for n in range(10):
        assert _blobs(_pips(n, long)) == n, (n, long)


def test_seven_eight_and_nine_differ_in_shape() -> None:
    """Our decision: 7 is a hexagon round a centre pip, 8 a ring of eight, 9 a square;
    the pip areas of any two of them overlap less than they differ (Jaccard distance)."""
    masks = {n: _pips(n, 96) for n in (6, 7, 8, 9)}
    for a, b in itertools.combinations(masks, 2):
        if {a, b} == {6, 9}:
            continue  # the classic faces: told apart by the count of columns
        distance = 1 - len(masks[a] & masks[b]) / len(masks[a] | masks[b])
        assert distance >= 0.4, (a, b, distance)
    layouts = {n: set(PIP_LAYOUTS[n][0]) for n in (7, 8, 9)}
    assert len({frozenset(v) for v in layouts.values()}) == 3


def _srgb(rgb: tuple[int, int, int]) -> Color:
    return Color("srgb", [c / 255 for c in rgb])


def _seen(colour: Color, sight: str) -> Color:
    """``colour`` as seen with normal sight, or simulated (Machado 2009, full severity)."""
    if sight == "normal":
        return colour
    return colour.filter(sight, method="machado").convert("srgb").clip()


@pytest.mark.parametrize("sight", ["normal", "deutan", "protan"])
def test_pip_colours_stay_apart_for_colour_blind_players(sight: str) -> None:
    """Any two numbers' pip colours differ by CIEDE2000 >= 12 under the simulation."""
    colours = {n: _seen(_srgb(PIP_COLOURS[n]), sight) for n in range(1, 10)}
    worst = min((colours[a].delta_e(colours[b], method="2000"), a, b)
                for a, b in itertools.combinations(colours, 2))
    assert worst[0] >= 12, worst


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = _srgb(a).luminance(), _srgb(b).luminance()
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_pips_keep_their_contrast_on_a_dimmed_tile() -> None:
    """WCAG's 3:1 for graphics, on the ivory face and on the face of a tile not playable."""
    for n in range(1, 10):
        assert _contrast(PIP_COLOURS[n], IVORY) >= 4
        assert _contrast(PIP_COLOURS[n], DIMMED) >= 3


def _with_a_pass() -> Match:
    for seed in range(200):
        rng = random.Random(seed)
        m = Match.new(preset("partners", target=200), seed)
        while m.turn is not None and m.hand_number == 1:
            action = rng.choice(m.legal_actions())
            m = m.apply(action)
            if isinstance(action, Pass) and m.hand_number == 1:
                return m
    raise AssertionError("no pass found")


def test_a_pass_shows_on_the_seat_that_passed() -> None:
    m = _with_a_pass()
    view = m.public_view()
    seat = view.events[-1].seat
    assert seat is not None
    assert last_moves(view)[seat] == LastMove("pass")
    _img, marks = table_texts(view, NAMES)
    x0, y0, x1, y1 = seat_boxes(4)[seat]
    words = [k.text for k in marks if k.role == "last" and x0 <= k.box[0] < x1
             and y0 <= k.box[1] < y1]
    assert words == ["passed"]
    timed = last_moves(view, timed_out={seat})[seat]
    assert timed == LastMove("pass", timed_out=True)
    _img, marks = table_texts(view, NAMES, last=[None, None, None, None])
    assert not [k for k in marks if k.role == "last" and k.text == "passed"]
    _img, marks = table_texts(view, NAMES, last=last_moves(view, {seat}))
    assert [k.text for k in marks if k.role == "last" and x0 <= k.box[0] < x1
            and y0 <= k.box[1] < y1] == ["timed out"]


def test_draws_count_within_a_turn() -> None:
    for seed in range(100):
        rng = random.Random(seed)
        m = Match.new(preset("draw", target=200), seed)
        while m.turn is not None and m.hand_number == 1:
            before = m
            m = m.apply(rng.choice(m.legal_actions()))
            events = m.public_view().events
            if m.hand_number != 1 or len(events) < 3:
                continue
            a, b, c = events[-3:]
            if a.kind == b.kind == "draw" and c.kind == "play" and a.seat == b.seat == c.seat:
                assert before.public_view().turn == c.seat
                move = last_moves(m.public_view())[c.seat]
                assert move is not None and move.kind == "play" and move.drew >= 2
                assert move.tile == (c.tile.a, c.tile.b)
                return
    raise AssertionError("no turn with two draws and a play found")


def test_the_pips_of_a_dimmed_tile_keep_their_contrast_in_the_hand_picture() -> None:
    """Read from the pixels: the centre of every pip of every greyed tile against its face."""
    from render.hand import LONG, draw_hand, hand_layout

    short = LONG // 2
    checked = set()
    for seed in range(30):
        m = Match.new(preset("cuban"), seed)
        seat = m.turn
        assert seat is not None
        view = m.view(seat)
        img = draw_hand(view).convert("RGB")
        for slot in hand_layout(view):
            if not slot.dimmed:
                continue
            x0, y0, _x1, _y1 = slot.box
            face = img.getpixel((x0 + short // 2, y0 + short - 7))  # off every pip
            assert face == DIMMED
            for half, n in enumerate((slot.tile.a, slot.tile.b)):
                for fx, fy in PIP_LAYOUTS[n][0]:
                    # the upright half turned a quarter left: its top goes to the left
                    x = x0 + half * short + round(fy * short)
                    y = y0 + round(short - fx * short)
                    assert _contrast(img.getpixel((x, y)), face) >= 3, (slot.tile, n)
                checked.add(n)
    assert checked >= {7, 8, 9}


@settings(max_examples=60, deadline=None)
@given(pid=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32), moves=st.integers(0, 60))
def test_last_moves_follow_each_seats_latest_events(pid: str, seed: int, moves: int) -> None:
    """Each seat's last move is its latest event of the hand; the draws of that same turn
    (the run of its own events just before it) are counted."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    for _ in range(moves):
        if m.outcome is not None:
            break
        m = m.apply(rng.choice(m.legal_actions()))
    view = m.public_view()
    events = [e for e in view.events if e.seat is not None]
    got = last_moves(view)
    for seat in range(view.ruleset.seats):
        mine = [i for i, e in enumerate(events) if e.seat == seat]
        if not mine:
            assert got[seat] is None
            continue
        last = events[mine[-1]]
        run = mine[-1]
        while run > 0 and events[run - 1].seat == seat:
            run -= 1
        drawn = sum(1 for e in events[run : mine[-1] + 1] if e.kind == "draw")
        move = got[seat]
        assert move is not None and move.kind == last.kind and move.drew == drawn
        assert move.tile == ((last.tile.a, last.tile.b) if last.kind == "play" else None)


@pytest.mark.parametrize("pid", sorted(PRESETS))
def test_the_longest_of_many_lines_meets_the_phone_targets(pid: str) -> None:
    """The targets at 380 px (tile side >= 20 px, pip >= 4 px) on the longest line of 500
    random hands, laid out as the picture announcing its end draws it (the banner takes
    room), as ``python -m benchmarks.legibility`` measures them."""
    from benchmarks.legibility import PHONE as SHOWN
    from benchmarks.legibility import longest_hand
    from render.table import table_layout

    _tiles, m = longest_hand(pid, 500)
    layout = table_layout(m.public_view())
    scale = SHOWN / WIDTH
    numbers = {n for p in layout.tiles for n in (p.first, p.second) if n}
    assert layout.short * scale >= 20
    assert min(2 * PIP_LAYOUTS[n][1] * layout.short for n in numbers) * scale >= 4
