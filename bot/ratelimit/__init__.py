"""The bot's global limit: every request made with the bot token waits here for a slot of one
budget (``DISCORD_RATE_LIMIT`` a second) that every process of the bot shares, highest
priority first.

Discord refuses more than its global limit of bot-token requests a second for the whole
application; interaction callbacks and interaction webhooks are not counted and never wait.
The budget is kept in the database when processes may share it (:class:`SharedBudget`, one
statement per reservation: PostgreSQL, or SQLite with ``SHARD_COUNT``), else in the process
(:class:`LocalBudget`). Each process keeps its
waiting requests in priority order and hands each slot it reserved to the best one waiting
when the slot comes. A priority also bounds how far ahead it may book the shared budget
(:data:`HORIZON`), so that across processes a ping or a board waits while game messages fill
the budget. Per-route limits stay discord.py's (its buckets read Discord's headers).

:meth:`Limiter.trace_start` is awaited by aiohttp before each attempt discord.py makes (its
retries included), so every request Discord counts passes here. A slot counts for the instant
the request is written: :meth:`Limiter.trace_sent`, awaited by aiohttp just before it writes
the request, sends back to the queue (ahead of its priority) a request whose slot has passed
by more than :data:`LATE` — its process stalled between the slot and the write — so a stall
never puts the requests of two seconds into one of Discord's.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from enum import IntEnum
from types import SimpleNamespace
from typing import Any, Protocol

import aiohttp

from bot.store.budget import BudgetRepo, Grant
from bot.traffic import BOT, PURPOSE, kind_of

__all__ = [
    "HORIZON",
    "Limiter",
    "LocalBudget",
    "Priority",
    "SharedBudget",
    "priority",
    "priority_of",
]

log = logging.getLogger(__name__)


class Priority(IntEnum):
    """Who goes first when the budget is short (lower first)."""

    CLICK = 0  # the answer to a person's click: an interaction's, never counted nor delayed
    WAITING = 1  # what a player at a running table waits for: its game message, his hand
    PING = 2  # a turn's ping
    OTHER = 3  # everything else: posts, boards, tournaments, lobbies, commands' sync


#: Purposes (``bot.traffic.purpose``) whose requests a player waits for.
_PURPOSES = {"game": Priority.WAITING, "hand": Priority.WAITING, "ping": Priority.PING}
#: How far ahead (seconds) a priority may book the budget: a lower priority gets a slot only
#: while the budget is booked less far ahead (at least one slot ahead whatever the rate).
HORIZON = {Priority.WAITING: 2.0, Priority.PING: 0.5, Priority.OTHER: 0.25}
#: A request is written at most this long (seconds) after its slot: a slot the process wakes up
#: for later is not used, and a request about to be written later waits for another slot. So
#: at most ``rate × (1 + LATE) + 1`` requests reach Discord in any second (45/s: 48 of 50).
LATE = 0.05
#: At most this share of a second's budget is reserved at once.
BATCH_SECONDS = 0.2
GLOBAL = "global"

_PRIORITY: contextvars.ContextVar[Priority | None] = contextvars.ContextVar(
    "discord_priority", default=None
)


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The requests made inside the block (and tasks it starts) go at ``level``, whatever
    their purpose."""
    token = _PRIORITY.set(level)
    try:
        yield
    finally:
        _PRIORITY.reset(token)


def priority_of(path: str) -> Priority:
    """The priority of a request to ``path`` made now (its kind, then the code's priority or
    purpose)."""
    if kind_of(path) != BOT:
        return Priority.CLICK
    chosen = _PRIORITY.get()
    if chosen is not None:
        return chosen
    return _PURPOSES.get(PURPOSE.get(), Priority.OTHER)


class Budget(Protocol):
    async def reserve(self, count: int, interval: float, horizon: float) -> Grant: ...


class LocalBudget:
    """The budget of one process (the one-process default on SQLite)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tat = 0.0

    async def reserve(self, count: int, interval: float, horizon: float) -> Grant:
        now = self.clock()
        base = max(self.tat, now)
        room = math.floor((now + horizon - base) / interval) + 1
        slots = max(0, min(count, room))
        if not slots:
            return Grant(0, base - horizon - now, base - horizon)
        self.tat = base + slots * interval
        return Grant(slots, base - now, base)


class SharedBudget:
    """The budget every process sharing the database books (table ``discord_budget``).

    While the database does not answer, the process keeps to a local budget of ``share()``
    (its part of the bot: its shards over all) of the rate."""

    def __init__(self, repo: BudgetRepo, share: Callable[[], float] = lambda: 1.0) -> None:
        self.repo = repo
        self.share = share
        self.local = LocalBudget()
        self.down = False

    async def reserve(self, count: int, interval: float, horizon: float) -> Grant:
        try:
            grant = await self.repo.reserve(GLOBAL, count, interval, horizon)
        except Exception as exc:  # out of reach, or refused: the process keeps to its share
            if not self.down:
                log.warning("Discord budget: database out of reach (%s); local share kept", exc)
                self.down = True
            part = max(self.share(), 1e-3)
            return await self.local.reserve(count, interval / part, horizon)
        if self.down:
            log.info("Discord budget: shared again through the database")
            self.down = False
        return grant


class Limiter:
    """Hands out the budget's slots to the requests waiting, highest priority first."""

    def __init__(
        self,
        rate: float,
        budget: Budget | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.interval = 1.0 / rate
        self.budget: Budget = budget or LocalBudget(clock)
        self.clock = clock
        self.batch = max(1, int(rate * BATCH_SECONDS))
        self.asked: Counter[Priority] = Counter()  # requests that asked, per priority
        self.served: Counter[Priority] = Counter()  # requests given a slot, per priority
        self.late = 0  # slots not used: the process woke up too late for them
        self.resent = 0  # requests that reached the socket too late for their slot: queued again
        self._offset: float | None = None  # the budget's clock minus this process's, at most
        self._heap: list[tuple[int, int, asyncio.Future[float]]] = []
        self._order = itertools.count()
        self._slots: deque[float] = deque()  # reserved, not yet come (this process's clock)
        self._refused: tuple[int, float] | None = None  # (priority, until): booked too far
        self._arrived: asyncio.Event | None = None  # a request came, or a slot was lost
        self._reserved: asyncio.Event | None = None  # slots were added
        self._tasks: list[asyncio.Task[None]] = []

    def use(self, budget: Budget) -> None:
        """Book ``budget`` from now on (the shared one, once the database is open)."""
        self.budget = budget

    async def acquire(self, level: Priority, *, again: bool = False) -> float | None:
        """Wait for a slot of the budget and return its time (this process's clock); ``None``
        at once for :attr:`Priority.CLICK`. ``again``: ahead of the others of ``level`` (a
        request that missed its slot)."""
        if not again:
            self.asked[level] += 1
        if level is Priority.CLICK:
            return None
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[float] = loop.create_future()
        order = next(self._order)
        heapq.heappush(self._heap, (int(level), -order if again else order, waiter))
        if self._arrived is None or self._reserved is None:
            self._arrived, self._reserved = asyncio.Event(), asyncio.Event()
        self._arrived.set()
        if not self._tasks or any(t.done() for t in self._tasks):
            for task in self._tasks:
                task.cancel()
            self._tasks = [
                loop.create_task(self._reserve(), name="discord-limiter-reserve"),
                loop.create_task(self._hand_out(), name="discord-limiter-slots"),
            ]
        return await waiter  # cancelled: the future is dropped from the heap when it comes up

    async def trace_start(
        self, _session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        """aiohttp's ``on_request_start``: the request waits for its slot."""
        level = priority_of(params.url.path)
        context.discord_slot = (level, await self.acquire(level))

    async def trace_sent(self, _session: Any, context: SimpleNamespace, _params: Any) -> None:
        """aiohttp's ``on_request_headers_sent``, awaited just before the request is written:
        a request later than :data:`LATE` after its slot waits for another one."""
        level, slot = getattr(context, "discord_slot", (Priority.CLICK, None))
        while slot is not None and self.clock() > slot + LATE:
            self.resent += 1
            slot = await self.acquire(level, again=True)
        context.discord_slot = (level, slot)

    def trace(self, config: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
        """``config`` with every request it sees passing this limiter first, and written
        within :data:`LATE` of its slot."""
        config.on_request_start.append(self.trace_start)
        config.on_request_headers_sent.append(self.trace_sent)
        return config

    def summary(self) -> str:
        """One line: the budget, the requests given a slot by priority, slots lost, waiting."""
        served = ", ".join(f"{p.name.lower()} {self.served[p]}" for p in sorted(self.served))
        return (
            f"Discord budget {self.rate:g}/s: slots given {served or 'none'}; slots woken up"
            f" for too late {self.late}; sent too late and queued again {self.resent};"
            f" waiting now {self.waiting()}"
        )

    def waiting(self, level: int | None = None) -> int:
        """Requests waiting (of ``level`` only, if given)."""
        return sum(1 for n, _, w in self._heap if not w.done() and level in (None, n))

    def _best(self) -> tuple[int, asyncio.Future[float]] | None:
        while self._heap and self._heap[0][2].done():
            heapq.heappop(self._heap)
        return (self._heap[0][0], self._heap[0][2]) if self._heap else None

    async def _reserve(self) -> None:
        """Reserve slots for the requests waiting that have none: the best first, each
        priority within its horizon."""
        assert self._arrived is not None and self._reserved is not None
        while True:
            self._arrived.clear()
            now = self.clock()
            if self._refused is not None and now >= self._refused[1]:
                self._refused = None
            uncovered = sorted(n for n, _, w in self._heap if not w.done())[len(self._slots) :]
            refused = self._refused
            if uncovered and (refused is None or uncovered[0] < refused[0]):
                level = Priority(uncovered[0])
                count = min(self.batch, uncovered.count(level))
                horizon = max(HORIZON[level], self.interval)
                asked = self.clock()
                try:
                    grant = await self.budget.reserve(count, self.interval, horizon)
                except Exception:
                    log.exception("Discord budget: a reservation failed; trying again")
                    grant = Grant(0, self.interval)
                answered = self.clock()
                at = answered + grant.wait
                if grant.slots:
                    first = self._local_time(grant, asked, answered)
                    self._slots.extend(first + n * self.interval for n in range(grant.slots))
                    self._reserved.set()
                else:
                    self._refused = (level, at if grant.wait > 0 else at + self.interval / 4)
                continue
            with contextlib.suppress(TimeoutError):
                timeout = max(0.0, refused[1] - now) if refused is not None else None
                await asyncio.wait_for(self._arrived.wait(), timeout)

    def _local_time(self, grant: Grant, asked: float, answered: float) -> float:
        """The time of ``grant``'s first slot on this process's clock: never before it, and
        after it by no more than the quickest recent answer's way back (an answer held up,
        by a busy database or a stalled process, does not move its slots later, where they
        would meet the next reservation's)."""
        granted = grant.at - grant.wait  # the budget's clock when it granted
        low, high = granted - answered, granted - asked  # its clock minus ours: within these
        if self._offset is None or self._offset > high:  # first, or the clocks moved
            self._offset = low
        else:
            self._offset = max(self._offset, low)
        return grant.at - self._offset

    async def _hand_out(self) -> None:
        """Give each slot, when it comes, to the best request waiting then."""
        assert self._arrived is not None and self._reserved is not None
        while True:
            self._reserved.clear()
            if not self._slots:
                await self._reserved.wait()
                continue
            delay = self._slots[0] - self.clock()
            if delay > 0:
                await asyncio.sleep(delay)
                continue
            slot = self._slots.popleft()
            if self.clock() > slot + LATE:
                self.late += 1
                self._arrived.set()  # its request needs another slot
                continue
            self._release(slot)

    def _release(self, slot: float) -> None:
        """The slot that has come goes to the best request waiting (none: it goes unused)."""
        best = self._best()
        if best is None:
            return
        heapq.heappop(self._heap)
        self.served[Priority(best[0])] += 1
        best[1].set_result(slot)

    async def aclose(self) -> None:
        """Stop handing out slots; requests still waiting are cancelled."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for _, _, waiter in self._heap:
            waiter.cancel()
        self._heap.clear()
