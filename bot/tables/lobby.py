"""The table service's lobby: opening a table or a challenge, seating people and computers,
starting the match, handing a seat to a computer, cancelling, and where the messages are."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from bot.errors import (
    AlreadySeated,
    InvalidOptions,
    NotInvited,
    NotSeated,
    PlaceBusy,
    SeatsEmpty,
    WrongStatus,
)
from bot.store import DeadlineRow, SeatRow, Transaction
from bot.tables import computer
from bot.tables.core import UNSET, TableCore, TableState, computer_seat, make_ruleset
from bot.tables.places import POOL_OPTION, Place, place_rows, write_places
from bot.tables.values import (
    DEFAULT_TURN_TIMER,
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    PACES,
    TableInfo,
    is_correspondence,
    seat_groups,
)
from domino import Match, Ruleset


class TableLobby:
    """Tables before their match, and the changes of a table's seats and places."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

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
        self.core.check_owned(guild_id)
        invited = tuple(dict.fromkeys(u for u in invited if u != host_id))
        self.core.check_challenged(host_id, invited)
        clean = {k: v for k, v in (options or {}).items() if v is not None}
        ruleset = make_ruleset(variant, clean)
        if not (MIN_TURN_TIMER <= turn_timer <= MAX_TURN_TIMER or turn_timer in PACES):
            raise InvalidOptions(
                "The turn timer must be between {min} and {max} seconds.",
                min=MIN_TURN_TIMER,
                max=MAX_TURN_TIMER,
            )
        now = self.core.clock()
        async with self.core.store.transaction() as tx:
            await self.core.gate_open(tx, host_id, guild_id)
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
            # (a correspondence table waits for its players as long as a challenge)
            slow = invited or is_correspondence(turn_timer)
            expires = now + (self.core.challenge_ttl if slow else self.core.lobby_ttl)
            expiry = DeadlineRow(row.id, "expire", expires, 0)
            await tx.deadlines.set(expiry)
        rt = TableState(row=row, ruleset=ruleset, seats=seats, invited=invited, expires_at=expires)
        self.core.keep(rt)
        self.core.gate.opened(host_id)
        self.core.timed(expiry)
        self.core.notify(rt, "on_lobby_changed", rt.info())
        return rt.info()

    async def join(
        self, table_id: int, user_id: int, name: str, *, group: int | None = None
    ) -> TableInfo:
        """Seat ``user_id`` in the first free seat (or seat group ``group``)."""
        rt = await self.core.table(table_id)
        async with rt.lock:
            self.core.check_lobby(rt)
            if rt.invited and user_id not in rt.invited:
                raise NotInvited("This challenge is not for you.")
            if rt.user_seats(user_id):
                raise AlreadySeated("You already have a seat at this table.")
            seats = self.core.free_group(rt, group)
            now = self.core.clock()
            rows = [SeatRow(rt.id, s, user_id, name, "human") for s in seats]
            async with self.core.store.transaction() as tx:
                if self.core.gate.counts_people:
                    await tx.limits.lock([user_id])
                    self.core.gate.check_join(await tx.limits.held(user_id))
                for r in rows:
                    await tx.seats.put(r)
                await tx.players.upsert(user_id, name, now=now)
            for r in rows:
                rt.seats[r.seat] = r
            info = rt.info()
        self.core.notify(rt, "on_lobby_changed", info)
        return info

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Free the seats of ``user_id`` in a lobby (use :meth:`resign` once it runs)."""
        rt = await self.core.table(table_id)
        async with rt.lock:
            if rt.row.status == "running":
                raise WrongStatus("The match has started: resign instead.", status="running")
            self.core.check_lobby(rt)
            seats = rt.user_seats(user_id)
            if not seats:
                raise NotSeated("You are not seated at this table.")
            await self.core.store.seats.remove(rt.id, seats)
            for s in seats:
                rt.seats[s] = None
            info = rt.info()
        self.core.notify(rt, "on_lobby_changed", info)
        return info

    async def decline(self, table_id: int, user_id: int) -> TableInfo:
        """An invitee declines (or the host withdraws) a challenge: it closes."""
        rt = await self.core.table(table_id)
        async with rt.lock:
            self.core.check_lobby(rt)
            if not rt.invited or (user_id not in rt.invited and user_id != rt.row.host_id):
                raise NotInvited("This challenge is not for you.")
            now = self.core.clock()
            async with self.core.store.transaction() as tx:
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
            self.core.close(rt)
        self.core.notify(rt, "on_table_cancelled", info)
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
        rt = await self.core.table(table_id)
        level = level or self.core.ai_level
        if level not in computer.LEVELS:
            raise InvalidOptions(
                "The computer level must be one of: {allowed}.",
                allowed=", ".join(computer.LEVELS),
            )
        async with rt.lock:
            self.core.check_lobby(rt)
            self.core.check_host(rt, user_id)
            seats = self.core.free_group(rt, group)
            rows = [computer_seat(rt.id, s, level) for s in seats]
            async with self.core.store.transaction() as tx:
                for r in rows:
                    await tx.seats.put(r)
            for r in rows:
                rt.seats[r.seat] = r
            info = rt.info()
        self.core.notify(rt, "on_lobby_changed", info)
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
        rt = await self.core.table(table_id)
        async with rt.lock:
            self.core.check_lobby(rt)
            self.core.check_host(rt, user_id)
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
            seed = self.core.seed_source()
            match = Match.new(rt.ruleset, seed)
            now = self.core.clock()
            fillers = [computer_seat(rt.id, s, self.core.ai_level) for s in empty]
            seats = list(rt.seats)
            for r in fillers:
                seats[r.seat] = r
            rt.ping_delay = await self.core.ping_delay(rt.row.guild_id)
            timers = self.core.turn_deadlines(rt, now, hand_ended=False, match=match, seats=seats)
            async with self.core.store.transaction() as tx:
                if self.core.gate.limits.matches_per_user:
                    await tx.limits.lock(people)
                    self.core.gate.check_start([await tx.limits.held(p) for p in set(people)])
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
            self.core.scheduler.clear(rt.id)
            self.core.timed(*timers)
            info = rt.info()
        self.core.notify(rt, "on_table_started", info)
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
        first_turn: int | None = None,
        places: Sequence[Place] = (),
    ) -> TableInfo:
        """Open a table whose people are chosen already (an event's board, a daily deal) and
        start its match at once in a thread of its own: ``people`` holds (user id, name) per
        seat group, None for a computer (of ``level``, else the service's). ``within(tx,
        table_id)`` writes what belongs with it in the same transaction; ``seed`` and ``deal``
        fix the match's deals (else a new seed); ``first_turn``: seconds the match's first turn
        lasts at least (the time its people have to come). The per-person and per-server limits
        do not apply (the event has its own). ``places``: the other servers that show the table
        (a table across servers, :mod:`bot.tables.places`), written in the same transaction.
        """
        self.core.check_owned(guild_id)
        groups = seat_groups(ruleset)
        if len(people) != len(groups):
            raise ValueError(f"a {ruleset.id} table seats {len(groups)} people or computers")
        seated = list(dict.fromkeys(p[0] for p in people if p is not None))
        if places:
            place_rows(0, guild_id=guild_id, channel_id=channel_id, seated=seated, places=places)
            options = {**options, POOL_OPTION: True}
        if seed is None:
            seed = self.core.seed_source()
        match = Match.new(ruleset, seed, deal)
        ping_delay = await self.core.ping_delay(guild_id)
        now = self.core.clock()
        async with self.core.store.transaction() as tx:
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
                        seats[s] = computer_seat(row.id, s, level or self.core.ai_level)
                    else:
                        seats[s] = SeatRow(row.id, s, person[0], person[1], "human")
            for seat_row in seats:
                assert seat_row is not None
                await tx.seats.put(seat_row)
            for person in dict.fromkeys(p for p in people if p is not None):
                await tx.players.upsert(person[0], person[1], now=now)
            rt = TableState(row=row, ruleset=ruleset, seats=seats, ping_delay=ping_delay)
            timers = self.core.turn_deadlines(rt, now, hand_ended=False, match=match, seats=seats)
            later = max(0.0, (first_turn or 0) - turn_timer)
            if later:  # the person to move has his time to come first
                rt.first_until = now + later + turn_timer
                timers = [
                    dataclasses.replace(d, due_at=d.due_at + later)
                    if d.kind in ("timeout", "remind")
                    else d
                    for d in timers
                ]
            await tx.matches.create(
                row.id, ruleset=ruleset.to_dict(), seed=seed, now=now, deal=deal
            )
            await tx.tables.set_status(row.id, "running", now=now)
            await tx.tables.set_messages(row.id, now=now, thread_id=0)
            await tx.deadlines.replace(row.id, (), timers)
            if places:
                await write_places(
                    tx,
                    place_rows(
                        row.id,
                        guild_id=guild_id,
                        channel_id=channel_id,
                        seated=seated,
                        places=places,
                    ),
                )
            if within is not None:
                await within(tx, row.id)
        rt.match, rt.seed = match, seed
        rt.row = dataclasses.replace(row, status="running", updated_at=now, thread_id=0)
        rt.turn_started = now
        self.core.keep(rt)
        self.core.timed(*timers)
        info = rt.info()
        self.core.notify(rt, "on_table_started", info)
        return info

    async def take_over(self, table_id: int, user_id: int) -> TableInfo | None:
        """A computer plays the seats of ``user_id`` from now on (he did not show up); None if
        he has none left to take or the table is not running here."""
        rt = self.core.tables.get(table_id)
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
                seats[s] = dataclasses.replace(old, kind="computer", ai_level=self.core.ai_level)
            now = self.core.clock()
            kinds = ("move", "remind", "timeout", "forced")
            timers: list[DeadlineRow] = []
            if rt.match.turn in taken and rt.match.outcome is None:
                start = max(now, rt.turn_started or now)
                timers = [
                    d
                    for d in self.core.turn_deadlines(rt, start, hand_ended=False, seats=seats)
                    if d.kind in kinds
                ]
            async with self.core.store.transaction() as tx:
                for s in taken:
                    await tx.seats.put(seats[s])  # type: ignore[arg-type]
                if timers:
                    await tx.deadlines.replace(rt.id, kinds, timers)
            rt.seats[:] = seats
            if timers:
                self.core.scheduler.clear(rt.id, kinds)
                self.core.timed(*timers)
            info = rt.info()
        self.core.notify(rt, "on_seat_taken_over", info, user_id, taken)
        return info

    async def cancel(
        self, table_id: int, user_id: int, *, force: bool = False, reason: str = "cancelled"
    ) -> TableInfo:
        """Cancel a lobby or a running match: the host, or anyone when ``force`` (a manager)."""
        rt = await self.core.table(table_id)
        async with rt.lock:
            self.core.check_open(rt)
            if not force:
                self.core.check_host(rt, user_id)
            now = self.core.clock()
            async with self.core.store.transaction() as tx:
                if rt.row.status == "running":
                    await tx.matches.finish(rt.id, now=now, outcome=None)
                await tx.tables.set_status(rt.id, "cancelled", now=now, reason=reason)
                await tx.deadlines.clear(rt.id)
            rt.row = dataclasses.replace(
                rt.row, status="cancelled", updated_at=now, closed_reason=reason
            )
            info = rt.info()
            self.core.close(rt)
        self.core.notify(rt, "on_table_cancelled", info)
        return info

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = UNSET,
        lobby_message_id: int | None = UNSET,
        thread_id: int | None = UNSET,
        channel_id: int | None = UNSET,
    ) -> TableInfo:
        """Remember where the table's Discord messages are (open or closed tables); arguments
        left out stay."""
        rt = await self.core.table(table_id, closed=True)
        changes = {
            k: v
            for k, v in {
                "message_id": message_id,
                "lobby_message_id": lobby_message_id,
                "thread_id": thread_id,
                "channel_id": channel_id,
            }.items()
            if v is not UNSET
        }
        async with rt.lock:
            now = self.core.clock()
            await self.core.store.tables.set_messages(rt.id, now=now, **changes)
            self.core.unindex(rt)
            rt.row = dataclasses.replace(rt.row, updated_at=now, **changes)
            if rt.id in self.core.tables:
                self.core.index(rt)
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
            for rt in self.core.tables.values()
        )
