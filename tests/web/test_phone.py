"""The pages on a phone (380 px) and a desktop (1280 px) in real headless Chromium: no page
wider than the screen in any language, the replay's board at the bot's own picture targets
with the pile and whose turn it is, a move list of permalinks, a legible rating chart, dark
mode, no dead controls without script, and the replay's keyboard and focus behaviour."""

from __future__ import annotations

import asyncio
import json
import os
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import CHROMIUM, DRIVER, axe_violations, chromium, find, serve
from tests.web.screenshots import fill
from tests.web.seed import ANA, GUILD
from tests.web.test_browser import no_console_errors, wait_for

pytestmark = pytest.mark.skipif(
    not os.environ.get("CI")
    and (find(CHROMIUM, "chromium") is None or find(DRIVER, "chromedriver") is None),
    reason="Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
)

PHONE, DESKTOP = 380, 1280
LANGS = ("en", "es", "pt-BR")
#: The bot's own legibility targets for its table picture on a phone (docs/pictures.md).
HALF_SIDE, PIP = 20, 4


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The browser tests' database with a double-nine match and a draw game, served."""
    from bot.settings import sqlite_url

    url = sqlite_url(tmp_path_factory.mktemp("phone") / "db.sqlite3")
    seeded, more, events = asyncio.run(fill(url))
    with serve(url, rate_limit=0) as base:
        yield {
            "base": base,
            "partners": seeded.played,
            "cuban": more["cuban"],
            "draw": more["draw"],
            "all-fives": more["all-fives"],
            "events": events,
        }


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(PHONE, 900) as driver:
        yield driver


def at(driver: Any, width: int) -> None:
    driver.set_window_size(width, 900)
    assert wait_for(lambda: driver.execute_script("return window.innerWidth") == width)


def replay_data(site: dict[str, Any], table: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{site['base']}/m/{table}/replay.json") as answer:
        return json.loads(answer.read())


def board_drawn(driver: Any, hand: int, move: int) -> bool:
    label = driver.find_element("id", "board").get_attribute("aria-label") or ""
    return label.startswith(f"Hand {hand}, move {move} of ")


def pages(site: dict[str, Any]) -> dict[str, str]:
    """A page of every kind (the leaderboards of each period, both event systems)."""
    swiss, knockout = site["events"]
    return {
        "home": "/",
        "board": f"/s/{GUILD}?board=two-player&by=rating",
        "week": f"/s/{GUILD}?board=two-player&period=week",
        "month": f"/s/{GUILD}?board=two-player&period=month",
        "season": f"/s/{GUILD}?board=two-player&period=season",
        "player": f"/s/{GUILD}/p/{ANA}",
        "match": f"/m/{site['partners']}?hand=2&move=4",
        "double-nine": f"/m/{site['cuban']}?hand=1&move=30",
        "swiss": f"/s/{GUILD}/t/{swiss}",
        "knockout": f"/s/{GUILD}/t/{knockout}",
        "missing": "/s/4242",
    }


#: What the page shows of each table's first row: its first cells, and on a leaderboard the
#: rating or the wins beside the name.
OVERFLOW = """
const view = document.documentElement.clientWidth;
const seen = [];
for (const table of document.querySelectorAll('main table')) {
  const row = table.querySelector('tbody tr');
  if (!row) continue;
  const cells = [...row.children].slice(0, table.classList.contains('board') ? 3 : 2);
  for (const cell of cells) {
    const r = cell.getBoundingClientRect();
    seen.push([cell.textContent.trim(), Math.round(r.left), Math.round(r.right)]);
  }
}
const boxes = [...document.querySelectorAll('.wide')].map(w => {
  w.scrollLeft = w.scrollWidth;  // scrolled to its end: the row's name is still in sight
  const name = w.querySelector('tbody th');
  const box = w.getBoundingClientRect();
  const inside = !name || (name.getBoundingClientRect().left >= box.left - 1
                           && name.getBoundingClientRect().right <= box.right + 1);
  w.scrollLeft = 0;
  return [w.scrollWidth, w.clientWidth, w.tabIndex, inside];
});
return {page: document.documentElement.scrollWidth, view: view, cells: seen, boxes: boxes};
"""


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_no_page_is_wider_than_the_screen(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """Every page kind in every language: the page never scrolls sideways; each table's key
    columns (the place, the name, and on a leaderboard the rating) are on screen; a table
    wider than a phone scrolls in its own box, which takes the keyboard's focus, each row's
    name staying in sight when it is scrolled; on a desktop every table fits whole."""
    at(browser, width)
    for lang in LANGS:
        for kind, path in pages(site).items():
            address = f"{site['base']}{path}{'&' if '?' in path else '?'}lang={lang}"
            browser.get(address)
            if "/m/" in path:
                assert wait_for(lambda: browser.find_elements("css selector", "#board g"))
            found = browser.execute_script(OVERFLOW)
            where = (width, lang, kind)
            assert found["page"] <= found["view"], (where, found)
            for text, left, right in found["cells"]:
                assert left >= 0 and right <= found["view"], (where, text, left, right)
            for scroll, box, tabindex, named in found["boxes"]:
                assert tabindex == 0, where
                assert named, where
                if width == DESKTOP:
                    assert scroll <= box, (where, found["boxes"])
            no_console_errors(browser, missing=address if kind == "missing" else None)


BOARD = """
const board = document.getElementById('board');
const tiles = [...board.querySelectorAll('g rect:not(.spinner)')].map(
  r => r.getBoundingClientRect());
const pips = [...board.querySelectorAll('circle')].map(c => c.getBoundingClientRect().width);
const texts = [...board.querySelectorAll('text')].map(t => t.getBoundingClientRect().height);
const box = board.getBoundingClientRect();
return {half: Math.min(...tiles.map(t => Math.min(t.width, t.height))),
        pip: Math.min(...pips), pips: pips.length, texts: texts,
        spinners: board.querySelectorAll('rect.spinner').length,
        left: Math.min(...tiles.map(t => t.left)), right: Math.max(...tiles.map(t => t.right)),
        boardLeft: box.left, boardRight: box.right,
        view: document.documentElement.clientWidth};
"""


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_board_meets_the_picture_targets(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """A double-nine match's long line (winding), a draw game's and All Fives' cross: a
    half's side is 20 px or more and a pip 4 px or more across, on screen inside the board;
    every pip of every tile is drawn, the spinner marked; the pile's size and the seat to
    play are shown beside the board."""
    at(browser, width)
    fives = replay_data(site, site["all-fives"])["positions"]
    cross = max(
        (p for p in fives if not p["end"]), key=lambda p: len(p["arms"][0]) + len(p["arms"][1])
    )
    assert cross["arms"][0] or cross["arms"][1]
    for key, hand, move in (
        ("cuban", 1, 30),
        ("cuban", 1, 38),
        ("draw", 1, 6),
        ("all-fives", cross["hand"], cross["move"]),
    ):
        data = replay_data(site, site[key])
        position = next(p for p in data["positions"] if p["hand"] == hand and p["move"] == move)
        browser.get(f"{site['base']}/m/{site[key]}?hand={hand}&move={move}")
        assert wait_for(lambda h=hand, m=move: board_drawn(browser, h, m))
        found = browser.execute_script(BOARD)
        assert found["half"] >= HALF_SIDE, found
        assert found["pip"] >= PIP, found
        assert all(h >= 11 for h in found["texts"]), found
        assert found["boardLeft"] <= found["left"] and found["right"] <= found["boardRight"]
        assert found["boardRight"] <= found["view"]
        tiles = position["line"] + position["arms"][0] + position["arms"][1]
        assert found["pips"] == sum(a + b for a, b in tiles)
        assert found["spinners"] == (0 if position["spinner"] is None else 1)
        status = browser.find_element("id", "board-status").text
        turn = browser.find_element("css selector", "#board-status strong").text
        assert position["turn"] is not None
        assert turn == f"{data['seats'][position['turn']]} to play."
        if position["pile"]:
            assert f"Pile: {position['pile']}." in status
        assert browser.find_element("id", "board-act").text == position["act"]
    assert "Pile: " in status  # the draw game's pile was shown
    no_console_errors(browser)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_move_list_links_every_position(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """The hand's moves are listed under the board on a phone and beside it on a desktop,
    each a link to its own position; following one shows that position."""
    at(browser, width)
    table = site["partners"]
    data = replay_data(site, table)
    browser.get(f"{site['base']}/m/{table}?hand=2&move=3")
    assert wait_for(lambda: board_drawn(browser, 2, 3))
    hand = [p for p in data["positions"] if p["hand"] == 2]
    links = browser.find_elements("css selector", "#moves a")
    assert [a.text for a in links] == [p["act"] for p in hand]
    for move, a in enumerate(links):
        assert a.get_attribute("href") == f"{site['base']}/m/{table}?hand=2&move={move}"
    assert [a.get_attribute("aria-current") for a in links].count("step") == 1
    assert links[3].get_attribute("aria-current") == "step"
    board = browser.find_element("id", "board").rect
    moves = browser.find_element("id", "moves").rect
    if width == PHONE:
        assert moves["y"] >= board["y"] + board["height"]
    else:
        assert moves["x"] >= board["x"] + board["width"]
    target = links[5]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()
    assert wait_for(lambda: board_drawn(browser, 2, 5))
    assert browser.current_url.endswith(f"/m/{table}?hand=2&move=5")
    assert target.get_attribute("aria-current") == "step"
    # The link itself is the position's address: opened on its own it shows the same.
    browser.get(target.get_attribute("href"))
    assert wait_for(lambda: board_drawn(browser, 2, 5))
    no_console_errors(browser)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_focus_keys_and_language_links_in_the_replay(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """A button that can no longer be used keeps the focus; Home and End move the replay only
    while the board has focus (elsewhere they scroll the page), the arrow keys anywhere but in
    a table's scrolling box; the language links keep the position shown."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    at(browser, width)
    table = site["partners"]
    data = replay_data(site, table)
    moves = next(p["moves"] for p in data["positions"] if p["hand"] == 1)
    browser.get(f"{site['base']}/m/{table}?hand=1&move={moves - 1}")
    assert wait_for(lambda: board_drawn(browser, 1, moves - 1))
    last = browser.find_element("id", "last")
    last.click()
    assert wait_for(lambda: board_drawn(browser, 1, moves))
    assert last.get_attribute("aria-disabled") == "true"
    assert browser.switch_to.active_element.get_attribute("id") == "last"
    last.click()  # does nothing
    assert board_drawn(browser, 1, moves)
    first = browser.find_element("id", "first")
    first.click()
    assert wait_for(lambda: board_drawn(browser, 1, 0))
    assert browser.switch_to.active_element.get_attribute("id") == "first"
    assert first.get_attribute("aria-disabled") == "true"

    # Home/End on the page (a link has the focus): the replay stays where it is.
    browser.find_element("id", "permalink").send_keys(Keys.END)
    ActionChains(browser).send_keys(Keys.END).perform()
    assert board_drawn(browser, 1, 0)
    board = browser.find_element("id", "board")
    browser.execute_script("arguments[0].focus()", board)
    ActionChains(browser).send_keys(Keys.END).perform()
    assert wait_for(lambda: board_drawn(browser, 1, moves))
    ActionChains(browser).send_keys(Keys.HOME).perform()
    assert wait_for(lambda: board_drawn(browser, 1, 0))
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
    assert wait_for(lambda: board_drawn(browser, 1, 2))
    # In the hands table's box the arrow keys scroll the table, not the replay.
    box = browser.find_element("css selector", ".wide:has(table.hands)")
    browser.execute_script("arguments[0].focus()", box)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.execute_script("return document.activeElement") == box
    assert board_drawn(browser, 1, 2)

    for lang, words in (("es", "Mano 1, jugada 2 de "), ("pt-BR", "Mão 1, jogada 2 de ")):
        link = browser.find_element("css selector", f'.langs a[hreflang="{lang}"]')
        assert link.get_attribute("href").endswith(f"/m/{table}?hand=1&move=2&lang={lang}")
        browser.execute_script("arguments[0].scrollIntoView()", link)
        link.click()
        assert wait_for(
            lambda w=words: (browser.find_element("id", "board").get_attribute("aria-label") or "")
            .startswith(w)
        )
        assert browser.find_element("tag name", "html").get_attribute("lang") == lang
    link = browser.find_element("css selector", '.langs a[hreflang="en"]')
    link.click()
    assert wait_for(lambda: board_drawn(browser, 1, 2))
    no_console_errors(browser)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_without_script_the_replay_has_no_dead_controls(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """Without script: no replay button, menu or key hint is shown; the page says the replay
    needs script and each hand's result stays in its table."""
    at(browser, width)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{site['base']}/m/{site['partners']}?hand=2&move=4")
        replay = browser.find_element("id", "replay")
        shown = [
            e.tag_name
            for e in replay.find_elements("css selector", "button, select, a, svg, ol, .keys")
            if e.is_displayed()
        ]
        assert shown == []
        assert "needs JavaScript" in replay.text
        assert browser.find_elements("css selector", "table.hands tbody tr")
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(f"{site['base']}/m/{site['partners']}?hand=2&move=4")
    assert wait_for(lambda: board_drawn(browser, 2, 4))
    assert browser.find_element("id", "next").is_displayed()


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_dark_mode_and_accessibility(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """With the system's dark scheme the pages are dark; in both schemes, on a phone and a
    desktop, axe-core finds no serious or critical violation."""
    at(browser, width)
    try:
        for scheme, page in (("dark", "rgb(18, 20, 23)"), ("light", "rgb(255, 255, 255)")):
            browser.execute_cdp_cmd(
                "Emulation.setEmulatedMedia",
                {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
            )
            for kind, path in pages(site).items():
                if kind in ("week", "month", "home"):
                    continue
                browser.get(site["base"] + path)
                if "/m/" in path:
                    assert wait_for(lambda: browser.find_elements("css selector", "#board g"))
                background = browser.execute_script(
                    "return getComputedStyle(document.body).backgroundColor"
                )
                assert background == page, (scheme, kind)
                violations = axe_violations(browser)
                assert violations == [], (
                    scheme,
                    kind,
                    [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations],
                )
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_without_script_a_persons_page_shows_no_empty_chart(site, browser) -> None:  # type: ignore[no-untyped-def]
    """Without script neither the chart nor its legend shows (no empty box, no colours
    naming nothing): the ratings table says each family's rating."""
    at(browser, PHONE)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{site['base']}/s/{GUILD}/p/{ANA}")
        assert not browser.find_elements("css selector", "svg.chart")
        legend = browser.find_element("css selector", "ul.legend")
        assert not legend.is_displayed()
        ratings = "section[aria-labelledby=ratings-title] tbody tr"
        assert all(r.is_displayed() for r in browser.find_elements("css selector", ratings))
        assert browser.find_elements("css selector", ratings)
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(f"{site['base']}/s/{GUILD}/p/{ANA}")
    assert browser.find_element("css selector", "svg.chart + ul.legend").is_displayed()


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_rating_chart_is_legible(site, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """The chart's labels are 11 px or more; each family has its legend line with its latest
    rating; a family with one rated match is a visible, labelled point."""
    at(browser, width)
    browser.get(f"{site['base']}/s/{GUILD}/p/{ANA}")
    chart = browser.find_element("css selector", "svg.chart")
    sizes = browser.execute_script(
        "return [...arguments[0].querySelectorAll('text')].map("
        "t => parseFloat(getComputedStyle(t).fontSize) * arguments[0].getBoundingClientRect()"
        ".width / arguments[0].viewBox.baseVal.width)",
        chart,
    )
    assert sizes and min(sizes) >= 11, sizes
    assert chart.rect["x"] + chart.rect["width"] <= browser.execute_script(
        "return document.documentElement.clientWidth"
    )
    legend = [li.text for li in browser.find_elements("css selector", ".legend li")]
    rows = browser.find_elements("css selector", "section[aria-labelledby=ratings-title] tbody tr")
    one = [
        [c.text for c in r.find_elements("css selector", "th, td")]
        for r in rows
        if r.find_elements("css selector", "td")[1].text == "1"
    ]
    assert one, "the seed gives Ana a family with one rated match"
    family, rating, _ = one[0]
    assert f"{family}: {rating}" in legend
    index = legend.index(f"{family}: {rating}")
    point = browser.find_elements("css selector", f"svg.chart circle.s{index}")
    assert len(point) == 1 and point[0].rect["width"] >= 8
    labels = [t.text for t in chart.find_elements("css selector", "text")]
    assert rating in labels


def test_a_single_rated_match_is_a_labelled_point(site, browser) -> None:  # type: ignore[no-untyped-def]
    """Our decision: one rated match is drawn as a point (a line needs two) with its value
    beside it, and the chart's one date under it; the chart is drawn from the curve its
    legend carries (static/chart.js)."""
    at(browser, PHONE)
    browser.get(f"{site['base']}/s/{GUILD}/p/{ANA}")
    svg = browser.execute_script(
        "const ul = document.createElement('ul');"
        "ul.className = 'legend'; ul.dataset.chart = 'Chart';"
        "ul.innerHTML = '<li class=\"s0\" data-name=\"Two-player\"'"
        " + ' data-points=\"259200,1512\">Two-player: 1512</li>';"
        "document.querySelector('main').appendChild(ul);"
        "return window.ratingChart(ul).outerHTML;"
    )
    assert "<polyline" not in svg
    assert svg.count("<circle") == 1 and "<title>Two-player: 1512 (1970-01-04)</title>" in svg
    assert ">1512</text>" in svg and ">1970-01-04</text>" in svg
