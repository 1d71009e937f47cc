""""Find a better move": the flagged decisions of a stored review as exercises.

Each decision of a person's review that gave away at least an inaccuracy's worth
(:data:`~bot.review.judge.INACCURACY`) is an exercise: the position just before it as his seat
saw it (his tiles, the table, the passes and draws; never another seat's tiles) and his legal
moves. He tries one (or asks to be shown); the try is judged by the same search, with the same
seed and iterations, that judged the decision, so its estimate and the expert's are
comparable, and the verdict says whether it was as good as the expert's move.

Nothing is kept per exercise: it is read from the stored review and the action log each time,
so an exercise survives a restart, and its buttons carry the table, the owner and the decision
(its place in the log). Only the owner may use his exercise; a decision that is no longer a
flagged one of his stored review (a review judged again, a forged id) is refused as stale.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from bot.errors import NotSeated, ServiceError, StaleAction, TableNotFound
from bot.i18n.commands import Command
from bot.review import Reviews
from bot.review.judge import INACCURACY, VERSION, Judged, as_legal, at, decode
from bot.tables import computer
from domino import Action, Play, Resign, View, decode_action, encode_action
from domino.ai.evaluate import evaluate

__all__ = [
    "BEST",
    "BETTER",
    "GOOD",
    "OUTCOMES",
    "PLAYED",
    "WORSE",
    "Exercise",
    "Exercises",
    "Verdict",
    "flagged",
    "move_code",
    "read_move",
    "verdict",
]

#: What a try was: the expert's move; as good as it (less than an inaccuracy below it); the
#: move played in the match; better than that but still short of the expert's; no better.
BEST, GOOD, PLAYED, BETTER, WORSE = "best", "good", "played", "better", "worse"
OUTCOMES = (BEST, GOOD, PLAYED, BETTER, WORSE)


@dataclass(frozen=True, slots=True)
class Exercise:
    """One flagged decision to find a better move for, and where it sits among the others."""

    table_id: int
    owner: int
    judged: Judged
    number: int  # 1-based, in the order of the match
    total: int
    previous: int | None  # the previous exercise's place in the log
    next: int | None
    public: View  # the table as everyone saw it
    mine: View  # the owner's seat's view: his tiles

    @property
    def moves(self) -> tuple[Action, ...]:
        """His legal moves then (a resignation is no answer)."""
        return tuple(a for a in self.mine.legal if not isinstance(a, Resign))

    @property
    def played(self) -> Action:
        return decode_action(self.judged.played)

    @property
    def best(self) -> Action:
        return decode_action(self.judged.best)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A try judged: what it was and the points it gives away against the expert's move."""

    tried: Action
    outcome: str  # one of OUTCOMES
    cost: float


def flagged(decisions: list[Judged]) -> list[Judged]:
    """The decisions worth an exercise (an inaccuracy's worth or more), in the match's order."""
    return sorted((d for d in decisions if d.cost >= INACCURACY), key=lambda d: d.seq)


def move_code(action: Action) -> str:
    """A move as a button carries it: ``3-5``, ``3-5.left``, ``draw``, ``pass``."""
    if isinstance(action, Play):
        return str(action.tile) + (f".{action.end}" if action.end else "")
    return encode_action(action)


def read_move(code: str) -> Action:
    """The move of :func:`move_code`; raises ValueError for what is none."""
    text = code if code in ("draw", "pass") else "play " + code.replace(".", " ")
    try:
        return decode_action(text)
    except Exception as exc:  # DominoError: a forged code
        raise ValueError(f"not a move: {code!r}") from exc


def verdict(exercise: Exercise, tried: Action, values: dict[Action, float]) -> Verdict:
    """The verdict on ``tried`` (one of the exercise's moves), from the search's estimate of
    each move (``values``; a move it never tried counts as its worst)."""
    judged = exercise.judged
    best, played = exercise.best, exercise.played
    if tried == best:
        return Verdict(tried, BEST, 0.0)
    if tried == played:
        return Verdict(tried, PLAYED, judged.cost)
    worst = min(values.values()) if values else 0.0
    cost = max(0.0, values.get(best, worst) - values.get(tried, worst))
    if cost < INACCURACY:
        return Verdict(tried, GOOD, cost)
    if cost < judged.cost:
        return Verdict(tried, BETTER, cost)
    return Verdict(tried, WORSE, cost)


def _values(view: View, table_id: int, seq: int, iterations: int) -> dict[Action, float]:
    """The search's estimate of each move, as it judged the decision (same seed, rounded as
    the review keeps them)."""
    found = evaluate(view, random.Random(f"review/{table_id}/{seq}"), iterations)
    return {a: round(found.value(a), 2) for a in view.legal}


class Exercises:
    """The exercises of the stored reviews of one store (see the module's doc)."""

    def __init__(self, reviews: Reviews) -> None:
        self.reviews = reviews  # the facade: who may ask, the stored reviews, the iterations

    async def first(self, table_id: int, owner: int, clicker: int) -> Exercise:
        """The owner's first exercise of the match."""
        return await self.exercise(table_id, owner, clicker, None)

    async def exercise(
        self, table_id: int, owner: int, clicker: int, seq: int | None
    ) -> Exercise:
        """The exercise of the decision at ``seq`` (None: the first); refused (changing
        nothing) for someone else than the owner, a match he may not review, a review not
        stored, a decision that is no flagged one of it."""
        if clicker != owner:
            raise NotSeated(
                "This exercise is someone else's: ask for your own with {command}.",
                command=Command("domino review"),
            )
        reviews = self.reviews
        await reviews.subject(table_id, owner)
        stored = await reviews.repo.get(table_id, owner, VERSION)
        if stored is None:
            raise StaleAction(
                "Your review of table {table_id} is not stored any more: ask for it again with"
                " {command}.",
                table_id=table_id,
                command=Command("domino review"),
            )
        found = flagged(decode(stored)[1])
        if not found:
            raise ServiceError(
                "No costly move at table {table_id}: there is no better move to find.",
                table_id=table_id,
            )
        places = [d.seq for d in found]
        if seq is None:
            seq = places[0]
        if seq not in places:
            raise StaleAction(
                "This exercise is out of date: ask for your review of table {table_id} again.",
                table_id=table_id,
            )
        i = places.index(seq)
        judged = found[i]
        match = await reviews.store.matches.get(table_id)
        if match is None:
            raise TableNotFound("No match was played at table {table_id}.", table_id=table_id)
        actions = await reviews.store.actions.list(table_id)
        public, mine = await asyncio.to_thread(at, match, actions, seq, judged.seat)
        return Exercise(
            table_id, owner, judged, i + 1, len(found),
            places[i - 1] if i > 0 else None,
            places[i + 1] if i + 1 < len(places) else None,
            public, mine,
        )

    async def attempt(
        self, table_id: int, owner: int, clicker: int, seq: int, move: Action
    ) -> tuple[Exercise, Verdict]:
        """The exercise and the verdict on the owner's try ``move`` (judged in the computers'
        pool); a move that is not one of the position's is refused."""
        exercise = await self.exercise(table_id, owner, clicker, seq)
        tried = as_legal(exercise.mine, move)
        if tried is None or isinstance(tried, Resign):
            raise ServiceError("That move cannot be played in this position.")
        if tried in (exercise.best, exercise.played):
            return exercise, verdict(exercise, tried, {})
        values = await computer.offload(
            _values, exercise.mine, table_id, seq, self.reviews.iterations
        )
        return exercise, verdict(exercise, tried, values)
