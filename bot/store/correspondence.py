"""Rows of correspondence play (migrations 0980, 0981): people's vacations, the running tables a
person plays at, and a vacation's work owed at each table (its deadlines moved, its notice
posted in each place).

Used like the other extra repositories: ``CorrespondenceRepo(store.db)`` runs each statement
alone, ``CorrespondenceRepo(tx.db)`` inside a transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.store.connection import POSTGRES, Db

__all__ = ["CorrespondenceRepo", "OwedNotice", "Vacation"]

_LOCK_SPACE = 0x564143  # PostgreSQL advisory locks of a person's vacations


@dataclass(frozen=True, slots=True)
class Vacation:
    """A person's vacation: his correspondence tables pause from ``started_at`` to ``ends_at``."""

    user_id: int
    started_at: float
    ends_at: float


@dataclass(frozen=True, slots=True)
class OwedNotice:
    """A vacation's work at one place of one table: the pause (``paused``: the table's
    deadlines moved) and the notice to post there."""

    user_id: int
    started_at: float
    table_id: int
    place: int
    ends_at: float
    guild_id: int | None = None  # the table's own server (who runs it)


_OWED = "n.user_id, n.started_at, n.table_id, n.place, n.ends_at, t.guild_id"


def _owed(r: Any) -> OwedNotice:
    return OwedNotice(
        int(r[0]), float(r[1]), int(r[2]), int(r[3]), float(r[4]),
        None if r[5] is None else int(r[5]),
    )


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

    async def correspondence_places(self, user_id: int, slow: int) -> list[tuple[int, int]]:
        """(table, place) of every place of every running table of at least ``slow`` seconds
        per move where ``user_id`` still plays a seat himself (place 0 for a table of one
        place), by table."""
        rows = await self._db.fetchall(
            "SELECT t.id, coalesce(p.place, 0) FROM tables t"
            " LEFT JOIN table_places p ON p.table_id = t.id"
            " WHERE t.status = 'running' AND t.turn_timer >= ? AND EXISTS (SELECT 1 FROM seats s"
            " WHERE s.table_id = t.id AND s.user_id = ? AND s.kind = 'human')"
            " ORDER BY t.id, 2",
            (slow, user_id),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def owe(self, vacation: Vacation, places: Iterable[tuple[int, int]]) -> None:
        """The vacation's pause and notice owed at each (table, place)."""
        for table_id, place in places:
            await self._db.execute(
                "INSERT INTO vacation_notices (user_id, started_at, table_id, place, ends_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (vacation.user_id, vacation.started_at, table_id, place, vacation.ends_at),
            )

    async def unpaused(self, limit: int = 200) -> list[OwedNotice]:
        """The owed work whose table's deadlines were not moved yet (one row per table: its
        place 0 or first place), oldest vacation first, with the table's server."""
        rows = await self._db.fetchall(
            f"SELECT {_OWED} FROM vacation_notices n JOIN tables t ON t.id = n.table_id"
            " WHERE n.paused = 0 AND n.place = (SELECT min(m.place) FROM vacation_notices m"
            " WHERE m.user_id = n.user_id AND m.started_at = n.started_at"
            " AND m.table_id = n.table_id) ORDER BY n.started_at, n.table_id LIMIT ?",
            (limit,),
        )
        return [_owed(r) for r in rows]

    async def mark_paused(self, owed: OwedNotice, *, posted: bool = False) -> None:
        """The table's deadlines were moved for the vacation (``posted``: and nothing is to be
        posted, the table being over)."""
        await self._db.execute(
            "UPDATE vacation_notices SET paused = 1,"
            " posted = CASE WHEN ? = 1 THEN 1 ELSE posted END"
            " WHERE user_id = ? AND started_at = ? AND table_id = ?",
            (int(posted), owed.user_id, owed.started_at, owed.table_id),
        )

    async def owed(self, table_id: int, place: int) -> list[OwedNotice]:
        """The notices of paused tables still to be posted in one place, oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {_OWED} FROM vacation_notices n JOIN tables t ON t.id = n.table_id"
            " WHERE n.table_id = ? AND n.place = ? AND n.posted = 0 AND n.paused = 1"
            " ORDER BY n.started_at, n.user_id",
            (table_id, place),
        )
        return [_owed(r) for r in rows]

    async def mark_posted(self, owed: OwedNotice) -> None:
        await self._db.execute(
            "UPDATE vacation_notices SET posted = 1 WHERE user_id = ? AND started_at = ?"
            " AND table_id = ? AND place = ?",
            (owed.user_id, owed.started_at, owed.table_id, owed.place),
        )

    async def forget(self, user_id: int) -> None:
        """Forget the person's vacations (and their notices not posted yet)."""
        await self._db.execute("DELETE FROM vacations WHERE user_id = ?", (user_id,))
        await self._db.execute("DELETE FROM vacation_notices WHERE user_id = ?", (user_id,))
