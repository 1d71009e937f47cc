"""Names and options shown to players, in their language."""

from __future__ import annotations

from bot.store import SeatRow
from cogs.domino import texts


def test_computer_players_are_named_in_the_readers_language() -> None:
    row = SeatRow(1, 1, None, "Computer 2", "computer", "hard")
    assert texts.display_name(None, row) == "Computer 2"
    assert texts.display_name("es-ES", row) == "Máquina 2"
    assert texts.display_name("es-419", row) == "Computadora 2"
    assert texts.display_name("pt-BR", row) == "Computador 2"
    person = SeatRow(1, 0, 42, "Computer 2", "human", None)
    assert texts.display_name("es-ES", person) == "Computer 2"  # a person's own name stays


def test_every_partners_option_has_a_readable_text() -> None:
    from domino import OPTION_CHOICES

    for option, values in OPTION_CHOICES["partners"].items():
        if option == "target":
            continue
        for value in values:
            assert (option, value) in texts.OPTION_TEXTS
