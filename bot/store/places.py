"""The rows of the open pool: the servers in it, the people out of it, and the places of a
table shown in several servers (``table_places``, see ``bot/migrations/0960``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.store.games import Repo

__all__ = ["PlaceRow", "PlacesRepo", "PoolRepo"]


@dataclass(frozen=True, slots=True)
class PlaceRow:
    """One place of a table across servers, and how far its messages were brought there."""

    table_id: int
    place: int  # 0: the owner's (the table's own server and channel)
    guild_id: int
    channel_id: int
    people: tuple[int, ...]  # the players who play from this place
    thread_id: int | None = 0  # 0: a thread is wanted and not made yet; None: the channel
    message_id: int | None = None
    shown_seq: int = -1
    game_hand: int | None = None
    hands_announced: int = 0
    match_announced: bool = False
    takeovers_announced: int = 0
    ping_message_id: int | None = None
    ping_turn: int | None = None
    ping_stage: int = 0


_MARKS = (
    "thread_id",
    "message_id",
    "shown_seq",
    "game_hand",
    "hands_announced",
    "match_announced",
    "takeovers_announced",
    "ping_message_id",
    "ping_turn",
    "ping_stage",
)
_COLUMNS = ("table_id", "place", "guild_id", "channel_id", "people", *_MARKS)
_QUALIFIED = ", ".join(f"p.{c}" for c in _COLUMNS)


def _row(r: Any) -> PlaceRow:
    return PlaceRow(
        table_id=r["table_id"],
        place=r["place"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        people=tuple(json.loads(r["people"])),
        thread_id=r["thread_id"],
        message_id=r["message_id"],
        shown_seq=r["shown_seq"],
        game_hand=r["game_hand"],
        hands_announced=r["hands_announced"],
        match_announced=bool(r["match_announced"]),
        takeovers_announced=r["takeovers_announced"],
        ping_message_id=r["ping_message_id"],
        ping_turn=r["ping_turn"],
        ping_stage=r["ping_stage"],
    )


class PlacesRepo(Repo):
    """The places of tables across servers."""

    __slots__ = ()

    async def add(self, place: PlaceRow) -> None:
        await self._db.execute(
            f"INSERT INTO table_places ({', '.join(_COLUMNS)})"
            f" VALUES ({', '.join('?' for _ in _COLUMNS)})",
            (
                place.table_id,
                place.place,
                place.guild_id,
                place.channel_id,
                json.dumps(list(place.people)),
                *self._marks(place),
            ),
        )

    @staticmethod
    def _marks(place: PlaceRow) -> tuple[object, ...]:
        return (
            place.thread_id,
            place.message_id,
            place.shown_seq,
            place.game_hand,
            place.hands_announced,
            int(place.match_announced),
            place.takeovers_announced,
            place.ping_message_id,
            place.ping_turn,
            place.ping_stage,
        )

    async def of_table(self, table_id: int) -> list[PlaceRow]:
        """The table's places still shown, by place number (none: a table of one server)."""
        rows = await self._db.fetchall(
            f"SELECT {', '.join(_COLUMNS)} FROM table_places WHERE table_id = ? ORDER BY place",
            (table_id,),
        )
        return [_row(r) for r in rows]

    async def pooled(self, table_id: int) -> bool:
        """Whether ``table_id`` was opened across servers (it has or had places)."""
        found = await self._db.fetchval(
            "SELECT 1 FROM table_places WHERE table_id = ? LIMIT 1", (table_id,)
        )
        return found is not None

    async def save(self, place: PlaceRow) -> bool:
        """Move the place's marks; False if the place was dropped meanwhile."""
        sets = ", ".join(f"{c} = ?" for c in _MARKS)
        changed = await self._db.execute(
            f"UPDATE table_places SET {sets} WHERE table_id = ? AND place = ?",
            (*self._marks(place), place.table_id, place.place),
        )
        return bool(changed)

    async def drop(self, table_id: int, place: int) -> bool:
        changed = await self._db.execute(
            "DELETE FROM table_places WHERE table_id = ? AND place = ?", (table_id, place)
        )
        return bool(changed)

    async def published(self, table_id: int) -> None:
        """The table closed and was published everywhere: its places keep no person (their
        servers stay, for the records)."""
        await self._db.execute(
            "UPDATE table_places SET people = '[]' WHERE table_id = ?", (table_id,)
        )

    async def of_guild(self, guild_id: int) -> list[PlaceRow]:
        """The places of ``guild_id`` at open tables."""
        return await self._open("guild_id", guild_id)

    async def of_channel(self, channel_id: int) -> list[PlaceRow]:
        """The places at open tables in ``channel_id``."""
        return await self._open("channel_id", channel_id)

    async def _open(self, column: str, value: int) -> list[PlaceRow]:
        rows = await self._db.fetchall(
            f"SELECT {_QUALIFIED} FROM table_places p JOIN tables t ON t.id = p.table_id"
            f" WHERE p.{column} = ? AND t.status IN ('lobby', 'running')"
            " ORDER BY p.table_id, p.place",
            (value,),
        )
        return [_row(r) for r in rows]

    async def guilds_of(self, table_ids: list[int]) -> dict[int, list[int]]:
        """The servers each of ``table_ids`` is (or was, once closed) shown in; tables of one
        server are left out."""
        if not table_ids:
            return {}
        rows = await self._db.fetchall(
            "SELECT DISTINCT table_id, guild_id FROM table_places"
            f" WHERE table_id IN ({', '.join('?' for _ in table_ids)}) ORDER BY table_id, guild_id",
            table_ids,
        )
        found: dict[int, list[int]] = {}
        for r in rows:
            found.setdefault(int(r[0]), []).append(int(r[1]))
        return found

    async def versions(self, table_ids: list[int]) -> dict[int, tuple[str, int]]:
        """Each table's state and count of stored moves, in one read (a table not found is
        left out)."""
        if not table_ids:
            return {}
        rows = await self._db.fetchall(
            "SELECT t.id, t.status, (SELECT count(*) FROM actions a WHERE a.table_id = t.id)"
            f" FROM tables t WHERE t.id IN ({', '.join('?' for _ in table_ids)})",
            table_ids,
        )
        return {int(r[0]): (str(r[1]), int(r[2])) for r in rows}

    async def guilds(self, table_id: int) -> list[int]:
        """The servers the table is shown in now."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT guild_id FROM table_places WHERE table_id = ? ORDER BY guild_id",
            (table_id,),
        )
        return [r["guild_id"] for r in rows]


class PoolRepo(Repo):
    """Which servers are in the open pool, and who opted out of it."""

    __slots__ = ()

    async def joined(self, guild_id: int) -> bool:
        found = await self._db.fetchval(
            "SELECT 1 FROM pool_servers WHERE guild_id = ?", (guild_id,)
        )
        return found is not None

    async def members(self, guild_ids: Iterable[int]) -> set[int]:
        """Those of ``guild_ids`` in the pool."""
        ids = sorted(set(guild_ids))
        if not ids:
            return set()
        rows = await self._db.fetchall(
            f"SELECT guild_id FROM pool_servers WHERE guild_id IN ({', '.join('?' for _ in ids)})",
            ids,
        )
        return {r["guild_id"] for r in rows}

    async def join(self, guild_id: int, *, by: int | None, now: float) -> None:
        await self._db.execute(
            "INSERT INTO pool_servers (guild_id, joined_at, set_by) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, now, by),
        )

    async def leave(self, guild_id: int) -> bool:
        changed = await self._db.execute(
            "DELETE FROM pool_servers WHERE guild_id = ?", (guild_id,)
        )
        return bool(changed)

    async def opted_out(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` who opted out of the pool."""
        ids = sorted(set(user_ids))
        if not ids:
            return set()
        rows = await self._db.fetchall(
            f"SELECT user_id FROM pool_opt_outs WHERE user_id IN ({', '.join('?' for _ in ids)})",
            ids,
        )
        return {r["user_id"] for r in rows}

    async def opt_out(self, user_id: int, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO pool_opt_outs (user_id, at) VALUES (?, ?) ON CONFLICT (user_id)"
            " DO NOTHING",
            (user_id, now),
        )

    async def opt_in(self, user_id: int) -> None:
        await self._db.execute("DELETE FROM pool_opt_outs WHERE user_id = ?", (user_id,))

    async def forget(self, user_id: int) -> None:
        """Forget-me: his choice goes, and his id with it (the servers' rows keep no person)."""
        await self._db.execute("DELETE FROM pool_opt_outs WHERE user_id = ?", (user_id,))
        await self._db.execute("DELETE FROM table_requests WHERE user_id = ?", (user_id,))
        await self._db.execute(
            "UPDATE pool_servers SET set_by = NULL WHERE set_by = ?", (user_id,)
        )


@dataclass(frozen=True, slots=True)
class ForwardRow:
    """A click forwarded to the process that runs its table, and its answer once given."""

    table_id: int
    user_id: int
    seq: int
    action: str
    made_at: float
    answered_at: float | None = None
    seat: int | None = None
    hand_ended: bool = False
    error: str | None = None


_FORWARD = (
    "table_id, user_id, seq, action, made_at, answered_at, seat, hand_ended, error"
)


def _forward(r: Any) -> ForwardRow:
    return ForwardRow(
        r["table_id"], r["user_id"], r["seq"], r["action"], r["made_at"], r["answered_at"],
        r["seat"], bool(r["hand_ended"]), r["error"],
    )


class ForwardRepo(Repo):
    """Clicks forwarded between processes (``table_requests``)."""

    __slots__ = ()

    async def ask(self, table_id: int, user_id: int, seq: int, action: str, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO table_requests (table_id, user_id, seq, action, made_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id, seq) DO NOTHING",
            (table_id, user_id, seq, action, now),
        )

    async def get(self, table_id: int, user_id: int, seq: int) -> ForwardRow | None:
        row = await self._db.fetchone(
            f"SELECT {_FORWARD} FROM table_requests"
            " WHERE table_id = ? AND user_id = ? AND seq = ?",
            (table_id, user_id, seq),
        )
        return None if row is None else _forward(row)

    async def pending(self) -> list[ForwardRow]:
        rows = await self._db.fetchall(
            f"SELECT {_FORWARD} FROM table_requests WHERE answered_at IS NULL ORDER BY made_at"
        )
        return [_forward(r) for r in rows]

    async def answer(
        self, request: ForwardRow, *, seat: int | None, hand_ended: bool, error: str | None,
        now: float,
    ) -> None:
        await self._db.execute(
            "UPDATE table_requests SET answered_at = ?, seat = ?, hand_ended = ?, error = ?"
            " WHERE table_id = ? AND user_id = ? AND seq = ?",
            (now, seat, int(hand_ended), error, request.table_id, request.user_id, request.seq),
        )

    async def withdraw(self, table_id: int, user_id: int, seq: int) -> None:
        """The asker gave up waiting: a request not answered yet is not applied later."""
        await self._db.execute(
            "DELETE FROM table_requests WHERE table_id = ? AND user_id = ? AND seq = ?"
            " AND answered_at IS NULL",
            (table_id, user_id, seq),
        )

    async def prune(self, before: float) -> None:
        """Answers read long ago go (they keep a person's id)."""
        await self._db.execute(
            "DELETE FROM table_requests WHERE answered_at IS NOT NULL AND answered_at < ?",
            (before,),
        )
