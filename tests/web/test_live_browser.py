"""The live page and the player search in a real headless Chromium, at a phone's width
(380 px) and a desktop's (1280 px): the live page follows moves the bot makes without a reload
and never shows a hidden tile; the search box finds a player by the start of his name."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.settings import sqlite_url
from bot.store import Store
from tests.web.browser import chromium, serve
from tests.web.seed import BEA, GUILD, NAMES, Seeded, seed
from tests.web.test_browser import no_console_errors, pytestmark, wait_for  # noqa: F401
from tests.web.test_live import assert_hides, hidden_tiles, move

WIDTHS = (380, 1280)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Seeded, str]]:
    url = sqlite_url(tmp_path_factory.mktemp("live") / "db.sqlite3")

    async def fill() -> Seeded:
        store = await Store.open(url)
        try:
            return await seed(store)
        finally:
            await store.close()

    seeded = asyncio.run(fill())
    with serve(url, rate_limit=0) as base:
        yield base, seeded, url


def at_store(url: str, work) -> object:  # type: ignore[no-untyped-def]
    async def run() -> object:
        store = await Store.open(url)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(run())


@contextmanager
def screen(width: int) -> Iterator[object]:
    """Chromium showing pages exactly ``width`` CSS pixels wide (the
    window itself cannot be made that narrow)."""
    with chromium(max(width, 800), 900) as driver:
        driver.execute_cdp_cmd(  # type: ignore[attr-defined]
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False},
        )
        yield driver


def fits(driver) -> bool:  # type: ignore[no-untyped-def]
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth;"
    ))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_page_follows_the_bots_moves_without_a_reload(site, width: int) -> None:  # type: ignore[no-untyped-def]
    base, seeded, url = site
    with screen(width) as browser:
        browser.get(f"{base}/live/{seeded.running}")
        box = browser.find_element("id", "live-table")
        start = int(box.get_attribute("data-moves") or -1)
        assert wait_for(lambda: int(box.get_attribute("data-moves") or -1) >= 0)  # streaming
        start = int(box.get_attribute("data-moves"))
        browser.execute_script("window.notReloaded = true;")
        shown = len(browser.find_elements("css selector", "#live-moves li"))
        for step in (1, 2):
            at_store(url, lambda store: move(store, seeded.running))
            assert wait_for(
                lambda step=step: box.get_attribute("data-moves") == str(start + step)
            ), box.get_attribute("data-moves")
        assert browser.execute_script("return window.notReloaded === true;")
        now = len(browser.find_elements("css selector", "#live-moves li"))
        assert now == shown + 2 or now <= 3  # the hand's list grew, or a new hand began
        assert browser.find_element("id", "live-turn").text.endswith(" to play.")
        hidden = at_store(url, lambda store: hidden_tiles(store, seeded.running))
        assert_hides(browser.page_source, hidden)  # type: ignore[arg-type]
        assert_hides(browser.find_element("id", "main").text, hidden)  # type: ignore[arg-type]
        assert fits(browser)
        no_console_errors(browser)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_search_box_finds_a_player_by_the_start_of_his_name(site, width: int) -> None:  # type: ignore[no-untyped-def]
    base, _, _ = site
    with screen(width) as browser:
        browser.get(f"{base}/s/{GUILD}")
        box = browser.find_element("id", "player-search")
        right = browser.execute_script(
            "return document.querySelector('form[role=search]').getBoundingClientRect().right;"
        )
        assert browser.execute_script("return window.innerWidth;") == width
        assert right <= width
        box.send_keys("bEa")
        box.submit()
        assert wait_for(lambda: "player=bEa" in browser.current_url)
        found = browser.find_element("id", "found")
        link = found.find_element("css selector", "a")
        assert link.text == NAMES[BEA]  # shown as typed, never as markup
        assert link.get_attribute("href").endswith(f"/s/{GUILD}/p/{BEA}")
        link.click()
        assert wait_for(lambda: browser.current_url.endswith(f"/p/{BEA}"))
        no_console_errors(browser)
