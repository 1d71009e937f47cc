"""The tournament values: formats per variant, rounds, match points of a table, late entry."""

from __future__ import annotations

import pytest

from bot.tournaments.model import (
    TableResult,
    default_rounds,
    formats_for,
    late_entry_open,
)
from domino.rules import preset


@pytest.mark.parametrize("variant", ["partners", "spanish", "venezuelan", "brazilian", "cuban"])
def test_partnership_variants_play_in_pairs_or_individually(variant: str) -> None:
    # Issue's list of partnership variants: pairs register together or people alone.
    assert formats_for(preset(variant)) == ("pairs", "individual")


@pytest.mark.parametrize("variant", ["draw", "two", "penalty", "seven-seven"])
def test_two_person_variants_play_one_against_one(variant: str) -> None:
    assert formats_for(preset(variant)) == ("single",)


def test_all_fives_depends_on_its_players() -> None:
    assert formats_for(preset("all-fives", players=2)) == ("single",)
    assert formats_for(preset("all-fives", players=3)) == ()
    # Our decision: four players of All Fives sit in partnerships like the partnership variants.
    assert formats_for(preset("all-fives", players=4)) == ("pairs", "individual")
    assert formats_for(preset("three")) == ()


@pytest.mark.parametrize(("n", "rounds"), [(2, 2), (3, 3), (4, 3), (8, 4), (9, 5), (64, 7),
                                           (1000, 11)])
def test_default_rounds_are_log2_plus_one(n: int, rounds: int) -> None:
    assert default_rounds(n) == rounds


def test_match_points_two_one_zero_and_forfeits() -> None:
    won = TableResult(1, ((1,), (2,)), (100, 40))
    assert (won.match_points(0), won.match_points(1)) == (2, 0)
    level = TableResult(1, ((1,), (2,)), (60, 60))
    assert (level.match_points(0), level.match_points(1)) == (1, 1)
    forfeit = TableResult(1, ((1,), (2,)), (0, 0), forfeited=(False, True))
    assert (forfeit.match_points(0), forfeit.match_points(1)) == (2, 0)
    both = TableResult(1, ((1,), (2,)), (0, 0), forfeited=(True, True))
    assert (both.match_points(0), both.match_points(1)) == (0, 0)


def test_late_entry_until_half_the_rounds() -> None:
    assert [late_entry_open(started, 5) for started in range(6)] == [
        True, True, True, False, False, False]
    assert [late_entry_open(started, 4) for started in range(5)] == [
        True, True, True, False, False]
