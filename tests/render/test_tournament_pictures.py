"""The tournament pictures: standings lines (capped, podium colours) and brackets."""

from __future__ import annotations

import io

from PIL import Image

from render.tournament import (
    GOLD,
    MAX_ROWS,
    ROW,
    WON,
    BracketMatch,
    StandingRow,
    bracket_picture,
    standings_picture,
)


def image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def has_colour(img: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(c == colour for _, c in img.getcolors(maxcolors=1 << 20) or ())


def rows(n: int, place: int = 0) -> list[StandingRow]:
    return [StandingRow(str(i), f"Entrant {i}", ("4", "2-0-1", "+35", "9"), "tie-break: rating",
                        place=place if i == 1 else 0) for i in range(1, n + 1)]


def test_one_line_per_entrant_up_to_the_cap() -> None:
    headers = ["Pts", "W-D-L", "+/-", "Buch."]
    three = image(standings_picture("After round 2", headers, rows(3)))
    five = image(standings_picture("After round 2", headers, rows(5)))
    assert five.height - three.height == 2 * ROW
    capped = image(standings_picture("x", headers, rows(MAX_ROWS + 30), more="… and 30 more"))
    full = image(standings_picture("x", headers, rows(MAX_ROWS), more="… and 30 more"))
    assert capped.size == full.size


def test_the_podium_in_medal_colours_only_when_asked() -> None:
    headers = ["Pts"]
    assert has_colour(image(standings_picture("Final", headers, rows(4, place=1))), GOLD)
    assert not has_colour(image(standings_picture("Round 1", headers, rows(4))), GOLD)


def test_long_and_unusual_names_fit() -> None:
    name = "Ñandú " * 30 + "🁣"
    img = image(standings_picture("t", ["Pts"], [StandingRow("1", name, ("2",))]))
    assert img.width < 1000


def test_bracket_columns_and_winners() -> None:
    first = [BracketMatch(("Ana", "bye"), winner=0), BracketMatch(("Bea", "Cris"), ("90", "40"), 0)]
    final = [BracketMatch(("Ana", "Bea"))]
    open_final = image(bracket_picture("Cup", ["Semi-finals", "Final"], [first, final]))
    assert has_colour(open_final, WON)
    undecided = image(bracket_picture("Cup", ["Semi-finals", "Final"],
                                      [[BracketMatch(("Ana", "Bea"))] * 2]))
    assert not has_colour(undecided, WON)
    assert undecided.size == open_final.size
    quarter = image(bracket_picture("Cup", ["Q", "S", "F"], [first * 2]))
    assert quarter.width > open_final.width and quarter.height > open_final.height
