"""The web pages' words in each language: a side's names joined with the language's "and"
(never "&"), a command named by its names in the reader's language."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient

from tests.web.seed import BEA, GUILD
from tests.web.test_pages import client, seeded, text

__all__ = ["client", "seeded"]

WORDS = {
    "en": (" and ", "/domino server-settings"),
    "es": (" y ", "/domino ajustes-servidor"),
    "pt-BR": (" e ", "/domino config-servidor"),
}


@pytest.mark.parametrize("lang", list(WORDS))
async def test_sides_are_joined_with_the_languages_and(client: TestClient, lang: str) -> None:
    joined, command = WORDS[lang]
    page = await text(client, f"/s/{GUILD}?lang={lang}")
    recent = page.split("<ul", 1)[-1]
    # each recent match: its variant's link, then its sides (names linked to their pages)
    teams = [re.sub(r"<[^>]+>", "", m) for m in re.findall(r"</a>: (.*?) <time", recent)]
    assert teams and any(joined in team for team in teams), teams
    assert "&amp; " not in recent.replace("&amp;amp;", "")
    home = await text(client, f"/?lang={lang}")
    assert command in home, home


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Won a rated match."), ("es", "Ganó una partida puntuable."),
     ("pt-BR", "Venceu uma partida que vale pontuação.")],
)
async def test_a_players_page_says_his_achievements_of_him(
    client: TestClient, lang: str, said: str
) -> None:
    """The page is read by anyone: his achievements in the third person ("Ganó…"), never
    written to the reader ("Ganaste…")."""
    page = await text(client, f"/s/{GUILD}/p/{BEA}?lang={lang}")
    assert "<strong>" in page and said in page, page[page.find("<ul"):][:2000]
    assert "Ganaste" not in page
