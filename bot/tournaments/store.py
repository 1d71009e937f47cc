"""SQL of tournaments (tables of ``migrations/*/0600_tournaments.sql``), as a repository.

:class:`TournamentRepo` wraps the statement runner of a :class:`~bot.store.Store` (``store.db``:
each call alone) or of a transaction (``tx.db``: inside it). It only reads and writes rows; what
they mean is decided in :mod:`bot.tournaments.service`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.store.connection import Db, Row

__all__ = [
    "OPEN",
    "BoardRow",
    "CorrectionRow",
    "EntryRow",
    "EventRow",
    "InvitationRow",
    "PlaceRow",
    "RoundRow",
    "TimerRow",
    "TournamentRepo",
]

#: The statuses of an event that is not over.
OPEN = ("registration", "running", "paused")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" for _ in values)


# --------------------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class EventRow:
    """One event (``tournaments``)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    variant: str
    options: dict[str, Any]
    format: str  # pairs | individual | single
    system: str  # swiss | knockout
    rounds: int
    hands: int | None
    points: int | None
    time_limit: int
    grace: int
    fill: str  # computer | bye | mixed (stored as seat_fill)
    max_entrants: int
    start_at: float | None
    status: str
    round: int
    locale: str | None
    winner_role: int | None
    paused_left: list[list[Any]] | None  # [kind, seconds left, seq] of a paused event
    created_at: float
    updated_at: float
    public_place: bool = False  # @everyone could view its channel (the web shows the event)
    playoff: int = 0  # a Swiss event's knockout playoff of its top 4 or 8 (0: none)
    playoff_seeds: list[int] | None = None  # its entrants, best first, once the Swiss is over
    checkin: bool = True  # a check-in before each round (off: every entrant plays each round)
    arena: int | None = None  # an arena's duration in seconds (system: arena)
    arena_ends_at: float | None = None  # when an arena's pairing stops (set at its start)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


#: The columns of an event: its fields, and ``seat_fill``, which holds a fill the older
#: ``fill`` column cannot (mixed).
_EVENT_COLUMNS = (*(f.name for f in fields(EventRow)), "seat_fill")
_EVENT_SELECT = ", ".join(_EVENT_COLUMNS)


def _event(row: Row) -> EventRow:
    values = {c: row[c] for c in _EVENT_COLUMNS}
    values["fill"] = values.pop("seat_fill") or values["fill"]
    seeds = values["playoff_seeds"]
    values["playoff_seeds"] = json.loads(seeds) if seeds else None
    values["options"] = json.loads(values["options"] or "{}")
    values["paused_left"] = json.loads(values["paused_left"]) if values["paused_left"] else None
    values["public_place"] = bool(values["public_place"])
    values["checkin"] = bool(values["checkin"])
    if values["arena"] is not None:
        values["system"] = "arena"  # (the older column's check allows swiss and knockout)
    return EventRow(**values)


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One entrant: a person, or a pair (``partner_id``; ``invited`` until the partner
    confirms)."""

    tournament_id: int
    entry: int
    user_id: int
    name: str
    partner_id: int | None
    partner_name: str | None
    status: str  # invited | active | withdrawn
    joined_round: int
    rating: float
    missed: int
    created_at: float

    @property
    def members(self) -> tuple[int, ...]:
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)

    @property
    def names(self) -> tuple[str, ...]:
        if self.partner_id is None:
            return (self.name,)
        return (self.name, self.partner_name or "")


_ENTRY_COLUMNS = tuple(f.name for f in fields(EntryRow))


@dataclass(frozen=True, slots=True)
class InvitationRow:
    """A pairs event's invitation: ``inviter_id`` asks ``partner_id`` to be his partner."""

    tournament_id: int
    inviter_id: int
    inviter_name: str
    partner_id: int
    partner_name: str
    status: str  # pending | accepted | declined | cancelled
    created_at: float


_INVITATION_COLUMNS = tuple(f.name for f in fields(InvitationRow))
_INVITATION_SELECT = f"SELECT {', '.join(_INVITATION_COLUMNS)} FROM tournament_invitations"


def _invitation(row: Row | None) -> InvitationRow | None:
    return None if row is None else InvitationRow(**{c: row[c] for c in _INVITATION_COLUMNS})


@dataclass(frozen=True, slots=True)
class PlaceRow:
    """A person's final place in a finished event (a pair's members share its place)."""

    tournament_id: int
    user_id: int
    entry: int
    guild_id: int
    place: int
    finished_at: float


_PLACE_COLUMNS = "tournament_id, user_id, entry, guild_id, place, finished_at"


def _place(row: Row) -> PlaceRow:
    return PlaceRow(
        int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), float(row[5])
    )


@dataclass(frozen=True, slots=True)
class RoundRow:
    tournament_id: int
    number: int
    status: str  # checkin | playing | done
    started_at: float | None
    ends_at: float | None


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A board of a round: the entry of each seat group (None: a computer), the entries of each
    side, the person of each seat group, its dominoes table and result."""

    tournament_id: int
    round: int
    board: int  # 1 = the top table; byes have boards after the tables
    seats: tuple[int | None, ...]
    sides: tuple[tuple[int | None, ...], ...]  # one side: a bye
    people: tuple[int | None, ...]
    table_id: int | None
    status: str  # waiting | playing | done
    last_hand: bool
    points: tuple[int, ...] | None
    how: str | None  # played | time | forfeit | bye | late | corrected

    @property
    def is_bye(self) -> bool:
        return len(self.sides) == 1


_BOARD_COLUMNS = tuple(f.name for f in fields(BoardRow))


def _board(row: Row) -> BoardRow:
    points = json.loads(row["points"]) if row["points"] else None
    return BoardRow(
        tournament_id=row["tournament_id"],
        round=row["round"],
        board=row["board"],
        seats=tuple(json.loads(row["seats"])),
        sides=tuple(tuple(s) for s in json.loads(row["sides"])),
        people=tuple(json.loads(row["people"])),
        table_id=row["table_id"],
        status=row["status"],
        last_hand=bool(row["last_hand"]),
        points=None if points is None else tuple(points),
        how=row["how"],
    )


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    id: int
    tournament_id: int
    round: int
    board: int
    user_id: int
    reason: str
    before: list[Any]
    after: list[Any]
    at: float


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A deadline of an event: ``seq`` is the round it is for."""

    tournament_id: int
    kind: str
    due_at: float
    seq: int


# ---------------------------------------------------------------------------------- the repo


class TournamentRepo:
    """Rows of events, entries, rounds, boards, check-ins, corrections, posts and deadlines."""

    __slots__ = ("_db",)

    def __init__(self, db: Db) -> None:
        self._db = db

    # -- events ------------------------------------------------------------------------------

    async def create(self, event: EventRow) -> EventRow:
        """Insert ``event`` (its id is ignored) and return it with its id."""
        columns = [c for c in _EVENT_COLUMNS if c != "id"]
        values = [getattr(event, c, None) for c in columns]
        values[columns.index("fill")] = "computer" if event.fill == "computer" else "bye"
        values[columns.index("seat_fill")] = event.fill
        values[columns.index("options")] = _dumps(event.options)
        values[columns.index("paused_left")] = None
        values[columns.index("playoff_seeds")] = None
        values[columns.index("public_place")] = int(event.public_place)
        values[columns.index("checkin")] = int(event.checkin)
        if event.system == "arena":
            values[columns.index("system")] = "swiss"
        new_id = await self._db.fetchval(
            f"INSERT INTO tournaments ({', '.join(columns)}) VALUES ({_marks(columns)})"
            " RETURNING id",
            values,
        )
        return await self.get(int(new_id))  # type: ignore[return-value]

    async def get(self, event_id: int) -> EventRow | None:
        row = await self._db.fetchone(
            f"SELECT {_EVENT_SELECT} FROM tournaments WHERE id = ?", (event_id,)
        )
        return None if row is None else _event(row)

    async def open_events(self, guild_id: int | None = None) -> list[EventRow]:
        """Events not over (of one server), oldest first."""
        where = f"status IN ({_marks(OPEN)})"
        params: list[Any] = list(OPEN)
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._db.fetchall(
            f"SELECT {_EVENT_SELECT} FROM tournaments WHERE {where} ORDER BY id",
            params,
        )
        return [_event(r) for r in rows]

    async def ended_unpublished(self) -> list[EventRow]:
        """Finished or cancelled events whose end was not posted."""
        rows = await self._db.fetchall(
            f"SELECT {_EVENT_SELECT} FROM tournaments t"
            " WHERE status IN ('finished', 'cancelled') AND NOT EXISTS (SELECT 1 FROM"
            " tournament_posts p WHERE p.tournament_id = t.id AND p.key = 'end') ORDER BY id",
        )
        return [_event(r) for r in rows]

    async def public_events(self, guild_id: int, *, limit: int) -> list[EventRow]:
        """The server's latest events created where @everyone could look, newest first."""
        rows = await self._db.fetchall(
            f"SELECT {', '.join(_EVENT_COLUMNS)} FROM tournaments"
            " WHERE guild_id = ? AND public_place <> 0 ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_event(r) for r in rows]

    async def latest(self, guild_id: int, channel_id: int | None = None) -> EventRow | None:
        """The newest event of a server (in one channel if given)."""
        where, params = "guild_id = ?", [guild_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            params.append(channel_id)
        row = await self._db.fetchone(
            f"SELECT {_EVENT_SELECT} FROM tournaments WHERE {where}"
            " ORDER BY id DESC LIMIT 1",
            params,
        )
        return None if row is None else _event(row)

    async def update(self, event_id: int, *, now: float, **changes: Any) -> None:
        """Change columns of an event."""
        if "options" in changes:
            changes["options"] = _dumps(changes["options"])
        for column in ("paused_left", "playoff_seeds"):
            if changes.get(column) is not None:
                changes[column] = _dumps(changes[column])
        sets = ", ".join(f"{c} = ?" for c in changes)
        await self._db.execute(
            f"UPDATE tournaments SET {sets}, updated_at = ? WHERE id = ?",
            (*changes.values(), now, event_id),
        )

    # -- entries -----------------------------------------------------------------------------

    async def add_entry(self, entry: EntryRow) -> EntryRow:
        """Insert an entry numbered after the last one (and its people: a person already in
        the event makes this fail with an IntegrityError)."""
        number = await self._db.fetchval(
            "SELECT COALESCE(MAX(entry), 0) + 1 FROM tournament_entries WHERE tournament_id = ?",
            (entry.tournament_id,),
        )
        values = dict(zip(_ENTRY_COLUMNS, (getattr(entry, c) for c in _ENTRY_COLUMNS), strict=True))
        values["entry"] = int(number)
        await self._db.execute(
            f"INSERT INTO tournament_entries ({', '.join(values)}) VALUES ({_marks(values)})",
            list(values.values()),
        )
        for user_id in entry.members:
            await self._db.execute(
                "INSERT INTO tournament_people (tournament_id, user_id, entry) VALUES (?, ?, ?)",
                (entry.tournament_id, user_id, int(number)),
            )
        return EntryRow(**values)

    async def entries(self, event_id: int) -> list[EntryRow]:
        rows = await self._db.fetchall(
            f"SELECT {', '.join(_ENTRY_COLUMNS)} FROM tournament_entries"
            " WHERE tournament_id = ? ORDER BY entry",
            (event_id,),
        )
        return [EntryRow(**{c: r[c] for c in _ENTRY_COLUMNS}) for r in rows]

    async def entry_of(self, event_id: int, user_id: int) -> EntryRow | None:
        """The entry ``user_id`` belongs to (as registrant or partner)."""
        row = await self._db.fetchone(
            f"SELECT {', '.join('e.' + c for c in _ENTRY_COLUMNS)} FROM tournament_people p"
            " JOIN tournament_entries e ON e.tournament_id = p.tournament_id"
            " AND e.entry = p.entry WHERE p.tournament_id = ? AND p.user_id = ?",
            (event_id, user_id),
        )
        return None if row is None else EntryRow(**{c: row[c] for c in _ENTRY_COLUMNS})

    async def count_entries(self, event_id: int) -> int:
        """Entries that are in (confirmed or waiting for a partner), withdrawn left out."""
        return int(
            await self._db.fetchval(
                "SELECT count(*) FROM tournament_entries"
                " WHERE tournament_id = ? AND status != 'withdrawn'",
                (event_id,),
            )
        )

    async def set_entry(self, event_id: int, entry: int, **changes: Any) -> None:
        sets = ", ".join(f"{c} = ?" for c in changes)
        await self._db.execute(
            f"UPDATE tournament_entries SET {sets} WHERE tournament_id = ? AND entry = ?",
            (*changes.values(), event_id, entry),
        )

    async def remove_entry(self, event_id: int, entry: int) -> None:
        """Delete an entry that never played (a declined pair)."""
        for table in ("tournament_people", "tournament_entries"):
            await self._db.execute(
                f"DELETE FROM {table} WHERE tournament_id = ? AND entry = ?", (event_id, entry)
            )

    # -- a pairs event's invitations ---------------------------------------------------------

    async def invitation(
        self, event_id: int, inviter_id: int, partner_id: int
    ) -> InvitationRow | None:
        row = await self._db.fetchone(
            f"{_INVITATION_SELECT} WHERE tournament_id = ? AND inviter_id = ? AND partner_id = ?",
            (event_id, inviter_id, partner_id),
        )
        return _invitation(row)

    async def last_invitation(self, event_id: int, inviter_id: int) -> InvitationRow | None:
        """The newest invitation ``inviter_id`` sent in the event."""
        row = await self._db.fetchone(
            f"{_INVITATION_SELECT} WHERE tournament_id = ? AND inviter_id = ?"
            " ORDER BY created_at DESC LIMIT 1",
            (event_id, inviter_id),
        )
        return _invitation(row)

    async def pending_to(self, event_id: int, partner_id: int) -> list[InvitationRow]:
        """The invitations waiting for ``partner_id``'s answer, the newest first."""
        rows = await self._db.fetchall(
            f"{_INVITATION_SELECT} WHERE tournament_id = ? AND partner_id = ?"
            " AND status = 'pending' ORDER BY created_at DESC",
            (event_id, partner_id),
        )
        return [InvitationRow(**{c: r[c] for c in _INVITATION_COLUMNS}) for r in rows]

    async def invite(self, row: InvitationRow) -> None:
        """Store a pending invitation; the inviter's other pending one is cancelled."""
        await self._db.execute(
            "UPDATE tournament_invitations SET status = 'cancelled'"
            " WHERE tournament_id = ? AND inviter_id = ? AND status = 'pending'",
            (row.tournament_id, row.inviter_id),
        )
        await self._db.execute(
            f"INSERT INTO tournament_invitations ({', '.join(_INVITATION_COLUMNS)})"
            f" VALUES ({_marks(_INVITATION_COLUMNS)})"
            " ON CONFLICT (tournament_id, inviter_id, partner_id) DO UPDATE SET"
            " inviter_name = excluded.inviter_name, partner_name = excluded.partner_name,"
            " status = excluded.status, created_at = excluded.created_at",
            [getattr(row, c) for c in _INVITATION_COLUMNS],
        )

    async def answer_invitation(
        self, event_id: int, inviter_id: int, partner_id: int, status: str
    ) -> None:
        await self._db.execute(
            "UPDATE tournament_invitations SET status = ?"
            " WHERE tournament_id = ? AND inviter_id = ? AND partner_id = ?",
            (status, event_id, inviter_id, partner_id),
        )

    async def withdraw_entry(self, event: EventRow, entry: EntryRow) -> None:
        """The entry leaves the event: deleted if it could not have played yet (a pair waiting
        for its partner, or before the start and never seated), else marked withdrawn."""
        played = any(
            entry.entry in b.seats or any(entry.entry in s for s in b.sides)
            for b in await self.boards(event.id)
        )
        if entry.status == "invited" or (event.status == "registration" and not played):
            await self.remove_entry(event.id, entry.entry)
        elif entry.status != "withdrawn":
            await self.set_entry(event.id, entry.entry, status="withdrawn")

    async def forget(self, user_id: int, alias: int) -> None:
        """Remove ``user_id`` from every event: his entry in an open one is withdrawn (as when
        he withdraws himself), and everywhere his id becomes ``alias`` and his name the empty
        name of "a former player", so standings and pairings stay whole."""
        events = await self._db.fetchall(
            "SELECT DISTINCT tournament_id FROM tournament_people WHERE user_id = ?", (user_id,)
        )
        for (event_id,) in events:
            event, entry = await self.get(event_id), await self.entry_of(event_id, user_id)
            if event is not None and entry is not None and event.is_open:
                await self.withdraw_entry(event, entry)
        await self._db.execute(
            "DELETE FROM tournament_invitations WHERE inviter_id = ? OR partner_id = ?",
            (user_id, user_id),
        )
        for statement in (
            "UPDATE tournament_entries SET user_id = ?, name = '' WHERE user_id = ?",
            "UPDATE tournament_entries SET partner_id = ?, partner_name = '' WHERE partner_id = ?",
            "UPDATE tournament_people SET user_id = ? WHERE user_id = ?",
            "UPDATE tournament_checkins SET user_id = ? WHERE user_id = ?",
            "UPDATE tournament_corrections SET user_id = ? WHERE user_id = ?",
            "UPDATE tournament_places SET user_id = ? WHERE user_id = ?",
            "UPDATE tournaments SET host_id = ? WHERE host_id = ?",
        ):
            await self._db.execute(statement, (alias, user_id))
        boards = await self._db.fetchall(
            "SELECT tournament_id, round, board, people FROM tournament_boards"
            " WHERE people LIKE ?",
            (f"%{user_id}%",),
        )
        for event_id, round_, board, people in boards:
            seated = [alias if p == user_id else p for p in json.loads(people)]
            await self._db.execute(
                "UPDATE tournament_boards SET people = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ?",
                (_dumps(seated), event_id, round_, board),
            )

    # -- final places ------------------------------------------------------------------------

    async def put_places(self, rows: Iterable[PlaceRow]) -> None:
        """Store an event's final places (once: a second call for the event changes nothing)."""
        rows = list(rows)
        if not rows:
            return
        await self._db.executemany(
            f"INSERT INTO tournament_places ({_PLACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (tournament_id, user_id) DO NOTHING",
            [
                (r.tournament_id, r.user_id, r.entry, r.guild_id, r.place, r.finished_at)
                for r in rows
            ],
        )

    async def final_places(self, event_id: int) -> list[PlaceRow]:
        """A finished event's stored places, best first (empty before its end)."""
        rows = await self._db.fetchall(
            f"SELECT {_PLACE_COLUMNS} FROM tournament_places WHERE tournament_id = ?"
            " ORDER BY place, entry, user_id",
            (event_id,),
        )
        return [_place(r) for r in rows]

    async def last_finished(self, guild_id: int) -> int | None:
        """The server's event that finished last (by its stored places), if any."""
        row = await self._db.fetchone(
            "SELECT tournament_id FROM tournament_places WHERE guild_id = ?"
            " ORDER BY finished_at DESC, tournament_id DESC LIMIT 1",
            (guild_id,),
        )
        return None if row is None else int(row[0])

    async def podium_finishes(
        self, after: tuple[int, int] = (0, 0), *, limit: int = 500, top: int = 3
    ) -> list[PlaceRow]:
        """Stored places of ``top`` or better of every event, after ``(tournament_id,
        user_id)``, in that order (pages for the podium achievement's back-fill)."""
        rows = await self._db.fetchall(
            f"SELECT {_PLACE_COLUMNS} FROM tournament_places WHERE place <= ?"
            " AND (tournament_id > ? OR (tournament_id = ? AND user_id > ?))"
            " ORDER BY tournament_id, user_id LIMIT ?",
            (top, after[0], after[0], after[1], limit),
        )
        return [_place(r) for r in rows]

    # -- rounds and boards -------------------------------------------------------------------

    async def put_round(self, round_: RoundRow) -> None:
        await self._db.execute(
            "INSERT INTO tournament_rounds (tournament_id, number, status, started_at, ends_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, number) DO UPDATE SET"
            " status = excluded.status, started_at = excluded.started_at,"
            " ends_at = excluded.ends_at",
            (
                round_.tournament_id,
                round_.number,
                round_.status,
                round_.started_at,
                round_.ends_at,
            ),
        )

    async def rounds(self, event_id: int) -> list[RoundRow]:
        rows = await self._db.fetchall(
            "SELECT tournament_id, number, status, started_at, ends_at FROM tournament_rounds"
            " WHERE tournament_id = ? ORDER BY number",
            (event_id,),
        )
        return [RoundRow(*r) for r in rows]

    async def put_boards(self, boards: Iterable[BoardRow]) -> None:
        for b in boards:
            await self._db.execute(
                f"INSERT INTO tournament_boards ({', '.join(_BOARD_COLUMNS)})"
                f" VALUES ({_marks(_BOARD_COLUMNS)})",
                (
                    b.tournament_id,
                    b.round,
                    b.board,
                    _dumps(list(b.seats)),
                    _dumps([list(s) for s in b.sides]),
                    _dumps(list(b.people)),
                    b.table_id,
                    b.status,
                    int(b.last_hand),
                    None if b.points is None else _dumps(list(b.points)),
                    b.how,
                ),
            )

    async def boards(self, event_id: int, round_: int | None = None) -> list[BoardRow]:
        """The boards of an event (of one round), in round and board order."""
        where, params = "tournament_id = ?", [event_id]
        if round_ is not None:
            where += " AND round = ?"
            params.append(round_)
        rows = await self._db.fetchall(
            f"SELECT {', '.join(_BOARD_COLUMNS)} FROM tournament_boards WHERE {where}"
            " ORDER BY round, board",
            params,
        )
        return [_board(r) for r in rows]

    async def board_of_table(self, table_id: int) -> BoardRow | None:
        row = await self._db.fetchone(
            f"SELECT {', '.join(_BOARD_COLUMNS)} FROM tournament_boards WHERE table_id = ?",
            (table_id,),
        )
        return None if row is None else _board(row)

    async def set_board(self, event_id: int, round_: int, board: int, **changes: Any) -> int:
        """Change a board; ``status_was`` makes it conditional. Returns the rows changed."""
        was = changes.pop("status_was", None)
        if "points" in changes and changes["points"] is not None:
            changes["points"] = _dumps(list(changes["points"]))
        if "last_hand" in changes:
            changes["last_hand"] = int(changes["last_hand"])
        sets = ", ".join(f"{c} = ?" for c in changes)
        sql = f"UPDATE tournament_boards SET {sets} WHERE tournament_id = ? AND round = ?"
        sql += " AND board = ?"
        params = [*changes.values(), event_id, round_, board]
        if was is not None:
            sql += " AND status = ?"
            params.append(was)
        return await self._db.execute(sql, params)

    # -- check-ins ---------------------------------------------------------------------------

    async def check_in(
        self, event_id: int, round_: int, kind: str, user_id: int, now: float
    ) -> bool:
        """Note a check-in (``checkin``) or a click in at a table (``present``); False if it
        was noted already."""
        changed = await self._db.execute(
            "INSERT INTO tournament_checkins (tournament_id, round, kind, user_id, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (event_id, round_, kind, user_id, now),
        )
        return changed > 0

    async def checked_in(self, event_id: int, round_: int, kind: str) -> set[int]:
        rows = await self._db.fetchall(
            "SELECT user_id FROM tournament_checkins WHERE tournament_id = ? AND round = ?"
            " AND kind = ?",
            (event_id, round_, kind),
        )
        return {int(r[0]) for r in rows}

    # -- corrections -------------------------------------------------------------------------

    async def add_correction(
        self,
        event_id: int,
        round_: int,
        board: int,
        user_id: int,
        reason: str,
        before: Sequence[Any],
        after: Sequence[Any],
        now: float,
    ) -> None:
        await self._db.execute(
            "INSERT INTO tournament_corrections (tournament_id, round, board, user_id, reason,"
            " before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event_id,
                round_,
                board,
                user_id,
                reason,
                _dumps(list(before)),
                _dumps(list(after)),
                now,
            ),
        )

    async def corrections(self, event_id: int) -> list[CorrectionRow]:
        rows = await self._db.fetchall(
            "SELECT id, tournament_id, round, board, user_id, reason, before, after, at"
            " FROM tournament_corrections WHERE tournament_id = ? ORDER BY id",
            (event_id,),
        )
        return [
            CorrectionRow(
                r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), json.loads(r[7]), r[8]
            )
            for r in rows
        ]

    # -- publication marks -------------------------------------------------------------------

    async def posts(self, event_id: int) -> dict[str, int | None]:
        """What was published of the event: key -> message id."""
        rows = await self._db.fetchall(
            "SELECT key, message_id FROM tournament_posts WHERE tournament_id = ?", (event_id,)
        )
        return {r[0]: r[1] for r in rows}

    async def mark_post(self, event_id: int, key: str, message_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO tournament_posts (tournament_id, key, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (tournament_id, key) DO UPDATE SET message_id = excluded.message_id",
            (event_id, key, message_id),
        )

    # -- deadlines ---------------------------------------------------------------------------

    async def set_timer(self, timer: TimerRow) -> None:
        await self._db.execute(
            "INSERT INTO tournament_deadlines (tournament_id, kind, due_at, seq)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, kind) DO UPDATE SET"
            " due_at = excluded.due_at, seq = excluded.seq",
            (timer.tournament_id, timer.kind, timer.due_at, timer.seq),
        )

    async def clear_timers(self, event_id: int, kinds: Iterable[str] | None = None) -> None:
        if kinds is None:
            await self._db.execute(
                "DELETE FROM tournament_deadlines WHERE tournament_id = ?", (event_id,)
            )
            return
        kinds = list(kinds)
        if kinds:
            await self._db.execute(
                f"DELETE FROM tournament_deadlines WHERE tournament_id = ?"
                f" AND kind IN ({_marks(kinds)})",
                (event_id, *kinds),
            )

    async def timers(self, event_id: int | None = None) -> list[TimerRow]:
        where, params = ("", []) if event_id is None else (" WHERE tournament_id = ?", [event_id])
        rows = await self._db.fetchall(
            f"SELECT tournament_id, kind, due_at, seq FROM tournament_deadlines{where}"
            " ORDER BY due_at",
            params,
        )
        return [TimerRow(*r) for r in rows]

    # -- server settings ---------------------------------------------------------------------

    async def organiser_role(self, guild_id: int) -> int | None:
        value = await self._db.fetchval(
            "SELECT organiser_role FROM tournament_servers WHERE guild_id = ?", (guild_id,)
        )
        return None if value is None else int(value)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO tournament_servers (guild_id, organiser_role) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role",
            (guild_id, role_id),
        )
