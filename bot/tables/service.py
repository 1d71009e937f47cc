"""The table service: runs dominoes tables and their matches, knowing nothing of Discord.

The Discord layer calls the coroutines below and is told what happened through
:class:`TableObserver` callbacks. Every action is committed to the :class:`~bot.store.Store`
before the call returns; the state in memory can always be rebuilt from the action log
(:meth:`TableService.load_open_tables`).

:class:`TableService` is a facade over its parts, which share one :class:`~bot.tables.core.
TableCore`: reading (:mod:`bot.tables.reading`), the lobby (:mod:`bot.tables.lobby`), playing
(:mod:`bot.tables.play`), the timers (:mod:`bot.tables.timers`) and recovery
(:mod:`bot.tables.recovery`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from bot.errors import TablesElsewhere
from bot.limits import NO_LIMITS, Gate, Limits
from bot.store import Store
from bot.tables import computer
from bot.tables.clock import Clock
from bot.tables.core import TableCore
from bot.tables.correspondence import TableCorrespondence
from bot.tables.lobby import TableLobby
from bot.tables.play import TablePlay
from bot.tables.reading import TableReading
from bot.tables.recovery import TableRecovery
from bot.tables.timers import TableTimers
from bot.tables.values import (
    CHALLENGE_TTL,
    DEFAULT_TURN_TIMER,
    FORCED_DELAY,
    LOBBY_TTL,
    MAX_TIMEOUTS,
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    ActionResult,
    TableInfo,
    TableObserver,
    seat_groups,
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
    "seat_groups",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class _Part(Generic[P, R]):
    """A method of the service that is the same-named method of one of its parts."""

    def __init__(self, part: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, service: None, owner: type) -> _Part[P, R]: ...

    @overload
    def __get__(self, service: TableService, owner: type) -> Callable[P, R]: ...

    def __get__(self, service: TableService | None, owner: type) -> Any:
        if service is None:
            return self
        return getattr(getattr(service, self.part), self.name)


class _Shared(Generic[T]):
    """A setting or state of the service that is its core's (read and written there)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, service: None, owner: type) -> _Shared[T]: ...

    @overload
    def __get__(self, service: TableService, owner: type) -> T: ...

    def __get__(self, service: TableService | None, owner: type) -> Any:
        if service is None:
            return self
        return getattr(service.core, self.name)

    def __set__(self, service: TableService, value: T) -> None:
        setattr(service.core, self.name, value)


class TableService:
    """Creates tables, seats people and computers, runs matches, times turns, recovers.

    Each method below is one of its parts'; the settings are the shared core's."""

    store = _Shared[Store]()
    clock = _Shared[Callable[[], float]]()
    seed_source = _Shared[Callable[[], int]]()
    ai_level = _Shared[str]()
    ai_budget = _Shared[float]()
    computer_delay = _Shared[float]()
    computer_pace = _Shared[computer.Pace | None]()
    hand_pause = _Shared[float]()
    max_timeouts = _Shared[int]()
    forced_delay = _Shared[float]()
    lobby_ttl = _Shared[float]()
    challenge_ttl = _Shared[float]()
    owns = _Shared[Callable[[int | None], bool]]()
    gate = _Shared[Gate]()
    scheduler = _Shared[Clock]()

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
        self.core = TableCore(
            store=store,
            clock=clock,
            seed_source=seed_source,
            ai_level=ai_level,
            ai_budget=ai_budget,
            computer_delay=computer_delay,
            computer_pace=computer_pace,
            hand_pause=hand_pause,
            max_timeouts=max_timeouts,
            forced_delay=FORCED_DELAY,
            lobby_ttl=lobby_ttl,
            challenge_ttl=challenge_ttl,
            owns=owns,
            gate=Gate(limits, clock),
            # A deadline run while this process cannot prove it holds the table's lease (being
            # renewed late, or lost: then the table leaves this process) runs again later.
            scheduler=Clock(clock, quiet=(TablesElsewhere,)),
        )
        self.reading = TableReading(self.core)
        self.lobby = TableLobby(self.core)
        self.play = TablePlay(self.core)
        self.timers = TableTimers(self.core, self.play, self.lobby)
        self.recovery = TableRecovery(self.core)
        self.correspondence = TableCorrespondence(self.core)

    # -- observers --------------------------------------------------------------------------

    def add_observer(self, observer: TableObserver) -> None:
        """Be told about changes (see :class:`TableObserver`)."""
        self.core.observers.append(observer)

    def remove_observer(self, observer: TableObserver) -> None:
        self.core.observers.remove(observer)

    idle = _Part("core", TableCore.idle)

    # -- reading ----------------------------------------------------------------------------

    get = _Part("reading", TableReading.get)
    open_tables = _Part("reading", TableReading.open_tables)
    table_in = _Part("reading", TableReading.table_in)
    tables_of = _Part("reading", TableReading.tables_of)
    tables_in_guild = _Part("reading", TableReading.tables_in_guild)
    table_by_message = _Part("reading", TableReading.table_by_message)
    hand_end_view = _Part("reading", TableReading.hand_end_view)
    history = _Part("reading", TableReading.history)
    unpublished = _Part("reading", TableReading.unpublished)
    feed = _Part("reading", TableReading.feed)
    save_feed = _Part("reading", TableReading.save_feed)
    player_settings = _Part("reading", TableReading.player_settings)
    save_player_settings = _Part("reading", TableReading.save_player_settings)
    views_for = _Part("reading", TableReading.views_for)

    # -- lobby ------------------------------------------------------------------------------

    create_table = _Part("lobby", TableLobby.create_table)
    join = _Part("lobby", TableLobby.join)
    leave = _Part("lobby", TableLobby.leave)
    decline = _Part("lobby", TableLobby.decline)
    add_computer = _Part("lobby", TableLobby.add_computer)
    start = _Part("lobby", TableLobby.start)
    open_seated = _Part("lobby", TableLobby.open_seated)
    take_over = _Part("lobby", TableLobby.take_over)
    cancel = _Part("lobby", TableLobby.cancel)
    set_messages = _Part("lobby", TableLobby.set_messages)
    place_busy = _Part("lobby", TableLobby.place_busy)

    # -- playing ----------------------------------------------------------------------------

    act = _Part("play", TablePlay.act)
    resign = _Part("play", TablePlay.resign)
    play_computer = _Part("play", TablePlay.play_computer)

    # -- timers -----------------------------------------------------------------------------

    tick = _Part("timers", TableTimers.tick)
    start_timers = _Part("timers", TableTimers.start_timers)
    aclose = _Part("timers", TableTimers.aclose)

    # -- recovery ---------------------------------------------------------------------------

    load_open_tables = _Part("recovery", TableRecovery.load_open_tables)
    release_unowned = _Part("recovery", TableRecovery.release_unowned)

    # -- correspondence ---------------------------------------------------------------------

    turns = _Part("correspondence", TableCorrespondence.turns)
    vacations = _Part("correspondence", TableCorrespondence.vacations)
    take_vacation = _Part("correspondence", TableCorrespondence.take_vacation)
    apply_vacations = _Part("correspondence", TableCorrespondence.apply)
    owed_notices = _Part("correspondence", TableCorrespondence.owed_notices)
    notice_posted = _Part("correspondence", TableCorrespondence.notice_posted)
