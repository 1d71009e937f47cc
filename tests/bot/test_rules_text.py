"""The rules as the project's own document: ``docs/rules.md`` is what ``/domino rules``
shows, every decision the sources leave open is marked in every language, and the rules are
the catalogue's paragraphs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import locales
from bot.i18n import rules_text as paragraphs
from cogs import rules_text
from domino import PRESETS, STAGED

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SHOWN = Path(__file__).with_name("rules_shown.json")
LOCALES = ("en-US", "es-ES", "es-419", "pt-BR")
DECISION = {"en-US": "**Our decision", "es-ES": "**Decisión nuestra", "es-419":
            "**Decisión nuestra", "pt-BR": "**Nossa decisão"}


def test_docs_rules_md_is_what_the_bot_shows() -> None:
    """Regenerate with ``python -m cogs.rules_text > docs/rules.md``."""
    assert DOC.read_text(encoding="utf-8") == rules_text.rules_document()
    for variant in (*PRESETS, *STAGED):
        assert rules_text.variant_rules(None, variant) in rules_text.rules_document()
    assert rules_text.common_rules(None).split("\n", 1)[1] in rules_text.rules_document()


def test_every_variant_has_rules_in_three_languages_within_discords_limit() -> None:
    texts = {**paragraphs.RULES, **paragraphs.STAGED_RULES}
    assert set(texts) == set(PRESETS) | set(STAGED)
    for variant in texts:
        english = rules_text.rules_text(None, variant)
        for locale in LOCALES:
            shown = rules_text.rules_text(locale, variant)
            assert len(shown) <= 4096  # an embed description
            assert (shown == english) == (locale == "en-US"), (variant, locale)


def test_the_rules_text_is_what_it_was_before_it_moved_into_the_catalogue() -> None:
    """Every variant's rules and the common rules, in every language, word for word as they
    were written by hand before each paragraph became a catalogue entry.

    After a deliberate change of the rules text, regenerate ``rules_shown.json`` with
    ``python -m cogs.rules_text --shown > tests/bot/rules_shown.json`` (locale -> variant,
    ``(common)`` for the common rules -> text)."""
    shown = json.loads(SHOWN.read_text(encoding="utf-8"))
    assert rules_text.shown_texts() == SHOWN.read_text(encoding="utf-8")
    assert set(shown) == set(LOCALES) == set(rules_text.SHOWN_LOCALES)
    for locale, texts in shown.items():
        assert set(texts) == {"(common)", "(tournament)", *PRESETS, *STAGED}
        assert rules_text.tournament_rules(locale) == texts["(tournament)"], locale
        assert rules_text.common_rules(locale) == texts["(common)"], locale
        for variant in (*PRESETS, *STAGED):
            assert rules_text.variant_rules(locale, variant) == texts[variant], (locale, variant)
            assert rules_text.rules_text(locale, variant) == (
                texts[variant] + "\n\n" + texts["(common)"]
            )


def test_each_paragraph_is_one_catalogue_entry_in_its_variants_context() -> None:
    """A translator sees one rule at a time and which variant it belongs to; the pot holds
    every paragraph, with its option names as placeholders (not as markdown)."""
    pot = locales.pot_keys()
    texts = {**paragraphs.RULES, **paragraphs.STAGED_RULES, "common": paragraphs.COMMON}
    for variant, rules in texts.items():
        assert rules, variant
        for depth, (context, text) in rules:
            assert context == f"rules {variant}" and depth in (0, 1, 2)
            assert (context, text) in pot
            assert "`" not in text and not text.startswith(("-", " ")), text
    assert paragraphs.COMMON_TITLE in pot
    for depth, key in paragraphs.TOURNAMENT:
        assert key[0] == "rules tournament" and depth in (0, 1) and key in pot
    assert paragraphs.TOURNAMENT_TITLE in pot


@pytest.mark.parametrize("locale", LOCALES)
def test_the_tournament_rules_in_every_language_within_discords_limit(locale: str) -> None:
    # docs/tournaments.md says the same; its decisions are marked in every language.
    shown = rules_text.tournament_rules(locale)
    assert len(shown) <= 4096
    assert (shown == rules_text.tournament_rules(None)) == (locale == "en-US")
    assert shown.count(DECISION[locale]) >= 2
    assert "Buchholz" in shown and "⌈log₂" in shown
    assert shown.split("\n", 1)[1] in rules_text.rules_document() or locale != "en-US"


# Decisions where a source is silent or contradicts itself, per variant: how many at least.
DECISIONS = {
    "draw": 3,  # the opener (two wordings), the opener of later hands, the draw floor
    "spanish": 2,  # the random first opener; a tied block
    "venezuelan": 2,
    "seven-seven": 2,
    "two": 2,  # no double: the heaviest tile; a tie
    "cuban": 3,  # no double: the heaviest tile; "placed"; a tie
    "partners": 5,  # a tied block and four about the bonuses
    "all-fives": 6,
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", sorted(DECISIONS))
def test_decisions_are_marked_in_every_language(variant: str, locale: str) -> None:
    text = rules_text.variant_rules(locale, variant)
    assert text.count(DECISION[locale]) >= DECISIONS[variant]


def test_the_wording_the_sources_ask_for() -> None:
    """Seed 001: the drawn tile "must be immediately played"; seed 002: the round's second
    end ("2 tiles left in the boneyard and the player on move is not able to play") is not
    a block; the previous opener opens again only where the winner opens next."""
    draw = rules_text.variant_rules(None, "draw")
    assert "must be played at once" in draw and "may play" not in draw
    assert "draws it down to 2, then the block counts" in draw
    assert "not a block" in rules_text.variant_rules(None, "penalty")
    assert "blocked!" not in rules_text.rules_document()
    common = rules_text.common_rules(None)
    assert "Where the previous hand's winner opens the next hand" in common
    assert "hay que jugarla enseguida" in rules_text.variant_rules("es-ES", "draw")
    assert "tem que ser jogada na hora" in rules_text.variant_rules("pt-BR", "draw")
    assert "no una tranca" in rules_text.variant_rules("es-ES", "penalty")
    assert "não uma tranca" in rules_text.variant_rules("pt-BR", "penalty")


def test_the_readme_points_at_the_projects_own_rules() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "../shared" not in readme
