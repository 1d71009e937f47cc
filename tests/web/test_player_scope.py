"""A server's player page counts only that server's public matches (on each backend): not the
matches of another server, of a staff channel or of a private thread, nor ratings, results or
achievements that come from them; achievements are dated to the day."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.achievements.catalogue import BY_CODE
from bot.achievements.store import AchievementRepo, Earned
from bot.privacy.forget import forget_person
from bot.records.rating import display_rating
from bot.records.service import PlayerStats, Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.store.table_extras import Readable
from bot.tables.service import TableService
from bot.web import reader as reader_module
from bot.web.app import create_app
from bot.web.queries import RecentMatch, WebRepo
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import duel
from tests.web.seed import ANA, BEA, DARK, GUILD, NAMES, Seeded, play_match
from tests.web.test_pages import client, seeded, text

__all__ = ["client", "seeded"]  # the fixtures of the pages' tests

OTHER = 777  # a second server with pages


async def _names(ids: Sequence[int]) -> Mapping[int, str]:
    return {i: NAMES[i] for i in ids if i in NAMES}


def matches_counted(page: str) -> int:
    """The page's count of matches in all variants."""
    found = re.search(r'<th scope="row">All variants</th><td>(\d+)</td>', page)
    assert found, page
    return int(found.group(1))


async def test_a_player_page_shows_only_the_servers_public_matches(
    client: TestClient, seeded: tuple[Store, Seeded]
) -> None:
    store, s = seeded
    await ServerSettings(store).update(OTHER, web=True, web_name="Other")
    clock = FakeClock()
    records = Records(store, clock=clock, names=_names)
    service = TableService(
        store, clock=clock, seed_source=lambda: 7, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    try:
        staff = await play_match(service, records, GUILD, channel_id=8, public_place=False)
        hidden_there = await play_match(service, records, OTHER, channel_id=8,
                                        public_place=False)
        # Only a match nobody could look at on OTHER: no page there.
        await text(client, f"/s/{OTHER}/p/{ANA}", 404)
        other = await play_match(service, records, OTHER)
        secret = await play_match(service, records, GUILD, channel_id=9, parent_id=7,
                                  private_thread=True, public_place=False)
    finally:
        await service.aclose()
    # Achievements earned elsewhere, to the second, must not show here.
    late = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
    had = {e.code for e in await AchievementRepo(store.db).of_player(ANA)}
    codes = [c for c in BY_CODE if c not in had]
    await AchievementRepo(store.db).award([
        Earned(ANA, codes[-1], staff, GUILD, late),
        Earned(ANA, codes[-2], other, OTHER, late),
        Earned(ANA, codes[-3], s.dark, DARK, late),
    ])

    page = await text(client, f"/s/{GUILD}/p/{ANA}")
    assert "<h1>Ana Global</h1>" in page
    assert matches_counted(page) == 1
    assert f'href="/m/{s.played}"' in page
    for table in (staff, secret, other, hidden_there, s.dark):
        assert f'href="/m/{table}' not in page
    assert "Everywhere" not in page and "Only this server&#39;s public matches" in page
    entry = next(e for e in await Records(store).repo.entries_of([s.played])
                 if e.player_id == ANA)
    assert entry.rated
    shown = display_rating(entry.mu_after, entry.sigma_after)
    assert re.search(rf"<td>{shown}</td><td>1</td></tr>", page), "the rating after his match here"
    for code in codes[-3:]:
        assert f"/badges/{code}.png" not in page
    # Achievements earned here are dated to the day, never the time.
    assert not re.search(r'<time datetime="[^"]*T', page.split('id="history-title"')[0])
    assert " UTC</time>" not in page.split('id="history-title"')[0]

    there = await text(client, f"/s/{OTHER}/p/{ANA}")
    assert matches_counted(there) == 1
    assert f'href="/m/{other}"' in there and f'href="/m/{s.played}"' not in there
    assert f"/badges/{codes[-2]}.png" in there and '<time datetime="2023-11-14">' in there
    assert f"/badges/{codes[-1]}.png" not in there


class Counting:
    """The reader's real database connection, counting the statements run through it."""

    def __init__(self, db: object) -> None:
        self._db = db
        self.count = 0

    def __getattr__(self, name: str) -> object:
        found = getattr(self._db, name)
        if name not in {"execute", "fetchone", "fetchall", "fetchval"}:
            return found

        async def counted(*args: object, **kwargs: object) -> object:
            self.count += 1
            return await found(*args, **kwargs)

        return counted


async def test_a_missing_player_page_costs_the_same_whoever_he_is(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """Whether a person plays on a server does not show in what his page's 404 costs: the
    same statements for nobody, a person with results but no public match here, one who left
    the boards and one who was forgotten."""
    store, _ = seeded
    await Records(store).set_privacy(BEA, GUILD, True)
    await duel(Records(store), 95_000, 2001, 2002, guild_id=DARK)  # plays on another server
    reader = Reader(database_url, fresh=0)
    opened = await reader._open()
    counting = Counting(opened.db)
    opened.db = counting  # type: ignore[assignment]
    app = create_app(reader, rate_limit=0)
    costs = {}
    async with TestClient(TestServer(app)) as c:
        # Nobody; played elsewhere only; left this server's boards; forgotten; results here
        # but no public match.
        for person in (999, 2001, BEA, ANA, 1000):
            if person == ANA:
                await forget_person(Records(store), ANA)
            # (the server's settings, read again only when the database's stamp moved: a
            # forget-me moves it)
            await text(c, f"/s/{GUILD}/p/999", 404)
            counting.count = 0
            await text(c, f"/s/{GUILD}/p/{person}", 404)
            costs[person] = counting.count
            assert len(set(costs.values())) == 1, costs


async def test_a_persons_page_is_read_in_one_statement(
    database_url: str, seeded: tuple[Store, Seeded]
) -> None:
    """Our decision (docs/web.md): a person's first page costs the pages' process one
    statement after the database's stamp (each statement costs it more than the rows read by
    key): whether he has a page, his name, figures, curves, latest matches and achievements;
    the server's settings are kept under the stamp, as its boards' pages keep them."""
    store, s = seeded
    had = {e.code for e in await AchievementRepo(store.db).of_player(ANA)}
    code = next(c for c in BY_CODE if c not in had)
    await AchievementRepo(store.db).award([Earned(ANA, code, s.played, GUILD, 1_700_000_000.0)])
    reader = Reader(database_url, fresh=0)
    opened = await reader._open()
    counting = Counting(opened.db)
    opened.db = counting  # type: ignore[assignment]
    app = create_app(reader, rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        await text(c, f"/s/{GUILD}/p/999", 404)  # the server's settings read once
        counting.count = 0
        page = await text(c, f"/s/{GUILD}/p/{ANA}")
        assert counting.count == 2, counting.count  # the stamp, then his page
        assert "<h1>Ana Global</h1>" in page and matches_counted(page) > 0
        assert f"/badges/{code}.png" in page  # his achievements came with it


async def test_the_page_shows_the_counted_figures(
    database_url: str, seeded: tuple[Store, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's page, from the figures the database keeps (a few rows, however long his
    history: his lines, ratings, curves and latest matches), is the page his entries in the
    server's public matches counted one by one give."""

    async def page() -> str:
        app = create_app(Reader(database_url, fresh=0), rate_limit=0)
        async with TestClient(TestServer(app)) as c:
            return await text(c, f"/s/{GUILD}/p/{ANA}")

    kept = await page()

    async def counted(
        web: WebRepo, guild_id: int, player_id: int, name: str, kept: object = None
    ) -> tuple[PlayerStats, tuple[RecentMatch, ...], dict[str, str]]:
        entries = await web.public_entries(guild_id, player_id)
        versus = await web.public_versus(guild_id, player_id)
        history = await Records(store).history(
            player_id, limit=reader_module.HISTORY, readable=Readable.public(guild_id)
        )
        latest = tuple(
            RecentMatch(h.table_id, h.variant, h.result, h.points_for, h.points_against,
                        h.finished_at)
            for h in history
        )
        stats = reader_module.public_stats(guild_id, player_id, name, entries, versus)
        curves = reader_module.curve_texts(stats.series)
        return dataclasses.replace(stats, series={}), latest, curves

    store = seeded[0]
    monkeypatch.setattr(reader_module, "kept_figures", counted)
    assert await page() == kept
    assert matches_counted(kept) > 0
