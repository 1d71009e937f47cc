"""What the pages say, on each backend: how a match ended (a resignation is one, never a pass),
the rating boards' minimum of matches and their provisional ratings, the order of a person's
results, tournaments as their system has them, links to people's pages and back to an event,
the home and 404 pages, trailing slashes, the languages offered and the link previews of every
page kind."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.records.board_sql import DEFAULT_BOARD_MINIMUM, PROVISIONAL_SIGMA
from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.store import BoardRow, EntryRow, RoundRow, TournamentRepo
from bot.web.app import create_app
from bot.web.reader import Ending, Reader
from bot.web.words import ending_text
from tests.bot.helpers import FakeClock
from tests.web.seed import ANA, BEA, GUILD, Seeded, _names, seed
from tests.web.test_pages import ES, text
from tests.web.test_tournaments import EVENT, new_event

BASE = "https://pages.example"


@dataclass(frozen=True, slots=True)
class Site:
    store: Store
    seeded: Seeded
    resigned: int  # a draw game Ana resigned before its first hand ended
    swiss: int  # a Swiss event whose first board was the seeded match, round 2 in check-in
    knockout: int


async def resigned_match(store: Store) -> int:
    """Ana and Bea start a draw game on GUILD; Ana resigns at once."""
    clock = FakeClock()
    service = TableService(
        store, clock=clock, seed_source=lambda: 11, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    try:
        table = await service.create_table(
            host_id=ANA, host_name="Ana", variant="draw", guild_id=GUILD, channel_id=7,
            public_place=True,
        )
        await service.join(table.id, BEA, "Bea")
        await service.start(table.id, ANA)
        await service.resign(table.id, ANA)
    finally:
        await service.aclose()
    assert await Records(store, clock=clock, names=_names).record(table.id)
    return table.id


async def events(store: Store, played: int) -> tuple[int, int]:
    """A Swiss event of Ana and Bea (its first round's board: the seeded match; its second
    round in check-in) and a knockout of the same people."""
    repo = TournamentRepo(store.db)
    swiss = await repo.create(dataclasses.replace(
        EVENT, guild_id=GUILD, name="Swiss <Cup>", variant="partners"
    ))
    for user in (ANA, BEA):  # entries 1 and 2
        await repo.add_entry(
            EntryRow(swiss.id, 0, user, "nick", None, None, "active", 1, 40.0, 0, 1.0)
        )
    await repo.put_round(RoundRow(swiss.id, 1, "done", 1.0, 2.0))
    await repo.put_round(RoundRow(swiss.id, 2, "checkin", None, None))
    await repo.put_boards([
        BoardRow(swiss.id, 1, 1, (1, 2), ((1,), (2,)), (ANA, BEA), played, "done", True,
                 (100, 40), "played"),
    ])
    knock = await new_event(repo, GUILD, name="Knock", system="knockout", format="single",
                            status="finished")
    await repo.put_round(RoundRow(knock.id, 1, "done", 1.0, 2.0))
    await repo.put_boards([
        BoardRow(knock.id, 1, 1, (2, 3), ((2,), (3,)), (2, 3), None, "done", True,
                 (100, 40), "played"),
    ])
    return swiss.id, knock.id


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    store = await Store.open(database_url)
    try:
        seeded = await seed(store)
        resigned = await resigned_match(store)
        swiss, knock = await events(store, seeded.played)
        yield Site(store, seeded, resigned, swiss, knock)
    finally:
        await store.close()


@pytest.fixture
async def client(database_url: str, site: Site) -> AsyncIterator[TestClient]:
    app = create_app(Reader(database_url, fresh=0), base_url=BASE, rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        yield c


def meta(page: str, key: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"', page)
    return None if found is None else found.group(1)


async def test_a_resignation_is_said_so_in_the_replay_and_on_the_match_page(
    client: TestClient, site: Site
) -> None:
    page = await text(client, f"/m/{site.resigned}")
    assert "Ana Global resigned during hand 1, so Bea &lt;b&gt;&amp;amp; won the match." in page
    assert "No hand was finished." in page and '<table class="hands">' not in page
    response = await client.get(f"/m/{site.resigned}/replay.json")
    replay = json.loads(await response.text())
    last = replay["positions"][-1]
    assert last["seat"] == 0 and "Ana Global resigned." in last["text"]
    assert not any("passed" in p["text"] for p in replay["positions"])
    spanish = await text(client, f"/m/{site.resigned}", **ES)
    assert "Ana Global abandonó en la mano 1" in spanish
    # A match played to its end says who won and how.
    played = await text(client, f"/m/{site.seeded.played}")
    assert re.search(r"won the match by reaching 100 points\.", played)


def test_each_ending_in_words() -> None:
    """Our decision: a match page says how the match ended, in one or two sentences."""
    names = ["Ana", "Bob"]

    def said(reason: str, *, winner: int | None = 0, draw: bool = False, taken=(), hands=4,
             resigned: int | None = None) -> str:
        ending = Ending(reason, resigned, 100, 4, tuple(taken))
        return " ".join(ending_text("en-US", ending, winner_side=winner, draw=draw,
                                    hands_played=hands, side_names=names, seat_names=names))

    assert said("target") == "Ana won the match by reaching 100 points."
    assert said("hands", winner=1) == "Bob won the match on points after 4 hands."
    assert said("hands", winner=None, draw=True) == "The match was drawn after 4 hands."
    assert said("resign", winner=1, resigned=0, hands=2) == (
        "Ana resigned during hand 3, so Bob won the match."
    )
    assert said("target", taken=[1]).endswith(
        "A computer played for Bob after too many time-outs."
    )


async def test_rating_boards_list_people_after_the_servers_minimum_of_matches(
    client: TestClient, site: Site, database_url: str
) -> None:
    """As Lichess ranks nobody before some rated games: Ana and Bea played one partners
    match, below the default minimum (5), so the rating board leaves them off and the wins
    board lists them; the server's setting lowers it, and their ratings are marked
    provisional (a "?")."""
    rating = await text(client, f"/s/{GUILD}?board=partners")
    rows = rating.split("<tbody>")[1].split("</tbody>")[0] if "<tbody>" in rating else ""
    assert "Ana Global" not in rows and "Nobody is on this leaderboard yet." in rating
    assert f"Players are listed after {DEFAULT_BOARD_MINIMUM} matches" in rating
    wins = await text(client, f"/s/{GUILD}?board=partners&by=wins")
    assert "Ana Global" in wins.split("<tbody>")[1]
    records = Records(site.store)
    board = await records.leaderboard(scope=GUILD, bucket="two-player", by="rating", per_page=3)
    lines = await site.store.db.fetchall(
        "SELECT player_id, matches FROM record_stats WHERE scope = ? AND bucket = ?"
        " AND rating IS NOT NULL AND player_id > 0 AND hidden = 0",
        (GUILD, "two-player"),
    )
    assert board.least == DEFAULT_BOARD_MINIMUM
    assert board.total == sum(1 for _, m in lines if m >= DEFAULT_BOARD_MINIMUM) > 0
    assert board.pages == -(-board.total // 3)
    await ServerSettings(site.store).update(GUILD, board_minimum=1)
    shown = await text(client, f"/s/{GUILD}?board=partners")
    table = shown.split("<tbody>")[1].split("</tbody>")[0]
    assert "Ana Global" in table and 'title="provisional rating">?</abbr>' in table
    assert "Players are listed after 1 matches" in shown
    sigma = await site.store.db.fetchval(
        "SELECT sigma FROM record_ratings WHERE player_id = ? AND family = 'partnership'",
        (ANA,),
    )
    assert sigma > PROVISIONAL_SIGMA
    everyone = await records.leaderboard(scope=GUILD, bucket="two-player", by="rating")
    assert everyone.total == len(lines)
    with pytest.raises(Exception, match="between 1 and 50"):
        await ServerSettings(site.store).update(GUILD, board_minimum=0)
    assert (await ServerSettings(site.store).get(GUILD)).board_minimum == 1


async def test_the_order_menu_works_on_every_board(client: TestClient) -> None:
    """Week and month rank by wins (no rating over a week: the menu says so), the season by
    its rating or its wins, all time by rating or wins."""
    for period in ("week", "month"):
        page = await text(client, f"/s/{GUILD}?period={period}&by=rating")
        assert '<option value="wins" selected>' in page
        assert '<option value="rating" disabled>' in page
    season = await text(client, f"/s/{GUILD}?period=season&by=wins")
    assert '<option value="wins" selected>' in season and "the season&#39;s wins" in season
    rated = await text(client, f"/s/{GUILD}?period=season&by=rating")
    assert '<option value="rating" selected>' in rated


async def test_a_players_results_in_the_board_menus_order(client: TestClient) -> None:
    page = await text(client, f"/s/{GUILD}/p/{ANA}")
    results = page.split('id="results-1"')[1].split("</table>")[0]
    names = re.findall(r'<th scope="row">([^<]*)</th>', results)
    assert names == [
        "All variants", "Partnership games", "Partners (Latin)", "Two-player games",
        "Draw game (two players)",
    ]


def test_a_family_of_one_variant_is_one_line_of_a_persons_results() -> None:
    """Our decision: three players and All Fives, each a family of one variant, are one line
    each of a person's results (the variant's line would repeat the family's figures)."""
    from aiohttp.test_utils import make_mocked_request

    from bot.records.service import PlayerStats
    from bot.records.store import StatRow
    from bot.web.player import player_response
    from bot.web.queries import WebServer
    from bot.web.reader import PlayerPage

    def line(bucket: str, matches: int) -> StatRow:
        return StatRow(GUILD, bucket, ANA, matches, matches, 0, 0, 0, 0, 0, 0, 0, 0, 1, None, 0.0)

    server = {b: line(b, n) for b, n in (
        ("all", 6), ("two-player", 3), ("draw", 2), ("two", 1), ("three-player", 2),
        ("three", 2), ("fives", 1), ("all-fives", 1),
    )}
    stats = PlayerStats(ANA, "Ana", "human", server=server)
    app = create_app(Reader("sqlite:///unused.sqlite3"))
    request = make_mocked_request("GET", f"/s/{GUILD}/p/{ANA}", app=app)
    body = player_response(request, PlayerPage(WebServer(GUILD, "S"), stats, ())).body
    assert isinstance(body, bytes)
    results = body.decode().split('id="results-1"')[1].split("</table>")[0]
    assert re.findall(r'<th scope="row">([^<]*)</th>', results) == [
        "All variants", "Two-player games", "Draw game (two players)", "Domino for two",
        "Three players", "All Fives",
    ]


async def test_tournaments_as_their_system_has_them(client: TestClient, site: Site) -> None:
    swiss = await text(client, f"/s/{GUILD}/t/{site.swiss}")
    assert "Buchholz" in swiss and "Match points" in swiss
    assert "Check-in is open: the pairings follow when it closes." in swiss
    assert swiss.count("<table") == 2  # the standings and round 1, no empty table
    # Entrants link to their pages (Ana and Bea have one on this server).
    assert f'href="/s/{GUILD}/p/{ANA}">Ana Global</a>' in swiss
    knock = await text(client, f"/s/{GUILD}/t/{site.knockout}")
    assert "Buchholz" not in knock and "Match points" not in knock
    # The event's match links back to the event.
    match = await text(client, f"/m/{site.seeded.played}")
    assert f'href="/s/{GUILD}/t/{site.swiss}">Swiss &lt;Cup&gt;</a>' in match
    assert f'href="/s/{GUILD}/t/' not in await text(client, f"/m/{site.resigned}")
    # The server's recent matches link their people.
    server = await text(client, f"/s/{GUILD}")
    recent = server.split('id="recent-title"')[1]
    assert f'<a href="/s/{GUILD}/p/{ANA}">Ana Global</a>' in recent


async def test_home_404_and_trailing_slashes_lead_somewhere(client: TestClient) -> None:
    home = await text(client, "/")
    assert 'action="/s"' in home and 'name="server"' in home
    found = await client.get(f"/s?server={GUILD}", allow_redirects=False)
    assert found.status == 303 and found.headers["Location"] == f"/s/{GUILD}"
    await text(client, "/s?server=abc", 400)
    missing = await text(client, f"/s/{GUILD}/p/999999", 404)
    assert f'href="/s/{GUILD}">' in missing and 'href="/">' in missing
    unknown = await text(client, "/s/424242/p/1", 404)
    assert "/s/424242" not in unknown  # a server without pages is never named
    slash = await client.get(f"/s/{GUILD}/?board=two-player&lang=es", allow_redirects=False)
    assert slash.status == 308
    assert slash.headers["Location"] == f"/s/{GUILD}?board=two-player&lang=es"
    gone = await client.get("/m/424242/")  # redirected, then the unknown match's 404
    assert gone.status == 404 and str(gone.url).endswith("/m/424242")


async def test_latin_american_spanish_is_offered(client: TestClient) -> None:
    page = await text(client, f"/s/{GUILD}/p/{ANA}", **{"Accept-Language": "es-MX,es;q=0.8"})
    assert '<html lang="es-419">' in page and "Contra la computadora" in page
    spain = await text(client, f"/s/{GUILD}/p/{ANA}", **ES)
    assert '<html lang="es">' in spain and "Contra la máquina" in spain
    assert 'hreflang="es-419"' in spain and "Español (Latinoamérica)" in spain


async def test_every_page_kind_has_a_link_preview(client: TestClient, site: Site) -> None:
    site_image = await client.get("/static/preview.png")
    size = Image.open(io.BytesIO(await site_image.read())).size
    for path in ("/", f"/s/{GUILD}", f"/s/{GUILD}/p/{ANA}", f"/s/{GUILD}/t/{site.swiss}"):
        page = await text(client, path)
        assert meta(page, "og:site_name") == "Dominoes"
        assert meta(page, "og:title") and meta(page, "og:description"), path
        assert meta(page, "og:image") == f"{BASE}/static/preview.png"
        assert (int(meta(page, "og:image:width")), int(meta(page, "og:image:height"))) == size
        assert meta(page, "og:url") == BASE + path
    player = await text(client, f"/s/{GUILD}/p/{ANA}")
    assert meta(player, "og:description") == (
        "Ana Global on Domino &lt;Club&gt;: results, ratings and achievements."
    )
    match = await text(client, f"/m/{site.resigned}")
    image = meta(match, "og:image")
    assert image == f"{BASE}/m/{site.resigned}/preview.png"
    picture = await client.get(image.removeprefix(BASE))
    drawn = Image.open(io.BytesIO(await picture.read())).size
    assert (int(meta(match, "og:image:width")), int(meta(match, "og:image:height"))) == drawn
    assert meta(match, "og:site_name") == "Dominoes"
    assert "resigned during hand 1" in (meta(match, "og:description") or "")
    assert "og:url" not in await text(client, "/m/424242", 404)  # no preview of an error


async def test_no_base_address_no_preview_picture(database_url: str, site: Site) -> None:
    """Open Graph wants absolute addresses: without ``WEB_BASE_URL`` the pages name none."""
    app = create_app(Reader(database_url, fresh=0), rate_limit=0)
    async with TestClient(TestServer(app)) as c:
        page = await text(c, f"/s/{GUILD}")
    assert meta(page, "og:title") and meta(page, "og:image") is None



def test_one_word_for_a_hand_and_for_the_computer() -> None:
    """Our decision: Brazilian Portuguese calls a hand "mão" wherever the English names one
    (never "rodada", a tournament's round, nor "partida", a match); Spain's Spanish calls the
    computer "máquina" and Latin America's "computadora", in the pages and in Discord."""
    from bot import i18n, locales
    from bot.i18n import COMMAND_NAME, OPTION_NAME, tr

    # (the English word is a placeholder's, or a seat's: "both hands of a pair")
    not_a_noun = {"Table picture. {hand}.", "{variant} · {hand}",
                  "Your turn: you open the hand."}
    checked = 0
    for m in locales.read(i18n.catalogue_path("pt_BR"), "pt_BR"):
        text = m.id if isinstance(m.id, str) else m.id[0]
        english = re.sub(r"\{\w+\}", "", text)
        if not m.string or m.context in (COMMAND_NAME, OPTION_NAME) or text in not_a_noun:
            continue
        if not re.search(r"\bhands?\b", english, re.I) or "hands of a pair" in english:
            continue
        said = tr("pt-BR", text) if not m.context else str(m.string)
        assert re.search(r"\bm[ãa]os?\b", said, re.I), (text, said)
        checked += 1
    assert checked > 30
    for m in locales.read(i18n.catalogue_path("es"), "es"):
        text = m.id if isinstance(m.id, str) else m.id[0]
        if m.context or not re.search(r"\bcomputers?\b", text, re.I):
            continue
        spain, latin = tr("es-ES", text), tr("es-419", text)
        assert "máquina" in spain.lower() and "computadora" not in spain.lower(), spain
        assert "computadora" in latin.lower() and "máquina" not in latin.lower(), latin
