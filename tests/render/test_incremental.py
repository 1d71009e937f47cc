"""The table picture drawn band by band, reusing what earlier pictures drew: the same bytes
as the picture drawn whole, on every move of random matches of every variant."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from domino import PRESETS, Match, preset
from render import render_table, sprites, table
from render.layout import TILE_SIZES
from render.moves import last_moves
from render.png import adler32_join
from render.sprites import (
    BANNER_FILL,
    FELT,
    FELT_DARK,
    HIGHLIGHT,
    INK,
    MUTED,
    TEAM_COLOURS,
    WHITE,
    text_sprite,
)
from render.table import draw_table, redraw

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
SPANISH = {"hand": "Mano {number}", "tiles": "{count} fichas", "played": "jugó {tile}",
           "passed": "pasó", "pile": "Pozo {count}"}


def _idat(data: bytes) -> bytes:
    """The concatenated IDAT payload of a PNG file."""
    out, at = b"", 8
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind = data[at + 4 : at + 8]
        if kind == b"IDAT":
            out += data[at + 8 : at + 8 + length]
        at += 12 + length
    return out


def check(view, names, pixels: bool = False, **options) -> None:  # type: ignore[no-untyped-def]
    """The picture made from reused bands is the picture drawn whole, byte for byte; with
    ``pixels``, its pixels are also those of the image drawn at once (another way to paint)."""
    fast = render_table(view, names, **options)
    assert fast == redraw(view, names, **options)
    if pixels:
        with Image.open(io.BytesIO(fast)) as img:
            img.load()
            assert img.convert("RGB").tobytes() == draw_table(view, names, **options).tobytes()


def test_every_move_of_matches_of_every_variant_is_the_full_redraw() -> None:
    for pid in sorted(PRESETS):
        for seed in range(2):
            rng = random.Random(seed)
            m = Match.new(preset(pid), seed)
            names = NAMES[: m.ruleset.seats]
            moves = 0
            while m.outcome is None and moves < 90:
                m = m.apply(rng.choice(m.legal_actions()))
                moves += 1
                view = m.public_view()
                check(view, names, pixels=moves % 10 == 1)
                if moves % 5 == 0:  # another language, a timed-out seat
                    check(view, names, labels=SPANISH)
                    check(view, names, last=last_moves(view, {moves % m.ruleset.seats}))


def test_the_file_is_a_valid_png_of_the_picture_drawn() -> None:
    rng = random.Random(5)
    m = Match.new(preset("draw"), 5)
    while m.outcome is None:
        m = m.apply(rng.choice(m.legal_actions()))
        if rng.random() < 0.2:
            view = m.public_view()
            data = render_table(view, NAMES[:2])
            zlib.decompress(_idat(data))  # checks the stream and its Adler-32
            with Image.open(io.BytesIO(data)) as img:
                img.load()
                assert img.convert("RGB").tobytes() == draw_table(view, NAMES[:2]).tobytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=70000), max_size=5))
def test_checksums_of_pieces_combine_into_the_whole(pieces: list[bytes]) -> None:
    joined = adler32_join((zlib.adler32(piece), len(piece)) for piece in pieces)
    assert joined == zlib.adler32(b"".join(pieces))


def test_checksums_of_long_pieces_of_one_byte_combine_into_the_whole() -> None:
    """Sums far past the modulus: a whole picture's bands of the brightest colour."""
    pieces = [b"\xff" * 32800] * 30 + [b"\x00\xfe" * 5]
    joined = adler32_join((zlib.adler32(piece), len(piece)) for piece in pieces)
    assert joined == zlib.adler32(b"".join(pieces))


def test_a_new_tables_first_picture_reuses_what_start_up_drew() -> None:
    """The bot's start-up draws what every table's first pictures share (the empty table's
    bands, the frames): a new table's first picture, under other names, reuses them, and is
    still the full redraw."""
    from render import warm_up

    table._KEPT._kept.clear()
    warm_up()
    for pid in sorted(PRESETS):
        m = Match.new(preset(pid), 99)
        names = [f"Player {pid} {seat}" for seat in range(m.ruleset.seats)]
        view = m.apply(m.legal_actions()[-1]).public_view()
        keys, _ = table._bands(table._canvas(view, names, None, None, None))
        reused = sum(band is not None for band in table._KEPT.get(keys))
        assert reused >= len(keys) // 3, (pid, reused)
        check(view, names)


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=1,
               max_size=18),
       st.sampled_from([24, 28, 34, 40, 46]),
       st.sampled_from([(WHITE, FELT_DARK), (INK, HIGHLIGHT), (WHITE, TEAM_COLOURS[1]),
                        (MUTED, FELT), (HIGHLIGHT, BANNER_FILL), (INK, WHITE)]))
def test_text_is_mapped_onto_the_palette_as_quantizing_it_would(
        text: str, size: int, colours: tuple[tuple[int, int, int], tuple[int, int, int]]) -> None:
    """Text is put on the palette from its glyphs' coverage: the same pixels as drawing it in
    colour and quantizing that."""
    fill, bg = colours
    drawn = table.sprite(("text", text, size, fill, bg)).image
    assert drawn.tobytes() == table._quantize(text_sprite(text, size, fill, bg)).tobytes()


@pytest.mark.parametrize("long", [*TILE_SIZES, 150, 57])
def test_a_tile_made_of_two_halves_is_the_tile_drawn_whole(long: int) -> None:
    """Each half of a tile face is drawn and shrunk on its own: the same pixels as drawing
    both halves' pips on one tile and shrinking it whole."""
    k = sprites._SUPER
    for highlight, face in ((False, sprites.IVORY), (True, sprites.IVORY),
                            (False, sprites.DIMMED)):
        for first, second in ((0, 9), (5, 5), (6, 1), (7, 8), (3, 2)):
            whole = sprites._blank(long, highlight, face).copy()
            draw = ImageDraw.Draw(whole)
            sprites._draw_pips(draw, first, 0, 0, long // 2 * k)
            sprites._draw_pips(draw, second, 0, long // 2 * k, long // 2 * k)
            made = sprites.tile_face(first, second, long, True, highlight, face)
            assert made.tobytes() == whole.reduce(k).tobytes()


@pytest.mark.parametrize("long", [168, 96, 57, 28])
def test_a_tile_turned_on_the_palette_is_the_turned_tile_put_on_it(long: int) -> None:
    """A tile's sprite is the upright one turned (on the palette): the same pixels as putting
    the turned tile on the palette."""
    for first, second in ((0, 9), (5, 5), (6, 1), (4, 2)):
        for vertical in (True, False):
            for highlight in (True, False):
                made = table.sprite(("tile", first, second, long, vertical, highlight)).image
                drawn = table._tile_on_felt(first, second, long, vertical, highlight)
                assert made.tobytes() == table._quantize(drawn).tobytes()
