"""SQL of the achievements (tables of ``migrations/*/0830_achievements.sql``), as a repository.

Wraps the statement runner of a store (each call alone) or of a transaction (inside it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.connection import Db, Row

__all__ = ["AchievementRepo", "Earned", "EntryLine"]


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement a person earned, in the match ``table_id`` (on ``guild_id``)."""

    player_id: int
    code: str
    table_id: int
    guild_id: int | None
    earned_at: float


@dataclass(frozen=True, slots=True)
class EntryLine:
    """A person's rated recorded match, as the back-fill reads them (oldest first)."""

    player_id: int
    table_id: int
    result: str
    variant: str
    guild_id: int | None
    finished_at: float


def _earned(row: Row) -> Earned:
    guild = row[3]
    return Earned(
        int(row[0]), str(row[1]), int(row[2]), None if guild is None else int(guild), float(row[4])
    )


_COLUMNS = "player_id, code, table_id, guild_id, earned_at"


class AchievementRepo:
    """Reads and writes the achievements tables through one statement runner."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- writing (inside a transaction) ----------------------------------------------------

    async def award(self, rows: Iterable[Earned]) -> int:
        """Store each achievement once per person: a new one is added; one he has already is
        moved to this match only if this match came earlier (so any order of recording and
        back-fill ends with the same rows). Returns how many rows changed."""
        changed = 0
        for e in rows:
            changed += await self._db.execute(
                f"INSERT INTO achievements AS a ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (player_id, code) DO UPDATE SET table_id = excluded.table_id,"
                " guild_id = excluded.guild_id, earned_at = excluded.earned_at"
                " WHERE excluded.earned_at < a.earned_at OR (excluded.earned_at = a.earned_at"
                " AND excluded.table_id < a.table_id)",
                (e.player_id, e.code, e.table_id, e.guild_id, e.earned_at),
            )
        return changed

    async def scanned(self, table_id: int) -> None:
        """The match's moments were read."""
        await self._db.execute(
            "INSERT INTO achievement_scans (table_id) VALUES (?) ON CONFLICT DO NOTHING",
            (table_id,),
        )

    async def forget(self, user_id: int) -> None:
        """A person asked to be forgotten: his achievements go."""
        await self._db.execute("DELETE FROM achievements WHERE player_id = ?", (user_id,))

    # -- the back-fill -------------------------------------------------------------------------

    async def unscanned(self, after: int, limit: int) -> list[int]:
        """Recorded matches after table ``after`` whose moments were not read, by table id."""
        rows = await self._db.fetchall(
            "SELECT m.table_id FROM record_matches m WHERE m.table_id > ? AND NOT EXISTS"
            " (SELECT 1 FROM achievement_scans s WHERE s.table_id = m.table_id)"
            " ORDER BY m.table_id LIMIT ?",
            (after, limit),
        )
        return [int(r[0]) for r in rows]

    async def rated_entries(
        self, after: tuple[float, int, int], limit: int
    ) -> list[EntryLine]:
        """People's rated recorded matches after ``(finished_at, table_id, player_id)``, oldest
        first."""
        rows = await self._db.fetchall(
            "SELECT e.player_id, e.table_id, e.result, m.variant, m.guild_id, e.finished_at"
            " FROM record_entries e JOIN record_matches m ON m.table_id = e.table_id"
            " WHERE e.kind = 'human' AND e.rated = 1 AND e.player_id > 0"
            " AND (e.finished_at > ? OR (e.finished_at = ? AND (e.table_id > ?"
            " OR (e.table_id = ? AND e.player_id > ?))))"
            " ORDER BY e.finished_at, e.table_id, e.player_id LIMIT ?",
            (after[0], after[0], after[1], after[1], after[2], limit),
        )
        return [
            EntryLine(
                int(r[0]),
                int(r[1]),
                str(r[2]),
                str(r[3]),
                None if r[4] is None else int(r[4]),
                float(r[5]),
            )
            for r in rows
        ]

    # -- reading -------------------------------------------------------------------------------

    async def of_player(self, player_id: int) -> list[Earned]:
        """A person's achievements, latest first."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM achievements WHERE player_id = ?"
            " ORDER BY earned_at DESC, table_id DESC, code",
            (player_id,),
        )
        return [_earned(r) for r in rows]

    async def of_table(self, table_id: int) -> list[Earned]:
        """The achievements the match of ``table_id`` earned (first earned there)."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM achievements WHERE table_id = ? ORDER BY player_id, code",
            (table_id,),
        )
        return [_earned(r) for r in rows]

    async def holders(self) -> dict[str, int]:
        """How many people hold each achievement."""
        rows = await self._db.fetchall(
            "SELECT code, count(*) FROM achievements GROUP BY code"
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def all_rows(self) -> list[Earned]:
        """Every row (for checks), by person and code."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM achievements ORDER BY player_id, code"
        )
        return [_earned(r) for r in rows]
