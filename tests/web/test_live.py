"""Live pages over HTTP on each backend: a running table of a public place followed by
server-sent events after each move the bot makes (PostgreSQL: its notifications; SQLite: the
file's data version), never a hidden tile; a running tournament told when its rounds change;
what has no live page (a 404, a finished match sends to its page)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.records.service import Records
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.store import RoundRow, TournamentRepo
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.web.seed import ANA, DARK, GUILD, Seeded, play_match, seed
from tests.web.test_tournaments import make_event, new_event

WAIT = 20.0  # a guard against a hang only: each step waits for the event it needs


@pytest.fixture
async def seeded(database_url: str) -> AsyncIterator[tuple[Store, Seeded]]:
    store = await Store.open(database_url)
    try:
        yield store, await seed(store)
    finally:
        await store.close()


@pytest.fixture
async def client(database_url: str, seeded: tuple[Store, Seeded]) -> AsyncIterator[TestClient]:
    app = create_app(Reader(database_url), base_url="https://pages.example", rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        yield c


async def events(response: ClientResponse) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """The server-sent events of a stream, as (name, data)."""
    name, data = "", ""
    while True:
        line = (await response.content.readline()).decode()
        if not line:
            return
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif not line and name:
            yield name, json.loads(data)
            name, data = "", ""


async def next_event(stream: AsyncIterator[tuple[str, dict[str, Any]]]) -> tuple[str, Any]:
    return await asyncio.wait_for(anext(stream), WAIT)


async def move(store: Store, table_id: int) -> None:
    """One move of the running table, made by the bot's table service."""
    service = TableService(
        store, clock=FakeClock(), seed_source=lambda: 7, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    try:
        info = await service.get(table_id)
        seat = info.turn_seat
        assert seat is not None
        if seat.kind == "computer":
            await service.play_computer(table_id)
        else:
            action = info._match.legal_actions()[0]  # type: ignore[union-attr]
            await service.act(table_id, seat.user_id, action)  # type: ignore[arg-type]
    finally:
        await service.aclose()


async def hidden_tiles(store: Store, table_id: int) -> list[tuple[int, int]]:
    """The tiles in the seats' hands now (which no page or stream may show)."""
    service = TableService(store, clock=FakeClock(), computer_delay=0.0, computer_pace=None)
    try:
        match = (await service.get(table_id))._match
        assert match is not None
        seats = len(match.public_view().hand_sizes)
        return [(t.a, t.b) for s in range(seats) for t in match.view(s).hand or ()]
    finally:
        await service.aclose()


def assert_hides(text: str, tiles: list[tuple[int, int]]) -> None:
    for a, b in tiles:
        for x, y in ((a, b), (b, a)):
            assert not re.search(rf"(?<![\d-]){x}-{y}(?![\d-])", text), (x, y)
            assert f">{x}|{y}<" not in text and f"[{x},{y}]" not in text, (x, y)


async def test_a_running_table_is_followed_move_by_move_and_hides_every_hand(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    page = await client.get(f"/live/{s.running}")
    html = await page.text()
    assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
    assert 'id="live-table"' in html and "Live match" in html
    assert "Ana Global" in html and "Ana Nickname" not in html  # the global name
    assert "Bea &lt;b&gt;" in html and "Bea <b>" not in html
    assert_hides(html, await hidden_tiles(store, s.running))
    async with client.get(f"/live/{s.running}/events") as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        stream = events(response)
        name, first = await next_event(stream)
        assert name == "position" and first["status"] == "running"
        assert first["headline"].endswith(" to play.")
        assert_hides(json.dumps(first), await hidden_tiles(store, s.running))
        for _ in range(3):
            before = first
            await move(store, s.running)
            name, first = await next_event(stream)
            assert name == "position"
            assert first["moves"] == before["moves"] + 1
            if first["hand"] == before["hand"]:
                assert first["log"][: len(before["log"])] == before["log"]
                assert len(first["log"]) == len(before["log"]) + 1
            assert_hides(json.dumps(first), await hidden_tiles(store, s.running))


async def test_what_has_no_live_page(client: TestClient, seeded: tuple[Store, Seeded]) -> None:
    """A finished match sends to its page; a table of a server without pages, of a staff
    channel, or unknown is a 404 like any other address."""
    store, s = seeded
    finished = await client.get(f"/live/{s.played}", allow_redirects=False)
    assert finished.status == 303 and finished.headers["Location"] == f"/m/{s.played}"
    service = TableService(
        store, clock=FakeClock(), seed_source=lambda: 7, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    try:
        staff = await play_match(
            service, Records(store), GUILD, finish=False, channel_id=8, public_place=False
        )
        dark = await play_match(service, Records(store), DARK, finish=False)
    finally:
        await service.aclose()
    for table in (staff, dark, 999_999):
        for path in (f"/live/{table}", f"/live/{table}/events"):
            response = await client.get(path)
            assert response.status == 404, path
            assert "Ana Global" not in await response.text()


async def test_a_running_tournament_says_when_its_rounds_change(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, _ = seeded
    event = await make_event(store, GUILD)
    page = await (await client.get(f"/s/{GUILD}/t/{event}")).text()
    assert f'data-events="/s/{GUILD}/t/{event}/events"' in page
    async with client.get(f"/s/{GUILD}/t/{event}/events") as response:
        stream = events(response)
        name, first = await next_event(stream)
        assert name == "changed"
        await TournamentRepo(store.db).put_round(RoundRow(event, 3, "playing", 3.0, None))
        name, after = await next_event(stream)
        assert name == "changed" and after["v"] != first["v"]
    fresh = await (await client.get(f"/s/{GUILD}/t/{event}?v={after['v']}")).text()
    assert "Round 3" in fresh
    hidden = await new_event(
        TournamentRepo(store.db), GUILD, channel_id=8, public_place=False, status="running"
    )
    assert (await client.get(f"/s/{GUILD}/t/{hidden.id}/events")).status == 404
    assert (await client.get(f"/s/{DARK}/t/{event}/events")).status == 404


async def test_the_live_page_names_a_person_who_left_the_boards_a_player(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    await Records(store).set_privacy(ANA, GUILD, True)
    html = await (await client.get(f"/live/{s.running}")).text()
    assert "Ana Global" not in html and "a player" in html
