"""``python -m bot copy-db``: SQLite → PostgreSQL → SQLite after real matches, checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.records.service import Records
from bot.settings import sqlite_url
from bot.store import Store
from bot.store.schema import describe
from bot.tables.service import TableInfo, TableService
from bot.tools.copydb import CopyError, copy_database, verify_copy
from tests.bot.helpers import FakeClock, make_service

ANA, BEA = 301, 302
GUILD = 1_234_567_890_123_456_789


async def play_to_the_end(service: TableService, clock: FakeClock, table_id: int) -> TableInfo:
    for _ in range(5000):
        t = await service.get(table_id)
        if t.status != "running":
            return t
        clock.advance(service.computer_delay + service.hand_pause)
        await service.tick()
    raise AssertionError("the match never ended")


async def fill(url: str, clock: FakeClock) -> tuple[int, int]:
    """A recorded computer match, a running match with Ana mid-hand, a lobby; their ids."""
    store = await Store.open(url)
    service = make_service(store, clock, seed=11)
    service.add_observer(Records(store, clock=clock))
    try:
        done = await service.create_table(
            host_id=ANA, host_name="Ana", variant="draw", seat_host=False, guild_id=GUILD
        )
        await service.start(done.id, ANA, fill_with_computers=True)
        assert (await play_to_the_end(service, clock, done.id)).status == "finished"
        running = await service.create_table(host_id=ANA, host_name="Ana", variant="partners")
        running = await service.start(running.id, ANA, fill_with_computers=True)
        for _ in range(6):
            clock.advance(service.computer_delay)
            await service.tick()
        await service.create_table(host_id=BEA, host_name="Bea", variant="cuban")
        await service.idle()
        return done.id, running.id
    finally:
        await service.aclose()
        await store.close()


async def dump(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, sorted, floats rounded to what both databases keep."""
    store = await Store.open(url)
    try:
        shapes = await describe(store.driver)
        out: dict[str, list[tuple[object, ...]]] = {}
        for name, shape in shapes.items():
            rows = await store.db.fetchall(f"SELECT {', '.join(sorted(shape.columns))} FROM {name}")
            out[name] = sorted((tuple(r) for r in rows), key=repr)
        return out
    finally:
        await store.close()


async def test_copy_to_postgres_and_back_keeps_everything(
    tmp_path: Path, postgres_databases, clock: FakeClock
) -> None:
    source = sqlite_url(tmp_path / "bot.sqlite3")
    done_id, running_id = await fill(source, clock)
    pg = postgres_databases.create()
    lines: list[str] = []
    report = await copy_database(source, pg, lines.append)
    assert report.matches_replayed == 2
    assert report.rows["actions"] > 20 and report.rows["record_entries"] == 2
    assert report.rows["tables"] == 3 and lines[-1].startswith("Copied ")
    back = sqlite_url(tmp_path / "back.sqlite3")
    await copy_database(pg, back, lines.append)
    original = await dump(source)
    assert await dump(pg) == original
    assert await dump(back) == original

    # The check would notice a wrong copy.
    assert await verify_copy(source, pg) == 2
    store = await Store.open(pg)
    await store.db.execute("UPDATE hand_results SET result = '{}' WHERE table_id = ?", (done_id,))
    await store.close()
    with pytest.raises(CopyError, match=f"match {done_id}: the hand results"):
        await verify_copy(source, pg)
    await verify_copy(source, back)

    # The bot carries on from PostgreSQL: the running match resumes, new tables get new ids.
    store = await Store.open(pg)
    service = make_service(store, clock, seed=11)
    try:
        loaded = {t.id for t in await service.load_open_tables()}
        assert running_id in loaded and done_id not in loaded
        assert (await play_to_the_end(service, clock, running_id)).status == "finished"
        newer = await service.create_table(host_id=BEA, host_name="Bea", variant="draw")
        assert newer.id == 4
    finally:
        await service.aclose()
        await store.close()


async def test_copy_refuses_a_target_that_holds_rows(tmp_path: Path, clock: FakeClock) -> None:
    a, b = sqlite_url(tmp_path / "a.sqlite3"), sqlite_url(tmp_path / "b.sqlite3")
    await fill(a, clock)
    await fill(b, clock)
    before = await dump(b)
    with pytest.raises(CopyError, match="not empty"):
        await copy_database(a, b, lambda _: None)
    assert await dump(b) == before
    with pytest.raises(CopyError, match="same database"):
        await copy_database(a, a, lambda _: None)
    with pytest.raises(CopyError, match="no database"):
        await copy_database(sqlite_url(tmp_path / "missing.sqlite3"), b, lambda _: None)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    asyncio.run(fill(sqlite_url(tmp_path / "a.sqlite3"), FakeClock()))
    code = main(["copy-db", "--from", str(tmp_path / "a.sqlite3"), "--to", str(tmp_path / "b.db")])
    out = capsys.readouterr().out
    assert code == 0 and "tables: 3 rows" in out and "2 matches replay the same" in out
    again = ["copy-db", "--from", str(tmp_path / "a.sqlite3"), "--to", str(tmp_path / "b.db")]
    assert main(again) == 1
    assert "not empty" in capsys.readouterr().out
