"""SQL of the periodic leaderboards and their scheduled posts (``migrations/*/0800_periods.sql``).

:class:`PeriodRepo` wraps a statement runner (``store.db`` or a transaction's ``tx.db``): each
person's figures per week and month (``record_periods``), a server's board channel with the
deadline of its next post (``board_channels``) and the boards posted (``board_posts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.records.board_sql import RankedBoard, hidden_value
from bot.store.connection import Db

__all__ = ["BOARD", "BoardChannel", "PeriodLine", "PeriodRepo", "read_line"]


@dataclass(frozen=True, slots=True)
class PeriodLine:
    """A person's figures over one period, in one scope and bucket (and his place on the
    board, once ranked)."""

    player_id: int
    name: str
    matches: int
    wins: int
    losses: int
    draws: int
    points_for: int
    points_against: int
    diff: int
    last_at: float
    place: int = 0


@dataclass(frozen=True, slots=True)
class BoardChannel:
    """Where a server's past boards are posted, and when the next post is due."""

    guild_id: int
    channel_id: int
    due_at: float


BOARD = RankedBoard(
    table="record_periods",
    board=("period", "scope", "bucket"),
    rank=("wins", "diff"),
    columns=(
        "r.player_id, coalesce(p.name, ''), r.matches, r.wins, r.losses, r.draws,"
        " r.points_for, r.points_against, r.diff, r.last_at"
    ),
    sized="period_board_sizes",
)


def read_line(row: Any) -> PeriodLine:
    """A line of a row of :data:`BOARD`'s columns."""
    return PeriodLine(int(row[0]), str(row[1]), *(int(v) for v in row[2:9]), float(row[9]))


class PeriodRepo:
    """Reads and writes the periodic boards' rows through one statement runner."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- recording (inside the transaction that records the match) --------------------------

    async def add(
        self,
        player_id: int,
        lines: Sequence[tuple[str, int, str]],
        *,
        result: str,
        points_for: int,
        points_against: int,
        at: float,
    ) -> None:
        """Add one match to the person's lines ``(period, scope, bucket)``, in one statement
        (a new line is hidden if he left the scope's boards)."""
        if not lines:
            return
        figures = (
            int(result == "win"),
            int(result == "loss"),
            int(result == "draw"),
            points_for,
            points_against,
            points_for - points_against,
            at,
        )
        values = ", ".join(f"(?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, {hidden_value()})" for _ in lines)
        params: list[Any] = []
        for period, scope, bucket in lines:
            params += [period, scope, bucket, player_id, *figures, player_id, scope]
        await self._db.execute(
            "INSERT INTO record_periods AS r (period, scope, bucket, player_id, matches, wins,"
            " losses, draws, points_for, points_against, diff, last_at, hidden)"
            f" VALUES {values} ON CONFLICT (period, scope, bucket, player_id) DO UPDATE SET"
            " matches = r.matches + 1, wins = r.wins + excluded.wins,"
            " losses = r.losses + excluded.losses, draws = r.draws + excluded.draws,"
            " points_for = r.points_for + excluded.points_for,"
            " points_against = r.points_against + excluded.points_against,"
            " diff = r.diff + excluded.diff, last_at = greatest(r.last_at, excluded.last_at)",
            params,
        )

    # -- reading ------------------------------------------------------------------------------

    async def board(
        self, period: str, scope: int, bucket: str, *, limit: int, offset: int = 0
    ) -> list[PeriodLine]:
        """One page of the listed lines, most wins first, then the best points difference."""
        rows = await BOARD.page(self._db, (period, scope, bucket), limit=limit, offset=offset)
        return [read_line(r) for r in rows]

    async def size(self, period: str, scope: int, bucket: str) -> int:
        """How many people the board lists."""
        return await BOARD.size(self._db, (period, scope, bucket))

    async def ahead(self, period: str, scope: int, bucket: str, wins: int, diff: int) -> int:
        """How many listed people rank strictly above ``(wins, diff)``."""
        return await BOARD.ahead(self._db, (period, scope, bucket), (wins, diff))

    async def line(self, period: str, scope: int, bucket: str, player_id: int) -> PeriodLine | None:
        """The person's line, if the board lists him."""
        row = await BOARD.line(self._db, (period, scope, bucket), player_id)
        return None if row is None else read_line(row)

    # -- forgetting, servers the bot left ------------------------------------------------

    async def forget(self, user_id: int) -> None:
        await self._db.execute("DELETE FROM record_periods WHERE player_id = ?", (user_id,))
        await self._db.execute(  # the channel stays the server's; who chose it is forgotten
            "UPDATE board_channels SET set_by = 0 WHERE set_by = ?", (user_id,)
        )

    async def drop_guild(self, guild_id: int) -> None:
        for table, column in (
            ("record_periods", "scope"),
            ("board_channels", "guild_id"),
            ("board_posts", "guild_id"),
        ):
            await self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (guild_id,))

    # -- the board channel and its posts ----------------------------------------------------

    async def channel(self, guild_id: int) -> BoardChannel | None:
        row = await self._db.fetchone(
            "SELECT guild_id, channel_id, due_at FROM board_channels WHERE guild_id = ?",
            (guild_id,),
        )
        return None if row is None else BoardChannel(int(row[0]), int(row[1]), float(row[2]))

    async def channels(self) -> list[BoardChannel]:
        """Every server's board channel."""
        rows = await self._db.fetchall(
            "SELECT guild_id, channel_id, due_at FROM board_channels ORDER BY guild_id"
        )
        return [BoardChannel(int(r[0]), int(r[1]), float(r[2])) for r in rows]

    async def set_channel(
        self, guild_id: int, channel_id: int, *, due_at: float, by: int, now: float
    ) -> None:
        """Choose the channel; the next post stays due when it was, if one was set."""
        await self._db.execute(
            "INSERT INTO board_channels (guild_id, channel_id, due_at, set_by, set_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, set_by = excluded.set_by,"
            " set_at = excluded.set_at",
            (guild_id, channel_id, due_at, by, now),
        )

    async def clear_channel(self, guild_id: int) -> None:
        await self._db.execute("DELETE FROM board_channels WHERE guild_id = ?", (guild_id,))

    async def set_due(self, guild_id: int, due_at: float) -> None:
        await self._db.execute(
            "UPDATE board_channels SET due_at = ? WHERE guild_id = ?", (due_at, guild_id)
        )

    async def posted(self, guild_id: int, period: str) -> bool:
        row = await self._db.fetchone(
            "SELECT 1 FROM board_posts WHERE guild_id = ? AND period = ?", (guild_id, period)
        )
        return row is not None

    async def last_post(self, guild_id: int) -> tuple[str, int, int | None] | None:
        """The latest board of a server: (period, channel, message id or None if it could
        not be posted)."""
        row = await self._db.fetchone(
            "SELECT period, channel_id, message_id FROM board_posts WHERE guild_id = ?"
            " ORDER BY posted_at DESC, period DESC LIMIT 1",
            (guild_id,),
        )
        if row is None:
            return None
        return str(row[0]), int(row[1]), None if row[2] is None else int(row[2])

    async def mark_posted(
        self, guild_id: int, period: str, channel_id: int, message_id: int | None, *, now: float
    ) -> None:
        await self._db.execute(
            "INSERT INTO board_posts (guild_id, period, channel_id, message_id, posted_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, period) DO NOTHING",
            (guild_id, period, channel_id, message_id, now),
        )
