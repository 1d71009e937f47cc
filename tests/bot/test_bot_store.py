"""The store on both backends: migrations, repositories and the optimistic version check."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.errors import StaleAction
from bot.settings import sqlite_url
from bot.store import (
    POSTGRES,
    SQLITE,
    DatabaseUnavailable,
    IntegrityError,
    SeatRow,
    Store,
    migrations,
)
from bot.store.connection import SqliteDriver, numbered_placeholders
from bot.store.schema import DIALECTS

SERVICE_TABLES = {"tables", "seats", "matches", "actions", "hand_results", "players"}


async def table_names(store: Store) -> set[str]:
    if store.dialect == SQLITE:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    return {r[0] for r in await store.db.fetchall(sql)}


@pytest.fixture(params=[SQLITE, POSTGRES])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with nothing in it yet (a SQLite file in a folder that does not exist)."""
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "new" / "fresh.sqlite3")
    return request.getfixturevalue("postgres_databases").create()


async def test_fresh_database_gets_every_migration(empty_database: str) -> None:
    store = await Store.open(empty_database)
    try:
        if store.path is not None:
            assert store.path.exists()
        assert await store.schema_version() == migrations(store.dialect)[-1][0] >= 1
        assert SERVICE_TABLES | {"schema_version"} <= await table_names(store)
        versions = [r[0] for r in await store.db.fetchall("SELECT version FROM schema_version")]
        assert sorted(versions) == [v for v, _, _ in migrations(store.dialect)]
    finally:
        await store.close()


async def test_two_processes_migrating_at_once_apply_each_migration_once(
    empty_database: str,
) -> None:
    stores = await asyncio.gather(*(Store.open(empty_database) for _ in range(3)))
    try:
        rows = await stores[0].db.fetchall("SELECT version FROM schema_version")
        assert sorted(r[0] for r in rows) == [v for v, _, _ in migrations(stores[0].dialect)]
    finally:
        for s in stores:
            await s.close()


async def test_many_connections_opening_a_new_sqlite_file_at_once_all_open(
    tmp_path: Path,
) -> None:
    """Switching a new file to WAL is refused at once, not after the busy timeout, when another
    connection opens it at the same moment (about 1 round in 20 with 4 connections)."""
    for round_ in range(40):
        path = tmp_path / f"r{round_}.sqlite3"
        drivers = await asyncio.gather(*(SqliteDriver.open(path) for _ in range(6)))
        try:
            for driver in drivers:
                assert str(await driver.db.fetchval("PRAGMA journal_mode")).lower() == "wal"
        finally:
            for driver in drivers:
                await driver.close()


async def test_reopen_keeps_data_and_applies_nothing_twice(database_url: str) -> None:
    store = await Store.open(database_url)
    table = await store.tables.create(
        host_id=1, variant="partners", options={"target": 50}, now=1.0
    )
    await store.close()

    store = await Store.open(database_url)
    try:
        assert await store.schema_version() == migrations(store.dialect)[-1][0]
        rows = await store.db.fetchval("SELECT count(*) FROM schema_version")
        assert rows == len(migrations(store.dialect))
        again = await store.tables.get(table.id)
        assert again == table
    finally:
        await store.close()


async def test_sqlite_pragmas(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "t.sqlite3") as store:
        assert (await store.pragma("journal_mode")).lower() == "wal"
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") >= 1000


def test_migrations_are_numbered_from_one_and_the_same_in_every_dialect() -> None:
    """A schema change is one file per dialect, with the same number and name."""
    names = {d: [(v, name) for v, name, _ in migrations(d)] for d in DIALECTS}
    versions = [v for v, _ in names[SQLITE]]
    assert versions[0] == 1
    assert versions == sorted(set(versions))
    assert names[SQLITE] == names[POSTGRES]


def test_placeholders_are_numbered_outside_strings() -> None:
    sql = (
        "SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?) -- why?\n AND c = 'it''s ?' OR d = ?"
    )
    assert numbered_placeholders(sql) == (
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3) -- why?\n"
        " AND c = 'it''s ?' OR d = $4"
    )


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
    with pytest.raises(IntegrityError) as exc:
        await store.seats.put(SeatRow(12345, 0, 1, "Nobody", "human"))
    assert exc.value.kind == "foreign_key"


async def test_discord_ids_and_seeds_keep_all_their_digits(store: Store) -> None:
    snowflake = 1_234_567_890_123_456_789  # Discord ids need 64 bits
    t = await store.tables.create(
        host_id=snowflake, variant="draw", options={}, now=1.5, guild_id=snowflake + 1
    )
    await store.tables.set_messages(t.id, now=2.25, message_id=snowflake + 2)
    await store.matches.create(t.id, ruleset={"id": "draw"}, seed=2**62 - 1, now=3.125)
    got = await store.tables.get(t.id)
    assert got is not None and (got.host_id, got.guild_id, got.message_id) == (
        snowflake,
        snowflake + 1,
        snowflake + 2,
    )
    assert got.updated_at == 2.25
    match = await store.matches.get(t.id)
    assert match is not None and match.seed == 2**62 - 1 and match.started_at == 3.125


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
    with pytest.raises(Exception, match="append-only"):
        await store.db.execute("UPDATE actions SET action = 'draw'")
    assert [a.action for a in await store.actions.list(tid)] == ["pass"]


async def test_racing_appends_apply_exactly_one(store: Store) -> None:
    tid = await _table_with_match(store)
    results = await asyncio.gather(
        *(store.actions.append(tid, 0, s, "pass", now=3.0) for s in range(5)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StaleAction) for r in results if r is not None)


async def test_two_processes_race_on_one_database(database_url: str) -> None:
    """Two stores (as two bot processes): of two writers of the same action, one wins."""
    a = await Store.open(database_url)
    b = await Store.open(database_url)
    try:
        tid = await _table_with_match(a)
        for seq in range(20):

            async def write(store: Store, seat: int, seq: int = seq) -> None:
                async with store.transaction() as tx:
                    await tx.actions.append(tid, seq, seat, f"pass {seat}", now=3.0)
                    await tx.tables.touch(tid, now=4.0)

            results = await asyncio.gather(write(a, 0), write(b, 1), return_exceptions=True)
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleAction"]
        assert await a.actions.count(tid) == 20 == len(await b.actions.list(tid))
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


async def test_postgres_replaces_a_connection_the_server_dropped(postgres_databases) -> None:
    store = await Store.open(postgres_databases.create())
    try:
        with pytest.raises(Exception, match="terminat"):
            await store.db.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        t = await store.tables.create(host_id=1, variant="draw", options={}, now=1.0)
        assert (await store.tables.get(t.id)) == t
    finally:
        await store.close()


async def test_a_database_that_cannot_be_opened_is_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from bot import client
    from bot.settings import Settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there
    url = f"postgresql://bot:hunter2@127.0.0.1:{port}/domino"
    with pytest.raises(DatabaseUnavailable) as exc:
        await Store.open(url)
    assert "hunter2" not in str(exc.value) and f"bot:***@127.0.0.1:{port}" in str(exc.value)
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(DatabaseUnavailable, match="SQLite"):
        await Store.open(tmp_path / "file" / "db.sqlite3")

    def refused(self: object, *args: object, **kwargs: object) -> None:
        raise DatabaseUnavailable(f"cannot open the PostgreSQL database {url}")

    monkeypatch.setattr(client.DominoBot, "run", refused)
    settings = Settings("token", None, None, "INFO", database_url=url)
    assert client.run_bot(settings) == 2
    assert "Check DATABASE_URL" in capsys.readouterr().err


async def test_postgres_connections_say_they_are_the_bot(postgres_databases) -> None:
    async with await Store.open(postgres_databases.create()) as store:
        assert await store.db.fetchval("SHOW application_name") == "domino-bot"
