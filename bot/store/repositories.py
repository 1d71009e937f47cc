"""Rows and repositories: the SQL of tables, seats, matches, actions, hand results, players,
the feeds' marks, deadlines and challenge invitees.

Each repository runs its statements through a :class:`~bot.store.connection.Db`: the store's
own (each statement alone) or a transaction's. The SQL is the common subset of SQLite and
PostgreSQL, with ``?`` placeholders.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import StaleAction
from bot.limits import Held
from bot.store.connection import POSTGRES, Db, IntegrityError, Row

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

TABLE_STATUSES = ("lobby", "running", "finished", "cancelled")
SEAT_KINDS = ("human", "computer")


# --------------------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table: where it lives, who hosts it, which variant and its state."""

    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    host_id: int
    variant: str
    options: dict[str, Any]
    status: str
    turn_timer: int
    locale: str | None
    message_id: int | None
    lobby_message_id: int | None
    created_at: float
    updated_at: float
    closed_reason: str | None = None  # why a table closed without a result
    parent_id: int | None = None  # the channel of the thread ``channel_id`` (opened in a thread)
    private_thread: bool = False  # ``channel_id`` is a private thread
    public_place: bool = False  # @everyone could view where it was opened (the web shows it)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table; ``user_id`` is None for a computer that never had a person."""

    table_id: int
    seat: int
    user_id: int | None
    name: str
    kind: str
    ai_level: str | None = None
    timeouts: int = 0


@dataclass(frozen=True, slots=True)
class MatchRow:
    """The match played at a table: the ruleset and seed that, with the actions, define it."""

    table_id: int
    ruleset: dict[str, Any]
    seed: int
    deal: Any | None
    started_at: float
    finished_at: float | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of a match's append-only action log (``action`` is an ``encode_action`` string)."""

    table_id: int
    seq: int
    seat: int
    action: str
    created_at: float
    made_by: str | None = None  # "player", "computer", "timeout", "forced", "takeover"


@dataclass(frozen=True, slots=True)
class HandResultRow:
    """The recorded result of one hand, as JSON-ready data."""

    table_id: int
    hand_number: int
    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A person the bot has met."""

    user_id: int
    name: str
    locale: str | None
    updated_at: float


# ---------------------------------------------------------------------------------- plumbing


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class _Repo:
    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db


# ------------------------------------------------------------------------------ repositories


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, variant, options, status, turn_timer, "
    "locale, message_id, lobby_message_id, created_at, updated_at, closed_reason, parent_id, "
    "private_thread, public_place"
)


def _table(row: Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        host_id=row["host_id"],
        variant=row["variant"],
        options=_loads(row["options"]) or {},
        status=row["status"],
        turn_timer=row["turn_timer"],
        locale=row["locale"],
        message_id=row["message_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        closed_reason=row["closed_reason"],
        parent_id=row["parent_id"],
        private_thread=bool(row["private_thread"]),
        public_place=bool(row["public_place"]),
    )


_UNSET: Any = object()


class TableRepo(_Repo):
    """Tables: create, look up, change status and remember their Discord messages."""

    __slots__ = ()

    async def create(
        self,
        *,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        now: float,
        guild_id: int | None = None,
        channel_id: int | None = None,
        turn_timer: int = 120,
        locale: str | None = None,
        parent_id: int | None = None,
        private_thread: bool = False,
        public_place: bool = False,
    ) -> TableRow:
        """Insert a table in the lobby status and return it."""
        table_id = await self._db.fetchval(
            "INSERT INTO tables (guild_id, channel_id, host_id, variant, options, status,"
            " turn_timer, locale, created_at, updated_at, parent_id, private_thread,"
            " public_place) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id, channel_id, host_id, variant, _dumps(options), turn_timer, locale,
                now, now, parent_id, int(private_thread), int(public_place),
            ),
        )
        return TableRow(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            host_id=host_id,
            variant=variant,
            options=dict(options),
            status="lobby",
            turn_timer=turn_timer,
            locale=locale,
            message_id=None,
            lobby_message_id=None,
            created_at=now,
            updated_at=now,
            parent_id=parent_id,
            private_thread=private_thread,
            public_place=public_place,
        )

    async def get(self, table_id: int) -> TableRow | None:
        row = await self._db.fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        return None if row is None else _table(row)

    async def list_by_status(self, *statuses: str) -> list[TableRow]:
        """Tables in any of ``statuses``, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_table(r) for r in rows]

    async def set_status(
        self, table_id: int, status: str, *, now: float, reason: str | None = None
    ) -> None:
        """Change the status; ``reason`` says why a table closed without a result."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        await self._db.execute(
            "UPDATE tables SET status = ?, updated_at = ?, closed_reason = ? WHERE id = ?",
            (status, now, reason, table_id),
        )

    async def by_message(self, message_id: int) -> TableRow | None:
        """The table whose lobby or game message is ``message_id``."""
        row = await self._db.fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE message_id = ? OR lobby_message_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (message_id, message_id),
        )
        return None if row is None else _table(row)

    async def unpublished(self) -> list[int]:
        """Closed tables whose end the feed has not published yet (a crash came first)."""
        rows = await self._db.fetchall(
            "SELECT t.id FROM tables t LEFT JOIN feeds f ON f.table_id = t.id"
            " WHERE t.status IN ('finished', 'cancelled') AND coalesce(f.match_announced, 0) = 0"
            " ORDER BY t.id"
        )
        return [r["id"] for r in rows]

    async def in_guild(self, guild_id: int, *statuses: str) -> list[TableRow]:
        """Tables of one server in any of ``statuses``, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND status IN ({marks})"
            " ORDER BY id",
            (guild_id, *statuses),
        )
        return [_table(r) for r in rows]

    async def touch(self, table_id: int, *, now: float) -> None:
        await self._db.execute("UPDATE tables SET updated_at = ? WHERE id = ?", (now, table_id))

    async def set_messages(
        self,
        table_id: int,
        *,
        now: float,
        message_id: int | None = _UNSET,
        lobby_message_id: int | None = _UNSET,
        thread_id: int | None = _UNSET,
        channel_id: int | None = _UNSET,
    ) -> None:
        """Remember the table's Discord places; arguments left out are not changed."""
        changes = {
            "message_id": message_id,
            "lobby_message_id": lobby_message_id,
            "thread_id": thread_id,
            "channel_id": channel_id,
        }
        sets = [(k, v) for k, v in changes.items() if v is not _UNSET]
        if not sets:
            return
        assignments = ", ".join(f"{k} = ?" for k, _ in sets)
        await self._db.execute(
            f"UPDATE tables SET {assignments}, updated_at = ? WHERE id = ?",
            (*(v for _, v in sets), now, table_id),
        )


def _seat(row: Row) -> SeatRow:
    return SeatRow(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        kind=row["kind"],
        ai_level=row["ai_level"],
        timeouts=row["timeouts"],
    )


class SeatRepo(_Repo):
    """Seats of tables."""

    __slots__ = ()

    async def list(self, table_id: int) -> list[SeatRow]:
        rows = await self._db.fetchall(
            "SELECT table_id, seat, user_id, name, kind, ai_level, timeouts FROM seats"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat(r) for r in rows]

    async def of_tables(self, table_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        """The seats of each of ``table_ids`` (every id a key), in seat order."""
        out: dict[int, list[SeatRow]] = {t: [] for t in table_ids}
        if table_ids:
            marks = ", ".join("?" for _ in table_ids)
            for r in await self._db.fetchall(
                "SELECT table_id, seat, user_id, name, kind, ai_level, timeouts FROM seats"
                f" WHERE table_id IN ({marks}) ORDER BY table_id, seat",
                tuple(table_ids),
            ):
                out[int(r["table_id"])].append(_seat(r))
        return out

    async def put(self, seat: SeatRow) -> None:
        """Insert the seat, or replace whoever sat there."""
        if seat.kind not in SEAT_KINDS:
            raise ValueError(f"unknown seat kind {seat.kind!r}")
        await self._db.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, kind, ai_level, timeouts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " user_id = excluded.user_id, name = excluded.name, kind = excluded.kind,"
            " ai_level = excluded.ai_level, timeouts = excluded.timeouts",
            (
                seat.table_id,
                seat.seat,
                seat.user_id,
                seat.name,
                seat.kind,
                seat.ai_level,
                seat.timeouts,
            ),
        )

    async def remove(self, table_id: int, seats: Iterable[int]) -> None:
        for seat in seats:
            await self._db.execute(
                "DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )

    async def set_timeouts(self, table_id: int, seats: Iterable[int], timeouts: int) -> None:
        for seat in seats:
            await self._db.execute(
                "UPDATE seats SET timeouts = ? WHERE table_id = ? AND seat = ?",
                (timeouts, table_id, seat),
            )

    async def hand_to_computer(self, table_id: int, seats: Iterable[int], ai_level: str) -> None:
        """A computer plays these seats from now on; the person stays recorded on them."""
        for seat in seats:
            await self._db.execute(
                "UPDATE seats SET kind = 'computer', ai_level = ? WHERE table_id = ? AND seat = ?",
                (ai_level, table_id, seat),
            )


def _match(row: Row) -> MatchRow:
    return MatchRow(
        table_id=row["table_id"],
        ruleset=_loads(row["ruleset"]),
        seed=row["seed"],
        deal=_loads(row["deal"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        outcome=_loads(row["outcome"]),
    )


class MatchRepo(_Repo):
    """The match of each table."""

    __slots__ = ()

    async def create(
        self,
        table_id: int,
        *,
        ruleset: dict[str, Any],
        seed: int,
        now: float,
        deal: Any | None = None,
    ) -> MatchRow:
        await self._db.execute(
            "INSERT INTO matches (table_id, ruleset, seed, deal, started_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, _dumps(ruleset), seed, None if deal is None else _dumps(deal), now),
        )
        return MatchRow(table_id, dict(ruleset), seed, deal, now, None, None)

    async def get(self, table_id: int) -> MatchRow | None:
        row = await self._db.fetchone(
            "SELECT table_id, ruleset, seed, deal, started_at, finished_at, outcome FROM matches"
            " WHERE table_id = ?",
            (table_id,),
        )
        return None if row is None else _match(row)

    async def finish(self, table_id: int, *, now: float, outcome: dict[str, Any] | None) -> None:
        """Record the end of the match (``outcome`` None when it was cancelled)."""
        await self._db.execute(
            "UPDATE matches SET finished_at = ?, outcome = ? WHERE table_id = ?",
            (now, None if outcome is None else _dumps(outcome), table_id),
        )


@dataclass(frozen=True, slots=True)
class ActionCommit:
    """Everything one action writes, committed together: the action, the table's turn
    deadlines (those of ``deadline_kinds`` are replaced by ``deadlines``), the hand result
    and the match's end if it brought them, and its seats' time-out counts."""

    table_id: int
    seq: int
    seat: int
    action: str
    now: float
    made_by: str | None = None
    deadline_kinds: tuple[str, ...] = ()
    deadlines: tuple[DeadlineRow, ...] = ()
    hand_result: tuple[int, dict[str, Any]] | None = None  # (hand number, result)
    outcome: dict[str, Any] | None = None  # the match ended with this outcome
    timeouts: tuple[tuple[int, int], ...] = ()  # (seat, time-outs in a row) to store
    taken_over: tuple[tuple[int, str], ...] = ()  # (seat, level) a computer plays from now on


def _action_statements(c: ActionCommit) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of an :class:`ActionCommit`, in order (``?`` placeholders)."""
    out: list[tuple[str, tuple[Any, ...]]] = [
        (
            "INSERT INTO actions (table_id, seq, seat, action, created_at, made_by)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (c.table_id, c.seq, c.seat, c.action, c.now, c.made_by),
        )
    ]
    kept = [k for k in c.deadline_kinds if k not in {d.kind for d in c.deadlines}]
    if kept:
        marks = ", ".join("?" for _ in kept)
        out.append(
            (
                f"DELETE FROM deadlines WHERE table_id = ? AND kind IN ({marks})",
                (c.table_id, *kept),
            )
        )
    if c.deadlines:
        values = ", ".join("(?, ?, ?, ?)" for _ in c.deadlines)
        out.append(
            (
                f"INSERT INTO deadlines (table_id, kind, due_at, seq) VALUES {values}"
                " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at,"
                " seq = excluded.seq",
                tuple(v for d in c.deadlines for v in (d.table_id, d.kind, d.due_at, d.seq)),
            )
        )
    if c.hand_result is not None:
        out.append(
            (
                "INSERT INTO hand_results (table_id, hand_number, result) VALUES (?, ?, ?)",
                (c.table_id, c.hand_result[0], _dumps(c.hand_result[1])),
            )
        )
    if c.outcome is not None:
        out.append(
            (
                "UPDATE matches SET finished_at = ?, outcome = ? WHERE table_id = ?",
                (c.now, _dumps(c.outcome), c.table_id),
            )
        )
        out.append(
            (
                "UPDATE tables SET status = 'finished', updated_at = ?, closed_reason = NULL"
                " WHERE id = ?",
                (c.now, c.table_id),
            )
        )
    levels = dict(c.taken_over)
    for seat, count in c.timeouts:
        level = levels.pop(seat, None)
        out.append(
            (
                "UPDATE seats SET timeouts = ?, kind = coalesce(?, kind),"
                " ai_level = coalesce(?, ai_level) WHERE table_id = ? AND seat = ?",
                (count, None if level is None else "computer", level, c.table_id, seat),
            )
        )
    for seat, level in levels.items():
        out.append(
            (
                "UPDATE seats SET kind = 'computer', ai_level = ? WHERE table_id = ? AND seat = ?",
                (level, c.table_id, seat),
            )
        )
    return out


def _one_statement(statements: list[tuple[str, tuple[Any, ...]]]) -> tuple[str, tuple[Any, ...]]:
    """PostgreSQL: the statements as one (data-modifying ``WITH`` parts), one round trip.

    Each part sees the same snapshot and none changes a row another part changes; a failing
    part (a duplicate action) fails the whole statement."""
    parts = ", ".join(f"s{i} AS ({sql})" for i, (sql, _) in enumerate(statements))
    return f"WITH {parts} SELECT 1", tuple(v for _, params in statements for v in params)


@contextlib.contextmanager
def _stale_if_recorded(table_id: int, seq: int) -> Iterator[None]:
    """A duplicate ``(table_id, seq)`` means another writer recorded that action first."""
    try:
        yield
    except IntegrityError as exc:
        if exc.kind == "unique":
            raise StaleAction(
                "Action {seq} of table {table_id} was already recorded.",
                seq=seq,
                table_id=table_id,
            ) from exc
        raise


def _sqlite_turn(c: ActionCommit) -> tuple[str, tuple[Any, ...]]:
    """SQLite: an action and its turn's deadlines as one statement (the ``action_commits``
    view of migration 0410)."""
    new = {d.kind for d in c.deadlines}
    return (
        "INSERT INTO action_commits (table_id, seq, seat, action, created_at, made_by,"
        " clear_kinds, deadlines) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            c.table_id,
            c.seq,
            c.seat,
            c.action,
            c.now,
            c.made_by,
            json.dumps([k for k in c.deadline_kinds if k not in new]),
            json.dumps([[d.kind, float(d.due_at), d.seq] for d in c.deadlines]),
        ),
    )


class ActionRepo(_Repo):
    """The append-only action log of each match."""

    __slots__ = ()

    async def record(self, commit: ActionCommit) -> None:
        """Commit an action with everything it changed (see :class:`ActionCommit`), in one
        transaction and one trip to the database; raise :class:`StaleAction` if action
        ``seq`` of the table exists already (the optimistic version check, as in
        :meth:`append`)."""
        with _stale_if_recorded(commit.table_id, commit.seq):
            if self._db.dialect == POSTGRES:
                await self._db.execute(*_one_statement(_action_statements(commit)))
            elif commit.hand_result is None and commit.outcome is None and not (
                commit.timeouts or commit.taken_over
            ):
                await self._db.run_batch([_sqlite_turn(commit)])
            else:
                await self._db.run_batch(_action_statements(commit))

    async def append(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: str,
        *,
        now: float,
        made_by: str | None = None,
    ) -> None:
        """Add action number ``seq`` (0-based) made ``made_by`` ("player", "computer",
        "timeout"); raise :class:`StaleAction` if it already exists.

        Writing ``seq = number of actions the writer has seen`` is the optimistic version check:
        of two writers that saw the same state, only the first succeeds.
        """
        with _stale_if_recorded(table_id, seq):
            await self._db.execute(
                "INSERT INTO actions (table_id, seq, seat, action, created_at, made_by)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, seq, seat, action, now, made_by),
            )

    async def list(self, table_id: int, since: int = 0) -> list[ActionRow]:
        """The table's actions from number ``since`` on, in order."""
        rows = await self._db.fetchall(
            "SELECT table_id, seq, seat, action, created_at, made_by FROM actions"
            " WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, since),
        )
        return [
            ActionRow(
                r["table_id"], r["seq"], r["seat"], r["action"], r["created_at"], r["made_by"]
            )
            for r in rows
        ]

    async def count(self, table_id: int) -> int:
        row = await self._db.fetchone(
            "SELECT count(*) AS n FROM actions WHERE table_id = ?", (table_id,)
        )
        return 0 if row is None else int(row["n"])


class HandResultRepo(_Repo):
    """Results of finished hands."""

    __slots__ = ()

    async def add(self, table_id: int, hand_number: int, result: dict[str, Any]) -> None:
        await self._db.execute(
            "INSERT INTO hand_results (table_id, hand_number, result) VALUES (?, ?, ?)",
            (table_id, hand_number, _dumps(result)),
        )

    async def list(self, table_id: int) -> list[HandResultRow]:
        rows = await self._db.fetchall(
            "SELECT table_id, hand_number, result FROM hand_results WHERE table_id = ?"
            " ORDER BY hand_number",
            (table_id,),
        )
        return [HandResultRow(r["table_id"], r["hand_number"], _loads(r["result"])) for r in rows]


class PlayerRepo(_Repo):
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


class FeedRepo(_Repo):
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


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """A stored deadline: at ``due_at`` do ``kind`` for the table, if it is still at ``seq``."""

    table_id: int
    kind: str
    due_at: float
    seq: int


class DeadlineRepo(_Repo):
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


class InviteeRepo(_Repo):
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


class PlayerSettingsRepo(_Repo):
    """What each person chose with ``/domino settings``."""

    __slots__ = ()

    async def get(self, user_id: int) -> PlayerSettingsRow:
        row = await self._db.fetchone(
            "SELECT turn_pings FROM player_settings WHERE user_id = ?", (user_id,)
        )
        return PlayerSettingsRow(user_id) if row is None else PlayerSettingsRow(
            user_id, bool(row["turn_pings"])
        )

    async def save(self, settings: PlayerSettingsRow, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, turn_pings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET turn_pings = excluded.turn_pings,"
            " updated_at = excluded.updated_at",
            (settings.user_id, int(settings.turn_pings), now),
        )


_LOCK_SPACE = 0x4C494D  # PostgreSQL advisory locks of the limits: (space + kind, folded id)


def _fold(value: int) -> int:
    """A Discord id as a signed 32-bit lock key (two ids may share one: they wait in turn)."""
    return (value ^ (value >> 31) ^ (value >> 62)) & 0x7FFFFFFF


class LimitRepo(_Repo):
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
