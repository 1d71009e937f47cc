"""Inactivity: uncertainty grows per idle week (capped), boards rank by the decayed ordinal,
idle players are left off a server's boards until they play again."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.records.inactivity import (
    DEFAULT_IDLE_WEEKS,
    START_SIGMA,
    WEEK,
    Inactivity,
    decayed_sigma,
    idle_weeks,
)
from bot.records.rating import display_ordinal, ordinal
from bot.records.record import GLOBAL
from bot.records.service import Records
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import duel

GUILD = 1


@pytest.fixture
def records(store: Store, clock: FakeClock) -> Records:
    return Records(store, clock=clock)


@pytest.fixture
def inactivity(store: Store, clock: FakeClock) -> Inactivity:
    return Inactivity(store, clock=clock)


@given(st.floats(0.5, 12.0), st.integers(0, 200), st.integers(0, 200))
def test_sigma_grows_with_idle_weeks_up_to_its_start(sigma: float, a: int, b: int) -> None:
    # Our decision: each idle week adds (start sigma / 4)² to sigma², never past the start.
    low, high = sorted((a, b))
    assert decayed_sigma(sigma, 0) == sigma
    assert decayed_sigma(sigma, low) <= decayed_sigma(sigma, high)
    assert decayed_sigma(sigma, high) <= max(sigma, START_SIGMA)
    assert decayed_sigma(sigma, high) >= sigma


def test_the_hand_made_history_of_a_settled_player() -> None:
    assert idle_weeks(0.0, WEEK - 1) == 0 and idle_weeks(0.0, WEEK) == 1
    assert decayed_sigma(2.0, 1) == pytest.approx((4.0 + (START_SIGMA / 4) ** 2) ** 0.5)
    assert decayed_sigma(2.0, 16) == pytest.approx(START_SIGMA)  # a newcomer again
    assert decayed_sigma(2.0, 15) < START_SIGMA


async def record_duel(
    records: Records, clock: FakeClock, table: int, winner: int, loser: int
) -> None:
    await duel(records, table, winner, loser, guild_id=GUILD, at=clock.now - 60)


async def test_the_next_match_starts_from_the_grown_sigma(
    records: Records, store: Store, clock: FakeClock
) -> None:
    await record_duel(records, clock, 1, 11, 12)
    first = await store.db.fetchone(
        "SELECT sigma_after FROM record_entries WHERE table_id = 1 AND player_id = 11"
    )
    clock.advance(3 * WEEK + 10)
    await record_duel(records, clock, 2, 11, 13)
    second = await store.db.fetchone(
        "SELECT sigma_before FROM record_entries WHERE table_id = 2 AND player_id = 11"
    )
    assert second[0] == pytest.approx(decayed_sigma(first[0], 3))


async def test_boards_rank_by_the_decayed_ordinal_and_leave_idle_players_off(
    records: Records, inactivity: Inactivity, store: Store, clock: FakeClock
) -> None:
    await record_duel(records, clock, 1, 11, 12)  # 11 and 21 win alike, 11 three weeks earlier
    clock.advance(2 * WEEK)
    await record_duel(records, clock, 2, 21, 22)
    board = await records.leaderboard(least=1, scope=GUILD, bucket="two-player")
    assert [r.player_id for r in board.rows][:2] == [11, 21]  # equal ratings: the lower id
    changed = await inactivity.sweep()
    assert changed == 2  # 11 and 12: two idle weeks
    board = await records.leaderboard(least=1, scope=GUILD, bucket="two-player")
    assert [r.player_id for r in board.rows][:2] == [21, 11]
    mu, sigma = (await records.repo.ratings([11], "two-player"))[11]
    assert board.rows[1].rating == display_ordinal(ordinal(mu, decayed_sigma(sigma, 2)))
    assert await inactivity.sweep() == 0  # nothing new: idempotent
    # Past the server's idle weeks (4), 11 and 12 leave this server's and the global boards.
    clock.advance(3 * WEEK)
    await inactivity.sweep()
    board = await records.leaderboard(least=1, scope=GUILD, bucket="two-player")
    assert {r.player_id for r in board.rows} == {21, 22}
    assert await inactivity.idle_count(GUILD, "two-player", "rating") == 2
    assert await inactivity.idle_count(GLOBAL, "two-player", "rating") == 2
    # A server that waits 8 weeks shows them again; the global boards keep the default.
    await inactivity.set_idle_weeks(GUILD, 8)
    assert await inactivity.idle_weeks_of(GUILD) == 8
    board = await records.leaderboard(least=1, scope=GUILD, bucket="two-player")
    assert {r.player_id for r in board.rows} == {11, 12, 21, 22}
    await inactivity.set_idle_weeks(GUILD, None)
    assert await inactivity.idle_weeks_of(GUILD) == DEFAULT_IDLE_WEEKS
    # His next match puts him back at once, and his privacy choice is not undone.
    await records.set_privacy(12, GUILD, True)
    await record_duel(records, clock, 3, 11, 12)
    board = await records.leaderboard(least=1, scope=GUILD, bucket="two-player")
    assert {r.player_id for r in board.rows} == {11, 21, 22}
    await inactivity.sweep()
    assert await store.db.fetchval(
        "SELECT hidden FROM record_stats WHERE player_id = 12 AND scope = ? AND bucket = 'all'",
        (GUILD,),
    ) == 1
