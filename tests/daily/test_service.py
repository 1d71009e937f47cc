"""The daily deal in the store and on the clock, without Discord (both backends)."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.daily.service import (
    RESIGNED_LEG,
    AlreadyPlayed,
    DailyService,
    day_of,
    deal_of,
    ruleset_of,
)
from bot.daily.store import DailyRepo
from bot.errors import InvalidOptions
from bot.i18n import Ref
from bot.privacy.forget import forget_person
from bot.store import Store
from bot.store.table_extras import PracticeRepo
from bot.tables.service import TableService
from domino import Match
from tests.bot.helpers import FakeClock, make_service
from tests.daily.conftest import BUDGET
from tests.daily.helpers import play_leg
from tests.tournament.helpers import run

GUILD, OTHER, THREAD = 10, 11, 20
ALICE, BOB, CAROL = 1, 2, 3


def at(day: str, hour: int = 12, minute: int = 0, second: int = 0) -> float:
    """A Unix time on a UTC day."""
    d = dt.date.fromisoformat(day)
    return dt.datetime(d.year, d.month, d.day, hour, minute, second, tzinfo=dt.UTC).timestamp()


async def attempt(
    daily: DailyService, user: int, variant: str = "partners", guild: int = GUILD
) -> int:
    _, info = await daily.start(
        variant=variant, user_id=user, name=f"P{user}", seat_name=f"P{user}",
        guild_id=guild, channel_id=THREAD + user,
    )
    return info.id


async def play_attempt(
    daily: DailyService, tables: TableService, clock: FakeClock, user: int,
    variant: str = "partners", guild: int = GUILD,
) -> int:
    """Start and play out the whole attempt; its result."""
    table_id = await attempt(daily, user, variant, guild)
    day = day_of(clock())
    while True:
        await play_leg(tables, clock, table_id, user)
        await tables.idle()
        found = await daily.attempt(day, variant, user)
        assert found is not None
        if found.finished:
            assert found.result is not None
            return found.result
        legs = await daily.legs(found)
        table_id = legs[-1].table_id


async def restarted(store: Store, clock: FakeClock) -> tuple[TableService, DailyService]:
    """A new process's table and daily services on the same store, its tables loaded."""
    again = make_service(store, clock, computer_delay=0.0, hand_pause=0.0, ai_budget=BUDGET)
    await again.load_open_tables()
    revived = DailyService(store, again, expert_budget=BUDGET)
    again.add_observer(revived)
    return again, revived


async def test_partners_deal_played_once_and_boarded_without_spoilers(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    table_id = await attempt(daily, ALICE)
    info = await tables.get(table_id)
    assert [(s.kind, s.user_id, s.ai_level) for s in info.seats if s] == [
        ("human", ALICE, None), ("computer", None, "expert"), ("computer", None, "expert"),
        ("computer", None, "expert"),
    ]
    assert info.ruleset.hands == 1 and info.table.options == {"daily": "2026-11-27"}
    assert await PracticeRepo(daily.store.db).among([table_id]) == {table_id}  # not rated
    # While it is being played, another attempt is sent to it.
    with pytest.raises(AlreadyPlayed) as playing:
        await attempt(daily, ALICE)
    assert playing.value.params == {"thread": Ref("channel", THREAD + ALICE)}
    # Bob has not played: the board shows no result to him, only the count.
    await play_leg(tables, clock, table_id, ALICE)
    await tables.idle()
    alice = await daily.attempt("2026-11-27", "partners", ALICE)
    assert alice is not None and alice.finished
    view = (await tables.get(table_id)).public_view()
    assert view is not None and alice.result == view.scores[0] - view.scores[1]
    hidden = await daily.board("partners", GUILD, BOB)
    assert not hidden.shown and hidden.players == 1 and hidden.rows == ()
    shown = await daily.board("partners", GUILD, ALICE)
    assert shown.shown and [(r, a.user_id) for r, a in shown.rows] == [(1, ALICE)]
    # A second attempt is refused and changes nothing.
    before = await DailyRepo(daily.store.db).legs("2026-11-27", "partners", ALICE)
    with pytest.raises(AlreadyPlayed) as refused:
        await attempt(daily, ALICE)
    assert "already" in str(refused.value) and "midnight UTC, in 12 h 0 min" in str(refused.value)
    assert await DailyRepo(daily.store.db).legs("2026-11-27", "partners", ALICE) == before
    assert len(tables.open_tables()) == 0


async def test_everyone_gets_the_same_deal_and_a_new_day_another(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    one, two = await attempt(daily, ALICE), await attempt(daily, BOB, guild=OTHER)
    views = [(await tables.views_for(t, u))[0].hand for t, u in ((one, ALICE), (two, BOB))]
    assert views[0] == views[1]
    clock.now = at("2026-11-28")
    three = await attempt(daily, CAROL)
    assert (await tables.views_for(three, CAROL))[0].hand != views[0]
    seeds = await daily.store.db.fetchall("SELECT day, seed FROM daily_deals ORDER BY day")
    assert len({r["seed"] for r in seeds}) == 2


def test_the_second_leg_deals_each_seat_the_other_seats_tiles() -> None:
    """Duplicate style: the same deal, the person holding his opponent's tiles."""
    for variant in ("draw", "all-fives"):
        first = Match.new(ruleset_of(variant), 99, deal_of(variant, 99, 0))
        second = Match.new(ruleset_of(variant), 99, deal_of(variant, 99, 1))
        assert second.hands == (first.hands[1], first.hands[0])
        assert second.pile == first.pile
        assert Match.new(ruleset_of(variant), 99).hands == first.hands


async def test_a_draw_deal_is_played_from_both_seats(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    result = await play_attempt(daily, tables, clock, ALICE, "draw")
    found = await daily.attempt("2026-11-27", "draw", ALICE)
    assert found is not None
    legs = await daily.legs(found)
    assert [leg.leg for leg in legs] == [0, 1] and result == sum(leg.points or 0 for leg in legs)
    for leg in legs:
        info = await tables.get(leg.table_id)
        view = info.public_view()
        assert info.status == "finished" and view is not None
        assert leg.points == view.scores[0] - view.scores[1]


async def test_a_deal_started_a_second_before_midnight_keeps_its_day_and_the_streak_counts(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-26", 23, 59, 59)
    table_id = await attempt(daily, ALICE)
    clock.now = at("2026-11-27", 0, 0, 30)
    await play_leg(tables, clock, table_id, ALICE)
    await tables.idle()
    late = await daily.attempt("2026-11-26", "partners", ALICE)
    assert late is not None and late.finished and late.day == "2026-11-26"
    assert await daily.attempt("2026-11-27", "partners", ALICE) is None
    assert (await daily.board("partners", None, ALICE, day="2026-11-26")).shown
    assert await daily.streak(ALICE) == 1  # today not played yet: yesterday's streak
    await play_attempt(daily, tables, clock, ALICE, "draw")
    assert await daily.streak(ALICE) == 2
    clock.now = at("2026-11-29")
    assert await daily.streak(ALICE) == 0


async def test_a_resigned_leg_counts_heavily(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    table_id = await attempt(daily, ALICE)
    await tables.resign(table_id, ALICE)
    await tables.idle()
    found = await daily.attempt("2026-11-27", "partners", ALICE)
    assert found is not None and found.result == RESIGNED_LEG


async def test_a_kill_between_two_legs_resumes_the_attempt(
    store: Store, daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    """The first leg ends while nobody settles it (the process died); the next process
    scores it and opens the second leg."""
    clock.now = at("2026-11-27")
    table_id = await attempt(daily, ALICE, "all-fives")
    tables.remove_observer(daily)  # dead from here on
    await play_leg(tables, clock, table_id, ALICE)
    await tables.idle()
    assert (await daily.attempt("2026-11-27", "all-fives", ALICE)).legs == 2  # type: ignore[union-attr]
    await tables.aclose()
    again, revived = await restarted(store, clock)
    try:
        assert await revived.load() == []
        found = await revived.attempt("2026-11-27", "all-fives", ALICE)
        assert found is not None and not found.finished
        legs = await revived.legs(found)
        assert [leg.points is not None for leg in legs] == [True, False]
        await play_leg(again, clock, legs[1].table_id, ALICE)
        await again.idle()
        done = await revived.attempt("2026-11-27", "all-fives", ALICE)
        assert done is not None and done.finished and not done.published
        assert (await revived.load()) == [done]  # to publish
        await revived.published(done)
        assert await revived.load() == []
    finally:
        await again.aclose()


async def test_a_kill_mid_leg_resumes_the_table(
    store: Store, daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    table_id = await attempt(daily, ALICE, "draw")
    await play_leg(tables, clock, table_id, ALICE, moves=2)
    seq = (await tables.get(table_id)).seq
    tables.remove_observer(daily)
    await tables.aclose()
    again, revived = await restarted(store, clock)
    try:
        await revived.load()
        info = await again.get(table_id)
        assert info.status == "running" and info.seq >= seq
        await play_leg(again, clock, table_id, ALICE)
        await again.idle()
        found = await revived.attempt("2026-11-27", "draw", ALICE)
        assert found is not None and len(await revived.legs(found)) == 2
    finally:
        await again.aclose()


async def test_the_experts_own_play_is_computed_once(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    play = await daily.expert_play("2026-11-27", "partners")
    match = play.match()
    assert match.outcome is not None and play.moves
    again = await daily.expert_play("2026-11-27", "partners")
    assert again.moves == play.moves
    start = Match.new(ruleset_of("partners"), play.seed, play.deal)
    assert start.hands == Match.new(ruleset_of("partners"), play.seed).hands


async def test_bad_input_changes_nothing(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    for variant in ("two", "penalty", "nope"):
        with pytest.raises(InvalidOptions):
            await attempt(daily, ALICE, variant)
        with pytest.raises(InvalidOptions):
            await daily.board(variant, GUILD, ALICE)
    assert await daily.store.db.fetchval("SELECT COUNT(*) FROM daily_attempts") == 0
    assert tables.open_tables() == []


async def test_two_servers_have_their_own_boards_and_one_global(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    clock.now = at("2026-11-27")
    await play_attempt(daily, tables, clock, ALICE, guild=GUILD)
    await play_attempt(daily, tables, clock, BOB, guild=OTHER)
    here = await daily.board("partners", GUILD, ALICE)
    there = await daily.board("partners", OTHER, BOB)
    everyone = await daily.board("partners", None, ALICE)
    assert [a.user_id for _, a in here.rows] == [ALICE]
    assert [a.user_id for _, a in there.rows] == [BOB]
    assert {a.user_id for _, a in everyone.rows} == {ALICE, BOB}
    ranks = [r for r, _ in everyone.rows]
    assert ranks[0] == 1 and ranks[1] in (1, 2)


async def test_forgetting_a_person_takes_his_name_off_the_boards(
    daily: DailyService, tables: TableService, clock: FakeClock
) -> None:
    from bot.records.service import Records

    clock.now = at("2026-11-27")
    await play_attempt(daily, tables, clock, ALICE)
    alias = await forget_person(Records(daily.store, clock=clock), ALICE)
    board = await daily.board("partners", None, alias)
    assert [(a.user_id, a.name) for _, a in board.rows] == [(alias, "")]
    assert await daily.attempt("2026-11-27", "partners", ALICE) is None
    await tables.idle()
    await run(tables, clock)


def test_the_daily_rules_are_said_in_every_language() -> None:
    """``/domino rules daily``: every paragraph translated, in one embed."""
    from cogs.rules_text import SHOWN_LOCALES, daily_rules

    english = daily_rules("en-US")
    assert "**Our decision:** a leg you resign counts -100." in english
    for locale in SHOWN_LOCALES:
        shown = daily_rules(locale)
        assert len(shown) <= 4096 and (shown == english) == (locale == "en-US"), locale
