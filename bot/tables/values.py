"""The table service's public values: its limits, the snapshot of a table it hands out, what an
action did, and the observer it tells."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store import SeatRow, TableRow
from domino import Action, HandResult, Match, Outcome, Ruleset, View, forced_action

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
DEFAULT_PING_DELAY = 25  # seconds a person is idle on his turn before he is pinged
MIN_PING_DELAY = 10
MAX_PING_DELAY = 120
# Correspondence tables: a turn of hours or days (the paces a table may be created with).
PACES = (3600, 8 * 3600, 24 * 3600, 3 * 24 * 3600)
CORRESPONDENCE_TIMER = PACES[0]  # a turn timer this long or longer: a correspondence table
REMIND_AT = 0.75  # a correspondence turn's reminder comes at this share of its time
RESTART_GRACE = 3600.0  # a correspondence turn a restart finds over gets at least this long
MAX_VACATION_DAYS = 7
VACATIONS_PER_WINDOW = 2  # vacations a person may take ...
VACATION_WINDOW = 90 * 24 * 3600  # ... within this many seconds


def is_correspondence(turn_timer: int) -> bool:
    """A table of hours or days per move (not a live one of seconds)."""
    return turn_timer >= CORRESPONDENCE_TIMER


def restart_grace(turn_timer: int) -> float:
    """The time a person's turn has left at least after the bot's downtime: half of it at a
    live table, half of it but an hour at most at a correspondence table."""
    half = turn_timer / 2
    return min(half, RESTART_GRACE) if is_correspondence(turn_timer) else half


def ping_after(delay: int | None, turn_timer: int) -> float | None:
    """Seconds into a person's turn at which he is pinged if still idle (``delay``: the
    server's setting, None its default, 0 off), at half his time at the latest; None: never.
    At a correspondence table he is told as his turn begins, whatever the server's idle ping."""
    if is_correspondence(turn_timer):
        return 0.0
    if delay == 0:
        return None
    return min(float(DEFAULT_PING_DELAY if delay is None else delay), turn_timer / 2)


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
    ping_after: float | None = None  # seconds into an idle person's turn he is pinged at
    first_until: float | None = None  # the match's first turn lasts until then at least
    paused_until: float | None = None  # a seated person's vacation pauses the table until then
    #: The people its messages may mention (one place of a table across servers: those who
    #: play from that server; the others are named); None: everyone.
    mentionable: frozenset[int] | None = None

    @property
    def correspondence(self) -> bool:
        """A table of hours or days per move."""
        return is_correspondence(self.table.turn_timer)

    @property
    def turn_base(self) -> float | None:
        """When the current turn's clock runs from (after a vacation that paused it)."""
        if self.turn_started is None:
            return None
        return max(self.turn_started, self.paused_until or 0.0)

    @property
    def remind_at(self) -> float | None:
        """When a correspondence turn's person is reminded (None: a live table)."""
        base = self.turn_base
        if base is None or not self.correspondence:
            return None
        return base + REMIND_AT * self.table.turn_timer

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
        base = self.turn_base
        if seat is None or seat.kind != "human" or base is None:
            return None
        return max(base + self.table.turn_timer, self.first_until or 0.0)

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

    async def on_vacation(self, table: TableInfo, user_id: int) -> None:
        """``user_id``'s vacation paused the table: its notice is owed in each place."""
