"""Inactivity: a rating grows uncertain with each idle week, and idle players leave the boards.

Our decision, after openskill's own dynamics factor (tau, added to sigma² before each match):
each full week without a rated match of a family adds ``(start sigma / 4)²`` to sigma², and
sigma never grows past its start value (25/3). So a settled player (sigma about 2) who stops
for 16 weeks is as uncertain as a newcomer again; his boards' figure, the ordinal
(mu − 3·sigma), sinks meanwhile, and his next match moves his rating more. The stored rating
stays what his last match made it: the idle weeks are counted from it, at his next match and
by :meth:`Inactivity.sweep` for the boards.

A player who has not played on a server for longer than its idle weeks (``/domino
server-settings idle_weeks``, default :data:`DEFAULT_IDLE_WEEKS`; the global boards use the
default) is left off that server's boards until he plays there again; the boards say how many
are left off.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from bot.records.inactivity_store import InactivityRepo
from bot.records.rating import ordinal
from bot.records.store import RecordsRepo
from bot.store import Store
from bot.store.connection import Db

__all__ = [
    "DEFAULT_IDLE_WEEKS",
    "WEEK",
    "Inactivity",
    "decayed_sigma",
    "idle_weeks",
]

WEEK = 7 * 24 * 3600.0
DEFAULT_IDLE_WEEKS = 4
START_SIGMA = 25.0 / 3.0  # openskill's default sigma
BATCH = 500


def idle_weeks(last: float, now: float) -> int:
    """Full weeks from ``last`` to ``now``."""
    return max(0, math.floor((now - last) / WEEK))


def decayed_sigma(sigma: float, weeks: int, start: float = START_SIGMA) -> float:
    """``sigma`` after ``weeks`` idle weeks: each adds (start/4)² to sigma², up to ``start``
    (a sigma already above it stays)."""
    if weeks <= 0:
        return sigma
    grown = math.sqrt(sigma * sigma + weeks * (start / 4.0) ** 2)
    return max(sigma, min(start, grown))


class Inactivity:
    """Applies inactivity to ratings and boards."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        start_sigma: float = START_SIGMA,
    ) -> None:
        self.store = store
        self.clock = clock
        self.start_sigma = start_sigma

    @property
    def repo(self) -> InactivityRepo:
        return InactivityRepo(self.store.db)

    async def idle_weeks_of(self, guild_id: int) -> int:
        """The server's number of idle weeks before a player leaves its boards."""
        return (await self.repo.idle_weeks()).get(guild_id, DEFAULT_IDLE_WEEKS)

    async def set_idle_weeks(self, guild_id: int, weeks: int | None) -> None:
        """Choose the server's idle weeks (None: the default) and apply it to its boards."""
        async with self.store.transaction() as tx:
            await InactivityRepo(tx.db).set_idle_weeks(guild_id, weeks)
        cutoff = self.clock() - WEEK * (DEFAULT_IDLE_WEEKS if weeks is None else weeks)
        async with self.store.transaction() as tx:
            await RecordsRepo(tx.db).lock()
            await InactivityRepo(tx.db).hide_idle(cutoff, [guild_id], others=False)

    async def idle_count(self, scope: int, bucket: str, by: str) -> int:
        return await self.repo.idle_count(scope, bucket, by)

    async def sweep(self) -> int:
        """Bring every board up to date with inactivity; returns how many ratings changed on
        them. Idempotent: run it as often as you like."""
        now = self.clock()
        custom = await self.repo.idle_weeks()
        async with self.store.transaction() as tx:
            await RecordsRepo(tx.db).lock()
            repo = InactivityRepo(tx.db)
            for guild_id, weeks in custom.items():
                await repo.hide_idle(now - weeks * WEEK, [guild_id], others=False)
            await repo.hide_idle(now - DEFAULT_IDLE_WEEKS * WEEK, list(custom), others=True)
        changed = 0
        after: tuple[int, str] = (0, "")
        while True:
            rows = await self.repo.idle_ratings(now - WEEK, after=after, limit=BATCH)
            if not rows:
                return changed
            async with self.store.transaction() as tx:
                await RecordsRepo(tx.db).lock()
                repo = InactivityRepo(tx.db)
                for player_id, family, mu, sigma, updated_at, weeks_then, decay_at in rows:
                    weeks = idle_weeks(updated_at, now)
                    if weeks == weeks_then and decay_at == updated_at:
                        continue
                    shown = ordinal(mu, decayed_sigma(sigma, weeks, self.start_sigma))
                    await repo.decayed(player_id, family, updated_at, weeks, shown)
                    changed += 1
            after = (rows[-1][0], rows[-1][1])

    async def priors(
        self, db: Db, priors: dict[int, tuple[float, float]], family: str, now: float
    ) -> dict[int, tuple[float, float]]:
        """``priors`` with each sigma grown by its idle weeks (inside the recording
        transaction, ``db`` its statement runner)."""
        last = await InactivityRepo(db).last_rated(priors, family)
        return {
            pid: (mu, decayed_sigma(sigma, idle_weeks(last.get(pid, now), now), self.start_sigma))
            for pid, (mu, sigma) in priors.items()
        }


