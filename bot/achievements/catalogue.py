"""The achievements: their codes, names and descriptions (catalogue message ids), in the order
they are shown, and the look of their badges (a colour and a short mark)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_
from bot.records.record import FAMILIES
from render.badges import BadgeLook

__all__ = [
    "ACHIEVEMENTS",
    "BY_CODE",
    "CODES",
    "LEVELS_BEATEN",
    "LOOKS",
    "PODIUM",
    "VARIANTS",
    "Achievement",
]

#: The computer levels people can choose, each beaten once for an achievement.
LEVELS_BEATEN = ("easy", "normal", "hard", "expert")
#: Every variant a player must have played for "all variants".
VARIANTS: tuple[str, ...] = tuple(v for vs in FAMILIES.values() for v in vs)


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: its stored ``code``, its ``name`` and ``description`` (message ids),
    and its badge: ``colour`` (RGB) and ``mark`` (a few characters, or a picture's name)."""

    code: str
    name: str
    description: str
    colour: tuple[int, int, int]
    mark: str


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement(
        "first-win", N_("First win"), N_("Won a rated match."), (87, 242, 135), "1"
    ),
    Achievement(
        "capicua",
        N_("Capicúa"),
        N_("Dominoed with a tile that fitted either end."),
        (255, 176, 59),
        "tile:capicua",
    ),
    Achievement(
        "double-domino",
        N_("Domino with a double"),
        N_("Dominoed with a double."),
        (88, 166, 255),
        "tile:double",
    ),
    Achievement(
        "tranque",
        N_("Tranque"),
        N_("Won a blocked hand (nobody could play)."),
        (237, 66, 69),
        "tile:block",
    ),
    Achievement(
        "one-pip",
        N_("By one pip"),
        N_("Won a blocked hand by a single pip."),
        (200, 130, 255),
        "±1",
    ),
    Achievement(
        "pollona",
        N_("Shut-out"),
        N_("Won a match to its target while the others scored nothing."),
        (255, 215, 0),
        "0",
    ),
    Achievement(
        "five-hands",
        N_("Five in a row"),
        N_("Won five hands in a row in one match."),
        (87, 242, 135),
        "5×",
    ),
    Achievement(
        "comeback",
        N_("Comeback"),
        N_("Won a match after trailing by half its target or more."),
        (255, 120, 80),
        "↺",
    ),
    Achievement(
        "fives-25",
        N_("Twenty-five at the ends"),
        N_("Scored 25 points or more with one tile in All Fives."),
        (255, 176, 59),
        "25",
    ),
    Achievement(
        "beat-easy",
        N_("Beat the easy computer"),
        N_("Won a match against the easy computer."),
        (120, 200, 120),
        "E",
    ),
    Achievement(
        "beat-normal",
        N_("Beat the normal computer"),
        N_("Won a match against the normal computer."),
        (88, 166, 255),
        "N",
    ),
    Achievement(
        "beat-hard",
        N_("Beat the hard computer"),
        N_("Won a match against the hard computer."),
        (200, 130, 255),
        "H",
    ),
    Achievement(
        "beat-expert",
        N_("Beat the expert computer"),
        N_("Won a match against the expert computer."),
        (237, 66, 69),
        "X",
    ),
    Achievement(
        "streak-5",
        N_("Hot streak"),
        N_("Won five rated matches in a row."),
        (255, 120, 80),
        "5",
    ),
    Achievement(
        "matches-10", N_("Regular"), N_("Played 10 rated matches."), (150, 160, 175), "10"
    ),
    Achievement(
        "matches-100", N_("Veteran"), N_("Played 100 rated matches."), (255, 215, 0), "100"
    ),
    Achievement(
        "all-variants",
        N_("Every variant"),
        N_("Played a rated match of every variant."),
        (87, 200, 220),
        "11",
    ),
    Achievement(
        "podium",
        N_("Tournament podium"),
        N_("Finished in the top three of a server's tournament."),
        (205, 127, 50),
        "123",
    ),
)

#: Earned at a tournament's end (its stored final places), not by a match: the row's
#: ``table_id`` is the event's id made negative, which no match has.
PODIUM = "podium"
BY_CODE: dict[str, Achievement] = {a.code: a for a in ACHIEVEMENTS}
CODES: tuple[str, ...] = tuple(a.code for a in ACHIEVEMENTS)
#: Every badge's look, in the catalogue's order (what render.badges draws).
LOOKS: tuple[BadgeLook, ...] = tuple(BadgeLook(a.code, a.colour, a.mark) for a in ACHIEVEMENTS)
