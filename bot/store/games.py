"""Rows and repositories of a table's game: tables, seats, matches, actions (with the next
turn's deadlines), hand results.

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
from bot.store.connection import POSTGRES, Db, IntegrityError, Row

__all__ = [
    "ActionCommit",
    "ActionRepo",
    "ActionRow",
    "DeadlineRow",
    "HandResultRepo",
    "HandResultRow",
    "MatchRepo",
    "MatchRow",
    "Repo",
    "SeatRepo",
    "SeatRow",
    "TableRepo",
    "TableRow",
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
class DeadlineRow:
    """A stored deadline: at ``due_at`` do ``kind`` for the table, if it is still at ``seq``."""

    table_id: int
    kind: str
    due_at: float
    seq: int


# ---------------------------------------------------------------------------------- plumbing


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Repo:
    """A repository: its statements run through one ``Db``."""

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


class TableRepo(Repo):
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


class SeatRepo(Repo):
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


class MatchRepo(Repo):
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


class ActionRepo(Repo):
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


class HandResultRepo(Repo):
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
