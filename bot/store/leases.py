"""Shard leases: which process runs each shard's tables (table ``shard_leases``).

A lease is claimed and renewed in one statement that succeeds only for its owner or once the
lease has expired, so two processes never hold a shard at once. Expiry is measured by the
database's clock: processes on several machines need not agree on the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.connection import POSTGRES, SQLITE, Driver, Row

__all__ = ["LeaseConflict", "LeaseRepo", "LeaseRow"]

_NOW = {
    POSTGRES: "extract(epoch FROM clock_timestamp())::double precision",
    SQLITE: "((julianday('now') - 2440587.5) * 86400.0)",
}
_COLUMNS = "shard_id, shard_count, owner, epoch, acquired_at, expires_at"


class LeaseConflict(RuntimeError):
    """A live lease of another process was taken with a different ``SHARD_COUNT``."""


@dataclass(frozen=True, slots=True)
class LeaseRow:
    """One shard's lease; ``epoch`` grows by one at every change of owner."""

    shard_id: int
    shard_count: int
    owner: str
    epoch: int
    acquired_at: float
    expires_at: float


def _lease(row: Row) -> LeaseRow:
    return LeaseRow(
        int(row["shard_id"]),
        int(row["shard_count"]),
        str(row["owner"]),
        int(row["epoch"]),
        float(row["acquired_at"]),
        float(row["expires_at"]),
    )


class LeaseRepo:
    """Claim, renew, release and list shard leases (each call is one transaction)."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._now = _NOW[driver.dialect]

    async def now(self) -> float:
        """The database's clock (Unix seconds)."""
        return float(await self._driver.db.fetchval(f"SELECT {self._now}"))

    async def claim(
        self, shard_id: int, shard_count: int, owner: str, ttl: float, *, replacing: str = ""
    ) -> LeaseRow | None:
        """Take or renew the lease of ``shard_id`` for ``ttl`` seconds; None while another
        owner's lease is live, unless that owner is ``replacing`` (a process known to be dead).
        Raises :class:`LeaseConflict` if a live lease of another owner counts the shards
        differently."""
        now = self._now
        async with self._driver.transaction() as db:
            clash = await db.fetchone(
                f"SELECT {_COLUMNS} FROM shard_leases WHERE owner <> ? AND owner <> ?"
                f" AND shard_count <> ? AND expires_at > {now} ORDER BY shard_id LIMIT 1",
                (owner, replacing, shard_count),
            )
            if clash is not None:
                other = _lease(clash)
                raise LeaseConflict(
                    f"shard {other.shard_id} is held by {other.owner} with SHARD_COUNT"
                    f" {other.shard_count}, not {shard_count}: every process must use the same"
                    " SHARD_COUNT (stop them all to change it)"
                )
            row = await db.fetchone(
                "INSERT INTO shard_leases AS l (shard_id, shard_count, owner, acquired_at,"
                f" expires_at) VALUES (?, ?, ?, {now}, {now} + ?)"
                " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count,"
                " epoch = CASE WHEN l.owner = excluded.owner THEN l.epoch ELSE l.epoch + 1 END,"
                " acquired_at = CASE WHEN l.owner = excluded.owner THEN l.acquired_at"
                " ELSE excluded.acquired_at END,"
                " owner = excluded.owner, expires_at = excluded.expires_at"
                " WHERE l.owner = excluded.owner OR l.expires_at <= excluded.acquired_at"
                " OR (l.owner = ? AND l.owner <> '')"
                f" RETURNING {_COLUMNS}",
                (shard_id, shard_count, owner, float(ttl), replacing),
            )
        return None if row is None else _lease(row)

    async def release(self, owner: str, shard_ids: Iterable[int]) -> None:
        """Give up leases at once (a clean stop): the next process need not wait for expiry."""
        ids = list(shard_ids)
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        async with self._driver.transaction() as db:
            await db.execute(
                f"UPDATE shard_leases SET expires_at = {self._now} - 1"
                f" WHERE owner = ? AND shard_id IN ({marks})",
                (owner, *ids),
            )

    async def get(self, shard_id: int) -> LeaseRow | None:
        """The lease of one shard, if it was ever taken."""
        row = await self._driver.db.fetchone(
            f"SELECT {_COLUMNS} FROM shard_leases WHERE shard_id = ?", (shard_id,)
        )
        return None if row is None else _lease(row)

    async def list(self) -> list[LeaseRow]:
        """Every lease ever taken, by shard."""
        rows = await self._driver.db.fetchall(
            f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id"
        )
        return [_lease(r) for r in rows]
