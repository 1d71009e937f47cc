"""SQL of inactivity (``migrations/*/0801_inactivity.sql``): idle ratings, idle summary lines
and each server's number of idle weeks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store.connection import Db

__all__ = ["IDLE", "IdleRating", "InactivityRepo"]

IDLE = 2  # record_stats.hidden of a line left off the boards for inactivity (1: by choice)

IdleRating = tuple[int, str, float, float, float, int, float]
"""(player id, family, mu, sigma, updated_at, decay_weeks, decay_at) of a rating."""


class InactivityRepo:
    """Reads and writes what inactivity changes, through one statement runner."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def last_rated(self, player_ids: Iterable[int], family: str) -> dict[int, float]:
        """When each player's rating of ``family`` last changed (his last rated match)."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT player_id, updated_at FROM record_ratings WHERE family = ?"
            f" AND player_id IN ({marks})",
            (family, *ids),
        )
        return {int(r[0]): float(r[1]) for r in rows}

    async def idle_ratings(self, before: float, *, after: tuple[int, str], limit: int) -> list[
        IdleRating
    ]:
        """People's ratings last changed before ``before``, by key after ``after``."""
        rows = await self._db.fetchall(
            "SELECT player_id, family, mu, sigma, updated_at, decay_weeks, decay_at"
            " FROM record_ratings WHERE updated_at < ? AND player_id > 0"
            " AND (player_id > ? OR (player_id = ? AND family > ?))"
            " ORDER BY player_id, family LIMIT ?",
            (before, after[0], after[0], after[1], limit),
        )
        return [
            (int(r[0]), str(r[1]), float(r[2]), float(r[3]), float(r[4]), int(r[5]), float(r[6]))
            for r in rows
        ]

    async def decayed(
        self, player_id: int, family: str, updated_at: float, weeks: int, rating: float
    ) -> None:
        """The boards' figure of an idle rating (only if the rating did not change since)."""
        changed = await self._db.execute(
            "UPDATE record_ratings SET decay_weeks = ?, decay_at = updated_at"
            " WHERE player_id = ? AND family = ? AND updated_at = ?",
            (weeks, player_id, family, updated_at),
        )
        if changed:
            await self._db.execute(
                "UPDATE record_stats SET rating = ? WHERE player_id = ? AND family = ?",
                (rating, player_id, family),
            )

    async def idle_weeks(self) -> dict[int, int]:
        """The servers' own numbers of idle weeks."""
        rows = await self._db.fetchall("SELECT guild_id, idle_weeks FROM board_settings")
        return {int(r[0]): int(r[1]) for r in rows}

    async def set_idle_weeks(self, guild_id: int, weeks: int | None) -> None:
        if weeks is None:
            await self._db.execute("DELETE FROM board_settings WHERE guild_id = ?", (guild_id,))
            return
        await self._db.execute(
            "INSERT INTO board_settings (guild_id, idle_weeks) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET idle_weeks = excluded.idle_weeks",
            (guild_id, weeks),
        )

    async def hide_idle(self, cutoff: float, scopes: Sequence[int], *, others: bool) -> None:
        """Leave off the boards of ``scopes`` (with ``others``: of every scope but those) the
        lines not played since ``cutoff``; show again those played since."""
        marks = ", ".join("?" for _ in scopes)
        if not scopes:
            where = "1 = 1" if others else "1 = 0"
        else:
            where = f"scope {'NOT IN' if others else 'IN'} ({marks})"
        await self._db.execute(
            f"UPDATE record_stats SET hidden = {IDLE} WHERE hidden = 0 AND last_at < ?"
            f" AND {where}",
            (cutoff, *scopes),
        )
        await self._db.execute(
            f"UPDATE record_stats SET hidden = 0 WHERE hidden = {IDLE} AND last_at >= ?"
            f" AND {where}",
            (cutoff, *scopes),
        )

    async def idle_count(self, scope: int, bucket: str, by: str) -> int:
        """How many people's lines of a board are left off for inactivity (kept by the
        database as it writes them: one row, ``record_board_sizes``)."""
        value = await self._db.fetchval(
            f"SELECT {'idle_rated' if by == 'rating' else 'idle'} FROM record_board_sizes"
            " WHERE scope = ? AND bucket = ?",
            (scope, bucket),
        )
        return int(value or 0)
