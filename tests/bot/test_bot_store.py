"""The SQLite store: migrations, pragmas, repositories and the optimistic version check."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.errors import StaleAction
from bot.store import SeatRow, Store, migrations


@pytest.fixture
async def store(tmp_path: Path):
    s = await Store.open(tmp_path / "db" / "t.sqlite3")
    yield s
    await s.close()


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "new" / "fresh.sqlite3"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert await store.schema_version() == migrations()[-1][0] >= 1
        names = {
            r[0]
            for r in sqlite3.connect(path).execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        assert {
            "tables",
            "seats",
            "matches",
            "actions",
            "hand_results",
            "players",
            "schema_version",
        } <= names
    finally:
        await store.close()


async def test_reopen_keeps_data_and_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = await Store.open(path)
    table = await store.tables.create(
        host_id=1, variant="partners", options={"target": 50}, now=1.0
    )
    await store.close()

    store = await Store.open(path)
    try:
        assert await store.schema_version() == migrations()[-1][0]
        rows = sqlite3.connect(path).execute("SELECT count(*) FROM schema_version").fetchone()
        assert rows[0] == len(migrations())
        again = await store.tables.get(table.id)
        assert again == table
    finally:
        await store.close()


async def test_pragmas(store: Store) -> None:
    assert (await store.pragma("journal_mode")).lower() == "wal"
    assert await store.pragma("foreign_keys") == 1
    assert await store.pragma("busy_timeout") >= 1000


def test_migrations_are_numbered_from_one() -> None:
    versions = [v for v, _, _ in migrations()]
    assert versions[0] == 1
    assert versions == sorted(set(versions))


async def test_table_and_seat_rows_round_trip(store: Store) -> None:
    t = await store.tables.create(
        host_id=7,
        variant="draw",
        options={},
        now=5.0,
        guild_id=3,
        channel_id=4,
        turn_timer=60,
        locale="es",
    )
    await store.tables.set_messages(t.id, now=6.0, message_id=99, thread_id=55)
    got = await store.tables.get(t.id)
    assert got is not None
    assert (got.message_id, got.thread_id, got.lobby_message_id, got.updated_at) == (
        99,
        55,
        None,
        6.0,
    )
    await store.tables.set_status(t.id, "running", now=7.0)
    assert [r.id for r in await store.tables.list_by_status("running")] == [t.id]
    with pytest.raises(ValueError):
        await store.tables.set_status(t.id, "sleeping", now=8.0)

    await store.seats.put(SeatRow(t.id, 0, 7, "Ana", "human"))
    await store.seats.put(SeatRow(t.id, 1, None, "Computer", "computer", "easy"))
    await store.seats.set_timeouts(t.id, [0], 2)
    await store.seats.hand_to_computer(t.id, [0], "normal")
    seats = await store.seats.list(t.id)
    assert seats[0] == SeatRow(t.id, 0, 7, "Ana", "computer", "normal", 2)
    await store.seats.remove(t.id, [1])
    assert len(await store.seats.list(t.id)) == 1


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await store.seats.put(SeatRow(12345, 0, 1, "Nobody", "human"))


async def _table_with_match(store: Store) -> int:
    t = await store.tables.create(host_id=1, variant="partners", options={}, now=1.0)
    await store.matches.create(t.id, ruleset={"id": "partners"}, seed=42, now=2.0)
    return t.id


async def test_action_log_append_and_duplicate_seq_is_stale(store: Store) -> None:
    tid = await _table_with_match(store)
    await store.actions.append(tid, 0, 0, "play 6-6", now=3.0)
    await store.actions.append(tid, 1, 1, "pass", now=4.0)
    with pytest.raises(StaleAction):
        await store.actions.append(tid, 1, 2, "play 1-2 left", now=5.0)
    log = await store.actions.list(tid)
    assert [(a.seq, a.seat, a.action) for a in log] == [(0, 0, "play 6-6"), (1, 1, "pass")]
    assert await store.actions.count(tid) == 2


async def test_action_log_is_append_only(store: Store) -> None:
    tid = await _table_with_match(store)
    await store.actions.append(tid, 0, 0, "pass", now=3.0)
    conn = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE actions SET action = 'draw'")


async def test_racing_appends_apply_exactly_one(store: Store) -> None:
    tid = await _table_with_match(store)
    results = await asyncio.gather(
        *(store.actions.append(tid, 0, s, "pass", now=3.0) for s in range(5)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StaleAction) for r in results if r is not None)


async def test_two_connections_race_on_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    a = await Store.open(path)
    b = await Store.open(path)
    try:
        tid = await _table_with_match(a)
        results = await asyncio.gather(
            a.actions.append(tid, 0, 0, "pass", now=3.0),
            b.actions.append(tid, 0, 1, "draw", now=3.0),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleAction"]
        assert await a.actions.count(tid) == 1
    finally:
        await a.close()
        await b.close()


async def test_transaction_rolls_back_everything_on_error(store: Store) -> None:
    tid = await _table_with_match(store)
    with pytest.raises(StaleAction):
        async with store.transaction() as tx:
            await tx.actions.append(tid, 0, 0, "pass", now=3.0)
            await tx.hand_results.add(tid, 1, {"kind": "block"})
            await tx.actions.append(tid, 0, 0, "pass", now=3.0)
    assert await store.actions.count(tid) == 0
    assert await store.hand_results.list(tid) == []


async def test_match_finish_and_hand_results(store: Store) -> None:
    tid = await _table_with_match(store)
    async with store.transaction() as tx:
        await tx.hand_results.add(tid, 1, {"points": [0, 31]})
        await tx.matches.finish(tid, now=9.0, outcome={"winner_side": 1})
    m = await store.matches.get(tid)
    assert m is not None and m.outcome == {"winner_side": 1} and m.finished_at == 9.0
    assert (await store.hand_results.list(tid))[0].result == {"points": [0, 31]}


async def test_players_upsert_keeps_locale(store: Store) -> None:
    await store.players.upsert(5, "Ana", now=1.0, locale="es")
    await store.players.upsert(5, "Ana María", now=2.0)
    p = await store.players.get(5)
    assert p is not None and (p.name, p.locale) == ("Ana María", "es")
