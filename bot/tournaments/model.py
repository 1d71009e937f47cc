"""The data of a tournament as plain values: entrants, results, pairings and standings.

Pure: no Discord, no SQL, no pictures. The store keeps these as rows; the pairing, standings
and bracket modules compute from them. ``docs/tournaments.md`` explains every rule.

Conventions shared by every record:

- An **entrant** is what the standings rank: a pair (format ``pairs``: two members) or a
  person (``individual`` and ``single``: one member). Ids are the store's, positive.
- A **side** lists entrant ids: one per side in ``pairs`` and ``single``, two partners per side
  in ``individual``. ``None`` in a side is a computer seat (individual only): it scores for
  nobody's standings.
- ``sides[0]`` is the side at seat 0, which has the opening lead where the variant lets the
  table choose who opens; inside a side the ids are in seat order (seats 0, 2 / 1, 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from domino.rules import Ruleset

Format = Literal["pairs", "individual", "single"]
System = Literal["swiss", "knockout"]
Fill = Literal["computer", "bye", "mixed"]
TieBreak = Literal["match_points", "difference", "buchholz", "head_to_head", "rating"]

FORMATS: tuple[Format, ...] = ("pairs", "individual", "single")
FILLS: tuple[Fill, ...] = ("mixed", "computer", "bye")
#: The sizes of a Swiss event's knockout playoff (0: none).
PLAYOFFS = (0, 4, 8)
SYSTEMS: tuple[System, ...] = ("swiss", "knockout")
#: The standings' order. Entrants equal on all of them share a rank (listed in entry order).
TIE_BREAKS: tuple[TieBreak, ...] = (
    "match_points", "difference", "buchholz", "head_to_head", "rating",
)

#: Match points for a table won, level and lost; a full bye is worth a win, a late entrant's
#: bye half of it.
WIN, DRAW, LOSS = 2, 1, 0
BYE_POINTS = WIN
LATE_BYE_POINTS = DRAW

Side = tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered pair or person."""

    id: int
    rating: float  # at the start of the event (a pair: its members' mean)
    members: tuple[int, ...]  # user ids: two for a pair, one otherwise
    joined_round: int = 1  # the first round it could be paired in (> 1: a late entrant)
    withdrawn: bool = False  # never paired again; stays in the standings


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table of one round, as scored."""

    round: int
    sides: tuple[Side, Side]
    points: tuple[int, int]  # points (tantos) each side made
    forfeited: tuple[bool, bool] = (False, False)  # a side that did not show up
    absent: tuple[int, ...] = ()  # individual: entrants whose seat a computer played

    def entrants(self) -> tuple[int, ...]:
        """The entrants seated (computer seats left out)."""
        return tuple(e for side in self.sides for e in side if e is not None)

    def match_points(self, side: int) -> int:
        """2 / 1 / 0 for ``side`` (0 or 1): ahead, level or behind; a forfeit loses."""
        mine, theirs = self.forfeited[side], self.forfeited[1 - side]
        if mine or theirs:
            return LOSS if mine else WIN
        a, b = self.points[side], self.points[1 - side]
        return WIN if a > b else DRAW if a == b else LOSS

    def side_of(self, entrant: int) -> int:
        """0 or 1: the side ``entrant`` sat on."""
        return 0 if entrant in self.sides[0] else 1


@dataclass(frozen=True, slots=True)
class Bye:
    """A round an entrant was not paired and scored a win for (the odd one out)."""

    round: int
    entrant: int


Result = TableResult | Bye


@dataclass(frozen=True, slots=True)
class PairedTable:
    """One table of a round's pairing; ``number`` 1 is the top table."""

    number: int
    sides: tuple[Side, Side]

    def entrants(self) -> tuple[int, ...]:
        """The entrants seated (computer seats left out)."""
        return tuple(e for side in self.sides for e in side if e is not None)

    @property
    def computers(self) -> int:
        """How many seats a computer plays."""
        return sum(e is None for side in self.sides for e in side)


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round: its tables and the entrants given a bye."""

    round: int
    tables: tuple[PairedTable, ...]
    byes: tuple[int, ...] = ()

    def entrants(self) -> tuple[int, ...]:
        """Every entrant of the round, seated or given a bye."""
        return (*(e for t in self.tables for e in t.entrants()), *self.byes)


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line in the standings."""

    rank: int  # 1 = first; entrants the tie-breaks cannot separate share a rank
    entrant: int
    match_points: int
    played: int  # tables sat at (byes not counted)
    wins: int
    draws: int
    losses: int
    byes: int  # full byes and a late entrant's half-point bye
    points_for: int
    points_against: int
    buchholz: int
    rating: float
    withdrawn: bool
    #: The tie-break that put this entrant below the one ranked just above it (None: first
    #: line, or sharing that entrant's rank).
    decided_by: TieBreak | None = None
    #: Head-to-head match points against the entrants tied with it down to head-to-head.
    head_to_head: int = 0

    @property
    def difference(self) -> int:
        """Points for minus points against."""
        return self.points_for - self.points_against


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """One slot of a knockout bracket: two entrants (or a bye) and who went through.

    In an individual knockout a slot is a table of four (``sides``: two partners each, None
    a computer seat) or the people of a round given a bye (``sides``: them, and ``()``), and
    ``through`` the people who went on: the winning side's, without computers and without
    anyone whose seat a computer played."""

    round: int  # the bracket's round, 1 = first
    slot: int  # position in the round from the top, 0-based
    entrants: tuple[int | None, ...]  # None: a bye, or not known yet (individual: all seated)
    winner: int | None = None
    points: tuple[int, int] | None = None  # the table's points, when played
    sides: tuple[Side, Side] | None = None  # individual: the table's two sides
    through: tuple[int, ...] | None = None  # individual: who went through
    side_won: int | None = None  # individual: the side that won the table (0 or 1)

    @property
    def teams(self) -> tuple[Side, Side]:
        """The two sides: one entrant each, or (individual) the partners of each."""
        if self.sides is not None:
            return self.sides
        return (self.entrants[0],), (self.entrants[1],)

    @property
    def advancing(self) -> tuple[int, ...]:
        """Who went through (empty: not known yet, or nobody)."""
        if self.through is not None:
            return self.through
        return () if self.winner is None else (self.winner,)

    @property
    def winning_side(self) -> int | None:
        """0 or 1: the side that went through (None: not known yet)."""
        if self.sides is not None:
            return self.side_won
        return None if self.winner is None else self.entrants.index(self.winner)

    @property
    def decided(self) -> bool:
        """Whether the slot is over (played, or a bye or walkover)."""
        return self.winner is not None or self.side_won is not None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A single-elimination bracket: rounds of matches, the first round first.

    An individual bracket (``people``) is re-seated every round: each round's field (``fields``:
    its seats, four times a power of two) follows from the people still in, and its final is a
    table of four whose winning side's two people are the champions."""

    size: int  # a power of two: entrants (individual: seats) of the first round
    seeds: tuple[int, ...]  # entrant ids, best seed first
    rounds: tuple[tuple[KnockoutMatch, ...], ...] = field(default=())
    people: bool = False  # an individual knockout: four people a table, two go through
    fields: tuple[int, ...] = ()  # individual: the seats of each round played

    @property
    def champion(self) -> int | None:
        """The final's winner, once known (an individual final: its best seed)."""
        if self.people:
            return self.champions[0] if self.champions else None
        if not self.rounds or len(self.rounds) < int(math.log2(self.size)):
            return None
        return self.rounds[-1][0].winner

    @property
    def champions(self) -> tuple[int, ...]:
        """Who won the final: one entrant, or (individual) the winning side's people."""
        if not self.people:
            return () if self.champion is None else (self.champion,)
        if not self.complete:
            return ()
        return tuple(e for m in self.rounds[-1] for e in m.advancing)

    @property
    def complete(self) -> bool:
        """Whether the final was played (or, individual, nobody is left to play one)."""
        if not self.people:
            return self.champion is not None
        return bool(self.fields) and self.fields[-1] <= 4 and all(
            m.decided for m in self.rounds[-1]
        )

    def left(self) -> list[int]:
        """Per column of the picture (rounds played, then those to come): how many rounds
        remain from it to the final included (1: the final)."""
        if not self.people:
            total = int(math.log2(self.size))
            return [total - k for k in range(total)]
        played = [people_rounds(f) for f in self.fields] or [people_rounds(self.size)]
        return played + list(range(played[-1] - 1, 0, -1))


def people_field(people: int) -> int:
    """The seats of an individual knockout round of ``people``: the smallest four times a power
    of two that holds them."""
    seats = 4
    while seats < people:
        seats *= 2
    return seats


def people_rounds(people: int) -> int:
    """The rounds an individual knockout of ``people`` lasts: log2 of its tables, plus the
    final."""
    return int(math.log2(people_field(people) // 4)) + 1


def formats_for(rules: Ruleset) -> tuple[Format, ...]:
    """The formats a variant allows: partnership tables of four people play in pairs or
    individually; two-person tables (seven-seven included) one against one; others none."""
    if rules.people == 4 and rules.teams:
        return ("pairs", "individual")
    if rules.people == 2 and rules.sides == 2:
        return ("single",)
    return ()


def systems_for(fmt: Format) -> tuple[System, ...]:
    """The systems a format is played in: Swiss or knockout (an individual knockout re-seats
    its people every round)."""
    del fmt
    return SYSTEMS


def table_size(fmt: Format) -> int:
    """Entrants at a table: two (pairs, single) or four (individual)."""
    return 4 if fmt == "individual" else 2


def seat_fill(fill: Fill, people: int) -> tuple[int, int]:
    """(byes, computer seats) of an individual round of ``people`` (our decision): ``bye``
    gives the people beyond a multiple of four a bye; ``computer`` seats everyone and fills the
    last tables with computers; ``mixed`` leaves the fewest seats idle, byes first: one or two
    over a multiple of four sit out, three over take one computer; too few people to leave
    anyone out play with computers."""
    over = people % 4
    if fill == "bye" and people >= 4:
        return over, 0
    if fill == "mixed" and over in (1, 2) and people - over >= 4:
        return over, 0
    return 0, (-people) % 4


def default_rounds(entrants: int) -> int:
    """Swiss rounds when the host sets none: ⌈log2 entrants⌉ + 1 (at least 1)."""
    return math.ceil(math.log2(max(entrants, 2))) + 1


def late_entry_open(rounds_started: int, rounds: int) -> bool:
    """Whether someone may still register once ``rounds_started`` of ``rounds`` began: while
    at most half the rounds have begun."""
    return rounds_started <= rounds // 2
