"""The exercises of "Find a better move" on both backends: read from the stored review and
the log (nothing of their own is stored), in the match's order, only for their owner; stale
and impossible requests are refused and change nothing."""

from __future__ import annotations

import itertools

import pytest

from bot.errors import NotSeated, ServiceError, StaleAction, TableNotFound
from bot.review import Reviews
from bot.review.exercise import BEST, PLAYED, Exercises, flagged
from bot.review.judge import VERSION, at
from bot.review.store import ReviewRepo
from bot.store import Store
from bot.tables.service import TableService
from domino import Play, Tile
from tests.review.helpers import ANA, BEA, EVE, finished

FEW = 40


async def test_each_costly_decision_is_an_exercise_for_its_owner_only(
    service: TableService, store: Store
) -> None:
    reviews = Reviews(store, iterations=FEW, per_request=1_000)
    table = await finished(service, seed=3)
    exercises = Exercises(reviews)
    with pytest.raises(StaleAction, match="is not stored any more"):
        await exercises.first(table, ANA, ANA)  # no review asked yet
    review = await reviews.review(table, ANA)
    costly = flagged(list(review.decisions))
    assert costly and [d.seq for d in costly] == sorted(d.seq for d in costly)
    assert all(d.cost >= 3 for d in costly)

    # Stepping through: numbered in the match's order, each linked to its neighbours.
    steps = [await exercises.first(table, ANA, ANA)]
    while steps[-1].next is not None:
        steps.append(await exercises.exercise(table, ANA, ANA, steps[-1].next))
    assert [e.judged for e in steps] == costly
    assert [e.number for e in steps] == list(range(1, len(costly) + 1))
    assert all(e.total == len(costly) for e in steps)
    assert steps[0].previous is None and all(
        b.previous == a.judged.seq for a, b in itertools.pairwise(steps))
    # Each is the position as her seat saw it: her tiles, no one else's.
    match = await store.matches.get(table)
    actions = await store.actions.list(table)
    assert match is not None
    for e in steps:
        public, mine = at(match, actions, e.judged.seq, e.judged.seat)
        assert (e.public, e.mine) == (public, mine) and e.public.hand is None
        assert set(e.moves) <= set(mine.legal) and len(e.moves) >= 2

    first = steps[0]
    _, best = await exercises.attempt(table, ANA, ANA, first.judged.seq, first.best)
    assert (best.outcome, best.cost) == (BEST, 0.0)
    _, mine_then = await exercises.attempt(table, ANA, ANA, first.judged.seq, first.played)
    assert (mine_then.outcome, mine_then.cost) == (PLAYED, first.judged.cost)

    # Refusals, each changing nothing.
    stored = await reviews.repo.get(table, ANA, VERSION)
    with pytest.raises(NotSeated, match="This exercise is someone else's"):
        await exercises.exercise(table, ANA, BEA, first.judged.seq)
    with pytest.raises(NotSeated, match="This exercise is someone else's"):
        await exercises.attempt(table, ANA, EVE, first.judged.seq, first.best)
    with pytest.raises(NotSeated, match="You did not play at table"):
        await exercises.first(table, EVE, EVE)
    with pytest.raises(StaleAction, match="This exercise is out of date"):
        await exercises.exercise(table, ANA, ANA, 10**6)
    uncostly = next((d.seq for d in review.decisions if d not in costly), None)
    if uncostly is not None:
        with pytest.raises(StaleAction, match="This exercise is out of date"):
            await exercises.exercise(table, ANA, ANA, uncostly)
    with pytest.raises(TableNotFound):
        await exercises.first(987654, ANA, ANA)
    lacking = next(Tile(a, b) for a in range(7) for b in range(a, 7)
                   if Tile(a, b) not in (first.mine.hand or ()))
    with pytest.raises(ServiceError, match="That move cannot be played in this position"):
        await exercises.attempt(table, ANA, ANA, first.judged.seq, Play(lacking, None))
    assert await reviews.repo.get(table, ANA, VERSION) == stored
    assert await ReviewRepo(store.db).count() == 1

    # A new process (a restart): the same exercises from the store alone.
    again = Exercises(Reviews(store, iterations=FEW))
    assert await again.exercise(table, ANA, ANA, first.judged.seq) == first
