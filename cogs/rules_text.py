"""The rules as Discord shows them (markdown) and as ``docs/rules.md``.

The words are the catalogue's (:mod:`bot.i18n.rules_text`); here they are laid out: points as
markdown lists, option names as code. ``python -m cogs.rules_text > docs/rules.md``
writes the document; a test checks it is up to date. ``python -m cogs.rules_text --shown >
tests/bot/rules_shown.json`` writes the texts a test holds them to, word for word, in every
language (after a deliberate change of the words).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import CATALOGUES
from bot.i18n import rules_text as rules
from bot.i18n.rules_text import Paragraph
from cogs.markup import code, slash_command


def markdown(paragraphs: Iterable[Paragraph]) -> str:
    """Paragraphs as lines of markdown: depth 1 a point, depth 2 a point under it."""
    marks = {0: "", 1: "- ", 2: "  - "}
    return "\n".join(marks[depth] + text for depth, text in paragraphs)


def variant_rules(locale: str | None, variant: str) -> str:
    """The rules of ``variant`` in the language of ``locale``, as markdown."""
    return markdown(rules.variant_rules(locale, variant, code))


def common_rules(locale: str | None) -> str:
    """The rules every variant shares, under a bold title."""
    title, paragraphs = rules.common_rules(locale, code)
    return f"**{title}**\n" + markdown(paragraphs)


def tournament_rules(locale: str | None) -> str:
    """What ``/domino rules tournament`` shows: how a tournament is played."""
    title, paragraphs = rules.tournament_rules(locale, code)
    return f"**{title}**\n" + markdown(paragraphs)


def daily_rules(locale: str | None) -> str:
    """What ``/domino rules daily`` shows: how the daily deal is played."""
    title, paragraphs = rules.daily_rules(
        locale, code, lambda path: slash_command(locale, path)
    )
    return f"**{title}**\n" + markdown(paragraphs)


def rules_text(locale: str | None, variant: str) -> str:
    """What ``/domino rules variant`` shows: the variant's rules, then the common ones."""
    return variant_rules(locale, variant) + "\n\n" + common_rules(locale)


def rules_document() -> str:
    """``docs/rules.md``: what ``/domino rules`` shows for every variant, in English."""
    from domino.rules import KNOWN

    lines = [
        "# The rules",
        "",
        "What `/domino rules <variant>` shows, in English (Spanish and Portuguese in Discord).",
        "Generated from `bot/i18n/rules_text.py` (the other languages are in the catalogues,",
        "`bot/locales`) with `python -m cogs.rules_text > docs/rules.md`; a test checks it is",
        "up to date. **Our decision:** marks each point where the source pages are silent or",
        "contradict each other.",
        "",
        "The source pages:",
        "",
        *(f"- {source}" for source in rules.SOURCES),
        "",
    ]
    for variant, ruleset in KNOWN.items():
        staged = " — not offered by the bot yet" if variant not in rules.RULES else ""
        lines += [f"## {ruleset.name} (`{variant}`){staged}", "", variant_rules(None, variant), ""]
    title, paragraphs = rules.common_rules(None, code)
    lines += [f"## {title}", "", markdown(paragraphs), ""]
    title, paragraphs = rules.tournament_rules(None, code)
    lines += [f"## {title}", "", markdown(paragraphs), ""]
    title, paragraphs = rules.daily_rules(None, code)
    return "\n".join(lines) + f"## {title}\n\n" + markdown(paragraphs) + "\n"


SHOWN_LOCALES = ("en-US", *CATALOGUES)  # English and every catalogue


def shown_texts() -> str:
    """Every variant's rules, the common rules (``(common)``) and the tournament's
    (``(tournament)``) in every language, as JSON:
    locale -> variant -> text."""
    import json

    from domino import PRESETS, STAGED

    shown = {
        locale: {
            "(common)": common_rules(locale),
            "(tournament)": tournament_rules(locale),
            **{variant: variant_rules(locale, variant) for variant in (*PRESETS, *STAGED)},
        }
        for locale in SHOWN_LOCALES
    }
    return json.dumps(shown, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


if __name__ == "__main__":
    import sys

    print(shown_texts() if sys.argv[1:] == ["--shown"] else rules_document(), end="")
