"""The picture's header on a phone: each side's name whole, a team's two partners one a line."""

from __future__ import annotations

import pytest

from domino import Match, preset
from render.table import SIDE_TEXT, TOP, WIDTH, table_texts
from tests.render.test_legibility import _ink_height

PHONE = 380


@pytest.mark.parametrize("pid", ["partners", "cuban", "venezuelan"])
def test_a_teams_partners_are_both_named_whole_one_a_line(pid: str) -> None:
    names = ["Alexandra Smith", "Computer 2", "Bartholomew Jones", "Computer 4"]
    view = Match.new(preset(pid), 3).public_view()
    img, marks = table_texts(view, names)
    sides = [m for m in marks if m.role == "side"]
    assert [m.text for m in sides] == ["Alexandra Smith", "Bartholomew Jones", "Computer 2",
                                       "Computer 4"]
    scores = [m for m in marks if m.role == "score"]
    hand = next(m for m in marks if m.role == "hand")
    for team, score in zip((sides[:2], sides[2:]), scores, strict=True):
        first, second = team
        assert first.box[3] <= second.box[1] + 2  # one under the other
        assert first.box[0] == second.box[0]
        for mark in team:
            assert mark.box[2] + 8 <= score.box[0]  # never into the score
            assert mark.box[3] <= hand.box[1] + 2 and mark.box[1] >= 0
            # Type no smaller than the header's floor: capitals 8 px tall on a 380-px phone.
            assert _ink_height(img, mark.box, mark.bg) * PHONE / WIDTH >= 8, mark
    assert hand.box[3] <= TOP


def test_long_partner_names_shrink_no_further_than_the_floor_then_are_cut() -> None:
    names = ["Maximiliano Fernández", "B", "Guadalupe Hernández López", "D"]
    view = Match.new(preset("partners"), 3).public_view()
    _img, marks = table_texts(view, names)
    sides = [m for m in marks if m.role == "side"]
    assert sides[0].text == "Maximiliano Fernández"  # 21 characters: whole
    assert sides[1].text.endswith("…") and sides[1].text.startswith("Guadalupe Hernández")
    scores = [m for m in marks if m.role == "score"]
    assert sides[1].box[2] + 8 <= scores[0].box[0]
    assert min(m.box[3] - m.box[1] for m in sides) >= 33  # a 28-px line at the least
    assert SIDE_TEXT == 28


def test_a_side_of_one_keeps_its_one_line_chip() -> None:
    view = Match.new(preset("two"), 3).public_view()
    _img, marks = table_texts(view, ["Alexandra Smith", "Computer 2"])
    assert [m.text for m in marks if m.role == "side"] == ["Alexandra Smith", "Computer 2"]


def test_names_are_drawn_as_written_markup_and_all() -> None:
    """The picture draws the raw name (Discord text is where names are escaped); spaces are
    made single."""
    view = Match.new(preset("partners"), 3).public_view()
    _img, marks = table_texts(view, ["**Ana**", "B", "Carla  _x_", "D"])
    assert [m.text for m in marks if m.role == "side"][:2] == ["**Ana**", "Carla _x_"]
