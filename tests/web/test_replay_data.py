"""A replay's data is built off the event loop, one uncached build at a time: the pages go on
being served meanwhile (on each backend)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.store import Store
from bot.web import positions as positions_module
from tests.web.seed import Seeded
from tests.web.test_pages import client, seeded, text

__all__ = ["client", "seeded"]  # the fixtures of the pages' tests


async def test_the_pages_are_served_while_a_replays_data_is_built(
    client: TestClient, seeded: tuple[Store, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first position's words wait until the home page has been served: were the
    replay's data built on the event loop, the home page could not be served first. The
    second language's build waits for the first."""
    _, s = seeded
    served = threading.Event()
    building = threading.Event()
    waited: list[bool] = []
    overlapped: list[bool] = []  # another build ran while the first one waited
    describe = positions_module.describe

    def gated(*args: Any) -> str:
        if not building.is_set():
            building.set()
            waited.append(served.wait(timeout=10))  # a bound for the failure only
        elif not waited:
            overlapped.append(True)
        return describe(*args)

    monkeypatch.setattr(positions_module, "describe", gated)
    english = asyncio.ensure_future(client.get(f"/m/{s.played}/replay.json"))
    spanish = asyncio.ensure_future(client.get(f"/m/{s.played}/replay.json?lang=es"))
    await asyncio.to_thread(building.wait, 10)
    assert "<html" in await text(client, "/")
    served.set()
    first, second = await english, await spanish
    assert waited == [True]
    assert overlapped == []
    assert first.status == second.status == 200
    data = json.loads(await first.text())
    assert data["positions"] and data["words"]["play"] == "Play"
    assert data["positions"][-1]["end"] is True
    assert json.loads(await second.text())["words"]["play"] != "Play"
