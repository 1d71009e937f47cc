"""Which shards' tables this process runs: a lease per shard in the store, kept on a heartbeat.

A table belongs to the shard of its server, ``(guild_id >> 22) % shard_count`` (Discord's own
rule; tables outside a server belong to shard 0). A process runs the clock, the feeds and the
gateway connection of a shard only while it holds that shard's lease. It renews its leases
every ``heartbeat`` seconds; a lease not renewed for ``ttl`` seconds expires, and the process
next given that shard takes it and the shard's tables over from the store. A process that
cannot renew (the database is out of reach) stops running the shard before its lease can
expire, and retries with a growing pause.

The owner written with a lease names the process: its host, process id and, on Linux, the
machine's boot, its process namespace and the process's start time. A process that finds a
lease of a process it can prove dead (same host, boot and namespace, and no process with that
id and start time any more: a crash, ``kill -9``, then a restart) takes it at once instead of
waiting for its expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.store import DatabaseUnavailable, Store
from bot.store.leases import LeaseConflict, LeaseRepo, LeaseRow

__all__ = ["DEFAULT_TTL", "ProcessId", "ShardLeases", "new_owner", "shard_of"]

log = logging.getLogger(__name__)

DEFAULT_TTL = 30.0  # seconds a lease lasts without renewal
RETRY_FIRST = 0.25  # seconds before the first retry of a failed renewal (then doubling)

#: Told what changed after a heartbeat: the shards gained, the shards lost.
OnChange = Callable[[frozenset[int], frozenset[int]], Awaitable[object]]


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of a server (Discord's rule); tables outside a server are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def _clock() -> float:
    """Seconds that keep running while the process is stopped or the machine sleeps."""
    return (
        time.clock_gettime(time.CLOCK_BOOTTIME)
        if hasattr(time, "CLOCK_BOOTTIME")
        else (time.monotonic())
    )


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _start_ticks(pid: int) -> str:
    """When process ``pid`` started (clock ticks after boot), "" if there is no such process."""
    stat = _read(f"/proc/{pid}/stat")
    fields = stat.rpartition(")")[2].split()  # after "pid (command name)"
    return fields[19] if len(fields) > 19 else ""


def _namespace() -> str:
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return ""


@dataclass(frozen=True, slots=True)
class ProcessId:
    """A process as a lease names it: ``host:pid:token:boot:namespace:start``."""

    host: str
    pid: int
    token: str
    boot: str = ""  # the kernel's boot id (Linux)
    namespace: str = ""  # the process id namespace (a container has its own)
    start: str = ""  # the process's start time in clock ticks after boot

    @classmethod
    def mine(cls) -> ProcessId:
        pid = os.getpid()
        return cls(
            socket.gethostname().replace(":", "_"),
            pid,
            secrets.token_hex(4),
            _read("/proc/sys/kernel/random/boot_id"),
            _namespace(),
            _start_ticks(pid),
        )

    @classmethod
    def parse(cls, owner: str) -> ProcessId | None:
        parts = owner.split(":")
        if len(parts) != 6 or not parts[1].isdigit():
            return None
        host, pid, token, boot, namespace, start = parts
        return cls(host, int(pid), token, boot, namespace, start)

    def __str__(self) -> str:
        return ":".join(
            (self.host, str(self.pid), self.token, self.boot, self.namespace, self.start)
        )

    def proves_dead(self, other: ProcessId) -> bool:
        """Whether this process can see that ``other`` has ended: it ran on this machine since
        its last boot, in this process namespace, and no process has its id and start time."""
        here = (self.host, self.boot, self.namespace)
        if not all(here) or not other.start or (other.host, other.boot, other.namespace) != here:
            return False
        if (other.pid, other.start) == (self.pid, self.start):
            return False  # this very process
        return _start_ticks(other.pid) != other.start


def new_owner() -> str:
    """A name for this process that no other process, here or elsewhere, will take."""
    return str(ProcessId.mine())


class ShardLeases:
    """The shards this process runs, by lease: ``owns(guild_id)`` for the table service."""

    def __init__(
        self,
        store: Store,
        *,
        shard_count: int,
        shard_ids: Iterable[int],
        ttl: float = DEFAULT_TTL,
        heartbeat: float | None = None,
        owner: str | None = None,
        on_change: OnChange | None = None,
    ) -> None:
        """``heartbeat`` defaults to a third of ``ttl``; ``on_change(gained, lost)`` is awaited
        after a heartbeat that gained or lost shards."""
        if ttl <= 0:
            raise ValueError("a lease must last some time")
        self.repo = LeaseRepo(store.driver)
        self.shard_count = shard_count
        self.shard_ids = tuple(sorted(set(shard_ids)))
        if any(not 0 <= s < shard_count for s in self.shard_ids):
            raise ValueError(f"shard ids {self.shard_ids} out of range for {shard_count} shards")
        self.ttl = ttl
        self.heartbeat = ttl / 3 if heartbeat is None else heartbeat
        self.owner = owner or new_owner()
        self.on_change = on_change
        self.held: set[int] = set()
        self.epochs: dict[int, int] = {}
        self._valid_until: dict[int, float] = {}  # _clock() time a held lease surely lasts to
        self._conflict: str | None = None
        self._failures = 0  # heartbeats in a row that could not reach the database
        self._task: asyncio.Task[None] | None = None
        me = ProcessId.parse(self.owner)
        self._me = me if me is not None else ProcessId.mine()

    # -- asking --------------------------------------------------------------------------

    def shard(self, guild_id: int | None) -> int:
        return shard_of(guild_id, self.shard_count)

    def holds(self, shard: int) -> bool:
        """Whether this process surely holds ``shard``'s lease now: taken, and renewed recently
        enough that it cannot have expired (even after the process was paused)."""
        return shard in self.held and _clock() < self._valid_until.get(shard, 0.0)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the tables of that server now."""
        return self.holds(shard_of(guild_id, self.shard_count))

    @property
    def waiting(self) -> tuple[int, ...]:
        """The shards this process is given but does not hold (another process's lease)."""
        return tuple(s for s in self.shard_ids if s not in self.held)

    # -- the heartbeat --------------------------------------------------------------------

    async def _claim(self, shard: int) -> LeaseRow | None:
        """Claim or renew one lease (taking it from a predecessor proven dead)."""
        timeout = max(self.ttl / 3, 0.5)
        claim = self.repo.claim(shard, self.shard_count, self.owner, self.ttl)
        row = await asyncio.wait_for(claim, timeout=timeout)
        if row is not None:
            return row
        current = await asyncio.wait_for(self.repo.get(shard), timeout=timeout)
        holder = ProcessId.parse(current.owner) if current is not None else None
        if current is None or holder is None or not self._me.proves_dead(holder):
            return None
        row = await asyncio.wait_for(
            self.repo.claim(shard, self.shard_count, self.owner, self.ttl, replacing=current.owner),
            timeout=timeout,
        )
        if row is not None:
            log.info(
                "shard %s: the lease of %s, a process of this machine that has ended, is"
                " taken at once",
                shard,
                current.owner,
            )
        return row

    async def confirm(self, guild_id: int | None) -> bool:
        """Whether this process holds that server's lease, renewed in the store now if it can no
        longer prove it (a late heartbeat). What was skipped meanwhile is still loaded again at
        the heartbeat's next renewal."""
        shard = self.shard(guild_id)
        if self.holds(shard):
            return True
        if shard not in self.held:
            return False
        try:
            return await self._claim(shard) is not None
        except Exception:
            return False

    async def refresh(self) -> tuple[frozenset[int], frozenset[int]]:
        """Claim or renew every lease once; returns the shards gained and the shards lost.

        While the database is out of reach the shards are kept as long as their leases surely
        last; the first failure ends the round (the other shards would fail the same way)."""
        gained: set[int] = set()
        lost: set[int] = set()
        failed: BaseException | None = None
        for shard in self.shard_ids:
            if failed is not None:
                if shard in self.held and not self.holds(shard):
                    lost.add(shard)
                continue
            started = _clock()
            try:
                row = await self._claim(shard)
            except LeaseConflict as exc:
                if self._conflict != str(exc):
                    log.error("shard %s not taken: %s", shard, exc)
                    self._conflict = str(exc)
                row = None
            except Exception as exc:
                failed = exc
                if shard in self.held and not self.holds(shard):
                    lost.add(shard)
                continue
            if row is not None:
                lapsed = shard in self.held and not self.holds(shard)
                # The lease runs ttl from a moment after ``started``: this end is safe.
                self._valid_until[shard] = started + self.ttl * 0.9
                if shard not in self.held:
                    gained.add(shard)
                    log.info("shard %s: lease taken by %s (epoch %s)", shard, self.owner, row.epoch)
                elif lapsed:  # what was skipped while it could not be proven is loaded again
                    gained.add(shard)
                    log.info("shard %s: lease renewed after it lapsed unproven", shard)
                self.epochs[shard] = row.epoch
            elif shard in self.held:
                lost.add(shard)
        self._note(failed)
        self.held |= gained
        self.held -= lost
        for shard in lost:
            log.warning("shard %s: lease lost; its tables are left to the next holder", shard)
        return frozenset(gained), frozenset(lost)

    def _note(self, failed: BaseException | None) -> None:
        """Count the rounds that failed; say once when renewals start and stop failing (an
        unreachable database is said by the store itself)."""
        if failed is None:
            if self._failures:
                log.info("shard leases: renewed again after %d failed round(s)", self._failures)
            self._failures = 0
            return
        self._failures += 1
        if self._failures == 1 and not isinstance(failed, DatabaseUnavailable):
            log.warning("shard leases not renewed (%r); retrying with a growing pause", failed)

    def start(self) -> None:
        """Renew the leases (and try for the missing ones) every ``heartbeat`` seconds."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="shard-leases")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._next_wait())
            try:
                gained, lost = await self.refresh()
                if (gained or lost) and self.on_change is not None:
                    await self.on_change(gained, lost)
            except Exception:
                log.exception("shard leases: heartbeat failed")

    def _next_wait(self) -> float:
        """The heartbeat; after failed renewals a pause that doubles from ``RETRY_FIRST`` up to
        the heartbeat (with some jitter); never past the moment a held lease could lapse."""
        wait = self.heartbeat
        if self._failures:
            wait = min(wait, RETRY_FIRST * 2 ** min(self._failures - 1, 30))
            wait *= 1 + random.random() / 4
        now = _clock()
        for shard in self.held:
            until = self._valid_until[shard] - now
            wait = min(wait, max(0.0, until if self._failures else until / 2))
        return wait

    async def stop(self, *, release: bool = True) -> None:
        """Stop the heartbeat; ``release`` gives the leases up at once (a clean stop)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        held, self.held = sorted(self.held), set()
        if release and held:
            try:
                await self.repo.release(self.owner, held)
            except Exception as exc:
                log.warning(
                    "shard leases %s not released (they expire by themselves): %r", held, exc
                )
