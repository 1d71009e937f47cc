"""SQL of match reviews (``migrations/*/0870_match_reviews.sql``)."""

from __future__ import annotations

from bot.store.connection import Db

__all__ = ["ReviewRepo"]


class ReviewRepo:
    """Stored reviews, one per match and person."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def get(self, table_id: int, user_id: int, version: int) -> str | None:
        """The stored review of ``user_id`` at ``table_id`` in ``version``, if there is one."""
        value = await self._db.fetchval(
            "SELECT data FROM match_reviews WHERE table_id = ? AND user_id = ? AND version = ?",
            (table_id, user_id, version),
        )
        return None if value is None else str(value)

    async def put(
        self, table_id: int, user_id: int, version: int, data: str, now: float
    ) -> None:
        """Keep a review (replacing one of another version)."""
        await self._db.execute(
            "INSERT INTO match_reviews (table_id, user_id, version, data, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
            " version = excluded.version, data = excluded.data,"
            " created_at = excluded.created_at",
            (table_id, user_id, version, data, now),
        )

    async def count(self) -> int:
        """How many reviews are stored (for tests and checks)."""
        return int(await self._db.fetchval("SELECT count(*) FROM match_reviews") or 0)
