"""SQL of the records (tables of ``migrations/*/0100_records.sql`` and later), as a repository.

:class:`RecordsRepo` wraps the statement runner of a :class:`~bot.store.Store` (``store.db``:
each call alone) or of a transaction (``tx.db``: inside it). It only reads and writes rows; what
they mean is decided in :mod:`bot.records.service`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.records.board_sql import PROVISIONAL_SIGMA
from bot.records.record import GLOBAL, MatchRecord
from bot.store.connection import POSTGRES, Db, Row
from bot.store.table_extras import DailyVeil, Readable

__all__ = [
    "FORMER_PLAYERS",
    "EntryRow",
    "ForgetRepo",
    "ForgetRequest",
    "OpenTable",
    "RecordsRepo",
    "StatRow",
    "StatsDelta",
]

RECORDS_LOCK = 0x7265636F726473  # PostgreSQL advisory lock of record writers ("records")
FORMER_PLAYERS = -2_000_000_000  # forgotten people get player ids below this one


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# --------------------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class StatRow:
    """One summary line: a player's figures in one scope and bucket."""

    scope: int
    bucket: str
    player_id: int
    matches: int
    wins: int
    losses: int
    draws: int
    hands_won: int
    dominoes: int
    blocks_won: int
    points_for: int
    points_against: int
    streak: int
    best_streak: int
    rating: float | None  # ordinal of the family rating (None in the 'all' bucket)
    last_at: float
    name: str = ""
    kind: str = "human"


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One participant of one recorded match."""

    table_id: int
    player_id: int
    side: int
    seats: tuple[int, ...]
    name: str
    kind: str
    result: str
    rank: int
    points_for: int
    points_against: int
    hands_won: int
    dominoes: int
    blocks_won: int
    rated: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    family: str
    finished_at: float


@dataclass(frozen=True, slots=True)
class StatsDelta:
    """What one match adds to a player's summary lines."""

    win: bool
    loss: bool
    draw: bool
    hands_won: int
    dominoes: int
    blocks_won: int
    points_for: int
    points_against: int


_STAT_COLUMNS = (
    "s.scope, s.bucket, s.player_id, s.matches, s.wins, s.losses, s.draws, s.hands_won,"
    " s.dominoes, s.blocks_won, s.points_for, s.points_against, s.streak, s.best_streak,"
    " s.rating, s.last_at, coalesce(p.name, '') AS name, coalesce(p.kind, 'human') AS kind"
)

_ENTRY_COLUMNS = (
    "table_id, player_id, side, seats, name, kind, result, rank, points_for, points_against,"
    " hands_won, dominoes, blocks_won, rated, mu_before, sigma_before, mu_after, sigma_after,"
    " family, finished_at"
)

_MATCH_COLUMNS = (
    "table_id, guild_id, variant, family, seats, teams, people, computers, hands, scores,"
    " winner_side, draw, reason, started_at, finished_at"
)

_ORDER = {
    "rating": "s.rating DESC, s.player_id",
    "wins": "s.wins DESC, s.losses, s.player_id",
}


#: The matches below which the database keeps how many lines of each rating board have that
#: many (migration 0944): the highest minimum a server may set.
SHORT_KEPT = 50


def _least(alias: str, least: int) -> str:
    """The condition of a rating board's minimum of matches (none below 2)."""
    return f" AND {alias}.matches >= {int(least)}" if least > 1 else ""


def _stat(row: Row) -> StatRow:
    return StatRow(*row)


def _entry(row: Row) -> EntryRow:
    values = list(row)
    values[3] = tuple(json.loads(values[3]))
    values[13] = bool(values[13])
    return EntryRow(*values)


def _match(row: Row) -> MatchRecord:
    """A recorded match, read back without its participants."""
    values = list(row)
    values[5] = bool(values[5])
    values[9] = tuple(json.loads(values[9]))
    values[11] = bool(values[11])
    return MatchRecord(*values)


# ---------------------------------------------------------------------------------- the repo


class RecordsRepo:
    """Reads and writes the records tables through one statement runner."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- recording (call inside a transaction) ----------------------------------------------

    async def lock(self) -> None:
        """Make this transaction the only one writing records until it ends.

        Call it first. Recording reads ratings, then writes them: two processes recording at
        once must not both start from the same ratings. Every writer of the summary lines
        takes it too: the boards' sizes they keep (``record_board_sizes``) are shared rows,
        and two writers updating them in different orders would deadlock. SQLite lets one
        writer in at a time already; PostgreSQL takes an advisory lock released with the
        transaction.
        """
        if self._db.dialect == POSTGRES:
            await self._db.execute("SELECT pg_advisory_xact_lock(?)", (RECORDS_LOCK,))

    async def is_recorded(self, table_id: int) -> bool:
        row = await self._db.fetchone(
            "SELECT 1 FROM record_matches WHERE table_id = ?", (table_id,)
        )
        return row is not None

    async def recorded_among(self, table_ids: Sequence[int]) -> set[int]:
        """Which of ``table_ids`` are recorded already."""
        found: set[int] = set()
        for start in range(0, len(table_ids), 500):
            chunk = table_ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = await self._db.fetchall(
                f"SELECT table_id FROM record_matches WHERE table_id IN ({marks})", chunk
            )
            found.update(int(r[0]) for r in rows)
        return found

    async def add_match(self, m: MatchRecord, *, now: float) -> None:
        """The match's own row (its participants go in with :meth:`add_entry`)."""
        await self._db.execute(
            f"INSERT INTO record_matches ({_MATCH_COLUMNS}, duration, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m.table_id,
                m.guild_id,
                m.variant,
                m.family,
                m.seats,
                int(m.teams),
                m.people,
                m.computers,
                m.hands,
                _dumps(list(m.scores)),
                m.winner_side,
                int(m.draw),
                m.reason,
                m.started_at,
                m.finished_at,
                m.duration,
                now,
            ),
        )

    async def add_entry(self, e: EntryRow) -> None:
        await self._db.execute(
            f"INSERT INTO record_entries ({_ENTRY_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                e.table_id,
                e.player_id,
                e.side,
                _dumps(list(e.seats)),
                e.name,
                e.kind,
                e.result,
                e.rank,
                e.points_for,
                e.points_against,
                e.hands_won,
                e.dominoes,
                e.blocks_won,
                int(e.rated),
                e.mu_before,
                e.sigma_before,
                e.mu_after,
                e.sigma_after,
                e.family,
                e.finished_at,
            ),
        )

    async def ratings(
        self, player_ids: Iterable[int], family: str
    ) -> dict[int, tuple[float, float]]:
        """Current (mu, sigma) of the players who have a rating in ``family``."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT player_id, mu, sigma FROM record_ratings"
            f" WHERE family = ? AND player_id IN ({marks})",
            (family, *ids),
        )
        return {int(r[0]): (float(r[1]), float(r[2])) for r in rows}

    async def put_rating(
        self, player_id: int, family: str, mu: float, sigma: float, *, now: float
    ) -> None:
        await self._db.execute(
            "INSERT INTO record_ratings (player_id, family, mu, sigma, matches, updated_at)"
            " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (player_id, family) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, matches = record_ratings.matches + 1,"
            " updated_at = excluded.updated_at",
            (player_id, family, mu, sigma, now),
        )

    async def put_player(self, player_id: int, name: str, kind: str, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO record_players (player_id, name, kind, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, kind = excluded.kind,"
            " updated_at = excluded.updated_at",
            (player_id, name, kind, now),
        )

    async def rename(self, player_id: int, name: str, *, now: float) -> None:
        """A known player's latest name (nothing for someone never recorded)."""
        await self._db.execute(
            "UPDATE record_players SET name = ?, updated_at = ? WHERE player_id = ? AND name <> ?",
            (name, now, player_id, name),
        )

    async def hidden_scopes(self, user_ids: Iterable[int]) -> dict[int, set[int]]:
        """For each user with opt-outs, the scopes he left."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT user_id, scope FROM record_privacy WHERE user_id IN ({marks})", ids
        )
        found: dict[int, set[int]] = {}
        for r in rows:
            found.setdefault(int(r[0]), set()).add(int(r[1]))
        return found

    async def add_stats(
        self,
        player_id: int,
        lines: Sequence[tuple[int, str, str | None, bool]],
        d: StatsDelta,
        *,
        at: float,
    ) -> None:
        """Add one match to the player's summary lines (created as needed), in one statement.

        ``lines`` holds ``(scope, bucket, family, hidden)`` per line.
        """
        if not lines:
            return
        win = int(d.win)
        figures = (
            win,
            int(d.loss),
            int(d.draw),
            d.hands_won,
            d.dominoes,
            d.blocks_won,
            d.points_for,
            d.points_against,
            win,
            win,
        )
        values = ", ".join("(?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in lines)
        params: list[Any] = []
        for scope, bucket, family, hidden in lines:
            params += [scope, bucket, player_id, family, *figures, int(hidden), at]
        await self._db.execute(
            "INSERT INTO record_stats AS s (scope, bucket, player_id, family, matches, wins,"
            " losses,"
            " draws, hands_won, dominoes, blocks_won, points_for, points_against, streak,"
            f" best_streak, hidden, last_at) VALUES {values}"
            " ON CONFLICT (scope, bucket, player_id) DO UPDATE SET"
            " matches = s.matches + 1, wins = s.wins + excluded.wins,"
            " losses = s.losses + excluded.losses, draws = s.draws + excluded.draws,"
            " hands_won = s.hands_won + excluded.hands_won,"
            " dominoes = s.dominoes + excluded.dominoes,"
            " blocks_won = s.blocks_won + excluded.blocks_won,"
            " points_for = s.points_for + excluded.points_for,"
            " points_against = s.points_against + excluded.points_against,"
            " streak = CASE WHEN excluded.wins = 1 THEN s.streak + 1 ELSE 0 END,"
            " best_streak = greatest(s.best_streak, CASE WHEN excluded.wins = 1"
            " THEN s.streak + 1 ELSE 0 END),"
            " hidden = excluded.hidden, last_at = greatest(s.last_at, excluded.last_at)",
            params,
        )

    async def add_versus(
        self, player_id: int, scopes: Sequence[int], computer_ids: Sequence[int], result: str
    ) -> None:
        """Count one match of ``player_id`` (his ``result``) against each of ``computer_ids``
        in each of ``scopes``."""
        lines = [(scope, cid) for scope in scopes for cid in computer_ids]
        if not lines:
            return
        figures = (int(result == "win"), int(result == "loss"), int(result == "draw"))
        values = ", ".join("(?, ?, ?, ?, ?, ?)" for _ in lines)
        params: list[Any] = []
        for scope, cid in lines:
            params += [scope, player_id, cid, *figures]
        await self._db.execute(
            "INSERT INTO record_versus AS v (scope, player_id, computer_id, wins, losses, draws)"
            f" VALUES {values} ON CONFLICT (scope, player_id, computer_id) DO UPDATE SET"
            " wins = v.wins + excluded.wins, losses = v.losses + excluded.losses,"
            " draws = v.draws + excluded.draws",
            params,
        )

    async def set_stat_ratings(self, player_id: int, family: str, rating: float) -> None:
        """Copy a new family rating into every summary line of the family (all scopes)."""
        await self._db.execute(
            "UPDATE record_stats SET rating = ? WHERE player_id = ? AND family = ?",
            (rating, player_id, family),
        )

    # -- privacy -----------------------------------------------------------------------------

    async def set_hidden(self, user_id: int, scope: int, hidden: bool, *, now: float) -> None:
        """Leave (or come back to) the leaderboards of ``scope``."""
        if hidden:
            await self._db.execute(
                "INSERT INTO record_privacy (user_id, scope, created_at)"
                " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (user_id, scope, now),
            )
        else:
            await self._db.execute(
                "DELETE FROM record_privacy WHERE user_id = ? AND scope = ?", (user_id, scope)
            )
        for table in ("record_stats", "record_periods", "season_lines"):
            await self._db.execute(
                f"UPDATE {table} SET hidden = ? WHERE player_id = ? AND scope = ?",
                (int(hidden), user_id, scope),
            )

    # -- reading -----------------------------------------------------------------------------

    async def leaderboard(
        self, scope: int, bucket: str, by: str, *, limit: int, offset: int, least: int = 1,
        family: str | None = None,
    ) -> list[Row]:
        """One page of visible summary lines, best first; ties go to the lower player id (by
        rating: lines of at least ``least`` matches): only what a board shows of each, as
        (player id, name, kind, rating, matches, wins, losses, draws, best streak, whether
        he left the global boards or the scope's, whether (with ``family``) his rating there
        is provisional). One statement."""
        order = _ORDER[by]
        # (people only: computer players, whose ids are below 1, are not ranked among them)
        where = "k.scope = ? AND k.bucket = ? AND k.hidden = 0 AND k.player_id > 0"
        if by == "rating":
            where += " AND k.rating IS NOT NULL" + _least("k", least)
        # The page's keys come from the covering index alone (cheap to skip), then their rows.
        return await self._db.fetchall(
            "SELECT s.player_id, coalesce(p.name, ''), coalesce(p.kind, 'human'), s.rating,"
            " s.matches, s.wins, s.losses, s.draws, s.best_streak,"
            " CASE WHEN EXISTS (SELECT 1 FROM record_privacy v WHERE v.user_id = s.player_id"
            " AND v.scope IN (?, ?)) THEN 1 ELSE 0 END,"
            " CASE WHEN g.sigma > ? THEN 1 ELSE 0 END"
            " FROM (SELECT k.player_id FROM record_stats k"
            f" WHERE {where} ORDER BY {order.replace('s.', 'k.')} LIMIT ? OFFSET ?) AS page"
            " JOIN record_stats s ON s.scope = ? AND s.bucket = ? AND s.player_id = page.player_id"
            " LEFT JOIN record_players p ON p.player_id = s.player_id"
            " LEFT JOIN record_ratings g ON g.player_id = s.player_id AND g.family = ?"
            f" ORDER BY {order}",
            (
                GLOBAL, scope, PROVISIONAL_SIGMA, scope, bucket, limit, offset, scope, bucket,
                family or "",
            ),
        )

    async def leaderboard_size(self, scope: int, bucket: str, by: str, least: int = 1) -> int:
        """How many visible lines a leaderboard has (kept by the database as it writes them:
        one row, ``record_board_sizes``; a rating board with a minimum of matches less its
        lines of fewer, kept alike per number of matches: ``record_board_short``)."""
        if by == "rating" and 1 < least <= SHORT_KEPT:
            value = await self._db.fetchval(
                "SELECT coalesce((SELECT listed_rated FROM record_board_sizes"
                " WHERE scope = ? AND bucket = ?), 0)"
                " - coalesce((SELECT sum(lines) FROM record_board_short"
                " WHERE scope = ? AND bucket = ? AND matches < ?), 0)",
                (scope, bucket, scope, bucket, least),
            )
            return int(value or 0)
        if by == "rating" and least > 1:
            value = await self._db.fetchval(
                # (one range of the rating board's index, which holds the matches: "+" keeps
                # SQLite from reading the lines themselves by primary key instead)
                "SELECT count(*) FROM record_stats k WHERE k.scope = ? AND k.bucket = ?"
                " AND k.hidden = 0 AND k.rating IS NOT NULL AND +k.player_id > 0"
                + _least("k", least),
                (scope, bucket),
            )
            return int(value or 0)
        row = await self._db.fetchone(
            f"SELECT {'listed_rated' if by == 'rating' else 'listed'} FROM record_board_sizes"
            " WHERE scope = ? AND bucket = ?",
            (scope, bucket),
        )
        return 0 if row is None else int(row[0])

    async def position(
        self, scope: int, bucket: str, by: str, player_id: int, least: int = 1
    ) -> int | None:
        """The 1-based place of ``player_id`` on a leaderboard (None when not on it)."""
        row = await self._db.fetchone(
            "SELECT rating, wins, losses, hidden, matches FROM record_stats"
            " WHERE scope = ? AND bucket = ? AND player_id = ?",
            (scope, bucket, player_id),
        )
        if row is None or row[3] or (by == "rating" and row[0] is None) or player_id <= 0:
            return None
        if by == "rating" and int(row[4]) < least:
            return None
        # One index range per condition: an OR in one count is many times slower.
        base = (
            "(SELECT count(*) FROM record_stats WHERE scope = ? AND bucket = ? AND hidden = 0"
            " AND +player_id > 0" + (_least("record_stats", least) if by == "rating" else "")
        )
        key = (scope, bucket)
        if by == "rating":
            ahead = await self._db.fetchone(
                f"SELECT {base} AND rating > ?) + {base} AND rating = ? AND player_id < ?)",
                (*key, row[0], *key, row[0], player_id),
            )
        else:
            ahead = await self._db.fetchone(
                f"SELECT {base} AND wins > ?) + {base} AND wins = ? AND losses < ?)"
                f" + {base} AND wins = ? AND losses = ? AND player_id < ?)",
                (*key, row[1], *key, row[1], row[2], *key, row[1], row[2], player_id),
            )
        return 1 + (0 if ahead is None else int(ahead[0]))

    async def player_stats(
        self, player_id: int, scopes: Sequence[int], buckets: Sequence[str]
    ) -> list[StatRow]:
        """The summary lines of ``player_id`` in ``scopes`` and ``buckets``.

        Naming the buckets lets SQLite seek each line by primary key: a player seen on many
        servers (a computer level) has thousands of lines.
        """
        if not scopes or not buckets:
            return []
        scope_marks = ", ".join("?" for _ in scopes)
        bucket_marks = ", ".join("?" for _ in buckets)
        rows = await self._db.fetchall(
            f"SELECT {_STAT_COLUMNS} FROM record_stats s"
            f" LEFT JOIN record_players p ON p.player_id = s.player_id"
            f" WHERE s.scope IN ({scope_marks}) AND s.bucket IN ({bucket_marks})"
            " AND s.player_id = ?",
            (*scopes, *buckets, player_id),
        )
        return [_stat(r) for r in rows]

    async def against_computers(
        self, player_id: int, scopes: Sequence[int]
    ) -> list[tuple[int, str, int, int, int]]:
        """(scope, computer's recorded name, wins, losses, draws) of ``player_id`` against each
        computer level he met as an opponent, in ``scopes``."""
        if not scopes:
            return []
        marks = ", ".join("?" for _ in scopes)
        rows = await self._db.fetchall(
            "SELECT v.scope, p.name, v.wins, v.losses, v.draws FROM record_versus v"
            " JOIN record_players p ON p.player_id = v.computer_id"
            f" WHERE v.player_id = ? AND v.scope IN ({marks})",
            (player_id, *scopes),
        )
        return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def player_ratings(self, player_id: int) -> dict[str, tuple[float, float, int]]:
        """The player's (mu, sigma, rated matches) per family."""
        rows = await self._db.fetchall(
            "SELECT family, mu, sigma, matches FROM record_ratings WHERE player_id = ?",
            (player_id,),
        )
        return {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def player_name(self, player_id: int) -> tuple[str, str] | None:
        row = await self._db.fetchone(
            "SELECT name, kind FROM record_players WHERE player_id = ?", (player_id,)
        )
        return None if row is None else (str(row[0]), str(row[1]))

    async def rating_series(
        self, player_id: int, family: str, *, limit: int, guild_id: int | None = None
    ) -> list[tuple[float, float, float]]:
        """The last ``limit`` (time, mu, sigma) after each rated match of a family, oldest first.

        With ``guild_id``, only matches played on that server count.
        """
        if guild_id is None:
            rows = await self._db.fetchall(
                "SELECT finished_at, mu_after, sigma_after FROM record_entries"
                " WHERE player_id = ? AND family = ? AND rated = 1"
                " ORDER BY finished_at DESC LIMIT ?",
                (player_id, family, limit),
            )
        else:
            rows = await self._db.fetchall(
                "SELECT e.finished_at, e.mu_after, e.sigma_after FROM record_entries e"
                " JOIN record_matches m ON m.table_id = e.table_id"
                " WHERE e.player_id = ? AND e.family = ? AND e.rated = 1 AND m.guild_id = ?"
                " ORDER BY e.finished_at DESC LIMIT ?",
                (player_id, family, guild_id, limit),
            )
        return [(float(r[0]), float(r[1]), float(r[2])) for r in reversed(rows)]

    async def recent_entries(
        self,
        player_id: int,
        *,
        limit: int,
        offset: int = 0,
        guild_id: int | None = None,
        readable: Readable | None = None,
        veil: DailyVeil | None = None,
    ) -> list[EntryRow]:
        """The player's latest entries, newest first (optionally on one server only; with
        ``readable``, only matches played where that member can look; ``veil``: without the
        daily legs it hides)."""
        cols = ", ".join(f"e.{c.strip()}" for c in _ENTRY_COLUMNS.split(","))
        hidden, more = veil.where("e.table_id") if veil is not None else ("1 = 1", ())
        if readable is not None:
            # His entries newest first, each one's table looked up (its row names the
            # server): as a join, PostgreSQL's generic plan of the prepared statement read
            # every match of the server.
            where, params = readable.of_table("e.table_id")
            rows = await self._db.fetchall(
                f"SELECT {cols} FROM record_entries e"
                f" WHERE e.player_id = ? AND {where} AND {hidden}"
                " ORDER BY e.finished_at DESC, e.table_id DESC LIMIT ? OFFSET ?",
                (player_id, *params, *more, limit, offset),
            )
        elif guild_id is None:
            rows = await self._db.fetchall(
                f"SELECT {cols} FROM record_entries e WHERE e.player_id = ? AND {hidden}"
                " ORDER BY e.finished_at DESC, e.table_id DESC LIMIT ? OFFSET ?",
                (player_id, *more, limit, offset),
            )
        else:
            rows = await self._db.fetchall(
                f"SELECT {cols} FROM record_entries e"
                " JOIN record_matches m ON m.table_id = e.table_id"
                f" WHERE e.player_id = ? AND m.guild_id = ? AND {hidden}"
                " ORDER BY e.finished_at DESC, e.table_id DESC LIMIT ? OFFSET ?",
                (player_id, guild_id, *more, limit, offset),
            )
        return [_entry(r) for r in rows]

    async def entries_of(self, table_ids: Sequence[int]) -> list[EntryRow]:
        """Every participant of the given matches."""
        if not table_ids:
            return []
        marks = ", ".join("?" for _ in table_ids)
        rows = await self._db.fetchall(
            f"SELECT {_ENTRY_COLUMNS} FROM record_entries WHERE table_id IN ({marks})"
            " ORDER BY table_id, side, player_id",
            tuple(table_ids),
        )
        return [_entry(r) for r in rows]

    async def entries_left(
        self, table_ids: Sequence[int], scopes: Sequence[int]
    ) -> list[tuple[EntryRow, bool]]:
        """Every participant of the given matches, each with whether he left the boards of
        any of ``scopes`` (one read: the entries and their people's opt-outs)."""
        if not table_ids or not scopes:
            return [(e, False) for e in await self.entries_of(table_ids)]
        marks = ", ".join("?" for _ in table_ids)
        in_scopes = ", ".join("?" for _ in scopes)
        rows = await self._db.fetchall(
            f"SELECT {_ENTRY_COLUMNS}, EXISTS (SELECT 1 FROM record_privacy v"
            f" WHERE v.user_id = e.player_id AND v.scope IN ({in_scopes}))"
            f" FROM record_entries e WHERE e.table_id IN ({marks})"
            " ORDER BY e.table_id, e.side, e.player_id",
            (*scopes, *table_ids),
        )
        return [(_entry(list(r)[:-1]), bool(r[-1])) for r in rows]

    async def matches(self, table_ids: Sequence[int]) -> dict[int, MatchRecord]:
        """The recorded matches among ``table_ids`` (without their participants)."""
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)
        rows = await self._db.fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM record_matches WHERE table_id IN ({marks})",
            tuple(table_ids),
        )
        return {int(r[0]): _match(r) for r in rows}

    async def recent_matches(self, readable: Readable, *, limit: int) -> list[MatchRecord]:
        """The server's latest recorded matches played where ``readable`` can look, newest
        first."""
        where, params = readable.where("t")
        cols = ", ".join(f"m.{c.strip()}" for c in _MATCH_COLUMNS.split(","))
        # The server's matches newest first, each table looked up until enough are found (as
        # a join, SQLite read every table of the server first and sorted them).
        rows = await self._db.fetchall(
            f"SELECT {cols} FROM record_matches m WHERE m.guild_id = ? AND EXISTS"
            f" (SELECT 1 FROM tables t WHERE t.id = m.table_id AND {where})"
            " ORDER BY m.finished_at DESC, m.table_id DESC LIMIT ?",
            (readable.guild_id, *params, limit),
        )
        return [_match(r) for r in rows]

    # -- forgetting a person (every table of the database) ---------------------------------

    async def new_alias(self) -> int:
        """A player id for a forgotten person: below every real and computer id, unused."""
        row = await self._db.fetchone(
            "SELECT min(id) FROM (SELECT min(player_id) AS id FROM record_entries"
            " UNION ALL SELECT min(alias) FROM forget_requests) AS used"
        )
        lowest = 0 if row is None or row[0] is None else int(row[0])
        return min(lowest, FORMER_PLAYERS) - 1

    async def forget(self, user_id: int, alias: int) -> None:
        """Remove ``user_id``'s name and identifiers from every stored record.

        His recorded matches stay, under ``alias`` and no name, so that everyone else's history
        and ratings stay as they were; his own figures, ratings, choices, rematch votes and
        match reviews go.
        So do his name and id at finished or cancelled tables (his seats, hosting and
        invitations pass to ``alias``). Tables still open are left alone: their processes end
        his part in them (:class:`ForgetRepo`).
        """
        db = self._db
        await db.execute(
            "UPDATE record_entries SET player_id = ?, name = '' WHERE player_id = ?",
            (alias, user_id),
        )
        for table, column in (
            ("record_stats", "player_id"),
            ("record_versus", "player_id"),
            ("record_ratings", "player_id"),
            ("record_players", "player_id"),
            ("record_privacy", "user_id"),
            ("players", "user_id"),
            ("player_settings", "user_id"),
            ("rematch_votes", "user_id"),
            ("match_reviews", "user_id"),
        ):
            await db.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
        closed = "SELECT id FROM tables WHERE status IN ('finished', 'cancelled')"
        await db.execute(
            f"UPDATE seats SET user_id = ?, name = '' WHERE user_id = ? AND table_id IN ({closed})",
            (alias, user_id),
        )
        await db.execute(
            "UPDATE tables SET host_id = ? WHERE host_id = ?"
            " AND status IN ('finished', 'cancelled')",
            (alias, user_id),
        )
        await db.execute(
            f"UPDATE invitees SET user_id = ? WHERE user_id = ? AND table_id IN ({closed})",
            (alias, user_id),
        )

    # -- servers the bot left ------------------------------------------------------------

    async def guild_left(self, guild_id: int, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO departed_guilds (guild_id, left_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, now),
        )

    async def guild_back(self, guild_id: int) -> None:
        await self._db.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))

    async def known_guilds(self) -> set[int]:
        """Every server some per-server data belongs to."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT scope FROM record_stats WHERE scope <> 0"
            " UNION SELECT DISTINCT scope FROM record_privacy WHERE scope <> 0"
        )
        return {int(r[0]) for r in rows}

    async def departed_before(self, when: float) -> list[int]:
        """Servers the bot left before ``when``."""
        rows = await self._db.fetchall(
            "SELECT guild_id FROM departed_guilds WHERE left_at < ? ORDER BY guild_id", (when,)
        )
        return [int(r[0]) for r in rows]

    async def drop_guild(self, guild_id: int) -> None:
        """Drop a server's own data: its leaderboards' lines, the choices about them and its
        ``/domino server-settings``."""
        await self._db.execute("DELETE FROM record_stats WHERE scope = ?", (guild_id,))
        await self._db.execute("DELETE FROM record_versus WHERE scope = ?", (guild_id,))
        await self._db.execute("DELETE FROM record_privacy WHERE scope = ?", (guild_id,))
        await self._db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
        await self._db.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))

    async def unrecorded_finished(self, limit: int) -> list[int]:
        """Tables whose match finished with an outcome but is not recorded yet, oldest first."""
        rows = await self._db.fetchall(
            "SELECT m.table_id FROM matches m WHERE m.outcome IS NOT NULL"
            " AND m.finished_at IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM record_matches r WHERE r.table_id = m.table_id)"
            " ORDER BY m.finished_at, m.table_id LIMIT ?",
            (limit,),
        )
        return [int(r[0]) for r in rows]


# ------------------------------------------------------------- forgetting at open tables


@dataclass(frozen=True, slots=True)
class OpenTable:
    """An open table a person has a part in: he sits there, hosts it or is invited."""

    table_id: int
    guild_id: int | None
    status: str  # "lobby" | "running"
    seated: bool


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    """A forgotten person's open table, waiting for the process that runs it."""

    table_id: int
    guild_id: int | None
    user_key: str
    alias: int


class ForgetRepo:
    """The open tables of people who asked to be forgotten (table ``forget_requests``)."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def open_tables_of(self, user_id: int) -> list[OpenTable]:
        """Every open table of every process where ``user_id`` sits, hosts or is invited."""
        rows = await self._db.fetchall(
            "SELECT t.id, t.guild_id, t.status,"
            " EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = ?) AS seated"
            " FROM tables t WHERE t.status IN ('lobby', 'running') AND (t.host_id = ?"
            " OR EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = ?)"
            " OR EXISTS (SELECT 1 FROM invitees i WHERE i.table_id = t.id AND i.user_id = ?))"
            " ORDER BY t.id",
            (user_id, user_id, user_id, user_id),
        )
        return [
            OpenTable(int(r[0]), None if r[1] is None else int(r[1]), str(r[2]), bool(r[3]))
            for r in rows
        ]

    async def add(self, table_ids: Iterable[int], user_key: str, alias: int, *, now: float) -> None:
        for table_id in table_ids:
            await self._db.execute(
                "INSERT INTO forget_requests (table_id, user_key, alias, requested_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_key) DO NOTHING",
                (table_id, user_key, alias, now),
            )

    async def pending(self, limit: int = 100) -> list[ForgetRequest]:
        """The oldest requests not done yet, with their tables' servers."""
        rows = await self._db.fetchall(
            "SELECT f.table_id, t.guild_id, f.user_key, f.alias FROM forget_requests f"
            " JOIN tables t ON t.id = f.table_id ORDER BY f.requested_at, f.table_id LIMIT ?",
            (limit,),
        )
        return [
            ForgetRequest(int(r[0]), None if r[1] is None else int(r[1]), str(r[2]), int(r[3]))
            for r in rows
        ]

    async def aliases(self, table_id: int) -> dict[str, int]:
        """``user_key`` → alias of the forgotten people of one table."""
        rows = await self._db.fetchall(
            "SELECT user_key, alias FROM forget_requests WHERE table_id = ?", (table_id,)
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def waiting(self, user_key: str) -> int:
        """How many of one person's requests are not done yet."""
        value = await self._db.fetchval(
            "SELECT count(*) FROM forget_requests WHERE user_key = ?", (user_key,)
        )
        return int(value or 0)

    async def done(self, request: ForgetRequest, user_id: int | None) -> None:
        """His part in the table ended: he leaves it (his seats, hosting and invitation pass
        to the alias) and the request goes."""
        table_id = request.table_id
        if user_id is not None:
            for statement in (
                "UPDATE seats SET user_id = ?, name = '' WHERE table_id = ? AND user_id = ?",
                "UPDATE tables SET host_id = ? WHERE id = ? AND host_id = ?",
                "UPDATE invitees SET user_id = ? WHERE table_id = ? AND user_id = ?",
            ):
                await self._db.execute(statement, (request.alias, table_id, user_id))
        await self._db.execute(
            "DELETE FROM forget_requests WHERE table_id = ? AND user_key = ?",
            (table_id, request.user_key),
        )
