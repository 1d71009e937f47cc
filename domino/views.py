"""What a seat, or a spectator, may see; hand results and match outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from domino.actions import Action, Play
from domino.rules import Ruleset
from domino.tiles import Tile

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Event:
    """A public event of the current hand.

    ``kind`` is "start" (penalty's start tile, seat None), "play", "draw" or "pass".
    ``tile`` is None for draws (nobody sees the drawn tile). ``ends_before`` are the
    open ends when it happened (None on an empty line).
    """

    seat: int | None
    kind: Literal["start", "play", "draw", "pass"]
    tile: Tile | None = None
    end: str | None = None
    ends_before: Pair | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended."""

    hand_number: int
    kind: Literal["domino", "block"]
    winner_seat: int | None  # who dominoed, or the winning side's lowest-pip player
    winner_side: int | None  # None: nobody scores (a tie)
    points: tuple[int, ...]  # added to each side's score
    pips: tuple[int, ...]  # pips left per seat when the hand ended
    opener: int  # the seat that moved first
    last_player: int | None  # who laid the last tile (the blocker after a block)
    line: tuple[Pair, ...] = ()  # the final line of play
    opener_index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "hand_number": self.hand_number,
            "kind": self.kind,
            "winner_seat": self.winner_seat,
            "winner_side": self.winner_side,
            "points": list(self.points),
            "pips": list(self.pips),
            "opener": self.opener,
            "last_player": self.last_player,
            "line": [list(p) for p in self.line],
            "opener_index": self.opener_index,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: a winning side, or a draw."""

    winner_side: int | None
    draw: bool
    reason: Literal["target", "hands", "resign"]
    resigned_seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "winner_side": self.winner_side,
            "draw": self.draw,
            "reason": self.reason,
            "resigned_seat": self.resigned_seat,
        }


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or a spectator, ``seat=None``) may know. No hidden tile."""

    ruleset: Ruleset
    seat: int | None
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    line: tuple[Pair, ...]
    ends: Pair | None
    opener_index: int | None
    last_index: int | None
    pile_size: int
    sleeping: int
    turn: int | None
    hand_number: int
    scores: tuple[int, ...]
    target: int | None
    hands_total: int | None
    events: tuple[Event, ...]
    hand_results: tuple[HandResult, ...]
    outcome: Outcome | None
    legal: tuple[Action, ...]
    drawn_this_turn: int
    opener: int | None

    @property
    def previous(self) -> HandResult | None:
        """The last finished hand, if any."""
        return self.hand_results[-1] if self.hand_results else None

    def playable_tiles(self) -> tuple[Tile, ...]:
        """Own tiles that can be laid now (empty unless it is this seat's turn)."""
        seen: dict[Tile, None] = {}
        for action in self.legal:
            if isinstance(action, Play):
                seen[action.tile] = None
        return tuple(seen)

    def played_tiles(self) -> frozenset[Tile]:
        """Tiles on the table."""
        return frozenset(Tile(a, b) for a, b in self.line)
