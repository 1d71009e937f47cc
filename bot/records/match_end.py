"""After a match: each person's rating change, the rematch offer and the table's wrap-up.

The rematch is offered when the match end is published; it starts (same seats, same options,
in the same place) once every person of the table accepted. The offer closes at a stored
deadline of the clock (kind ``archive``), when the table's thread is archived too; nothing
sleeps on a table's behalf, and a restart reloads the pending deadlines.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.errors import LimitReached, NotSeated, ServiceError, TableFinished, WrongStatus
from bot.records.rating import display_rating
from bot.records.store import RecordsRepo
from bot.store import DeadlineRow
from bot.store.table_extras import RematchRepo, RematchRow
from bot.tables.service import TableInfo, TableService

__all__ = [
    "ARCHIVE_AFTER",
    "ARCHIVE_KIND",
    "MatchEnd",
    "RatingChange",
    "RematchLimit",
    "RematchVote",
]

log = logging.getLogger(__name__)

ARCHIVE_KIND = "archive"
ARCHIVE_AFTER = 5 * 60.0  # the rematch offer stays open, and the thread unarchived, this long
RECORD_WAIT = 5.0  # how long the match end waits for the records to rate the match


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A person's rating in the match's family, before and after it (display points); in a
    match of more than two sides, his side's ``place`` among the ``sides`` (equal places
    shared), which the change follows (None in a match of two sides)."""

    user_id: int
    before: int
    after: int
    place: int | None = None
    sides: int = 2

    @property
    def delta(self) -> int:
        return self.after - self.before


class RematchLimit(Exception):
    """A limit of one person of the table (the host opens the rematch, everyone sits down)
    keeps the rematch from starting; ``error`` says it to that person."""

    def __init__(self, error: LimitReached, user_id: int) -> None:
        super().__init__(str(error))
        self.error = error
        self.user_id = user_id


@dataclass(frozen=True, slots=True)
class RematchVote:
    """What one acceptance did."""

    offer: RematchRow
    waiting: tuple[int, ...]  # people who have not accepted yet
    started: TableInfo | None  # the new table, when this acceptance was the last


def humans(info: TableInfo) -> tuple[int, ...]:
    """The people of a table (a seat a computer took over still belongs to its person)."""
    return tuple(dict.fromkeys(s.user_id for s in info.seats if s is not None and s.user_id))


class MatchEnd:
    """Rating changes, rematch offers and the wrap-up deadline of finished tables."""

    def __init__(self, service: TableService, *, archive_after: float = ARCHIVE_AFTER) -> None:
        self.service = service
        self.archive_after = archive_after
        self._locks: dict[int, asyncio.Lock] = {}

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.service.store

    # -- ratings -----------------------------------------------------------------------------

    async def rating_changes(
        self, table_id: int, *, wait: float = RECORD_WAIT
    ) -> list[RatingChange]:
        """The rated people's changes, once the records have the match (empty if they do not
        within ``wait`` seconds: the records are not running)."""
        repo = RecordsRepo(self.store.db)
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        while not await repo.is_recorded(table_id):
            if loop.time() >= until:
                return []
            await asyncio.sleep(0.05)
        out = []
        entries = await repo.entries_of([table_id])
        sides = len({e.side for e in entries})
        for e in entries:
            if e.kind != "human" or not e.rated or e.player_id <= 0:
                continue
            out.append(
                RatingChange(
                    e.player_id,
                    display_rating(e.mu_before, e.sigma_before),
                    display_rating(e.mu_after, e.sigma_after),
                    e.rank if sides > 2 else None,
                    sides,
                )
            )
        return out

    # -- the offer ---------------------------------------------------------------------------

    async def offer(self, info: TableInfo, message_id: int | None) -> None:
        """The match end is published (on ``message_id``): open the offer, set the wrap-up."""
        due = self.service.clock() + self.archive_after
        deadline = DeadlineRow(info.id, ARCHIVE_KIND, due, info.seq)
        async with self.store.transaction() as tx:
            repo = RematchRepo(tx.db)
            if (await repo.get(info.id)) is not None:
                await repo.offer(info.id, message_id)
                return
            await repo.offer(info.id, message_id)
            await tx.deadlines.set(deadline)
        self.service.scheduler.set(deadline)

    async def get(self, table_id: int) -> RematchRow | None:
        return await RematchRepo(self.store.db).get(table_id)

    async def accept(
        self,
        table_id: int,
        user_id: int,
        start: Callable[[TableInfo], Awaitable[TableInfo]],
    ) -> RematchVote:
        """``user_id`` accepts the rematch of ``table_id``; the last acceptance calls
        ``start(old table)`` (which opens and starts the new one) and closes the offer. If
        ``start`` raises, the offer stays open with everyone's acceptance: a click retries."""
        old = await self.service.get(table_id)
        if old.status != "finished":
            raise WrongStatus("The match is not over yet.")
        people = humans(old)
        if user_id not in people:
            raise NotSeated("Only the players of this match can ask for a rematch.")
        if any(u < 0 for u in people):  # someone of the table asked to be forgotten since
            raise TableFinished("The rematch offer has closed.")
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            repo = RematchRepo(self.store.db)
            offer = await repo.get(table_id)
            if offer is None or offer.closed:
                raise TableFinished("The rematch offer has closed.")
            await repo.accept(table_id, user_id)
            offer = await repo.get(table_id)
            assert offer is not None
            waiting = tuple(u for u in people if u not in offer.accepted)
            if waiting:
                return RematchVote(offer, waiting, None)
            started = await start(old)
            async with self.store.transaction() as tx:
                await RematchRepo(tx.db).close(table_id, started.id)
                await tx.deadlines.clear(table_id, [ARCHIVE_KIND])
            self.service.scheduler.clear(table_id, [ARCHIVE_KIND])
        self._locks.pop(table_id, None)
        return RematchVote(offer, (), started)

    async def close(self, table_id: int) -> RematchRow | None:
        """The wrap-up deadline: close the offer; returns it as it was (None: none)."""
        async with self.store.transaction() as tx:
            repo = RematchRepo(tx.db)
            offer = await repo.get(table_id)
            if offer is not None and not offer.closed:
                await repo.close(table_id)
            await tx.deadlines.clear(table_id, [ARCHIVE_KIND])
        return offer

    async def resume(self) -> None:
        """Give the clock the stored wrap-up deadlines of finished tables (after a start)."""
        for d in await self.store.deadlines.list():
            if d.kind != ARCHIVE_KIND:
                continue
            row = await self.store.tables.get(d.table_id)
            if row is not None and self.service.owns(row.guild_id):
                self.service.scheduler.set(d)

    # -- the new table -----------------------------------------------------------------------

    async def open_rematch(self, old: TableInfo, place: int | None) -> TableInfo:
        """A new table like ``old`` (variant, options, timer, every seat as it was at the start,
        computers at their levels) in ``place``, started at once; no thread of its own."""
        service = self.service
        host = next((s for s in old.seats if s is not None and s.user_id == old.host_id), None)
        if old.table.thread_id and place == old.table.thread_id:  # the old table's own thread
            parent, private = old.table.channel_id, False
        else:
            parent, private = old.table.parent_id, old.table.private_thread
        try:
            info = await service.create_table(
                host_id=old.host_id,
                host_name=host.name if host is not None else "",
                variant=old.table.variant,
                options=old.table.options,
                guild_id=old.table.guild_id,
                channel_id=place,
                turn_timer=old.table.turn_timer,
                locale=old.table.locale,
                seat_host=False,
                parent_id=parent,
                private_thread=private,
                public_place=old.table.public_place,
            )
        except LimitReached as exc:
            raise RematchLimit(exc, old.host_id) from exc
        try:
            for number, group in enumerate(old.groups):
                row = old.seats[group[0]]
                if row is None:
                    continue
                if row.user_id is not None:
                    try:
                        await service.join(info.id, row.user_id, row.name, group=number)
                    except LimitReached as exc:
                        raise RematchLimit(exc, row.user_id) from exc
                else:
                    await service.add_computer(
                        info.id, old.host_id, level=row.ai_level, group=number
                    )
            return await service.start(info.id, old.host_id, fill_with_computers=True)
        except (ServiceError, RematchLimit):
            await service.cancel(info.id, old.host_id, force=True)
            raise
