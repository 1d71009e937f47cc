"""The table service: runs dominoes tables and their matches, knowing nothing of Discord.

The Discord layer calls the coroutines below and is told what happened through
:class:`TableObserver` callbacks. Every action is committed to the :class:`~bot.store.Store`
before the call returns; the state in memory can always be rebuilt from the action log
(:meth:`TableService.load_open_tables`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import (
    AlreadySeated,
    IllegalMove,
    InvalidOptions,
    LimitReached,
    NotHost,
    NotInvited,
    NotSeated,
    NotYourTurn,
    PlaceBusy,
    SeatsEmpty,
    SeatTakenOver,
    StaleAction,
    TableFinished,
    TableFull,
    TableNotFound,
    TablesElsewhere,
    WrongStatus,
)
from bot.limits import NO_LIMITS, Gate, Limits
from bot.store import (
    ActionCommit,
    DeadlineRow,
    FeedRow,
    PlayerSettingsRow,
    SeatRow,
    Store,
    TableRow,
    Transaction,
)
from bot.tables import computer
from bot.tables.clock import Clock
from bot.tables.history import TAKEOVER, History
from domino import (
    Action,
    HandResult,
    IllegalAction,
    Match,
    Outcome,
    Resign,
    Ruleset,
    View,
    decode_action,
    encode_action,
    forced_action,
    preset,
)

__all__ = [
    "DEFAULT_TURN_TIMER",
    "MAX_TIMEOUTS",
    "MAX_TURN_TIMER",
    "MIN_TURN_TIMER",
    "ActionResult",
    "TableInfo",
    "TableObserver",
    "TableService",
]

log = logging.getLogger(__name__)

MIN_TURN_TIMER = 30
MAX_TURN_TIMER = 600
DEFAULT_TURN_TIMER = 120
MAX_TIMEOUTS = 3  # time-outs in a row before a computer takes the person's seats
LOBBY_TTL = 30 * 60  # an idle lobby closes after this many seconds
CHALLENGE_TTL = 24 * 3600  # an unanswered challenge closes after this many seconds
MAX_TABLE_ID = 2**63 - 1  # ids beyond this cannot exist (the database's integer range)
HISTORIES_KEPT = 256  # match histories kept read (each is read on from the store when used)
TURN_KINDS = ("move", "remind", "timeout", "pause", "forced")
FORCED_DELAY = 3.0  # seconds before a person's only possible move is made for him
_UNSET: Any = object()


def seat_groups(ruleset: Ruleset) -> tuple[tuple[int, ...], ...]:
    """The seats one person takes: one seat each, or (seven-seven) both seats of a team."""
    if ruleset.people < ruleset.seats:
        return tuple(ruleset.seats_of_side(side) for side in range(ruleset.sides))
    return tuple((seat,) for seat in range(ruleset.seats))


# ------------------------------------------------------------------------------ public values


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A snapshot of one table for the Discord layer. Holds no hidden tile in its public API."""

    table: TableRow
    ruleset: Ruleset
    seats: tuple[SeatRow | None, ...]  # one entry per seat, None while empty (lobby)
    seq: int  # actions recorded so far: the version of the table
    turn_started: float | None  # when the current turn's clock started (may lie in the future)
    _match: Match | None = field(default=None, repr=False, compare=False)
    invited: tuple[int, ...] = ()  # a challenge: the people it invites (empty: an open table)
    declined: tuple[int, ...] = ()  # invitees who declined
    expires_at: float | None = None  # a lobby or challenge closes then unless it started

    @property
    def is_challenge(self) -> bool:
        return bool(self.invited)

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def status(self) -> str:
        return self.table.status

    @property
    def host_id(self) -> int:
        return self.table.host_id

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The seats a person takes together (see :func:`seat_groups`)."""
        return seat_groups(self.ruleset)

    @property
    def names(self) -> list[str]:
        """Display name per seat ("" for an empty seat), for pictures."""
        return [s.name if s is not None else "" for s in self.seats]

    @property
    def empty_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s is None)

    @property
    def is_full(self) -> bool:
        return not self.empty_seats

    @property
    def turn(self) -> int | None:
        """The seat to move, or None (lobby, over)."""
        return None if self._match is None else self._match.turn

    @property
    def turn_seat(self) -> SeatRow | None:
        turn = self.turn
        return None if turn is None else self.seats[turn]

    @property
    def deadline(self) -> float | None:
        """When the bot plays for the person to move (None on a computer's turn)."""
        seat = self.turn_seat
        if seat is None or seat.kind != "human" or self.turn_started is None:
            return None
        return self.turn_started + self.table.turn_timer

    @property
    def move_forced(self) -> bool:
        """The seat to move has one possible move, which the bot makes for it in a moment."""
        return self._match is not None and forced_action(self._match) is not None

    def seats_of(self, user_id: int) -> tuple[int, ...]:
        """Seats of ``user_id`` that he still plays himself."""
        return tuple(
            s.seat
            for s in self.seats
            if s is not None and s.user_id == user_id and s.kind == "human"
        )

    def is_seated(self, user_id: int) -> bool:
        """True if ``user_id`` has a seat here, even one a computer took over."""
        return any(s is not None and s.user_id == user_id for s in self.seats)

    def public_view(self) -> View | None:
        """What everyone may see (None before the match starts)."""
        return None if self._match is None else self._match.public_view()


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What one committed action did."""

    table: TableInfo  # the table after the action
    seq: int  # index of the action in the log
    seat: int  # the seat that acted (for a resignation: the resigning seat)
    action: Action
    by: str  # "player" | "computer" | "timeout" | "forced" | "takeover" (the timer's last)
    hand_result: HandResult | None  # set when the action ended a hand
    outcome: Outcome | None  # set when the action ended the match

    @property
    def view(self) -> View:
        """The public view after the action."""
        view = self.table.public_view()
        assert view is not None
        return view


class TableObserver:
    """Callbacks from the service; subclass and override what you need (all default to no-op).

    Calls for one table arrive in order, one at a time, after the change is committed, on a
    task of their own: an observer may call back into the service. Exceptions are logged.
    """

    async def on_lobby_changed(self, table: TableInfo) -> None:
        """Someone joined or left, a computer was added, or the table was created."""

    async def on_table_started(self, table: TableInfo) -> None:
        """The match began (post the game message, open a thread…)."""

    async def on_action(self, result: ActionResult) -> None:
        """The state of a running table changed: redraw its public message."""

    async def on_hand_ended(self, table: TableInfo, result: HandResult) -> None:
        """A hand ended; unless the match ended too, the next one starts after the pause."""

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        """The match is over."""

    async def on_table_cancelled(self, table: TableInfo) -> None:
        """The host (or a manager) cancelled the table."""

    async def on_reminder(self, table: TableInfo, seat: int, user_id: int, deadline: float) -> None:
        """Half the turn timer has passed and ``user_id`` has not moved."""

    async def on_seat_taken_over(
        self, table: TableInfo, user_id: int, seats: tuple[int, ...]
    ) -> None:
        """After too many time-outs a computer plays ``seats`` of ``user_id`` for the rest."""

    async def on_pause_over(self, table: TableInfo) -> None:
        """The pause after a hand is over: the next hand may be shown."""


# ----------------------------------------------------------------------------- the service


@dataclass(eq=False)
class _Table:
    """A table in memory."""

    row: TableRow
    ruleset: Ruleset
    seats: list[SeatRow | None]
    match: Match | None = None
    seed: int | None = None
    seq: int = 0  # actions in the log (kept here: the engine's action list is built lazily)
    turn_started: float | None = None
    invited: tuple[int, ...] = ()
    declined: tuple[int, ...] = ()
    expires_at: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    notes: deque[tuple[str, tuple[Any, ...]]] = field(default_factory=deque)
    notifier: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def table(self) -> TableRow:
        return self.row

    def is_seated(self, user_id: int) -> bool:
        """True if ``user_id`` has a seat here, even one a computer took over."""
        return any(s is not None and s.user_id == user_id for s in self.seats)

    def info(self) -> TableInfo:
        return TableInfo(
            table=self.row,
            ruleset=self.ruleset,
            seats=tuple(self.seats),
            seq=self.seq,
            turn_started=self.turn_started,
            _match=self.match,
            invited=self.invited,
            declined=self.declined,
            expires_at=self.expires_at,
        )

    def user_seats(self, user_id: int, *, taken_over: bool = False) -> tuple[int, ...]:
        return tuple(
            s.seat
            for s in self.seats
            if s is not None and s.user_id == user_id and (taken_over or s.kind == "human")
        )


class TableService:
    """Creates tables, seats people and computers, runs matches, times turns, recovers."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        ai_level: str = computer.DEFAULT_LEVEL,
        ai_budget: float = computer.DEFAULT_BUDGET,
        computer_delay: float = 0.0,
        computer_pace: computer.Pace | None = computer.HUMAN_PACE,
        hand_pause: float = 5.0,
        max_timeouts: int = MAX_TIMEOUTS,
        lobby_ttl: float = LOBBY_TTL,
        challenge_ttl: float = CHALLENGE_TTL,
        owns: Callable[[int | None], bool] = lambda guild_id: True,
        limits: Limits = NO_LIMITS,
    ) -> None:
        """``clock`` gives Unix seconds (inject a fake one in tests); ``computer_delay`` is the
        pause before a computer starts its move; ``computer_pace`` draws its answer time (the
        same distribution whatever the position; None: answer as soon as computed);
        ``hand_pause`` the pause between hands;
        ``lobby_ttl`` / ``challenge_ttl`` how long a lobby / an unanswered challenge stays open;
        ``owns(guild_id)`` whether this process runs that server's tables; ``limits`` what one
        person or server may keep open (none unless given; the bot gives the settings')."""
        if ai_level not in computer.LEVELS:
            raise ValueError(f"ai_level must be one of {computer.LEVELS}")
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        self.ai_level = ai_level
        self.ai_budget = ai_budget
        self.computer_delay = computer_delay
        self.computer_pace = computer_pace
        self.hand_pause = hand_pause
        self.max_timeouts = max_timeouts
        self.forced_delay = FORCED_DELAY
        self.lobby_ttl = lobby_ttl
        self.challenge_ttl = challenge_ttl
        self.owns = owns
        self.gate = Gate(limits, clock)
        self._tables: dict[int, _Table] = {}
        self._by_message: dict[int, int] = {}  # lobby and game message ids of open tables
        # A deadline run while this process cannot prove it holds the table's lease (being
        # renewed late, or lost: then the table leaves this process) runs again later.
        self.scheduler = Clock(clock, quiet=(TablesElsewhere,))
        self.scheduler.handlers.update(
            move=self._on_move,
            remind=self._on_remind,
            timeout=self._on_timeout,
            pause=self._on_pause,
            expire=self._on_expire,
            forced=self._on_forced,
        )
        self._observers: list[TableObserver] = []
        self._notifiers: set[asyncio.Task[None]] = set()
        self._histories: OrderedDict[int, History] = OrderedDict()

    # -- observers --------------------------------------------------------------------------

    def add_observer(self, observer: TableObserver) -> None:
        """Be told about changes (see :class:`TableObserver`)."""
        self._observers.append(observer)

    def remove_observer(self, observer: TableObserver) -> None:
        self._observers.remove(observer)

    def _notify(self, rt: _Table, method: str, *args: Any) -> None:
        if not self._observers:
            return
        rt.notes.append((method, args))
        if rt.notifier is None or rt.notifier.done():
            rt.notifier = asyncio.create_task(self._drain(rt), name=f"table-{rt.id}-observers")
            self._notifiers.add(rt.notifier)
            rt.notifier.add_done_callback(self._notifiers.discard)

    async def _drain(self, rt: _Table) -> None:
        while rt.notes:
            method, args = rt.notes.popleft()
            for observer in list(self._observers):
                try:
                    await getattr(observer, method)(*args)
                except Exception:
                    log.exception("observer %s.%s failed for table %s", observer, method, rt.id)

    async def idle(self) -> None:
        """Wait until every observer call queued so far has run (for tests and shutdown)."""
        while self._notifiers:
            await asyncio.gather(*list(self._notifiers), return_exceptions=True)

    # -- reading ----------------------------------------------------------------------------

    async def get(self, table_id: int) -> TableInfo:
        """The table, loading it from the store if needed; finished tables are read too."""
        return (await self._table(table_id, closed=True)).info()

    def open_tables(self) -> list[TableInfo]:
        """Every table in the lobby or running, as kept in memory."""
        return [rt.info() for rt in self._tables.values()]

    def table_in(
        self, channel_id: int | None = None, thread_id: int | None = None
    ) -> TableInfo | None:
        """The running table of a thread, or the one running directly in a channel."""
        for rt in self._tables.values():
            if rt.row.status != "running":
                continue
            if thread_id is not None and rt.row.thread_id == thread_id:
                return rt.info()
            if (
                channel_id is not None
                and rt.row.thread_id is None
                and rt.row.channel_id == channel_id
            ):
                return rt.info()
        return None

    def tables_of(self, user_id: int, guild_id: int | None = _UNSET) -> list[TableInfo]:
        """Open tables where ``user_id`` has a seat (of one server if ``guild_id`` is given)."""
        return [
            rt.info()
            for rt in self._tables.values()
            if rt.user_seats(user_id, taken_over=True)
            and (guild_id is _UNSET or rt.row.guild_id == guild_id)
        ]

    def tables_in_guild(self, guild_id: int | None) -> list[TableInfo]:
        """Open tables of one server, oldest first."""
        return [rt.info() for rt in self._tables.values() if rt.row.guild_id == guild_id]

    async def table_by_message(self, message_id: int) -> TableInfo | None:
        """The table whose lobby or game message is ``message_id`` (open ones from memory)."""
        rt = self._tables.get(self._by_message.get(message_id, 0))
        if rt is not None:
            return rt.info()
        row = await self.store.tables.by_message(message_id)
        return None if row is None else await self.get(row.id)

    async def hand_end_view(self, table_id: int, hand_number: int) -> tuple[int, View]:
        """The public view right after hand ``hand_number`` ended (its final position), and
        the number of actions up to then."""
        rt = await self._table(table_id, closed=True)
        assert rt.match is not None and rt.seed is not None
        match_row = await self.store.matches.get(rt.id)
        assert match_row is not None
        match = Match.new(rt.ruleset, match_row.seed, match_row.deal)
        seq = 0
        for action in rt.match.actions:
            if len(match.hand_results) >= hand_number:
                break
            match = match.apply(action)
            seq += 1
        return seq, match.public_view()

    async def history(self, table_id: int) -> History:
        """The match's public history as stored (read on from where the last call stopped)."""
        history = self._histories.get(table_id)
        if history is None:
            match_row = await self.store.matches.get(table_id)
            if match_row is None:
                raise WrongStatus("The match has not started yet.")
            ruleset = Ruleset.from_dict(match_row.ruleset)
            history = History(ruleset, match_row.seed, match_row.deal)
        history.extend(await self.store.actions.list(table_id, since=history.seq))
        self._histories[table_id] = history
        self._histories.move_to_end(table_id)
        while len(self._histories) > HISTORIES_KEPT:
            self._histories.popitem(last=False)
        return history

    async def unpublished(self) -> list[int]:
        """Closed tables of this process whose end is not published yet."""
        ids = await self.store.tables.unpublished()
        out = []
        for table_id in ids:
            row = await self.store.tables.get(table_id)
            if row is not None and self.owns(row.guild_id):
                out.append(table_id)
        return out

    async def feed(self, table_id: int) -> FeedRow:
        """How far the table's public messages were brought."""
        return await self.store.feeds.get(table_id)

    async def save_feed(self, feed: FeedRow) -> None:
        await self.store.feeds.save(feed)

    async def player_settings(self, user_id: int) -> PlayerSettingsRow:
        """What ``user_id`` chose with ``/domino settings`` (the defaults if nothing)."""
        return await self.store.player_settings.get(user_id)

    async def save_player_settings(self, settings: PlayerSettingsRow) -> None:
        await self.store.player_settings.save(settings, now=self.clock())

    async def views_for(self, table_id: int, user_id: int) -> list[View]:
        """The private view of each seat ``user_id`` holds (two in seven-seven), seat order."""
        rt = await self._running(table_id)
        seats = rt.user_seats(user_id, taken_over=True)
        if not seats:
            raise NotSeated("You are not seated at this table.", table_id=table_id)
        assert rt.match is not None
        return [rt.match.view(seat) for seat in seats]

    # -- lobby ------------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        host_id: int,
        host_name: str,
        variant: str,
        options: dict[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        turn_timer: int = DEFAULT_TURN_TIMER,
        locale: str | None = None,
        seat_host: bool = True,
        invited: Iterable[int] = (),
        parent_id: int | None = None,
        private_thread: bool = False,
        public_place: bool = False,
    ) -> TableInfo:
        """Open a lobby for ``variant`` with ``options`` (checked by the engine's ``preset``).

        With ``invited`` the table is a challenge: only those people may take its seats.
        ``parent_id`` and ``private_thread`` say where ``channel_id`` is when it is a thread;
        ``public_place`` that the server's @everyone could view it (the web shows the match)."""
        self._check_owned(guild_id)
        invited = tuple(dict.fromkeys(u for u in invited if u != host_id))
        self._check_challenged(host_id, invited)
        clean = {k: v for k, v in (options or {}).items() if v is not None}
        ruleset = _ruleset(variant, clean)
        if not MIN_TURN_TIMER <= turn_timer <= MAX_TURN_TIMER:
            raise InvalidOptions(
                "The turn timer must be between {min} and {max} seconds.",
                min=MIN_TURN_TIMER,
                max=MAX_TURN_TIMER,
            )
        now = self.clock()
        async with self.store.transaction() as tx:
            await self._gate_open(tx, host_id, guild_id)
            row = await tx.tables.create(
                host_id=host_id,
                variant=variant,
                options=clean,
                now=now,
                guild_id=guild_id,
                channel_id=channel_id,
                turn_timer=turn_timer,
                locale=locale,
                parent_id=parent_id,
                private_thread=private_thread,
                public_place=public_place,
            )
            seats: list[SeatRow | None] = [None] * ruleset.seats
            if seat_host:
                for seat in seat_groups(ruleset)[0]:
                    seats[seat] = SeatRow(row.id, seat, host_id, host_name, "human")
                    await tx.seats.put(seats[seat])  # type: ignore[arg-type]
                await tx.players.upsert(host_id, host_name, now=now, locale=locale)
            if invited:
                await tx.invitees.add(row.id, invited)
            expires = now + (self.challenge_ttl if invited else self.lobby_ttl)
            expiry = DeadlineRow(row.id, "expire", expires, 0)
            await tx.deadlines.set(expiry)
        rt = _Table(row=row, ruleset=ruleset, seats=seats, invited=invited, expires_at=expires)
        self._keep(rt)
        self.gate.opened(host_id)
        self._timed(expiry)
        self._notify(rt, "on_lobby_changed", rt.info())
        return rt.info()

    async def join(
        self, table_id: int, user_id: int, name: str, *, group: int | None = None
    ) -> TableInfo:
        """Seat ``user_id`` in the first free seat (or seat group ``group``)."""
        rt = await self._table(table_id)
        async with rt.lock:
            self._check_lobby(rt)
            if rt.invited and user_id not in rt.invited:
                raise NotInvited("This challenge is not for you.")
            if rt.user_seats(user_id):
                raise AlreadySeated("You already have a seat at this table.")
            seats = self._free_group(rt, group)
            now = self.clock()
            rows = [SeatRow(rt.id, s, user_id, name, "human") for s in seats]
            async with self.store.transaction() as tx:
                if self.gate.counts_people:
                    await tx.limits.lock([user_id])
                    self.gate.check_join(await tx.limits.held(user_id))
                for r in rows:
                    await tx.seats.put(r)
                await tx.players.upsert(user_id, name, now=now)
            for r in rows:
                rt.seats[r.seat] = r
            info = rt.info()
        self._notify(rt, "on_lobby_changed", info)
        return info

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Free the seats of ``user_id`` in a lobby (use :meth:`resign` once it runs)."""
        rt = await self._table(table_id)
        async with rt.lock:
            if rt.row.status == "running":
                raise WrongStatus("The match has started: resign instead.", status="running")
            self._check_lobby(rt)
            seats = rt.user_seats(user_id)
            if not seats:
                raise NotSeated("You are not seated at this table.")
            await self.store.seats.remove(rt.id, seats)
            for s in seats:
                rt.seats[s] = None
            info = rt.info()
        self._notify(rt, "on_lobby_changed", info)
        return info

    async def decline(self, table_id: int, user_id: int) -> TableInfo:
        """An invitee declines (or the host withdraws) a challenge: it closes."""
        rt = await self._table(table_id)
        async with rt.lock:
            self._check_lobby(rt)
            if not rt.invited or (user_id not in rt.invited and user_id != rt.row.host_id):
                raise NotInvited("This challenge is not for you.")
            now = self.clock()
            async with self.store.transaction() as tx:
                if user_id != rt.row.host_id:
                    await tx.invitees.answer(rt.id, user_id, "declined")
                await tx.tables.set_status(rt.id, "cancelled", now=now, reason="declined")
                await tx.deadlines.clear(rt.id)
            if user_id != rt.row.host_id:
                rt.declined = (*rt.declined, user_id)
            rt.row = dataclasses.replace(
                rt.row, status="cancelled", updated_at=now, closed_reason="declined"
            )
            info = rt.info()
            self._close(rt)
        self._notify(rt, "on_table_cancelled", info)
        return info

    async def add_computer(
        self,
        table_id: int,
        user_id: int,
        *,
        level: str | None = None,
        group: int | None = None,
    ) -> TableInfo:
        """The host seats a computer player (a whole team in seven-seven)."""
        rt = await self._table(table_id)
        level = level or self.ai_level
        if level not in computer.LEVELS:
            raise InvalidOptions(
                "The computer level must be one of: {allowed}.",
                allowed=", ".join(computer.LEVELS),
            )
        async with rt.lock:
            self._check_lobby(rt)
            self._check_host(rt, user_id)
            seats = self._free_group(rt, group)
            rows = [_computer_seat(rt.id, s, level) for s in seats]
            async with self.store.transaction() as tx:
                for r in rows:
                    await tx.seats.put(r)
            for r in rows:
                rt.seats[r.seat] = r
            info = rt.info()
        self._notify(rt, "on_lobby_changed", info)
        return info

    async def start(
        self,
        table_id: int,
        user_id: int,
        *,
        fill_with_computers: bool = False,
        threaded: bool = False,
    ) -> TableInfo:
        """The host starts the match; empty seats raise :class:`SeatsEmpty` unless filled.

        ``threaded``: the match gets a thread of its own, so it does not occupy the channel."""
        rt = await self._table(table_id)
        async with rt.lock:
            self._check_lobby(rt)
            self._check_host(rt, user_id)
            people = [s.user_id for s in rt.seats if s is not None and s.user_id is not None]
            empty = [i for i, s in enumerate(rt.seats) if s is None]
            if empty and not fill_with_computers:
                raise SeatsEmpty(
                    "Some seats are empty: fill them with computer players?",
                    empty=len(empty),
                )
            place = rt.row.channel_id
            if not threaded and place is not None and self.place_busy(place, exclude=rt.id):
                raise PlaceBusy("A match is already running here.")
            seed = self.seed_source()
            match = Match.new(rt.ruleset, seed)
            now = self.clock()
            fillers = [_computer_seat(rt.id, s, self.ai_level) for s in empty]
            seats = list(rt.seats)
            for r in fillers:
                seats[r.seat] = r
            timers = self._turn_deadlines(rt, now, hand_ended=False, match=match, seats=seats)
            async with self.store.transaction() as tx:
                if self.gate.limits.matches_per_user:
                    await tx.limits.lock(people)
                    self.gate.check_start([await tx.limits.held(p) for p in set(people)])
                for r in fillers:
                    await tx.seats.put(r)
                await tx.matches.create(rt.id, ruleset=rt.ruleset.to_dict(), seed=seed, now=now)
                await tx.tables.set_status(rt.id, "running", now=now)
                if threaded:  # the thread comes a moment later; the channel stays free
                    await tx.tables.set_messages(rt.id, now=now, thread_id=0)
                await tx.deadlines.clear(rt.id)
                await tx.deadlines.replace(rt.id, (), timers)
            # Committed: now change the memory.
            rt.seats[:] = seats
            rt.match, rt.seed = match, seed
            rt.row = dataclasses.replace(rt.row, status="running", updated_at=now)
            if threaded:
                rt.row = dataclasses.replace(rt.row, thread_id=0)
            rt.turn_started, rt.expires_at = now, None
            self.scheduler.clear(rt.id)
            self._timed(*timers)
            info = rt.info()
        self._notify(rt, "on_table_started", info)
        return info

    async def open_seated(
        self,
        *,
        host_id: int,
        ruleset: Ruleset,
        options: dict[str, Any],
        people: Sequence[tuple[int, str] | None],
        guild_id: int | None,
        channel_id: int | None,
        turn_timer: int = DEFAULT_TURN_TIMER,
        locale: str | None = None,
        within: Callable[[Transaction, int], Awaitable[None]] | None = None,
        public_place: bool = False,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        level: str | None = None,
    ) -> TableInfo:
        """Open a table whose people are chosen already (an event's board, a daily deal) and
        start its match at once in a thread of its own: ``people`` holds (user id, name) per
        seat group, None for a computer (of ``level``, else the service's). ``within(tx,
        table_id)`` writes what belongs with it in the same transaction; ``seed`` and ``deal``
        fix the match's deals (else a new seed). The per-person and per-server limits do not
        apply (the event has its own).
        """
        self._check_owned(guild_id)
        groups = seat_groups(ruleset)
        if len(people) != len(groups):
            raise ValueError(f"a {ruleset.id} table seats {len(groups)} people or computers")
        if seed is None:
            seed = self.seed_source()
        match = Match.new(ruleset, seed, deal)
        now = self.clock()
        async with self.store.transaction() as tx:
            row = await tx.tables.create(
                host_id=host_id,
                variant=ruleset.id,
                options=options,
                now=now,
                guild_id=guild_id,
                channel_id=channel_id,
                turn_timer=turn_timer,
                locale=locale,
                public_place=public_place,
            )
            seats: list[SeatRow | None] = [None] * ruleset.seats
            for group, person in zip(groups, people, strict=True):
                for s in group:
                    if person is None:
                        seats[s] = _computer_seat(row.id, s, level or self.ai_level)
                    else:
                        seats[s] = SeatRow(row.id, s, person[0], person[1], "human")
            for seat_row in seats:
                assert seat_row is not None
                await tx.seats.put(seat_row)
            for person in dict.fromkeys(p for p in people if p is not None):
                await tx.players.upsert(person[0], person[1], now=now)
            rt = _Table(row=row, ruleset=ruleset, seats=seats)
            timers = self._turn_deadlines(rt, now, hand_ended=False, match=match, seats=seats)
            await tx.matches.create(
                row.id, ruleset=ruleset.to_dict(), seed=seed, now=now, deal=deal
            )
            await tx.tables.set_status(row.id, "running", now=now)
            await tx.tables.set_messages(row.id, now=now, thread_id=0)
            await tx.deadlines.replace(row.id, (), timers)
            if within is not None:
                await within(tx, row.id)
        rt.match, rt.seed = match, seed
        rt.row = dataclasses.replace(row, status="running", updated_at=now, thread_id=0)
        rt.turn_started = now
        self._keep(rt)
        self._timed(*timers)
        info = rt.info()
        self._notify(rt, "on_table_started", info)
        return info

    async def take_over(self, table_id: int, user_id: int) -> TableInfo | None:
        """A computer plays the seats of ``user_id`` from now on (he did not show up); None if
        he has none left to take or the table is not running here."""
        rt = self._tables.get(table_id)
        if rt is None:
            return None
        async with rt.lock:
            taken = rt.user_seats(user_id)
            if rt.row.status != "running" or rt.match is None or not taken:
                return None
            seats = list(rt.seats)
            for s in taken:
                old = seats[s]
                assert old is not None
                seats[s] = dataclasses.replace(old, kind="computer", ai_level=self.ai_level)
            now = self.clock()
            kinds = ("move", "remind", "timeout", "forced")
            timers: list[DeadlineRow] = []
            if rt.match.turn in taken and rt.match.outcome is None:
                start = max(now, rt.turn_started or now)
                timers = [
                    d
                    for d in self._turn_deadlines(rt, start, hand_ended=False, seats=seats)
                    if d.kind in kinds
                ]
            async with self.store.transaction() as tx:
                for s in taken:
                    await tx.seats.put(seats[s])  # type: ignore[arg-type]
                if timers:
                    await tx.deadlines.replace(rt.id, kinds, timers)
            rt.seats[:] = seats
            if timers:
                self.scheduler.clear(rt.id, kinds)
                self._timed(*timers)
            info = rt.info()
        self._notify(rt, "on_seat_taken_over", info, user_id, taken)
        return info

    async def cancel(
        self, table_id: int, user_id: int, *, force: bool = False, reason: str = "cancelled"
    ) -> TableInfo:
        """Cancel a lobby or a running match: the host, or anyone when ``force`` (a manager)."""
        rt = await self._table(table_id)
        async with rt.lock:
            self._check_open(rt)
            if not force:
                self._check_host(rt, user_id)
            now = self.clock()
            async with self.store.transaction() as tx:
                if rt.row.status == "running":
                    await tx.matches.finish(rt.id, now=now, outcome=None)
                await tx.tables.set_status(rt.id, "cancelled", now=now, reason=reason)
                await tx.deadlines.clear(rt.id)
            rt.row = dataclasses.replace(
                rt.row, status="cancelled", updated_at=now, closed_reason=reason
            )
            info = rt.info()
            self._close(rt)
        self._notify(rt, "on_table_cancelled", info)
        return info

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = _UNSET,
        lobby_message_id: int | None = _UNSET,
        thread_id: int | None = _UNSET,
        channel_id: int | None = _UNSET,
    ) -> TableInfo:
        """Remember where the table's Discord messages are (open or closed tables); arguments
        left out stay."""
        rt = await self._table(table_id, closed=True)
        changes = {
            k: v
            for k, v in {
                "message_id": message_id,
                "lobby_message_id": lobby_message_id,
                "thread_id": thread_id,
                "channel_id": channel_id,
            }.items()
            if v is not _UNSET
        }
        async with rt.lock:
            now = self.clock()
            await self.store.tables.set_messages(rt.id, now=now, **changes)
            self._unindex(rt)
            rt.row = dataclasses.replace(rt.row, updated_at=now, **changes)
            if rt.id in self._tables:
                self._index(rt)
            return rt.info()

    def place_busy(self, place_id: int, *, exclude: int | None = None) -> bool:
        """True if a match (other than table ``exclude``) runs in that place: in its own thread
        ``place_id``, or directly in the channel or thread ``place_id``."""
        return any(
            rt.id != exclude
            and rt.row.status == "running"
            and (
                rt.row.thread_id == place_id
                or (rt.row.thread_id is None and rt.row.channel_id == place_id)
            )
            for rt in self._tables.values()
        )

    # -- playing ----------------------------------------------------------------------------

    async def act(
        self, table_id: int, user_id: int, action: Action, *, expected_seq: int | None = None
    ) -> ActionResult:
        """Apply ``action`` for ``user_id`` and commit it.

        ``expected_seq`` (the table's ``seq`` the user saw) turns a click on an outdated
        message into :class:`StaleAction`. A ``Resign`` needs no turn.
        """
        rt = await self._running(table_id)
        async with rt.lock:
            self._check_running(rt)
            assert rt.match is not None
            seats = rt.user_seats(user_id)
            if not seats:
                if rt.user_seats(user_id, taken_over=True):
                    if not isinstance(action, Resign):
                        raise SeatTakenOver(
                            "A computer plays your seat now, after too many time-outs."
                        )
                    seats = rt.user_seats(user_id, taken_over=True)
                else:
                    raise NotSeated("You are not seated at this table.")
            if expected_seq is not None and expected_seq != rt.seq:
                raise StaleAction(
                    "This was for an earlier state of the game; look at the latest message.",
                    expected=expected_seq,
                    seq=rt.seq,
                )
            if isinstance(action, Resign):
                if action.seat not in seats:
                    raise NotSeated("That seat is not yours.", seat=action.seat)
                seat = action.seat
            else:
                turn = rt.match.turn
                if turn is None or turn not in seats:
                    raise NotYourTurn("It is not your turn.", turn=turn)
                seat = turn
            reset = [s for s in rt.user_seats(user_id) if (row := rt.seats[s]) and row.timeouts]
            result = await self._apply(rt, seat, action, "player", reset_timeouts=reset)
        self._after(rt, result)
        return result

    async def resign(self, table_id: int, user_id: int) -> ActionResult:
        """``user_id`` gives up: his side loses the match."""
        rt = await self._running(table_id)
        seats = rt.user_seats(user_id, taken_over=True)
        if not seats:
            raise NotSeated("You are not seated at this table.")
        return await self.act(table_id, user_id, Resign(seats[0]))

    async def play_computer(
        self, table_id: int, *, seq: int | None = None, action: Action | None = None
    ) -> ActionResult | None:
        """If a computer is to move at this table, let it move now (ignoring the delay);
        with ``seq``, only if the table is still at that version; ``action``: its decision
        if already made."""
        rt = self._tables.get(table_id)
        if rt is None:
            return None
        async with rt.lock:
            if rt.row.status != "running" or rt.match is None or rt.match.turn is None:
                return None
            if seq is not None and rt.seq != seq:
                return None
            turn = rt.match.turn
            row = rt.seats[turn]
            if row is None or row.kind != "computer":
                return None
            if action is None:
                action = await self._choose(rt, turn, row.ai_level or self.ai_level)
            result = await self._apply(rt, turn, action, "computer")
        self._after(rt, result)
        return result

    # -- timers ------------------------------------------------------------------------------

    async def tick(self, now: float | None = None) -> list[ActionResult]:
        """Run every deadline due at ``now`` (the clock's loop does this by itself once
        :meth:`start_timers` ran; tests call it with a fake clock)."""
        done = await self.scheduler.run_due(now)
        return [r for r in done if isinstance(r, ActionResult)]

    def start_timers(self, interval: float = 0.5) -> None:
        """Run deadlines in the background as they fall due, until :meth:`aclose`."""
        self.scheduler.poll = interval
        self.scheduler.start()

    async def aclose(self) -> None:
        """Stop the clock and let queued observer calls finish."""
        await self.scheduler.stop()
        await self.idle()

    def _timed(self, *deadlines: DeadlineRow) -> None:
        """Tell the clock of deadlines just committed."""
        for d in deadlines:
            rt = self._tables.get(d.table_id)
            if rt is None or self.owns(rt.row.guild_id):
                self.scheduler.set(d)

    def _turn_deadlines(
        self,
        rt: _Table,
        now: float,
        *,
        hand_ended: bool,
        match: Match | None = None,
        seq: int | None = None,
        seats: list[SeatRow | None] | None = None,
    ) -> list[DeadlineRow]:
        """The deadlines of the turn that starts now (after the pause when a hand ended), for
        ``rt`` or for the given state that is about to become its own."""
        match = rt.match if match is None else match
        seq = rt.seq if seq is None else seq
        seats = rt.seats if seats is None else seats
        if match is None or match.turn is None or match.outcome is not None:
            return []
        start = now + (self.hand_pause if hand_ended else 0.0)
        out: list[DeadlineRow] = []
        if hand_ended:
            out.append(DeadlineRow(rt.id, "pause", start, seq))
        row = seats[match.turn]
        if row is None:
            return out
        if row.kind == "computer":
            out.append(DeadlineRow(rt.id, "move", start + self.computer_delay, seq))
        else:
            timer = rt.row.turn_timer
            out.append(DeadlineRow(rt.id, "remind", start + timer / 2, seq))
            out.append(DeadlineRow(rt.id, "timeout", start + timer, seq))
            if forced_action(match) is not None:
                out.append(DeadlineRow(rt.id, "forced", start + self.forced_delay, seq))
        return out

    async def _current(self, d: DeadlineRow, status: str = "running") -> _Table | None:
        """The table of a deadline if the deadline still holds (same status and version)."""
        rt = self._tables.get(d.table_id)
        if rt is None or rt.row.status != status or (status == "running" and rt.seq != d.seq):
            return None
        return rt

    async def _on_move(self, d: DeadlineRow) -> ActionResult | None:
        rt = await self._current(d)
        if rt is None or rt.match is None or rt.seed is None or rt.match.turn is None:
            return None
        action: Action | None = None
        row = rt.seats[rt.match.turn]
        if self.computer_pace is not None and row is not None and row.kind == "computer":
            # Think (and wait the drawn answer time) without holding the table.
            action = await computer.decide(
                rt.match.view(rt.match.turn),
                row.ai_level or self.ai_level,
                rng=computer.rng_for(rt.seed, rt.seq),
                pace_rng=computer.pace_rng_for(rt.seed, rt.seq),
                pace=self.computer_pace,
                budget=self.ai_budget,
            )
        try:
            return await self.play_computer(d.table_id, seq=d.seq, action=action)
        except StaleAction:
            return None

    async def _on_remind(self, d: DeadlineRow) -> None:
        rt = await self._current(d)
        if rt is None or rt.match is None or rt.match.turn is None:
            return
        turn = rt.match.turn
        row = rt.seats[turn]
        if row is None or row.kind != "human" or row.user_id is None:
            return
        deadline = (rt.turn_started or self.clock()) + rt.row.turn_timer
        self._notify(rt, "on_reminder", rt.info(), turn, row.user_id, deadline)

    async def _on_timeout(self, d: DeadlineRow) -> ActionResult | None:
        rt = await self._current(d)
        if rt is None:
            return None
        try:
            return await self._time_out(rt, d.seq)
        except StaleAction:
            return None

    async def _on_forced(self, d: DeadlineRow) -> ActionResult | None:
        """A person's only possible move, made for him (tables with forced moves)."""
        rt = await self._current(d)
        if rt is None:
            return None
        async with rt.lock:
            if rt.match is None or rt.seq != d.seq or rt.row.status != "running":
                return None
            action = forced_action(rt.match)
            turn = rt.match.turn
            if action is None or turn is None:
                return None
            result = await self._apply(rt, turn, action, "forced")
        self._after(rt, result)
        return result

    async def _on_pause(self, d: DeadlineRow) -> None:
        rt = await self._current(d)
        if rt is not None:
            self._notify(rt, "on_pause_over", rt.info())

    async def _on_expire(self, d: DeadlineRow) -> TableInfo | None:
        rt = self._tables.get(d.table_id)
        if rt is None or rt.row.status != "lobby":
            return None
        try:
            return await self.cancel(rt.id, rt.row.host_id, force=True, reason="expired")
        except (WrongStatus, TableFinished):
            return None

    async def _time_out(self, rt: _Table, seq: int) -> ActionResult | None:
        async with rt.lock:
            if rt.row.status != "running" or rt.match is None or rt.seq != seq:
                return None
            turn = rt.match.turn
            row = rt.seats[turn] if turn is not None else None
            if turn is None or row is None or row.kind != "human" or row.user_id is None:
                return None
            legal = rt.match.legal_actions()
            action = legal[0] if len(legal) == 1 else await self._choose(rt, turn, self.ai_level)
            user_id = row.user_id
            seats = rt.user_seats(user_id)
            count = row.timeouts + 1
            taken = count >= self.max_timeouts
            by = TAKEOVER if taken else "timeout"
            result = await self._apply(rt, turn, action, by, timeouts=(seats, count, taken))
        self._after(rt, result)
        if taken:
            self._notify(rt, "on_seat_taken_over", result.table, user_id, seats)
        return result

    # -- recovery ---------------------------------------------------------------------------

    async def load_open_tables(self) -> list[TableInfo]:
        """Rebuild every lobby and running table this process owns from the store (after a
        restart), with their stored deadlines."""
        rows = await self.store.tables.list_by_status("lobby", "running")
        loaded: list[TableInfo] = []
        fresh: set[int] = set()
        for row in rows:
            if not self.owns(row.guild_id):
                continue
            if row.id in self._tables:
                loaded.append(self._tables[row.id].info())
                continue
            try:
                rt = await self._build(row)
            except Exception:
                log.exception("table %s could not be rebuilt from the store; skipped", row.id)
                continue
            self._keep(rt)
            fresh.add(row.id)
            loaded.append(rt.info())
        await self._resume_deadlines(fresh)
        return loaded

    async def _resume_deadlines(self, table_ids: set[int]) -> None:
        """Give the clock the stored deadlines of the tables just loaded; a running table
        without any (a database from before deadlines were stored) gets its turn's deadlines
        now."""
        stored = [d for d in await self.store.deadlines.list() if d.table_id in table_ids]
        timed = {d.table_id for d in stored}
        now = self.clock()
        fresh: list[DeadlineRow] = []
        for rt in [self._tables[t] for t in table_ids]:
            if rt.row.status == "running" and rt.id not in timed:
                assert rt.turn_started is not None
                hand_ended = rt.turn_started > now
                start = rt.turn_started - (self.hand_pause if hand_ended else 0.0)
                fresh += self._turn_deadlines(rt, start, hand_ended=hand_ended)
        for d in fresh:
            await self.store.deadlines.set(d)
        out: list[DeadlineRow] = []
        for d in stored + fresh:
            rt = self._tables[d.table_id]
            if d.kind == "timeout":  # the bot's downtime is not the player's fault
                d = dataclasses.replace(d, due_at=max(d.due_at, now + rt.row.turn_timer / 2))
            out.append(d)
        for d in out:
            if self.owns(self._tables[d.table_id].row.guild_id):
                self.scheduler.set(d)

    def release_unowned(self) -> list[int]:
        """Forget the open tables this process no longer owns (their shard went to another
        process): their deadlines leave the clock; the store keeps everything. Returns their
        ids."""
        dropped = [t for t, rt in self._tables.items() if not self.owns(rt.row.guild_id)]
        for table_id in dropped:
            self.scheduler.clear(table_id)
            self._close(self._tables[table_id])
        return dropped

    # -- internals --------------------------------------------------------------------------

    def _close(self, rt: _Table) -> None:
        """Forget a finished or cancelled table (its queued observer calls still run)."""
        self._tables.pop(rt.id, None)
        self._unindex(rt)

    def _keep(self, rt: _Table) -> _Table:
        """Hold an open table in memory, findable by its messages."""
        self._tables[rt.id] = rt
        self._index(rt)
        return rt

    def _index(self, rt: _Table) -> None:
        for mid in (rt.row.message_id, rt.row.lobby_message_id):
            if mid is not None:
                self._by_message[mid] = rt.id

    def _unindex(self, rt: _Table) -> None:
        for mid in (rt.row.message_id, rt.row.lobby_message_id):
            if mid is not None and self._by_message.get(mid) == rt.id:
                del self._by_message[mid]

    async def _gate_open(self, tx: Transaction, user_id: int, guild_id: int | None) -> None:
        """The limits on opening a table, counted in the database under the person's (and the
        server's) lock, so that no other process lets him past them meanwhile."""
        per_server = bool(self.gate.limits.tables_per_server) and guild_id is not None
        if not (self.gate.counts_people or per_server):
            return
        await tx.limits.lock([user_id], guild_id if per_server else None)
        self.gate.check_open(user_id, guild_id, await tx.limits.held(user_id, guild_id))

    def _check_challenged(self, host_id: int, invited: tuple[int, ...]) -> None:
        """One open challenge per host and invitee."""
        if not invited:
            return
        for rt in self._tables.values():
            if rt.row.host_id == host_id and rt.row.status == "lobby" and set(rt.invited) & set(
                invited
            ):
                raise LimitReached(
                    "You have already challenged someone you name here: wait for the answer, "
                    "or cancel that challenge first."
                )

    async def _table(self, table_id: int, *, closed: bool = False) -> _Table:
        """The open table ``table_id`` (or a closed one too, with ``closed``), loaded from the
        store if needed."""
        _check_id(table_id)
        rt = self._tables.get(table_id)
        if rt is None:
            rt = await self._load(table_id, keep=not closed)
            if rt is None:
                raise TableNotFound("There is no table {table_id}.", table_id=table_id)
        if not closed:  # a change: only where this process runs the table
            self._check_owned(rt.row.guild_id)
        return rt

    async def _running(self, table_id: int) -> _Table:
        rt = await self._table(table_id)
        self._check_running(rt)
        return rt

    async def _load(self, table_id: int, *, keep: bool) -> _Table | None:
        row = await self.store.tables.get(table_id)
        if row is None:
            return None
        if row.status in ("finished", "cancelled"):
            if keep:
                raise TableFinished("This table is closed.", status=row.status)
            return await self._build(row)
        rt = await self._build(row)
        if not self.owns(row.guild_id):
            return rt  # another process runs it: a snapshot, not kept
        if table_id in self._tables:  # another task loaded it meanwhile
            return self._tables[table_id]
        return self._keep(rt)

    async def _build(self, row: TableRow) -> _Table:
        seat_rows = await self.store.seats.list(row.id)
        match_row = await self.store.matches.get(row.id) if row.status != "lobby" else None
        if match_row is not None:
            ruleset = Ruleset.from_dict(match_row.ruleset)
        else:
            ruleset = _ruleset(row.variant, row.options)
        seats: list[SeatRow | None] = [None] * ruleset.seats
        for s in seat_rows:
            seats[s.seat] = s
        rt = _Table(row=row, ruleset=ruleset, seats=seats)
        invitees = await self.store.invitees.list(row.id)
        rt.invited = tuple(invitees)
        rt.declined = tuple(u for u, a in invitees.items() if a == "declined")
        if row.status == "lobby":
            for d in await self.store.deadlines.list(row.id):
                if d.kind == "expire":
                    rt.expires_at = d.due_at
        if match_row is None:
            return rt
        log_rows = await self.store.actions.list(row.id)
        match = Match.replay(
            ruleset, match_row.seed, [decode_action(a.action) for a in log_rows], match_row.deal
        )
        rt.match, rt.seed, rt.seq = match, match_row.seed, len(log_rows)
        started = log_rows[-1].created_at if log_rows else match_row.started_at
        if match.hand_results and not any(e.kind != "start" for e in match.public_view().events):
            started += self.hand_pause  # the log ends with the end of a hand
        # The bot's downtime is not the player's fault: leave him at least half his time.
        rt.turn_started = max(started, self.clock() - row.turn_timer / 2)
        if row.status == "running" and match.outcome is not None:
            log.warning("table %s: match over but still marked running; finishing it", row.id)
            now = self.clock()
            async with self.store.transaction() as tx:
                await tx.matches.finish(row.id, now=now, outcome=match.outcome.to_dict())
                await tx.tables.set_status(row.id, "finished", now=now)
            rt.row = dataclasses.replace(row, status="finished", updated_at=now)
        return rt

    async def _reload(self, rt: _Table) -> None:
        """Replace the memory of ``rt``, its deadlines included, by the store's truth (after
        losing a race: the winner's deadlines are the table's now)."""
        row = await self.store.tables.get(rt.id)
        self.scheduler.clear(rt.id)
        if row is None:
            self._tables.pop(rt.id, None)
            return
        fresh = await self._build(row)
        rt.row, rt.ruleset, rt.seats = fresh.row, fresh.ruleset, fresh.seats
        rt.invited, rt.declined, rt.expires_at = fresh.invited, fresh.declined, fresh.expires_at
        rt.match, rt.seed, rt.seq = fresh.match, fresh.seed, fresh.seq
        rt.turn_started = fresh.turn_started
        if row.status not in ("lobby", "running"):
            self._close(rt)
        elif self.owns(row.guild_id):
            for d in await self.store.deadlines.list(rt.id):
                self.scheduler.set(d)

    async def _choose(self, rt: _Table, seat: int, level: str) -> Action:
        assert rt.match is not None and rt.seed is not None
        view = rt.match.view(seat)
        rng = computer.rng_for(rt.seed, rt.seq)
        if computer.is_cheap(level) or len(view.legal) == 1:
            return computer.choose(view, level, rng=rng, budget=self.ai_budget)
        return await computer.compute(view, level, rng=rng, budget=self.ai_budget)

    async def _apply(
        self,
        rt: _Table,
        seat: int,
        action: Action,
        by: str,
        *,
        reset_timeouts: Iterable[int] = (),
        timeouts: tuple[tuple[int, ...], int, bool] | None = None,
    ) -> ActionResult:
        """Apply ``action`` to ``rt`` and commit it in one transaction. Caller holds the lock."""
        old = rt.match
        assert old is not None and rt.seed is not None
        try:
            new = old.apply(action) if isinstance(action, Resign) else old.apply(action, seat)
        except IllegalAction as exc:
            raise IllegalMove(
                str(exc).replace("{", "{{").replace("}", "}}"), exc.code, **exc.params
            ) from exc
        seq = rt.seq
        now = self.clock()
        hand_result = (
            new.hand_results[-1] if len(new.hand_results) > len(old.hand_results) else None
        )
        outcome = new.outcome if old.outcome is None else None
        reset = list(reset_timeouts)
        level = self.ai_level
        text = encode_action(action)
        seats = list(rt.seats)
        if timeouts is not None and timeouts[2]:
            for s in timeouts[0]:
                if (row := seats[s]) is not None:
                    seats[s] = dataclasses.replace(row, kind="computer", ai_level=level)
        timers = self._turn_deadlines(
            rt, now, hand_ended=hand_result is not None, match=new, seq=seq + 1, seats=seats
        )
        # Last look before writing: a process woken after its shard moved writes nothing more.
        self._check_owned(rt.row.guild_id)
        try:
            await self._commit(
                rt, seq, seat, text, now, hand_result, outcome, reset, timeouts, timers, by
            )
        except StaleAction:
            await self._reload(rt)
            raise StaleAction(
                "Someone else acted first; look at the latest message.", seq=seq
            ) from None
        # Committed: now change the memory.
        rt.match, rt.seq = new, seq + 1
        for s in reset:
            row = rt.seats[s]
            if row is not None:
                rt.seats[s] = dataclasses.replace(row, timeouts=0)
        if timeouts is not None:
            seats, count, taken = timeouts
            for s in seats:
                row = rt.seats[s]
                if row is not None:
                    rt.seats[s] = dataclasses.replace(
                        row,
                        timeouts=count,
                        kind="computer" if taken else row.kind,
                        ai_level=level if taken else row.ai_level,
                    )
        rt.turn_started = now + (self.hand_pause if hand_result is not None else 0.0)
        self.scheduler.clear(rt.id)
        self._timed(*timers)
        if outcome is not None:
            rt.row = dataclasses.replace(rt.row, status="finished", updated_at=now)
        return ActionResult(
            table=rt.info(),
            seq=seq,
            seat=seat,
            action=action,
            by=by,
            hand_result=hand_result,
            outcome=outcome,
        )

    async def _commit(
        self,
        rt: _Table,
        seq: int,
        seat: int,
        text: str,
        now: float,
        hand_result: HandResult | None,
        outcome: Outcome | None,
        reset: list[int],
        timeouts: tuple[tuple[int, ...], int, bool] | None,
        timers: list[DeadlineRow],
        by: str,
    ) -> None:
        """Write an action, everything it changed and the next turn's deadlines in one
        transaction (one trip to the database)."""
        counts = [(s, 0) for s in reset]
        taken: list[tuple[int, str]] = []
        if timeouts is not None:
            seats, count, handed = timeouts
            counts += [(s, count) for s in seats]
            if handed:
                taken = [(s, self.ai_level) for s in seats]
        await self.store.actions.record(
            ActionCommit(
                table_id=rt.id,
                seq=seq,
                seat=seat,
                action=text,
                now=now,
                made_by=by,
                deadline_kinds=TURN_KINDS,
                deadlines=tuple(timers),
                hand_result=None
                if hand_result is None
                else (hand_result.hand_number, hand_result.to_dict()),
                outcome=None if outcome is None else outcome.to_dict(),
                timeouts=tuple(counts),
                taken_over=tuple(taken),
            )
        )

    def _after(self, rt: _Table, result: ActionResult) -> None:
        """Queue the observer calls for a committed action; forget the table once finished."""
        self._notify(rt, "on_action", result)
        if result.hand_result is not None:
            self._notify(rt, "on_hand_ended", result.table, result.hand_result)
        if result.outcome is not None:
            self._notify(rt, "on_match_ended", result.table, result.outcome)
            self._close(rt)

    def _free_group(self, rt: _Table, group: int | None) -> tuple[int, ...]:
        groups = seat_groups(rt.ruleset)
        if group is not None:
            if not 0 <= group < len(groups):
                raise InvalidOptions("There is no seat {number} here.", number=group + 1)
            if any(rt.seats[s] is not None for s in groups[group]):
                raise TableFull("That seat is taken.", group=group)
            return groups[group]
        for seats in groups:
            if all(rt.seats[s] is None for s in seats):
                return seats
        raise TableFull("Every seat at this table is taken.")

    def _check_owned(self, guild_id: int | None) -> None:
        if not self.owns(guild_id):
            raise TablesElsewhere(
                "The bot is moving this server's tables between its processes; try again in a"
                " few seconds."
            )

    @staticmethod
    def _check_host(rt: _Table, user_id: int) -> None:
        if user_id != rt.row.host_id:
            raise NotHost("Only the host of the table can do that.")

    @staticmethod
    def _check_open(rt: _Table) -> None:
        if rt.row.status in ("finished", "cancelled"):
            raise TableFinished("This table is closed.", status=rt.row.status)

    def _check_lobby(self, rt: _Table) -> None:
        self._check_open(rt)
        if rt.row.status != "lobby":
            raise WrongStatus("The match has already started.", status=rt.row.status)

    def _check_running(self, rt: _Table) -> None:
        self._check_open(rt)
        if rt.row.status != "running":
            raise WrongStatus("The match has not started yet.", status=rt.row.status)


def _ruleset(variant: str, options: dict[str, Any]) -> Ruleset:
    try:
        return preset(variant, **options)
    except (TypeError, ValueError) as exc:
        raise InvalidOptions.verbatim(str(exc), variant=variant) from None


def _check_id(table_id: int) -> None:
    """A table id from a click or a command: out of range means there is no such table."""
    if not 0 < table_id <= MAX_TABLE_ID:
        raise TableNotFound("There is no table {table_id}.", table_id=table_id)


def _computer_seat(table_id: int, seat: int, level: str) -> SeatRow:
    return SeatRow(table_id, seat, None, f"Computer {seat + 1}", "computer", level)
