"""The table service's correspondence play: the tables where it is a person's move, and his
vacations (his correspondence tables pause, their turns' deadlines moved)."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from bot.errors import InvalidOptions, LimitReached
from bot.store.correspondence import CorrespondenceRepo, Vacation
from bot.tables.core import TableCore
from bot.tables.values import (
    MAX_VACATION_DAYS,
    VACATION_WINDOW,
    VACATIONS_PER_WINDOW,
    TableInfo,
    is_correspondence,
)

log = logging.getLogger(__name__)

DAY = 24 * 3600


@dataclass(frozen=True, slots=True)
class VacationTaken:
    """A vacation just taken: its row, the tables it paused, and how many are left."""

    vacation: Vacation
    tables: tuple[TableInfo, ...]
    left: int  # vacations left in the window
    next_at: float | None  # when the oldest one counted leaves the window (None: none counted)


class TableCorrespondence:
    """Whose move it is where; vacations."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def turns(self, user_id: int) -> list[TableInfo]:
        """Every running table, of any server and process, where it is ``user_id``'s move,
        the oldest turn first."""
        found: list[TableInfo] = []
        for table_id in await CorrespondenceRepo(self.core.store.db).running_tables(user_id):
            rt = self.core.tables.get(table_id)
            try:
                info = rt.info() if rt is not None else (
                    await self.core.table(table_id, closed=True)
                ).info()
            except Exception:  # a table that cannot be read is left out of the list
                log.exception("table %s: not read for a person's turns", table_id)
                continue
            seat = info.turn_seat
            if info.status == "running" and seat is not None and seat.user_id == user_id and (
                seat.kind == "human"
            ):
                found.append(info)
        return sorted(found, key=lambda i: (i.turn_started or 0.0, i.id))

    async def vacations(self, user_id: int) -> tuple[list[Vacation], int]:
        """The person's vacations in the window that ends now, and how many he has left."""
        since = self.core.clock() - VACATION_WINDOW
        taken = await CorrespondenceRepo(self.core.store.db).vacations(user_id, since)
        return taken, max(0, VACATIONS_PER_WINDOW - len(taken))

    async def take_vacation(self, user_id: int, days: int) -> VacationTaken:
        """Pause every correspondence table of ``user_id`` for ``days`` days (1 to 7), at most
        :data:`VACATIONS_PER_WINDOW` times in :data:`VACATION_WINDOW`; bad input or no
        vacation left changes nothing."""
        if not 1 <= days <= MAX_VACATION_DAYS:
            raise InvalidOptions(
                "A vacation lasts 1 to {max} days.", max=MAX_VACATION_DAYS
            )
        now = self.core.clock()
        vacation = Vacation(user_id, now, now + days * DAY)
        async with self.core.store.transaction() as tx:
            repo = CorrespondenceRepo(tx.db)
            await repo.lock(user_id)
            taken = await repo.vacations(user_id, now - VACATION_WINDOW)
            if any(v.ends_at > now for v in taken):
                raise LimitReached("You are on vacation already.")
            if len(taken) >= VACATIONS_PER_WINDOW:
                wait = math.ceil((taken[0].started_at + VACATION_WINDOW - now) / DAY)
                raise LimitReached(
                    "You have taken {count} vacations in the last {days} days; the next one "
                    "can start in {wait} days.",
                    count=len(taken),
                    days=VACATION_WINDOW // DAY,
                    wait=wait,
                )
            await repo.add_vacation(vacation)
        paused: list[TableInfo] = []
        for table_id in await CorrespondenceRepo(self.core.store.db).running_tables(user_id):
            rt = self.core.tables.get(table_id)
            if rt is None or not is_correspondence(rt.row.turn_timer):
                continue
            info = await self.core.pause(rt, vacation.ends_at)
            if info is not None:
                paused.append(info)
        left = VACATIONS_PER_WINDOW - len(taken) - 1
        first = taken[0].started_at if taken else now
        return VacationTaken(vacation, tuple(paused), left, first + VACATION_WINDOW)
