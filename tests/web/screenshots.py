"""``python -m tests.web.screenshots``: the pages on a 380 px phone, as the docs show them.

Seeds a database as the browser tests do (a partners match, a double-nine match, a draw game,
an All Fives match, two tournaments, a leaderboard), serves it and saves pictures taken by
headless Chromium to ``docs/`` (``--out`` elsewhere). Not a test: the tests check what these
pictures show."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

from bot.settings import sqlite_url
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.web.browser import chromium, serve
from tests.web.seed import ANA, GUILD, Seeded, play_match, seed, services
from tests.web.test_tournaments import make_event, make_knockout

PHONE = 380


async def fill(url: str) -> tuple[Seeded, dict[str, int], list[int]]:
    """The browser tests' database, with a double-nine match, a draw game and an All Fives
    match besides."""
    store = await Store.open(url)
    try:
        seeded = await seed(store)
        records, service = services(store, FakeClock())
        try:
            more = {
                variant: await play_match(service, records, GUILD, variant=variant)
                for variant in ("cuban", "draw", "all-fives")
            }
        finally:
            await service.aclose()
        events = [await make_event(store, GUILD), await make_knockout(store, GUILD)]
        return seeded, more, events
    finally:
        await store.close()


def full_page(driver: object, path: Path, width: int, ready: Callable[[], object]) -> None:
    """The whole page at ``width`` CSS pixels, as one picture."""
    driver.set_window_size(width, 900)  # type: ignore[attr-defined]
    ready()
    height = driver.execute_script(  # type: ignore[attr-defined]
        "return document.documentElement.scrollHeight"
    )
    driver.set_window_size(width, min(int(height) + 100, 4000))  # type: ignore[attr-defined]
    ready()
    driver.save_screenshot(str(path))  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_url(Path(folder) / "db.sqlite3")
        _, more, events = asyncio.run(fill(url))
        pages = {
            "web-phone-board.png": f"/s/{GUILD}?board=two-player&by=rating",
            "web-phone-match.png": f"/m/{more['cuban']}?hand=1&move=30",
            "web-phone-player.png": f"/s/{GUILD}/p/{ANA}",
            "web-phone-tournament.png": f"/s/{GUILD}/t/{events[0]}",
        }
        with serve(url, rate_limit=0) as base, chromium(PHONE, 900) as driver:
            for name, path in pages.items():
                driver.get(base + path)

                def ready(path: str = path) -> None:
                    from selenium.webdriver.support.ui import WebDriverWait

                    WebDriverWait(driver, 20).until(
                        lambda d: "/m/" not in path
                        or d.execute_script(
                            "return document.querySelectorAll('#board g').length > 0"
                        )
                    )

                full_page(driver, args.out / name, PHONE, ready)
                print(args.out / name)


if __name__ == "__main__":
    main()
