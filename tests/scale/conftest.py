"""What the process tests share: the database each runs on, SQLite and PostgreSQL in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file, then the session's PostgreSQL database (emptied)."""
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())
