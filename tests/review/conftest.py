"""Fixtures of the review tests: each backend's store and table service, the fake Discord."""

from __future__ import annotations

from tests.bot.conftest import clock, database_url, db_path, recorder, service, store
from tests.cogs.conftest import fake_discord, pictures_on

__all__ = [
    "clock", "database_url", "db_path", "fake_discord", "pictures_on", "recorder", "service",
    "store",
]
