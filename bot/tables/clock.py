"""The one clock: every deadline of every table this process owns, run when due.

Deadlines are rows of the store (``deadlines``: table, kind, due time, the table's version when
set), written in the same transaction as the change that makes them; the clock keeps a heap of
them in memory, loaded from the store at start and fed by the service after each commit. Nothing
else sleeps on a table's behalf. A deadline whose table moved on (another ``seq``) is void: the
handler checks it against the table under the table's lock. A deadline whose handler fails
runs again later (:data:`RETRY_FIRST` seconds, doubling up to :data:`RETRY_MOST`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from bot.store import DatabaseUnavailable, DeadlineRow

__all__ = ["KINDS", "RETRY_FIRST", "RETRY_MOST", "Clock", "Handler"]

log = logging.getLogger(__name__)

#: What a deadline does: a computer moves; a person is reminded; the bot plays for an absent
#: person; the pause after a hand ends (the next hand's message is posted); a lobby or an
#: unanswered challenge expires; an only move is made for a person (forced moves); a finished
#: table's rematch offer closes and its thread is archived (``bot.records.match_end``).
KINDS = ("move", "remind", "timeout", "pause", "expire", "forced", "archive")

Handler = Callable[[DeadlineRow], Awaitable[object]]
COMPACT_MIN = 1024  # the heap is never compacted below this size
RETRY_FIRST = 5.0  # seconds before a failed deadline runs again; doubled after each failure
RETRY_MOST = 300.0  # ... up to this


@dataclass(order=True, slots=True)
class _Entry:
    due_at: float
    table_id: int
    kind: str = field(compare=False)
    seq: int = field(compare=False)


class Clock:
    """Runs due deadlines through ``handlers[kind]``, one table at a time, in due order."""

    def __init__(
        self,
        now: Callable[[], float],
        *,
        owns: Callable[[int], bool] = lambda table_id: True,
        poll: float = 0.5,
        quiet: tuple[type[Exception], ...] = (),
    ) -> None:
        """``now`` gives Unix seconds; ``owns(table_id)`` says whether this process times that
        table; ``poll`` bounds every sleep (a test's fake clock is noticed within it);
        ``quiet``: failures that are expected now and then (run again later all the same, but
        logged as no error)."""
        self.now = now
        self.owns = owns
        self.poll = poll
        self.quiet = (DatabaseUnavailable, *quiet)
        self.handlers: dict[str, Handler] = {}
        self._heap: list[_Entry] = []  # every deadline set, current or void (moved, cleared)
        self._compact_at = COMPACT_MIN  # heap size at which the void entries are dropped
        self._current: dict[int, dict[str, _Entry]] = {}  # table -> kind -> its deadline
        self._busy: set[int] = set()
        # (table, kind) -> (seq, failed runs) of a deadline that failed and runs again
        self._failures: dict[tuple[int, str], tuple[int, int]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._jobs: set[asyncio.Task[None]] = set()

    # -- the set of deadlines ------------------------------------------------------------------

    def load(self, rows: Iterable[DeadlineRow]) -> None:
        """Replace what the clock knows by ``rows`` (from the store, at start)."""
        self._heap.clear()
        self._current.clear()
        for row in rows:
            self.set(row)

    def set(self, row: DeadlineRow) -> None:
        """Know of a (new or moved) deadline."""
        if not self.owns(row.table_id):
            return
        entry = _Entry(row.due_at, row.table_id, row.kind, row.seq)
        self._current.setdefault(row.table_id, {})[row.kind] = entry
        heapq.heappush(self._heap, entry)
        if len(self._heap) >= self._compact_at:
            self._compact()
        self._wake.set()

    def _compact(self) -> None:
        """Keep only the current deadlines in the heap (each action leaves its turn's old ones
        behind, void, until they fall due)."""
        self._heap = [e for kinds in self._current.values() for e in kinds.values()]
        heapq.heapify(self._heap)
        self._compact_at = max(COMPACT_MIN, 3 * len(self._heap))

    def clear(self, table_id: int, kinds: Iterable[str] | None = None) -> None:
        """Forget the table's deadlines (only ``kinds`` if given)."""
        mine = self._current.get(table_id)
        if mine is None:
            return
        if kinds is None:
            mine.clear()
            for kind in KINDS:
                self._failures.pop((table_id, kind), None)
        else:
            for kind in kinds:
                mine.pop(kind, None)
        if not mine:
            del self._current[table_id]

    def pending(self, table_id: int | None = None) -> list[DeadlineRow]:
        """The deadlines known (of one table), soonest first."""
        return sorted(
            (
                DeadlineRow(e.table_id, e.kind, e.due_at, e.seq)
                for t, kinds in self._current.items()
                if table_id is None or t == table_id
                for e in kinds.values()
            ),
            key=lambda r: (r.due_at, r.table_id, r.kind),
        )

    def next_due(self) -> float | None:
        self._drop_void()
        return self._heap[0].due_at if self._heap else None

    def _drop_void(self) -> None:
        while self._heap:
            top = self._heap[0]
            if self._current.get(top.table_id, {}).get(top.kind) is top:
                return
            heapq.heappop(self._heap)

    # -- running -------------------------------------------------------------------------------

    def due(self, now: float) -> list[DeadlineRow]:
        """Take the deadlines due at ``now`` (of tables not busy with an earlier one)."""
        taken: list[DeadlineRow] = []
        later: list[_Entry] = []
        while True:
            self._drop_void()
            if not self._heap or self._heap[0].due_at > now:
                break
            entry = heapq.heappop(self._heap)
            if entry.table_id in self._busy or any(t.table_id == entry.table_id for t in taken):
                later.append(entry)  # one deadline of a table at a time; the rest next round
                continue
            self.clear(entry.table_id, (entry.kind,))
            taken.append(DeadlineRow(entry.table_id, entry.kind, entry.due_at, entry.seq))
        for entry in later:
            heapq.heappush(self._heap, entry)
        return taken

    async def run_due(self, now: float | None = None) -> list[object]:
        """Run every deadline due at ``now`` and wait for them; return the handlers' results."""
        now = self.now() if now is None else now
        results: list[object] = []
        await self.idle()  # deadlines the background loop is running now come first
        while rows := self.due(now):
            done = await asyncio.gather(*(self._run(r) for r in rows), return_exceptions=True)
            results.extend(done)
        return results

    async def _run(self, row: DeadlineRow) -> object:
        handler = self.handlers.get(row.kind)
        if handler is None:
            log.error("table %s: no handler for deadline %r", row.table_id, row.kind)
            return None
        self._busy.add(row.table_id)
        try:
            result = await handler(row)
        except Exception as exc:
            self._retry(row, exc)
            return exc
        else:
            key = (row.table_id, row.kind)
            if self._failures.get(key, (None,))[0] == row.seq:
                del self._failures[key]
            return result
        finally:
            self._busy.discard(row.table_id)
            self._wake.set()

    def _retry(self, row: DeadlineRow, exc: Exception) -> None:
        """Run a failed deadline again later (a dropped one would leave its table waiting
        until a restart), unless the table has a newer deadline of that kind by now."""
        key = (row.table_id, row.kind)
        seq, failures = self._failures.get(key, (row.seq, 0))
        failures = failures + 1 if seq == row.seq else 1
        self._failures[key] = (row.seq, failures)
        delay = min(RETRY_MOST, RETRY_FIRST * 2 ** min(failures - 1, 20))
        expected = isinstance(exc, self.quiet)  # an outage is logged once by the store
        log.log(
            logging.DEBUG if expected else logging.ERROR,
            "table %s: deadline %s failed (%d time(s)); again in %.0f s",
            row.table_id, row.kind, failures, delay,
            exc_info=not expected,
        )
        if row.kind not in self._current.get(row.table_id, {}):
            self.set(DeadlineRow(row.table_id, row.kind, self.now() + delay, row.seq))

    def start(self) -> None:
        """Run deadlines in the background as they fall due, until :meth:`stop`."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="table-clock")

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            now = self.now()
            for row in self.due(now):
                job = asyncio.create_task(self._job(row), name=f"table-{row.table_id}-{row.kind}")
                self._jobs.add(job)
                job.add_done_callback(self._jobs.discard)
            nxt, now = self.next_due(), self.now()
            # A due deadline of a busy table waits for that table's job (which wakes us).
            wait = self.poll if nxt is None or nxt <= now else min(self.poll, nxt - now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def _job(self, row: DeadlineRow) -> None:
        await self._run(row)

    async def idle(self) -> None:
        """Wait for the deadlines being run now."""
        while self._jobs:
            await asyncio.gather(*list(self._jobs), return_exceptions=True)

    async def stop(self) -> None:
        """Stop the background loop and wait for running deadlines."""
        if self._task is not None:
            # A wake-up landing with the cancellation can swallow it (asyncio.wait_for before
            # Python 3.12): cancel until the loop is really over.
            while not self._task.done():
                self._task.cancel()
                await asyncio.wait([self._task], timeout=self.poll)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.idle()
