"""The all-time boards' sizes the database keeps as it writes the summary lines
(``record_board_sizes``) are exactly what a plain count gives, after any writes of the real
writers (matches, leaving and rejoining boards, idle weeks and the inactivity sweep,
forget-me, a server's data dropped), on both backends; the migration counts the lines
written before it alike; a copy of the database has the same sizes. So are a rating board's
lengths under a minimum of matches (``record_board_short``) and a season board's lengths, with
a minimum or by wins (``season_board_sizes``), and a week's or a month's
(``period_board_sizes``)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.privacy.forget import forget_person
from bot.records.board_sql import MAX_BOARD_MINIMUM, SIZES_KEPT
from bot.records.inactivity import WEEK, Inactivity
from bot.records.periods_store import BOARD as PERIOD_BOARD
from bot.records.record import ALL, GLOBAL
from bot.records.seasons_store import BOARD as SEASON_BOARD
from bot.records.seasons_store import WINS_BOARD as SEASON_WINS_BOARD
from bot.records.service import Records
from bot.records.store import SHORT_KEPT
from bot.settings import sqlite_url
from bot.store import POSTGRES, Store
from bot.store.schema import migrations
from bot.tools.copydb import copy_database
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, hand, human, make_record

GUILDS = (71, 72)
PEOPLE = range(1, 7)
_tables = itertools.count(1)

_duel = st.tuples(
    st.just("duel"),
    st.sampled_from(PEOPLE),
    st.sampled_from([*PEOPLE, None]),  # None: a computer
    st.sampled_from([*GUILDS, None]),
    st.sampled_from(("draw", "two")),
    st.booleans(),  # rated (False: a practice match, no figures)
)
_privacy = st.tuples(
    st.just("privacy"), st.sampled_from(PEOPLE), st.sampled_from((GLOBAL, *GUILDS)), st.booleans()
)
_time = st.tuples(st.just("weeks"), st.integers(1, 6))
_sweep = st.tuples(st.just("sweep"))
_idle_weeks = st.tuples(
    st.just("idle weeks"), st.sampled_from(GUILDS), st.sampled_from((None, 1, 2, 8))
)
_forget = st.tuples(st.just("forget"), st.sampled_from(PEOPLE))
_drop = st.tuples(st.just("drop"), st.sampled_from(GUILDS))
_steps = st.lists(
    st.one_of(_duel, _duel, _duel, _privacy, _time, _sweep, _idle_weeks, _forget, _drop),
    max_size=25,
)


async def _apply(store: Store, clock: FakeClock, steps: list[tuple[Any, ...]]) -> None:
    """The steps, through the real writers."""
    records, inactivity = Records(store, clock=clock), Inactivity(store, clock=clock)
    for step in steps:
        kind = step[0]
        if kind == "duel":
            _, person, other, guild, variant, rated = step
            if other == person:
                continue
            seats = [human(person), human(other) if other is not None else computer("easy")]
            at = clock.now - 60
            record = make_record(
                next(_tables),
                variant,
                seats,
                [hand(1, "domino", 0, 0, [100, 0])],
                winner_side=0,
                guild_id=guild,
                started_at=at - 600,
                finished_at=at,
            )
            await records.record_match(record, rated=rated)
        elif kind == "privacy":
            await records.set_privacy(step[1], step[2], step[3])
        elif kind == "weeks":
            clock.advance(step[1] * WEEK)
        elif kind == "sweep":
            await inactivity.sweep()
        elif kind == "idle weeks":
            await inactivity.set_idle_weeks(step[1], step[2])
        elif kind == "forget":
            await forget_person(records, step[1])
        elif kind == "drop":
            await records.guild_left(step[1])
            await records.sweep_departed(grace=-1.0)
            await records.guild_back(step[1])


async def _plain(
    store: Store, scope: int, bucket: str, hidden: int, rated: bool, least: int = 1
) -> int:
    """People's lines of a board with ``hidden`` (0: listed, 2: idle) and at least ``least``
    matches, by a plain count."""
    value = await store.db.fetchval(
        "SELECT count(*) FROM record_stats WHERE scope = ? AND bucket = ? AND hidden = ?"
        " AND player_id > 0 AND matches >= ?" + (" AND rating IS NOT NULL" if rated else ""),
        (scope, bucket, hidden, least),
    )
    return int(value)


_COUNTED = (
    "SELECT scope, bucket, sum(CASE WHEN hidden = 0 THEN 1 ELSE 0 END),"
    " sum(CASE WHEN hidden = 0 AND rating IS NOT NULL THEN 1 ELSE 0 END),"
    " sum(CASE WHEN hidden = 2 THEN 1 ELSE 0 END),"
    " sum(CASE WHEN hidden = 2 AND rating IS NOT NULL THEN 1 ELSE 0 END)"
    " FROM record_stats WHERE player_id > 0 AND hidden IN (0, 2)"
    " GROUP BY scope, bucket ORDER BY scope, bucket"
)
_KEPT = (
    "SELECT scope, bucket, listed, listed_rated, idle, idle_rated FROM record_board_sizes"
    " ORDER BY scope, bucket"
)


_SHORT_KEPT = "SELECT scope, bucket, matches, lines FROM record_board_short ORDER BY 1, 2, 3"
_SHORT_COUNTED = (
    "SELECT scope, bucket, matches, count(*) FROM record_stats WHERE player_id > 0"
    f" AND hidden = 0 AND rating IS NOT NULL AND matches < {SHORT_KEPT}"
    " GROUP BY scope, bucket, matches ORDER BY 1, 2, 3"
)


async def _rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    return [(int(r[0]), r[1], *(int(v) for v in r[2:])) for r in await store.db.fetchall(sql)]


async def _check(store: Store) -> None:
    """Every board's size and idle count as a plain count gives; the table holds one row per
    board with something to count, nothing else."""
    records, inactivity = Records(store), Inactivity(store)
    for scope in (GLOBAL, *GUILDS):
        for bucket in (ALL, "two-player", "draw", "two", "partnership"):
            for by in ("rating", "wins"):
                rated = by == "rating"
                size = await records.repo.leaderboard_size(scope, bucket, by)
                assert size == await _plain(store, scope, bucket, 0, rated), (scope, bucket, by)
                for least in (2, 3, MAX_BOARD_MINIMUM) if rated else ():
                    size = await records.repo.leaderboard_size(scope, bucket, by, least)
                    plain = await _plain(store, scope, bucket, 0, rated, least)
                    assert size == plain, (scope, bucket, least)
                idle = await inactivity.idle_count(scope, bucket, by)
                assert idle == await _plain(store, scope, bucket, 2, rated), (scope, bucket, by)
    assert await _rows(store, _KEPT) == await _rows(store, _COUNTED)
    assert await _rows(store, _SHORT_KEPT) == await _rows(store, _SHORT_COUNTED)
    await _check_seasons(store)


_SEASON_KEPT = (
    "SELECT season, scope, family, matches, lines FROM season_board_sizes ORDER BY 1, 2, 3, 4"
)
_SEASON_COUNTED = (
    f"SELECT season, scope, family, CASE WHEN matches < {SIZES_KEPT} THEN matches"
    f" ELSE {SIZES_KEPT} END AS m, count(*) FROM season_lines WHERE hidden = 0"
    " GROUP BY season, scope, family, m ORDER BY 1, 2, 3, 4"
)


async def _check_seasons(store: Store) -> None:
    """Every season board's length, by rating with a minimum and by wins, as a plain count of
    its listed lines gives; the kept rows are those of a plain count, nothing else."""
    boards = await store.db.fetchall("SELECT DISTINCT season, scope, family FROM season_lines")
    for season, scope, family in boards:
        key = (season, int(scope), family)
        for least in (1, 2, 3, SIZES_KEPT):
            plain = await store.db.fetchval(
                "SELECT count(*) FROM season_lines WHERE season = ? AND scope = ?"
                " AND family = ? AND hidden = 0 AND matches >= ?",
                (*key, least),
            )
            assert await SEASON_BOARD.size(store.db, key, least=least) == plain, (key, least)
        everyone = await store.db.fetchval(
            "SELECT count(*) FROM season_lines WHERE season = ? AND scope = ? AND family = ?"
            " AND hidden = 0",
            key,
        )
        assert await SEASON_WINS_BOARD.size(store.db, key) == everyone, key
    kept = [(r[0], int(r[1]), r[2], int(r[3]), int(r[4])) for r in
            await store.db.fetchall(_SEASON_KEPT)]
    counted = [(r[0], int(r[1]), r[2], int(r[3]), int(r[4])) for r in
               await store.db.fetchall(_SEASON_COUNTED)]
    assert kept == counted
    periods = await store.db.fetchall("SELECT DISTINCT period, scope, bucket FROM record_periods")
    for period, scope, bucket in periods:
        key = (period, int(scope), bucket)
        plain = await store.db.fetchval(
            "SELECT count(*) FROM record_periods WHERE period = ? AND scope = ? AND bucket = ?"
            " AND hidden = 0",
            key,
        )
        assert await PERIOD_BOARD.size(store.db, key) == plain, key
    kept = [(r[0], int(r[1]), r[2], int(r[3])) for r in await store.db.fetchall(
        "SELECT period, scope, bucket, lines FROM period_board_sizes ORDER BY 1, 2, 3")]
    counted = [(r[0], int(r[1]), r[2], int(r[3])) for r in await store.db.fetchall(
        "SELECT period, scope, bucket, count(*) FROM record_periods WHERE hidden = 0"
        " GROUP BY period, scope, bucket ORDER BY 1, 2, 3")]
    assert kept == counted


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=_steps)
@example(
    steps=[
        ("duel", 1, 2, GUILDS[0], "draw", True),
        ("duel", 3, None, GUILDS[1], "two", True),
        ("privacy", 1, GUILDS[0], True),
        ("weeks", 5),
        ("duel", 4, 2, GUILDS[1], "draw", False),
        ("sweep",),
        ("privacy", 1, GUILDS[0], False),
        ("idle weeks", GUILDS[0], 8),
        ("duel", 3, 4, None, "two", True),
        ("forget", 2),
        ("drop", GUILDS[1]),
    ]
)
async def test_board_sizes_are_a_plain_count_after_any_writes(
    store: Store, steps: list[tuple[Any, ...]]
) -> None:
    await _apply(store, FakeClock(), steps)
    await _check(store)


def test_every_minimum_a_server_may_set_is_kept() -> None:
    assert MAX_BOARD_MINIMUM <= SHORT_KEPT
    assert MAX_BOARD_MINIMUM <= SIZES_KEPT
    for dialect in ("sqlite", POSTGRES):
        sql = next(s for v, _, s in migrations(dialect) if v == 947)
        assert f"(matches, {SIZES_KEPT})" in sql


async def test_a_season_board_of_many_matches_is_counted_once(store: Store) -> None:
    """Matches past the kept count (50) still count a line once, on each minimum."""
    clock = FakeClock()
    await _apply(store, clock, [("duel", 1, 2, GUILDS[0], "draw", True)] * (SIZES_KEPT + 2))
    await _apply(store, clock, [("duel", 3, 1, GUILDS[0], "draw", True), ("privacy", 2, GLOBAL,
                                                                          True)])
    await _check(store)
    rows = await store.db.fetchall(
        "SELECT matches, lines FROM season_board_sizes WHERE scope = ? ORDER BY matches",
        (GUILDS[0],),
    )
    assert [(int(m), int(n)) for m, n in rows] == [(1, 1), (SIZES_KEPT, 2)]


async def test_a_leaderboard_pages_by_the_kept_size(store: Store) -> None:
    """The page count and the last page come from the kept size."""
    clock = FakeClock()
    steps: list[tuple[Any, ...]] = [
        ("duel", winner, loser, GUILDS[0], "draw", True)
        for winner, loser in ((1, 2), (3, 4), (5, 6), (1, 3))
    ]
    await _apply(store, clock, [*steps, ("privacy", 2, GUILDS[0], True)])
    board = await Records(store).leaderboard(
        least=1,
        scope=GUILDS[0], bucket="two-player", page=9, per_page=2
    )
    assert (board.total, board.pages, board.page) == (5, 3, 2)
    assert [r.place for r in board.rows] == [5]


async def _drop_sizes(
    store: Store, kept: str = "record_board_sizes", lines: str = "record_stats"
) -> None:
    """Remove what a sizes' migration made: the table ``kept`` and its triggers on
    ``lines``."""
    async with store.transaction() as tx:
        for trigger in ("insert", "update", "delete"):
            on = f" ON {lines}" if store.dialect == POSTGRES else ""
            await tx.db.execute(f"DROP TRIGGER {kept}_{trigger}{on}")
        if store.dialect == POSTGRES:
            await tx.db.execute(f"DROP FUNCTION {kept}_written()")
        await tx.db.execute(f"DROP TABLE {kept}")


async def test_the_migration_counts_the_lines_written_before_it(store: Store) -> None:
    clock = FakeClock()
    steps: list[tuple[Any, ...]] = [
        ("duel", 1, 2, GUILDS[0], "draw", True),
        ("duel", 3, None, GUILDS[1], "two", True),
        ("weeks", 5),
        ("duel", 4, 5, None, "draw", True),
        ("sweep",),
        ("privacy", 4, GLOBAL, True),
    ]
    await _apply(store, clock, steps)
    await _drop_sizes(store)
    await _apply(store, clock, [("duel", 6, 1, GUILDS[0], "two", True)])  # not counted
    for sql in [s for v, _, s in migrations(store.dialect) if v in (821, 822)]:
        async with store.transaction() as tx:
            await tx.db.run_script(sql)
    assert await _rows(store, _KEPT) and await _rows(store, _KEPT) == await _rows(store, _COUNTED)
    await _apply(store, clock, [("duel", 2, 6, GUILDS[1], "draw", True), ("forget", 1)])
    await _check(store)


@pytest.mark.parametrize("database_url", [POSTGRES], indirect=True)
async def test_a_copy_of_the_database_has_the_same_sizes(database_url: str, tmp_path: Any) -> None:
    """SQLite to PostgreSQL: the target's triggers count the lines as they arrive."""
    source = await Store.open(sqlite_url(tmp_path / "source.sqlite3"))
    try:
        clock = FakeClock()
        await _apply(
            source,
            clock,
            [
                ("duel", 1, 2, GUILDS[0], "draw", True),
                ("duel", 3, None, None, "two", True),
                ("weeks", 5),
                ("sweep",),
                ("duel", 4, 5, GUILDS[1], "draw", True),
                ("privacy", 5, GUILDS[1], True),
            ],
        )
        expected = await _rows(source, _KEPT)
    finally:
        await source.close()
    await copy_database(sqlite_url(tmp_path / "source.sqlite3"), database_url, say=print)
    target = await Store.open(database_url)
    try:
        assert expected and await _rows(target, _KEPT) == expected
        await _check(target)
    finally:
        await target.close()



@pytest.mark.parametrize(
    ("version", "kept", "lines"),
    [(947, "season_board_sizes", "season_lines"), (948, "period_board_sizes", "record_periods")],
)
async def test_the_season_and_period_sizes_migrations_count_the_lines_written_before_them(
    store: Store, version: int, kept: str, lines: str
) -> None:
    clock = FakeClock()
    before: list[tuple[Any, ...]] = [
        ("duel", 1, 2, GUILDS[0], "draw", True),
        ("duel", 1, 3, GUILDS[0], "draw", True),
        ("duel", 3, None, GUILDS[1], "two", True),
        ("privacy", 2, GUILDS[0], True),
    ]
    await _apply(store, clock, before)
    await _drop_sizes(store, kept, lines)
    await _apply(store, clock, [("duel", 4, 1, None, "two", True)])  # not counted
    async with store.transaction() as tx:
        await tx.db.run_script(next(s for v, _, s in migrations(store.dialect) if v == version))
    assert await store.db.fetchval(f"SELECT count(*) FROM {kept}")
    await _apply(store, clock, [("duel", 2, 4, GUILDS[1], "draw", True), ("forget", 1)])
    await _check(store)


async def test_the_entries_with_their_opt_outs_are_those_of_the_privacy_rows(store: Store) -> None:
    """What the pages read in one statement (each participant, with whether he left the
    boards of the given scopes) is what the entries and the privacy rows say apart."""
    clock = FakeClock()
    await _apply(store, clock, [
        ("duel", 1, 2, GUILDS[0], "draw", True),
        ("duel", 3, None, GUILDS[0], "two", True),
        ("duel", 4, 1, GUILDS[1], "draw", True),
        ("privacy", 1, GUILDS[0], True),
        ("privacy", 3, GLOBAL, True),
        ("privacy", 4, GUILDS[0], True),
    ])
    repo = Records(store).repo
    tables = [int(r[0]) for r in await store.db.fetchall(
        "SELECT DISTINCT table_id FROM record_entries ORDER BY table_id")]
    assert len(tables) == 3
    for scopes in ((GLOBAL, GUILDS[0]), (GLOBAL, GUILDS[1]), (GUILDS[0],)):
        found = await repo.entries_left(tables, scopes)
        entries = await repo.entries_of(tables)
        hidden = await repo.hidden_scopes([e.player_id for e in entries])
        assert [e for e, _ in found] == entries
        assert [left for _, left in found] == [
            bool(hidden.get(e.player_id, set()) & set(scopes)) for e in entries
        ], scopes
        assert any(left for _, left in found)
