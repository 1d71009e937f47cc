"""The judgement of one person's decisions in a finished match (pure: no store, no Discord).

The match is rebuilt from its stored row and action log. Each action the person chose himself
(not a computer's move in his place, a time-out or a forced move) where he had more than one
legal action is a *decision* (a play stored without its end, where the tile fitted one end
only, is the legal play it stands for); it is judged from his seat's view just before it,
which holds his tiles, the table and the passes and draws everyone saw, never another seat's
tiles. The expert (:func:`domino.ai.evaluate.evaluate`, a search held to a count of iterations
seeded by the table and the move, so a judgement is the same wherever it runs) estimates the
result of the move played and of its own choice; the difference is the decision's cost in
points.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.store import ActionRow, MatchRow
from bot.tables.hint import explain
from domino import Action, Match, Play, Resign, Ruleset, View, decode_action, encode_action
from domino.ai.evaluate import REVIEW_ITERATIONS, evaluate

__all__ = [
    "BLUNDER",
    "GRADES",
    "INACCURACY",
    "MISTAKE",
    "VERSION",
    "Judged",
    "Position",
    "as_legal",
    "at",
    "decode",
    "encode",
    "grade",
    "judge_one",
    "positions",
]

#: The judgement's version: stored reviews of another version are judged again.
VERSION = 2
#: Our decision: a decision that gives away this many points or more (as the expert
#: estimates) is an inaccuracy, a mistake, a blunder.
INACCURACY = 3.0
MISTAKE = 8.0
BLUNDER = 20.0
GRADES = ("inaccuracy", "mistake", "blunder")
#: People's own choices (older logs have no ``made_by``: a person's seat made them).
OWN = (None, "player")


def grade(cost: float) -> str | None:
    """``inaccuracy``, ``mistake``, ``blunder`` or None (a good move)."""
    if cost >= BLUNDER:
        return "blunder"
    if cost >= MISTAKE:
        return "mistake"
    if cost >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True, slots=True)
class Position:
    """A decision to judge: where it is in the log and the chooser's view before it."""

    hand: int
    seq: int
    seat: int
    played: str  # encode_action
    view: View


@dataclass(frozen=True, slots=True)
class Judged:
    """A judged decision: the move played, the expert's choice and why, both estimates."""

    hand: int
    seq: int
    seat: int
    played: str  # encode_action strings
    best: str
    played_value: float
    best_value: float
    reason: str  # the Hint's explainer: a catalogue message id and its parameters
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def cost(self) -> float:
        """Points the move gave away against the expert's choice."""
        return 0.0 if self.played == self.best else max(0.0, self.best_value - self.played_value)

    @property
    def grade(self) -> str | None:
        return grade(self.cost)


def _rebuild(match: MatchRow, actions: Sequence[ActionRow]) -> Iterator[tuple[Match, ActionRow]]:
    """Each logged action with the match just before it. Raises DominoError or ValueError."""
    m = Match.new(Ruleset.from_dict(match.ruleset), match.seed, match.deal)
    for expected, row in enumerate(sorted(actions, key=lambda r: r.seq)):
        if row.seq != expected:
            raise ValueError(f"move {expected} is missing from the log")
        yield m, row
        action = decode_action(row.action)
        m = m.apply(action) if isinstance(action, Resign) else m.apply(action, row.seat)


def positions(match: MatchRow, actions: Sequence[ActionRow], seats: frozenset[int]
              ) -> tuple[tuple[int, ...], list[Position]]:
    """The hands of the match and the decisions of ``seats`` (the person's seats)."""
    hands: dict[int, None] = {}
    out: list[Position] = []
    for before, row in _rebuild(match, actions):
        hands[before.hand_number] = None
        if row.seat not in seats or row.made_by not in OWN:
            continue
        action = decode_action(row.action)
        if isinstance(action, Resign):
            continue
        view = before.view(row.seat)
        played = as_legal(view, action)
        if len(view.legal) < 2 or played is None:
            continue
        out.append(Position(before.hand_number, row.seq, row.seat, encode_action(played), view))
    return tuple(hands), out


def _end_numbers(view: View) -> dict[str, int]:
    """The number each open end of the table shows."""
    numbers = dict(view.open_ends)
    if view.ends is not None:
        numbers.setdefault("left", view.ends[0])
        numbers.setdefault("right", view.ends[1])
    return numbers


def as_legal(view: View, action: Action) -> Action | None:
    """The action of ``view.legal`` that ``action`` makes: itself, the one play of its tile
    when it names no end, or the play of its tile on an end showing the same number (the
    engine lists one of two ends alike); None when it is not legal there."""
    if action in view.legal:
        return action
    if not isinstance(action, Play):
        return None
    same = [a for a in view.legal if isinstance(a, Play) and a.tile == action.tile]
    if action.end is None:
        return same[0] if len(same) == 1 else None
    numbers = _end_numbers(view)
    number = numbers.get(action.end)
    alike = [a for a in same if a.end is not None and numbers.get(a.end) == number]
    return alike[0] if number is not None and alike else None


def at(match: MatchRow, actions: Sequence[ActionRow], seq: int, seat: int) -> tuple[View, View]:
    """The public view and ``seat``'s view just before action ``seq`` (the review's picture)."""
    for before, row in _rebuild(match, actions):
        if row.seq == seq:
            return before.public_view(), before.view(seat)
    raise ValueError(f"no action {seq} in the log")


def judge_one(position: Position, table_id: int, iterations: int = REVIEW_ITERATIONS) -> Judged:
    """The expert's judgement of one decision (CPU-bound: run it in the computers' pool)."""
    view = position.view
    rng = random.Random(f"review/{table_id}/{position.seq}")
    evaluation = evaluate(view, rng, iterations)
    played = decode_action(position.played)
    why = explain(view, evaluation.best)
    return Judged(
        position.hand, position.seq, position.seat, position.played,
        encode_action(evaluation.best), round(evaluation.value(played), 2),
        round(evaluation.value(evaluation.best), 2), why.reason, dict(why.params),
    )


def encode(hands: Sequence[int], judged: Sequence[Judged], left: int = 0) -> str:
    """The stored form of a review (``left``: decisions not judged yet)."""
    return json.dumps(
        {"hands": list(hands), "decisions": [asdict(j) for j in judged], "left": left},
        separators=(",", ":"), sort_keys=True,
    )


def decode(data: str) -> tuple[tuple[int, ...], list[Judged], int]:
    """A stored review read back: its hands, decisions and how many are not judged yet.
    Raises ValueError when it does not read."""
    try:
        raw = json.loads(data)
        return (tuple(int(h) for h in raw["hands"]), [Judged(**d) for d in raw["decisions"]],
                int(raw.get("left", 0)))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a stored review: {exc}") from exc
