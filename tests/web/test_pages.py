"""Every route of the web companion over HTTP, on each backend (a SQLite file, a PostgreSQL
database): what it shows, what it never shows, and its answers to bad addresses."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.privacy.forget import forget_person
from bot.records.record import GLOBAL
from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tables.service import TableService
from bot.web.app import CSP, create_app
from bot.web.reader import FRESH, Reader
from tests.bot.helpers import FakeClock
from tests.web.seed import ANA, BEA, DARK, GUILD, NICKNAME, Seeded, play_match, seed

ES = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}


@pytest.fixture
async def seeded(database_url: str) -> AsyncIterator[tuple[Store, Seeded]]:
    store = await Store.open(database_url)
    try:
        yield store, await seed(store)
    finally:
        await store.close()


@pytest.fixture
async def client(database_url: str, seeded: tuple[Store, Seeded]) -> AsyncIterator[TestClient]:
    reader = Reader(database_url, fresh=0)  # nothing kept: every page reads the database
    app = create_app(reader, base_url="https://pages.example", rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        yield c


async def text(client: TestClient, path: str, status: int = 200, **headers: str) -> str:
    response = await client.get(path, headers=headers)
    body = await response.text()
    assert response.status == status, (path, body[:300])
    assert response.headers["Content-Security-Policy"] == CSP
    assert "Set-Cookie" not in response.headers
    assert "Traceback" not in body
    return body


async def test_a_servers_page_shows_its_leaderboard_and_recent_matches(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    page = await text(client, f"/s/{GUILD}")
    assert "Domino &lt;Club&gt;" in page and "<Club>" not in page
    assert f'href="/m/{s.played}"' in page
    assert f'href="/m/{s.running}"' not in page and f'href="/m/{s.dark}"' not in page
    board = await Records(store).leaderboard(scope=GUILD, bucket="two-player", by="wins", page=1,
                                             per_page=25)
    wins = await text(client, f"/s/{GUILD}?board=two-player&by=wins&page=2")
    assert board.rows and board.page == 0  # 7 players: one page, a later one reads as the last
    shown = [row.split("</th>")[0] for row in wins.split('<tr><td>')[1:]]
    assert len(shown) == len(board.rows)
    for row, line in zip(shown, board.rows, strict=True):
        assert row.startswith(f"{line.place}</td>") and f"/p/{line.player_id}\"" in row
    # The people of the partners match, by their global names, never the table's nickname.
    partners = await text(client, f"/s/{GUILD}?board=partners")
    assert "Ana Global" in partners and NICKNAME not in partners
    assert "Bea &lt;b&gt;&amp;amp;" in partners
    # Bad choices are 400, in the reader's language.
    bad = await text(client, f"/s/{GUILD}?board=nothing", 400, **ES)
    assert 'lang="es"' in bad and "Solicitud incorrecta" in bad
    await text(client, f"/s/{GUILD}?page=two", 400)
    await text(client, f"/s/{GUILD}?by=elo", 400)


async def test_servers_without_pages_and_malformed_ids(client: TestClient) -> None:
    for path in (f"/s/{DARK}", "/s/424242", f"/s/{DARK}/p/{ANA}", "/nowhere", "/s/1/x/2"):
        page = await text(client, path, 404, **ES)
        assert "Página no encontrada" in page
    for path in ("/s/abc", "/s/-5", "/s/99999999999999999999999", "/m/1.5", "/s/١٢", "/m/ 1"):
        await text(client, path, 400)
    response = await client.post(f"/s/{GUILD}")
    assert response.status == 405 and "Traceback" not in await response.text()


async def test_a_finished_match_page_its_replay_and_preview(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    page = await text(client, f"/m/{s.played}")
    hands = await store.hand_results.list(s.played)
    assert page.count("Replay hand ") == len(hands) >= 1
    record = (await Records(store).repo.matches([s.played]))[s.played]
    for score in record.scores:
        assert f"<td>{score}</td>" in page
    assert "Ana Global" in page and NICKNAME not in page and "Bea &lt;b&gt;" in page
    assert 'property="og:image" content="https://pages.example/m/' in page
    assert '<script src="/static/replay.js" defer></script>' in page
    assert "<script>" not in page and " on" + "click" not in page  # no inline script
    # Permalinks: numbers are kept for the script to bring to the nearest position ...
    near = await text(client, f"/m/{s.played}?hand=999&move=-1")
    assert 'data-hand="999"' in near and 'data-move="-1"' in near
    # ... anything else is a 400.
    for query in ("hand=x", "move=1e3", "hand=--1", "move=99999999999"):
        await text(client, f"/m/{s.played}?{query}", 400)
    for table in (s.running, s.dark, 987654):
        await text(client, f"/m/{table}", 404)
        await text(client, f"/m/{table}/replay.json", 404)
        await text(client, f"/m/{table}/preview.png", 404)

    response = await client.get(f"/m/{s.played}/replay.json")
    assert response.headers["Content-Encoding"] == "gzip"
    data = json.loads(await response.text())
    plain = await client.get(f"/m/{s.played}/replay.json", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and json.loads(await plain.text()) == data
    engine = s.replay.positions
    assert len(data["positions"]) == len(engine)
    for shown, p in zip(data["positions"], engine, strict=True):
        assert (shown["hand"], shown["move"], shown["moves"]) == (p.hand, p.move, p.moves)
        assert [tuple(t) for t in shown["line"]] == list(p.line)
        assert shown["sizes"] == list(p.sizes) and shown["scores"] == list(p.scores)
        # Nothing but what everyone saw: the line, counts and scores.
        assert set(shown) == {"hand", "move", "moves", "seat", "line", "spinner", "arms",
                              "sizes", "pile", "scores", "last", "end", "turn", "act",
                              "status", "text"}
    assert data["seats"][0] == "Ana Global" and NICKNAME not in json.dumps(data)
    assert data["positions"][-1]["scores"] == list(record.scores)

    png = await client.get(f"/m/{s.played}/preview.png")
    assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")


async def test_a_players_page(client: TestClient, seeded: tuple[Store, Seeded]) -> None:
    _, s = seeded
    page = await text(client, f"/s/{GUILD}/p/{ANA}")
    assert "<h1>Ana Global</h1>" in page and NICKNAME not in page
    # the chart's legend carries each curve, for the script that draws it
    assert '<ul class="legend" data-chart="Rating over time" hidden>' in page
    assert re.search(r'<li class="s0" data-name="[^"]+" data-points="\d+,\d+[^"]*">', page)
    assert f'href="/m/{s.played}"' in page and f'href="/m/{s.dark}"' not in page
    assert "Partners (Latin)" in page
    assert "Computer" not in page or "easy" in page  # against each computer level
    for player in (0, 999, 1):  # nobody, never played here, not a person
        await text(client, f"/s/{GUILD}/p/{player}", 404)
    await text(client, f"/s/{GUILD}/p/-3", 400)


async def test_languages_follow_the_browser_and_the_switcher(client: TestClient) -> None:
    pt = await text(client, f"/s/{GUILD}", **{"Accept-Language": "pt-BR,pt;q=0.9"})
    assert '<html lang="pt-BR">' in pt and "Partidas recentes" in pt
    es = await text(client, f"/s/{GUILD}?lang=es", **{"Accept-Language": "pt-BR"})
    assert '<html lang="es">' in es
    assert re.search(r'href="/m/\d+\?lang=es"', es)  # links keep the reader's choice
    en = await text(client, f"/s/{GUILD}", **{"Accept-Language": "de-DE, fr;q=0.8"})
    assert '<html lang="en">' in en
    for code in ("en", "es", "pt-BR"):
        assert f'hreflang="{code}"' in en


async def test_privacy_left_the_boards_forget_me_and_pages_turned_off(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    records = Records(store)
    await records.set_privacy(BEA, GUILD, True)
    await text(client, f"/s/{GUILD}/p/{BEA}", 404)
    match = await text(client, f"/m/{s.played}")
    assert "Bea &lt;b&gt;" not in match and "a player" in match
    data = await text(client, f"/m/{s.played}/replay.json")
    assert "Bea <b>" not in data
    assert "Bea &lt;b&gt;" not in await text(client, f"/s/{GUILD}?board=partners")

    await records.set_privacy(ANA, GLOBAL, True)  # left the global boards only
    await text(client, f"/s/{GUILD}/p/{ANA}", 404)
    await records.set_privacy(ANA, GLOBAL, False)
    await text(client, f"/s/{GUILD}/p/{ANA}")

    await forget_person(records, ANA)
    await text(client, f"/s/{GUILD}/p/{ANA}", 404)
    for path in (f"/m/{s.played}", f"/m/{s.played}/replay.json", f"/s/{GUILD}?board=partners",
                 f"/s/{GUILD}"):
        page = await text(client, path)
        assert "Ana Global" not in page
    assert "a former player" in await text(client, f"/m/{s.played}")

    await ServerSettings(store).update(GUILD, web=None)
    for path in (f"/s/{GUILD}", f"/m/{s.played}", f"/m/{s.played}/replay.json",
                 f"/m/{s.played}/preview.png", f"/s/{GUILD}/p/1000"):
        await text(client, path, 404)


async def test_matches_of_staff_channels_and_private_threads_are_not_on_the_web(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    """A match played where the server's @everyone could not look (a staff-only channel, a
    private thread of a public one) is absent from every page and a 404 like an unknown one."""
    store, s = seeded
    records = Records(store, clock=FakeClock())
    service = TableService(
        store, clock=FakeClock(), seed_source=lambda: 7, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    try:
        staff = await play_match(service, records, GUILD, channel_id=8, public_place=False)
        secret = await play_match(
            service, records, GUILD, channel_id=9, parent_id=7, private_thread=True,
            public_place=False,
        )
    finally:
        await service.aclose()
    for table in (staff, secret):
        for path in (f"/m/{table}", f"/m/{table}/replay.json", f"/m/{table}/preview.png"):
            assert "Ana Global" not in await text(client, path, 404)
    for path in (f"/s/{GUILD}", f"/s/{GUILD}/p/{ANA}", f"/s/{GUILD}/p/{BEA}"):
        page = await text(client, path)
        assert f'href="/m/{s.played}"' in page
        assert f'href="/m/{staff}' not in page and f'href="/m/{secret}' not in page
    assert (await store.tables.get(s.played)).public_place  # type: ignore[union-attr]


async def test_a_forgotten_name_leaves_the_pages_at_once_though_matches_are_kept(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """Our decision: a server's recent matches and a leaderboard's length are kept five
    seconds (every page of the server shows them), but never a name: forget-me and leaving
    the boards show on the next page read, while the clock stands still."""
    store, s = seeded
    clock = FakeClock()
    app = create_app(Reader(database_url, clock=clock), rate_limit=0)
    async with TestClient(TestServer(app)) as kept:
        first = await text(kept, f"/s/{GUILD}?board=two-player")
        assert "Ana Global" in first and "Bea &lt;b&gt;" in first
        await Records(store).set_privacy(BEA, GUILD, True)
        await forget_person(Records(store), ANA)
        page = await text(kept, f"/s/{GUILD}?board=two-player")
        assert "Ana Global" not in page and "Bea &lt;b&gt;" not in page
        assert f'href="/m/{s.played}"' in page  # the kept matches are still listed
        assert "Ana Global" not in await text(kept, f"/m/{s.played}")
        clock.advance(FRESH + 0.1)
        assert "Ana Global" not in await text(kept, f"/s/{GUILD}?board=two-player")


async def test_the_weeks_months_and_seasons_boards_of_a_server(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """The server page offers the running week's, month's and season's boards beside all
    time, ranked as the bot's boards are; a person who left the global boards reads "a
    player" there too, with no link."""
    store, s = seeded
    match = await store.matches.get(s.played)
    assert match is not None and match.finished_at is not None
    reader = Reader(database_url, fresh=0, now=lambda: match.finished_at + 60)
    app = create_app(reader, rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        for period, title in (("week", "This week"), ("month", "This month"),
                              ("season", "Season ")):
            # (by wins: one match each is below the season's rating board's minimum)
            page = await text(c, f"/s/{GUILD}?board=partners&period={period}&by=wins")
            assert "Leaderboard: " in page and title in page
            assert f'<option value="{period}" selected>' in page
            assert '<option value="wins" selected>' in page
            assert "Ana Global" in page and f'href="/s/{GUILD}/p/{ANA}"' in page
            assert NICKNAME not in page
            rows = page.split("<tbody>")[1].split("</tbody>")[0]
            assert rows.count("<tr>") == 2  # Ana and Bea (the computers are on no board)
            ranked = "the season&#39;s wins" if period == "season" else "then by points"
            assert ranked in page
            assert ("<th scope=\"col\">Points</th>" in page) == (period != "season")
            assert ("<th scope=\"col\">Rating</th>" in page) == (period == "season")
        # The duels were played decades before this week: not on its board, on all time's.
        assert "Nobody is on this leaderboard yet." in await text(
            c, f"/s/{GUILD}?board=two-player&period=week")
        assert "/p/1000" in await text(c, f"/s/{GUILD}?board=two-player&period=all")
        spanish = await text(c, f"/s/{GUILD}?board=partners&period=week", **ES)
        assert "Esta semana" in spanish
        await Records(store).set_privacy(BEA, GLOBAL, True)
        page = await text(c, f"/s/{GUILD}?board=partners&period=month")
        assert "Bea &lt;b&gt;" not in page and "a player" in page
        assert f'href="/s/{GUILD}/p/{BEA}"' not in page
        assert "Bea &lt;b&gt;" not in await text(c, f"/s/{GUILD}?board=partners&by=wins")
        await text(c, f"/s/{GUILD}?period=year", 400)


async def test_the_home_page_health_check_and_static_files(client: TestClient) -> None:
    assert '<html lang="es">' in await text(client, "/", **ES)
    health = await client.get("/health")
    assert health.status == 200 and await health.text() == "ok\n"
    assert health.headers["Cache-Control"] == "no-store"
    for name, kind in (("site.css", "text/css"), ("replay.js", "javascript")):
        response = await client.get(f"/static/{name}")
        assert response.status == 200 and kind in response.headers["Content-Type"]
        assert response.headers["Content-Security-Policy"] == CSP
        assert "Set-Cookie" not in response.headers
    for path in ("/static/nothing.js", "/static/../bot/web/app.py"):
        await text(client, path, 404)


async def test_a_missing_pages_language_links_stay_on_the_site(client: TestClient) -> None:
    """A 404 for an address like ``//evil.example/x`` links to its languages by query only,
    never to the path asked for (a browser would read it as another site)."""
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    try:
        writer.write(b"GET //evil.example/x?a=%22 HTTP/1.1\r\nHost: pages\r\n"
                     b"Connection: close\r\n\r\n")
        await writer.drain()
        answer = (await reader.read()).decode()
    finally:
        writer.close()
    assert answer.startswith("HTTP/1.1 404")
    links = re.findall(r'<a href="([^"]*)" hreflang="', answer)
    assert len(links) == 4 and all(href.startswith("?") for href in links), links
    assert "evil.example" not in answer
    page = await text(client, f"/s/{GUILD}?board=partners&lang=es")
    assert 'href="?board=partners&amp;lang=pt-BR" hreflang="pt-BR"' in page


async def test_the_language_links_keep_the_rest_of_the_address(client: TestClient) -> None:
    """Our decision: the footer's links to the same page in another language keep every other
    part of its address (encoded), the language last; the chosen language's own link too."""
    page = await text(client, f"/s/{GUILD}?board=draw&by=wins&player=a%20b&lang=es")
    for code in ("en", "es", "es-419", "pt-BR"):
        assert f'href="?board=draw&amp;by=wins&amp;player=a+b&amp;lang={code}"' in page
    plain = await text(client, f"/s/{GUILD}")
    assert 'href="?lang=pt-BR" hreflang="pt-BR"' in plain
