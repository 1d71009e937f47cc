"""Pages kept rendered, over HTTP on each backend: ETag and 304, Last-Modified, Cache-Control
per kind of page, gzip, a board kept a few seconds (the application's clock) and a finished
match kept until the database's stamp moves; and the player search (prefix, any case, by
index, escaped, never a person without a page)."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.privacy.forget import forget_person
from bot.records.service import Records
from bot.records.store import RecordsRepo
from bot.servers.settings import ServerSettings
from bot.store import SQLITE, Store
from bot.web.app import KEPT, RECENT, create_app
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import duel
from tests.web.seed import ANA, BEA, DARK, GUILD, NAMES, Seeded, seed
from tests.web.test_tournaments import make_event, make_knockout


@pytest.fixture
async def seeded(database_url: str) -> AsyncIterator[tuple[Store, Seeded]]:
    store = await Store.open(database_url)
    try:
        yield store, await seed(store)
    finally:
        await store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def client(
    database_url: str, seeded: tuple[Store, Seeded], clock: FakeClock
) -> AsyncIterator[TestClient]:
    reader = Reader(database_url, fresh=0)
    app = create_app(reader, base_url="https://pages.example", rate_limit=0, clock=clock)
    async with TestClient(TestServer(app)) as c:
        yield c


async def test_a_finished_match_is_kept_with_its_tag_and_answers_304(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    _, s = seeded
    first = await client.get(f"/m/{s.played}", auto_decompress=False)
    zipped = await first.read()
    assert first.status == 200 and first.headers["Content-Encoding"] == "gzip"
    assert b"Ana Global" in gzip.decompress(zipped)
    tag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    assert tag.startswith('W/"') and first.headers["Cache-Control"] == "public, max-age=60"
    assert "Accept-Encoding" in first.headers["Vary"] and "Accept-Language" in first.headers["Vary"]
    again = await client.get(f"/m/{s.played}", headers={"If-None-Match": tag})
    assert again.status == 304 and await again.read() == b"" and again.headers["ETag"] == tag
    since = await client.get(f"/m/{s.played}", headers={"If-Modified-Since": modified})
    assert since.status == 304
    plain = await client.get(f"/m/{s.played}", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and "Ana Global" in await plain.text()
    spanish = await client.get(f"/m/{s.played}", headers={"Accept-Language": "es"})
    assert spanish.headers["ETag"] != tag and spanish.headers["Content-Language"] == "es"


async def test_each_kind_of_page_says_how_long_it_may_be_kept(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    running, finished = await make_event(store, GUILD), await make_knockout(store, GUILD)
    expected = {
        f"/s/{GUILD}": "public, max-age=5",
        f"/s/{GUILD}/p/{ANA}": "public, max-age=5",
        f"/s/{GUILD}/t/{running}": "public, max-age=5",
        f"/s/{GUILD}/t/{finished}": "public, max-age=60",
        f"/m/{s.played}": "public, max-age=60",
        "/": "public, max-age=60",
    }
    for path, control in expected.items():
        response = await client.get(path)
        assert response.status == 200, path
        assert response.headers["Cache-Control"] == control, path
    for path in (f"/m/{s.dark}", f"/s/{DARK}", "/m/abc", f"/live/{s.running}"):
        response = await client.get(path)
        assert response.headers["Cache-Control"] == "no-store", path
        assert "ETag" not in response.headers


async def test_a_board_is_kept_until_the_server_records_another_match(
    client: TestClient, seeded: tuple[Store, Seeded], clock: FakeClock
) -> None:
    """A leaderboard is rendered once and served again until the server records a match
    (then at once read again), and a minute at most (the week's boards roll over)."""
    store, _ = seeded
    kept = client.app[KEPT]  # type: ignore[index]
    path = f"/s/{GUILD}?board=two-player&by=wins"
    before = await (await client.get(path)).text()
    rendered = kept.rendered
    assert await (await client.get(path)).text() == before
    assert kept.rendered == rendered  # served as kept
    assert f"/s/{GUILD}/p/4242" not in before
    await duel(Records(store), 95_000, 4242, 1000, guild_id=GUILD, at=1_800_000_000.0)
    assert f"/s/{GUILD}/p/4242" in await (await client.get(path)).text()
    assert kept.rendered == rendered + 1
    await (await client.get(path)).text()
    clock.advance(59)
    await (await client.get(path)).text()
    assert kept.rendered == rendered + 1
    clock.advance(2)
    await (await client.get(path)).text()
    assert kept.rendered == rendered + 2


async def test_a_kept_page_goes_when_the_stamp_moves(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    """A finished match is kept for an hour, but a server turning its pages off (or a
    forget-me, a name changed) moves the database's stamp: the next page is read again."""
    store, s = seeded
    assert (await client.get(f"/m/{s.played}")).status == 200
    await ServerSettings(store).update(GUILD, web_name="Renamed <Club>")
    assert "Renamed &lt;Club&gt;" in await (await client.get(f"/m/{s.played}")).text()
    await ServerSettings(store).update(GUILD, web=None)
    assert (await client.get(f"/m/{s.played}")).status == 404


async def test_a_boards_length_is_counted_once_for_its_pages_until_a_match_is_recorded(
    client: TestClient, seeded: tuple[Store, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rating board with a minimum of matches counts its lines for its length ("page 2 of
    40"): counted once for all its pages while the server's stamp holds; a match recorded
    there moves it, and the next page counts again."""
    store, _ = seeded
    counted: list[tuple[int, str]] = []
    count = RecordsRepo.leaderboard_size

    async def spied(self: RecordsRepo, scope: int, bucket: str, by: str, least: int = 1) -> int:
        counted.append((scope, bucket))
        return await count(self, scope, bucket, by, least)

    monkeypatch.setattr(RecordsRepo, "leaderboard_size", spied)
    await ServerSettings(store).update(GUILD, board_minimum=2)
    for page in (1, 2, 3):
        response = await client.get(f"/s/{GUILD}?board=two-player&by=rating&page={page}")
        assert response.status == 200
    assert counted == [(GUILD, "two-player")]
    await duel(Records(store), 95_000, 4242, 1000, guild_id=GUILD, at=1_800_000_000.0)
    assert (await client.get(f"/s/{GUILD}?board=two-player&by=rating&page=2")).status == 200
    assert counted == [(GUILD, "two-player")] * 2


def recent_of(html: str) -> str:
    """A server's page's list of recent matches."""
    return html.split('id="recent-title"')[1].split("</section>")[0]


async def test_the_recent_matches_are_listed_once_for_every_board_until_a_name_changes(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    """Every board of a server lists its recent matches: written once per language and
    shared by its boards while the database's stamp holds; a forget-me moves the stamp, so
    the next board (one never rendered before too) no longer names him."""
    store, _ = seeded
    recent = client.app[RECENT]  # type: ignore[index]
    first = await (await client.get(f"/s/{GUILD}?board=two-player&by=wins")).text()
    assert f'href="/s/{GUILD}/p/{ANA}">{NAMES[ANA]}</a>' in recent_of(first)
    second = await (await client.get(f"/s/{GUILD}?board=all&by=wins")).text()
    assert len(recent) == 1  # the same list, written once
    assert recent_of(second) == recent_of(first)
    spanish = await client.get(f"/s/{GUILD}?board=all&by=wins", headers={"Accept-Language": "es"})
    assert spanish.status == 200 and len(recent) == 2
    await forget_person(Records(store), ANA)
    third = await (await client.get(f"/s/{GUILD}?board=draw&by=wins")).text()
    assert NAMES[ANA] not in third and "a former player" in recent_of(third)
    again = await (await client.get(f"/s/{GUILD}?board=two-player&by=wins")).text()
    assert NAMES[ANA] not in again


async def test_the_player_search_finds_names_by_their_start(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, _ = seeded
    page = await (await client.get(f"/s/{GUILD}?player=ana")).text()
    assert f'href="/s/{GUILD}/p/{ANA}"' in page and "Ana Global" in page
    assert 'role="search"' in page and 'value="ana"' in page
    page = await (await client.get(f"/s/{GUILD}?player=BEA%20%3Cb")).text()
    assert "Bea &lt;b&gt;&amp;amp;" in page and "Bea <b>" not in page
    assert 'value="BEA &lt;b"' in page
    page = await (await client.get(f"/s/{GUILD}?player=Bea&lang=es")).text()
    assert "Jugadores cuyo nombre empieza por" in page and f"/s/{GUILD}/p/{BEA}?lang=es" in page
    none = await (await client.get(f"/s/{GUILD}?player=zzz")).text()
    assert "No player with a page here has a name that starts so." in none
    await Records(store).set_privacy(BEA, GUILD, True)  # left the boards: no page, not found
    assert "Bea &lt;b&gt;" not in await (await client.get(f"/s/{GUILD}?player=be")).text()
    dark = await (await client.get(f"/s/{DARK}?player=ana")).text()
    assert "Ana Global" not in dark
    assert (await client.get(f"/s/{GUILD}?player=" + "a" * 101)).status == 400


async def test_the_search_reads_the_name_index(seeded: tuple[Store, Seeded]) -> None:
    """The search's statement reads ``record_players`` by its name index (EXPLAIN; on
    PostgreSQL the generic plan, used from a prepared statement's sixth run)."""
    store, _ = seeded
    prefix = "ana"
    if store.dialect == SQLITE:
        rows = await store.db.fetchall(
            "EXPLAIN QUERY PLAN SELECT player_id FROM record_players p"
            " WHERE lower(p.name) >= lower(?) AND lower(p.name) < (lower(?) || char(1114111))",
            (prefix, prefix),
        )
        assert any("record_players_name" in str(tuple(r)) for r in rows), [tuple(r) for r in rows]
    else:
        async with store.driver.transaction() as db:
            await db.execute("SET LOCAL enable_seqscan = off")  # a few rows: a scan is cheaper
            await db.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            rows = await db.fetchall(
                "EXPLAIN SELECT player_id FROM record_players p"
                " WHERE lower(p.name) ~>=~ lower(?) AND lower(p.name) ~<~ (lower(?)"
                " || chr(1114111))",
                (prefix, prefix),
            )
        assert any("record_players_name" in str(r[0]) for r in rows), [r[0] for r in rows]


async def test_the_warm_up_renders_each_kind_of_page(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """Before the first reader, each kind of page is rendered once per pool connection (its
    statements prepared); a database without pages on has nothing to warm."""
    from bot.web.warm import warm

    store, _ = seeded
    await make_event(store, GUILD)
    reader = Reader(database_url)
    app = create_app(reader, rate_limit=0)
    rendered: list[str] = []
    for route in app.router.routes():
        if route.name:
            handler = route.handler

            async def counted(request, handler=handler, name=route.name):  # type: ignore[no-untyped-def]
                response = await handler(request)
                rendered.append(name)
                return response

            route._handler = counted  # type: ignore[attr-defined]
    try:
        assert await warm(app, reader) > 0
        assert set(rendered) == {"home", "server", "player", "match", "tournament"}
        await ServerSettings(store).update(GUILD, web=None)
        rendered.clear()
        assert await warm(app, reader) == 0 and rendered == []
    finally:
        await reader.close()
