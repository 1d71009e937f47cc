"""Correspondence matches are rated on their own boards (as Lichess rates each speed apart):
the records and the server's web page, on each backend."""

from __future__ import annotations

import html

from aiohttp.test_utils import TestClient, TestServer

from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.web.seed import ANA, BEA, GUILD, NAMES, NICKNAME, services

DAY = 24 * 3600
SLOW = "correspondence-two-player"


async def resigned(store: Store, clock: FakeClock, turn_timer: int, *, live_loser: bool) -> int:
    """A recorded two-player match of Ana and Bea at ``turn_timer`` seconds per move, which
    one of them resigns after a day."""
    records, service = services(store, clock)
    try:
        table = await service.create_table(
            host_id=ANA, host_name=NICKNAME, variant="draw", guild_id=GUILD, channel_id=7,
            turn_timer=turn_timer, public_place=True,
        )
        await service.join(table.id, BEA, "Bea nick")
        await service.start(table.id, ANA)
        clock.advance(DAY)
        await service.resign(table.id, ANA if live_loser else BEA)
        assert await records.record(table.id)
    finally:
        await service.aclose()
    return table.id


async def test_correspondence_matches_have_their_own_boards(database_url: str) -> None:
    store = await Store.open(database_url)
    try:
        clock = FakeClock()
        await ServerSettings(store, clock=clock).update(
            GUILD, web=True, web_name="Club", board_minimum=1
        )
        await resigned(store, clock, DAY, live_loser=False)  # Ana wins by correspondence
        records = Records(store, clock=clock)
        slow = await records.leaderboard(scope=GUILD, bucket=SLOW, by="rating")
        assert [r.player_id for r in slow.rows] == [ANA, BEA]
        live = await records.leaderboard(scope=GUILD, bucket="two-player", by="rating")
        assert live.rows == ()
        variant = await records.leaderboard(scope=GUILD, bucket="draw", by="wins")
        assert variant.rows == ()  # a variant's boards are of live matches
        everything = await records.leaderboard(scope=GUILD, bucket="all", by="wins")
        assert [r.player_id for r in everything.rows][:1] == [ANA]

        await resigned(store, clock, 120, live_loser=True)  # Bea wins live
        live = await records.leaderboard(scope=GUILD, bucket="two-player", by="rating")
        assert [r.player_id for r in live.rows] == [BEA, ANA]
        slow = await records.leaderboard(scope=GUILD, bucket=SLOW, by="rating")
        assert [r.player_id for r in slow.rows] == [ANA, BEA]  # unchanged by the live match
        stats = await records.stats(ANA)
        assert set(stats.ratings) == {"two-player", SLOW}

        app = create_app(Reader(database_url, fresh=0), base_url="https://pages.example",
                         rate_limit=0)
        async with TestClient(TestServer(app)) as client:
            page = await (await client.get(f"/s/{GUILD}")).text()
            assert f'value="{SLOW}"' in page or f"board={SLOW}" in page
            assert "Two-player games (correspondence)" in page
            response = await client.get(f"/s/{GUILD}?board={SLOW}")
            assert response.status == 200
            board = await response.text()
            assert "Ana Global" in board and board.index("Ana Global") < board.index("Bea")
            player = await (await client.get(f"/s/{GUILD}/p/{ANA}")).text()
            assert "Two-player games (correspondence)" in player
    finally:
        await store.close()


async def test_a_match_lost_on_time_is_said_so_on_the_match_page(database_url: str) -> None:
    """Our decision (docs/commands.md, "Correspondence tables"): at a server whose rule loses
    a correspondence match at the N-th time-out in a row, the match is lost on time, stored
    and shown so (not as a resignation): on the match page and in its replay."""
    store = await Store.open(database_url)
    try:
        clock = FakeClock()
        await ServerSettings(store, clock=clock).update(
            GUILD, web=True, web_name="Club", board_minimum=1, timeout_loss=2
        )
        records, service = services(store, clock)
        try:
            table = await service.create_table(
                host_id=ANA, host_name=NICKNAME, variant="draw", guild_id=GUILD, channel_id=7,
                turn_timer=DAY, public_place=True,
            )
            await service.join(table.id, BEA, "Bea nick")
            await service.start(table.id, ANA)
            for _ in range(10):  # nobody plays: each times out in turn
                if (await service.get(table.id)).status != "running":
                    break
                clock.advance(DAY)
                await service.tick()
            info = await service.get(table.id)
            assert info.status == "finished"
            view = info.public_view()
            assert view is not None and view.outcome is not None
            assert view.outcome.reason == "time" and view.outcome.timeouts == 2
            assert await records.record(table.id)
        finally:
            await service.aclose()
        loser = view.outcome.resigned_seat
        assert loser is not None
        person = info.seats[loser]
        assert person is not None and person.user_id is not None
        name = NAMES[person.user_id]
        app = create_app(Reader(database_url, fresh=0), base_url="https://pages.example",
                         rate_limit=0)
        async with TestClient(TestServer(app)) as client:
            page = await (await client.get(f"/m/{table.id}")).text()
            said = f"{html.escape(name)} lost on time during hand 1 (2 time-outs in a row), so "
            assert said in page
            assert "resigned" not in page
            replay = await (await client.get(f"/m/{table.id}/replay.json")).json()
            last = replay["positions"][-1]
            assert f"{name} lost on time: 2 time-outs in a row." in last["text"]
            spanish = await (
                await client.get(f"/m/{table.id}", headers={"Accept-Language": "es-ES"})
            ).text()
            said = f"{html.escape(name)} perdió por tiempo en la mano 1 (2 agotamientos de tiempo"
            assert said in spanish
    finally:
        await store.close()
