"""Names and options shown to players, in their language."""

from __future__ import annotations

from bot.store import SeatRow
from cogs.domino import texts
from cogs.names import display_name


def test_computer_players_are_named_in_the_readers_language() -> None:
    row = SeatRow(1, 1, None, "Computer 2", "computer", "hard")
    assert texts.picture_name(None, row) == "Computer 2"
    assert texts.picture_name("es-ES", row) == "Máquina 2"
    assert texts.picture_name("es-419", row) == "Computadora 2"
    assert texts.picture_name("pt-BR", row) == "Computador 2"
    person = SeatRow(1, 0, 42, "Computer 2", "human", None)
    assert texts.picture_name("es-ES", person) == "Computer 2"  # a person's own name stays
    # A seat a computer took over after time-outs keeps its person's name.
    taken = SeatRow(1, 3, 43, "Ana", "computer", "normal")
    assert texts.picture_name("pt-BR", taken) == "Ana"


def test_one_display_name_for_seats_and_records() -> None:
    assert display_name(None, "Computer 3", "computer", seat=2) == "Computer 3"
    assert display_name("es-ES", "", "computer", seat=0) == "Máquina 1"
    assert display_name(None, "computer:hard", "computer") == "Computer (hard)"
    assert display_name("pt-BR", "computer:expert", "computer").startswith("Computador")
    assert display_name(None, "", "human") == "a former player"
    assert display_name(None, "[Ana](x)", "human") == "[Ana](x)"  # raw: escaped where shown


def test_every_partners_option_has_a_readable_text() -> None:
    from domino import OPTION_CHOICES

    for option, values in OPTION_CHOICES["partners"].items():
        if option == "target":
            continue
        for value in values:
            assert (option, value) in texts.OPTION_TEXTS


def test_a_place_of_a_table_across_servers_mentions_only_its_own_people() -> None:
    """Our decision (docs/architecture.md, a table's places): a place's messages mention the
    people who play from its server and name the others, escaped, by their global names."""
    import dataclasses

    from bot.store import TableRow
    from bot.tables.service import TableInfo
    from domino import preset

    row = TableRow(1, 1, 1, 1, 1, "two", {}, "running", 60, None, None, None, 0.0, 0.0)
    seats = (SeatRow(1, 0, 11, "Ana", "human"), SeatRow(1, 1, 22, "*Bo*", "human"))
    everywhere = TableInfo(row, preset("two"), seats, 0, None)
    here = dataclasses.replace(everywhere, mentionable=frozenset({11}))
    assert texts.mention(everywhere, 22) == "<@22>"
    assert texts.mention(here, 11) == "<@11>"
    assert texts.mention(here, 22) == "\\*Bo\\*"
    said = "<@22> ran out of time: a computer plays for them. <@!22>, <@11>"
    assert texts.unmention(everywhere, said) == said
    assert texts.unmention(here, said) == (
        "\\*Bo\\* ran out of time: a computer plays for them. \\*Bo\\*, <@11>"
    )
