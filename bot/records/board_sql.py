"""The one SQL of ranked boards kept as lines (a week's, a month's and a season's boards).

A :class:`RankedBoard` names a table of lines, the columns that choose one board (a period or
season, a scope, a bucket or family) and the figures it ranks by, best (highest) first; ties go
to the lower player id. Lines whose person left the scope's boards carry ``hidden = 1``, and
the board's index starts with the board's columns and ``hidden``, so a page, the board's size
and the count of people ahead of a line are each one range of that index.
:func:`ranked_page` reads one page with places (people equal on every figure share a place)
and the viewer's own line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.records.periods import places
from bot.records.record import GLOBAL
from bot.store.connection import Db, Row

__all__ = [
    "DEFAULT_BOARD_MINIMUM",
    "MAX_BOARD_MINIMUM",
    "PROVISIONAL_SIGMA",
    "SIZES_KEPT",
    "RankedBoard",
    "RankedPage",
    "board_minimum",
    "hidden_value",
    "ranked_page",
]

#: Matches a person plays in a scope and bucket (or family) before its rating boards list him
#: (a server's setting, ``/domino server-settings board_minimum``; the global boards use the
#: default): a rating after one lucky match says little, as Lichess ranks nobody before he has
#: played a number of rated games.
DEFAULT_BOARD_MINIMUM = 5
MAX_BOARD_MINIMUM = 50
#: Our decision: a rating is provisional (marked "?") while its sigma, openskill's uncertainty,
#: is above this (a newcomer's is 25/3 ≈ 8.3; about ten two-player matches, or twenty of
#: partners, bring it below; weeks without a match raise it again).
PROVISIONAL_SIGMA = 6.5
#: The most matches a board's kept length counts apart (:attr:`RankedBoard.sized`): a line of
#: more counts as this many.
SIZES_KEPT = 50


async def board_minimum(db: Db, scope: int) -> int:
    """The minimum of matches of the scope's rating boards (a server's own, else the
    default)."""
    if scope <= 0:
        return DEFAULT_BOARD_MINIMUM
    value = await db.fetchval(
        "SELECT board_minimum FROM guild_settings WHERE guild_id = ?", (scope,)
    )
    return DEFAULT_BOARD_MINIMUM if value is None else int(value)


class _Placed(Protocol):
    player_id: int
    place: int


L = TypeVar("L", bound=_Placed)


def hidden_value(player_marks: str = "?", scope_marks: str = "?") -> str:
    """An SQL expression: 1 if the person (parameter ``player_marks``) left the boards of the
    scope (``scope_marks``), else 0; for the ``hidden`` column of a new line."""
    return (
        "(SELECT count(*) FROM record_privacy v"
        f" WHERE v.user_id = {player_marks} AND v.scope = {scope_marks})"
    )


@dataclass(frozen=True, slots=True)
class RankedBoard:
    """A table of board lines and how its boards rank them."""

    table: str
    board: tuple[str, ...]  # the columns choosing one board (equal to the key's values)
    rank: tuple[str, ...]  # the figures ranked by, highest first, in order
    columns: str  # the selected line: columns of ``r`` (the line) and ``p`` (record_players)
    counted: str | None = None  # the line's matches, for a board's minimum (in its index)
    #: a table the database keeps of each board's listed lines (the board's columns, and
    #: ``lines``; for a board with a minimum, per number of matches, ``matches``, up to
    #: :data:`SIZES_KEPT` standing for as many or more): a board's length is a few of its
    #: rows, not a count of its lines
    sized: str | None = None

    def _where(self, alias: str, least: int = 1) -> str:
        where = " AND ".join(f"{alias}.{c} = ?" for c in self.board) + f" AND {alias}.hidden = 0"
        if self.counted and least > 1:
            where += f" AND {alias}.{self.counted} >= {int(least)}"
        return where

    def _order(self, alias: str) -> str:
        return ", ".join([*(f"{alias}.{c} DESC" for c in self.rank), f"{alias}.player_id"])

    async def page(
        self, db: Db, key: Sequence[Any], *, limit: int, offset: int = 0, least: int = 1
    ) -> list[Row]:
        """One page of the listed lines, best first. The page's player ids come from the
        board's index alone (skipping is cheap), then their lines and names."""
        join = " AND ".join(f"r.{c} = ?" for c in self.board)
        return await db.fetchall(
            f"SELECT {self.columns} FROM (SELECT k.player_id FROM {self.table} k"
            f" WHERE {self._where('k', least)} ORDER BY {self._order('k')} LIMIT ? OFFSET ?)"
            " AS page"
            f" JOIN {self.table} r ON {join} AND r.player_id = page.player_id"
            " LEFT JOIN record_players p ON p.player_id = r.player_id"
            f" ORDER BY {self._order('r')}",
            (*key, limit, offset, *key),
        )

    def _size(self, key: Sequence[Any], least: int) -> tuple[str, tuple[Any, ...]]:
        """The statement counting the people the board lists, and its parameters."""
        if self.sized and least <= SIZES_KEPT:
            board = " AND ".join(f"{c} = ?" for c in self.board)
            least_matches = " AND matches >= ?" if self.counted and least > 1 else ""
            return (
                f"SELECT coalesce(sum(lines), 0) FROM {self.sized} WHERE {board}{least_matches}",
                (*key, least) if least_matches else tuple(key),
            )
        return f"SELECT count(*) FROM {self.table} r WHERE {self._where('r', least)}", tuple(key)

    async def size(self, db: Db, key: Sequence[Any], *, least: int = 1) -> int:
        """How many people the board lists."""
        value = await db.fetchval(*self._size(key, least))
        return int(value or 0)

    async def counted_page(
        self, db: Db, key: Sequence[Any], *, limit: int, offset: int, least: int = 1,
        left_of: int | None = None, flag: tuple[str, Sequence[Any]] | None = None,
    ) -> tuple[int, int, list[tuple[Row, bool, bool]]]:
        """The board's length, how many listed people rank strictly above the page's first
        line, and the page's lines, each with whether its person left the global boards or
        those of scope ``left_of`` (None: not asked) and whether ``flag`` (a condition on
        ``page.player_id``, and its parameters) holds for him: one statement."""
        size, size_params = self._size(key, least)
        ahead_of = self._ahead(least, lambda c: f"(SELECT f.{c} FROM first f)")
        left, left_params = "0", ()
        if left_of is not None:
            left = (
                "CASE WHEN EXISTS (SELECT 1 FROM record_privacy v"
                " WHERE v.user_id = page.player_id AND v.scope IN (?, ?)) THEN 1 ELSE 0 END"
            )
            left_params = (GLOBAL, left_of)
        flagged, flag_params = ("0", ()) if flag is None else (
            f"CASE WHEN {flag[0]} THEN 1 ELSE 0 END", tuple(flag[1])
        )
        join = " AND ".join(f"r.{c} = ?" for c in self.board)
        rank = ", ".join(f"k.{c}" for c in self.rank)
        rows = await db.fetchall(
            f"WITH page AS (SELECT k.player_id, {rank} FROM {self.table} k"
            f" WHERE {self._where('k', least)} ORDER BY {self._order('k')} LIMIT ? OFFSET ?),"
            f" first AS (SELECT * FROM page ORDER BY {self._order('page')} LIMIT 1)"
            f" SELECT ({size}), {ahead_of}, page.player_id, {left},"
            f" {flagged},"
            f" {self.columns} FROM (SELECT 1 AS one) AS t LEFT JOIN page ON 1 = 1"
            f" LEFT JOIN {self.table} r ON {join} AND r.player_id = page.player_id"
            " LEFT JOIN record_players p ON p.player_id = r.player_id"
            f" ORDER BY {self._order('r')}",
            (
                *key, limit, offset, *size_params,
                *(v for i in range(len(self.rank)) for v in key), *left_params, *flag_params,
                *key,
            ),
        )
        total, ahead = int(rows[0][0] or 0), int(rows[0][1] or 0)
        return total, ahead, [(r[5:], bool(r[3]), bool(r[4])) for r in rows if r[2] is not None]

    async def ahead(
        self, db: Db, key: Sequence[Any], figures: Sequence[Any], *, least: int = 1
    ) -> int:
        """How many listed people rank strictly above ``figures`` (one value per rank
        column). One index range per count: an OR in one count would scan more."""
        params: list[Any] = []
        for i in range(len(self.rank)):
            params += [*key, *figures[:i], figures[i]]
        value = await db.fetchval("SELECT " + self._ahead(least, lambda _: "?"), params)
        return int(value or 0)

    def _ahead(self, least: int, figure: Callable[[str], str]) -> str:
        """An SQL expression: how many listed people rank strictly above the figures that
        ``figure`` gives of each rank column (parameters: the key's, per rank column)."""
        counts: list[str] = []
        for i, column in enumerate(self.rank):
            equal = "".join(f" AND a.{c} = {figure(c)}" for c in self.rank[:i])
            counts.append(
                f"(SELECT count(*) FROM {self.table} a WHERE {self._where('a', least)}{equal}"
                f" AND a.{column} > {figure(column)})"
            )
        return " + ".join(counts)

    async def line(
        self, db: Db, key: Sequence[Any], player_id: int, *, least: int = 1
    ) -> Row | None:
        """The person's line, if the board lists him."""
        return await db.fetchone(
            f"SELECT {self.columns} FROM {self.table} r"
            " LEFT JOIN record_players p ON p.player_id = r.player_id"
            f" WHERE {self._where('r', least)} AND r.player_id = ?",
            (*key, player_id),
        )


@dataclass(frozen=True, slots=True)
class RankedPage(Generic[L]):
    """One page of a board: the page (clamped), how many there are, the people listed, the
    page's lines with their places and the viewer's line (None: not listed)."""

    page: int
    pages: int
    total: int
    rows: tuple[L, ...]
    viewer: L | None
    left: frozenset[int] = frozenset()  # those who left the boards (asked with ``left_of``)
    flagged: frozenset[int] = frozenset()  # those for whom ``flag`` holds


async def ranked_page(
    db: Db,
    board: RankedBoard,
    key: Sequence[Any],
    *,
    read: Callable[[Row], L],
    figures: Callable[[L], tuple[Any, ...]],
    page: int,
    per_page: int,
    viewer_id: int | None = None,
    least: int = 1,
    left_of: int | None = None,
    flag: tuple[str, Sequence[Any]] | None = None,
) -> RankedPage[L]:
    """A page of ``board`` (``key``: its board columns' values) with places; ``read`` makes a
    line of a row, ``figures`` gives a line's rank figures; ``least``: the fewest matches a
    listed line has (a rating board's minimum); ``left_of``: a scope whose boards (or the
    global ones) the page's people may have left, read with the page; ``flag``: a condition
    on ``page.player_id`` read with it. One statement (two past the end), and two more for a
    viewer not on the page."""
    page = max(page, 0)
    total, ahead, found = await board.counted_page(
        db, key, limit=per_page, offset=page * per_page, least=least, left_of=left_of,
        flag=flag,
    )
    pages = max(1, math.ceil(total / per_page))
    if page > pages - 1:  # past the end: the last page
        page = pages - 1
        total, ahead, found = await board.counted_page(
            db, key, limit=per_page, offset=page * per_page, least=least, left_of=left_of,
            flag=flag,
        )
        pages = max(1, math.ceil(total / per_page))
    lines = [read(r) for r, _, _ in found]
    people = [int(x.player_id) for x in lines]
    left = frozenset(p for p, (_, gone, _) in zip(people, found, strict=True) if gone)
    flagged = frozenset(p for p, (_, _, on) in zip(people, found, strict=True) if on)
    if lines:
        numbers = places([figures(x) for x in lines], 1 + ahead, page * per_page)
        for n, x in zip(numbers, lines, strict=True):
            _place(x, n)
    viewer = None
    if viewer_id is not None:
        viewer = next((r for r in lines if r.player_id == viewer_id), None)
        found = None if viewer is not None else await board.line(db, key, viewer_id, least=least)
        if found is not None:
            mine = read(found)
            ahead = await board.ahead(db, key, figures(mine), least=least)
            viewer = _place(mine, 1 + ahead)
    return RankedPage(page, pages, total, tuple(lines), viewer, left, flagged)


def _place(line: L, place: int) -> L:
    """``line``, just read (nobody else holds it yet), given its place: set as a frozen
    dataclass sets its own fields, rather than made again (``dataclasses.replace``: some 5 µs
    a line, 25 a page)."""
    object.__setattr__(line, "place", place)
    return line
