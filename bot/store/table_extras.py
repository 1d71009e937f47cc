"""Repositories of per-server settings, rematch offers and practice tables (migration 0300).

Used like the records' repository: ``GuildSettingsRepo(store.db)`` runs each statement alone,
``GuildSettingsRepo(tx.db)`` inside a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.connection import Db
from bot.store.repositories import SeatRepo, SeatRow

__all__ = [
    "DailyVeil",
    "FinishedMatch",
    "FinishedRepo",
    "GuildSettings",
    "GuildSettingsRepo",
    "PracticeRepo",
    "Readable",
    "RematchRepo",
    "RematchRow",
]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """What a server chose for its tables (None: the bot's default, or no restriction)."""

    guild_id: int
    variant: str | None = None
    target: int | None = None
    turn_timer: int | None = None
    host_role: int | None = None
    channels: tuple[int, ...] | None = None  # where tables may be opened (None: anywhere)
    lobbies_per_member: int | None = None  # limits on top of the bot's (None: the bot's)
    matches_per_member: int | None = None
    open_tables: int | None = None
    cooldown: int | None = None  # seconds between two tables opened by one member
    web: bool | None = None  # its pages on the web companion (None: off, the default)
    web_name: str | None = None  # the server's name when its settings were last saved
    ping_delay: int | None = None  # seconds idle on a turn before a ping (None: default, 0: off)
    board_minimum: int | None = None  # matches before a person is on a rating board (None: 5)
    queue_expiry: int | None = None  # seconds a quick-match place is kept (None: 15 min)
    queue_computers_after: int | None = None  # seconds before computers fill (None: 60)
    timeout_loss: int | None = None  # correspondence: lost at this time-out in a row (None: off)

    def allows_channel(self, *channel_ids: int | None) -> bool:
        """True if tables may be opened here (a thread counts as its parent channel)."""
        if not self.channels:
            return True
        return any(c in self.channels for c in channel_ids if c is not None)


_LIMITS = ("lobbies_per_member", "matches_per_member", "open_tables", "cooldown")
_WEB = ("web", "web_name")
_SETTINGS = (
    "variant", "target", "turn_timer", "host_role", "channels", *_LIMITS, *_WEB, "ping_delay",
    "board_minimum",
    "timeout_loss",
)
_SETTINGS += ("queue_expiry", "queue_computers_after")


class GuildSettingsRepo:
    """Per-server settings."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def get(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetchone(
            f"SELECT {', '.join(_SETTINGS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id)
        channels = json.loads(row["channels"]) if row["channels"] else None
        return GuildSettings(
            guild_id,
            variant=row["variant"],
            target=row["target"],
            turn_timer=row["turn_timer"],
            host_role=row["host_role"],
            channels=tuple(int(c) for c in channels) if channels else None,
            **{k: row[k] for k in _LIMITS},
            web=None if row["web"] is None else bool(row["web"]),
            web_name=row["web_name"],
            ping_delay=row["ping_delay"],
            board_minimum=row["board_minimum"],
            queue_expiry=row["queue_expiry"],
            queue_computers_after=row["queue_computers_after"],
            timeout_loss=row["timeout_loss"],
        )

    async def put(self, settings: GuildSettings, *, now: float) -> None:
        channels = json.dumps(list(settings.channels)) if settings.channels else None
        values = [getattr(settings, k) for k in _SETTINGS if k != "channels"]
        values = [int(v) if isinstance(v, bool) else v for v in values]
        columns = [k for k in _SETTINGS if k != "channels"]
        updates = ", ".join(f"{c} = excluded.{c}" for c in (*columns, "channels", "updated_at"))
        marks = ", ".join("?" for _ in range(len(columns) + 3))
        await self._db.execute(
            f"INSERT INTO guild_settings (guild_id, {', '.join(columns)}, channels, updated_at)"
            f" VALUES ({marks}) ON CONFLICT (guild_id) DO UPDATE SET {updates}",
            (settings.guild_id, *values, channels, now),
        )

    async def drop(self, guild_id: int) -> None:
        await self._db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))


@dataclass(frozen=True, slots=True)
class RematchRow:
    """The rematch offered at a finished table."""

    table_id: int
    message_id: int | None
    started_id: int | None
    closed: bool
    accepted: frozenset[int]


class RematchRepo:
    """Rematch offers and who accepted them."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def get(self, table_id: int) -> RematchRow | None:
        row = await self._db.fetchone(
            "SELECT message_id, started_id, closed FROM rematches WHERE table_id = ?",
            (table_id,),
        )
        if row is None:
            return None
        votes = await self._db.fetchall(
            "SELECT user_id FROM rematch_votes WHERE table_id = ?", (table_id,)
        )
        return RematchRow(
            table_id,
            row["message_id"],
            row["started_id"],
            bool(row["closed"]),
            frozenset(int(v[0]) for v in votes),
        )

    async def offer(self, table_id: int, message_id: int | None) -> None:
        """Record the offer (and the message carrying its button); an existing one keeps."""
        await self._db.execute(
            "INSERT INTO rematches (table_id, message_id) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id",
            (table_id, message_id),
        )

    async def accept(self, table_id: int, user_id: int) -> None:
        await self._db.execute(
            "INSERT INTO rematch_votes (table_id, user_id) VALUES (?, ?)"
            " ON CONFLICT (table_id, user_id) DO NOTHING",
            (table_id, user_id),
        )

    async def close(self, table_id: int, started_id: int | None = None) -> None:
        """Close the offer (with the table it started, if any) and forget who accepted."""
        await self._db.execute(
            "UPDATE rematches SET closed = 1, started_id = ? WHERE table_id = ?",
            (started_id, table_id),
        )
        await self._db.execute("DELETE FROM rematch_votes WHERE table_id = ?", (table_id,))


class PracticeRepo:
    """Tables opened for practice."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def add(self, table_id: int) -> None:
        await self._db.execute(
            "INSERT INTO practice_tables (table_id) VALUES (?) ON CONFLICT (table_id) DO NOTHING",
            (table_id,),
        )

    async def among(self, table_ids: Iterable[int]) -> set[int]:
        """Which of ``table_ids`` are practice tables."""
        ids = sorted(set(table_ids))
        if not ids:
            return set()
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT table_id FROM practice_tables WHERE table_id IN ({marks})", tuple(ids)
        )
        return {int(r[0]) for r in rows}


@dataclass(frozen=True, slots=True)
class Readable:
    """The channels of one server a member can view now: where someone else's finished match
    may be shown to him. ``channels`` he can view (threads known open included),
    ``private_threads_of`` those whose private threads he can view too."""

    guild_id: int
    channels: frozenset[int]
    private_threads_of: frozenset[int] = frozenset()
    everyone: bool = False  # anyone: only places the server's @everyone could view

    @classmethod
    def public(cls, guild_id: int) -> Readable:
        """What anyone may see of the server (the web pages): matches of the places its
        @everyone role could view when they were opened."""
        return cls(guild_id, frozenset(), everyone=True)

    def where(self, t: str = "t") -> tuple[str, tuple[object, ...]]:
        """The condition (and its parameters) that the table aliased ``t`` was played where
        the member can view it: its channel, or its thread's channel; a private thread only
        where he sees every private thread, or when he is in it (``channels`` has it)."""
        if self.everyone:
            return f"({t}.guild_id = ? AND {t}.public_place <> 0)", (self.guild_id,)
        places = [
            (f"{t}.private_thread = 0 AND COALESCE({t}.parent_id, {t}.channel_id)", self.channels),
            (f"{t}.private_thread <> 0 AND {t}.parent_id", self.private_threads_of),
            (f"{t}.private_thread <> 0 AND {t}.channel_id", self.channels),
        ]
        parts, params = [], [self.guild_id]
        for column, ids in places:
            if ids:
                parts.append(f"({column} IN ({', '.join('?' for _ in ids)}))")
                params.extend(sorted(ids))
        if not parts:
            return "1 = 0", ()
        return f"({t}.guild_id = ? AND ({' OR '.join(parts)}))", tuple(params)

    def of_table(self, table_id: str) -> tuple[str, tuple[object, ...]]:
        """The condition (and its parameters) that the table whose id is ``table_id`` (a
        column) was played where the member can view it: a sub-select per row, which the
        planners never turn into a join reading every table of the server."""
        where, params = self.where("t")
        own = f"(SELECT {where} FROM tables t WHERE t.id = {table_id})"
        if self.everyone or not self.channels:
            return own, params
        # (a table across servers: also where it was shown in this server, one of its places)
        marks = ", ".join("?" for _ in self.channels)
        place = (
            f"EXISTS (SELECT 1 FROM table_places p WHERE p.table_id = {table_id}"
            f" AND p.guild_id = ? AND p.channel_id IN ({marks}))"
        )
        return f"({own} OR {place})", (*params, self.guild_id, *sorted(self.channels))


@dataclass(frozen=True, slots=True)
class DailyVeil:
    """The daily deal's legs hidden from ``viewer`` (whose UTC day is ``today``): those of a
    deal (day and variant) he has not finished, when it is today's or his attempt at it is
    still open. Nobody sees a deal played out before he has played it himself."""

    viewer: int
    today: str  # YYYY-MM-DD

    def where(self, table_id: str = "t.id") -> tuple[str, tuple[object, ...]]:
        """The condition (and its parameters) that the table whose id is the column
        ``table_id`` is not hidden."""
        return (
            "NOT EXISTS (SELECT 1 FROM daily_legs l WHERE l.table_id = " + table_id +
            " AND NOT EXISTS (SELECT 1 FROM daily_attempts a WHERE a.day = l.day"
            " AND a.variant = l.variant AND a.user_id = ? AND a.result IS NOT NULL)"
            " AND (l.day >= ? OR EXISTS (SELECT 1 FROM daily_attempts a WHERE a.day = l.day"
            " AND a.variant = l.variant AND a.user_id = ?)))",
            (self.viewer, self.today, self.viewer),
        )


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match someone may replay: its table, server, variant, end and seats."""

    table_id: int
    guild_id: int | None
    variant: str
    finished_at: float
    seats: tuple[SeatRow, ...]  # in seat order, with the names recorded at the table
    channel_id: int | None = None
    parent_id: int | None = None  # the channel of the thread it was played in
    private_thread: bool = False
    public_place: bool = False  # @everyone could view where it was played

    def may_share_in(self, channel_id: int | None, parent_id: int | None = None) -> bool:
        """Whether posting it for everyone in ``channel_id`` (a thread of ``parent_id``) shows
        nobody there a match they could not look at: it was played where @everyone could
        look, or in that channel's place (the channel, or a public thread, and their threads);
        a private thread's match only inside it."""
        if self.public_place:
            return True
        if channel_id is None or self.channel_id is None:
            return False
        if self.private_thread:
            return channel_id == self.channel_id
        return (self.parent_id or self.channel_id) in (channel_id, parent_id)


class FinishedRepo:
    """Finished matches a person may replay: his own, and those of the server he is on that
    were played where he can look (:class:`Readable`)."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    async def visible(
        self,
        user_id: int,
        readable: Readable | None,
        *,
        veil: DailyVeil | None,
        limit: int = 25,
        table_id: int | None = None,
    ) -> list[FinishedMatch]:
        """Newest first; with ``table_id``, that one only if visible. ``veil``: the daily
        legs it hides (None: none, for forget-me)."""
        where, params = readable.where("t") if readable is not None else ("1 = 0", ())
        sql = (
            "SELECT t.id, t.guild_id, t.variant, m.finished_at, t.channel_id, t.parent_id,"
            " t.private_thread, t.public_place FROM tables t"
            " JOIN matches m ON m.table_id = t.id WHERE t.status = 'finished' AND ("
            + where
            + " OR EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = ?))"
        )
        params += (user_id,)
        if veil is not None:
            hidden, more = veil.where("t.id")
            sql += " AND " + hidden
            params += more
        if table_id is not None:
            sql += " AND t.id = ?"
            params += (table_id,)
        sql += " ORDER BY m.finished_at DESC, t.id DESC LIMIT ?"
        rows = await self._db.fetchall(sql, (*params, limit))
        seats = await SeatRepo(self._db).of_tables([int(r["id"]) for r in rows])
        return [
            FinishedMatch(
                int(r["id"]),
                None if r["guild_id"] is None else int(r["guild_id"]),
                r["variant"],
                float(r["finished_at"] or 0.0),
                tuple(seats[int(r["id"])]),
                None if r["channel_id"] is None else int(r["channel_id"]),
                None if r["parent_id"] is None else int(r["parent_id"]),
                bool(r["private_thread"]),
                bool(r["public_place"]),
            )
            for r in rows
        ]
