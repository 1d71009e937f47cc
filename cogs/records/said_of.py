"""Words said of a person in public: his place in a match of more than two sides, an
achievement he earned (the catalogue's descriptions are written to him: "You won…")."""

from __future__ import annotations

from bot.i18n import N_, NC_, Key, number, tr, trc

#: A side's place among the sides of a match of three or four (the rating follows the place).
PLACES = {
    1: N_("placed 1st of {count}"),
    2: N_("placed 2nd of {count}"),
    3: N_("placed 3rd of {count}"),
    4: N_("placed 4th of {count}"),
}


def placed(locale: str | None, place: int, count: int) -> str:
    """``placed 2nd of 3``: a side's place in a match of ``count`` sides."""
    return tr(locale, PLACES.get(place, PLACES[4]), count=number(locale, count))


#: The gettext context of an achievement's description said of someone in public (the
#: catalogue's own is written to the person who earned it: "You won…").
SAID_OF = "achievement, said of someone"
ACHIEVEMENTS_SAID_OF: dict[str, Key] = {
    "first-win": NC_("achievement, said of someone", "Won a rated match."),
    "capicua": NC_("achievement, said of someone", "Dominoed with a tile that fitted either end."),
    "double-domino": NC_("achievement, said of someone", "Dominoed with a double."),
    "tranque": NC_("achievement, said of someone", "Won a blocked hand (nobody could play)."),
    "one-pip": NC_("achievement, said of someone", "Won a blocked hand by a single pip."),
    "pollona": NC_(
        "achievement, said of someone", "Won a match to its target while the others scored nothing."
    ),
    "five-hands": NC_("achievement, said of someone", "Won five hands in a row in one match."),
    "comeback": NC_(
        "achievement, said of someone", "Won a match after trailing by half its target or more."
    ),
    "fives-25": NC_(
        "achievement, said of someone", "Scored 25 points or more with one tile in All Fives."
    ),
    "beat-easy": NC_("achievement, said of someone", "Won a match against the easy computer."),
    "beat-normal": NC_("achievement, said of someone", "Won a match against the normal computer."),
    "beat-hard": NC_("achievement, said of someone", "Won a match against the hard computer."),
    "beat-expert": NC_("achievement, said of someone", "Won a match against the expert computer."),
    "streak-5": NC_("achievement, said of someone", "Won five rated matches in a row."),
    "matches-10": NC_("achievement, said of someone", "Played 10 rated matches."),
    "matches-100": NC_("achievement, said of someone", "Played 100 rated matches."),
    "all-variants": NC_("achievement, said of someone", "Played a rated match of every variant."),
    "podium": NC_(
        "achievement, said of someone", "Finished in the top three of a server's tournament."
    ),
}


def achievement_said_of(locale: str | None, code: str, description: str) -> str:
    """An achievement's description in a public line about the person who earned it (third
    person, not "you"); ``description``: its own (a code without a public wording)."""
    key = ACHIEVEMENTS_SAID_OF.get(code)
    return trc(locale, *key) if key is not None else tr(locale, description)
