"""What each of an event's deadlines does when the clock finds it due (check-in, start, grace,
time limit), and recovery after a (re)start or a shard taken over."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from bot.store import DeadlineRow
from bot.tournaments.core import FORFEIT, PUBLISH, Context, Part, seat_group_sides
from bot.tournaments.rounds import MISSED_LIMIT, Rounds
from bot.tournaments.settling import Settling
from bot.tournaments.store import TournamentRepo

log = logging.getLogger(__name__)


class Deadlines(Part):
    """The clock's handlers of an event's round, and loading the events this process owns."""

    def __init__(self, ctx: Context, rounds: Rounds, settling: Settling) -> None:
        super().__init__(ctx)
        self.rounds = rounds
        self.settling = settling

    async def on_checkin(self, d: DeadlineRow) -> None:
        """The check-in of round ``d.seq`` opens (the first at the start time; a later one
        that waited for a paused event to resume)."""
        event_id = -d.table_id
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None:
                return
            if event.status == "registration" and d.seq == 1:
                entries = [e for e in await self.repo.entries(event_id) if e.status == "active"]
                if len(entries) < 2:
                    await self.rounds.finish(event, "cancelled")
                else:
                    await self.rounds.open_checkin(event, 1)
            elif event.status == "running" and event.round == d.seq - 1:
                row = next(
                    (r for r in await self.repo.rounds(event_id) if r.number == event.round), None
                )
                if row is not None and row.status == "done":
                    await self.rounds.open_checkin(event, d.seq)
            else:
                return
        self.ctx.changed(event_id)

    async def on_start(self, d: DeadlineRow) -> None:
        event_id = -d.table_id
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status != "running":
                return
            if event.round == 0 and d.seq == 1:  # a start time with no check-in yet
                await self.rounds.open_checkin(event, 1)
                event = await self.ctx.get(event_id)
            if event.round != d.seq:
                return
            row = next((r for r in await self.repo.rounds(event_id) if r.number == d.seq), None)
            if row is None or row.status != "checkin":
                return
            await self.rounds.pair(event, d.seq)
        await self.settling.settle(event_id)
        self.ctx.changed(event_id)

    async def on_grace(self, d: DeadlineRow) -> None:
        """The grace is over: a seated person who has not clicked in is replaced by a computer
        (individual) or his side forfeits (pairs, one against one)."""
        event_id = -d.table_id
        async with self.ctx.lock(event_id):
            state = await self.ctx.state(event_id)
            event = state.event
            if event.status != "running" or event.round != d.seq:
                return
            for b in state.boards_of(d.seq):
                if b.status != "playing" or b.table_id is None:
                    continue
                acted = await self._acted(b.table_id)
                absent = [
                    i
                    for i, user in enumerate(b.people)
                    if user is not None and user not in state.present and user not in acted
                ]
                if not absent:
                    continue
                # The board's mark and the missed round are written together, once: a grace
                # run again after a kill finds the mark and counts nothing twice.
                if event.format == "individual":
                    gone = tuple(b.seats[i] for i in absent if b.seats[i] is not None)
                    how = "absent:" + ",".join(str(e) for e in gone)
                    if b.how != how:
                        async with self.store.transaction() as tx:
                            repo = TournamentRepo(tx.db)
                            await repo.set_board(event_id, d.seq, b.board, how=how)
                            await self._note_missed(repo, event_id, gone)
                    await self.rounds.take_over(dataclasses.replace(b, how=how))
                    continue
                ruleset = state.ruleset
                groups = seat_group_sides(ruleset)
                sides = sorted({groups[i][0] for i in absent})
                gone = tuple(e for s in sides for e in b.sides[s] if e is not None)
                async with self.store.transaction() as tx:
                    repo = TournamentRepo(tx.db)
                    forfeited = await repo.set_board(
                        event_id,
                        d.seq,
                        b.board,
                        status="done",
                        points=(0, 0),
                        how="forfeit:" + "".join(str(s) for s in sides),
                        status_was="playing",
                    )
                    if forfeited:
                        await self._note_missed(repo, event_id, gone)
                await self.rounds.stop_table(b.table_id, FORFEIT)
        await self.settling.settle(event_id)
        self.ctx.changed(event_id)

    @staticmethod
    async def _note_missed(repo: TournamentRepo, event_id: int, entries: Sequence[int]) -> None:
        """One more missed round for each of ``entries`` (withdrawn at the limit)."""
        for number in set(entries):
            entry = next((e for e in await repo.entries(event_id) if e.entry == number), None)
            if entry is None:
                continue
            out = entry.missed + 1 >= MISSED_LIMIT and entry.status == "active"
            await repo.set_entry(
                event_id,
                number,
                missed=entry.missed + 1,
                **({"status": "withdrawn"} if out else {}),
            )

    async def _acted(self, table_id: int) -> set[int]:
        """People who made a move themselves at the table."""
        info = await self.tables.get(table_id)
        rows = await self.store.actions.list(table_id)
        seats = {r.seat for r in rows if r.made_by in (None, "player")}
        return {
            s.user_id
            for s in info.seats
            if s is not None and s.user_id is not None and s.seat in seats
        }

    async def on_limit(self, d: DeadlineRow) -> None:
        """The round's time is up: each table still playing finishes its hand in play."""
        event_id = -d.table_id
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status not in ("running", "paused") or event.round != d.seq:
                return
            for b in await self.repo.boards(event_id, d.seq):
                if b.status == "playing" and not b.last_hand:
                    await self.repo.set_board(event_id, d.seq, b.board, last_hand=True)
        await self.settling.settle(event_id)
        self.ctx.changed(event_id)

    async def load(self) -> list[int]:
        """After a (re)start or taking a shard over: time every open event this process owns
        and settle it (tables that ended meanwhile are scored, the round goes on)."""
        loaded: list[int] = []
        timers = await self.repo.timers()
        for event in await self.repo.open_events():
            if not self.owns(event.guild_id):
                continue
            self.ctx.guilds[event.id] = event.guild_id
            self.ctx.time(event.id, [t for t in timers if t.tournament_id == event.id])
            loaded.append(event.id)
        for t in timers:  # an ended event whose last posts wait to be published again
            if t.kind == PUBLISH and t.tournament_id not in self.ctx.guilds:
                event = await self.repo.get(t.tournament_id)
                if event is not None and self.owns(event.guild_id):
                    self.ctx.guilds[event.id] = event.guild_id
                    self.scheduler.set(DeadlineRow(-event.id, t.kind, t.due_at, t.seq))
        for event_id in loaded:
            try:
                await self.settling.settle(event_id)
            except Exception:
                log.exception("tournament %s could not be settled", event_id)
        return loaded

    def release_unowned(self) -> list[int]:
        """Stop timing the events whose server another process runs now."""
        gone = [e for e, g in self.ctx.guilds.items() if not self.owns(g)]
        for event_id in gone:
            self.scheduler.clear(-event_id)
            del self.ctx.guilds[event_id]
        return gone

