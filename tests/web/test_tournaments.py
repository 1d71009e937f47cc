"""A server's tournaments on its pages, on each backend: the list, the standings as the
tournament's own rules rank them, the pairings of every round, and nothing of another server."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.privacy.forget import forget_person
from bot.records.service import Records
from bot.records.store import RecordsRepo
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tournaments.store import BoardRow, EntryRow, EventRow, RoundRow, TournamentRepo
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.web.test_pages import text

GUILD, OTHER = 555, 666
NAMES = {1: "Ana", 2: "Bea", 3: "Cid <i>"}  # the global names the records hold
NICKNAMES = {1: "Ana nick", 2: "Bea nick", 3: "Cid nick"}  # what the event stored on joining


EVENT = EventRow(
    id=0, guild_id=GUILD, channel_id=9, host_id=1, name="Friday <Cup>", variant="draw",
    options={}, format="individual", system="swiss", rounds=2, hands=None, points=100,
    time_limit=1800, grace=300, fill="bye", max_entrants=16, start_at=None, status="running",
    round=2, locale=None, winner_role=None, paused_left=None, created_at=1.0, updated_at=1.0,
    public_place=True,
)


async def new_event(repo: TournamentRepo, guild_id: int, **changes: Any) -> EventRow:
    """``EVENT`` with ``changes`` in ``guild_id``, entered by Ana, Bea and Cid (rated in that
    order)."""
    event = await repo.create(dataclasses.replace(EVENT, guild_id=guild_id, **changes))
    for user, name in NICKNAMES.items():
        await repo.add_entry(
            EntryRow(event.id, 0, user, name, None, None, "active", 1, 40.0 - user, 0, 1.0)
        )
    return event


async def make_event(
    store: Store, guild_id: int, status: str = "running", public_place: bool = True
) -> int:
    repo = TournamentRepo(store.db)
    event = await new_event(repo, guild_id, status=status, public_place=public_place)
    for number in (1, 2):
        await repo.put_round(RoundRow(event.id, number, "done", 1.0, 2.0))
    await repo.put_boards(
        [
            BoardRow(event.id, 1, 1, (1, 2), ((1,), (2,)), (1, 2), None, "done", True,
                     (100, 40), "played"),
            BoardRow(event.id, 1, 2, (3,), ((3,),), (3,), None, "done", True, None, "bye"),
            BoardRow(event.id, 2, 1, (1, 3), ((1,), (3,)), (1, 3), None, "done", True,
                     (30, 100), "played"),
            BoardRow(event.id, 2, 2, (2,), ((2,),), (2,), None, "done", True, None, "bye"),
        ]
    )
    return event.id


async def make_knockout(store: Store, guild_id: int) -> int:
    """A finished knockout of Ana, Bea and Cid: Ana's bye, Bea beats Cid, then Ana."""
    repo = TournamentRepo(store.db)
    event = await new_event(
        repo, guild_id, name="Knock", format="single", system="knockout", status="finished"
    )
    for number in (1, 2):
        await repo.put_round(RoundRow(event.id, number, "done", 1.0, 2.0))
    await repo.put_boards(
        [
            BoardRow(event.id, 1, 1, (2, 3), ((2,), (3,)), (2, 3), None, "done", True,
                     (100, 40), "played"),
            BoardRow(event.id, 1, 2, (1,), ((1,),), (1,), None, "done", True, None, "bye"),
            BoardRow(event.id, 2, 1, (1, 2), ((1,), (2,)), (1, 2), None, "done", True,
                     (30, 100), "played"),
        ]
    )
    return event.id


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[tuple[TestClient, Store]]:
    store = await Store.open(database_url)
    await ServerSettings(store).update(GUILD, web=True, web_name="Club")
    for user, name in NAMES.items():
        await RecordsRepo(store.db).put_player(user, name, "human", now=1.0)
    app = create_app(Reader(database_url, fresh=0), rate_limit=0)
    try:
        async with TestClient(TestServer(app)) as c:
            yield c, store
    finally:
        await store.close()


async def test_a_tournaments_standings_and_pairings(client: tuple[TestClient, Store]) -> None:
    c, store = client
    event = await make_event(store, GUILD)
    other = await make_event(store, OTHER, status="finished")
    listed = await text(c, f"/s/{GUILD}")
    assert f'href="/s/{GUILD}/t/{event}"' in listed and "Friday &lt;Cup&gt;" in listed
    page = await text(c, f"/s/{GUILD}/t/{event}")
    # Under way: a static script reads it again every minute (a button pauses it), never a
    # reload that refreshes by itself (an accessibility failure).
    assert '<script src="/static/live.js" defer></script>' in page and 'id="live-note"' in page
    assert 'http-equiv="refresh"' not in page and "Pause updates" in page
    done = await make_event(store, GUILD, status="finished")
    assert "live.js" not in await text(c, f"/s/{GUILD}/t/{done}")
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    # Cid (a bye and a win) and Ana (a win and a loss): Cid first; Bea last.
    assert [r.split('<th scope="row">')[1].split("<")[0] for r in rows] == [
        "Cid &lt;i&gt;", "Ana", "Bea"
    ]
    assert page.count("<h2 id=\"round-") == 2 and "100–40" in page and "30–100" in page
    for path in (f"/s/{GUILD}/t/{other}", f"/s/{OTHER}/t/{other}", f"/s/{GUILD}/t/999"):
        await text(c, path, 404)
    await text(c, f"/s/{GUILD}/t/x", 400)

    assert "nick" not in page  # the server nicknames the event stored are not public

    await Records(store).set_privacy(2, GUILD, True)  # Bea left this server's boards
    page = await text(c, f"/s/{GUILD}/t/{event}")
    assert "Bea" not in page and "a player" in page
    await forget_person(Records(store), 1)
    page = await text(c, f"/s/{GUILD}/t/{event}")
    assert "Ana" not in page and "a former player" in page and "nick" not in page


async def test_an_entrant_the_records_do_not_know_yet_is_a_player(
    client: tuple[TestClient, Store],
) -> None:
    """Our decision: the pages name people by the global name the records hold; one who has
    no recorded match yet is "a player" (the event holds only his server nickname)."""
    c, store = client
    event = await make_event(store, GUILD)
    await store.db.execute("DELETE FROM record_players WHERE player_id = 3")
    page = await text(c, f"/s/{GUILD}/t/{event}")
    assert "Cid" not in page and "a player" in page and "Ana" in page


async def test_a_knockouts_bracket(client: tuple[TestClient, Store]) -> None:
    """A knockout's page shows its bracket as tables of rounds named from the final backwards:
    the top seed's bye, each table's points and who went through."""
    c, store = client
    event = await make_knockout(store, GUILD)
    page = await text(c, f"/s/{GUILD}/t/{event}")
    bracket = page.split('<h2 id="bracket-title">Bracket</h2>')[1].split("</section>")[0]
    semis, final = bracket.split("<caption>")[1:]
    assert semis.startswith("Semi-finals</caption>") and final.startswith("Final</caption>")

    def rows(table: str) -> list[list[str]]:
        body = table.split("<tbody>")[1].split("</tbody>")[0]
        return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in body.split("<tr>")[1:]]

    assert rows(semis) == [["Ana", "bye", "", "Ana"], ["Bea", "Cid &lt;i&gt;", "100–40", "Bea"]]
    assert rows(final) == [["Ana", "Bea", "30–100", "Bea"]]
    swiss = await make_event(store, GUILD)
    assert "bracket-title" not in await text(c, f"/s/{GUILD}/t/{swiss}")


async def test_an_event_of_a_channel_everyone_could_not_view_has_no_page(
    client: tuple[TestClient, Store],
) -> None:
    c, store = client
    shown = await make_event(store, GUILD)
    staff = await make_event(store, GUILD, status="finished", public_place=False)
    listed = await text(c, f"/s/{GUILD}")
    assert f'href="/s/{GUILD}/t/{shown}"' in listed
    assert f'href="/s/{GUILD}/t/{staff}"' not in listed
    await text(c, f"/s/{GUILD}/t/{staff}", 404)


async def test_an_arenas_page_shows_its_score_and_performance(
    client: tuple[TestClient, Store],
) -> None:
    """An arena's standings (docs/tournaments.md, Arena): its points with streaks (Ana: win,
    win, then a doubled win) and the performance, not match points, byes and Buchholz."""
    c, store = client
    repo = TournamentRepo(store.db)
    event = await new_event(
        repo, GUILD, name="Blitz", format="single", system="arena", rounds=0, arena=3600,
    )
    await repo.put_boards(
        [
            BoardRow(event.id, n, 1, (1, other), ((1,), (other,)), (1, other), None, "done",
                     False, (100, 0), "played")
            for n, other in ((1, 2), (2, 3), (3, 2))
        ]
    )
    page = await text(c, f"/s/{GUILD}/t/{event.id}")
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert "Arena points" in head and "Performance" in head
    assert "Buchholz" not in head and "Byes" not in head and "Match points" not in head
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    first = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", rows[0])
    assert first[1] == "Ana" and first[2] == "8", rows[0]  # 2 + 2 + 4
    assert "Arena" in page
