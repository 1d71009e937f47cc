"""A fast, mutable simulator of one hand on tile bitmasks, for the computer players.

It reproduces the engine's rules for a single hand exactly (legal actions, play, draw, pass,
blocks, penalty's draw limit and stuck end, ``two``'s closing that hands over the pile, and
the scoring of every ruleset) but mutates in place and never validates: it only ever applies
moves from :meth:`Sim.legal`. Tiles are bit indices ``a*10+b`` as in :mod:`domino.match`.

Moves are ints: a play is ``index*4 + end`` (end 0 = opening play, 1 = left, 2 = right),
:data:`DRAW` and :data:`PASS` are negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from domino.actions import Action, Draw, Pass, Play
from domino.match import BIT, NUM, TILE_OF_BIT, bits, mask_of
from domino.rules import Ruleset
from domino.scoring import score_hand
from domino.tiles import Tile

if TYPE_CHECKING:
    from domino.match import Match

DRAW = -1
PASS = -2
OPEN, LEFT, RIGHT = 0, 1, 2

PIPS: list[int] = [0] * 100
LOW: list[int] = [0] * 100
HIGH: list[int] = [0] * 100
for _i, _t in TILE_OF_BIT.items():
    PIPS[_i] = _t.pips
    LOW[_i] = _t.a
    HIGH[_i] = _t.b
# OTHER[i*10+n]: the other number of tile i from n (only meaningful when the tile shows n).
OTHER: list[int] = [-1] * 1000
for _i, _t in TILE_OF_BIT.items():
    OTHER[_i * 10 + _t.a] = _t.b
    OTHER[_i * 10 + _t.b] = _t.a
DOUBLES: int = sum(1 << (n * 11) for n in range(10))

_END_NAMES: tuple[str | None, ...] = (None, "left", "right")
_END_CODES: dict[str | None, int] = {None: OPEN, "left": LEFT, "right": RIGHT}
_DRAW_ACTION = Draw()
_PASS_ACTION = Pass()


def pips_of(mask: int) -> int:
    """Total pips of the tiles in ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def to_action(move: int) -> Action:
    """The engine action for a simulator move."""
    if move == DRAW:
        return _DRAW_ACTION
    if move == PASS:
        return _PASS_ACTION
    return Play(TILE_OF_BIT[move >> 2], _END_NAMES[move & 3])  # type: ignore[arg-type]


def to_move(action: Action) -> int:
    """The simulator move for an engine action (not Resign)."""
    if isinstance(action, Play):
        return (BIT[action.tile].bit_length() - 1) * 4 + _END_CODES[action.end]
    if isinstance(action, Draw):
        return DRAW
    if isinstance(action, Pass):
        return PASS
    raise ValueError(f"{action!r} has no simulator move")


@dataclass(frozen=True, slots=True)
class SimRules:
    """The ruleset fields one hand needs, flattened for speed."""

    seats: int
    sides: int
    side_of: tuple[int, ...]
    seats_of_side: tuple[tuple[int, ...], ...]
    all_tiles: int
    draw: bool
    floor: int
    limit: int
    close_gives_pile: bool
    stuck_ends_hand: bool
    penalty: bool
    scoring: str
    blocked: str
    blocker_loses: bool
    domino_penalty: int
    ruleset: Ruleset


@cache
def sim_rules(rs: Ruleset) -> SimRules:
    """The (cached) :class:`SimRules` of a ruleset.

    Raises ValueError for a ruleset with a spinner (All Fives): the simulator has two ends.
    """
    if rs.spinner:
        raise ValueError(f"the simulator has no spinner ({rs.id} has one)")
    return SimRules(
        seats=rs.seats,
        sides=rs.sides,
        side_of=tuple(rs.side_of(s) for s in range(rs.seats)),
        seats_of_side=tuple(rs.seats_of_side(side) for side in range(rs.sides)),
        all_tiles=mask_of(rs.tiles),
        draw=rs.draw,
        floor=rs.draw_floor,
        limit=rs.draw_limit if rs.draw_limit is not None else 1 << 30,
        close_gives_pile=rs.close_gives_pile,
        stuck_ends_hand=rs.stuck_ends_hand,
        penalty=rs.scoring == "penalty",
        scoring=rs.scoring,
        blocked=rs.blocked,
        blocker_loses=rs.block_tie == "blocker-loses",
        domino_penalty=rs.domino_penalty,
        ruleset=rs,
    )


@dataclass(frozen=True, slots=True)
class SimResult:
    """How a simulated hand ended (the engine's HandResult, minus bookkeeping)."""

    kind: str
    winner_seat: int | None
    winner_side: int | None
    points: tuple[int, ...]
    pips: tuple[int, ...]


class Sim:
    """One hand in progress, mutable. ``pile[-1]`` is the next tile drawn."""

    __slots__ = (
        "drawn",
        "forced",
        "hands",
        "lacks",
        "last",
        "left",
        "pile",
        "result",
        "right",
        "rules",
        "table",
        "turn",
    )

    rules: SimRules
    hands: list[int]
    pile: list[int]
    left: int  # -1 on an empty line
    right: int
    table: int  # tiles on the line
    turn: int  # -1 once the hand is over
    drawn: int
    last: int  # last seat to lay a tile, -1 for none
    forced: int  # bit index of the tile that must open, -1 for any
    result: SimResult | None
    lacks: list[int]  # per seat, bitmask of numbers it showed it lacks (passed or drew on)

    def __init__(
        self,
        rules: SimRules,
        hands: list[int],
        pile: list[int],
        ends: tuple[int, int] | None,
        table: int,
        turn: int,
        drawn: int = 0,
        last: int = -1,
        forced: int = -1,
        lacks: list[int] | None = None,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.pile = pile
        self.left, self.right = ends if ends is not None else (-1, -1)
        self.table = table
        self.turn = turn
        self.drawn = drawn
        self.last = last
        self.forced = forced
        self.result = None
        self.lacks = lacks if lacks is not None else [0] * rules.seats

    @classmethod
    def from_match(cls, match: Match) -> Sim:
        """The current hand of an engine Match (tests and benchmarks; players get views)."""
        forced = match.forced
        return cls(
            sim_rules(match.ruleset),
            [mask_of(h) for h in match.hands],
            [BIT[t].bit_length() - 1 for t in reversed(match.pile)],
            match.ends,
            mask_of(Tile(a, b) for a, b in match.line),
            match.turn if match.turn is not None else -1,
            match.drawn,
            match.last_player if match.last_player is not None else -1,
            BIT[forced].bit_length() - 1 if forced is not None else -1,
        )

    def copy(self) -> Sim:
        """An independent copy."""
        s = object.__new__(Sim)
        s.rules = self.rules
        s.hands = self.hands[:]
        s.pile = self.pile[:]
        s.left = self.left
        s.right = self.right
        s.table = self.table
        s.turn = self.turn
        s.drawn = self.drawn
        s.last = self.last
        s.forced = self.forced
        s.result = self.result
        s.lacks = self.lacks[:]
        return s

    # -- reading -------------------------------------------------------------------------
    def can_draw(self) -> bool:
        """Whether the seat to act may draw (rules permitting; plays are not checked)."""
        r = self.rules
        return r.draw and len(self.pile) > r.floor and self.drawn < r.limit

    def plays(self) -> list[int]:
        """The play moves of the seat to act, in the engine's order."""
        hand = self.hands[self.turn]
        left = self.left
        if left < 0:
            if self.forced >= 0:
                return [self.forced * 4]
            return [i * 4 for i in bits(hand)]
        right = self.right
        if left == right:
            return [i * 4 + RIGHT for i in bits(hand & NUM[left])]
        nl = NUM[left]
        nr = NUM[right]
        out = []
        m = hand & (nl | nr)
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if low & nl:
                out.append(i * 4 + LEFT)
            if low & nr:
                out.append(i * 4 + RIGHT)
        return out

    def legal(self) -> list[int]:
        """Every legal move of the seat to act (empty once the hand is over)."""
        if self.turn < 0:
            return []
        out = self.plays()
        if out:
            return out
        return [DRAW] if self.can_draw() else [PASS]

    # -- acting ----------------------------------------------------------------------------
    def apply(self, move: int) -> None:
        """Apply a legal move of the seat to act."""
        seat = self.turn
        if move >= 0:
            i = move >> 2
            bit = 1 << i
            hand = self.hands[seat] ^ bit
            self.hands[seat] = hand
            self.table |= bit
            end = move & 3
            if end == LEFT:
                self.left = OTHER[i * 10 + self.left]
            elif end == RIGHT:
                self.right = OTHER[i * 10 + self.right]
            else:
                self.left = LOW[i]
                self.right = HIGH[i]
            self.forced = -1
            self.drawn = 0
            self.last = seat
            if not hand:
                self._end("domino", seat)
            elif self.rules.close_gives_pile and not (
                self.rules.all_tiles & ~self.table & (NUM[self.left] | NUM[self.right])
            ):
                self._end("block", -1)
            else:
                self._advance((seat + 1) % self.rules.seats)
        elif move == DRAW:
            if self.left >= 0:
                self.lacks[seat] |= (1 << self.left) | (1 << self.right)
            self.hands[seat] |= 1 << self.pile.pop()
            self.drawn += 1
            self._after_step(seat)
        else:
            if self.left >= 0:
                self.lacks[seat] |= (1 << self.left) | (1 << self.right)
            self._advance((seat + 1) % self.rules.seats)

    def _advance(self, seat: int) -> None:
        self.turn = seat
        self.drawn = 0
        self._after_step(seat)

    def _after_step(self, seat: int) -> None:
        r = self.rules
        if r.draw and len(self.pile) > r.floor:
            return
        left = self.left
        if left < 0:
            return
        ends = NUM[left] | NUM[self.right]
        for h in self.hands:
            if h & ends:
                break
        else:
            self._end("block", -1)
            return
        if r.stuck_ends_hand and not self.hands[seat] & ends:
            self._end("block", -1)

    def _end(self, kind: str, domino_seat: int) -> None:
        r = self.rules
        blocker = self.last
        hands = self.hands
        if kind == "block" and r.close_gives_pile and self.pile:
            taker = ((blocker if blocker >= 0 else max(self.turn, 0)) + 1) % r.seats
            for i in self.pile:
                hands[taker] |= 1 << i
            self.pile = []
        self.turn = -1
        pips = tuple(pips_of(h) for h in hands)
        winner_seat, winner_side, points = score_hand(
            r.ruleset, kind, pips, domino_seat if domino_seat >= 0 else None,
            blocker if blocker >= 0 else None, r.side_of, r.seats_of_side,
        )
        self.result = SimResult(kind, winner_seat, winner_side, points, pips)
