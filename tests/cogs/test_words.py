"""Plurals and words of the catalogue, rendered in every locale."""

from __future__ import annotations

import pytest

from bot.i18n import joined, tr, trn

LOCALES = ["en-US", "es-ES", "es-419", "pt-BR"]


@pytest.mark.parametrize(
    ("locale", "one", "four"),
    [
        ("en-US", "1 hand", "4 hands"),
        ("es-ES", "1 mano", "4 manos"),
        ("es-419", "1 mano", "4 manos"),
        ("pt-BR", "1 mão", "4 mãos"),
    ],
)
def test_a_count_of_hands_takes_its_plural_form(locale: str, one: str, four: str) -> None:
    assert trn(locale, "{count} hand", "{count} hands", 1) == one
    assert trn(locale, "{count} hand", "{count} hands", 4) == four


def test_portuguese_says_mao_for_a_hand_and_rodada_for_a_round() -> None:
    assert tr("pt-BR", "Hand {number} of {total}", number=2, total=4) == "Mão 2 de 4"
    assert tr("pt-BR", "Hand over: nobody scores.") == "Fim da mão: ninguém marca pontos."
    assert "rodada" in tr("pt-BR", "{name}: round {round}", name="X", round=2)


@pytest.mark.parametrize("locale", LOCALES)
def test_names_are_joined_with_the_languages_and(locale: str) -> None:
    word = {"en-US": "and", "es-ES": "y", "es-419": "y", "pt-BR": "e"}[locale]
    assert joined(locale, ["Ana", "Bob"]) == f"Ana {word} Bob"


@pytest.mark.parametrize(
    ("locale", "text"),
    [("en-US", "no role"), ("es-ES", "ningún rol"), ("es-419", "ningún rol"),
     ("pt-BR", "nenhum cargo")],
)
def test_no_role_agrees_with_role(locale: str, text: str) -> None:
    assert tr(locale, "no role") == text


def test_spain_says_costes_and_latin_america_costos() -> None:
    key = (
        "The expert judged each of your moves from what you could see then: your tiles, the "
        "table, the passes and draws. Costs are its estimates in points."
    )
    assert "costes" in tr("es-ES", key)
    assert "costos" in tr("es-419", key)


def test_the_blocked_achievement_has_the_games_word() -> None:
    assert tr("es-ES", "Tranque") == "Tranca"


@pytest.mark.parametrize("locale", LOCALES[1:])
def test_a_variants_name_stands_after_a_colon(locale: str) -> None:
    text = tr(locale, "{user} practises {variant} against computer players.",
              user="@Ana", variant="Por parejas (latino)")
    assert text.endswith(": Por parejas (latino).")


def test_portuguese_asks_for_another_repetition() -> None:
    text = tr("pt-BR", "You can ask for another replay in {seconds} seconds.", seconds=5)
    assert "outra repetição" in text


def test_every_achievement_has_words_said_of_someone() -> None:
    """Each achievement's public description (third person) is the same English text as its
    own, and Spanish says it of the person, not to him."""
    from bot.achievements.catalogue import ACHIEVEMENTS
    from cogs.records.said_of import ACHIEVEMENTS_SAID_OF, achievement_said_of

    assert {a.code: a.description for a in ACHIEVEMENTS} == {
        code: text for code, (_, text) in ACHIEVEMENTS_SAID_OF.items()
    }
    for a in ACHIEVEMENTS:
        for locale in ("es-ES", "es-419"):
            said = achievement_said_of(locale, a.code, a.description)
            assert not said.startswith(("Ganaste", "Dominaste", "Jugaste", "Te ")), said


@pytest.mark.parametrize(
    ("locale", "one", "five"),
    [
        ("en-US", "Ana: +1 point", "Ana: +5 points"),
        ("es-ES", "Ana: +1 punto", "Ana: +5 puntos"),
        ("es-419", "Ana: +1 punto", "Ana: +5 puntos"),
        ("pt-BR", "Ana: +1 ponto", "Ana: +5 pontos"),
    ],
)
def test_a_hands_points_take_their_plural_form(locale: str, one: str, five: str) -> None:
    assert trn(locale, "{side}: +{count} point", "{side}: +{count} points", 1, side="Ana") == one
    assert trn(locale, "{side}: +{count} point", "{side}: +{count} points", 5, side="Ana") == five
