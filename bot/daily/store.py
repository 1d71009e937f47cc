"""SQL of the daily deal (tables of ``migrations/*/0850_daily.sql``), as a repository.

:class:`DailyRepo` wraps the statement runner of a :class:`~bot.store.Store` (``store.db``: each
call alone) or of a transaction (``tx.db``: inside it). It only reads and writes rows; what they
mean is decided in :mod:`bot.daily.service`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Db, Row

__all__ = ["AttemptRow", "DailyRepo", "LegRow"]


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """One person's attempt at one day's deal of one variant (``daily_attempts``)."""

    day: str
    variant: str
    user_id: int
    name: str
    guild_id: int | None
    channel_id: int | None
    locale: str | None
    legs: int
    started_at: float
    result: int | None = None
    finished_at: float | None = None
    published: bool = False

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class LegRow:
    """One leg of an attempt: its table, once its match ended its points difference, and
    whether the note opening it was posted."""

    table_id: int
    leg: int
    points: int | None
    noted: bool = False


_ATTEMPT = (
    "day, variant, user_id, name, guild_id, channel_id, locale, legs, started_at, result,"
    " finished_at, published"
)


def _attempt(row: Row) -> AttemptRow:
    return AttemptRow(
        day=row["day"],
        variant=row["variant"],
        user_id=int(row["user_id"]),
        name=row["name"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        locale=row["locale"],
        legs=int(row["legs"]),
        started_at=float(row["started_at"]),
        result=row["result"],
        finished_at=None if row["finished_at"] is None else float(row["finished_at"]),
        published=bool(row["published"]),
    )


class DailyRepo:
    """The rows of the daily deals, attempts and legs."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- deals -------------------------------------------------------------------------------

    async def seed(self, day: str, variant: str, new: int) -> int:
        """The seed of the day's deal of ``variant``: ``new`` if it is the first asked."""
        await self._db.execute(
            "INSERT INTO daily_deals (day, variant, seed) VALUES (?, ?, ?)"
            " ON CONFLICT (day, variant) DO NOTHING",
            (day, variant, new),
        )
        return int(
            await self._db.fetchval(
                "SELECT seed FROM daily_deals WHERE day = ? AND variant = ?", (day, variant)
            )
        )

    async def expert(self, day: str, variant: str) -> list[tuple[int, str]] | None:
        """The expert's own play of the deal (seat, action), if it was computed."""
        text = await self._db.fetchval(
            "SELECT expert FROM daily_deals WHERE day = ? AND variant = ?", (day, variant)
        )
        return None if text is None else [(int(s), str(a)) for s, a in json.loads(text)]

    async def set_expert(self, day: str, variant: str, moves: Sequence[tuple[int, str]]) -> None:
        """Keep the expert's play (the first one computed stays)."""
        await self._db.execute(
            "UPDATE daily_deals SET expert = ? WHERE day = ? AND variant = ? AND expert IS NULL",
            (json.dumps([list(m) for m in moves], separators=(",", ":")), day, variant),
        )

    # -- attempts ----------------------------------------------------------------------------

    async def add(self, attempt: AttemptRow) -> None:
        """A new attempt (a second one of the same person, day and variant fails with an
        IntegrityError)."""
        await self._db.execute(
            "INSERT INTO daily_attempts (day, variant, user_id, name, guild_id, channel_id,"
            " locale, legs, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                attempt.day,
                attempt.variant,
                attempt.user_id,
                attempt.name,
                attempt.guild_id,
                attempt.channel_id,
                attempt.locale,
                attempt.legs,
                attempt.started_at,
            ),
        )

    async def attempt(self, day: str, variant: str, user_id: int) -> AttemptRow | None:
        row = await self._db.fetchone(
            f"SELECT {_ATTEMPT} FROM daily_attempts WHERE day = ? AND variant = ? AND user_id = ?",
            (day, variant, user_id),
        )
        return None if row is None else _attempt(row)

    async def unsettled(self) -> list[AttemptRow]:
        """Attempts not finished, or finished and not published."""
        rows = await self._db.fetchall(
            f"SELECT {_ATTEMPT} FROM daily_attempts WHERE finished_at IS NULL OR published = 0"
            " ORDER BY started_at"
        )
        return [_attempt(r) for r in rows]

    async def finish(self, day: str, variant: str, user_id: int, result: int, now: float) -> None:
        await self._db.execute(
            "UPDATE daily_attempts SET result = ?, finished_at = ?"
            " WHERE day = ? AND variant = ? AND user_id = ? AND finished_at IS NULL",
            (result, now, day, variant, user_id),
        )

    async def published(self, day: str, variant: str, user_id: int) -> None:
        await self._db.execute(
            "UPDATE daily_attempts SET published = 1 WHERE day = ? AND variant = ? AND user_id = ?",
            (day, variant, user_id),
        )

    async def drop(self, day: str, variant: str, user_id: int) -> None:
        """Remove an attempt that never began (its first table could not be shown)."""
        await self._db.execute(
            "DELETE FROM daily_legs WHERE day = ? AND variant = ? AND user_id = ?",
            (day, variant, user_id),
        )
        await self._db.execute(
            "DELETE FROM daily_attempts WHERE day = ? AND variant = ? AND user_id = ?",
            (day, variant, user_id),
        )

    async def board(self, day: str, variant: str, guild_id: int | None) -> list[AttemptRow]:
        """The day's finished attempts of ``variant`` (of one server, or of all), best first;
        equal results by who finished first."""
        where = "day = ? AND variant = ? AND finished_at IS NOT NULL"
        params: list[Any] = [day, variant]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._db.fetchall(
            f"SELECT {_ATTEMPT} FROM daily_attempts WHERE {where}"
            " ORDER BY result DESC, finished_at, user_id",
            params,
        )
        return [_attempt(r) for r in rows]

    async def days_of(self, user_id: int, limit: int) -> list[str]:
        """The latest days (newest first) on which ``user_id`` started an attempt."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT day FROM daily_attempts WHERE user_id = ? ORDER BY day DESC"
            " LIMIT ?",
            (user_id, limit),
        )
        return [r["day"] for r in rows]

    # -- legs --------------------------------------------------------------------------------

    async def add_leg(self, table_id: int, attempt: AttemptRow, leg: int) -> None:
        """A leg's table (a second table for the same leg fails with an IntegrityError)."""
        await self._db.execute(
            "INSERT INTO daily_legs (table_id, day, variant, user_id, leg) VALUES (?, ?, ?, ?, ?)",
            (table_id, attempt.day, attempt.variant, attempt.user_id, leg),
        )

    async def legs(self, day: str, variant: str, user_id: int) -> list[LegRow]:
        rows = await self._db.fetchall(
            "SELECT table_id, leg, points, noted FROM daily_legs"
            " WHERE day = ? AND variant = ? AND user_id = ? ORDER BY leg",
            (day, variant, user_id),
        )
        return [
            LegRow(int(r["table_id"]), int(r["leg"]), r["points"], bool(r["noted"]))
            for r in rows
        ]

    async def unnoted(self) -> list[AttemptRow]:
        """Unfinished attempts with a leg in play whose opening note was not posted."""
        rows = await self._db.fetchall(
            f"SELECT {_ATTEMPT} FROM daily_attempts a WHERE a.finished_at IS NULL AND EXISTS"
            " (SELECT 1 FROM daily_legs l WHERE l.day = a.day AND l.variant = a.variant"
            " AND l.user_id = a.user_id AND l.leg > 0 AND l.noted = 0 AND l.points IS NULL)"
        )
        return [_attempt(r) for r in rows]

    async def noted(self, table_id: int) -> None:
        """The note opening the leg played at ``table_id`` was posted (or given up)."""
        await self._db.execute("UPDATE daily_legs SET noted = 1 WHERE table_id = ?", (table_id,))

    async def leg_of(self, table_id: int) -> tuple[str, str, int] | None:
        """(day, variant, user) of the attempt whose leg is played at ``table_id``."""
        row = await self._db.fetchone(
            "SELECT day, variant, user_id FROM daily_legs WHERE table_id = ?", (table_id,)
        )
        return None if row is None else (row["day"], row["variant"], int(row["user_id"]))

    async def score_leg(self, table_id: int, points: int) -> None:
        await self._db.execute(
            "UPDATE daily_legs SET points = ? WHERE table_id = ? AND points IS NULL",
            (points, table_id),
        )

    # -- forget-me ---------------------------------------------------------------------------

    async def forget(self, user_id: int, alias: int) -> None:
        """A person asked to be forgotten: his attempts are the former player ``alias``'s."""
        await self._db.execute(
            "UPDATE daily_attempts SET user_id = ?, name = '' WHERE user_id = ?", (alias, user_id)
        )
        await self._db.execute(
            "UPDATE daily_legs SET user_id = ? WHERE user_id = ?", (alias, user_id)
        )
