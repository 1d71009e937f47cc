"""Match reviews: the expert goes over one person's decisions in a finished match of his.

:meth:`Reviews.review` checks the request (the table exists, the person sat there, the match
is over and is no leg of a daily deal he is still playing, the hand exists: each refusal a
:class:`~bot.errors.ServiceError` that changes nothing), then answers from the stored review or
judges the match (:mod:`bot.review.judge`): each decision in the computers' process pool, one
after another so that the computers of running tables keep their share of it. One request
judges at a time per process, and one per person: while one judges, a request that would judge
too is refused ("try again in a moment"; a stored review is still answered), and a request
judges at most :data:`PER_REQUEST` decisions (the asked hand's first), so a long match is
judged over a few requests. A review asked many times at once is judged once, and stored
(:mod:`bot.review.store`), so a restart keeps it. Only the person's own decisions are judged,
each from what his seat could see then.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.daily.service import veil
from bot.errors import NotSeated, ServiceError, TableNotFound
from bot.review.judge import (
    GRADES,
    INACCURACY,
    VERSION,
    Judged,
    at,
    decode,
    encode,
    judge_one,
)
from bot.review.judge import positions as find_positions
from bot.review.store import ReviewRepo
from bot.store import MatchRow, Store
from bot.store.table_extras import FinishedRepo
from bot.tables import computer
from domino import View
from domino.ai.evaluate import REVIEW_ITERATIONS

__all__ = ["PER_REQUEST", "SHOWN", "Review", "Reviews"]

#: The costliest decisions a review shows.
SHOWN = 3
#: Decisions one request judges at most (our decision: about 2 s on a quiet core, 12 s on a
#: busy one; a longer match is judged over several requests).
PER_REQUEST = 24


@dataclass(frozen=True, slots=True)
class Review:
    """One person's judged decisions in one match."""

    table_id: int
    user_id: int
    hands: tuple[int, ...]
    decisions: tuple[Judged, ...]
    left: int = 0  # decisions of the match not judged yet (a later request judges them)

    def of_hand(self, hand: int | None) -> list[Judged]:
        """The decisions of ``hand`` (None: of the whole match), in order."""
        return [d for d in self.decisions if hand is None or d.hand == hand]

    def costliest(self, hand: int | None = None, count: int = SHOWN) -> list[Judged]:
        """The ``count`` decisions that gave away most (at least an inaccuracy's worth),
        costliest first."""
        costly = [d for d in self.of_hand(hand) if d.cost >= INACCURACY]
        return sorted(costly, key=lambda d: (-d.cost, d.seq))[:count]

    def grades(self, hand: int) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders ``hand`` holds."""
        counts = dict.fromkeys(GRADES, 0)
        for d in self.of_hand(hand):
            if d.grade is not None:
                counts[d.grade] += 1
        return counts


@dataclass(frozen=True, slots=True)
class _Subject:
    match: MatchRow
    seats: frozenset[int]


class Reviews:
    """The reviews of one store's matches: checks, the stored ones, judging the rest."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        iterations: int = REVIEW_ITERATIONS,
        per_request: int = PER_REQUEST,
    ) -> None:
        self.store = store
        self.repo = ReviewRepo(store.db)
        self.clock = clock
        self.iterations = iterations
        self.per_request = per_request
        self.judged = 0  # requests this process judged decisions for: for tests and checks
        self._running: dict[tuple[int, int], asyncio.Future[Review]] = {}

    async def subject(self, table_id: int, user_id: int) -> _Subject:
        """The finished match ``user_id`` played at ``table_id``; else a refusal."""
        table = await self.store.tables.get(table_id)
        match = await self.store.matches.get(table_id) if table is not None else None
        if table is None or match is None:
            raise TableNotFound("No match was played at table {table_id}.", table_id=table_id)
        seats = frozenset(
            s.seat for s in await self.store.seats.list(table_id) if s.user_id == user_id
        )
        if not seats:
            raise NotSeated(
                "You did not play at table {table_id}: a review covers only your own matches.",
                table_id=table_id,
            )
        if table.status == "cancelled":
            raise ServiceError(
                "The match at table {table_id} was cancelled: there is nothing to review.",
                table_id=table_id,
            )
        if table.status != "finished":
            raise ServiceError(
                "The match at table {table_id} is not over: its review opens when it ends.",
                table_id=table_id,
            )
        hides = veil(user_id, self.clock())
        if not await FinishedRepo(self.store.db).visible(
            user_id, None, veil=hides, table_id=table_id, limit=1
        ):
            raise ServiceError(
                "Table {table_id} is a leg of a daily deal you are still playing: its review "
                "opens when you have finished the deal.",
                table_id=table_id,
            )
        return _Subject(match, seats)

    async def review(self, table_id: int, user_id: int, hand: int | None = None) -> Review:
        """``user_id``'s review of the finished match at ``table_id`` (``hand``: checked to
        exist, its decisions judged first). Raises :class:`ServiceError` for a request it
        refuses, having changed nothing."""
        key = (table_id, user_id)
        running = self._running.get(key)
        if running is None:
            mine = next((t for t, u in self._running if u == user_id), None)
            if mine is not None or self._running:
                found = await self._stored(table_id, user_id, mine)
                _check_hand(found.hands, hand)
                return found
            running = self._running[key] = asyncio.ensure_future(
                self._judge(table_id, user_id, hand)
            )
            running.add_done_callback(lambda _: self._running.pop(key, None))
        found = await asyncio.shield(running)
        _check_hand(found.hands, hand)
        return found

    async def _stored(self, table_id: int, user_id: int, mine: int | None) -> Review:
        """The stored review while another request judges; refused when there is none."""
        await self.subject(table_id, user_id)
        stored = await self.repo.get(table_id, user_id, VERSION)
        if stored is not None:
            hands, judged, left = decode(stored)
            return Review(table_id, user_id, hands, tuple(judged), left)
        if mine is not None:
            raise ServiceError(
                "Your review of table {table_id} is still being judged: ask for this one when "
                "it is done.",
                table_id=mine,
            )
        raise ServiceError("The expert is going over another review: try again in a moment.")

    async def _judge(self, table_id: int, user_id: int, hand: int | None) -> Review:
        """Check the request, then judge up to :attr:`per_request` decisions not judged yet
        (``hand``'s first) and store them with those judged before."""
        subject = await self.subject(table_id, user_id)
        stored = await self.repo.get(table_id, user_id, VERSION)
        if stored is not None:
            hands, judged, left = decode(stored)
            if not left:
                _check_hand(hands, hand)
                return Review(table_id, user_id, hands, tuple(judged))
        actions = await self.store.actions.list(table_id)
        hands, todo = await asyncio.to_thread(
            find_positions, subject.match, actions, subject.seats
        )
        _check_hand(hands, hand)
        done = _merged([], stored)
        missing = sorted((p for p in todo if p.seq not in done),
                         key=lambda p: (hand is not None and p.hand != hand, p.seq))
        fresh = [
            await computer.offload(judge_one, position, table_id, self.iterations)
            for position in missing[: self.per_request]
        ]
        done = _merged(fresh, await self.repo.get(table_id, user_id, VERSION))  # another's?
        judged = sorted(done.values(), key=lambda d: d.seq)
        left = sum(1 for p in todo if p.seq not in done)
        await self.repo.put(table_id, user_id, VERSION, encode(hands, judged, left), self.clock())
        self.judged += 1
        return Review(table_id, user_id, hands, tuple(judged), left)

    async def moments(self, review: Review, shown: Sequence[Judged]) -> list[tuple[View, View]]:
        """For each of ``shown``: the public view and the person's seat view just before it
        (what the review's picture draws)."""
        match = await self.store.matches.get(review.table_id)
        if match is None or not shown:
            return []
        actions = await self.store.actions.list(review.table_id)
        return await asyncio.to_thread(
            lambda: [at(match, actions, d.seq, d.seat) for d in shown]
        )


def _merged(fresh: Sequence[Judged], stored: str | None) -> dict[int, Judged]:
    """The decisions judged, by their place in the log: ``fresh`` and those of ``stored``."""
    found = {d.seq: d for d in decode(stored)[1]} if stored is not None else {}
    found.update((d.seq, d) for d in fresh)
    return found


def _check_hand(hands: Sequence[int], hand: int | None) -> None:
    if hand is not None and hand not in hands:
        raise ServiceError(
            "There is no hand {hand} at this table; its hands are {hands}.",
            hand=hand, hands=", ".join(map(str, hands)) or "-",
        )
