"""The fixed choices of the ``/domino`` slash commands' options (names through the catalogue)."""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

from cogs.domino import texts
from domino import OPTION_CHOICES

#: The variants, by their short description.
VARIANT_CHOICES = [Choice(name=locale_str(v[1]), value=k) for k, v in texts.VARIANTS.items()]
#: What ``/domino rules`` explains: a variant, how a tournament or the daily deal is played.
RULES_CHOICES = [
    *VARIANT_CHOICES,
    Choice(name=locale_str("Tournaments"), value="tournament"),
    Choice(name=locale_str("The daily deal"), value="daily"),
]
#: Every target a variant offers.
TARGETS = sorted({t for c in OPTION_CHOICES.values() for t in c.get("target", ())})
TARGET_CHOICES = [Choice(name=str(t), value=t) for t in TARGETS]
#: The computer players' levels.
LEVEL_CHOICES = [
    Choice(name=locale_str("Easy"), value="easy"),
    Choice(name=locale_str("Normal"), value="normal"),
    Choice(name=locale_str("Hard"), value="hard"),
    Choice(name=locale_str("Expert"), value="expert"),
]
#: The choices of an on/off setting.
ON_OFF_CHOICES = [
    Choice(name=locale_str("on"), value="on"),
    Choice(name=locale_str("off"), value="off"),
]


def option_choices(option: str) -> list[Choice[str]]:
    """The values of a partners option (``first_hand``, ``scoring``...)."""
    return [
        Choice(name=locale_str(text), value=value)
        for (key, value), text in texts.OPTION_TEXTS.items()
        if key == option
    ]
#: The paces of a correspondence table: the time per move.
PACE_CHOICES = [
    Choice(name=locale_str("1 hour per move"), value=3600),
    Choice(name=locale_str("8 hours per move"), value=8 * 3600),
    Choice(name=locale_str("1 day per move"), value=24 * 3600),
    Choice(name=locale_str("3 days per move"), value=3 * 24 * 3600),
]
