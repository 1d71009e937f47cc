"""Rule sets: every variant of RULES.md as data, and the named presets."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cache
from typing import Any

from domino.tiles import Tile, tile_set

# Who opens a hand.
OPENERS = (
    "double-six",  # holder of 6-6 opens with it
    "highest-double",  # holder of the highest double dealt opens with it
    "heaviest",  # highest double, else heaviest tile (most pips, then higher end)
    "random",  # a random seat, any tile
    "rotate",  # the seat after the previous opener, any tile
    "winner",  # the previous hand's winner (on a tie the previous opener), any tile
    "seat-0",  # seat 0 moves first (penalty: after the start tile is laid)
)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One variant: every column of RULES.md's table."""

    id: str
    name: str
    seats: int = 4
    people: int = 4  # persons at the table (seven-seven: 2 people, each holds a team)
    teams: bool = True  # seats 0 & 2 against 1 & 3
    max_pip: int = 6
    exclude: tuple[str, ...] = ()  # tiles left out of the set (three: 0-0)
    hand_size: int = 7
    draw: bool = False  # undealt tiles form a pile to draw from; else they sleep unused
    draw_floor: int = 0  # drawing is not allowed while the pile has this many or fewer
    draw_limit: int | None = None  # most tiles drawn in one turn (penalty: 3)
    start_tile: bool = False  # penalty: a random non-double from the pile opens the line
    first_hand: str = "double-six"
    next_hand: str = "rotate"
    scoring: str = "opponents"  # opponents | all | penalty
    blocked: str = "team"  # team | individual | lowest (no teams) | penalty
    block_tie: str = "none"  # none (nobody scores) | blocker-loses (brazilian)
    close_gives_pile: bool = False  # two: closing the line ends the hand; the other takes the pile
    stuck_ends_hand: bool = False  # penalty: pile at the floor and the player to move is stuck
    domino_penalty: int = 0  # penalty: extra points for the loser of a domino
    target: int | None = 100
    hands: int | None = None  # fixed number of hands (penalty: 4)
    bonuses: bool = False  # partners: the Latin bonuses ("premios") of seed 000's comments
    spinner: bool = False  # the first double is a spinner, playable on its four sides
    end_scoring: int = 0  # after each play, ends adding up to a multiple of this score it
    round_to: int = 0  # hand points are rounded to the nearest multiple of this
    forced_moves: bool = False  # a human's only legal action is made for him after a delay

    # -- derived facts -------------------------------------------------------------
    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set in play."""
        return _tiles(self.max_pip, self.exclude)

    @property
    def sides(self) -> int:
        """How many sides score: 2 teams, or one per seat."""
        return 2 if self.teams else self.seats

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``: its team (0/1) or the seat itself."""
        return seat % 2 if self.teams else seat

    def seats_of_side(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``."""
        return tuple(s for s in range(self.seats) if self.side_of(s) == side)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        data = asdict(self)
        data["exclude"] = list(self.exclude)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Inverse of :meth:`to_dict`."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown ruleset fields: {', '.join(sorted(unknown))}")
        values = dict(data)
        values["exclude"] = tuple(values.get("exclude", ()))
        return cls(**values)


@cache
def _tiles(max_pip: int, exclude: tuple[str, ...]) -> tuple[Tile, ...]:
    return tile_set(max_pip, exclude)


TARGETS = (50, 100, 150, 200, 250, 300, 500)

PRESETS: dict[str, Ruleset] = {
    r.id: r
    for r in (
        Ruleset("partners", "Partners (Latin)", target=100),
        Ruleset(
            "spanish",
            "Spanish pairs",
            first_hand="random",
            scoring="all",
            target=150,
            forced_moves=True,
        ),
        Ruleset(
            "venezuelan", "Venezuelan", first_hand="random", target=100, forced_moves=True
        ),
        Ruleset("brazilian", "Brazilian", block_tie="blocker-loses", target=50),
        Ruleset(
            "cuban",
            "Cuban (double nine)",
            max_pip=9,
            hand_size=10,
            first_hand="highest-double",
            next_hand="winner",
            blocked="individual",
            target=100,
            forced_moves=True,
        ),
        Ruleset(
            "seven-seven",
            "7+7 (two people, two hands each)",
            people=2,
            first_hand="random",
            scoring="all",
            target=150,
            forced_moves=True,
        ),
        Ruleset(
            "three",
            "Three players",
            seats=3,
            people=3,
            teams=False,
            exclude=("0-0",),
            hand_size=9,
            blocked="lowest",
            target=100,
            forced_moves=True,
        ),
        Ruleset(
            "draw",
            "Draw game (two players)",
            seats=2,
            people=2,
            teams=False,
            draw=True,
            draw_floor=2,
            first_hand="heaviest",
            next_hand="heaviest",
            blocked="lowest",
            target=100,
        ),
        Ruleset(
            "two",
            "Domino for two",
            seats=2,
            people=2,
            teams=False,
            draw=True,
            first_hand="heaviest",
            next_hand="rotate",
            blocked="lowest",
            close_gives_pile=True,
            target=100,
            forced_moves=True,
        ),
        Ruleset(
            "penalty",
            "Penalty points (four hands)",
            seats=2,
            people=2,
            teams=False,
            draw=True,
            draw_floor=2,
            draw_limit=3,
            start_tile=True,
            first_hand="seat-0",
            next_hand="rotate",
            scoring="penalty",
            blocked="penalty",
            stuck_ends_hand=True,
            domino_penalty=5,
            target=None,
            hands=4,
        ),
        Ruleset(
            "all-fives",
            "All Fives (Muggins)",
            seats=2,
            people=2,
            teams=False,
            draw=True,
            first_hand="heaviest",
            next_hand="winner",
            blocked="individual",
            spinner=True,
            end_scoring=5,
            round_to=5,
            target=150,
        ),
    )
}

# Presets the engine plays but the bot does not offer yet; ``preset`` knows them.
STAGED: dict[str, Ruleset] = {}
KNOWN: dict[str, Ruleset] = {**PRESETS, **STAGED}

PARTNER_TARGETS = (50, 100, 150, 200)
BONUS_TARGETS = (500, 1000)  # partners: offered only with the bonuses on
FIVES_TARGETS = (100, 150, 250)
FIVES_PLAYERS = (2, 3, 4)

# Options with a list of values (``target`` everywhere but penalty).
OPTION_CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    rid: ({"target": TARGETS} if rid != "penalty" else {}) for rid in KNOWN
}
OPTION_CHOICES["partners"] = {
    "target": PARTNER_TARGETS + BONUS_TARGETS,
    "first_hand": ("double-six", "random"),
    "next_hand": ("rotate", "winner"),
    "scoring": ("opponents", "all"),
    "blocked": ("team", "individual"),
}
OPTION_CHOICES["all-fives"] = {"target": FIVES_TARGETS, "players": FIVES_PLAYERS}

# On/off options (True or False); every variant has ``forced_moves``.
FLAG_OPTIONS: dict[str, tuple[str, ...]] = {
    rid: ("bonuses", "forced_moves") if rid == "partners" else ("forced_moves",)
    for rid in KNOWN
}

# all-fives ``players``: seats, teams, tiles each and who wins a block.
_FIVES_SEATING: dict[int, dict[str, Any]] = {
    2: {"seats": 2, "people": 2, "teams": False, "hand_size": 7, "blocked": "individual"},
    3: {"seats": 3, "people": 3, "teams": False, "hand_size": 5, "blocked": "individual"},
    4: {"seats": 4, "people": 4, "teams": True, "hand_size": 5, "blocked": "team"},
}


def preset(id: str, **options: Any) -> Ruleset:
    """The preset ``id`` of RULES.md with ``options`` applied (None means the default).

    Raises ValueError naming what is allowed for an unknown id, option or value.
    """
    base = KNOWN.get(id)
    if base is None:
        raise ValueError(f"unknown variant {id!r}; choose one of: {', '.join(PRESETS)}")
    allowed = OPTION_CHOICES[id]
    flags = FLAG_OPTIONS[id]
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if value is None:
            continue
        if key in flags:
            if not isinstance(value, bool):
                raise ValueError(f"{key} for {id} must be true or false (not {value!r})")
        elif key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ValueError(f"{id} has no option {key!r}; its options are: {names}")
        elif value not in allowed[key]:
            choices = ", ".join(str(v) for v in allowed[key])
            raise ValueError(f"{key} for {id} must be one of: {choices} (not {value!r})")
        changes[key] = value
    if id == "partners" and changes.get("target") in BONUS_TARGETS and not changes.get("bonuses"):
        raise ValueError(f"targets {' and '.join(map(str, BONUS_TARGETS))} need bonuses on")
    if "players" in changes:
        changes.update(_FIVES_SEATING[changes.pop("players")])
    return replace(base, **changes) if changes else base
