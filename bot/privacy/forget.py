"""``/domino forget-me``: every capability forgets a person, and his open tables, whichever bot
process runs them, end his part.

Forgetting a person (:func:`forget_person`) removes him
from the records and from every closed table at once (and the replays kept of his finished
matches), and leaves a request (``forget_requests``) for each open table of his in the database.
The process that runs such a table ends his part in it as he would have (he leaves a lobby,
cancels one he hosts, declines a challenge, resigns a running match), records a match that
thereby finished, and only then removes him from the table (his seats, hosting and invitation
pass to his alias) and drops the request. Each process looks for the requests of its tables
every :data:`POLL` seconds and right after a forget-me it answered. Until a request is done, a
match of that table that finishes is recorded with the alias (:meth:`Records.record_match
<bot.records.service.Records.record_match>`), never with him.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from bot.achievements.store import AchievementRepo
from bot.daily.store import DailyRepo
from bot.errors import ServiceError
from bot.queue.store import QueueRepo
from bot.records.periods_store import PeriodRepo
from bot.records.seasons_store import SeasonRepo
from bot.records.service import Records, user_key
from bot.records.store import ForgetRepo, ForgetRequest, OpenTable, RecordsRepo
from bot.store import DatabaseUnavailable
from bot.store.correspondence import CorrespondenceRepo
from bot.store.places import PoolRepo
from bot.store.table_extras import FinishedRepo
from bot.tables import replay
from bot.tables.service import TableInfo, TableService
from bot.tournaments.store import TournamentRepo

__all__ = ["POLL", "Forgetting", "OpenTables", "forget_person"]

log = logging.getLogger(__name__)

POLL = 2.0  # seconds between two looks for the requests of this process's tables
SETTLE = 10.0  # how long a forget-me waits for the other processes before it answers


async def forget_person(records: Records, user_id: int) -> int:
    """Remove a person's name and ids from every stored record; returns his alias.

    His matches stay, played by "a former player" (the alias), so nobody else's history
    or rating changes. Each capability forgets its own part (its repository's ``forget``), all
    in one transaction. His open tables, whichever process runs them, get a request that
    their process ends his part there (:class:`Forgetting`); until it has, a match
    of theirs that finishes is recorded with the alias, never with him.
    """
    async with records.store.transaction() as tx:
        repo = RecordsRepo(tx.db)
        await repo.lock()
        alias = await repo.new_alias()
        await repo.forget(user_id, alias)
        await PeriodRepo(tx.db).forget(user_id)
        await SeasonRepo(tx.db).forget(user_id)
        await AchievementRepo(tx.db).forget(user_id)
        await TournamentRepo(tx.db).forget(user_id, alias)
        await DailyRepo(tx.db).forget(user_id, alias)
        await QueueRepo(tx.db).forget(user_id)
        await CorrespondenceRepo(tx.db).forget(user_id)
        await PoolRepo(tx.db).forget(user_id)
        forget = ForgetRepo(tx.db)
        tables = [t.table_id for t in await forget.open_tables_of(user_id)]
        await forget.add(tables, user_key(user_id), alias, now=records.clock())
    log.info("a player asked to be forgotten: done (%d open table(s) to leave)", len(tables))
    return alias


@dataclass(frozen=True, slots=True)
class OpenTables:
    """A person's open tables in the whole database: the lobbies and challenges he sits at,
    hosts or is invited to, and the matches he plays."""

    lobbies: tuple[OpenTable, ...]
    running: tuple[OpenTable, ...]


class Forgetting:
    """Forgets people; ends their part in the open tables this process runs."""

    def __init__(self, records: Records, service: TableService | None) -> None:
        self.records = records
        self.service = service
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    @property
    def repo(self) -> ForgetRepo:
        return ForgetRepo(self.records.store.db)

    async def open_tables(self, user_id: int) -> OpenTables:
        """His open tables, run by any process."""
        found = await self.repo.open_tables_of(user_id)
        return OpenTables(
            tuple(t for t in found if t.status == "lobby"),
            tuple(t for t in found if t.status == "running" and t.seated),
        )

    async def forget(self, user_id: int, *, settle: float = SETTLE) -> int:
        """Forget ``user_id`` everywhere; end his part in this process's tables now and wait
        (up to ``settle`` seconds) for the other processes to end theirs. Returns his alias."""
        store = self.records.store
        played = await FinishedRepo(store.db).visible(user_id, None, limit=1_000_000, veil=None)
        alias = await forget_person(self.records, user_id)
        await asyncio.to_thread(replay.drop_cached, store, [m.table_id for m in played])
        await self.apply_pending()
        key = user_key(user_id)
        loop = asyncio.get_running_loop()
        until = loop.time() + settle
        while await self.repo.waiting(key) and loop.time() < until:
            await asyncio.sleep(min(0.2, POLL))
        return alias

    # -- the requests of this process's tables ------------------------------------------------

    def start(self) -> None:
        """Look for requests every :data:`POLL` seconds until :meth:`close`."""
        if self.service is not None and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._loop(), name="forget-requests")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.apply_pending()
            except DatabaseUnavailable:
                pass  # the store logs an outage once; the requests wait in it
            except Exception:
                log.exception("forget requests could not be read")
            await asyncio.sleep(POLL)

    async def apply_pending(self) -> int:
        """Do the requests of the tables this process runs; returns how many were done."""
        service = self.service
        if service is None:
            return 0
        async with self._lock:
            done = 0
            for request in await self.repo.pending():
                if not service.owns(request.guild_id):
                    continue
                try:
                    done += await self._apply(service, request)
                except Exception:
                    log.exception("table %s: a forget request failed; tried again later",
                                  request.table_id)
            return done

    async def _apply(self, service: TableService, request: ForgetRequest) -> bool:
        """End his part in the table, record its match if that ended it, remove him."""
        info = await service.get(request.table_id)
        user = next((u for u in _people(info) if user_key(u) == request.user_key), None)
        if user is not None and info.status in ("lobby", "running"):
            with contextlib.suppress(ServiceError):  # it closed or moved on meanwhile
                await _end_part(service, info, user)
            info = await service.get(request.table_id)
            if info.status in ("lobby", "running") and info.is_seated(user):
                return False  # still playing (it could not be ended): try again later
        if info.status == "finished":
            await self.records.record(info.id)  # with his alias, before he leaves the table
        async with self.records.store.transaction() as tx:
            await ForgetRepo(tx.db).done(request, user)
        return True


def _people(info: TableInfo) -> set[int]:
    """Everyone with a part in a table: its people, its host and its invitees."""
    seated = {s.user_id for s in info.seats if s is not None and s.user_id is not None}
    return seated | {info.host_id, *info.invited}


async def _end_part(service: TableService, info: TableInfo, user: int) -> None:
    """What forget-me does at a table: leave, cancel or decline a lobby; resign a match."""
    if info.status == "running":
        if info.is_seated(user):
            await service.resign(info.id, user)
    elif info.host_id == user:
        await service.cancel(info.id, user)
    elif info.is_seated(user):
        await service.leave(info.id, user)
    elif user in info.invited:
        await service.decline(info.id, user)
