"""The quick match's service: places kept in the store, tables opened by the rule of
``matching.py``, the computers' fill and the expiry as stored deadlines of the one clock.

A place is a row (``queue_entries``, one per person: nobody waits in two queues). Seating runs
per *scope* (:func:`bot.queue.values.scope_of`) under a lock (in the process; on PostgreSQL an
advisory lock of the transaction): each table is opened with ``TableService.open_seated`` in
the transaction that removes its people's places, and that transaction fails if one of them is
gone, so a kill at any instant loses no place and seats nobody twice. The clock holds one
deadline per scope (key ``-scope``, kind :data:`KIND`): the soonest computers' fill or expiry of
its places, taken again from the rows at every start.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.errors import InvalidOptions, ServiceError
from bot.i18n import N_
from bot.limits import Gate, Limits
from bot.queue.matching import DEFAULT_LEVELS, Seating, Shape, Waiting, plan
from bot.queue.store import KEPT, LOST, EntryRow, ExpiredRow, PostRow, QueueRepo
from bot.queue.values import ANY, COMPUTERS_AFTER, EXPIRY, POOL, VARIANTS, scope_of
from bot.records.rating import ordinal
from bot.records.record import COMPUTER_IDS, family_of
from bot.records.store import RecordsRepo
from bot.servers.pool import OpenPool
from bot.store import DeadlineRow, IntegrityError, Store, Transaction
from bot.store.table_extras import GuildSettings, GuildSettingsRepo
from bot.tables.places import Place
from bot.tables.service import TableInfo, TableService, seat_groups
from domino import preset

__all__ = [
    "FIRST_TURN",
    "KIND",
    "QueueListener",
    "QueueService",
    "Status",
    "shape_of",
]

log = logging.getLogger(__name__)

#: The clock's kind of a scope's deadline.
KIND = "queue"
#: Seconds the first turn of a quick-match table lasts at least (its people come to it).
FIRST_TURN = 90
#: The server's variant when a table seats only people who queued for "any".
DEFAULT_VARIANT = "partners"

ALREADY = N_(
    "You are already in the quick-match queue. Leave it first to queue for something else."
)


class Gone(Exception):
    """A place the rule used was taken meanwhile: the table is not opened."""


@dataclass(frozen=True, slots=True)
class Status:
    """A person's place and how many wait with him (per variant, on his server)."""

    entry: EntryRow
    counts: Mapping[str, int]

    @property
    def waiting(self) -> int:
        return sum(self.counts.values())


class QueueListener:
    """What the Discord layer is told (each call may be a coroutine)."""

    async def on_queue_changed(self, guild_id: int) -> None:
        """Someone joined, left, was seated or his place expired."""

    async def on_pool_changed(self) -> None:
        """Someone of the open pool joined, left, was seated or his place expired."""

    async def on_queue_seated(self, table: TableInfo, seating: Seating) -> None:
        """A table was opened for these people."""

    async def on_queue_expired(self, note: ExpiredRow) -> None:
        """A place expired: its quiet note is owed."""


def shape_of(variant: str) -> Shape:
    """The rule's view of a variant: people per table, family, the seat groups of each side."""
    rules = preset(variant)
    groups = seat_groups(rules)
    index = {g: i for i, g in enumerate(groups)}
    if len(groups) == rules.sides:  # one person per side
        sides = tuple((i,) for i in range(len(groups)))
    else:
        sides = tuple(
            tuple(index[(s,)] for s in rules.seats_of_side(side)) for side in range(rules.sides)
        )
    return Shape(variant, len(groups), family_of(variant, rules), sides)


SHAPES: dict[str, Shape] = {v: shape_of(v) for v in VARIANTS}


class QueueService:
    """Join, leave, seat, expire; the clock's handler of the queue's deadlines."""

    def __init__(self, store: Store, tables: TableService) -> None:
        self.store = store
        self.tables = tables
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._listeners: list[QueueListener] = []
        self._timed: set[int] = set()

    @property
    def repo(self) -> QueueRepo:
        return QueueRepo(self.store.db)

    def clock(self) -> float:
        return self.tables.clock()

    def listen(self, listener: QueueListener) -> None:
        self._listeners.append(listener)

    def unlisten(self, listener: QueueListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def _tell(self, name: str, *args: Any) -> None:
        for listener in list(self._listeners):
            try:
                answer: Awaitable[None] | None = getattr(listener, name)(*args)
                if answer is not None:
                    await answer
            except Exception:
                log.exception("queue listener %s failed", name)

    def _lock(self, scope: int) -> asyncio.Lock:
        lock = self._locks.get(scope)
        if lock is None:
            lock = self._locks[scope] = asyncio.Lock()
        return lock

    # -- a person's place --------------------------------------------------------------------

    async def status(self, user_id: int) -> Status | None:
        """His place and how many wait on its server; None if he has none."""
        entry = await self.repo.get(user_id)
        if entry is None:
            return None
        return Status(entry, await self.repo.counts(entry.guild_id))

    async def counts(self, guild_id: int) -> dict[str, int]:
        return await self.repo.counts(guild_id)

    async def pool_waiting(self) -> int:
        """How many wait in the open pool, every server's people together."""
        return await self.repo.count_scope(POOL)

    async def pool_mark(self) -> tuple[int, float]:
        """What changes whenever someone joins or leaves the open pool (any server's)."""
        return await self.repo.scope_mark(POOL)

    async def pool_posts(self) -> list[PostRow]:
        """The "Play now" posts of the servers this process runs that are in the open pool."""
        posts = [p for p in await self.repo.posts() if self.tables.owns(p.guild_id)]
        pooled = await OpenPool(self.store).servers_in(p.guild_id for p in posts)
        return [p for p in posts if p.guild_id in pooled]

    async def in_pool(self, guild_id: int) -> bool:
        return await OpenPool(self.store).joined(guild_id)

    async def _changed(self, scope: int, guild_ids: set[int]) -> None:
        for guild_id in guild_ids:
            await self._tell("on_queue_changed", guild_id)
        if scope == POOL and guild_ids:
            await self._tell("on_pool_changed")

    @staticmethod
    def check_variant(variant: str) -> None:
        if variant != ANY and variant not in SHAPES:
            raise InvalidOptions(
                N_("There is no quick match of {variant}. Choose one of: {allowed}."),
                variant=variant,
                allowed=", ".join((ANY, *VARIANTS)),
            )

    async def join(
        self,
        *,
        user_id: int,
        guild_id: int,
        channel_id: int,
        variant: str,
        name: str,
        public_name: str | None = None,
        computers: bool = True,
        locale: str | None = None,
        member_limits: Limits | None = None,
    ) -> Status:
        """Give ``user_id`` a place in the queue of ``variant`` (or "any") on ``guild_id``; his
        table opens in ``channel_id`` if he waited longest (and is shown there if the table is
        across servers). A person the open pool takes waits in its scope under
        ``public_name`` (his account's global name; else ``name``). Refuses (and changes
        nothing) an unknown variant, a second place, a person at his limit of matches; seats
        at once those whose table can be filled."""
        self.check_variant(variant)
        self.tables.core.check_owned(guild_id)
        found = await self.status(user_id)
        if found is not None:
            raise ServiceError(ALREADY)
        held = await self.store.limits.held(user_id, guild_id)
        self.tables.gate.check_join(held)
        if member_limits is not None:
            Gate(member_limits, self.clock).check_join(held)
        settings = await GuildSettingsRepo(self.store.db).get(guild_id)
        pooled = user_id in await OpenPool(self.store).eligible([(user_id, guild_id)])
        now = self.clock()
        entry = EntryRow(
            user_id=user_id,
            scope=scope_of(guild_id, pooled=pooled),
            guild_id=guild_id,
            channel_id=channel_id,
            variant=variant,
            name=public_name or name if pooled else name,
            computers=computers,
            locale=locale,
            joined_at=now,
            fill_at=now + _computers_after(settings),
            expires_at=now + _expiry(settings),
        )
        try:
            async with self.store.transaction() as tx:
                await QueueRepo(tx.db).lock(entry.scope)
                await QueueRepo(tx.db).add(entry)
        except IntegrityError:
            again = await self.status(user_id)
            if again is None:
                raise
            raise ServiceError(ALREADY) from None
        await self._changed(entry.scope, {guild_id})
        await self.seat(entry.scope)
        status = await self.status(user_id)
        return status if status is not None else Status(entry, {})

    async def leave(self, user_id: int) -> EntryRow | None:
        """Give up his place; None if he had none (seated or expired meanwhile)."""
        entry = await self.repo.get(user_id)
        if entry is None:
            return None
        async with self._lock(entry.scope), self.store.transaction() as tx:
            await QueueRepo(tx.db).lock(entry.scope)
            removed = await QueueRepo(tx.db).take([(entry.user_id, entry.joined_at)])
        if not removed:
            return None
        await self._changed(entry.scope, {entry.guild_id})
        await self._time(entry.scope)
        return entry

    # -- seating -----------------------------------------------------------------------------

    async def seat(self, scope: int) -> list[TableInfo]:
        """Expire the places due, then open every table the rule fills now; time the scope's
        next deadline. Only the process that runs the scope's server does it; in the pool's
        scope, each process expires the places of the servers it runs and opens the tables
        where one of its servers has a person (that server owns the table)."""
        opened: list[TableInfo] = []
        guilds: set[int] = set()
        retry_at: float | None = None
        async with self._lock(scope):
            entries = await self.repo.of_scope(scope)
            if not self._runs(scope, entries):
                self._forget(scope)
                return opened
            now = self.clock()
            due = [e for e in self._runs(scope, entries) if e.expires_at <= now]
            if due:
                async with self.store.transaction() as tx:
                    await QueueRepo(tx.db).lock(scope)
                    notes = await QueueRepo(tx.db).expire(due, now)
                for note in notes:
                    guilds.add(note.guild_id)
                    await self._tell("on_queue_expired", note)
                gone = {e.user_id for e in due}
                entries = [e for e in entries if e.user_id not in gone]
            made = plan(
                await self._waiting(entries),
                now,
                SHAPES,
                default=await self._default_variant(entries),
                levels=await self._levels({s.family for s in SHAPES.values()}),
            )
            retry_at = made.retry_at
            by_user = {e.user_id: e for e in entries}
            for seating in made.tables:
                owner = self._owner(seating, by_user)
                if owner is None:  # (the pool's: no server of this process has a person there)
                    continue
                try:
                    info = await self._open(scope, seating, by_user, now, owner)
                except Gone:
                    log.info("queue %s: a place was taken meanwhile; seating again", scope)
                    retry_at = now
                    break
                opened.append(info)
                guilds.update(by_user[p].guild_id for p in seating.seated)
                await self._tell("on_queue_seated", info, seating)
        await self._changed(scope, guilds)
        await self._time(scope, retry_at)
        return opened

    def _runs(self, scope: int, entries: list[EntryRow]) -> list[EntryRow]:
        """The places of ``scope`` this process seats and expires: all of a server's own scope
        if it runs that server; in the pool's, those of the servers it runs."""
        if scope == POOL:
            return [e for e in entries if self.tables.owns(e.guild_id)]
        return entries if entries and self.tables.owns(entries[0].guild_id) else []

    def _owner(self, seating: Seating, by_user: Mapping[int, EntryRow]) -> EntryRow | None:
        """Whose server owns the table: the longest waiting's if this process runs it, else
        (the pool's) the first seated person's of a server it runs; None: none of them."""
        for user_id in (seating.anchor, *seating.seated):
            if self.tables.owns(by_user[user_id].guild_id):
                return by_user[user_id]
        return None

    async def _open(
        self,
        scope: int,
        seating: Seating,
        by_user: Mapping[int, EntryRow],
        now: float,
        owner: EntryRow,
    ) -> TableInfo:
        anchor = owner
        people = [
            None if p is None else (p, by_user[p].name) for p in seating.people
        ]
        places = [(p, by_user[p].joined_at) for p in seating.seated]
        shown: dict[int, list[int]] = {}  # each other server: its people, in seat order
        for p in seating.seated:
            if by_user[p].guild_id != anchor.guild_id:
                shown.setdefault(by_user[p].guild_id, []).append(p)

        async def within(tx: Transaction, table_id: int) -> None:
            repo = QueueRepo(tx.db)
            await repo.lock(scope)
            if await repo.take(places) != len(places):
                raise Gone
            waited = now - by_user[seating.anchor].joined_at
            await repo.add_table(
                table_id, anchor.guild_id, seating.seated, waited,
                [by_user[p] for p in seating.seated],
            )

        return await self.tables.open_seated(
            host_id=anchor.user_id,
            ruleset=preset(seating.variant),
            options={"queue": True},
            people=people,
            guild_id=anchor.guild_id,
            channel_id=anchor.channel_id,
            locale=anchor.locale,
            within=within,
            level=seating.level,
            first_turn=FIRST_TURN,
            places=[
                Place(g, by_user[ids[0]].channel_id, tuple(ids)) for g, ids in shown.items()
            ] if scope == POOL else (),
        )

    async def _waiting(self, entries: list[EntryRow]) -> list[Waiting]:
        ids = [e.user_id for e in entries]
        families = {s.family for s in SHAPES.values()}
        ratings: dict[int, dict[str, float]] = {i: {} for i in ids}
        repo = RecordsRepo(self.store.db)
        for family in sorted(families):
            for pid, (mu, sigma) in (await repo.ratings(ids, family)).items():
                ratings[pid][family] = ordinal(mu, sigma)
        return [
            Waiting(e.user_id, e.variant, e.joined_at, e.fill_at, e.computers, ratings[e.user_id])
            for e in entries
        ]

    async def _levels(self, families: set[str]) -> dict[str, dict[str, float]]:
        """Per family, each computer level's rating (its recorded one, else our default)."""
        repo = RecordsRepo(self.store.db)
        ids = {COMPUTER_IDS[level]: level for level in DEFAULT_LEVELS}
        out: dict[str, dict[str, float]] = {}
        for family in sorted(families):
            known = await repo.ratings(ids, family)
            out[family] = {
                level: ordinal(*known[pid]) if pid in known else DEFAULT_LEVELS[level]
                for pid, level in ids.items()
            }
        return out

    async def _default_variant(self, entries: list[EntryRow]) -> str:
        if not entries:
            return DEFAULT_VARIANT
        settings = await GuildSettingsRepo(self.store.db).get(entries[0].guild_id)
        return settings.variant if settings.variant in SHAPES else DEFAULT_VARIANT

    async def give_back(self, info: TableInfo) -> list[ExpiredRow]:
        """A quick-match table cancelled before it could be shown (the bot may not post in its
        channel): each person gets his place back as it was, at the front (his wait counts),
        kept at least its whole length from now; those who queued in that very channel lose
        theirs (their next table would open there again). Each is owed a note saying why.
        Once per table (with the mark that it was told), in one transaction."""
        now = self.clock()
        bad = (info.table.guild_id, info.table.channel_id)
        notes: list[ExpiredRow] = []
        scopes: dict[int, set[int]] = {}
        async with self.store.transaction() as tx:
            repo = QueueRepo(tx.db)
            places = await repo.settle_table(info.id)
            for e in places or ():
                lost = (e.guild_id, e.channel_id) == bad
                if not lost:
                    await repo.lock(e.scope)
                    kept = e.expires_at - e.joined_at
                    back = dataclasses.replace(e, expires_at=max(e.expires_at, now + kept))
                    if not await repo.add_if_free(back):
                        continue  # he queued again meanwhile
                    scopes.setdefault(e.scope, set()).add(e.guild_id)
                note = ExpiredRow(
                    e.user_id, e.guild_id, e.variant, e.locale, now, LOST if lost else KEPT,
                    info.table.channel_id if lost else None,
                )
                await repo.owe(note)
                notes.append(note)
        for scope, guilds in scopes.items():
            await self._changed(scope, guilds)
        for scope in scopes:
            await self.seat(scope)
        return notes

    # -- the clock ---------------------------------------------------------------------------

    async def _time(self, scope: int, retry_at: float | None = None) -> None:
        """Set the scope's deadline from its places (none left: forget it) and the time a
        rating range that widens may fill a table (``retry_at``)."""
        entries = self._runs(scope, await self.repo.of_scope(scope))
        if not entries:
            self._forget(scope)
            return
        due = min(e.due() for e in entries)
        if retry_at is not None:
            due = min(due, retry_at)
        self.tables.scheduler.set(DeadlineRow(-scope, KIND, due, 0))
        self._timed.add(scope)

    def _forget(self, scope: int) -> None:
        if scope in self._timed:
            self.tables.scheduler.clear(-scope, (KIND,))
            self._timed.discard(scope)

    async def on_deadline(self, row: DeadlineRow) -> None:
        """A scope's computers' fill or expiry is due."""
        await self.seat(-row.table_id)

    async def load(self) -> None:
        """After a start or a shard taken over: seat (or expire) every scope this process runs
        at once; each then times its own next deadline."""
        for scope in list(self._timed):
            self._forget(scope)
        self.tables.scheduler.handlers[KIND] = self.on_deadline
        now = self.clock()
        for scope, guild_id, _ in await self.repo.scopes():
            if self.tables.owns(guild_id):  # at once: a stop may have come before a seating
                self.tables.scheduler.set(DeadlineRow(-scope, KIND, now, 0))
                self._timed.add(scope)

    def close(self) -> None:
        self.tables.scheduler.handlers.pop(KIND, None)
        for scope in list(self._timed):
            self._forget(scope)

    async def expired_notes(self) -> list[ExpiredRow]:
        """The quiet notes owed for places that expired, of the servers this process runs."""
        return [n for n in await self.repo.expired() if self.tables.owns(n.guild_id)]

    async def noted(self, note: ExpiredRow) -> None:
        await self.repo.noted(note)

    async def unannounced(self) -> list[Any]:
        """The tables the queue opened whose thread was not told yet, of this process."""
        return [t for t in await self.repo.tables(unannounced=True) if self.tables.owns(t.guild_id)]

    async def announced(self, table_id: int) -> None:
        await self.repo.announced(table_id)


def _computers_after(settings: GuildSettings) -> int:
    value = settings.queue_computers_after
    return COMPUTERS_AFTER if value is None else int(value)


def _expiry(settings: GuildSettings) -> int:
    value = settings.queue_expiry
    return EXPIRY if value is None else int(value)



