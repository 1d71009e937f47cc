"""The web match page points the people who played it to "Find a better move": the command
to ask in Discord and a link to the place the match was played (when pages are on)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from bot.store import Store
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.web.seed import GUILD, seed

ES = {"Accept-Language": "es-ES,es;q=0.9"}


async def test_the_match_page_leads_to_the_exercises_in_discord(database_url: str) -> None:
    store = await Store.open(database_url)
    try:
        seeded = await seed(store)
        table = await store.tables.get(seeded.played)
        assert table is not None and table.channel_id is not None
        place = table.thread_id or table.channel_id
    finally:
        await store.close()
    app = create_app(Reader(database_url, fresh=0), base_url="https://pages.example",
                     rate_limit=0)
    async with TestClient(TestServer(app)) as client:
        page = await (await client.get(f"/m/{seeded.played}")).text()
        assert '<h2 id="review-title">Find a better move</h2>' in page
        assert (f"In Discord, ask for your review with /domino review table:{seeded.played} and "
                "press Find a better move: try each of your costly decisions yourself before "
                "the expert answers.") in page
        assert f'<a href="https://discord.com/channels/{GUILD}/{place}">Open the match in ' \
               "Discord</a>" in page
        spanish = await (await client.get(f"/m/{seeded.played}", headers=ES)).text()
        assert "/domino analisis mesa:" in spanish and "Abrir la partida en Discord" in spanish
