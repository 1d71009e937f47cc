"""What the host (or an organiser) does: start, pause, resume or cancel an event, correct a
result."""

from __future__ import annotations

import dataclasses

from bot.errors import InvalidOptions, NotHost, TableNotFound, WrongStatus
from bot.tournaments.core import PUBLISH, Context, Part
from bot.tournaments.rounds import Rounds
from bot.tournaments.settling import Settling
from bot.tournaments.store import BoardRow, EventRow, TournamentRepo


class Hosting(Part):
    """The host's commands."""

    def __init__(self, ctx: Context, rounds: Rounds, settling: Settling) -> None:
        super().__init__(ctx)
        self.rounds = rounds
        self.settling = settling

    def _check_host(self, event: EventRow, user_id: int, manager: bool) -> None:
        if not manager and user_id != event.host_id:
            raise NotHost(
                "Only the tournament's host or an organiser (Manage Server, or the organiser"
                " role) may do that."
            )

    async def start(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """The host starts the event: the first round's check-in opens now."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "registration":
                raise WrongStatus("This tournament has already started.")
            entries = [e for e in await self.repo.entries(event_id) if e.status == "active"]
            need = 2
            if event.format == "individual" and event.fill == "bye" and event.system == "swiss":
                need = 4
            if len(entries) < need:
                raise WrongStatus(
                    "A tournament needs at least {count} entrants to start.", count=need
                )
            await self.rounds.open_checkin(event, 1)
        self.ctx.changed(event_id)
        return await self.ctx.get(event_id)

    async def pause(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """Hold the event's clock (tables being played go on)."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "running":
                raise WrongStatus("Only a running tournament can be paused.")
            now = self.clock()
            timers = [t for t in await self.repo.timers(event_id) if t.kind != PUBLISH]
            left = [[t.kind, max(0.0, t.due_at - now), t.seq] for t in timers]
            held = [t.kind for t in timers]
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.clear_timers(event_id, held)
                await repo.update(event_id, now=now, status="paused", paused_left=left)
            self.scheduler.clear(-event_id, held)
        self.ctx.changed(event_id)
        return await self.ctx.get(event_id)

    async def resume(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "paused":
                raise WrongStatus("This tournament is not paused.")
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await self.ctx.set_timers(
                    tx,
                    event_id,
                    *((k, now + left, seq) for k, left, seq in event.paused_left or []),
                )
                await repo.update(event_id, now=now, status="running", paused_left=None)
            self.ctx.time(event_id, await self.repo.timers(event_id))
        await self.settling.settle(event_id)
        self.ctx.changed(event_id)
        return await self.ctx.get(event_id)

    async def cancel(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """The host calls the event off; its running tables are cancelled."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            self._check_host(event, user_id, manager)
            if not event.is_open:
                raise WrongStatus("This tournament is over.")
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.clear_timers(event_id)
                await repo.update(event_id, now=now, status="cancelled")
            self.scheduler.clear(-event_id)
            for b in await self.repo.boards(event_id, event.round):
                if b.status == "playing" and b.table_id is not None:
                    await self.rounds.stop_table(b.table_id, "cancelled")
        self.ctx.changed(event_id)
        return await self.ctx.get(event_id)

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
        """The host changes a scored table's points (logged with the reason); a knockout
        round's once the next round began no more (who went through plays it)."""
        reason = " ".join(reason.split())
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status == "cancelled":
                raise WrongStatus("This tournament was cancelled.")
            if not reason:
                raise InvalidOptions("Say why the result is corrected.")
            if min(points) < 0 or max(points) > 100_000:
                raise InvalidOptions("Points are between 0 and 100000.")
            found = next(
                (b for b in await self.repo.boards(event_id, round_) if b.board == board), None
            )
            if found is None or found.is_bye:
                raise TableNotFound(
                    "Round {round} has no table {board}.", round=round_, board=board
                )
            if found.status != "done" or found.points is None:
                raise WrongStatus("That table is still being played.")
            bracket = event.system == "knockout" or bool(
                event.playoff and event.rounds and round_ > event.rounds
            )
            if bracket and event.round > round_:
                raise WrongStatus(
                    "Round {round} of the bracket is settled: who went through plays round"
                    " {next} already.",
                    round=round_,
                    next=round_ + 1,
                )
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.add_correction(
                    event_id,
                    round_,
                    board,
                    user_id,
                    reason[:300],
                    list(found.points),
                    list(points),
                    now,
                )
                await repo.set_board(event_id, round_, board, points=points, how="corrected")
            found = dataclasses.replace(found, points=points, how="corrected")
        self.ctx.changed(event_id)
        return found
