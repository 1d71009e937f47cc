"""Rows and repositories of the rest: players, the feeds' marks, deadlines, challenge invitees,
a person's settings, the limits; and :class:`Repos`, every repository bound to one ``Db``. The
rows and repositories of a table's game (:mod:`bot.store.games`) are importable from here too.

Each repository runs its statements through a :class:`~bot.store.connection.Db`: the store's
own (each statement alone) or a transaction's. The SQL is the common subset of SQLite and
PostgreSQL, with ``?`` placeholders.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.limits import Held
from bot.store.connection import POSTGRES, Db
from bot.store.games import (
    ActionCommit,
    ActionRepo,
    ActionRow,
    DeadlineRow,
    HandResultRepo,
    HandResultRow,
    MatchRepo,
    MatchRow,
    Repo,
    SeatRepo,
    SeatRow,
    TableRepo,
    TableRow,
)

__all__ = [
    "ActionCommit",
    "ActionRepo",
    "ActionRow",
    "DeadlineRow",
    "FeedRow",
    "HandResultRepo",
    "HandResultRow",
    "LimitRepo",
    "MatchRepo",
    "MatchRow",
    "PlayerRepo",
    "PlayerRow",
    "Repos",
    "SeatRepo",
    "SeatRow",
    "TableRepo",
    "TableRow",
    "Transaction",
]


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A person the bot has met."""

    user_id: int
    name: str
    locale: str | None
    updated_at: float


class PlayerRepo(Repo):
    """People the bot has met: their display name and language."""

    __slots__ = ()

    async def upsert(
        self, user_id: int, name: str, *, now: float, locale: str | None = None
    ) -> None:
        """Insert or update a person; a None ``locale`` keeps the known one."""
        await self._db.execute(
            "INSERT INTO players (user_id, name, locale, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " locale = coalesce(excluded.locale, players.locale), updated_at = excluded.updated_at",
            (user_id, name, locale, now),
        )

    async def get(self, user_id: int) -> PlayerRow | None:
        row = await self._db.fetchone(
            "SELECT user_id, name, locale, updated_at FROM players WHERE user_id = ?", (user_id,)
        )
        return None if row is None else PlayerRow(row[0], row[1], row[2], row[3])


@dataclass(frozen=True, slots=True)
class FeedRow:
    """How far a table's public messages have been brought (see ``bot/migrations/0002``)."""

    table_id: int
    shown_seq: int = -1
    game_hand: int | None = None
    hands_announced: int = 0
    match_announced: bool = False
    lobby_shown: str | None = None
    ping_message_id: int | None = None  # the turn ping on show (deleted once the player moved)
    ping_turn: int | None = None  # the action count at which the pinged turn began
    ping_stage: int = 0  # 1: pinged as the turn began, 2: again at half time
    takeovers_announced: int = 0  # the take-overs of actions before this number were posted


_FEED_FIELDS = (
    "shown_seq",
    "game_hand",
    "hands_announced",
    "match_announced",
    "lobby_shown",
    "ping_message_id",
    "ping_turn",
    "ping_stage",
    "takeovers_announced",
)


class FeedRepo(Repo):
    """The feed's marks per table."""

    __slots__ = ()

    async def get(self, table_id: int) -> FeedRow:
        row = await self._db.fetchone(
            f"SELECT {', '.join(_FEED_FIELDS)} FROM feeds WHERE table_id = ?", (table_id,)
        )
        if row is None:
            return FeedRow(table_id)
        return FeedRow(
            table_id,
            shown_seq=row["shown_seq"],
            game_hand=row["game_hand"],
            hands_announced=row["hands_announced"],
            match_announced=bool(row["match_announced"]),
            lobby_shown=row["lobby_shown"],
            ping_message_id=row["ping_message_id"],
            ping_turn=row["ping_turn"],
            ping_stage=row["ping_stage"],
            takeovers_announced=row["takeovers_announced"],
        )

    async def save(self, feed: FeedRow) -> None:
        values = (
            feed.shown_seq,
            feed.game_hand,
            feed.hands_announced,
            int(feed.match_announced),
            feed.lobby_shown,
            feed.ping_message_id,
            feed.ping_turn,
            feed.ping_stage,
            feed.takeovers_announced,
        )
        updates = ", ".join(f"{f} = excluded.{f}" for f in _FEED_FIELDS)
        marks = ", ".join("?" for _ in range(len(_FEED_FIELDS) + 1))
        await self._db.execute(
            f"INSERT INTO feeds (table_id, {', '.join(_FEED_FIELDS)}) VALUES ({marks})"
            f" ON CONFLICT (table_id) DO UPDATE SET {updates}",
            (feed.table_id, *values),
        )


class DeadlineRepo(Repo):
    """The one clock's deadlines."""

    __slots__ = ()

    async def set(self, deadline: DeadlineRow) -> None:
        await self._db.execute(
            "INSERT INTO deadlines (table_id, kind, due_at, seq) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at,"
            " seq = excluded.seq",
            (deadline.table_id, deadline.kind, deadline.due_at, deadline.seq),
        )

    async def replace(
        self, table_id: int, kinds: Iterable[str], deadlines: Iterable[DeadlineRow]
    ) -> None:
        """Drop the table's deadlines of ``kinds`` and set ``deadlines`` (two statements)."""
        await self.clear(table_id, kinds)
        rows = list(deadlines)
        if not rows:
            return
        values = ", ".join("(?, ?, ?, ?)" for _ in rows)
        await self._db.execute(
            f"INSERT INTO deadlines (table_id, kind, due_at, seq) VALUES {values}"
            " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at,"
            " seq = excluded.seq",
            tuple(v for d in rows for v in (d.table_id, d.kind, d.due_at, d.seq)),
        )

    async def clear(self, table_id: int, kinds: Iterable[str] | None = None) -> None:
        """Drop the table's deadlines (only ``kinds`` if given)."""
        if kinds is None:
            await self._db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            return
        kinds = list(kinds)
        if kinds:
            marks = ", ".join("?" for _ in kinds)
            await self._db.execute(
                f"DELETE FROM deadlines WHERE table_id = ? AND kind IN ({marks})",
                (table_id, *kinds),
            )

    async def list(self, table_id: int | None = None) -> list[DeadlineRow]:
        """Every deadline (of one table if given), soonest first."""
        sql = "SELECT table_id, kind, due_at, seq FROM deadlines"
        params: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " WHERE table_id = ?"
            params = (table_id,)
        rows = await self._db.fetchall(sql + " ORDER BY due_at, table_id, kind", params)
        return [DeadlineRow(r["table_id"], r["kind"], r["due_at"], r["seq"]) for r in rows]


class InviteeRepo(Repo):
    """Who a challenge invites, and what each answered (None: not yet)."""

    __slots__ = ()

    async def add(self, table_id: int, user_ids: Iterable[int]) -> None:
        for position, user_id in enumerate(user_ids):
            await self._db.execute(
                "INSERT INTO invitees (table_id, user_id, position) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, user_id) DO NOTHING",
                (table_id, user_id, position),
            )

    async def list(self, table_id: int) -> dict[int, str | None]:
        rows = await self._db.fetchall(
            "SELECT user_id, answer FROM invitees WHERE table_id = ? ORDER BY position", (table_id,)
        )
        return {r["user_id"]: r["answer"] for r in rows}

    async def answer(self, table_id: int, user_id: int, answer: str) -> None:
        await self._db.execute(
            "UPDATE invitees SET answer = ? WHERE table_id = ? AND user_id = ?",
            (answer, table_id, user_id),
        )


@dataclass(frozen=True, slots=True)
class PlayerSettingsRow:
    """A person's own choices (the defaults until he changes one)."""

    user_id: int
    turn_pings: bool = True
    turn_dms: bool = False  # told of his correspondence turns by direct message


class PlayerSettingsRepo(Repo):
    """What each person chose with ``/domino settings``."""

    __slots__ = ()

    async def get(self, user_id: int) -> PlayerSettingsRow:
        row = await self._db.fetchone(
            "SELECT turn_pings, turn_dms FROM player_settings WHERE user_id = ?", (user_id,)
        )
        return PlayerSettingsRow(user_id) if row is None else PlayerSettingsRow(
            user_id, bool(row["turn_pings"]), bool(row["turn_dms"])
        )

    async def save(self, settings: PlayerSettingsRow, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, turn_pings, turn_dms, updated_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " turn_pings = excluded.turn_pings, turn_dms = excluded.turn_dms,"
            " updated_at = excluded.updated_at",
            (settings.user_id, int(settings.turn_pings), int(settings.turn_dms), now),
        )


_LOCK_SPACE = 0x4C494D  # PostgreSQL advisory locks of the limits: (space + kind, folded id)


def _fold(value: int) -> int:
    """A Discord id as a signed 32-bit lock key (two ids may share one: they wait in turn)."""
    return (value ^ (value >> 31) ^ (value >> 62)) & 0x7FFFFFFF


class LimitRepo(Repo):
    """What people and servers hold open, counted over every process's tables."""

    __slots__ = ()

    async def lock(self, user_ids: Iterable[int], guild_id: int | None = None) -> None:
        """Inside a transaction: wait until no other transaction counts or changes what these
        people (and this server) hold, until this one ends. On SQLite a transaction already
        lets one writer in at a time."""
        if self._db.dialect != POSTGRES:
            return
        keys = {(_LOCK_SPACE, _fold(u)) for u in user_ids}
        if guild_id is not None:
            keys.add((_LOCK_SPACE + 1, _fold(guild_id)))
        for space, key in sorted(keys):  # one order everywhere: no deadlock
            await self._db.execute("SELECT pg_advisory_xact_lock(?, ?)", (space, key))

    async def held(self, user_id: int, guild_id: int | None = None) -> Held:
        """The open tables where ``user_id`` has a seat (waiting, running), the open tables of
        ``guild_id`` and when he last opened a table."""
        seated = (
            "SELECT count(DISTINCT s.table_id) FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.user_id = ? AND t.status = ?"
        )
        row = await self._db.fetchone(
            f"SELECT ({seated}), ({seated}),"
            " (SELECT count(*) FROM tables WHERE guild_id = ? AND status IN ('lobby', 'running')),"
            " (SELECT max(created_at) FROM tables WHERE host_id = ?)",
            (user_id, "lobby", user_id, "running", guild_id, user_id),
        )
        assert row is not None
        return Held(
            lobbies=int(row[0]),
            matches=int(row[1]),
            server_tables=int(row[2]),
            last_opened=None if row[3] is None else float(row[3]),
        )


class Repos:
    """The repositories bound to one way of running statements."""

    def __init__(self, db: Db) -> None:
        self.db = db  # for repositories kept in other bot/ modules (bot.records.store)
        self.tables = TableRepo(db)
        self.seats = SeatRepo(db)
        self.matches = MatchRepo(db)
        self.actions = ActionRepo(db)
        self.hand_results = HandResultRepo(db)
        self.players = PlayerRepo(db)
        self.feeds = FeedRepo(db)
        self.deadlines = DeadlineRepo(db)
        self.invitees = InviteeRepo(db)
        self.limits = LimitRepo(db)
        self.player_settings = PlayerSettingsRepo(db)


class Transaction(Repos):
    """Repositories whose statements all belong to one open transaction."""
