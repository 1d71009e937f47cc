"""Fixtures for the web tests: each backend's database (see ``tests/bot/conftest.py``)."""

from __future__ import annotations

from tests.bot.conftest import database_url

__all__ = ["database_url"]
