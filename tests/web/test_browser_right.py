"""What a visitor sees in a real headless Chromium (as ``test_browser.py``): a resignation in
the replay and on the match page, the rating board's minimum and provisional marks, the order
menu of the season's board, a knockout's standings and a check-in round, names that lead to
their pages, the home page's form, a trailing slash, the 404's way back and the languages."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from bot.servers.settings import ServerSettings
from bot.settings import sqlite_url
from bot.store import Store
from tests.web.browser import CHROMIUM, DRIVER, axe_violations, chromium, find, serve
from tests.web.seed import ANA, GUILD, seed
from tests.web.test_browser import no_console_errors, wait_for
from tests.web.test_right import events, resigned_match

pytestmark = pytest.mark.skipif(
    not os.environ.get("CI")
    and (find(CHROMIUM, "chromium") is None or find(DRIVER, "chromedriver") is None),
    reason="Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int], str]]:
    url = sqlite_url(tmp_path_factory.mktemp("web") / "db.sqlite3")

    async def fill() -> dict[str, int]:
        store = await Store.open(url)
        try:
            seeded = await seed(store)
            resigned = await resigned_match(store)
            swiss, knock = await events(store, seeded.played)
            return {"played": seeded.played, "resigned": resigned, "swiss": swiss,
                    "knock": knock}
        finally:
            await store.close()

    ids = asyncio.run(fill())
    with serve(url, rate_limit=0) as base:
        yield base, ids, url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as driver:
        yield driver


def text_of(browser, css: str) -> str:  # type: ignore[no-untyped-def]
    return " ".join(e.text for e in browser.find_elements("css selector", css))


def test_a_resignation_in_the_replay_and_the_matchs_ending(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, ids, _ = site
    browser.get(f"{base}/m/{ids['resigned']}")
    ending = browser.find_element("css selector", "p.ending").text
    assert ending == "Ana Global resigned during hand 1, so Bea <b>&amp; won the match."
    assert "No hand was finished." in browser.find_element("tag name", "main").text
    assert wait_for(lambda: "resigned" in (browser.find_element("id", "board-text").text or ""))
    said = browser.find_element("id", "board-text").text
    assert "Ana Global resigned." in said and "passed" not in said
    assert not axe_violations(browser)
    no_console_errors(browser)


def test_a_tournaments_match_leads_back_to_it_and_names_lead_to_pages(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, ids, _ = site
    browser.get(f"{base}/m/{ids['played']}")
    crumbs = browser.find_elements("css selector", "nav ol.crumbs a")
    assert [a.text for a in crumbs][:3] == ["Dominoes", "Domino <Club>", "Swiss <Cup>"]
    crumbs[2].click()
    assert wait_for(lambda: browser.current_url.endswith(f"/s/{GUILD}/t/{ids['swiss']}"))
    heads = text_of(browser, "table thead")
    assert "Buchholz" in heads and "Match points" in heads
    assert "Check-in is open: the pairings follow when it closes." in browser.page_source
    browser.find_element("link text", "Ana Global").click()
    assert wait_for(lambda: browser.current_url.endswith(f"/s/{GUILD}/p/{ANA}"))
    assert browser.find_element("tag name", "h1").text == "Ana Global"
    cells = browser.find_elements("css selector", "#results-1 ~ .wide table tbody th")
    rows = [e.text for e in cells]
    assert rows[:3] == ["All variants", "Partnership games", "Partners (Latin)"]
    browser.get(f"{base}/s/{GUILD}/t/{ids['knock']}")
    heads = text_of(browser, "table thead")
    assert "Buchholz" not in heads and "Match points" not in heads
    no_console_errors(browser)


def test_the_rating_board_waits_for_the_minimum_and_marks_provisional(site, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.support.ui import Select

    base, _, url = site
    browser.get(f"{base}/s/{GUILD}?board=partners")
    assert "Nobody is on this leaderboard yet." in browser.page_source
    assert "Players are listed after 5 matches" in browser.find_element("tag name", "main").text
    # The season's board, by wins: the menu's choice is the board shown.
    Select(browser.find_element("id", "period")).select_by_value("season")
    Select(browser.find_element("id", "by")).select_by_value("wins")
    # (the board's form, not the player search's above it)
    browser.find_element("css selector", "form.choose:not([role=search]) button").click()
    assert wait_for(lambda: "period=season" in browser.current_url)
    assert Select(browser.find_element("id", "by")).first_selected_option.text == "Wins"
    assert "Ranked by the season's wins" in browser.page_source.replace("&#39;", "'")

    async def lower() -> None:
        store = await Store.open(url)
        try:
            await ServerSettings(store).update(GUILD, board_minimum=1)
        finally:
            await store.close()

    asyncio.run(lower())
    browser.get(f"{base}/s/{GUILD}?board=partners")
    browser.refresh()  # (a board may be kept 5 s by the browser: the visitor reloads it)
    row = browser.find_elements("css selector", "table.board tbody tr")[0]
    assert row.find_element("css selector", "abbr").get_attribute("title") == (
        "provisional rating"
    )
    assert row.find_element("css selector", "td:nth-of-type(2)").text.endswith("?")
    no_console_errors(browser)


def test_home_404_trailing_slash_and_languages(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, ids, _ = site
    for path in ("/", f"/s/{GUILD}/t/{ids['swiss']}", f"/s/{GUILD}/p/999999"):
        browser.get(base + path)
        assert not axe_violations(browser), path
    browser.get(f"{base}/")
    field = browser.find_element("id", "server-id")
    field.send_keys(str(GUILD))
    field.submit()
    assert wait_for(lambda: browser.current_url == f"{base}/s/{GUILD}")
    browser.get(f"{base}/s/{GUILD}/?board=two-player")
    assert browser.current_url == f"{base}/s/{GUILD}?board=two-player"
    browser.get(f"{base}/s/{GUILD}/p/999999")
    browser.find_element("partial link text", "Domino <Club>").click()
    assert wait_for(lambda: browser.current_url == f"{base}/s/{GUILD}")
    browser.find_element("link text", "Español (Latinoamérica)").click()
    assert wait_for(lambda: browser.current_url.endswith("?lang=es-419"))
    assert browser.find_element("tag name", "html").get_attribute("lang") == "es-419"
    no_console_errors(browser, missing=f"{base}/s/{GUILD}/p/999999")
