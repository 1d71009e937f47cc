"""The pages in a real headless Chromium (Debian's ``chromium`` and ``chromedriver``, driven by
Selenium): the leaderboard's rows, the replay stepped with its buttons and the arrow keys
against the engine's positions, permalinks, a 404, no console error and an accessibility
check (axe-core: no serious or critical violation of WCAG 2.1 A/AA and best practices)."""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Iterator

import pytest

from bot.records.service import Records
from bot.settings import sqlite_url
from bot.store import Store
from bot.tables.replay import rebuild
from bot.tournaments.store import RoundRow, TournamentRepo
from domino import View
from tests.web.browser import CHROMIUM, DRIVER, axe_violations, chromium, find, serve
from tests.web.seed import ANA, DARK, GUILD, Seeded, seed
from tests.web.test_tournaments import make_event, make_knockout

# Like PostgreSQL's tests: skipped (one line in ``pytest -rs``) without the browser, except
# under CI, where .ci/run installs it.
pytestmark = pytest.mark.skipif(
    not os.environ.get("CI")
    and (find(CHROMIUM, "chromium") is None or find(DRIVER, "chromedriver") is None),
    reason="Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Seeded, list]]:
    """A seeded SQLite database (with a Swiss event and a knockout), its pages served, the
    engine's frames of the match, a leaderboard's rows and the events' ids."""
    url = sqlite_url(tmp_path_factory.mktemp("web") / "db.sqlite3")

    async def fill() -> tuple[Seeded, list, list]:
        store = await Store.open(url)
        try:
            seeded = await seed(store)
            match = await store.matches.get(seeded.played)
            assert match is not None
            frames = list(rebuild(match, await store.actions.list(seeded.played)))
            board = await Records(store).leaderboard(
                scope=GUILD, bucket="two-player", by="wins", per_page=25
            )
            events = [await make_event(store, GUILD), await make_knockout(store, GUILD)]
            return seeded, frames, list(board.rows), events
        finally:
            await store.close()

    seeded, frames, rows, events = asyncio.run(fill())
    with serve(url, rate_limit=0) as base:
        yield base, seeded, [frames, rows, events, url]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as driver:
        yield driver


def wait_for(check, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.05)


def no_console_errors(driver, missing: str | None = None) -> None:  # type: ignore[no-untyped-def]
    """No error in the console (but the 404 of the page ``missing`` itself, when asked)."""
    errors = [
        e
        for e in driver.get_log("browser")
        if e["level"] in ("SEVERE", "ERROR")
        and not (missing and e["message"].startswith(f"{missing} - ") and "404" in e["message"])
    ]
    assert errors == []


def engine_view(frames: list, hand: int, move: int) -> View:
    """The public view after the ``move``-th move of ``hand``, straight from the engine."""
    in_hand = [f for f in frames if f.hand == hand]
    return in_hand[move - 1].view


def board_label(driver) -> str:  # type: ignore[no-untyped-def]
    return driver.find_element("id", "board").get_attribute("aria-label")


def shows(driver, hand: int, move: int) -> bool:  # type: ignore[no-untyped-def]
    label = board_label(driver) or ""
    return label.startswith(f"Hand {hand}, move {move} of ")


def assert_matches_engine(driver, view: View, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    label = board_label(driver)
    line = " ".join(f"{a}-{b}" for a, b in view.line)
    assert f"Line: {line}." in label
    held = ", ".join(f"{n} {c}" for n, c in zip(names, view.hand_sizes, strict=True))
    assert f"Tiles in hand: {held}." in label
    assert driver.find_element("id", "board-text").text == label
    # The drawing has a tile per tile of the line, each with its pips.
    assert len(driver.find_elements("css selector", "#board g")) == len(view.line)


NAMES = ["Ana Global", "Bea <b>&amp;", "Computer 3", "Computer 4"]


def test_the_leaderboard_shows_the_right_rows(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, _, (_, rows, *_) = site
    browser.get(f"{base}/s/{GUILD}?board=two-player&by=wins")
    shown = browser.find_elements("css selector", "table.board tbody tr")
    assert len(shown) == len(rows) >= 5
    for tr, row in zip(shown, rows, strict=True):
        cells = [c.text for c in tr.find_elements("css selector", "td, th")]
        assert cells[:2] == [str(row.place), f"P{row.player_id}"]
        assert cells[3] == str(row.wins) and cells[4] == str(row.losses)
    no_console_errors(browser)


def test_the_replay_steps_like_the_engine(site, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    base, seeded, (frames, *_) = site
    table = seeded.played
    for hand, move in ((1, 5), (2, 3), (3, 8)):
        browser.get(f"{base}/m/{table}?hand={hand}&move={move}")
        assert wait_for(lambda h=hand, m=move: shows(browser, h, m))
        assert_matches_engine(browser, engine_view(frames, hand, move), NAMES)
        assert browser.current_url.endswith(f"?hand={hand}&move={move}")

    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert wait_for(lambda: shows(browser, 3, 9))
    assert_matches_engine(browser, engine_view(frames, 3, 9), NAMES)
    assert browser.current_url.endswith("?hand=3&move=9")
    assert browser.find_element("id", "permalink").get_attribute("href").endswith(
        f"/m/{table}?hand=3&move=9"
    )
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    assert wait_for(lambda: shows(browser, 3, 7))
    assert_matches_engine(browser, engine_view(frames, 3, 7), NAMES)
    browser.find_element("id", "next").click()
    assert wait_for(lambda: shows(browser, 3, 8))
    browser.find_element("id", "prev").click()
    assert wait_for(lambda: shows(browser, 3, 7))
    browser.find_element("id", "first").click()
    assert wait_for(lambda: shows(browser, 3, 0))
    assert "The tiles are dealt." in board_label(browser)
    browser.find_element("id", "last").click()
    moves = len([f for f in frames if f.hand == 3])
    assert wait_for(lambda: shows(browser, 3, moves))
    assert "Hand over:" in board_label(browser)

    Select(browser.find_element("id", "hand-select")).select_by_value("2")
    assert wait_for(lambda: shows(browser, 2, 0))
    play = browser.find_element("id", "play")
    play.click()
    assert play.get_attribute("aria-label") == "Pause"
    assert wait_for(lambda: shows(browser, 2, 2), timeout=5)
    play.click()
    assert play.get_attribute("aria-label") == "Play"
    stopped = board_label(browser)
    time.sleep(1.2)
    assert board_label(browser) == stopped

    # Out of range permalinks read as the nearest position; the address says which.
    browser.get(f"{base}/m/{table}?hand=999&move=-4")
    last_hand = max(f.hand for f in frames)
    assert wait_for(lambda: shows(browser, last_hand, 0))
    assert browser.current_url.endswith(f"?hand={last_hand}&move=0")
    no_console_errors(browser)


def test_a_server_without_pages_is_a_404(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, seeded, _ = site
    for path in (f"/s/{DARK}", f"/m/{seeded.dark}", f"/m/{seeded.running}"):
        browser.get(base + path)
        assert browser.find_element("tag name", "h1").text == "Page not found"
        no_console_errors(browser, base + path)
    browser.get(f"{base}/s/{GUILD}/p/{ANA}?lang=es")
    assert browser.find_element("tag name", "h1").text == "Ana Global"
    assert browser.find_element("tag name", "html").get_attribute("lang") == "es"


def test_the_pages_pass_an_accessibility_check(site, browser) -> None:  # type: ignore[no-untyped-def]
    base, seeded, (_, _, events, _) = site
    for path in (
        *(f"/s/{GUILD}/t/{event}" for event in events),
        "/",
        f"/s/{GUILD}",
        f"/s/{GUILD}?board=two-player&by=wins",
        f"/m/{seeded.played}?hand=2&move=4",
        f"/s/{GUILD}/p/{ANA}",
        f"/s/{DARK}",
    ):
        browser.get(base + path)
        if "/m/" in path:
            assert wait_for(lambda: shows(browser, 2, 4))
        violations = axe_violations(browser)
        assert violations == [], (path, [(v["id"], v.get("help")) for v in violations])
        no_console_errors(browser, base + path if path == f"/s/{DARK}" else None)


def test_page_weight(site) -> None:  # type: ignore[no-untyped-def]
    """Each page with its style sheet and script, before the replay's data: under 100 KB."""
    import urllib.request

    base, seeded, _ = site
    static = sum(
        len(urllib.request.urlopen(f"{base}/static/{name}").read())
        for name in ("site.css", "replay.js")
    )
    for path in (f"/s/{GUILD}", f"/m/{seeded.played}", f"/s/{GUILD}/p/{ANA}"):
        html = urllib.request.urlopen(base + path).read()
        assert len(html) + static < 100_000
        assert not re.search(rb"<script(?![^>]*\bsrc=)", html)  # no inline script


def test_a_running_tournament_reads_itself_again_until_paused(site, browser) -> None:  # type: ignore[no-untyped-def]
    """A running event's standings and rounds are read again without a reload (the reader
    keeps his place); the button pauses and resumes it."""
    base, _, (_, _, events, url) = site
    browser.get(f"{base}/s/{GUILD}/t/{events[0]}")
    note = browser.find_element("id", "live-note")
    assert wait_for(note.is_displayed)
    button = browser.find_element("id", "live-toggle")
    assert button.text == "Pause updates"
    button.click()
    assert button.text == "Resume updates"
    button.click()
    assert button.text == "Pause updates"
    assert "Round 3" not in browser.find_element("id", "main").text

    async def third_round() -> None:
        store = await Store.open(url)
        try:
            await TournamentRepo(store.db).put_round(RoundRow(events[0], 3, "playing", 3.0, None))
        finally:
            await store.close()

    asyncio.run(third_round())
    # The same script, asked to read the page again within a second rather than a minute.
    browser.execute_script(
        "window.notReloaded = true;"
        "document.getElementById('live-note').setAttribute('data-seconds', '0.2');"
        "var s = document.createElement('script'); s.src = '/static/live.js';"
        " document.head.appendChild(s);"
    )
    assert wait_for(lambda: "Round 3" in browser.find_element("id", "main").text)
    assert browser.execute_script("return window.notReloaded === true;")
    no_console_errors(browser)
