"""The table service's correspondence play: the tables where it is a person's move, and his
vacations (his correspondence tables pause, their turns' deadlines moved, each table told once).

A vacation is stored with the work it owes at each of his correspondence tables
(``vacation_notices``, one row per place of each table), in one transaction, by whichever
process answered him. The process that runs a table does that work: it moves the turn's
deadlines and marks the table paused in one transaction (:meth:`TableCorrespondence.apply`,
at once for its own tables, and every :data:`POLL` seconds for those another process stored),
then its feed posts the notice in each place (a nonce), and marks it posted.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from typing import Any

from bot.errors import InvalidOptions, LimitReached
from bot.store import DatabaseUnavailable, Transaction
from bot.store.correspondence import CorrespondenceRepo, OwedNotice, Vacation
from bot.tables.core import TableCore
from bot.tables.values import (
    CORRESPONDENCE_TIMER,
    MAX_VACATION_DAYS,
    VACATION_WINDOW,
    VACATIONS_PER_WINDOW,
    TableInfo,
    is_correspondence,
)

log = logging.getLogger(__name__)

DAY = 24 * 3600
POLL = 2.0  # seconds between two looks for vacations another process stored


@dataclass(frozen=True, slots=True)
class VacationTaken:
    """A vacation just taken: its row, the tables it pauses, and how many are left."""

    vacation: Vacation
    tables: tuple[int, ...]
    left: int  # vacations left in the window
    next_at: float | None  # when the oldest one counted leaves the window (None: none counted)


class TableCorrespondence:
    """Whose move it is where; vacations."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self._applying = asyncio.Lock()

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
            places = await repo.correspondence_places(user_id, CORRESPONDENCE_TIMER)
            await repo.owe(vacation, places)
        await self.apply()  # this process's own tables at once; the others' within their poll
        left = VACATIONS_PER_WINDOW - len(taken) - 1
        first = taken[0].started_at if taken else now
        tables = tuple(dict.fromkeys(t for t, _ in places))
        return VacationTaken(vacation, tables, left, first + VACATION_WINDOW)

    async def apply(self) -> int:
        """Pause the tables this process runs for every vacation stored (by any process) and
        not applied there yet: the turn's deadlines move and the table is marked paused in
        one transaction, then the observers are told (the feed posts the notices). Returns
        how many tables were paused."""
        core = self.core
        done = 0
        if not any(
            rt.row.status == "running" and is_correspondence(rt.row.turn_timer)
            for rt in core.tables.values()
        ):
            return 0  # (no correspondence table runs here: nothing is read)
        async with self._applying:
            for owed in await CorrespondenceRepo(core.store.db).unpaused():
                if not core.owns(owed.guild_id):
                    continue
                rt = core.tables.get(owed.table_id)
                if rt is None:
                    row = await core.store.tables.get(owed.table_id)
                    if row is not None and row.status in ("lobby", "running"):
                        continue  # not loaded yet (a start): the next look
                    async with core.store.transaction() as tx:
                        await CorrespondenceRepo(tx.db).mark_paused(owed, posted=True)
                    continue

                async def mark(tx: Transaction, owed: OwedNotice = owed) -> None:
                    await CorrespondenceRepo(tx.db).mark_paused(owed)

                info = await core.pause(rt, owed.ends_at, within=mark)
                if info is not None:
                    done += 1
                    core.notify(rt, "on_vacation", info, owed.user_id)
        return done

    async def owed_notices(self, table_id: int, place: int) -> list[OwedNotice]:
        """The vacation notices owed in one place of a paused table, oldest first."""
        return await CorrespondenceRepo(self.core.store.db).owed(table_id, place)

    async def notice_posted(self, owed: OwedNotice) -> None:
        """The notice was posted (or is not to be: the table is over)."""
        await CorrespondenceRepo(self.core.store.db).mark_posted(owed)


async def serve_vacations(service: Any, poll: float = POLL) -> None:
    """Forever, every ``poll`` seconds: pause this process's tables for the vacations other
    processes stored (nothing is read while it runs no correspondence table)."""
    while True:
        try:
            await service.apply_vacations()
        except asyncio.CancelledError:
            raise
        except DatabaseUnavailable:
            pass  # the store logs an outage once
        except Exception:
            log.exception("vacations: a round failed; tried again later")
        await asyncio.sleep(poll)
