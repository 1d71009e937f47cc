"""pytest fixtures for the fake Discord.

Enable them for the whole suite with ``pytest_plugins = ["tests.fakediscord.plugin"]`` in the
root ``tests/conftest.py``, or import the fixture into a conftest / test module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .fake import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started ``FakeDiscord``; fails the test at teardown if the bot hit unknown routes or
    the fake itself crashed (clear ``fake.unknown_routes`` if a test expects unknown routes)."""
    async with FakeDiscord() as fake:
        yield fake
        assert not fake.unknown_routes, (
            f"the bot called routes the fake doesn't know: {fake.unknown_routes}"
        )
        assert not fake.internal_errors, f"the fake crashed: {fake.internal_errors!r}"
