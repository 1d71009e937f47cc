"""What a seat, or a spectator, may see; hand results and match outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from domino.actions import Action, Play
from domino.rules import Ruleset
from domino.tiles import Tile

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Event:
    """A public event of the current hand.

    ``kind`` is "start" (penalty's start tile, seat None), "play", "draw" or "pass".
    ``tile`` is None for draws (nobody sees the drawn tile). ``end`` is where a tile went
    ("left", "right", or on a spinner's arm "up"/"down"). ``ends_before`` are the left and
    right ends when it happened (None on an empty line). ``points`` are what the play scored
    at the ends (All Fives).
    """

    seat: int | None
    kind: Literal["start", "play", "draw", "pass"]
    tile: Tile | None = None
    end: str | None = None
    ends_before: Pair | None = None
    points: int = 0


# The Latin bonuses ("premios") a hand result can name.
BONUS_NAMES = ("first-pass", "round-pass", "capicua", "dead-double-blank")


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bonus of the hand: ``name`` (one of BONUS_NAMES), the ``side`` it goes to, its
    ``points`` and the ``seat`` that earned it (the player of the tile; for the dead 0-0 the
    seat left holding it).
    """

    name: str
    side: int
    points: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {"name": self.name, "side": self.side, "points": self.points, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended.

    ``points`` is everything the hand added to each side's score: the hand's points, the
    ``bonuses`` (named, partners with bonuses on) and the ``end_points`` scored at the ends
    during the hand (All Fives, per side). ``ending`` says how a hand that is not a domino
    ended: "block" (nobody can play or draw), "stuck" (penalty: the pile is down to its floor
    and the player to move cannot play) or "closed" (two: the line was closed, the pile taken).
    ``spinner`` and ``arms`` describe the final layout as in :class:`View`.
    """

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
    bonuses: tuple[Bonus, ...] = ()
    end_points: tuple[int, ...] = ()
    ending: Literal["domino", "block", "stuck", "closed"] = "domino"
    spinner: int | None = None
    arms: tuple[tuple[Pair, ...], tuple[Pair, ...]] = ((), ())
    #: Where the hand's last tile went ("left", "right", "up", "down"; None: the only tile),
    #: for the picture of the hand's end; not part of the stored result.
    last_end: str | None = field(default=None, compare=False)

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
            "bonuses": [b.to_dict() for b in self.bonuses],
            "end_points": list(self.end_points),
            "ending": self.ending,
            "spinner": self.spinner,
            "arms": [[list(p) for p in arm] for arm in self.arms],
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: a winning side, or a draw. ``resign``: ``resigned_seat`` gave up;
    ``time``: ``resigned_seat``'s side lost on time, at ``timeouts`` time-outs in a row."""

    winner_side: int | None
    draw: bool
    reason: Literal["target", "hands", "resign", "time"]
    resigned_seat: int | None = None
    timeouts: int = 0

    @property
    def gave_up(self) -> bool:
        """The match ended before its time by a side's resignation or loss on time."""
        return self.reason in ("resign", "time")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        out: dict[str, Any] = {
            "winner_side": self.winner_side,
            "draw": self.draw,
            "reason": self.reason,
            "resigned_seat": self.resigned_seat,
        }
        if self.reason == "time":
            out["timeouts"] = self.timeouts
        return out


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or a spectator, ``seat=None``) may know. No hidden tile.

    All Fives: ``spinner`` is the index in ``line`` of the spinner (None before the first
    double), ``arms`` its "up" and "down" arms (pairs oriented outward from the spinner),
    ``open_ends`` every open end as ``(name, number)`` and ``end_count`` what the ends add up
    to now. Elsewhere ``spinner`` is None, ``arms`` are empty and ``open_ends`` are left/right.
    """

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
    spinner: int | None = None
    arms: tuple[tuple[Pair, ...], tuple[Pair, ...]] = ((), ())
    open_ends: tuple[tuple[str, int], ...] = ()
    end_count: int = 0

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
        """Tiles on the table (the spinner's arms included)."""
        return frozenset(Tile(a, b) for a, b in (*self.line, *self.arms[0], *self.arms[1]))
