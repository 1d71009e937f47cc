"""SQL of seasons and winner roles (``migrations/*/0810_seasons.sql``).

:class:`SeasonRepo` wraps a statement runner (``store.db`` or a transaction's ``tx.db``): each
season's ratings per family (``season_ratings``), the season boards' lines per scope
(``season_lines``), the final places of seasons that ended (``season_finals``), and each
server's winner roles with who holds them (``winner_roles``,
``winner_holders``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.records.board_sql import RankedBoard, hidden_value
from bot.store.connection import Db

__all__ = ["BOARD", "SeasonLine", "SeasonRepo", "WinnerRole", "read_line"]


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """A person's line on a season's board of one family, in one scope."""

    season: str
    scope: int
    family: str
    player_id: int
    name: str
    matches: int
    wins: int
    losses: int
    draws: int
    rating: float  # the season rating's ordinal (mu - 3 sigma)
    place: int = 0


@dataclass(frozen=True, slots=True)
class WinnerRole:
    """A server's role for the winners of a kind (``season`` or ``tournament``)."""

    guild_id: int
    kind: str
    role_id: int
    problem: str  # the last reason it could not be given ("" if none)
    set_by: int = 0  # who chose it (0: forgotten)


BOARD = RankedBoard(
    table="season_lines",
    board=("season", "scope", "family"),
    rank=("rating",),
    columns=(
        "r.season, r.scope, r.family, r.player_id, coalesce(p.name, ''), r.matches, r.wins,"
        " r.losses, r.draws, r.rating"
    ),
    counted="matches",
    sized="season_board_sizes",
)
#: A season's board by wins (then by the season's rating), for the web pages' order menu.
WINS_BOARD = RankedBoard(
    table=BOARD.table, board=BOARD.board, rank=("wins", "rating"), columns=BOARD.columns,
    sized=BOARD.sized,
)


def read_line(row: Any) -> SeasonLine:
    """A line of a row of :data:`BOARD`'s columns."""
    return SeasonLine(
        str(row[0]), int(row[1]), str(row[2]), int(row[3]), str(row[4]),
        *(int(v) for v in row[5:9]), float(row[9]),
    )


class SeasonRepo:
    """Reads and writes seasons' rows through one statement runner."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- ratings (inside the transaction that records a match) ------------------------------

    async def ratings(
        self, season: str, family: str, player_ids: Iterable[int]
    ) -> dict[int, tuple[float, float]]:
        """The season's (mu, sigma) of the players who have one in ``family``."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            "SELECT player_id, mu, sigma FROM season_ratings WHERE season = ? AND family = ?"
            f" AND player_id IN ({marks})",
            (season, family, *ids),
        )
        return {int(r[0]): (float(r[1]), float(r[2])) for r in rows}

    async def put_rating(
        self, season: str, family: str, player_id: int, mu: float, sigma: float, *, now: float
    ) -> None:
        await self._db.execute(
            "INSERT INTO season_ratings (season, family, player_id, mu, sigma, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season, family, player_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, updated_at = excluded.updated_at",
            (season, family, player_id, mu, sigma, now),
        )

    async def add_line(
        self,
        season: str,
        family: str,
        player_id: int,
        scopes: Sequence[int],
        *,
        result: str,
        rating: float,
        at: float,
    ) -> None:
        """Count one match in the person's lines of ``scopes``; his rating on all his lines (a
        new line is hidden if he left the scope's boards)."""
        figures = (int(result == "win"), int(result == "loss"), int(result == "draw"))
        values = ", ".join(f"(?, ?, ?, ?, 1, ?, ?, ?, ?, ?, {hidden_value()})" for _ in scopes)
        params: list[Any] = []
        for scope in scopes:
            params += [season, scope, family, player_id, *figures, rating, at, player_id, scope]
        await self._db.execute(
            "INSERT INTO season_lines AS r (season, scope, family, player_id, matches, wins,"
            f" losses, draws, rating, last_at, hidden) VALUES {values}"
            " ON CONFLICT (season, scope, family, player_id) DO UPDATE SET"
            " matches = r.matches + 1, wins = r.wins + excluded.wins,"
            " losses = r.losses + excluded.losses, draws = r.draws + excluded.draws,"
            " last_at = greatest(r.last_at, excluded.last_at)",
            params,
        )
        await self._db.execute(
            "UPDATE season_lines SET rating = ? WHERE season = ? AND family = ? AND player_id = ?",
            (rating, season, family, player_id),
        )

    # -- boards -------------------------------------------------------------------------------

    async def board(
        self, season: str, scope: int, family: str, *, limit: int, offset: int = 0
    ) -> list[SeasonLine]:
        """One page of a season's board, best season rating first."""
        rows = await BOARD.page(self._db, (season, scope, family), limit=limit, offset=offset)
        return [read_line(r) for r in rows]

    async def size(self, season: str, scope: int, family: str) -> int:
        return await BOARD.size(self._db, (season, scope, family))

    async def ahead(self, season: str, scope: int, family: str, rating: float) -> int:
        """How many listed people have a better season rating than ``rating``."""
        return await BOARD.ahead(self._db, (season, scope, family), (rating,))

    async def lines_of(self, player_id: int, scope: int) -> list[SeasonLine]:
        """The person's lines of every season and family in ``scope``, if listed there."""
        rows = await self._db.fetchall(
            f"SELECT {BOARD.columns} FROM season_lines r"
            " LEFT JOIN record_players p ON p.player_id = r.player_id"
            " WHERE r.player_id = ? AND r.scope = ? AND r.hidden = 0"
            " ORDER BY r.season, r.family",
            (player_id, scope),
        )
        return [read_line(r) for r in rows]

    async def families(self, season: str, scope: int) -> list[str]:
        """The families a season's board of ``scope`` has anyone on."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT family FROM season_lines WHERE season = ? AND scope = ?"
            " ORDER BY family",
            (season, scope),
        )
        return [str(r[0]) for r in rows]

    # -- the final places of seasons that ended ----------------------------------------------

    async def finals_done(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which of the (season, family) boards are ranked into the finals already."""
        wanted = sorted(set(keys))
        if not wanted:
            return set()
        marks = " OR ".join("(season = ? AND family = ?)" for _ in wanted)
        rows = await self._db.fetchall(
            f"SELECT season, family FROM season_finals_done WHERE {marks}",
            [v for k in wanted for v in k],
        )
        return {(str(r[0]), str(r[1])) for r in rows}

    async def rank_finals(self, season: str, family: str) -> None:
        """Keep the final places of a season's global board of ``family`` (once)."""
        done = await self._db.execute(
            "INSERT INTO season_finals_done (season, family) VALUES (?, ?)"
            " ON CONFLICT DO NOTHING",
            (season, family),
        )
        if not done:
            return
        await self._db.execute(
            "INSERT INTO season_finals (season, family, player_id, place, total, rating)"
            " SELECT r.season, r.family, r.player_id, rank() OVER (ORDER BY r.rating DESC),"
            " count(*) OVER (), r.rating FROM season_lines r"
            " WHERE r.season = ? AND r.scope = 0 AND r.family = ? AND r.hidden = 0",
            (season, family),
        )

    async def best_final(self, player_id: int) -> tuple[str, str, int, int, float] | None:
        """The person's best final place: (season, family, place, total, rating); ties go to
        the latest season."""
        row = await self._db.fetchone(
            "SELECT season, family, place, total, rating FROM season_finals"
            " WHERE player_id = ? ORDER BY place, season DESC, family LIMIT 1",
            (player_id,),
        )
        if row is None:
            return None
        return str(row[0]), str(row[1]), int(row[2]), int(row[3]), float(row[4])

    # -- forgetting, servers the bot left -----------------------------------------------------

    async def forget(self, user_id: int) -> None:
        for table, column in (
            ("season_ratings", "player_id"),
            ("season_lines", "player_id"),
            ("season_finals", "player_id"),
            ("winner_holders", "user_id"),
        ):
            await self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
        await self._db.execute(  # the role stays the server's; who chose it is forgotten
            "UPDATE winner_roles SET set_by = 0 WHERE set_by = ?", (user_id,)
        )

    async def drop_guild(self, guild_id: int) -> None:
        for table, column in (
            ("season_lines", "scope"),
            ("winner_roles", "guild_id"),
            ("winner_holders", "guild_id"),
        ):
            await self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (guild_id,))

    # -- winner roles -------------------------------------------------------------------------

    async def winner_role(self, guild_id: int, kind: str) -> WinnerRole | None:
        row = await self._db.fetchone(
            "SELECT guild_id, kind, role_id, problem, set_by FROM winner_roles"
            " WHERE guild_id = ? AND kind = ?",
            (guild_id, kind),
        )
        if row is None:
            return None
        return WinnerRole(int(row[0]), str(row[1]), int(row[2]), row[3], int(row[4]))

    async def set_winner_role(
        self, guild_id: int, kind: str, role_id: int | None, *, by: int, now: float
    ) -> None:
        """Choose the role (None: no role); a new role has no problem noted yet."""
        if role_id is None:
            await self._db.execute(
                "DELETE FROM winner_roles WHERE guild_id = ? AND kind = ?", (guild_id, kind)
            )
            return
        await self._db.execute(
            "INSERT INTO winner_roles (guild_id, kind, role_id, problem, set_by, set_at)"
            " VALUES (?, ?, ?, '', ?, ?) ON CONFLICT (guild_id, kind) DO UPDATE SET"
            " role_id = excluded.role_id, problem = '', set_by = excluded.set_by,"
            " set_at = excluded.set_at",
            (guild_id, kind, role_id, by, now),
        )

    async def note_problem(self, guild_id: int, kind: str, problem: str) -> bool:
        """Note why the role could not be given; True if that is news (not noted already)."""
        changed = await self._db.execute(
            "UPDATE winner_roles SET problem = ? WHERE guild_id = ? AND kind = ?"
            " AND problem <> ?",
            (problem, guild_id, kind, problem),
        )
        return bool(changed)

    async def holders(self, guild_id: int, kind: str) -> set[int]:
        rows = await self._db.fetchall(
            "SELECT user_id FROM winner_holders WHERE guild_id = ? AND kind = ?",
            (guild_id, kind),
        )
        return {int(r[0]) for r in rows}

    async def set_holders(
        self, guild_id: int, kind: str, user_ids: Iterable[int], *, now: float
    ) -> None:
        await self._db.execute(
            "DELETE FROM winner_holders WHERE guild_id = ? AND kind = ?", (guild_id, kind)
        )
        await self._db.executemany(
            "INSERT INTO winner_holders (guild_id, kind, user_id, given_at) VALUES (?, ?, ?, ?)",
            [(guild_id, kind, u, now) for u in sorted(set(user_ids))],
        )
