"""Forced moves (seed 003, Ludoteka): "If a player, having only one option to place a piece,
does not do so shortly (around 3 seconds), the system automatically launches it."

The engine says which action is forced; the table layer waits and makes it.
"""

from __future__ import annotations

import pytest

from domino import PRESETS, Draw, Match, Pass, Play, Tile, forced_action, preset, tile_set
from tests.domino.helpers import tiles

# Spanish pairs, seat 0 opens with any tile. Seat 1's only 6 is 5-6 and it holds no 0.
SPANISH = [
    tiles("6-6 0-0 0-1 0-2 0-3 0-4 0-5"),
    tiles("5-6 1-1 1-2 1-3 1-4 2-2 2-3"),
    tiles("1-5 2-4 2-5 3-3 3-4 4-4 3-5"),
    tiles("0-6 1-6 2-6 3-6 4-6 4-5 5-5"),
]
# Domino for two: seat 0 holds the highest double; seat 1's only 6 is 3-6, then its only 3
# or 5 is 3-5.
TWO_HANDS = [tiles("6-6 5-6 0-4 1-4 2-2 2-4 4-4"), tiles("3-6 3-5 0-0 0-1 0-2 1-1 1-2")]
TWO_PILE = sorted(
    {str(t) for t in tile_set()} - {t for hand in TWO_HANDS for t in hand}
)


def test_on_by_default_where_ludoteka_plays() -> None:
    """Seed 003 describes the rule for all its modes: Spanish pairs, 7+7, Venezuelan, for
    two, for three and Cuban. Our decision: off elsewhere; every variant can switch it."""
    on = {rid for rid, rs in PRESETS.items() if rs.forced_moves}
    assert on == {"spanish", "venezuelan", "seven-seven", "two", "three", "cuban"}
    assert preset("partners", forced_moves=True).forced_moves
    assert not preset("spanish", forced_moves=False).forced_moves
    assert preset("all-fives", forced_moves=True).forced_moves
    with pytest.raises(ValueError, match="true or false"):
        preset("spanish", forced_moves="on")


def test_one_tile_on_one_end_is_forced() -> None:
    """ "having only one option to place a piece": 5-6 is seat 1's only tile that fits."""
    m = Match.new(preset("spanish"), 1, {"hands": SPANISH, "opener": 0})
    assert forced_action(m) is None  # the opener may lay any tile
    m = m.apply(Play(Tile(6, 6)))
    assert forced_action(m) == Play(Tile(5, 6), "right")
    assert forced_action(m.apply(forced_action(m))) is None  # seat 2: 1-5, 2-5 or 3-5


def test_a_forced_opening_tile_is_forced() -> None:
    """ "only one option to place a piece": the hand must open with the highest double."""
    m = Match.new(preset("two"), 1, {"hands": TWO_HANDS, "pile": TWO_PILE})
    assert m.turn == 0 and forced_action(m) == Play(Tile(6, 6), None)


def test_one_tile_fitting_two_different_ends_is_a_choice() -> None:
    """Our decision: one tile that fits both ends with different numbers is two options
    (the ends lead to different lines), so it is not forced."""
    m = Match.new(preset("two"), 1, {"hands": TWO_HANDS, "pile": TWO_PILE})
    m = m.apply(Play(Tile(6, 6)))
    assert forced_action(m) == Play(Tile(3, 6), "right")  # both ends show 6: one way
    m = m.apply(Play(Tile(3, 6), "right")).apply(Play(Tile(5, 6), "left"))
    assert m.ends == (5, 3) and m.legal_actions() == [
        Play(Tile(3, 5), "left"), Play(Tile(3, 5), "right")
    ]
    assert forced_action(m) is None


def test_only_draw_is_forced() -> None:
    """The only option is to take a tile from the pile."""
    m = Match.new(preset("two"), 1, {"hands": TWO_HANDS, "pile": TWO_PILE})
    for tile, end in (("6-6", None), ("3-6", "right"), ("5-6", "left"), ("3-5", "right")):
        m = m.apply(Play(Tile.parse(tile), end))  # type: ignore[arg-type]
    assert m.turn == 0 and m.ends == (5, 5)
    assert forced_action(m) == Draw()


def test_only_pass_is_forced() -> None:
    """With no tile that fits and nothing to draw, passing is the only option."""
    m = Match.new(preset("spanish"), 1, {"hands": SPANISH, "opener": 0})
    m = m.apply(Play(Tile(0, 0)))
    assert forced_action(m) == Pass()


def test_nothing_is_forced_where_the_option_is_off() -> None:
    m = Match.new(preset("partners"), 1, {"hands": SPANISH})
    assert m.legal_actions() == [Play(Tile(6, 6))]
    assert forced_action(m) is None
    m = Match.new(preset("partners", forced_moves=True), 1, {"hands": SPANISH})
    assert forced_action(m) == Play(Tile(6, 6))


def test_nothing_is_forced_when_the_match_is_over() -> None:
    m = Match.new(preset("three"), 1)
    m = m.apply(m.legal_actions()[0])
    while m.turn is not None:
        m = m.apply(m.legal_actions()[0])
    assert forced_action(m) is None
