"""The tournament pictures in the reader's language, from real standings and brackets."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.tournaments.bracket import bracket
from bot.tournaments.model import Entrant, Result, TableResult
from bot.tournaments.pairing import pair_swiss
from bot.tournaments.pictures import bracket_png, standings_png, tie_break_note
from bot.tournaments.standings import standings


def event(n: int) -> tuple[list[Entrant], list[Result]]:
    rng = random.Random(4)
    ents = [Entrant(i, 1500.0 + rng.randint(-50, 50), (i,)) for i in range(1, n + 1)]
    results: list[Result] = []
    for r in range(1, 4):
        pairing = pair_swiss("single", ents, results, r, 1)
        assert pairing is not None
        results += [TableResult(r, t.sides, (rng.randint(0, 9), rng.randint(0, 9)))
                    for t in pairing.tables]
    return ents, results


def test_standings_picture_of_a_big_event_in_spanish() -> None:
    ents, results = event(60)
    lines = standings("single", ents, results)
    names = {e.id: f"Jugador {e.id}" for e in ents}
    png = standings_png("es-ES", "Clasificación", lines, names, final=True)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.height > 1000
    notes = {tie_break_note("es-ES", line) for line in lines}
    assert "" in notes and len(notes) > 1
    assert all("tie-break" not in n for n in notes)  # translated


def test_bracket_picture_names_a_bye() -> None:
    ents = [Entrant(i, 2000.0 - i, (i,)) for i in range(1, 6)]
    b = bracket("single", ents, [TableResult(1, ((4,), (5,)), (10, 30))])
    png = bracket_png("pt-BR", "Copa", b, {e.id: f"P{e.id}" for e in ents})
    assert Image.open(io.BytesIO(png)).format == "PNG"
