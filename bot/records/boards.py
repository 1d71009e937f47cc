"""Periodic leaderboards (this week, this month) and their weekly, monthly and season posts.

:class:`PeriodBoards` answers a period's board (:meth:`PeriodBoards.board`, also for the web
pages) and keeps each server's board channel: the deadline of its next post (every Monday
00:00 UTC and every 1st of a month; stored, run by the clock of the process that runs the
server's shard) and which past boards were posted; a season's end (always a month's end) is
announced by the same deadline (:data:`~bot.records.seasons.SEASON` periods). A board ranks
people by wins over the period's matches, then by points difference (points for minus
against); people equal on both share a place. Computers, former players and people who left
the scope's boards are not listed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.records.board_sql import ranked_page
from bot.records.periods import (
    PERIOD_KINDS,
    Period,
    next_boundary,
    period_of,
)
from bot.records.periods_store import BOARD, BoardChannel, PeriodLine, PeriodRepo, read_line
from bot.records.record import ALL, BUCKETS
from bot.records.seasons import SeasonCalendar
from bot.store import Store

__all__ = ["BOARD_KIND", "PeriodBoard", "PeriodBoards", "PeriodRow", "post_nonce"]

BOARD_KIND = "board"  # the clock's deadline kind of a server's next board post (key: -guild)
PER_PAGE = 10
PeriodRow = PeriodLine  # a line of a board: the figures and the place


@dataclass(frozen=True, slots=True)
class PeriodBoard:
    """One page of a period's board."""

    scope: int
    bucket: str
    period: Period
    page: int
    pages: int
    total: int
    rows: tuple[PeriodRow, ...]
    viewer: PeriodRow | None = None
    left: frozenset[int] = frozenset()  # those who left the boards (asked with ``marks``)

    @property
    def tied(self) -> bool:
        """Whether two rows of the page share a place."""
        return len({r.place for r in self.rows}) < len(self.rows)


def post_nonce(guild_id: int, period: Period) -> str:
    """The nonce of a server's post of a past board (Discord keeps one message per nonce)."""
    return f"b.{guild_id}.{period.key}"


class PeriodBoards:
    """Period boards and the board channels of servers."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seasons: SeasonCalendar | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seasons = seasons or SeasonCalendar()

    @property
    def repo(self) -> PeriodRepo:
        return PeriodRepo(self.store.db)

    async def board(
        self,
        *,
        scope: int,
        period: str | Period,
        bucket: str = ALL,
        page: int = 0,
        per_page: int = PER_PAGE,
        viewer_id: int | None = None,
        now: float | None = None,
        marks: bool = False,
    ) -> PeriodBoard:
        """A page of a period's board: ``period`` is ``"week"`` or ``"month"`` (the one
        running at ``now``) or a :class:`Period`; ``marks``: read who of the page left this
        scope's or the global boards with it. Raises ValueError for an unknown one."""
        if bucket not in BUCKETS:
            raise ValueError(f"unknown variant or family {bucket!r}")
        if isinstance(period, str):
            if period not in PERIOD_KINDS:
                raise ValueError(f"unknown period {period!r}")
            period = period_of(period, self.clock() if now is None else now)
        found = await ranked_page(
            self.store.db,
            BOARD,
            (period.key, scope, bucket),
            read=read_line,
            figures=lambda x: (x.wins, x.diff),
            page=page,
            per_page=per_page,
            viewer_id=viewer_id,
            left_of=scope if marks else None,
        )
        return PeriodBoard(
            scope, bucket, period, found.page, found.pages, found.total, found.rows, found.viewer,
            found.left,
        )

    # -- a server's board channel -------------------------------------------------------

    async def channel(self, guild_id: int) -> BoardChannel | None:
        return await self.repo.channel(guild_id)

    async def set_channel(self, guild_id: int, channel_id: int, *, by: int) -> BoardChannel:
        """Post the server's past boards in ``channel_id`` from the next Monday or 1st on."""
        now = self.clock()
        async with self.store.transaction() as tx:
            repo = PeriodRepo(tx.db)
            await repo.set_channel(guild_id, channel_id, due_at=next_boundary(now), by=by, now=now)
            found = await repo.channel(guild_id)
        assert found is not None
        return found

    async def clear_channel(self, guild_id: int) -> None:
        async with self.store.transaction() as tx:
            await PeriodRepo(tx.db).clear_channel(guild_id)

    async def channels(self) -> list[BoardChannel]:
        return await self.repo.channels()

    async def owed(self, guild_id: int, due_at: float) -> list[Period]:
        """The past periods a post due at ``due_at`` shows that are not posted yet: the last
        week, month and season that ended, if they ended at ``due_at`` or later (after days
        without a running process, only the latest). A season ends at a month's end."""
        now, repo = self.clock(), self.repo
        ended = [period_of(kind, now).previous() for kind in PERIOD_KINDS]
        ended.append(self.seasons.previous(self.seasons.season_of(now)))
        return [p for p in ended if p.end >= due_at and not await repo.posted(guild_id, p.key)]

    async def post_failed(self, guild_id: int) -> bool:
        """Whether the server's latest board could not be posted in its channel."""
        last = await self.repo.last_post(guild_id)
        chosen = await self.repo.channel(guild_id)
        return (
            last is not None
            and chosen is not None
            and last[1] == chosen.channel_id
            and last[2] is None
        )

    async def mark_posted(
        self, guild_id: int, period: Period, channel_id: int, message_id: int | None
    ) -> None:
        async with self.store.transaction() as tx:
            await PeriodRepo(tx.db).mark_posted(
                guild_id, period.key, channel_id, message_id, now=self.clock()
            )

    async def reschedule(self, guild_id: int, after: float) -> float:
        """Move the server's next post to the first week or month start after ``after`` (a
        post missed while no process ran is not made up later)."""
        due = next_boundary(max(after, self.clock()))
        async with self.store.transaction() as tx:
            await PeriodRepo(tx.db).set_due(guild_id, due)
        return due
