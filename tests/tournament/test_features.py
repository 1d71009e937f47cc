"""The podium's rating change, seat filling, a Swiss event's playoff and an individual
knockout, in the store and on the clock (both backends), without Discord."""

from __future__ import annotations

import pytest

from bot.errors import InvalidOptions, WrongStatus
from bot.records.rating import display_ordinal, ordinal
from bot.records.service import Records
from bot.records.store import EntryRow as RecordEntry
from bot.records.store import RecordsRepo
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import PUBLISH, TournamentService, family_of
from bot.tournaments.store import EventRow
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import play_round, run
from tests.tournament.test_service import CHANNEL, GUILD, HOST, individual


async def started_playoff(events: TournamentService, players: int, **kwargs: object) -> EventRow:
    """A started one-against-one Swiss event of ``players`` with a top-four playoff."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup", checkin=True, variant="draw",
        format="single", playoff=4, hands=1, **kwargs,  # type: ignore[arg-type]
    )
    for u in range(100, 100 + players):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    return event


async def test_rating_change_counts_only_the_events_matches(
    events: TournamentService, tables: TableService, clock: FakeClock, store: Store
) -> None:
    """Our decision: the podium shows the rating at registration and what the event's own
    rated tables added to it; a match played elsewhere during the event does not count."""
    tables.add_observer(Records(store, clock=clock))
    event_id = await individual(events, 4, rounds=1)
    await events.start(event_id, HOST)
    await play_round(events, tables, clock, event_id)
    state = await events.state(event_id)
    assert state.event.status == "finished"
    family = family_of("partners")
    repo = RecordsRepo(store.db)
    table_ids = [b.table_id for b in state.boards if b.table_id is not None]
    mine = [r for r in await repo.entries_of(table_ids) if r.kind == "human" and r.rated]
    assert {r.player_id for r in mine} == set(range(100, 104))
    # Meanwhile person 100 wins big at another table of the same family.
    mu, sigma = (await repo.ratings([100], family))[100]
    async with store.transaction() as tx:
        elsewhere = RecordsRepo(tx.db)
        await elsewhere.add_entry(
            RecordEntry(
                table_id=999_999, player_id=100, side=0, seats=(0,), name="P100", kind="human",
                result="win", rank=1, points_for=100, points_against=0, hands_won=1,
                dominoes=0, blocks_won=0, rated=True, mu_before=mu, sigma_before=sigma,
                mu_after=mu + 10, sigma_after=sigma, family=family, finished_at=clock(),
            )
        )
        await elsewhere.put_rating(100, family, mu + 10, sigma, now=clock())
    changes = await events.rating_changes(await events.state(event_id))
    for entry in state.entries:
        before, after = changes[entry.entry]
        assert before == entry.rating
        own = sum(
            display_ordinal(ordinal(r.mu_after, r.sigma_after))
            - display_ordinal(ordinal(r.mu_before, r.sigma_before))
            for r in mine
            if r.player_id == entry.user_id
        )
        assert after - before == own
    assert abs(changes[state.entry_of(100).entry][1] - 1000) < 200  # type: ignore[union-attr]


async def test_swiss_event_with_a_top_four_playoff(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Six players, two Swiss rounds, then the top four play a seeded knockout (1 meets 4,
    2 meets 3, then the final); the others are not paired in it and may not check in for it;
    the podium reads the bracket, then the Swiss standings; the standings stay the Swiss
    rounds'."""
    event = await started_playoff(events, 6, rounds=2)
    await play_round(events, tables, clock, event.id)
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    swiss = [s.entrant for s in state.standings()]
    seeds = state.event.playoff_seeds
    assert seeds == swiss[:4] and state.event.round == 3 and state.in_playoff()
    outsiders = {e.user_id for e in state.entries if e.entry in swiss[4:]}
    for user in outsiders:
        with pytest.raises(WrongStatus, match="playoff of the top"):
            await events.check_in(event.id, user)
    await play_round(events, tables, clock, event.id, skip=outsiders)
    state = await events.state(event.id)
    semis = [b for b in state.boards_of(3) if not b.is_bye]
    assert sorted(sorted(b.seats) for b in semis) == sorted(
        [sorted((seeds[0], seeds[3])), sorted((seeds[1], seeds[2]))]
    )
    assert [s.entrant for s in state.standings()] == swiss  # the playoff leaves them alone
    await play_round(events, tables, clock, event.id, skip=outsiders)
    state = await events.state(event.id)
    assert state.event.status == "finished"
    (final,) = [b for b in state.boards_of(4) if not b.is_bye]
    tree = state.bracket()
    assert tree is not None and tree.champion in final.seats
    places = state.places()
    assert [p for p, _ in places] == [1, 2, 3, 3, 5, 6]
    assert [e for _, e in places[4:]] == swiss[4:]
    assert {e for _, e in places[:4]} == set(seeds)


async def test_playoff_refused_where_it_cannot_be(events: TournamentService) -> None:
    for kwargs in (
        {"format": "single",
        "checkin": True,
        "variant": "draw", "system": "knockout", "playoff": 4},
        {"format": "single", "checkin": True, "variant": "draw", "playoff": 3},
    ):
        with pytest.raises(InvalidOptions):
            await events.create(
                guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup",
                **kwargs,  # type: ignore[arg-type]
            )
    assert await events.repo.open_events(GUILD) == []


async def test_a_publication_retry_is_a_stored_deadline_of_the_one_clock(
    events: TournamentService, tables: TableService, clock: FakeClock, store: Store
) -> None:
    """Our decision: when Discord fails, the publisher's next try is a stored deadline
    (1 s, doubling to 60 s); a new process (after a kill) loads it, even for an event that is
    over, runs it on the clock (the listeners are told) and forgets it once published."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup", checkin=True, variant="draw",
        format="single",
    )
    await events.cancel(event.id, HOST)
    waits = [await events.publish_later(event.id) for _ in range(8)]
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
    assert await events.publish_later(event.id, 0.5) == 0.5  # a short wait keeps the count
    (row,) = [t for t in await events.repo.timers(event.id) if t.kind == PUBLISH]
    assert (row.seq, row.due_at) == (8, clock() + 0.5)

    again = TournamentService(store, tables, clock=clock)  # the next process
    tables.scheduler.clear(-event.id)
    told: list[int] = []
    again.listen(told.append)
    await again.load()
    assert [d.kind for d in tables.scheduler.pending(-event.id)] == [PUBLISH]
    await run(tables, clock, 0.5)
    assert told == [event.id]
    await again.published(event.id)
    assert not [t for t in await again.repo.timers(event.id) if t.kind == PUBLISH]
    assert tables.scheduler.pending(-event.id) == []


async def test_the_playoff_begins_when_no_swiss_pairing_is_left(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Three players and five Swiss rounds: after three rounds everyone has met everyone, so
    round 4 (paired by the check-ins of a Swiss round) is the playoff's first: fewer than four
    are left, so the top seed has a bye, then the final; the event ends after it, and a pause
    in the playoff holds its clock as in any round."""
    event = await started_playoff(events, 3, rounds=5)
    for _ in range(3):
        await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    assert state.event.rounds == 5 and not state.event.playoff_seeds
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    swiss = [s.entrant for s in state.standings()]
    assert state.event.rounds == 3 and state.event.playoff_seeds == swiss
    (bye,) = [b for b in state.boards_of(4) if b.is_bye]
    (semi,) = [b for b in state.boards_of(4) if not b.is_bye]
    assert bye.sides == ((swiss[0],),) and sorted(semi.seats) == sorted(swiss[1:])
    await events.pause(event.id, HOST)
    await run(tables, clock, 3600)
    state = await events.state(event.id)
    final = state.round_row(5)
    assert state.event.status == "paused" and final is not None and final.status == "checkin"
    await events.resume(event.id, HOST)
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    assert state.event.status == "finished" and state.event.round == 5
    tree = state.bracket()
    assert tree is not None and tree.champion is not None
    assert [p for p, _ in state.places()] == [1, 2, 3]


async def test_a_crash_between_a_round_and_the_next_check_in_loses_nothing(
    events: TournamentService,
    tables: TableService,
    clock: FakeClock,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process dies after storing that round 1 is done and before opening round 2's
    check-in: the next process (loading the events) opens it, and the event goes on to the
    end."""
    event_id = await individual(events, 4, rounds=2)
    await events.start(event_id, HOST)

    async def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed")

    monkeypatch.setattr(events._rounds, "open_checkin", killed)
    await play_round(events, tables, clock, event_id)
    state = await events.state(event_id)
    assert state.event.round == 1 and state.round_row(2) is None
    assert [(t.kind, t.seq) for t in await events.repo.timers(event_id)] == [("t.start", 1)]

    tables.remove_observer(events)
    tables.scheduler.clear(-event_id)
    again = TournamentService(store, tables, clock=clock)
    tables.add_observer(again)
    assert await again.load() == [event_id]
    state = await again.state(event_id)
    checkin = state.round_row(2)
    assert state.event.round == 2 and checkin is not None and checkin.status == "checkin"
    assert [(t.kind, t.seq) for t in await again.repo.timers(event_id)] == [("t.start", 2)]
    await play_round(again, tables, clock, event_id)
    assert (await again.get(event_id)).status == "finished"
