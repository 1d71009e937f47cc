"""The table service's playing: a person's action, a resignation, a computer's move."""

from __future__ import annotations

from bot.errors import NotSeated, NotYourTurn, SeatTakenOver, StaleAction, TablesElsewhere
from bot.tables.core import TableCore
from bot.tables.places import forward_act
from bot.tables.values import ActionResult
from domino import Action, Resign


class TablePlay:
    """Applies the actions of people and computers to running tables."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def act(
        self, table_id: int, user_id: int, action: Action, *, expected_seq: int | None = None
    ) -> ActionResult:
        """Apply ``action`` for ``user_id`` and commit it.

        ``expected_seq`` (the table's ``seq`` the user saw) turns a click on an outdated
        message into :class:`StaleAction`. A ``Resign`` needs no turn.
        """
        try:
            rt = await self.core.running(table_id)
        except TablesElsewhere:
            if expected_seq is None:
                raise
            # (a table across servers: the click came through a server another process holds)
            return await forward_act(self.core, table_id, user_id, action, expected_seq)
        async with rt.lock:
            self.core.check_running(rt)
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
            result = await self.core.apply(rt, seat, action, "player", reset_timeouts=reset)
        self.core.after(rt, result)
        return result

    async def resign(self, table_id: int, user_id: int) -> ActionResult:
        """``user_id`` gives up: his side loses the match."""
        try:
            rt = await self.core.running(table_id)
        except TablesElsewhere:  # (a table across servers: forwarded for the state seen now)
            rt = await self.core.table(table_id, closed=True)
            self.core.check_running(rt)
            seats = rt.user_seats(user_id, taken_over=True)
            if not seats:
                raise NotSeated("You are not seated at this table.") from None
            return await self.act(table_id, user_id, Resign(seats[0]), expected_seq=rt.seq)
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
        rt = self.core.tables.get(table_id)
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
                action = await self.core.choose(rt, turn, row.ai_level or self.core.ai_level)
            result = await self.core.apply(rt, turn, action, "computer")
        self.core.after(rt, result)
        return result
