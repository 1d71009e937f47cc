"""The review service on both backends: who may ask, what is judged, the stored cache, and
twenty requests at once."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.errors import NotSeated, ServiceError, TableNotFound
from bot.privacy.forget import forget_person
from bot.review import Reviews
from bot.review.judge import GRADES, VERSION, grade
from bot.review.store import ReviewRepo
from bot.store import Store
from bot.tables.service import TableService
from domino import Resign, decode_action, preset
from tests.review.helpers import ANA, BEA, CAI, DOV, EVE, finished, play_out, real_choices

FEW = 40  # iterations per decision in these tests: quick, and the same for a seed
WHOLE = 1_000  # decisions a request judges: a whole match at once


async def test_only_a_person_who_sat_at_a_finished_match_gets_its_review(
    service: TableService, store: Store
) -> None:
    reviews = Reviews(store, iterations=FEW)
    done = await finished(service)
    running = await service.create_table(host_id=ANA, host_name="Ana", variant="draw")
    await service.join(running.id, BEA, "Bea")
    await service.start(running.id, ANA)
    await play_out(service, running.id, (ANA, BEA), stop_at=3)

    with pytest.raises(TableNotFound, match="No match was played at table 999"):
        await reviews.review(999, ANA)
    with pytest.raises(NotSeated, match="You did not play at table"):
        await reviews.review(done, EVE)  # someone else's match
    with pytest.raises(ServiceError, match="is not over"):
        await reviews.review(running.id, ANA)
    with pytest.raises(NotSeated):
        await reviews.review(running.id, EVE)  # a running match he did not sit at
    cancelled = await service.create_table(host_id=ANA, host_name="Ana", variant="draw")
    await service.join(cancelled.id, BEA, "Bea")
    await service.start(cancelled.id, ANA)
    await store.tables.set_status(cancelled.id, "cancelled", now=0.0)
    with pytest.raises(ServiceError, match="was cancelled: there is nothing to review"):
        await reviews.review(cancelled.id, BEA)
    with pytest.raises(ServiceError, match="There is no hand 9 at this table"):
        await reviews.review(done, ANA, hand=9)
    assert await ReviewRepo(store.db).count() == 0 and reviews.judged == 0  # nothing changed


async def test_a_review_judges_only_the_askers_own_choices(
    service: TableService, store: Store
) -> None:
    """His decisions only: the moves of his seat where he had a choice, made by himself."""
    reviews = Reviews(store, iterations=FEW)
    table = await finished(service, seed=3)
    review = await reviews.review(table, ANA)
    seat = next(s.seat for s in await store.seats.list(table) if s.user_id == ANA)
    actions = {a.seq: a for a in await store.actions.list(table)}
    assert review.decisions, "a whole match without one choice"
    for d in review.decisions:
        row = actions[d.seq]
        assert row.seat == seat == d.seat and row.action == d.played
        assert not isinstance(decode_action(d.played), Resign)
        assert d.cost >= 0 and (d.played != d.best or d.cost == 0)
        assert d.grade == grade(d.cost)
    hands = {d.hand for d in review.decisions}
    assert hands <= set(review.hands) and review.hands[0] == 1
    shown = review.costliest()
    assert len(shown) <= 3 and [d.cost for d in shown] == sorted((d.cost for d in shown),
                                                                  reverse=True)
    for hand in review.hands:
        assert set(review.grades(hand)) == set(GRADES)
        assert all(d.hand == hand for d in review.costliest(hand))


@pytest.mark.parametrize(("variant", "users", "options"), [
    ("draw", (ANA, BEA), {"target": 50}),
    ("partners", (ANA, BEA, CAI, DOV), {"target": 50}),
    ("all-fives", (ANA, BEA), {"target": 100}),
])
async def test_every_real_choice_of_a_whole_match_is_judged(
    service: TableService, store: Store, variant: str, users: tuple[int, ...],
    options: dict[str, object],
) -> None:
    """Played as the buttons send it (a tile that fits one end only, without its end): each
    turn where the engine offered him two or more moves is judged, hand by hand."""
    reviews = Reviews(store, iterations=8)
    table = await finished(service, variant, users, seed=11, options=options,
                           like_buttons=True)
    plain = [a for a in await store.actions.list(table) if a.action.count(" ") == 1
             and a.action.startswith("play")]
    assert plain, "no tile was played without its end"
    choices = await real_choices(service, table, ANA)
    review = await reviews.review(table, ANA)
    assert sum(choices.values()) >= 10
    assert {h: len(review.of_hand(h)) for h in review.hands} == choices
    judged_as = {d.seq: d.played for d in review.decisions}
    # judged as the legal play it made, with its end
    assert any(judged_as.get(r.seq, "").startswith(r.action + " ") for r in plain)


async def test_a_review_is_judged_once_stored_and_kept_across_a_restart(
    service: TableService, store: Store, db_path: str
) -> None:
    reviews = Reviews(store, iterations=FEW, per_request=WHOLE)
    table = await finished(service, seed=5)
    answers = await asyncio.gather(*(reviews.review(table, ANA) for _ in range(20)))
    assert reviews.judged == 1 and all(a == answers[0] for a in answers)
    again = await Reviews(store, iterations=FEW, per_request=WHOLE).review(table, ANA, hand=1)
    assert again == answers[0]
    async with await Store.open(db_path) as reopened:  # a restart: another process's store
        later = Reviews(reopened, iterations=FEW, per_request=WHOLE)
        assert await later.review(table, ANA) == answers[0] and later.judged == 0
    stored = await ReviewRepo(store.db).get(table, ANA, VERSION)
    assert stored is not None and set(json.loads(stored)) == {"decisions", "hands", "left"}
    # BEA's review is his own, judged apart
    other = await reviews.review(table, BEA)
    assert reviews.judged == 2 and {d.seat for d in other.decisions}.isdisjoint(
        {d.seat for d in answers[0].decisions}
    )


async def test_a_review_is_the_same_wherever_it_is_judged(
    service: TableService, store: Store
) -> None:
    """The search is held to a count, seeded by the table and the move: no timing in it."""
    table = await finished(service, "partners", (ANA, BEA, CAI, DOV), seed=2,
                           options={"target": 50})
    first = await Reviews(store, iterations=FEW).review(table, CAI)
    await ReviewRepo(store.db).put(table, CAI, VERSION - 1, "{}", 0.0)  # an older judgement
    second = await Reviews(store, iterations=FEW).review(table, CAI)
    assert first == second


async def test_forget_me_removes_the_persons_reviews(
    service: TableService, store: Store
) -> None:
    from bot.records.service import Records

    reviews = Reviews(store, iterations=FEW)
    table = await finished(service, seed=7)
    await reviews.review(table, ANA)
    await reviews.review(table, BEA)
    await forget_person(Records(store), ANA)
    repo = ReviewRepo(store.db)
    assert await repo.get(table, ANA, VERSION) is None
    assert await repo.get(table, BEA, VERSION) is not None
    with pytest.raises(NotSeated):  # his seat went to a former player
        await reviews.review(table, ANA)


async def test_a_resigned_all_fives_match_is_reviewed_by_its_own_expert(
    service: TableService, store: Store
) -> None:
    """A match that ended by resignation is finished: its moves up to then are reviewed;
    in All Fives by the expert of games scored at the ends."""
    people = (ANA, BEA, CAI, DOV)[: preset("all-fives").seats]
    t = await service.create_table(host_id=ANA, host_name="Ana", variant="all-fives")
    for user in people[1:]:
        await service.join(t.id, user, f"P{user}")
    await service.start(t.id, ANA)
    await play_out(service, t.id, people, seed=1, stop_at=14)
    await service.resign(t.id, BEA)
    await service.idle()
    assert (await service.get(t.id)).status == "finished"
    reviews = Reviews(store, iterations=FEW)
    for user in people:
        review = await reviews.review(t.id, user)
        assert review.hands == (1,) and review.decisions
        assert all(d.cost >= 0 for d in review.decisions)
        shown = review.costliest()
        moments = await reviews.moments(review, shown)
        assert [mine.seat for _, mine in moments] == [d.seat for d in shown]


async def test_one_request_judges_at_a_time_per_process_and_per_person(
    service: TableService, store: Store
) -> None:
    """While one request judges: the same review asked again joins it; another review of the
    same person is refused, naming the one being judged; another person's is refused with "try
    again in a moment" unless it is stored. A refusal stores nothing."""
    reviews = Reviews(store, iterations=FEW)
    first = await finished(service, seed=5)
    second = await finished(service, seed=6)
    asks = [
        asyncio.ensure_future(reviews.review(first, ANA)),  # judges
        asyncio.ensure_future(reviews.review(second, ANA)),  # the same person, another match
        asyncio.ensure_future(reviews.review(first, BEA)),  # someone else
        asyncio.ensure_future(reviews.review(first, ANA, hand=1)),  # the same: joins it
    ]
    judged, mine, theirs, joined = await asyncio.gather(*asks, return_exceptions=True)
    assert not isinstance(judged, BaseException) and joined == judged
    assert isinstance(mine, ServiceError) and str(mine) == (
        f"Your review of table {first} is still being judged: ask for this one when it is done."
    )
    assert isinstance(theirs, ServiceError) and str(theirs) == (
        "The expert is going over another review: try again in a moment."
    )
    repo = ReviewRepo(store.db)
    assert await repo.get(second, ANA, VERSION) is None
    assert await repo.get(first, BEA, VERSION) is None
    assert reviews.judged == 1
    # Busy with Bea's review, Ana's stored one is still answered.
    asks = [asyncio.ensure_future(reviews.review(first, BEA)),
            asyncio.ensure_future(reviews.review(first, ANA))]
    bea, ana = await asyncio.gather(*asks)
    assert ana == judged and bea.decisions and reviews.judged == 2


async def test_a_request_judges_at_most_its_share_of_a_long_match(
    service: TableService, store: Store
) -> None:
    """At most ``per_request`` decisions a request, the asked hand's first; asking again
    judges the rest, until every real choice is judged."""
    reviews = Reviews(store, iterations=8, per_request=5)
    table = await finished(service, "partners", (ANA, BEA, CAI, DOV), seed=11,
                           options={"target": 100}, like_buttons=True)
    choices = await real_choices(service, table, ANA)
    total = sum(choices.values())
    assert total > 10 and len(choices) >= 3
    review = await reviews.review(table, ANA)
    assert len(review.decisions) == 5 and review.left == total - 5
    last = max(choices)
    review = await reviews.review(table, ANA, hand=last)
    assert len(review.decisions) == 10 and review.left == total - 10
    assert len(review.of_hand(last)) == min(choices[last], 5)
    while review.left:
        before = len(review.decisions)
        review = await reviews.review(table, ANA)
        assert len(review.decisions) - before == min(5, total - before)
    assert {h: len(review.of_hand(h)) for h in review.hands} == choices
    assert await Reviews(store, iterations=8).review(table, ANA) == review  # stored, whole
