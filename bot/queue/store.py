"""The quick match's rows (migrations 0950, 0951): places in the queue, the tables it opened, the
notes owed to people whose place expired, the servers' "Play now" posts.

``QueueRepo(store.db)`` runs each statement alone, ``QueueRepo(tx.db)`` inside a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.store.connection import POSTGRES, Db, Row

__all__ = [
    "EXPIRED", "KEPT", "LOST", "EntryRow", "ExpiredRow", "PostRow", "QueueRepo", "QueueTableRow",
]

_LOCK_SPACE = 0x515545  # PostgreSQL advisory locks of the queue's scopes ("QUE")
_ENTRY = (
    "user_id, scope, guild_id, channel_id, variant, name, computers, locale, joined_at,"
    " fill_at, expires_at"
)


def _fold(value: int) -> int:
    """A scope as a signed 32-bit lock key (two scopes may share one: they wait in turn)."""
    return (value ^ (value >> 31) ^ (value >> 62)) & 0x7FFFFFFF


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One person's place in the queue."""

    user_id: int
    scope: int
    guild_id: int
    channel_id: int  # where his table opens if he anchors it
    variant: str  # a preset's id or "any"
    name: str  # his name at the table
    computers: bool  # computers may fill his table
    locale: str | None
    joined_at: float
    fill_at: float
    expires_at: float

    def due(self) -> float:
        """When the clock has something to do for him next (the computers' fill, the expiry)."""
        return min(self.fill_at, self.expires_at) if self.computers else self.expires_at


#: Why a note is owed (``ExpiredRow.reason``): the place expired; the table could not open and
#: the place was given back; it could not open in the channel the person queued in, so the place
#: was given up.
EXPIRED, KEPT, LOST = "expired", "kept", "lost"


@dataclass(frozen=True, slots=True)
class ExpiredRow:
    """A note owed to a person about his place: it expired, or his table could not open."""

    user_id: int
    guild_id: int
    variant: str
    locale: str | None
    expired_at: float
    reason: str = EXPIRED
    channel_id: int | None = None  # where the bot may not post (LOST)


@dataclass(frozen=True, slots=True)
class QueueTableRow:
    """A table the queue opened: whom it seated, whether its thread was told."""

    table_id: int
    guild_id: int
    people: tuple[int, ...]
    waited: float
    announced: bool


@dataclass(frozen=True, slots=True)
class PostRow:
    """A server's "Play now" post."""

    guild_id: int
    channel_id: int
    message_id: int | None
    locale: str | None


def _entry_json(entry: EntryRow) -> dict[str, object]:
    return {
        "user_id": entry.user_id, "scope": entry.scope, "guild_id": entry.guild_id,
        "channel_id": entry.channel_id, "variant": entry.variant, "name": entry.name,
        "computers": entry.computers, "locale": entry.locale, "joined_at": entry.joined_at,
        "fill_at": entry.fill_at, "expires_at": entry.expires_at,
    }


def _entry(row: Row | dict[str, object]) -> EntryRow:
    return EntryRow(
        user_id=int(row["user_id"]),
        scope=int(row["scope"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        variant=row["variant"],
        name=row["name"],
        computers=bool(row["computers"]),
        locale=row["locale"],
        joined_at=float(row["joined_at"]),
        fill_at=float(row["fill_at"]),
        expires_at=float(row["expires_at"]),
    )


class QueueRepo:
    """Every statement of the quick match."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def lock(self, scope: int) -> None:
        """Inside a transaction: one matcher of ``scope`` at a time, until it ends (SQLite: a
        transaction already lets one writer in at a time)."""
        if self._db.dialect == POSTGRES:
            await self._db.execute(
                "SELECT pg_advisory_xact_lock(?, ?)", (_LOCK_SPACE, _fold(scope))
            )

    # -- places ----------------------------------------------------------------------------

    async def add(self, entry: EntryRow) -> None:
        """Store a place (IntegrityError: the person has one already)."""
        await self._db.execute(
            f"INSERT INTO queue_entries ({_ENTRY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.user_id, entry.scope, entry.guild_id, entry.channel_id, entry.variant,
                entry.name, int(entry.computers), entry.locale, entry.joined_at, entry.fill_at,
                entry.expires_at,
            ),
        )

    async def add_if_free(self, entry: EntryRow) -> bool:
        """Store a place unless the person has one already (False)."""
        return bool(await self._db.execute(
            f"INSERT INTO queue_entries ({_ENTRY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO NOTHING",
            (
                entry.user_id, entry.scope, entry.guild_id, entry.channel_id, entry.variant,
                entry.name, int(entry.computers), entry.locale, entry.joined_at, entry.fill_at,
                entry.expires_at,
            ),
        ))

    async def get(self, user_id: int) -> EntryRow | None:
        row = await self._db.fetchone(
            f"SELECT {_ENTRY} FROM queue_entries WHERE user_id = ?", (user_id,)
        )
        return None if row is None else _entry(row)

    async def remove(self, user_id: int) -> bool:
        """Drop his place; False if he had none."""
        return bool(await self._db.execute(
            "DELETE FROM queue_entries WHERE user_id = ?", (user_id,)
        ))

    async def of_scope(self, scope: int) -> list[EntryRow]:
        rows = await self._db.fetchall(
            f"SELECT {_ENTRY} FROM queue_entries WHERE scope = ? ORDER BY joined_at, user_id",
            (scope,),
        )
        return [_entry(r) for r in rows]

    async def counts(self, guild_id: int) -> dict[str, int]:
        """The people waiting on a server, per variant asked for."""
        rows = await self._db.fetchall(
            "SELECT variant, count(*) AS n FROM queue_entries WHERE guild_id = ? GROUP BY variant",
            (guild_id,),
        )
        return {r["variant"]: int(r["n"]) for r in rows}

    async def count_scope(self, scope: int) -> int:
        """How many wait in ``scope`` (the open pool's: every server's people in it)."""
        return int(await self._db.fetchval(
            "SELECT count(*) FROM queue_entries WHERE scope = ?", (scope,)
        ) or 0)

    async def scope_mark(self, scope: int) -> tuple[int, float]:
        """What changes whenever someone joins or leaves ``scope``: how many wait and the sum
        of their joining times."""
        row = await self._db.fetchone(
            "SELECT count(*) AS n, coalesce(sum(joined_at), 0) AS t FROM queue_entries"
            " WHERE scope = ?", (scope,),
        )
        return (0, 0.0) if row is None else (int(row["n"]), float(row["t"]))

    async def take(self, places: Sequence[tuple[int, float]]) -> int:
        """Remove these places (user id, joined at): how many were still there."""
        taken = 0
        for user_id, joined_at in places:
            taken += await self._db.execute(
                "DELETE FROM queue_entries WHERE user_id = ? AND joined_at = ?",
                (user_id, joined_at),
            )
        return taken

    async def scopes(self) -> list[tuple[int, int, float]]:
        """(scope, guild, when its clock is due next) of every scope with people waiting."""
        rows = await self._db.fetchall(
            "SELECT scope, guild_id, min(CASE WHEN computers = 1 AND fill_at < expires_at"
            " THEN fill_at ELSE expires_at END) AS due FROM queue_entries"
            " GROUP BY scope, guild_id"
        )
        return [(int(r["scope"]), int(r["guild_id"]), float(r["due"])) for r in rows]

    async def expire(self, entries: Iterable[EntryRow], now: float) -> list[ExpiredRow]:
        """Drop these places and owe each person his note (inside a transaction)."""
        out: list[ExpiredRow] = []
        for e in entries:
            if await self._db.execute(
                "DELETE FROM queue_entries WHERE user_id = ? AND joined_at = ?",
                (e.user_id, e.joined_at),
            ):
                note = ExpiredRow(e.user_id, e.guild_id, e.variant, e.locale, now)
                await self.owe(note)
                out.append(note)
        return out

    async def owe(self, note: ExpiredRow) -> None:
        """Owe a person a note (inside the transaction that changed his place)."""
        await self._db.execute(
            "INSERT INTO queue_expired (user_id, guild_id, variant, locale, expired_at, reason,"
            " channel_id) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (note.user_id, note.guild_id, note.variant, note.locale, note.expired_at,
             note.reason, note.channel_id),
        )

    async def expired(self) -> list[ExpiredRow]:
        """The notes owed."""
        rows = await self._db.fetchall(
            "SELECT user_id, guild_id, variant, locale, expired_at, reason, channel_id"
            " FROM queue_expired ORDER BY expired_at"
        )
        return [
            ExpiredRow(int(r["user_id"]), int(r["guild_id"]), r["variant"], r["locale"],
                       float(r["expired_at"]), r["reason"] or EXPIRED,
                       None if r["channel_id"] is None else int(r["channel_id"]))
            for r in rows
        ]

    async def noted(self, note: ExpiredRow) -> None:
        await self._db.execute(
            "DELETE FROM queue_expired WHERE user_id = ? AND expired_at = ?",
            (note.user_id, note.expired_at),
        )

    # -- the tables it opened --------------------------------------------------------------

    async def add_table(
        self, table_id: int, guild_id: int, people: Sequence[int], waited: float,
        places: Sequence[EntryRow] = (),
    ) -> None:
        """Store a table the queue opened, with the places it took (to give them back if it
        cannot open)."""
        await self._db.execute(
            "INSERT INTO queue_tables (table_id, guild_id, people, waited, places)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, guild_id, json.dumps(list(people)), waited,
             json.dumps([_entry_json(e) for e in places])),
        )

    async def settle_table(self, table_id: int) -> list[EntryRow] | None:
        """Inside a transaction: mark the table told; the places it took, None if it was told
        already."""
        row = await self._db.fetchone(
            "SELECT places FROM queue_tables WHERE table_id = ? AND announced = 0", (table_id,)
        )
        if row is None:
            return None
        await self.announced(table_id)
        return [_entry(e) for e in json.loads(row["places"] or "[]")]

    async def tables(self, *, unannounced: bool = False) -> list[QueueTableRow]:
        rows = await self._db.fetchall(
            "SELECT table_id, guild_id, people, waited, announced FROM queue_tables"
            + (" WHERE announced = 0" if unannounced else "")
            + " ORDER BY table_id"
        )
        return [
            QueueTableRow(int(r["table_id"]), int(r["guild_id"]),
                          tuple(int(p) for p in json.loads(r["people"])), float(r["waited"]),
                          bool(r["announced"]))
            for r in rows
        ]

    async def table(self, table_id: int) -> QueueTableRow | None:
        found = [t for t in await self.tables() if t.table_id == table_id]
        return found[0] if found else None

    async def announced(self, table_id: int) -> None:
        await self._db.execute(
            "UPDATE queue_tables SET announced = 1 WHERE table_id = ?", (table_id,)
        )

    # -- the "Play now" posts --------------------------------------------------------------

    async def set_post(
        self, guild_id: int, channel_id: int, message_id: int | None, locale: str | None,
        now: float,
    ) -> None:
        await self._db.execute(
            "INSERT INTO queue_posts (guild_id, channel_id, message_id, locale, posted_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " locale = excluded.locale, posted_at = excluded.posted_at",
            (guild_id, channel_id, message_id, locale, now),
        )

    async def post(self, guild_id: int) -> PostRow | None:
        row = await self._db.fetchone(
            "SELECT guild_id, channel_id, message_id, locale FROM queue_posts WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return None
        message = row["message_id"]
        return PostRow(int(row["guild_id"]), int(row["channel_id"]),
                       None if message is None else int(message), row["locale"])

    async def posts(self) -> list[PostRow]:
        """Every server's "Play now" post."""
        rows = await self._db.fetchall(
            "SELECT guild_id, channel_id, message_id, locale FROM queue_posts"
            " WHERE message_id IS NOT NULL ORDER BY guild_id"
        )
        return [PostRow(int(r["guild_id"]), int(r["channel_id"]), int(r["message_id"]),
                        r["locale"]) for r in rows]

    async def drop_post(self, guild_id: int) -> None:
        await self._db.execute("DELETE FROM queue_posts WHERE guild_id = ?", (guild_id,))

    # -- forget-me -------------------------------------------------------------------------

    async def forget(self, user_id: int) -> None:
        """Drop the person's place, the notes owed him and his id and place from the tables
        it opened."""
        await self._db.execute("DELETE FROM queue_entries WHERE user_id = ?", (user_id,))
        await self._db.execute("DELETE FROM queue_expired WHERE user_id = ?", (user_id,))
        rows = await self._db.fetchall(
            "SELECT table_id, people, places FROM queue_tables WHERE people LIKE ?",
            (f"%{user_id}%",),
        )
        for row in rows:
            people = [int(p) for p in json.loads(row["people"])]
            if user_id in people:
                places = [e for e in json.loads(row["places"] or "[]") if e["user_id"] != user_id]
                await self._db.execute(
                    "UPDATE queue_tables SET people = ?, places = ? WHERE table_id = ?",
                    (json.dumps([p for p in people if p != user_id]), json.dumps(places),
                     row["table_id"]),
                )
