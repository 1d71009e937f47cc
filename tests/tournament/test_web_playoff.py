"""A Swiss event's playoff on the web page (both backends): the Swiss standings, then the
playoff's bracket, read by the web process from what the service stored."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from bot.records.store import RecordsRepo
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from bot.web.app import create_app
from bot.web.reader import Reader
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import play_round
from tests.tournament.test_features import started_playoff
from tests.tournament.test_service import GUILD
from tests.web.test_pages import text


async def test_the_page_of_an_event_with_a_playoff(
    events: TournamentService,
    tables: TableService,
    clock: FakeClock,
    store: Store,
    database_url: str,
) -> None:
    await ServerSettings(store).update(GUILD, web=True, web_name="Club")
    event = await started_playoff(events, 5, rounds=2, public_place=True)
    for _ in range(2):
        await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    seeds = state.event.playoff_seeds or []
    outsiders = {e.user_id for e in state.entries if e.entry not in seeds}
    for _ in range(2):
        await play_round(events, tables, clock, event.id, skip=outsiders)
    state = await events.state(event.id)
    assert state.event.status == "finished"
    for e in state.entries:  # the pages name people by the global names the records hold
        await RecordsRepo(store.db).put_player(e.user_id, e.name, "human", now=1.0)
    app = create_app(Reader(database_url, fresh=0), rate_limit=0)
    async with TestClient(TestServer(app)) as client:
        page = await text(client, f"/s/{GUILD}/t/{event.id}")
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    shown = [r.split('<th scope="row">')[1].split("<")[0] for r in rows]
    names = {e.entry: e.name for e in state.entries}
    assert shown == [names[s.entrant] for s in state.standings()]  # the Swiss standings
    bracket = page.split('<h2 id="bracket-title">')[1].split("</section>")[0]
    assert bracket.count("<caption>") == 2
    assert "<caption>Semi-finals</caption>" in bracket and "<caption>Final</caption>" in bracket
    tree = state.bracket()
    assert tree is not None and tree.champion is not None
    final = bracket.split("<caption>Final</caption>")[1]
    assert f"<td>{names[tree.champion]}</td></tr>" in final
    assert page.count('<h2 id="round-') == 4
