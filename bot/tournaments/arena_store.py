"""SQL of arena events (``migrations/*/0970_tournament_arena.sql``): each entrant's place in
the arena (away, waiting since, the board he sits at) and the standings post's version."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.connection import Db


@dataclass(frozen=True, slots=True)
class ArenaSeat:
    """An entrant of an arena: away (left), waiting since, the board he sits at now."""

    entry: int
    away: bool
    since: float
    board: tuple[int, int] | None  # (round, board) of his running table


@dataclass(frozen=True, slots=True)
class ArenaPost:
    """The arena's count of changes, the one its standings post shows, and when it was last
    edited."""

    version: int
    posted: int
    posted_at: float | None


class ArenaRepo:
    """Rows of arena entrants, and the arena's columns of its event."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def seats(self, event_id: int) -> dict[int, ArenaSeat]:
        rows = await self._db.fetchall(
            "SELECT entry, away, since, board_round, board FROM tournament_arena"
            " WHERE tournament_id = ?",
            (event_id,),
        )
        return {
            int(r[0]): ArenaSeat(
                int(r[0]), bool(r[1]), float(r[2]),
                None if r[3] is None else (int(r[3]), int(r[4])),
            )
            for r in rows
        }

    async def enter(self, event_id: int, entry: int, since: float) -> None:
        """The entrant waits from ``since`` (a new row; an existing one comes back)."""
        await self._db.execute(
            "INSERT INTO tournament_arena (tournament_id, entry, away, since) VALUES (?, ?, 0, ?)"
            " ON CONFLICT (tournament_id, entry) DO UPDATE SET away = 0",
            (event_id, entry, since),
        )

    async def set_away(self, event_id: int, entry: int, away: bool) -> int:
        return await self._db.execute(
            "UPDATE tournament_arena SET away = ? WHERE tournament_id = ? AND entry = ?"
            " AND away = ?",
            (int(away), event_id, entry, int(not away)),
        )

    async def seat(self, event_id: int, entry: int, round_: int, board: int) -> int:
        """Seat a waiting entrant at a board: 1, or 0 if he sits somewhere already or left."""
        return await self._db.execute(
            "UPDATE tournament_arena SET board_round = ?, board = ? WHERE tournament_id = ?"
            " AND entry = ? AND board_round IS NULL AND away = 0",
            (round_, board, event_id, entry),
        )

    async def free(self, event_id: int, round_: int, board: int, since: float) -> None:
        """The board's entrants wait again from ``since``."""
        await self._db.execute(
            "UPDATE tournament_arena SET board_round = NULL, board = NULL, since = ?"
            " WHERE tournament_id = ? AND board_round = ? AND board = ?",
            (since, event_id, round_, board),
        )

    async def post(self, event_id: int) -> ArenaPost:
        row = await self._db.fetchone(
            "SELECT arena_version, arena_posted, arena_posted_at FROM tournaments WHERE id = ?",
            (event_id,),
        )
        if row is None:
            return ArenaPost(0, 0, None)
        return ArenaPost(int(row[0]), int(row[1]), None if row[2] is None else float(row[2]))

    async def bump(self, event_id: int) -> None:
        """One more change for the standings post to show."""
        await self._db.execute(
            "UPDATE tournaments SET arena_version = arena_version + 1 WHERE id = ?", (event_id,)
        )

    async def posted(self, event_id: int, version: int, at: float) -> None:
        await self._db.execute(
            "UPDATE tournaments SET arena_posted = ?, arena_posted_at = ? WHERE id = ?",
            (version, at, event_id),
        )

    async def begin(self, event_id: int, ends_at: float, now: float) -> None:
        await self._db.execute(
            "UPDATE tournaments SET status = 'running', arena_ends_at = ?, updated_at = ?"
            " WHERE id = ?",
            (ends_at, now, event_id),
        )
