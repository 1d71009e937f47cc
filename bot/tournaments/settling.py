"""Settling an event: its tables read back from the store and scored, the waiting ones opened,
and a complete round's next step taken."""

from __future__ import annotations

import dataclasses

from bot.store import Transaction
from bot.tables.service import TableInfo
from bot.tournaments.arena_rounds import ArenaRounds
from bot.tournaments.core import FORFEIT, TIME_UP, Context, EventState, Part
from bot.tournaments.rounds import Rounds
from bot.tournaments.store import BoardRow, EventRow, RoundRow, TournamentRepo


class Settling(Part):
    """Brings an event up to date with its tables."""

    def __init__(self, ctx: Context, rounds: Rounds) -> None:
        super().__init__(ctx)
        self.rounds = rounds
        self.arena: ArenaRounds | None = None  # the part that settles arena events

    async def settle(self, event_id: int) -> None:
        """Bring the event up to date with its tables: open the current round's tables not yet
        opened, score those that ended (or whose time is up between hands), and when the round
        is complete open the next one or end the event. Safe to run at any time, again."""
        if self.arena is not None:
            event = await self.repo.get(event_id)
            if event is not None and event.system == "arena":
                await self.arena.settle(event_id)
                return
        async with self.ctx.lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status not in ("running", "paused"):
                return
            changed = False
            state = await self.ctx.state(event_id)
            row = state.round_row(event.round)
            if row is None or row.status == "checkin":
                return
            done = row.status == "done"  # (after a kill right after the round: go on)
            if row.status == "playing":
                changed, done = await self._read_round(state, row)
            if done:
                changed |= await self._next_step(await self.ctx.get(event_id))
        if changed:
            self.ctx.changed(event_id)

    async def _next_step(self, event: EventRow) -> bool:
        """After a round is done: the event ends, the next check-in opens, or (paused) it
        waits for Resume. Returns whether anything changed."""
        if await self._over(event):
            await self.rounds.finish(event, "finished")
        elif event.status == "running":
            await self.rounds.open_checkin(event, event.round + 1)
        elif event.paused_left != (wanted := [["t.checkin", 0.0, event.round + 1]]):
            await self.repo.update(event.id, now=self.clock(), paused_left=wanted)
        else:
            return False
        return True

    async def _read_round(self, state: EventState, row: RoundRow) -> tuple[bool, bool]:
        """Open the round's waiting tables and score those that ended: (whether a board
        changed, whether every board is done: the round is then marked done and its grace and
        time limit dropped)."""
        event = state.event
        changed = False
        for b in state.boards_of(row.number):
            if b.status == "waiting":
                await self._open_board(state, b)
                changed = True
            elif b.status == "playing" and b.table_id is not None:
                await self.rounds.take_over(b)
                changed |= await self._read_board(event, b)
            elif b.status == "done" and b.table_id is not None and (b.how or "").startswith(
                "forfeit"
            ):
                await self.rounds.stop_table(b.table_id, FORFEIT)
        boards = await self.repo.boards(event.id, row.number)
        if not all(b.status == "done" for b in boards):
            return changed, False
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            await repo.put_round(dataclasses.replace(row, status="done"))
            await repo.clear_timers(event.id, ("t.grace", "t.limit"))
        self.scheduler.clear(-event.id, ("t.grace", "t.limit"))
        return True, True

    async def _over(self, event: EventRow) -> bool:
        """Whether the event ends with its current round: its last Swiss round (no playoff),
        a knockout's last round, or a playoff with its champion. The last Swiss round of an
        event with a playoff seeds the playoff (too few entrants left: the event ends)."""
        if event.system == "knockout" and event.format == "individual":
            tree = (await self.ctx.state(event.id)).bracket()
            return tree is None or tree.complete or event.round >= event.rounds
        if event.system == "knockout" or not event.playoff:
            return event.round >= event.rounds
        if event.round < event.rounds:
            return False
        state = await self.ctx.state(event.id)
        if event.round == event.rounds:
            return not await self._seed_playoff(state)
        tree = state.bracket()
        return tree is None or tree.complete

    async def _seed_playoff(self, state: EventState) -> bool:
        """Store the playoff's seeds (the Swiss standings' top places of those still in);
        False if fewer than two are left to play it."""
        seeds = state.playoff_seeds()
        if len(seeds) < 2:
            return False
        await self.repo.update(state.id, now=self.clock(), playoff_seeds=seeds)
        return True

    async def _open_board(self, state: EventState, board: BoardRow) -> None:
        event = state.event

        async def within(tx: Transaction, table_id: int) -> None:
            await TournamentRepo(tx.db).set_board(
                event.id,
                board.round,
                board.board,
                table_id=table_id,
                status="playing",
                status_was="waiting",
            )

        await self.open_board_table(state, board, within)

    async def _read_board(self, event: EventRow, board: BoardRow) -> bool:
        """Score a board whose table ended, or whose time is up between two hands."""
        assert board.table_id is not None
        info = await self.tables.get(board.table_id)
        if info.status == "running":
            if not board.last_hand or not _between_hands(info):
                return False
            await self.rounds.stop_table(board.table_id, TIME_UP)
            info = await self.tables.get(board.table_id)
        view = info.public_view()
        scores = tuple(view.scores) if view is not None else (0, 0)
        outcome = view.outcome if view is not None else None
        how = board.how if board.how and board.how.startswith("absent:") else None
        kind = "played" if info.status == "finished" else "time"
        if outcome is not None and outcome.gave_up and outcome.winner_side is not None:
            kind = f"forfeit:{1 - outcome.winner_side}"
        how = kind if how is None else f"{kind};{how}"
        done = await self.repo.set_board(
            event.id,
            board.round,
            board.board,
            status="done",
            points=scores[:2],
            how=how,
            status_was="playing",
        )
        return done > 0


def _between_hands(info: TableInfo) -> bool:
    """True if no hand is in play: the last one ended and the next has no move yet."""
    view = info.public_view()
    if view is None or view.outcome is not None:
        return True
    return bool(view.hand_results) and not any(e.kind != "start" for e in view.events)
