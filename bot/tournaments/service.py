"""The life of a tournament: registration, check-ins, rounds, their tables, results, the end.

Everything is in the store (:mod:`bot.tournaments.store`); every timed step is a deadline of the
one clock (the table service's :class:`~bot.tables.clock.Clock`, keyed by the event's id made
negative so it never meets a table's). The rules come from the pure modules: the pairing
(:mod:`bot.tournaments.pairing`), the standings (:mod:`bot.tournaments.standings`) and the
values (:mod:`bot.tournaments.model`). Each round's tables are opened and played by the
:class:`~bot.tables.service.TableService`; this service watches them end (as a table observer,
and by reading the store again after a restart: :meth:`TournamentService.settle` is idempotent).

The steps of a round ``r``: ``checkin`` (the check-in opens, ``checkin_before`` seconds before
the start), ``start`` (the checked-in entrants are paired and the tables open), ``grace`` (a
seated person who has not clicked in: a computer plays an individual's seat, a pair or a
one-against-one player forfeits), ``limit`` (the round's time is up: each table finishes the
hand in play and is scored as it stands). When every table of the round is scored, the next
round's check-in opens, or the event ends. Discord learns of changes through listeners
(:meth:`TournamentService.listen`), which publish from the store.

:class:`TournamentService` is the facade; the work is done by its parts, each given the one
shared :class:`~bot.tournaments.core.Context` (the store, the clock, the locks, the listeners):
``reading``, ``creating``, ``registration``, ``host`` (the host's commands), ``rounds`` (the
steps of a round, the event's end), ``settling`` (the tables read back) and ``deadlines`` (the
clock's handlers, recovery).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.errors import WrongStatus
from bot.store import Store
from bot.tables.clock import Clock
from bot.tables.service import (
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    TableInfo,
    TableObserver,
    TableService,
)
from bot.tournaments.arena_rounds import BEGIN, END, PAIR, ArenaRounds
from bot.tournaments.arena_store import ArenaPost
from bot.tournaments.core import (
    CHECKIN_BEFORE,
    PUBLISH,
    Context,
    EventState,
    Listener,
    TourLimits,
    event_ruleset,
    family_of,
)
from bot.tournaments.creating import DEFAULT_GRACE, DEFAULT_HANDS, DEFAULT_TIME_LIMIT, Creating
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.host import Hosting
from bot.tournaments.reading import Reading
from bot.tournaments.registration import INVITE_COOLDOWN, Registration
from bot.tournaments.rounds import Rounds
from bot.tournaments.settling import Settling
from bot.tournaments.store import (
    BoardRow,
    CorrectionRow,
    EntryRow,
    EventRow,
    InvitationRow,
    TournamentRepo,
)
from domino import HandResult, Outcome

__all__ = [
    "CHECKIN_BEFORE",
    "DEFAULT_GRACE",
    "DEFAULT_HANDS",
    "DEFAULT_TIME_LIMIT",
    "INVITE_COOLDOWN",
    "PUBLISH",
    "EventState",
    "TourLimits",
    "TournamentService",
    "event_ruleset",
    "family_of",
]


class TournamentService(TableObserver):
    """Runs the events of the servers this process owns: the one object the cogs call, each
    call handed to the part it belongs to."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        clock: Callable[[], float] | None = None,
        limits: TourLimits | None = None,
        checkin_before: float = CHECKIN_BEFORE,
        owns: Callable[[int | None], bool] | None = None,
        turn_timer: int = 120,
    ) -> None:
        self._ctx = ctx = Context(
            store=store,
            tables=tables,
            clock=clock or tables.clock or time.time,
            limits=limits or TourLimits(),
            checkin_before=checkin_before,
            owns=owns or tables.owns,
            turn_timer=min(max(turn_timer, MIN_TURN_TIMER), MAX_TURN_TIMER),
            repo=TournamentRepo(store.db),
            scheduler=tables.scheduler,
        )
        self._reading = Reading(ctx)
        self._creating = Creating(ctx)
        self._registration = Registration(ctx)
        self._rounds = Rounds(ctx)
        self._settling = Settling(ctx, self._rounds)
        self._hosting = Hosting(ctx, self._rounds, self._settling)
        self._deadlines = Deadlines(ctx, self._rounds, self._settling)
        self._arena = self._settling.arena = ArenaRounds(ctx, self._rounds)
        self.scheduler.handlers.update(
            {
                "t.checkin": self._deadlines.on_checkin,
                "t.start": self._deadlines.on_start,
                "t.grace": self._deadlines.on_grace,
                "t.limit": self._deadlines.on_limit,
                PUBLISH: self._reading.on_publish,
                BEGIN: self._arena.on_begin,
                END: self._arena.on_again,
                PAIR: self._arena.on_again,
            }
        )

    @property
    def store(self) -> Store:
        return self._ctx.store

    @property
    def tables(self) -> TableService:
        return self._ctx.tables

    @property
    def clock(self) -> Callable[[], float]:
        return self._ctx.clock

    @property
    def limits(self) -> TourLimits:
        return self._ctx.limits

    @property
    def checkin_before(self) -> float:
        return self._ctx.checkin_before

    @property
    def owns(self) -> Callable[[int | None], bool]:
        return self._ctx.owns

    @property
    def turn_timer(self) -> int:
        return self._ctx.turn_timer

    @property
    def repo(self) -> TournamentRepo:
        return self._ctx.repo

    @property
    def scheduler(self) -> Clock:
        return self._ctx.scheduler

    # -- listeners ---------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Be told (with the event's id) whenever an event changed."""
        self._ctx.listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._ctx.listeners:
            self._ctx.listeners.remove(listener)

    # -- reading -----------------------------------------------------------------------------

    async def get(self, event_id: int) -> EventRow:
        return await self._ctx.get(event_id)

    async def state(self, event_id: int) -> EventState:
        return await self._ctx.state(event_id)

    async def find(self, guild_id: int, channel_id: int | None = None) -> EventRow:
        return await self._reading.find(guild_id, channel_id)

    async def last_finished(self, guild_id: int) -> int | None:
        return await self._reading.last_finished(guild_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        return await self._reading.organiser_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self._reading.set_organiser_role(guild_id, role_id)

    async def corrections(self, event_id: int) -> list[CorrectionRow]:
        return await self._reading.corrections(event_id)

    async def posts(self, event_id: int) -> dict[str, int | None]:
        return await self._reading.posts(event_id)

    async def mark_post(self, event_id: int, key: str, message_id: int | None) -> None:
        await self._reading.mark_post(event_id, key, message_id)

    async def publish_later(self, event_id: int, delay: float | None = None) -> float:
        return await self._reading.publish_later(event_id, delay)

    async def published(self, event_id: int) -> None:
        await self._reading.published(event_id)

    async def due(self, kind: str, event_id: int, seq: int) -> float | None:
        return await self._reading.due(kind, event_id, seq)

    async def unpublished(self) -> list[int]:
        return await self._reading.unpublished()

    async def rating_changes(self, state: EventState) -> dict[int, tuple[float, float]]:
        return await self._reading.rating_changes(state)

    async def podium_ready(self, state: EventState) -> bool:
        return await self._reading.podium_ready(state)

    # -- creating ----------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        name: str,
        variant: str,
        options: dict[str, Any] | None = None,
        format: str,
        system: str = "swiss",
        rounds: int | None = None,
        hands: int | None = None,
        points: int | None = None,
        time_limit: int = DEFAULT_TIME_LIMIT,
        grace: int = DEFAULT_GRACE,
        fill: str = "mixed",
        playoff: int = 0,
        max_entrants: int | None = None,
        start_at: float | None = None,
        locale: str | None = None,
        winner_role: int | None = None,
        public_place: bool = False,
        checkin: bool = False,
        arena: int | None = None,
    ) -> EventRow:
        return await self._creating.create(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            name=name,
            variant=variant,
            options=options,
            format=format,
            system=system,
            rounds=rounds,
            hands=hands,
            points=points,
            time_limit=time_limit,
            grace=grace,
            fill=fill,
            playoff=playoff,
            max_entrants=max_entrants,
            start_at=start_at,
            locale=locale,
            winner_role=winner_role,
            public_place=public_place,
            checkin=checkin,
            arena=arena,
        )

    # -- registration ------------------------------------------------------------------------

    async def register(self, event_id: int, user_id: int, name: str) -> EntryRow:
        """Enter the event; in a running arena, join it (again, after leaving) and wait for a
        table."""
        event = await self._ctx.get(event_id)
        if event.system == "arena" and event.status == "running":
            self._arena.check_open(event)
            mine = await self.repo.entry_of(event_id, user_id)
            if mine is not None and mine.status == "active":
                async with self._ctx.lock(event_id):
                    await self._arena.come_back(event, mine)
                await self._arena.settle(event_id)
                self._ctx.changed(event_id)
                return mine
        entry = await self._registration.register(event_id, user_id, name)
        if event.system == "arena" and event.status == "running":
            await self._arena.joined(event, entry)
            await self._arena.settle(event_id)
        return entry

    async def invite(
        self, event_id: int, user_id: int, name: str, partner: tuple[int, str]
    ) -> InvitationRow:
        return await self._registration.invite(event_id, user_id, name, partner)

    async def answer_partner(
        self, event_id: int, user_id: int, accept: bool, inviter: int | None = None
    ) -> EntryRow | None:
        entry = await self._registration.answer_partner(event_id, user_id, accept, inviter)
        event = await self._ctx.get(event_id)
        if entry is not None and event.system == "arena" and event.status == "running":
            await self._arena.joined(event, entry)
            await self._arena.settle(event_id)
        return entry

    async def withdraw(self, event_id: int, user_id: int) -> EntryRow:
        """Leave the event; a running arena's entrant stops being paired (he may join again)."""
        event = await self._ctx.get(event_id)
        if event.system == "arena" and event.status == "running":
            return await self._arena.leave(event_id, user_id)
        return await self._registration.withdraw(event_id, user_id)

    async def check_in(self, event_id: int, user_id: int) -> EntryRow:
        return await self._registration.check_in(event_id, user_id)

    async def here(self, event_id: int, round_: int, user_id: int) -> BoardRow:
        return await self._registration.here(event_id, round_, user_id)

    # -- the host ----------------------------------------------------------------------------

    async def start(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        event = await self._ctx.get(event_id)
        if event.system != "arena":
            return await self._hosting.start(event_id, user_id, manager=manager)
        async with self._ctx.lock(event_id):
            event = await self._ctx.get(event_id)
            self._hosting._check_host(event, user_id, manager)
            if event.status != "registration":
                raise WrongStatus("This tournament has already started.")
            await self._arena.begin(event)
        await self._arena.settle(event_id)
        self._ctx.changed(event_id)
        return await self._ctx.get(event_id)

    async def pause(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        if (await self._ctx.get(event_id)).system == "arena":
            raise WrongStatus("An arena cannot be paused: its end time is fixed.")
        return await self._hosting.pause(event_id, user_id, manager=manager)

    async def resume(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        return await self._hosting.resume(event_id, user_id, manager=manager)

    async def cancel(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        event = await self._hosting.cancel(event_id, user_id, manager=manager)
        if event.system == "arena":
            await self._arena.stop_all(event_id)
        return event

    # -- an arena's standings post -----------------------------------------------------------

    async def arena_post(self, event_id: int) -> ArenaPost:
        """The arena's count of changes and what its standings post shows."""
        return await self._arena.post(event_id)

    async def arena_posted(self, event_id: int, version: int) -> None:
        """The standings post shows ``version`` now."""
        await self._arena.posted(event_id, version)

    async def correct(
        self,
        event_id: int,
        user_id: int,
        *,
        round_: int,
        board: int,
        points: tuple[int, int],
        reason: str,
        manager: bool = False,
    ) -> BoardRow:
        return await self._hosting.correct(
            event_id,
            user_id,
            round_=round_,
            board=board,
            points=points,
            reason=reason,
            manager=manager,
        )

    # -- settling ----------------------------------------------------------------------------

    async def settle(self, event_id: int) -> None:
        await self._settling.settle(event_id)

    # -- the table observer ------------------------------------------------------------------

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        await self._table_closed(table)

    async def on_table_cancelled(self, table: TableInfo) -> None:
        await self._table_closed(table)

    async def on_hand_ended(self, table: TableInfo, result: HandResult) -> None:
        event_id = table.table.options.get("tournament")
        if isinstance(event_id, int):
            board = await self.repo.board_of_table(table.id)
            if board is not None and board.last_hand:
                await self._settling.settle(event_id)

    async def _table_closed(self, table: TableInfo) -> None:
        event_id = table.table.options.get("tournament")
        if isinstance(event_id, int):
            await self._settling.settle(event_id)

    # -- the clock and recovery --------------------------------------------------------------

    async def load(self) -> list[int]:
        return await self._deadlines.load()

    def release_unowned(self) -> list[int]:
        return self._deadlines.release_unowned()
