"""Words the records' screens share: families, results, names."""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

from bot.i18n import N_, tr
from bot.records.record import ALL, FAMILIES, SLOW_FAMILIES
from cogs.domino.texts import VARIANTS, variant_name
from cogs.names import display_name, escape_name

PICTURE = "rating.png"


FAMILY_NAMES: dict[str, str] = {
    "partnership": N_("Partnership games"),
    "two-player": N_("Two-player games"),
    "three-player": N_("Three players"),
    "fives": N_("All Fives"),
    "correspondence-partnership": N_("Partnership games (correspondence)"),
    "correspondence-two-player": N_("Two-player games (correspondence)"),
    "correspondence-three-player": N_("Three players (correspondence)"),
    "correspondence-fives": N_("All Fives (correspondence)"),
}
RESULT_MARKS = {"win": "✅", "loss": "❌", "draw": "➖"}
RESULT_NAMES = {"win": N_("Win"), "loss": N_("Loss"), "draw": N_("Drawn")}
def family_name(locale: str | None, family: str) -> str:
    """The name of a family of variants, whose players share a rating."""
    return tr(locale, FAMILY_NAMES.get(family, family))


def _variant_name(locale: str | None, bucket: str) -> str:
    """The name of a bucket: a family, 'all' or a variant (named as the dominoes cog names it)."""
    if bucket in FAMILY_NAMES:
        return tr(locale, FAMILY_NAMES[bucket])
    if bucket == ALL:
        return tr(locale, "All variants")
    return variant_name(locale, bucket)


def _variant_choices() -> list[Choice[str]]:
    choices = [Choice(name=locale_str(FAMILY_NAMES[f]), value=f) for f in FAMILIES]
    for variants in FAMILIES.values():
        for v in variants:
            name = VARIANTS[v][0] if v in VARIANTS else v
            choices.append(Choice(name=locale_str(name), value=v))
    choices += [Choice(name=locale_str(FAMILY_NAMES[f]), value=f) for f in SLOW_FAMILIES]
    return choices


def _name(locale: str | None, name: str, kind: str) -> str:
    """A player's name for an embed (a person's escaped; a computer's is ours)."""
    shown = display_name(locale, name, kind) or "?"
    return shown if kind == "computer" else escape_name(shown)
