"""The life of an event in the store and on the clock, without Discord."""

from __future__ import annotations

import pytest

from bot.errors import AlreadySeated, InvalidOptions, NotHost, ServiceError, WrongStatus
from bot.store import Store, migrations
from bot.store.repositories import DeadlineRow
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.store import EntryRow, TournamentRepo
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import play_round, run

GUILD, CHANNEL, HOST = 10, 20, 1


async def individual(events: TournamentService, people: int, **kwargs: object) -> int:
    kwargs.setdefault("rounds", 3)
    event = await events.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        name="Friday night",
        checkin=True,
        variant="partners",
        format="individual",
        hands=1,
        **kwargs,  # type: ignore[arg-type]
    )
    for u in range(100, 100 + people):
        await events.register(event.id, u, f"P{u}")
    return event.id


async def test_individual_event_played_to_the_end(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await individual(events, 9, fill="computer")
    await events.start(event_id, HOST)
    for number in (1, 2, 3):
        state = await events.state(event_id)
        assert state.event.round == number and state.round_row(number).status == "checkin"
        await play_round(events, tables, clock, event_id)
        state = await events.state(event_id)
        boards = state.boards_of(number)
        assert all(b.status == "done" for b in boards), boards
        assert boards, (state.rounds, state.entries)
        # 9 people and computers: three tables of four, three computer seats
        assert len([b for b in boards if not b.is_bye]) == 3
        assert sum(p is None for b in boards for p in b.people) == 3
    state = await events.state(event_id)
    assert state.event.status == "finished"
    table = state.standings()
    assert len(table) == 9 and table[0].rank == 1


async def test_bad_input_changes_nothing(events: TournamentService) -> None:
    event_id = await individual(events, 2)
    before = await events.state(event_id)
    bad = [
        events.register(event_id, 100, "again"),
        events.start(event_id, 999),
        events.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=HOST,
            name="x",
            checkin=True,
            variant="partners",
            format="individual",
        ),
        events.create(
            guild_id=GUILD, channel_id=21, host_id=HOST, name="x",
            checkin=True, variant="draw", format="pairs"
        ),
        events.create(
            guild_id=GUILD, channel_id=21, host_id=HOST, name="x",
            checkin=True, variant="three", format="single"
        ),
        events.check_in(event_id, 100),
        events.withdraw(event_id, 555),
    ]
    kinds = []
    for call in bad:
        with pytest.raises(ServiceError) as info:
            await call
        kinds.append(type(info.value))
    assert kinds[:3] == [AlreadySeated, NotHost, WrongStatus]
    assert kinds[3] is InvalidOptions and kinds[4] is InvalidOptions
    assert await events.state(event_id) == before


async def test_run_to_the_end(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await individual(events, 4)
    await events.start(event_id, HOST)
    for _ in range(3):
        await play_round(events, tables, clock, event_id)
    assert (await events.get(event_id)).status == "finished"
    await run(tables, clock, 1)


async def pairs_event(events: TournamentService, pairs: int, **kwargs: object) -> int:
    event = await events.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        name="Pairs night",
        checkin=True,
        variant="partners",
        format="pairs",
        rounds=3,
        hands=1,
        **kwargs,  # type: ignore[arg-type]
    )
    for i in range(pairs):
        a, b = 200 + 2 * i, 201 + 2 * i
        await events.invite(event.id, a, f"A{a}", (b, f"B{b}"))
        await events.answer_partner(event.id, b, True)
    return event.id


async def test_pairs_no_show_late_entry_withdrawal_restart(
    events: TournamentService, tables: TableService, clock: FakeClock, db_path: str
) -> None:
    """A pair whose member does not click in forfeits (2-0 to the others); a pair entering
    after round 1 gets its half-point bye and plays from round 2; a withdrawn pair is not
    paired again; a restart between two steps loses nothing."""
    event_id = await pairs_event(events, 9)
    await events.start(event_id, HOST)
    await play_round(events, tables, clock, event_id, absent={200})
    state = await events.state(event_id)
    (forfeit,) = [b for b in state.boards_of(1) if b.how and b.how.startswith("forfeit")]
    assert 1 in forfeit.sides[0] + forfeit.sides[1]
    assert [b for b in state.boards_of(1) if b.is_bye]  # 9 pairs: one bye
    # Late: a tenth pair registers during round 2's check-in; its first round is round 2.
    await events.invite(event_id, 300, "Late", (301, "Comer"))
    late = await events.answer_partner(event_id, 301, True)
    assert late is not None and late.joined_round == 2
    await events.withdraw(event_id, 203)  # pair 2 (members 202 and 203) withdraws
    # A restart: the services are made again from the store.
    await tables.aclose()
    from bot.store import Store
    from tests.bot.helpers import make_service

    store2 = await Store.open(db_path)
    try:
        tables2 = make_service(store2, clock, computer_delay=0.0, hand_pause=0.0, ai_level="easy")
        events2 = TournamentService(store2, tables2, clock=clock)
        tables2.add_observer(events2)
        await tables2.load_open_tables()
        assert await events2.load() == [event_id]
        await play_round(events2, tables2, clock, event_id)
        state = await events2.state(event_id)
        seated = {e for b in state.boards_of(2) for s in b.sides for e in s}
        assert 2 not in seated and late.entry in seated
        await play_round(events2, tables2, clock, event_id)
        state = await events2.state(event_id)
        assert state.event.status == "finished"
        lines = {s.entrant: s for s in state.standings()}
        assert lines[late.entry].byes >= 1 and lines[2].withdrawn
        await tables2.aclose()
    finally:
        await store2.close()


@pytest.mark.parametrize("system", ["swiss", "knockout"])
async def test_time_limit_scores_the_round_as_it_stands(
    events: TournamentService, tables: TableService, clock: FakeClock, system: str
) -> None:
    """Our decision as the issue says: when the round's time runs out the hand in play is
    finished and the table is scored with the points made so far (an individual knockout's
    final too: the side ahead, or level the better seed's, are the champions)."""
    tables.hand_pause = 5.0  # a hand ends, the next waits: the time limit is seen between
    event = await events.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        name="Long",
        checkin=True,
        variant="partners",
        format="individual",
        system=system,
        rounds=1,
        points=200,
        time_limit=300,
        grace=60,
    )
    for u in range(100, 104):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    state = await events.state(event.id)
    for e in state.active():
        await events.check_in(event.id, e.user_id)
    await run(tables, clock, events.checkin_before)
    state = await events.state(event.id)
    (board,) = state.boards_of(1)
    for user in board.people:
        await events.here(event.id, 1, user)  # type: ignore[arg-type]
    # Everyone present, nobody moves: the bot plays each timed-out turn; time runs out.
    for _ in range(200):
        if (await events.get(event.id)).status == "finished":
            break
        await run(tables, clock, 120)
    state = await events.state(event.id)
    (board,) = state.boards_of(1)
    assert state.event.status == "finished"
    assert board.how is not None and board.how.startswith("time")
    info = await tables.get(board.table_id)  # type: ignore[arg-type]
    assert info.status == "cancelled" and info.table.closed_reason == "time"
    assert max(board.points or (0,)) < 200
    if system == "knockout":
        tree = state.bracket()
        assert tree is not None and tree.complete and len(tree.champions) == 2
        assert set(tree.champions) == set(board.sides[tree.rounds[0][0].side_won or 0])


async def test_pause_resume_and_correction(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await individual(events, 4)
    await events.start(event_id, HOST)
    await events.pause(event_id, HOST)
    await run(tables, clock, 3600)  # nothing happens while paused
    assert (await events.state(event_id)).round_row(1).status == "checkin"  # type: ignore[union-attr]
    with pytest.raises(NotHost):
        await events.resume(event_id, 100)
    await events.resume(event_id, HOST)
    await play_round(events, tables, clock, event_id)
    with pytest.raises(ServiceError):
        await events.correct(event_id, HOST, round_=1, board=1, points=(10, 0), reason=" ")
    fixed = await events.correct(
        event_id, HOST, round_=1, board=1, points=(10, 30), reason="score sheet"
    )
    assert fixed.points == (10, 30)
    (log,) = await events.corrections(event_id)
    assert log.reason == "score sheet" and log.after == [10, 30]
    await events.cancel(event_id, HOST)
    with pytest.raises(WrongStatus):
        await events.withdraw(event_id, 100)


async def test_two_missed_rounds_withdraw(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    event_id = await individual(events, 5)
    await events.start(event_id, HOST)
    await play_round(events, tables, clock, event_id, skip={104})
    await play_round(events, tables, clock, event_id, skip={104})
    entry = (await events.state(event_id)).entry_of(104)
    assert entry is not None and entry.status == "withdrawn" and entry.missed == 2


async def test_limits(events: TournamentService) -> None:
    for channel in (1, 2, 3):
        await events.create(
            guild_id=GUILD,
            channel_id=channel,
            host_id=HOST,
            name="e",
            checkin=True,
            variant="draw",
            format="single",
            max_entrants=2,
        )
    with pytest.raises(ServiceError, match="3 open tournaments"):
        await events.create(
            guild_id=GUILD, channel_id=4, host_id=HOST, name="e",
            checkin=True, variant="draw", format="single"
        )
    event = await events.find(GUILD, 1)
    await events.register(event.id, 1, "a")
    await events.register(event.id, 2, "b")
    with pytest.raises(ServiceError, match="full"):
        await events.register(event.id, 3, "c")


async def test_knockout_one_against_one(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Five players, single elimination seeded by rating (byes to the top seeds): three rounds
    of the bracket, a champion and a finalist on the podium; who does not check in loses by
    walkover."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup", checkin=True, variant="draw",
        format="single", system="knockout", hands=1,
    )
    for u in range(100, 105):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    assert (await events.get(event.id)).rounds == 3  # a bracket of eight
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    assert len([b for b in state.boards_of(1) if not b.is_bye]) == 1  # 4 v 5; three byes
    from cogs.tournaments.posts import knockout_lines  # what the standings post says

    after_one = knockout_lines(state, 1)
    await play_round(events, tables, clock, event.id, skip={100})  # the top seed stays away
    # Our decision: a knockout round's result is settled once the next round began.
    (played,) = [b for b in state.boards_of(1) if not b.is_bye]
    before = await events.state(event.id)
    with pytest.raises(WrongStatus, match="settled"):
        await events.correct(
            event.id, HOST, round_=1, board=played.board, points=(0, 99), reason="sheet"
        )
    assert await events.state(event.id) == before and await events.corrections(event.id) == []
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    assert state.event.status == "finished"
    places = state.places()
    assert [p for p, _ in places[:2]] == [1, 2]
    assert knockout_lines(state, None)[0].startswith("🏆 Champion: ")
    # Round 1's standings post (posted again after a failure, say) says round 1 only.
    assert knockout_lines(state, 1) == after_one != knockout_lines(state, 3)
    assert state.entry_of(100) is not None
    assert all(e != state.entry_of(100).entry for _, e in places[:1])  # type: ignore[union-attr]


async def test_individual_knockout_played_to_its_joint_champions(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Our decision (docs/tournaments.md, "An individual knockout"): seven people, seeded by
    rating; round 1 has two tables, the lowest seed with a computer partner; a person who does
    not check in for the final is out; the final's winning side are joint champions (a
    computer never goes through), and everyone has a place."""
    event_id = await individual(events, 7, system="knockout", rounds=None)
    await events.start(event_id, HOST)
    state = await events.state(event_id)
    assert state.event.rounds == 2
    await play_round(events, tables, clock, event_id)
    state = await events.state(event_id)
    boards = state.boards_of(1)
    assert [b.is_bye for b in boards] == [False, False]
    assert sum(p is None for b in boards for p in b.people) == 1
    tree = state.bracket()
    assert tree is not None and tree.people and not tree.complete
    through = [e for m in tree.rounds[0] for e in m.advancing]
    assert 3 <= len(through) <= 4
    assert state.event.status == "running" and state.event.round == 2
    stays_away = state.entry(through[-1])
    assert stays_away is not None
    out = {e.user_id for e in state.entries if e.entry not in through}
    await play_round(events, tables, clock, event_id, skip={stays_away.user_id, *out})
    state = await events.state(event_id)
    assert state.event.status == "finished"
    (final,) = [b for b in state.boards_of(2) if not b.is_bye]
    assert stays_away.entry not in final.seats
    tree = state.bracket()
    assert tree is not None and tree.complete
    champions = set(tree.champions)
    assert 1 <= len(champions) <= 2 and champions <= {s for s in final.seats if s is not None}
    places = state.places()
    assert {e for p, e in places if p == 1} == champions
    assert sorted(e for _, e in places) == sorted(e.entry for e in state.entries)
    assert dict((e, p) for p, e in places)[stays_away.entry] > 1


async def test_individual_knockout_no_show_is_replaced_and_never_goes_through(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Our decision: in an individual knockout a person who does not come to his table after
    the grace has his seat played by a computer, as in the individual Swiss; he is out, and
    if his side wins only his partner goes through (here, four people: the final)."""
    event_id = await individual(events, 4, system="knockout", rounds=None)
    await events.start(event_id, HOST)
    await play_round(events, tables, clock, event_id, absent={100})
    state = await events.state(event_id)
    assert state.event.status == "finished"
    (final,) = state.boards_of(1)
    gone = state.entry_of(100)
    assert gone is not None and final.how is not None and final.how.endswith(f"absent:{gone.entry}")
    tree = state.bracket()
    assert tree is not None and tree.complete
    (match,) = tree.rounds[0]
    assert match.winning_side is not None
    won = [e for e in match.teams[match.winning_side] if e is not None]
    assert set(tree.champions) == set(won) - {gone.entry}
    assert gone.entry not in {e for p, e in state.places() if p == 1}


@pytest.mark.parametrize(("variant", "fmt", "people"), [("partners", "individual", 4),
                                                         ("draw", "single", 2)])
async def test_a_grace_run_again_counts_a_missed_round_once(
    events: TournamentService, tables: TableService, clock: FakeClock,
    variant: str, fmt: str, people: int,
) -> None:
    """A grace handled again (a kill before its deadline was dropped) finds the board's mark,
    written with the missed round in one transaction, and counts nothing twice."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Twice",
        checkin=True,
        variant=variant,
        format=fmt, hands=1, rounds=2, grace=60,
    )
    for u in range(100, 100 + people):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    for u in range(100, 100 + people):
        await events.check_in(event.id, u)
    await run(tables, clock, events.checkin_before)
    state = await events.state(event.id)
    (board,) = state.boards_of(1)
    for user in board.people:
        if user != 100:
            await events.here(event.id, 1, user)  # type: ignore[arg-type]
    await run(tables, clock, 61)
    entry = (await events.state(event.id)).entry_of(100)
    assert entry is not None and entry.missed == 1
    state = await events.state(event.id)
    if state.event.round == 1:  # the round is still on: run the grace once more
        await events._deadlines.on_grace(DeadlineRow(-event.id, "t.grace", clock.now, 1))
    entry = (await events.state(event.id)).entry_of(100)
    assert entry is not None and entry.missed == 1 and entry.status == "active"


async def test_pairs_stored_waiting_for_their_partner_become_invitations(
    events: TournamentService, store: Store
) -> None:
    """A pair stored as an entry waiting for its partner (before invitations were kept apart)
    becomes an invitation: the partner is free to enter, and his Accept enters the pair."""
    event = await events.create(
        guild_id=10, channel_id=20, host_id=1, name="Pairs",
        checkin=True,
        variant="partners", format="pairs",
    )
    async with store.transaction() as tx:
        await tx.db.execute("DROP TABLE tournament_invitations")
        await TournamentRepo(tx.db).add_entry(
            EntryRow(event.id, 0, 400, "Ann", 401, "Bea", "invited", 1, 1000.0, 0, 1.0)
        )
    for sql in [s for v, _, s in migrations(store.dialect) if v == 893]:
        async with store.transaction() as tx:
            await tx.db.run_script(sql)
    assert await events.repo.entries(event.id) == []
    assert await events.repo.entry_of(event.id, 401) is None
    entry = await events.answer_partner(event.id, 401, True)
    assert entry is not None and entry.members == (400, 401) and entry.status == "active"
