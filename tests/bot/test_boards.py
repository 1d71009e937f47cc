"""Periodic leaderboards: the periods, the ranking (wins, then points difference, shared
places), who is listed, the back-fill of the migration and the board channel's deadlines."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.privacy.forget import forget_person
from bot.records.boards import PeriodBoards, post_nonce
from bot.records.periods import next_boundary, period_lines, period_of, places
from bot.records.record import GLOBAL
from bot.records.service import Records
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, hand, human, make_record

GUILD = 77
OTHER = 78


def at(day: int, hour: int = 12, month: int = 11) -> float:
    """A moment of 2026 (November 2026: Monday the 2nd, 9th, 16th, 23rd, 30th)."""
    return dt.datetime(2026, month, day, hour, tzinfo=dt.UTC).timestamp()


async def game(
    records: Records,
    table_id: int,
    winner: int,
    loser: int,
    points: int,
    when: float,
    *,
    guild_id: int | None = GUILD,
    variant: str = "draw",
) -> None:
    """A one-hand match ``winner`` won ``points`` to 0 (a negative loser id: a computer)."""
    seats = [human(winner), computer() if loser < 0 else human(loser)]
    await records.record_match(
        make_record(
            table_id,
            variant,
            seats,
            [hand(1, "domino", 0, 0, [points, 0])],
            winner_side=0,
            guild_id=guild_id,
            started_at=when - 60,
            finished_at=when,
        )
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at(27))


@pytest.fixture
def records(store: Store, clock: FakeClock) -> Records:
    return Records(store, clock=clock)


@pytest.fixture
def boards(store: Store, clock: FakeClock) -> PeriodBoards:
    return PeriodBoards(store, clock=clock)


def test_periods_start_on_monday_and_the_first() -> None:
    # Our decision: weeks run from Monday 00:00 UTC (ISO weeks), months are calendar months.
    week, month = period_of("week", at(27)), period_of("month", at(27))
    assert (week.key, week.start, week.end) == ("week:2026-11-23", at(23, 0), at(30, 0))
    assert (month.key, month.start) == ("month:2026-11", at(1, 0))
    assert month.end == at(1, 0, month=12)
    assert period_of("week", at(23, 0)).key == "week:2026-11-23"  # Monday 00:00 is in it
    assert period_of("week", at(23, 0) - 1).key == "week:2026-11-16"
    assert next_boundary(at(27)) == at(30, 0)
    assert next_boundary(at(30, 1)) == at(1, 0, month=12)  # a month's start on a Tuesday
    assert week.previous().key == "week:2026-11-16"
    lines = period_lines(at(27), [GLOBAL, GUILD], ["all", "two-player", "draw"])
    assert len(lines) == 12 and ("month:2026-11", GUILD, "draw") in lines


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-50, 50)), max_size=30))
def test_equal_wins_and_difference_share_a_place(keys: list[tuple[int, int]]) -> None:
    # A place is one more than the number of people strictly ahead (wins, then difference).
    keys = sorted(keys, reverse=True)
    assert places(keys) == [1 + sum(k > key for k in keys) for key in keys]


async def test_the_week_ranks_by_wins_then_points_difference(
    records: Records, boards: PeriodBoards, store: Store
) -> None:
    # This week (from Monday the 23rd): 11 wins twice, 12 and 13 once each by 100 and 50...
    await game(records, 1, 11, 90, 30, at(24))
    await game(records, 2, 11, 90, 30, at(25))
    await game(records, 3, 12, 90, 100, at(24))
    await game(records, 4, 13, 90, 50, at(26))
    await game(records, 5, 14, 90, 50, at(26))  # ...14 equal to 13: the same place
    await game(records, 6, 15, -3, 200, at(26))  # a win against a computer counts for 15
    await game(records, 7, 16, 90, 100, at(20))  # last week: not this week's
    await game(records, 8, 17, 90, 100, at(26), guild_id=OTHER)  # another server
    page = await boards.board(scope=GUILD, period="week", viewer_id=90)
    assert page.period.key == "week:2026-11-23"
    got = [(r.place, r.player_id, r.wins, r.diff) for r in page.rows]
    assert got[:5] == [(1, 11, 2, 60), (2, 15, 1, 200), (3, 12, 1, 100), (4, 13, 1, 50),
                       (4, 14, 1, 50)]
    assert page.tied
    # The loser is last; computers are never listed.
    assert got[-1][1] == 90 and all(r.player_id > 0 for r in page.rows)
    assert page.viewer is not None and page.viewer.player_id == 90
    assert page.total == 6
    month = await boards.board(scope=GUILD, period="month")
    assert 16 in [r.player_id for r in month.rows]
    everywhere = await boards.board(scope=GLOBAL, period="week")
    assert 17 in [r.player_id for r in everywhere.rows]
    assert 17 not in [r.player_id for r in page.rows]
    # A later page numbers places on from the people ahead of it.
    second = await boards.board(scope=GUILD, period="week", page=1, per_page=4)
    assert [(r.place, r.player_id) for r in second.rows] == [(4, 14), (6, 90)]
    with pytest.raises(ValueError):
        await boards.board(scope=GUILD, period="fortnight")
    with pytest.raises(ValueError):
        await boards.board(scope=GUILD, period="week", bucket="no-such-game")


async def test_who_left_the_boards_or_was_forgotten_is_not_listed(
    records: Records, boards: PeriodBoards, store: Store
) -> None:
    await game(records, 1, 11, 12, 30, at(24))
    await records.set_privacy(11, GUILD, True)
    assert [r.player_id for r in (await boards.board(scope=GUILD, period="week")).rows] == [12]
    assert 11 in [r.player_id for r in (await boards.board(scope=GLOBAL, period="week")).rows]
    await forget_person(records, 12)
    assert (await boards.board(scope=GUILD, period="week")).rows == ()
    left = await store.db.fetchval("SELECT count(*) FROM record_periods WHERE player_id = 12")
    assert left == 0


async def test_the_migration_fills_what_recording_writes(
    records: Records, store: Store
) -> None:
    # Matches recorded before the periodic boards existed get their lines from the migration:
    # the same rows as recording them now writes.
    await game(records, 1, 11, 12, 30, at(29, 23))  # Sunday night: the week of the 23rd
    await game(records, 2, 12, 11, 40, at(30, 0))  # Monday 00:00: the next week
    await game(records, 3, 11, -3, 10, at(1, 5, month=12), guild_id=None)
    await game(records, 4, 13, 11, 10, at(5), variant="partners" if False else "two")
    query = "SELECT * FROM record_periods ORDER BY period, scope, bucket, player_id"
    recorded = [tuple(r) for r in await store.db.fetchall(query)]
    dialect = store.db.dialect
    sql = Path(f"bot/migrations/{dialect}/0800_periods.sql").read_text()
    backfill = sql[sql.index("INSERT INTO record_periods") :]
    await store.db.execute("DELETE FROM record_periods")
    await store.db.execute(backfill)
    assert [tuple(r) for r in await store.db.fetchall(query)] == recorded
    assert {r[0] for r in recorded} == {
        "week:2026-11-23", "week:2026-11-30", "week:2026-11-02", "month:2026-11", "month:2026-12"
    }


async def test_the_board_channel_is_due_each_monday_and_first(
    boards: PeriodBoards, clock: FakeClock
) -> None:
    chosen = await boards.set_channel(GUILD, 500, by=1)
    assert (chosen.channel_id, chosen.due_at) == (500, at(30, 0))
    clock.now = at(30, 0)
    owed = await boards.owed(GUILD, chosen.due_at)
    assert [p.key for p in owed] == ["week:2026-11-23"]
    await boards.mark_posted(GUILD, owed[0], 500, 9)
    assert await boards.owed(GUILD, chosen.due_at) == []
    assert await boards.reschedule(GUILD, chosen.due_at) == at(1, 0, month=12)
    clock.now = at(1, 0, month=12) + 5
    owed = await boards.owed(GUILD, at(1, 0, month=12))
    assert [p.key for p in owed] == ["month:2026-11"]
    assert post_nonce(GUILD, owed[0]) == f"b.{GUILD}.month:2026-11"
    # Days without a process: only the latest week is posted, and the next is the next Monday.
    clock.now = at(16, 3, month=12)
    assert [p.key for p in await boards.owed(GUILD, at(7, 0, month=12))] == ["week:2026-12-07"]
    assert await boards.reschedule(GUILD, at(7, 0, month=12)) == at(21, 0, month=12)
    # Choosing another channel keeps the deadline.
    again = await boards.set_channel(GUILD, 501, by=1)
    assert (again.channel_id, again.due_at) == (501, at(21, 0, month=12))
