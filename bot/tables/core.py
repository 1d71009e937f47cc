"""What the parts of the table service share: the tables in memory, the store, the clock, the
settings, the observers' queue, and the steps every part takes (loading a table, checking it,
applying and committing an action, timing the next turn)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import (
    IllegalMove,
    InvalidOptions,
    LimitReached,
    NotHost,
    StaleAction,
    TableFinished,
    TableFull,
    TableNotFound,
    TablesElsewhere,
    WrongStatus,
)
from bot.limits import Gate
from bot.store import ActionCommit, DeadlineRow, SeatRow, Store, TableRow, Transaction
from bot.store.correspondence import CorrespondenceRepo
from bot.store.table_extras import GuildSettingsRepo
from bot.tables import computer
from bot.tables.clock import Clock
from bot.tables.history import History
from bot.tables.values import (
    MAX_TABLE_ID,
    REMIND_AT,
    TURN_KINDS,
    ActionResult,
    TableInfo,
    TableObserver,
    is_correspondence,
    ping_after,
    restart_grace,
    seat_groups,
)
from domino import (
    Action,
    HandResult,
    IllegalAction,
    Match,
    Outcome,
    Resign,
    Ruleset,
    decode_action,
    encode_action,
    forced_action,
    preset,
)

log = logging.getLogger(__name__)

UNSET: Any = object()  # an argument left out (where None is a value)
PAUSED_KINDS = ("remind", "timeout")  # the deadlines of a turn a vacation moves


@dataclass(eq=False)
class TableState:
    """A table in memory."""

    row: TableRow
    ruleset: Ruleset
    seats: list[SeatRow | None]
    match: Match | None = None
    seed: int | None = None
    seq: int = 0  # actions in the log (kept here: the engine's action list is built lazily)
    turn_started: float | None = None
    first_until: float | None = None  # the match's first turn lasts until then at least
    invited: tuple[int, ...] = ()
    declined: tuple[int, ...] = ()
    expires_at: float | None = None
    ping_delay: int | None = None  # the server's idle ping setting (None: default, 0: off)
    paused_until: float | None = None  # a seated person's vacation pauses the table until then
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
            first_until=self.first_until if self.seq == 0 else None,
            _match=self.match,
            invited=self.invited,
            declined=self.declined,
            expires_at=self.expires_at,
            ping_after=ping_after(self.ping_delay, self.row.turn_timer),
            paused_until=self.paused_until,
        )

    def user_seats(self, user_id: int, *, taken_over: bool = False) -> tuple[int, ...]:
        return tuple(
            s.seat
            for s in self.seats
            if s is not None and s.user_id == user_id and (taken_over or s.kind == "human")
        )


@dataclass(eq=False)
class TableCore:
    """The state the parts share, and the steps they share as its methods."""

    store: Store
    clock: Callable[[], float]
    seed_source: Callable[[], int]
    ai_level: str
    ai_budget: float
    computer_delay: float
    computer_pace: computer.Pace | None
    hand_pause: float
    max_timeouts: int
    forced_delay: float
    lobby_ttl: float
    challenge_ttl: float
    owns: Callable[[int | None], bool]
    gate: Gate
    scheduler: Clock
    tables: dict[int, TableState] = field(default_factory=dict)  # the open tables
    # The lobby and game message ids of the open tables.
    by_message: dict[int, int] = field(default_factory=dict)
    observers: list[TableObserver] = field(default_factory=list)
    notifiers: set[asyncio.Task[None]] = field(default_factory=set)
    histories: OrderedDict[int, History] = field(default_factory=OrderedDict)
    #: Wakes this process's forwarded clicks when their answers are written (a
    #: :class:`~bot.tables.places.ForwardedClicks` that listens; None: they look every 0.1 s).
    answers: Any = None

    # -- observers --------------------------------------------------------------------------

    def notify(self, rt: TableState, method: str, *args: Any) -> None:
        if not self.observers:
            return
        rt.notes.append((method, args))
        if rt.notifier is None or rt.notifier.done():
            rt.notifier = asyncio.create_task(self._drain(rt), name=f"table-{rt.id}-observers")
            self.notifiers.add(rt.notifier)
            rt.notifier.add_done_callback(self.notifiers.discard)

    async def _drain(self, rt: TableState) -> None:
        while rt.notes:
            method, args = rt.notes.popleft()
            for observer in list(self.observers):
                try:
                    await getattr(observer, method)(*args)
                except Exception:
                    log.exception("observer %s.%s failed for table %s", observer, method, rt.id)

    async def idle(self) -> None:
        """Wait until every observer call queued so far has run (for tests and shutdown)."""
        while self.notifiers:
            await asyncio.gather(*list(self.notifiers), return_exceptions=True)

    # -- deadlines --------------------------------------------------------------------------

    def timed(self, *deadlines: DeadlineRow) -> None:
        """Tell the clock of deadlines just committed. They stay even while the lease cannot be
        proven (a late renewal): the lease is looked at when they run, and a lost shard's
        tables leave the clock with them (:meth:`TableRecovery.release_unowned`)."""
        for d in deadlines:
            self.scheduler.set(d)

    def turn_deadlines(
        self,
        rt: TableState,
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
            base = max(start, rt.paused_until or 0.0)  # a vacation pauses the turn's clock
            if is_correspondence(timer):  # told as the turn begins; reminded once before the end
                out.append(DeadlineRow(rt.id, "remind", base + REMIND_AT * timer, seq))
            elif (idle := ping_after(rt.ping_delay, timer)) is not None:  # the idle ping
                out.append(DeadlineRow(rt.id, "remind", start + idle, seq))
            out.append(DeadlineRow(rt.id, "timeout", base + timer, seq))
            if forced_action(match) is not None:
                out.append(DeadlineRow(rt.id, "forced", start + self.forced_delay, seq))
        return out

    async def pause(
        self,
        rt: TableState,
        until: float,
        *,
        within: Callable[[Transaction], Awaitable[None]] | None = None,
    ) -> TableInfo | None:
        """Pause ``rt`` until ``until`` (a seated person's vacation): its turn's reminder and
        time-out move, stored first (``within``: more to write in that transaction); None if
        it is not running (``within`` is written all the same)."""
        async with rt.lock:
            if rt.row.status != "running" or rt.match is None or rt.turn_started is None:
                if within is not None:
                    async with self.store.transaction() as tx:
                        await within(tx)
                return None
            paused = max(rt.paused_until or 0.0, until)
            before, rt.paused_until = rt.paused_until, paused
            timers = [
                d
                for d in self.turn_deadlines(rt, rt.turn_started, hand_ended=False)
                if d.kind in PAUSED_KINDS
            ]
            try:
                async with self.store.transaction() as tx:
                    await tx.deadlines.replace(rt.id, PAUSED_KINDS, timers)
                    if within is not None:
                        await within(tx)
            except BaseException:
                rt.paused_until = before
                raise
            self.scheduler.clear(rt.id, PAUSED_KINDS)
            self.timed(*timers)
            return rt.info()

    # -- internals --------------------------------------------------------------------------

    def close(self, rt: TableState) -> None:
        """Forget a finished or cancelled table (its queued observer calls still run)."""
        self.tables.pop(rt.id, None)
        self.unindex(rt)

    def keep(self, rt: TableState) -> TableState:
        """Hold an open table in memory, findable by its messages."""
        self.tables[rt.id] = rt
        self.index(rt)
        return rt

    def index(self, rt: TableState) -> None:
        for mid in (rt.row.message_id, rt.row.lobby_message_id):
            if mid is not None:
                self.by_message[mid] = rt.id

    def unindex(self, rt: TableState) -> None:
        for mid in (rt.row.message_id, rt.row.lobby_message_id):
            if mid is not None and self.by_message.get(mid) == rt.id:
                del self.by_message[mid]

    async def ping_delay(self, guild_id: int | None) -> int | None:
        """The server's idle ping setting (None: the bot's default; 0: off)."""
        if guild_id is None:
            return None
        return (await GuildSettingsRepo(self.store.db).get(guild_id)).ping_delay

    async def away_until(self, rt: TableState) -> float | None:
        """When the last vacation of a person seated at ``rt`` ends (None: nobody away)."""
        people = [s.user_id for s in rt.seats if s is not None and s.user_id is not None]
        return await CorrespondenceRepo(self.store.db).away_until(people, self.clock())

    async def gate_open(self, tx: Transaction, user_id: int, guild_id: int | None) -> None:
        """The limits on opening a table, counted in the database under the person's (and the
        server's) lock, so that no other process lets him past them meanwhile."""
        per_server = bool(self.gate.limits.tables_per_server) and guild_id is not None
        if not (self.gate.counts_people or per_server):
            return
        await tx.limits.lock([user_id], guild_id if per_server else None)
        self.gate.check_open(user_id, guild_id, await tx.limits.held(user_id, guild_id))

    def check_challenged(self, host_id: int, invited: tuple[int, ...]) -> None:
        """One open challenge per host and invitee."""
        if not invited:
            return
        for rt in self.tables.values():
            if rt.row.host_id == host_id and rt.row.status == "lobby" and set(rt.invited) & set(
                invited
            ):
                raise LimitReached(
                    "You have already challenged someone you name here: wait for the answer, "
                    "or cancel that challenge first."
                )

    async def table(self, table_id: int, *, closed: bool = False) -> TableState:
        """The open table ``table_id`` (or a closed one too, with ``closed``), loaded from the
        store if needed."""
        _check_id(table_id)
        rt = self.tables.get(table_id)
        if rt is None:
            rt = await self.load(table_id, keep=not closed)
            if rt is None:
                raise TableNotFound("There is no table {table_id}.", table_id=table_id)
        if not closed:  # a change: only where this process runs the table
            self.check_owned(rt.row.guild_id)
        return rt

    async def running(self, table_id: int) -> TableState:
        rt = await self.table(table_id)
        self.check_running(rt)
        return rt

    async def load(self, table_id: int, *, keep: bool) -> TableState | None:
        row = await self.store.tables.get(table_id)
        if row is None:
            return None
        if row.status in ("finished", "cancelled"):
            if keep:
                raise TableFinished("This table is closed.", status=row.status)
            return await self.build(row)
        rt = await self.build(row)
        if not self.owns(row.guild_id):
            return rt  # another process runs it: a snapshot, not kept
        if table_id in self.tables:  # another task loaded it meanwhile
            return self.tables[table_id]
        return self.keep(rt)

    async def build(self, row: TableRow) -> TableState:
        seat_rows = await self.store.seats.list(row.id)
        match_row = await self.store.matches.get(row.id) if row.status != "lobby" else None
        if match_row is not None:
            ruleset = Ruleset.from_dict(match_row.ruleset)
        else:
            ruleset = make_ruleset(row.variant, row.options)
        seats: list[SeatRow | None] = [None] * ruleset.seats
        for s in seat_rows:
            seats[s.seat] = s
        rt = TableState(row=row, ruleset=ruleset, seats=seats)
        if row.status == "running":
            rt.ping_delay = await self.ping_delay(row.guild_id)
            if is_correspondence(row.turn_timer):
                rt.paused_until = await self.away_until(rt)
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
        # The bot's downtime is not the player's fault: leave him some of his time (half of it;
        # at a correspondence table, an hour at most).
        timer = row.turn_timer
        rt.turn_started = max(started, self.clock() - timer + restart_grace(timer))
        if row.status == "running" and match.outcome is not None:
            log.warning("table %s: match over but still marked running; finishing it", row.id)
            now = self.clock()
            async with self.store.transaction() as tx:
                await tx.matches.finish(row.id, now=now, outcome=match.outcome.to_dict())
                await tx.tables.set_status(row.id, "finished", now=now)
            rt.row = dataclasses.replace(row, status="finished", updated_at=now)
        return rt

    async def reload(self, rt: TableState) -> None:
        """Replace the memory of ``rt``, its deadlines included, by the store's truth (after
        losing a race: the winner's deadlines are the table's now)."""
        row = await self.store.tables.get(rt.id)
        self.scheduler.clear(rt.id)
        if row is None:
            self.tables.pop(rt.id, None)
            return
        fresh = await self.build(row)
        rt.row, rt.ruleset, rt.seats = fresh.row, fresh.ruleset, fresh.seats
        rt.invited, rt.declined, rt.expires_at = fresh.invited, fresh.declined, fresh.expires_at
        rt.match, rt.seed, rt.seq = fresh.match, fresh.seed, fresh.seq
        rt.turn_started, rt.ping_delay = fresh.turn_started, fresh.ping_delay
        rt.paused_until = fresh.paused_until
        if row.status not in ("lobby", "running"):
            self.close(rt)
        elif self.owns(row.guild_id):
            for d in await self.store.deadlines.list(rt.id):
                self.scheduler.set(d)

    async def choose(self, rt: TableState, seat: int, level: str) -> Action:
        assert rt.match is not None and rt.seed is not None
        view = rt.match.view(seat)
        rng = computer.rng_for(rt.seed, rt.seq)
        if computer.is_cheap(level) or len(view.legal) == 1:
            return computer.choose(view, level, rng=rng, budget=self.ai_budget)
        return await computer.compute(view, level, rng=rng, budget=self.ai_budget)

    async def apply(
        self,
        rt: TableState,
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
        timers = self.turn_deadlines(
            rt, now, hand_ended=hand_result is not None, match=new, seq=seq + 1, seats=seats
        )
        # Last look before writing: a process woken after its shard moved writes nothing more.
        self.check_owned(rt.row.guild_id)
        try:
            await self.commit(
                rt, seq, seat, text, now, hand_result, outcome, reset, timeouts, timers, by
            )
        except StaleAction:
            await self.reload(rt)
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
        self.timed(*timers)
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

    async def commit(
        self,
        rt: TableState,
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

    def after(self, rt: TableState, result: ActionResult) -> None:
        """Queue the observer calls for a committed action; forget the table once finished."""
        self.notify(rt, "on_action", result)
        if result.hand_result is not None:
            self.notify(rt, "on_hand_ended", result.table, result.hand_result)
        if result.outcome is not None:
            self.notify(rt, "on_match_ended", result.table, result.outcome)
            self.close(rt)

    def free_group(self, rt: TableState, group: int | None) -> tuple[int, ...]:
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

    def check_owned(self, guild_id: int | None) -> None:
        if not self.owns(guild_id):
            raise TablesElsewhere(
                "The bot is moving this server's tables between its processes; try again in a"
                " few seconds."
            )

    @staticmethod
    def check_host(rt: TableState, user_id: int) -> None:
        if user_id != rt.row.host_id:
            raise NotHost("Only the host of the table can do that.")

    @staticmethod
    def check_open(rt: TableState) -> None:
        if rt.row.status in ("finished", "cancelled"):
            raise TableFinished("This table is closed.", status=rt.row.status)

    def check_lobby(self, rt: TableState) -> None:
        self.check_open(rt)
        if rt.row.status != "lobby":
            raise WrongStatus("The match has already started.", status=rt.row.status)

    def check_running(self, rt: TableState) -> None:
        self.check_open(rt)
        if rt.row.status != "running":
            raise WrongStatus("The match has not started yet.", status=rt.row.status)


def make_ruleset(variant: str, options: dict[str, Any]) -> Ruleset:
    """The rule set of ``variant`` with ``options`` (options the engine refuses: InvalidOptions)."""
    try:
        return preset(variant, **options)
    except (TypeError, ValueError) as exc:
        raise InvalidOptions.verbatim(str(exc), variant=variant) from None


def _check_id(table_id: int) -> None:
    """A table id from a click or a command: out of range means there is no such table."""
    if not 0 < table_id <= MAX_TABLE_ID:
        raise TableNotFound("There is no table {table_id}.", table_id=table_id)


def computer_seat(table_id: int, seat: int, level: str) -> SeatRow:
    """A computer player's seat."""
    return SeatRow(table_id, seat, None, f"Computer {seat + 1}", "computer", level)
