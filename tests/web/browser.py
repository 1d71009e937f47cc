"""Support for the browser tests (no tests here): the system's headless Chromium through
Selenium and its chromedriver, and the pages served by a real aiohttp server in a thread."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web

from bot.web.app import create_app
from bot.web.reader import Reader

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
)


def find(paths: tuple[str, ...], name: str) -> str | None:
    for path in paths:
        if Path(path).is_file():
            return path
    return shutil.which(name)


@contextmanager
def chromium(width: int = 1100, height: int = 900) -> Iterator[object]:
    """A headless Chromium driven by Selenium (its console log readable)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = find(CHROMIUM, "chromium")
    driver_path = find(DRIVER, "chromedriver")
    assert binary and driver_path, "Chromium and chromedriver are needed (see .ci/run)"
    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            yield driver
        finally:
            driver.quit()


@contextmanager
def serve(database_url: str, **options: object) -> Iterator[str]:
    """The pages of ``database_url`` on a free local port, in a thread; yields the base URL."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    state: dict[str, object] = {}

    async def start() -> None:
        runner = web.AppRunner(create_app(Reader(database_url), **options))  # type: ignore[arg-type]
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        state["runner"] = runner
        state["port"] = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(30)
    try:
        yield f"http://127.0.0.1:{state['port']}"
    finally:
        runner = state["runner"]
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(30)  # type: ignore[attr-defined]
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


AXE_VERSION = "4.10.3"
AXE_CACHE = Path.home() / ".cache" / "domino-bot" / f"axe-core-{AXE_VERSION}"


def axe_source() -> str:
    """axe-core's script (the accessibility checker), from the npm registry on first use and
    kept in the user's cache (``AXE_CORE_JS`` names a copy to use instead)."""
    import os
    import subprocess
    import tarfile

    given = os.environ.get("AXE_CORE_JS")
    if given:
        return Path(given).read_text(encoding="utf-8")
    target = AXE_CACHE / "axe.min.js"
    if not target.is_file():
        npm = shutil.which("npm")
        assert npm, "npm is needed once to fetch axe-core (or set AXE_CORE_JS)"
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run(
                [npm, "pack", f"axe-core@{AXE_VERSION}", "--silent", "--pack-destination", folder],
                check=True,
                capture_output=True,
                timeout=300,
            )
            with tarfile.open(Path(folder) / f"axe-core-{AXE_VERSION}.tgz") as archive:
                member = archive.extractfile("package/axe.min.js")
                assert member is not None
                part = target.with_suffix(f".{os.getpid()}.part")
                part.write_bytes(member.read())
                part.replace(target)  # whole or absent, for a test process reading beside
    return target.read_text(encoding="utf-8")


def axe_violations(driver: object, impacts: tuple[str, ...] = ("serious", "critical")) -> list:
    """axe-core's violations of the page shown, of the given impacts (WCAG 2.1 A and AA)."""
    driver.execute_script(axe_source())  # type: ignore[attr-defined]
    result = driver.execute_async_script(  # type: ignore[attr-defined]
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',"
        " 'wcag21aa', 'best-practice']}}).then(r => done(r.violations),"
        " e => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));"
    )
    return [v for v in result if v.get("impact") in impacts]
