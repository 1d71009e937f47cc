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
from bot.web.pages import READER
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.web.seed import ANA, BEA, GUILD, NAMES, Seeded
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


async def test_a_match_page_reads_its_record_table_people_and_hands_in_one_statement(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """A finished match's page rendered anew (another language) with its server kept: the
    stamp, then one statement for the record, its table with its rules, outcome, tournament
    board and seats taken over, its people (with who left the boards) and its hands, in
    their order: two statements."""
    store, s = seeded
    await Records(store).set_privacy(BEA, GLOBAL, True)  # left the global boards: "a player"
    clock = FakeClock()
    app, counting = await counted(database_url, clock)
    async with TestClient(TestServer(app)) as c:
        english = await text(c, f"/m/{s.played}?lang=en")
        counting.count = 0
        spanish = await text(c, f"/m/{s.played}?lang=es")
        assert counting.count == 2, counting.count
        found = await app[READER].match(s.played)
    for page in (english, spanish):
        assert f"https://discord.com/channels/{GUILD}/" in page  # where it was played
    assert found is not None
    hands = await store.hand_results.list(s.played)
    assert hands and found.hands == tuple(h.result for h in hands)  # each hand, in order
    entries = await store.db.fetchall(
        "SELECT player_id, side FROM record_entries WHERE table_id = ?"
        " ORDER BY side, player_id",
        (s.played,),
    )
    assert [(p.player_id, p.side) for p in found.seats] == [(int(r[0]), int(r[1])) for r in entries]
    assert [p.shown for p in found.seats if p.player_id == BEA] == [False]
    assert all(p.shown for p in found.seats if p.player_id != BEA)
    assert "a player" in english and f"/s/{GUILD}/p/{BEA}" not in english
    assert f'<a href="/s/{GUILD}/p/{ANA}?lang=en">Ana Global</a>' in english  # the record's name


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
    path = f"/s/{GUILD}?board=partners&period=season"
    async with TestClient(TestServer(app)) as c:
        await text(c, path + "&lang=en")
        counting.count = 0
        first = await text(c, path + "&page=0&lang=en")  # the same page, rendered anew
        assert counting.count == 2, counting.count  # the stamp, the page with its marks
        counting.count = 0
        past = await text(c, path + "&page=9&lang=en")
        assert counting.count == 3, counting.count  # past the end: the last page read again
    for page in (first, past):
        assert "a player" in page and f"/s/{GUILD}/p/{BEA}" not in page
        assert '<abbr title="provisional rating">?</abbr>' in page


async def test_a_weeks_or_months_board_reads_its_length_places_and_who_left_with_its_lines(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """A week's or a month's board reads its length, the place of its first line and who left
    the global boards ("a player", no link) in the statement of its lines: with the stamp,
    two statements (past the end, the last page: one more)."""
    store, _ = seeded
    await Records(store).set_privacy(BEA, GLOBAL, True)
    clock = FakeClock()
    week = 1_700_000_100.0  # the seed's matches' week and month
    app, counting = await counted(database_url, clock, now=lambda: week)
    async with TestClient(TestServer(app)) as c:
        for kind in ("week", "month"):
            path = f"/s/{GUILD}?board=partners&period={kind}"
            await text(c, path + "&lang=en")
            counting.count = 0
            first = await text(c, path + "&page=0&lang=en")  # the same page, rendered anew
            assert counting.count == 2, (kind, counting.count)  # the stamp, the page
            counting.count = 0
            past = await text(c, path + "&page=9&lang=en")
            assert counting.count == 3, (kind, counting.count)
            for page in (first, past):
                assert "a player" in page and f"/s/{GUILD}/p/{BEA}" not in page


async def test_a_match_page_names_the_seats_taken_over_once_each_in_the_order_taken(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """The seats a computer took over after too many time-outs, read with the match's table:
    each once, in the order of the take-overs (not of the seats), on both databases."""
    store, s = seeded
    rows = await store.db.fetchall(
        "SELECT seq, seat, action, created_at FROM actions WHERE table_id = ? ORDER BY seq",
        (s.played,),
    )
    seats = list(dict.fromkeys(int(r[1]) for r in rows))
    assert len(seats) >= 2, rows
    later, lower = max(seats), min(seats)  # the higher seat taken over first, then again
    last = max(int(r[0]) for r in rows)
    for n, seat in enumerate((later, lower, later), start=1):
        await store.db.execute(
            "INSERT INTO actions (table_id, seq, seat, action, created_at, made_by)"
            " VALUES (?, ?, ?, ?, ?, 'takeover')",
            (s.played, last + n, seat, str(rows[-1][2]), float(rows[-1][3])),
        )
    expected = (later, lower)
    assert expected[0] == later and len(expected) == 2
    clock = FakeClock()
    app, _ = await counted(database_url, clock)
    async with TestClient(TestServer(app)) as c:
        page = await text(c, f"/m/{s.played}?lang=en")
        reader = app[READER]
        found = await reader.match(s.played)
    assert found is not None and found.ending is not None
    assert found.ending.taken_over == expected
    assert "A computer played for" in page and "after too many time-outs" in page
