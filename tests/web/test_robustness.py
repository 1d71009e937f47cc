"""The web companion under bad conditions: a database that is missing, late or down, a flood
from one address, the read-only role of docs/web.md, and permalinks no position has."""

from __future__ import annotations

import asyncio
import gc
import random
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st

from bot.settings import sqlite_path, sqlite_url
from bot.store import DatabaseUnavailable, IntegrityError, Store
from bot.web import queries
from bot.web.app import RateLimiter, create_app
from bot.web.positions import clamp
from bot.web.queries import open_read_only
from bot.web.reader import RETRY_AFTER, Reader
from tests.bot.helpers import FakeClock
from tests.conftest import PostgresDatabases
from tests.web.seed import GUILD, seed

ROOT = Path(__file__).resolve().parents[2]


async def test_a_missing_database_gives_503_pages_until_it_is_there(tmp_path: Path) -> None:
    path = tmp_path / "later.sqlite3"
    clock = FakeClock()
    app = create_app(Reader(sqlite_url(path), clock=clock), rate_limit=0)
    async with TestClient(TestServer(app)) as client:
        for route in (f"/s/{GUILD}", "/m/1", "/health", f"/s/{GUILD}/p/5"):
            response = await client.get(route, headers={"Accept-Language": "pt-BR"})
            body = await response.text()
            assert response.status == 503 and "Páginas indisponíveis" in body
            assert response.headers["Retry-After"] == "30" and "Traceback" not in body
        assert not path.exists()  # the pages never create the bot's database
        store = await Store.open(path)
        await seed(store, duels=3)
        await store.close()
        assert (await client.get(f"/s/{GUILD}")).status == 503  # not tried again at once
        clock.advance(RETRY_AFTER + 0.1)
        assert (await client.get(f"/s/{GUILD}")).status == 200
        # The file goes away under it (a broken disk, a moved database): 503, not a 500.
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        (tmp_path / "later.sqlite3").mkdir()
        response = await client.get(f"/s/{GUILD}?board=two-player&by=wins")
        assert response.status in (200, 503)  # SQLite may still hold the open file


async def test_a_postgresql_server_that_does_not_answer_gives_503() -> None:
    app = create_app(Reader("postgresql://nobody:secret@127.0.0.1:9/none", timeout=2), rate_limit=0)
    async with TestClient(TestServer(app)) as client:
        response = await client.get(f"/s/{GUILD}", headers={"Accept-Language": "es"})
        body = await response.text()
        assert response.status == 503 and "Páginas no disponibles" in body
        assert "secret" not in body


async def test_the_database_is_opened_read_only(database_url: str) -> None:
    store = await Store.open(database_url)
    await seed(store, duels=1)
    await store.close()
    reader = await open_read_only(database_url)
    try:
        with pytest.raises(Exception) as refused:
            await reader.db.execute("UPDATE guild_settings SET web = 0")
        assert not isinstance(refused.value, IntegrityError)
        assert "read" in str(refused.value).lower()  # "readonly" / "read-only transaction"
    finally:
        await reader.close()
    if database_url.startswith("sqlite"):
        current = sqlite_path(database_url)
        older = current.with_name("old.sqlite3")
        shutil.copy(current, older)
        store = await Store.open(older)
        await store.db.execute("DELETE FROM schema_version WHERE version >= 700")
        await store.close()
        with pytest.raises(DatabaseUnavailable, match="older than the pages"):
            await open_read_only(sqlite_url(older))


def documented_role_sql() -> str:
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    return re.search(r"```sql\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]


async def test_the_documented_read_only_role(postgres_databases: PostgresDatabases) -> None:
    import asyncpg

    url = postgres_databases.migrated()
    parts = urlsplit(url)
    database = parts.path.lstrip("/")
    owner = parts.username
    store = await Store.open(url)
    await seed(store, duels=2)
    await store.close()
    sql = documented_role_sql().replace("DATABASE domino ", f"DATABASE {database} ")
    sql = sql.replace("FOR ROLE domino ", f"FOR ROLE {owner} ")
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(sql)
    finally:
        await admin.close()
    web_url = urlunsplit(
        parts._replace(netloc=f"domino_web:change%20me@{parts.hostname}:{parts.port}")
    )
    app = create_app(Reader(web_url), rate_limit=0)
    async with TestClient(TestServer(app)) as client:
        assert (await client.get(f"/s/{GUILD}")).status == 200
        assert (await client.get("/health")).status == 200
    conn = await asyncpg.connect(web_url)
    try:
        with pytest.raises(asyncpg.PostgresError):
            await conn.execute("SET default_transaction_read_only = off")
            await conn.execute("DELETE FROM guild_settings")
    finally:
        await conn.close()
        admin = await asyncpg.connect(url)
        try:
            await admin.execute("DROP OWNED BY domino_web; DROP ROLE domino_web")
        finally:
            await admin.close()


async def test_timed_out_queries_leave_no_unread_failure_and_the_pool_serves_on(
    postgres_databases: PostgresDatabases,
) -> None:
    """A page's read cut by its time-out, at any instant (opening a connection, its TLS
    offer, a statement running): nothing is left failing unread in the event loop (asyncpg's
    "Future exception was never retrieved"), and the next reads are answered."""
    loop = asyncio.get_running_loop()
    problems: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: problems.append(context))
    reader = Reader(postgres_databases.migrated())
    rng = random.Random(4)

    async def read(timeout: float) -> str:
        try:
            async with asyncio.timeout(timeout), reader.reading() as store:
                await store.db.fetchval(rng.choice(["SELECT 1", "SELECT pg_sleep(0.05)"]))
        except (TimeoutError, DatabaseUnavailable) as exc:
            return type(exc).__name__
        return "answered"

    try:
        assert await read(5.0) == "answered"
        outcomes: list[str] = []
        for _ in range(8):  # the pool's connections are cut and opened again each round
            outcomes += await asyncio.gather(*(read(rng.uniform(0.0005, 0.1))
                                               for _ in range(30)))
        assert "TimeoutError" in outcomes
        assert [await read(5.0) for _ in range(3)] == ["answered"] * 3
    finally:
        await reader.close()
        gc.collect()
        await asyncio.sleep(0.1)
        loop.set_exception_handler(None)
    assert problems == []


def test_a_flood_from_one_address_does_not_slow_the_others() -> None:
    clock = FakeClock()
    limiter = RateLimiter(60, clock)  # one a second, bursts of 15
    assert all(limiter.wait("flood") == 0 for _ in range(15))
    wait = limiter.wait("flood")
    assert 0 < wait <= 1.0
    assert limiter.wait("reader") == 0  # another address is not touched
    clock.advance(1.0)
    assert limiter.wait("flood") == 0 and limiter.wait("flood") > 0
    assert RateLimiter(0, clock).wait("anyone") == 0  # turned off


def test_one_ipv6_network_is_one_client() -> None:
    """An IPv6 /64 (one subscriber's network) shares one bucket; an IPv4 address written as
    IPv6 is that IPv4 address."""
    clock = FakeClock()
    limiter = RateLimiter(60, clock)
    assert all(limiter.wait(f"2001:db8:1:2::{i:x}") == 0 for i in range(15))
    assert limiter.wait("2001:db8:1:2:ffff:ffff:ffff:ffff") > 0
    assert limiter.wait("2001:db8:1:3::1") == 0  # the next network
    assert all(limiter.wait("203.0.113.5") == 0 for _ in range(15))
    assert limiter.wait("::ffff:203.0.113.5") > 0
    assert limiter.wait("not an address") == 0


def test_the_limiter_remembers_a_bounded_number_of_clients() -> None:
    """Many clients at once: the least recently seen is forgotten first, so the memory is
    bounded and a client asking again is still counted."""
    clock = FakeClock()
    limiter = RateLimiter(60, clock)
    assert all(limiter.wait("198.51.100.1") == 0 for _ in range(15))
    for i in range(RateLimiter.MAX_ADDRESSES + 500):
        assert limiter.wait(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}") == 0
        if i % 1000 == 0:
            assert limiter.wait("198.51.100.1") > 0  # still limited: seen recently
        assert len(limiter) <= RateLimiter.MAX_ADDRESSES


async def test_429_pages_by_forwarded_address(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "db.sqlite3")
    store = await Store.open(url)
    await seed(store, duels=1)
    await store.close()
    app = create_app(Reader(url), rate_limit=40, forwarded=True)
    async with TestClient(TestServer(app)) as client:
        flood = {"X-Forwarded-For": "203.0.113.9", "Accept-Language": "es"}
        statuses = [(await client.get(f"/s/{GUILD}", headers=flood)).status for _ in range(12)]
        assert statuses[:10] == [200] * 10 and statuses[-1] == 429
        response = await client.get(f"/s/{GUILD}", headers=flood)
        assert "Demasiadas solicitudes" in await response.text()
        assert int(response.headers["Retry-After"]) >= 1
        other = {"X-Forwarded-For": "198.51.100.7"}
        assert (await client.get(f"/s/{GUILD}", headers=other)).status == 200
        # Every path counts: a static file's, a missing one's.
        for path in ("/static/site.css", "/static/nothing.js", "/nowhere"):
            assert (await client.get(path, headers=flood)).status == 429


@given(
    st.lists(st.integers(1, 40), min_size=1, max_size=6, unique=True),
    st.one_of(st.none(), st.integers(-(10**6), 10**6)),
    st.one_of(st.none(), st.integers(-(10**6), 10**6)),
)
def test_every_permalink_reads_as_the_nearest_position(
    hands: list[int], hand: int | None, move: int | None
) -> None:
    """Property: any hand and move, even far out of range, give a position of the match: the
    asked hand (or the nearest one that has moves) and the asked move within it."""
    from bot.web.positions import Position

    found = [
        Position(h, m, 3, None, None, (), None, ((), ()), (), 0, (), None, None)
        for h in sorted(hands)
        for m in range(4)
    ]
    index = clamp(found, hand, move)
    assert 0 <= index < len(found)
    chosen = found[index]
    if hand is None and move is None:
        assert index == len(found) - 1
        return
    if hand is not None and hand in hands:
        assert chosen.hand == hand
    if hand is not None and hand > max(hands):
        assert chosen.hand == max(hands)
    assert chosen.move == min(max(move or 0, 0), 3)


async def test_python_m_bot_web_reads_what_the_bot_writes(tmp_path: Path) -> None:
    """The pages in their own process (``python -m bot web``) while this process, as the bot,
    records a new match: the next page shows it; the pages' process writes nothing."""
    import asyncio
    import os
    import socket
    import subprocess
    import sys

    import aiohttp

    from bot.records.service import Records
    from tests.bot.test_records_support import duel

    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await seed(store, duels=2)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": sqlite_url(path),
        "WEB_PORT": str(port),
        "WEB_RATE_LIMIT": "0",
        "DISCORD_TOKEN": "",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--env-file", os.devnull, "web"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as session:
            for _ in range(200):
                try:
                    async with session.get(f"{base}/health") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            board = f"{base}/s/{GUILD}?board=two-player&by=wins"
            async with session.get(board) as r:
                assert r.status == 200 and "P4242" not in await r.text()
            await duel(Records(store), 77_777, 4242, 1000, guild_id=GUILD, at=9_000.0)
            await asyncio.sleep(5.2)  # what the pages keep a few seconds
            async with session.get(board) as r:
                assert "P4242" in await r.text()
    finally:
        proc.terminate()
        out = proc.communicate(timeout=30)[0].decode()
        await store.close()
    assert "Traceback" not in out


async def test_a_sqlite_statement_running_too_long_is_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages' SQLite statements run on the event loop's thread: one that runs past its
    time is interrupted (a 503 page), and the next reads are answered."""
    url = sqlite_url(tmp_path / "db.sqlite3")
    store = await Store.open(url)
    await seed(store, duels=1)
    await store.close()
    monkeypatch.setattr(queries, "STATEMENT_SECONDS", 0.05)
    reader = Reader(url)
    endless = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
        " SELECT count(*) FROM n"
    )
    try:
        with pytest.raises(DatabaseUnavailable):
            async with reader.reading() as read:
                await read.db.fetchval(endless)
        assert await reader.server(GUILD) is not None
    finally:
        await reader.close()
