"""The bot tests' fixtures: a real database of each backend (SQLite, PostgreSQL), a fake clock."""

from tests.bot.conftest import clock, database_url, db_path, service, store

__all__ = ["clock", "database_url", "db_path", "service", "store"]
