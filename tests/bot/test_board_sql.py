"""The week's, month's and season's boards read through the board's index (who left a scope's
boards copied onto his lines) give exactly what a plain query gives: the same people, order,
places, sizes and viewer's place, on random small stores, on both backends."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.records.boards import PeriodBoards
from bot.records.periods import period_of
from bot.records.periods_store import PeriodRepo
from bot.records.record import ALL, GLOBAL
from bot.records.seasons_service import Seasons
from bot.records.seasons_store import SeasonRepo
from bot.records.store import RecordsRepo
from bot.store import Store

GUILD = 77
WHEN = dt.datetime(2026, 11, 18, 12, tzinfo=dt.UTC).timestamp()
FAMILY = "partnership"
PEOPLE = range(1, 9)
SCOPES = (GLOBAL, GUILD)

# A match of a person in a scope: (result, points for, points against, season rating); or a
# person leaving (True) or rejoining (False) a scope's boards. Few values: many ties.
_play = st.tuples(
    st.just("play"),
    st.sampled_from(PEOPLE),
    st.sampled_from(SCOPES),
    st.sampled_from(("win", "loss", "draw")),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from((-1.5, 0.0, 0.5, 3.25)),
)
_privacy = st.tuples(
    st.just("privacy"), st.sampled_from(PEOPLE), st.sampled_from(SCOPES), st.booleans()
)


async def _apply(store: Store, steps: list[tuple[Any, ...]]) -> None:
    """The steps through the real writers, on an emptied store."""
    for table in ("record_periods", "season_lines", "record_privacy", "record_players"):
        await store.db.execute(f"DELETE FROM {table}")
    week = period_of("week", WHEN).key
    season = Seasons(store).current(WHEN).key
    for step in steps:
        async with store.transaction() as tx:
            if step[0] == "privacy":
                _, person, scope, hidden = step
                await RecordsRepo(tx.db).set_hidden(person, scope, hidden, now=WHEN)
                continue
            _, person, scope, result, points_for, points_against, rating = step
            await RecordsRepo(tx.db).put_player(person, f"p{person}", "human", now=WHEN)
            await PeriodRepo(tx.db).add(
                person,
                [(week, scope, ALL)],
                result=result,
                points_for=points_for,
                points_against=points_against,
                at=WHEN,
            )
            await SeasonRepo(tx.db).add_line(
                season, FAMILY, person, [scope], result=result, rating=rating, at=WHEN
            )


async def _plain(store: Store, sql: str, key: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every listed line of a board by a plain query: (player, figures...), ranked, each
    with its place (1 + how many have better figures)."""
    rows = [tuple(r) for r in await store.db.fetchall(sql, key)]
    return [(*r, 1 + sum(o[1:] > r[1:] for o in rows)) for r in rows]


_PERIOD = (
    "SELECT r.player_id, r.wins, r.diff FROM record_periods r WHERE r.period = ?"
    " AND r.scope = ? AND r.bucket = 'all' AND NOT EXISTS (SELECT 1 FROM record_privacy v"
    " WHERE v.user_id = r.player_id AND v.scope = r.scope)"
    " ORDER BY r.wins DESC, r.diff DESC, r.player_id"
)
_SEASON = (
    "SELECT r.player_id, r.rating FROM season_lines r WHERE r.season = ? AND r.scope = ?"
    " AND r.family = ? AND NOT EXISTS (SELECT 1 FROM record_privacy v"
    " WHERE v.user_id = r.player_id AND v.scope = r.scope) ORDER BY r.rating DESC, r.player_id"
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.one_of(_play, _play, _privacy), max_size=30), per_page=st.integers(1, 4))
async def test_boards_match_a_plain_query(
    store: Store, steps: list[tuple[Any, ...]], per_page: int
) -> None:
    await _apply(store, steps)
    boards, seasons = PeriodBoards(store), Seasons(store)
    week, season = period_of("week", WHEN), seasons.current(WHEN)
    for scope in SCOPES:
        expected_week = await _plain(store, _PERIOD, (week.key, scope))
        expected_season = await _plain(store, _SEASON, (season.key, scope, FAMILY))
        pages = max(1, -(-len(expected_week) // per_page))
        got_week: list[tuple[Any, ...]] = []
        got_season: list[tuple[Any, ...]] = []
        for page in range(pages + 1):  # one past the last: clamped to the last
            board = await boards.board(
                scope=scope, period=week, page=page, per_page=per_page
            )
            assert (board.total, board.pages) == (len(expected_week), pages)
            assert board.page == min(page, pages - 1)
            if page < pages:
                got_week += [(r.player_id, r.wins, r.diff, r.place) for r in board.rows]
            sboard = await seasons.board(
                least=1,
                scope=scope, bucket=FAMILY, period=season, page=page, per_page=per_page
            )
            assert sboard.total == len(expected_season)
            if page < sboard.pages:
                got_season += [(r.player_id, r.rating, r.place) for r in sboard.rows]
        assert got_week == expected_week
        assert got_season == expected_season
        for person in PEOPLE:
            mine = [r[-1] for r in expected_week if r[0] == person]
            viewer = (await boards.board(scope=scope, period=week, viewer_id=person)).viewer
            assert ([viewer.place] if viewer else []) == mine
            mine = [r[-1] for r in expected_season if r[0] == person]
            sviewer = (
                await seasons.board(
                    least=1, scope=scope, bucket=FAMILY, period=season, viewer_id=person
                )
            ).viewer
            assert ([sviewer.place] if sviewer else []) == mine
