"""Fixtures of the quick match's tests: a database of each backend, the fake Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE
from tests.cogs.conftest import fake_discord, pictures_on

__all__ = ["fake_discord", "pictures_on"]


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file, or a migrated PostgreSQL database of its own (a real server)."""
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())
