"""Seasons: the calendar, the soft reset, season ratings beside the all-time ones, the season
boards, a person's current place and best past finish, and the season's end on the board
channel's deadline."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.privacy.forget import forget_person
from bot.records.boards import PeriodBoards
from bot.records.rating import ordinal, rate
from bot.records.record import GLOBAL
from bot.records.seasons import SeasonCalendar, calendar_of, parse_start, soft_reset
from bot.records.seasons_service import Seasons
from bot.records.service import Records
from bot.settings import SettingsError, load_settings
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, hand, human, make_record

GUILD = 77
OTHER = 78
MU, SIGMA = 25.0, 25.0 / 3.0


def at(year: int, month: int, day: int = 10) -> float:
    return dt.datetime(year, month, day, 12, tzinfo=dt.UTC).timestamp()


def first(year: int, month: int) -> float:
    return dt.datetime(year, month, 1, tzinfo=dt.UTC).timestamp()


async def game(
    records: Records,
    table_id: int,
    winner: int,
    loser: int,
    when: float,
    *,
    guild_id: int | None = GUILD,
    rated: bool = True,
) -> None:
    """A one-hand two-player match ``winner`` won 30 to 0 (a negative loser: a computer)."""
    seats = [human(winner), computer() if loser < 0 else human(loser)]
    await records.record_match(
        make_record(
            table_id,
            "draw",
            seats,
            [hand(1, "domino", 0, 0, [30, 0])],
            winner_side=0,
            guild_id=guild_id,
            started_at=when - 60,
            finished_at=when,
        ),
        rated=rated,
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at(2026, 11))


@pytest.fixture
def records(store: Store, clock: FakeClock) -> Records:
    return Records(store, clock=clock)


@pytest.fixture
def seasons(store: Store, clock: FakeClock) -> Seasons:
    return Seasons(store, SeasonCalendar(), clock=clock)


def test_seasons_are_three_months_from_january_by_default() -> None:
    # Our decision: global seasons of whole UTC months, three by default, from January 2026.
    cal = SeasonCalendar()
    autumn = cal.season_of(at(2026, 11))
    assert (autumn.key, autumn.start, autumn.end) == (
        "season:2026-10", first(2026, 10), first(2027, 1)
    )
    assert cal.number(at(2026, 11)) == 4 and cal.number(at(2025, 12)) == 0
    assert cal.previous(autumn).key == "season:2026-07"
    assert cal.by_key("season:2026-10") == autumn
    assert cal.by_key("season:2026-11") is None  # no season starts there
    monthly = SeasonCalendar(1, (2026, 5))
    assert monthly.season_of(at(2026, 11)).key == "season:2026-11"
    assert monthly.number(at(2026, 11)) == 7
    with pytest.raises(ValueError):
        SeasonCalendar(13)
    assert parse_start("2025-09") == (2025, 9)
    with pytest.raises(ValueError):
        parse_start("2025-13")


def test_the_settings_choose_the_seasons() -> None:
    settings = load_settings(None, {"SEASON_MONTHS": "6", "SEASON_START": "2025-07"})
    assert (settings.season_months, settings.season_start) == (6, "2025-07")
    default = load_settings(None, {})
    assert (default.season_months, default.season_start) == (3, "2026-01")
    with pytest.raises(SettingsError, match="SEASON_START"):
        load_settings(None, {"SEASON_START": "July"})
    assert calendar_of(settings) == SeasonCalendar(6, (2025, 7))
    assert calendar_of(None) == SeasonCalendar()


@given(
    st.integers(1, 12),
    st.integers(2000, 2040),
    st.integers(1, 12),
    st.floats(0, 2_000_000_000),
)
def test_every_moment_is_in_one_season_that_ends_at_a_months_end(
    months: int, year: int, month: int, t: float
) -> None:
    cal = SeasonCalendar(months, (year, month))
    season = cal.season_of(t)
    assert season.start <= t < season.end
    end = dt.datetime.fromtimestamp(season.end, dt.UTC)
    assert (end.day, end.hour, end.minute, end.second) == (1, 0, 0, 0)
    assert cal.season_of(season.end).start == season.end  # the next one starts there
    assert cal.by_key(season.key) == season


def test_the_soft_reset_pulls_mu_halfway_and_widens_sigma() -> None:
    # Our decision: mu halfway back to the start; sigma² + (start sigma / 2)², capped.
    assert soft_reset(MU, SIGMA) == (MU, SIGMA)  # a newcomer stays a newcomer
    mu, sigma = soft_reset(35.0, 2.0)
    assert mu == 30.0
    assert sigma == pytest.approx((4.0 + (SIGMA / 2) ** 2) ** 0.5)
    assert soft_reset(15.0, 8.0) == (20.0, SIGMA)  # capped at the start sigma


@given(st.floats(-20, 70), st.floats(0.3, 12))
def test_a_reset_rating_lies_between_the_old_and_a_newcomers(mu: float, sigma: float) -> None:
    new_mu, new_sigma = soft_reset(mu, sigma)
    assert min(mu, MU) <= new_mu <= max(mu, MU)
    assert abs(new_mu - MU) == pytest.approx(abs(mu - MU) / 2)
    assert sigma <= new_sigma <= max(sigma, SIGMA)


async def test_a_season_starts_from_the_soft_reset_and_the_all_time_rating_goes_on(
    records: Records, seasons: Seasons, store: Store, clock: FakeClock
) -> None:
    # A hand-made history: 11 beats 12 three times in season 3 (July-September)...
    for n in range(3):
        await game(records, n + 1, 11, 12, at(2026, 8, 3 + n))
    summer = await store.db.fetchall(
        "SELECT player_id, mu, sigma FROM season_ratings WHERE season = 'season:2026-07'"
        " ORDER BY player_id"
    )
    alltime = await store.db.fetchall(
        "SELECT player_id, mu, sigma FROM record_ratings WHERE family = 'two-player'"
        " ORDER BY player_id"
    )
    # ...the first season anyone plays starts from the newcomer's rating, like all time.
    assert [tuple(r) for r in summer] == [tuple(r) for r in alltime]
    before = {int(r[0]): (float(r[1]), float(r[2])) for r in alltime}
    # In season 4, 12 beats 11 once: the season starts from the soft reset of the all-time
    # ratings (no idle weeks: the fake clock recorded every rating at the same moment).
    await game(records, 4, 12, 11, at(2026, 10, 9))
    record = make_record(
        4, "draw", [human(12), human(11)], [hand(1, "domino", 0, 0, [30, 0])], winner_side=0,
        guild_id=GUILD, started_at=0, finished_at=at(2026, 10, 9),
    )
    priors = {pid: soft_reset(mu, sigma) for pid, (mu, sigma) in before.items()}
    want = rate(record, priors, PlackettLuce())
    autumn = {
        int(r[0]): (float(r[1]), float(r[2]))
        for r in await store.db.fetchall(
            "SELECT player_id, mu, sigma FROM season_ratings WHERE season = 'season:2026-10'"
        )
    }
    assert autumn[12] == pytest.approx(want[(12, 0)])
    assert autumn[11] == pytest.approx(want[(11, 1)])
    # The all-time ratings went on from where they were, not from the reset.
    now = {
        int(r[0]): float(r[1])
        for r in await store.db.fetchall(
            "SELECT player_id, mu FROM record_ratings WHERE family = 'two-player'"
        )
    }
    assert now[11] < before[11][0] and now[11] > autumn[11][0]
    board = await seasons.board(least=1, scope=GUILD, bucket="draw")
    assert board.period.key == "season:2026-10" and board.number == 4
    assert [r.player_id for r in board.rows] == [12, 11]
    assert board.rows[0].rating == pytest.approx(ordinal(*autumn[12]))


async def test_the_season_board_lists_people_who_played_it_and_may_be_listed(
    records: Records, seasons: Seasons, store: Store
) -> None:
    await game(records, 1, 11, 12, at(2026, 10))
    await game(records, 2, 13, -3, at(2026, 10, 11))  # against a computer: 13 is listed
    await game(records, 3, 14, 15, at(2026, 10, 12), rated=False)  # practice: nobody
    await game(records, 4, 16, 17, at(2026, 10, 12), guild_id=OTHER)
    await game(records, 5, 18, 19, at(2026, 9, 12))  # last season
    board = await seasons.board(least=1, scope=GUILD, bucket="two-player", viewer_id=12)
    assert [r.player_id for r in board.rows] == [11, 13, 12]
    assert [r.place for r in board.rows] == [1, 1, 3]  # equal season ratings share a place
    assert board.viewer is not None and board.viewer.place == 3
    everywhere = await seasons.board(least=1, scope=GLOBAL, bucket="all")  # 'all': the partnership
    assert everywhere.family == "partnership" and everywhere.rows == ()
    everywhere = await seasons.board(least=1, scope=GLOBAL, bucket="two-player")
    assert {r.player_id for r in everywhere.rows} == {11, 12, 13, 16, 17}
    await records.set_privacy(11, GUILD, True)
    assert 11 not in [r.player_id for r in (await seasons.board(least=1, scope=GUILD)).rows]
    drawn = await seasons.board(least=1, scope=GLOBAL, bucket="draw")
    assert 11 in [r.player_id for r in drawn.rows]
    await forget_person(records, 12)
    for table in ("season_lines", "season_ratings"):
        left = await store.db.fetchval(f"SELECT count(*) FROM {table} WHERE player_id = 12")
        assert left == 0
    second = await seasons.board(least=1, scope=GLOBAL, bucket="draw", page=1, per_page=2)
    assert second.page == 1 and second.pages == 2 and len(second.rows) == 2
    with pytest.raises(ValueError):
        await seasons.board(least=1, scope=GUILD, bucket="no-such-game")


async def test_the_current_place_and_the_best_past_finish(
    records: Records, seasons: Seasons, clock: FakeClock
) -> None:
    await game(records, 1, 11, 12, at(2026, 4))  # season 2: 11 first, 12 second
    await game(records, 2, 12, 11, at(2026, 8))  # season 3: 12 first, 11 second
    await game(records, 3, 13, 12, at(2026, 10))  # season 4 (now): 12 second
    assert await seasons.rank_ended() == 4  # the last season's four families, once
    assert await seasons.rank_ended() == 0
    now = await seasons.standing(12)
    assert [(f.number, f.family, f.place, f.total) for f in now] == [(4, "two-player", 2, 2)]
    best = await seasons.best_finish(12)
    assert best is not None and (best.number, best.place, best.total) == (3, 1, 2)
    best = await seasons.best_finish(11)
    assert best is not None and (best.number, best.place) == (2, 1)
    assert await seasons.best_finish(13) is None  # only the season that runs
    podium = await seasons.podium(seasons.calendar.season(3), GLOBAL)
    assert [r.player_id for r in podium["two-player"]] == [12, 11]
    # Our decision: a past season's places are ranked once and kept; forgetting someone later
    # deletes his finishes and moves nobody else's.
    await forget_person(records, 11)
    best = await seasons.best_finish(12)
    assert best is not None and (best.number, best.place, best.total) == (3, 1, 2)
    assert await seasons.best_finish(11) is None


async def test_a_seasons_end_is_owed_at_its_months_end(
    store: Store, clock: FakeClock
) -> None:
    boards = PeriodBoards(store, clock=clock)
    chosen = await boards.set_channel(GUILD, 500, by=1)
    assert chosen.due_at > clock.now
    clock.now = first(2027, 1) + 5  # a Friday: the month and the season end, not a week
    owed = await boards.owed(GUILD, first(2027, 1))
    assert [p.key for p in owed] == ["month:2026-12", "season:2026-10"]
    await boards.mark_posted(GUILD, owed[1], 500, 9)
    assert [p.key for p in await boards.owed(GUILD, first(2027, 1))] == ["month:2026-12"]
