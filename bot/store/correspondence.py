"""Rows of correspondence play (migration 0980): people's vacations, the running tables a person
plays at, and the deadlines a vacation moves.

Used like the other extra repositories: ``CorrespondenceRepo(store.db)`` runs each statement
alone, ``CorrespondenceRepo(tx.db)`` inside a transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.connection import POSTGRES, Db

__all__ = ["CorrespondenceRepo", "Vacation"]

_LOCK_SPACE = 0x564143  # PostgreSQL advisory locks of a person's vacations


@dataclass(frozen=True, slots=True)
class Vacation:
    """A person's vacation: his correspondence tables pause from ``started_at`` to ``ends_at``."""

    user_id: int
    started_at: float
    ends_at: float


class CorrespondenceRepo:
    """Vacations and the tables a person plays at."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def lock(self, user_id: int) -> None:
        """Hold the person's vacations until the transaction ends (two requests at once count
        one after the other)."""
        if self._db.dialect == POSTGRES:
            key = (user_id ^ (user_id >> 31) ^ (user_id >> 62)) & 0x7FFFFFFF
            await self._db.execute("SELECT pg_advisory_xact_lock(?, ?)", (_LOCK_SPACE, key))

    async def vacations(self, user_id: int, since: float) -> list[Vacation]:
        """The person's vacations that started at ``since`` or later, oldest first."""
        rows = await self._db.fetchall(
            "SELECT started_at, ends_at FROM vacations WHERE user_id = ? AND started_at >= ?"
            " ORDER BY started_at",
            (user_id, since),
        )
        return [Vacation(user_id, r["started_at"], r["ends_at"]) for r in rows]

    async def add_vacation(self, vacation: Vacation) -> None:
        await self._db.execute(
            "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?)",
            (vacation.user_id, vacation.started_at, vacation.ends_at),
        )

    async def away_until(self, user_ids: Iterable[int], now: float) -> float | None:
        """When the last running vacation of ``user_ids`` at ``now`` ends (None: nobody away)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return None
        marks = ", ".join("?" for _ in ids)
        return await self._db.fetchval(
            f"SELECT max(ends_at) FROM vacations WHERE user_id IN ({marks})"
            " AND started_at <= ? AND ends_at > ?",
            (*ids, now, now),
        )

    async def running_tables(self, user_id: int) -> list[int]:
        """The running tables where ``user_id`` still plays a seat himself, oldest first."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT t.id FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.user_id = ? AND s.kind = 'human' AND t.status = 'running' ORDER BY t.id",
            (user_id,),
        )
        return [r["id"] for r in rows]

    async def forget(self, user_id: int) -> None:
        """Forget the person's vacations."""
        await self._db.execute("DELETE FROM vacations WHERE user_id = ?", (user_id,))
