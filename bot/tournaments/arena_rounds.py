"""An arena event's life: it begins, people join and leave at any time, whoever waits is paired
again at once (:mod:`bot.tournaments.arena`), and at its end time the pairing stops while the
tables being played finish; then the event ends with its podium.

Each table is opened with :meth:`TableService.open_seated` whose ``within`` writes its board
and seats its entrants (a conditional update from "no board") in the table's own transaction:
a kill at any instant leaves each entrant either at one table or waiting, never both, never
twice. :meth:`ArenaRounds.settle` is idempotent and runs after every table's end, every join
and at every start.
"""

from __future__ import annotations

import logging

from bot.errors import NotSeated, WrongStatus
from bot.store import DeadlineRow, IntegrityError, Transaction
from bot.tournaments import arena
from bot.tournaments.arena_store import ArenaPost, ArenaRepo
from bot.tournaments.core import Context, EventState, Part
from bot.tournaments.model import PairedTable, Pairing, TableResult
from bot.tournaments.rounds import Rounds
from bot.tournaments.store import BoardRow, EntryRow, EventRow, TournamentRepo

log = logging.getLogger(__name__)

BEGIN = "a.begin"  # the arena begins (its start time)
END = "a.end"  # the arena's pairing stops
PAIR = "a.pair"  # pair again those who waited for someone new
KINDS = (BEGIN, END, PAIR)
#: Seconds between two edits of the standings post at least.
STANDINGS_EVERY = 60.0
MIN_DURATION, MAX_DURATION = 10 * 60, 6 * 3600


class Conflict(Exception):
    """An entrant to seat sits somewhere already or left: the table is not opened."""


class ArenaRounds(Part):
    """Runs arena events."""

    def __init__(self, ctx: Context, rounds: Rounds) -> None:
        super().__init__(ctx)
        self.rounds = rounds

    # -- the host and the entrants ------------------------------------------------------------

    async def begin(self, event: EventRow) -> None:
        """The arena begins: every entrant waits, the end is a stored deadline."""
        now = self.clock()
        ends = now + (event.arena or MIN_DURATION)
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            await ArenaRepo(tx.db).begin(event.id, ends, now)
            await repo.clear_timers(event.id, (BEGIN,))
            for e in await repo.entries(event.id):
                if e.status == "active":
                    await ArenaRepo(tx.db).enter(event.id, e.entry, now)
            await ArenaRepo(tx.db).bump(event.id)
            await self.ctx.set_timers(tx, event.id, (END, ends, 1))
        self.ctx.time(event.id, await self.repo.timers(event.id))

    async def joined(self, event: EventRow, entry: EntryRow) -> None:
        """A registered entrant waits (again) from now."""
        async with self.store.transaction() as tx:
            await ArenaRepo(tx.db).enter(event.id, entry.entry, self.clock())
            await ArenaRepo(tx.db).bump(event.id)

    def check_open(self, event: EventRow) -> None:
        """Raise if the arena pairs nobody any more (its end time is past)."""
        if self._closed(event):
            raise WrongStatus("This arena's pairing is over: its last tables are being played.")

    async def come_back(self, event: EventRow, entry: EntryRow) -> EntryRow:
        """Someone who left joins again: he waits from now."""
        self.check_open(event)
        async with self.store.transaction() as tx:
            back = await ArenaRepo(tx.db).set_away(event.id, entry.entry, False)
            if not back:
                raise WrongStatus(
                    "You are in this arena already: you are paired when a table is free."
                )
            await ArenaRepo(tx.db).bump(event.id)
        return entry

    async def leave(self, event_id: int, user_id: int) -> EntryRow:
        """``user_id`` (or his pair) stops being paired; a table he sits at is played to its
        end. He keeps his score and may join again until the end."""
        async with self.ctx.lock(event_id):
            entry = await self.repo.entry_of(event_id, user_id)
            if entry is None or entry.status != "active":
                raise NotSeated("You are not registered in this tournament.")
            async with self.store.transaction() as tx:
                gone = await ArenaRepo(tx.db).set_away(event_id, entry.entry, True)
                if not gone:
                    raise WrongStatus("You have left this arena already; join again to play.")
                await ArenaRepo(tx.db).bump(event_id)
        self.ctx.changed(event_id)
        return entry

    async def stop_all(self, event_id: int) -> None:
        """The arena was cancelled: its running tables stop."""
        for b in await self.repo.boards(event_id):
            if b.status == "playing" and b.table_id is not None:
                await self.rounds.stop_table(b.table_id, "cancelled")

    # -- the standings post -------------------------------------------------------------------

    async def post(self, event_id: int) -> ArenaPost:
        return await ArenaRepo(self.store.db).post(event_id)

    async def posted(self, event_id: int, version: int) -> None:
        await ArenaRepo(self.store.db).posted(event_id, version, self.clock())

    # -- the clock ----------------------------------------------------------------------------

    async def on_begin(self, d: DeadlineRow) -> None:
        event_id = -d.table_id
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status != "registration":
                return
            await self.begin(event)
        await self.settle(event_id)
        self.ctx.changed(event_id)

    async def on_again(self, d: DeadlineRow) -> None:
        """The end time, or the wait for someone new: settle (pair, or finish)."""
        event_id = -d.table_id
        await self.repo.clear_timers(event_id, (d.kind,))
        await self.settle(event_id)
        self.ctx.changed(event_id)

    # -- settling -----------------------------------------------------------------------------

    def _closed(self, event: EventRow) -> bool:
        return event.arena_ends_at is not None and self.clock() >= event.arena_ends_at

    async def settle(self, event_id: int) -> None:
        """Score the tables that ended, pair whoever waits (until the end time), and after the
        end, once no table is left, finish the event. Safe to run at any time, again."""
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status != "running":
                return
            changed = await self._score(event)
            state = await self.ctx.state(event_id)
            playing = [b for b in state.boards if b.status == "playing"]
            if self._closed(event):
                if not playing:
                    await self.rounds.finish(event, "finished")
                    changed = True
            else:
                changed |= await self._pair(state)
        if changed:
            self.ctx.changed(event_id)

    async def _score(self, event: EventRow) -> bool:
        """Score each board whose table ended: its entrants wait again from now."""
        changed = False
        for b in await self.repo.boards(event.id):
            if b.status != "playing" or b.table_id is None:
                continue
            info = await self.tables.get(b.table_id)
            if info.status in ("lobby", "running"):
                continue
            view = info.public_view()
            scores = tuple(view.scores) if view is not None else (0, 0)
            outcome = view.outcome if view is not None else None
            how = "played" if info.status == "finished" else "time"
            resigned = outcome is not None and outcome.gave_up
            if resigned and outcome is not None and outcome.winner_side is not None:
                how = f"forfeit:{1 - outcome.winner_side}"
            async with self.store.transaction() as tx:
                done = await TournamentRepo(tx.db).set_board(
                    event.id, b.round, b.board, status="done", points=scores[:2], how=how,
                    status_was="playing",
                )
                if done:
                    await ArenaRepo(tx.db).free(event.id, b.round, b.board, self.clock())
                    await ArenaRepo(tx.db).bump(event.id)
            changed |= bool(done)
        return changed

    def waiting(self, state: EventState, seats: dict[int, arena.ArenaSeat]) -> list[arena.Waiting]:
        """The entrants waiting for a table, with their scores and last meetings."""
        results = [r for r in state.results() if isinstance(r, TableResult)]
        scores = arena.score_of(arena.standings(state.entrants(), results))
        last = arena.last_meetings(results)
        out = []
        for e in state.active():
            seat = seats.get(e.entry)
            if seat is None or seat.away or seat.board is not None:
                continue
            them, partner = last.get(e.entry, (frozenset(), None))
            out.append(
                arena.Waiting(e.entry, scores.get(e.entry, 0), e.rating, seat.since, them, partner)
            )
        return out

    async def _pair(self, state: EventState) -> bool:
        """Seat whoever waits; a wait for someone new comes back as a stored deadline."""
        event = state.event
        seats = await ArenaRepo(self.store.db).seats(event.id)
        missing = [e for e in state.active() if e.entry not in seats]
        if missing:  # (entered by an accepted invitation: waits from now)
            async with self.store.transaction() as tx:
                for e in missing:
                    await ArenaRepo(tx.db).enter(event.id, e.entry, self.clock())
            seats = await ArenaRepo(self.store.db).seats(event.id)
        now = self.clock()
        found = arena.pair(event.format, self.waiting(state, seats), now)  # type: ignore[arg-type]
        wave = max((b.round for b in state.boards), default=0) + 1
        tables = tuple(PairedTable(i + 1, t) for i, t in enumerate(found.tables))
        boards = self.rounds._boards(state, Pairing(wave, tables))
        opened = 0
        for board in boards:
            try:
                await self._open(state, board)
                opened += 1
            except Conflict:
                log.info("arena %s: board %s.%s not opened", event.id, wave, board.board)
        if found.again_at is not None:
            async with self.store.transaction() as tx:
                await self.ctx.set_timers(tx, event.id, (PAIR, found.again_at, wave))
            self.ctx.time(event.id, await self.repo.timers(event.id))
        if opened:
            await self.repo.update(event.id, now=now, round=wave)
        return opened > 0

    async def _open(self, state: EventState, board: BoardRow) -> None:
        """Open the board's table; its board row and its entrants' seats are written in the
        table's transaction (:class:`Conflict`: someone is seated already, nothing written)."""
        event = state.event

        async def within(tx: Transaction, table_id: int) -> None:
            repo = TournamentRepo(tx.db)
            seats = ArenaRepo(tx.db)
            for entrant in {e for e in board.seats if e is not None}:
                if not await seats.seat(event.id, entrant, board.round, board.board):
                    raise Conflict(entrant)
            try:
                await repo.put_boards([_playing(board, table_id)])
            except IntegrityError:
                raise Conflict(board.board) from None
            await seats.bump(event.id)

        await self.open_board_table(state, board, within)


def _playing(board: BoardRow, table_id: int) -> BoardRow:
    return BoardRow(
        tournament_id=board.tournament_id,
        round=board.round,
        board=board.board,
        seats=board.seats,
        sides=board.sides,
        people=board.people,
        table_id=table_id,
        status="playing",
        last_hand=False,
        points=None,
        how=None,
    )
