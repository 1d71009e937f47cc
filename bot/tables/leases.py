"""Which shards' tables this process runs: a lease per shard in the store, kept on a heartbeat.

A table belongs to the shard of its server, ``(guild_id >> 22) % shard_count`` (Discord's own
rule; tables outside a server belong to shard 0). A process runs the clock and the feeds of a
shard's tables only while it holds that shard's lease. It renews its leases every
``heartbeat`` seconds; a lease not renewed for ``ttl`` seconds expires, and the process next
given that shard takes it and the shard's tables over from the store. A process that cannot
renew (the database is out of reach) stops running the shard before its lease can expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable

from bot.store import Store
from bot.store.leases import LeaseConflict, LeaseRepo

__all__ = ["DEFAULT_TTL", "ShardLeases", "shard_of"]

log = logging.getLogger(__name__)

DEFAULT_TTL = 30.0  # seconds a lease lasts without renewal

#: Told what changed after a heartbeat: the shards gained, the shards lost.
OnChange = Callable[[frozenset[int], frozenset[int]], Awaitable[object]]


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of a server (Discord's rule); tables outside a server are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def new_owner() -> str:
    """A name for this process that no other process, here or elsewhere, will take."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


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
        self._valid_until: dict[int, float] = {}  # monotonic time a held lease surely lasts to
        self._conflict: str | None = None
        self._task: asyncio.Task[None] | None = None

    # -- asking --------------------------------------------------------------------------

    def shard(self, guild_id: int | None) -> int:
        return shard_of(guild_id, self.shard_count)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the tables of that server now."""
        return shard_of(guild_id, self.shard_count) in self.held

    @property
    def waiting(self) -> tuple[int, ...]:
        """The shards this process is given but does not hold (another process's lease)."""
        return tuple(s for s in self.shard_ids if s not in self.held)

    # -- the heartbeat --------------------------------------------------------------------

    async def refresh(self) -> tuple[frozenset[int], frozenset[int]]:
        """Claim or renew every lease once; returns the shards gained and the shards lost."""
        gained: set[int] = set()
        lost: set[int] = set()
        for shard in self.shard_ids:
            started = time.monotonic()
            try:
                row = await asyncio.wait_for(
                    self.repo.claim(shard, self.shard_count, self.owner, self.ttl),
                    timeout=max(self.ttl / 3, 0.5),
                )
            except LeaseConflict as exc:
                if self._conflict != str(exc):
                    log.error("shard %s not taken: %s", shard, exc)
                    self._conflict = str(exc)
                row = None
            except Exception as exc:
                # The database is out of reach: keep the shard while its lease surely lasts.
                log.warning("shard %s: lease not renewed: %r", shard, exc)
                if shard in self.held and time.monotonic() >= self._valid_until[shard]:
                    lost.add(shard)
                continue
            if row is not None:
                # The lease runs ttl from a moment after ``started``: this end is safe.
                self._valid_until[shard] = started + self.ttl * 0.9
                if shard not in self.held:
                    gained.add(shard)
                    log.info("shard %s: lease taken by %s (epoch %s)", shard, self.owner, row.epoch)
                self.epochs[shard] = row.epoch
            elif shard in self.held:
                lost.add(shard)
        self.held |= gained
        self.held -= lost
        for shard in lost:
            log.warning("shard %s: lease lost; its tables are left to the next holder", shard)
        return frozenset(gained), frozenset(lost)

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
        """The heartbeat, shortened so a held lease is renewed before it could lapse."""
        wait = self.heartbeat
        now = time.monotonic()
        for shard in self.held:
            wait = min(wait, max(0.0, (self._valid_until[shard] - now) / 2))
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
