"""What an all-time board's page costs the database: its lines come with who left the global
boards (named "a player", without a link) and who holds a provisional rating, in the one
statement that reads them; with the server, its minimum, its board's length, its recent
matches and its tournaments kept under the stamp, a page rendered anew is two statements
(the stamp and its lines)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.records.record import GLOBAL
from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.web.seed import BEA, GUILD, NAMES, Seeded
from tests.web.test_pages import TestClient, TestServer, seeded, text
from tests.web.test_player_scope import Counting

__all__ = ["seeded"]


async def counted(
    database_url: str, clock: FakeClock, **kwargs: Any
) -> tuple[web.Application, Counting]:
    """The pages' application on a reader whose every statement (its store's repositories'
    too) is counted."""
    reader = Reader(database_url, clock=clock, **kwargs)
    opened = await reader._open()
    counting = Counting(opened.db)
    for repo in vars(opened).values():
        if getattr(repo, "_db", None) is opened.db:
            repo._db = counting
    opened.db = counting  # type: ignore[assignment]
    return create_app(reader, rate_limit=0, clock=clock), counting


async def test_a_boards_page_reads_its_lines_with_who_left_and_who_is_provisional(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    store, _ = seeded
    await Records(store).set_privacy(BEA, GLOBAL, True)  # left the global boards only
    await ServerSettings(store).update(GUILD, board_minimum=1)  # the seed's few matches
    clock = FakeClock()
    app, counting = await counted(database_url, clock)
    bea = f"/s/{GUILD}/p/{BEA}"
    async with TestClient(TestServer(app)) as c:
        for by in ("wins", "rating"):
            first = await text(c, f"/s/{GUILD}?board=partners&by={by}&lang=en")
            counting.count = 0
            again = await text(c, f"/s/{GUILD}?board=partners&by={by}&page=2&lang=en")
            assert counting.count == 2, by  # the stamp, the page's lines
            assert ("a player" in first) == ("a player" in again)  # past the end: the same
        wins = await text(c, f"/s/{GUILD}?board=partners&by=wins&lang=en")
        assert "a player" in wins and bea not in wins
        assert NAMES[BEA].replace("<", "&lt;").split("&")[0] not in wins
        rating = await text(c, f"/s/{GUILD}?board=partners&by=rating&lang=en")
        assert "a player" in rating and bea not in rating
        assert rating.count('<abbr title="provisional rating">?</abbr>') >= 1  # a newcomer


async def test_a_match_page_reads_its_table_rules_and_tournament_in_one_statement(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """A finished match's page rendered anew (another language) with its server kept: the
    stamp, the record, its table with its rules, outcome and tournament board (one
    statement), its people, its hands and the seats taken over: six statements."""
    _, s = seeded
    clock = FakeClock()
    app, counting = await counted(database_url, clock)
    async with TestClient(TestServer(app)) as c:
        english = await text(c, f"/m/{s.played}?lang=en")
        counting.count = 0
        spanish = await text(c, f"/m/{s.played}?lang=es")
        assert counting.count == 6, counting.count
    for page in (english, spanish):
        assert f"https://discord.com/channels/{GUILD}/" in page  # where it was played


async def test_a_seasons_board_reads_who_left_and_who_is_provisional_in_one_statement(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """A season's board marks who left the global boards ("a player") and whose season
    rating is provisional ("?") with one statement for both."""
    store, _ = seeded
    await Records(store).set_privacy(BEA, GLOBAL, True)
    await ServerSettings(store).update(GUILD, board_minimum=1)
    clock = FakeClock()
    season = 1_700_000_100.0  # the seed's matches' season
    app, counting = await counted(database_url, clock, now=lambda: season)
    path = f"/s/{GUILD}?board=partners&period=season&lang=en"
    async with TestClient(TestServer(app)) as c:
        first = await text(c, path)
        counting.count = 0
        again = await text(c, path + "&page=2")
        assert counting.count == 5, counting.count  # stamp, length, page, ahead, marks
    for page in (first, again):
        assert "a player" in page and f"/s/{GUILD}/p/{BEA}" not in page
        assert '<abbr title="provisional rating">?</abbr>' in page
