"""The table service's timers: the clock's handlers of a table's deadlines (a computer's move,
a reminder, a time-out, a forced move, the pause after a hand, a lobby's expiry)."""

from __future__ import annotations

from bot.errors import StaleAction, TableFinished, WrongStatus
from bot.store import DeadlineRow
from bot.store.table_extras import GuildSettingsRepo
from bot.tables import computer
from bot.tables.core import TableCore, TableState
from bot.tables.history import TAKEOVER
from bot.tables.lobby import TableLobby
from bot.tables.play import TablePlay
from bot.tables.values import ActionResult, TableInfo, is_correspondence
from domino import Action, Resign, forced_action


class TableTimers:
    """Runs the deadlines of the tables this process owns."""

    def __init__(self, core: TableCore, play: TablePlay, lobby: TableLobby) -> None:
        self.core = core
        self.play = play
        self.lobby = lobby
        core.scheduler.handlers.update(
            move=self._on_move,
            remind=self._on_remind,
            timeout=self._on_timeout,
            pause=self._on_pause,
            expire=self._on_expire,
            forced=self._on_forced,
        )

    async def tick(self, now: float | None = None) -> list[ActionResult]:
        """Run every deadline due at ``now`` (the clock's loop does this by itself once
        :meth:`start_timers` ran; tests call it with a fake clock)."""
        done = await self.core.scheduler.run_due(now)
        return [r for r in done if isinstance(r, ActionResult)]

    def start_timers(self, interval: float = 0.5) -> None:
        """Run deadlines in the background as they fall due, until :meth:`aclose`."""
        self.core.scheduler.poll = interval
        self.core.scheduler.start()

    async def aclose(self) -> None:
        """Stop the clock and let queued observer calls finish."""
        await self.core.scheduler.stop()
        await self.core.idle()

    async def _current(self, d: DeadlineRow, status: str = "running") -> TableState | None:
        """The table of a deadline if the deadline still holds (same status and version)."""
        rt = self.core.tables.get(d.table_id)
        if rt is None or rt.row.status != status or (status == "running" and rt.seq != d.seq):
            return None
        return rt

    async def _on_move(self, d: DeadlineRow) -> ActionResult | None:
        rt = await self._current(d)
        if rt is None or rt.match is None or rt.seed is None or rt.match.turn is None:
            return None
        action: Action | None = None
        row = rt.seats[rt.match.turn]
        if self.core.computer_pace is not None and row is not None and row.kind == "computer":
            # Think (and wait the drawn answer time) without holding the table.
            action = await computer.decide(
                rt.match.view(rt.match.turn),
                row.ai_level or self.core.ai_level,
                rng=computer.rng_for(rt.seed, rt.seq),
                pace_rng=computer.pace_rng_for(rt.seed, rt.seq),
                pace=self.core.computer_pace,
                budget=self.core.ai_budget,
            )
        try:
            return await self.play.play_computer(d.table_id, seq=d.seq, action=action)
        except StaleAction:
            return None

    async def _on_remind(self, d: DeadlineRow) -> None:
        rt = await self._current(d)
        if rt is None or rt.match is None or rt.match.turn is None:
            return
        turn = rt.match.turn
        row = rt.seats[turn]
        if row is None or row.kind != "human" or row.user_id is None:
            return
        deadline = rt.info().deadline or self.core.clock() + rt.row.turn_timer
        self.core.notify(rt, "on_reminder", rt.info(), turn, row.user_id, deadline)

    async def _on_timeout(self, d: DeadlineRow) -> ActionResult | None:
        rt = await self._current(d)
        if rt is None:
            return None
        if is_correspondence(rt.row.turn_timer):  # a vacation another process stored
            away = await self.core.away_until(rt)
            if away is not None and away > (rt.paused_until or 0.0):
                await self.core.pause(rt, away)
                return None
        try:
            return await self._time_out(rt, d.seq)
        except StaleAction:
            return None

    async def _on_forced(self, d: DeadlineRow) -> ActionResult | None:
        """A person's only possible move, made for him (tables with forced moves)."""
        rt = await self._current(d)
        if rt is None:
            return None
        async with rt.lock:
            if rt.match is None or rt.seq != d.seq or rt.row.status != "running":
                return None
            action = forced_action(rt.match)
            turn = rt.match.turn
            if action is None or turn is None:
                return None
            result = await self.core.apply(rt, turn, action, "forced")
        self.core.after(rt, result)
        return result

    async def _on_pause(self, d: DeadlineRow) -> None:
        rt = await self._current(d)
        if rt is not None:
            self.core.notify(rt, "on_pause_over", rt.info())

    async def _on_expire(self, d: DeadlineRow) -> TableInfo | None:
        rt = self.core.tables.get(d.table_id)
        if rt is None or rt.row.status != "lobby":
            return None
        try:
            return await self.lobby.cancel(rt.id, rt.row.host_id, force=True, reason="expired")
        except (WrongStatus, TableFinished):
            return None

    async def _timeout_loss(self, rt: TableState) -> int | None:
        """At a correspondence table, the time-out in a row at which the server's rule makes
        the person's side lose the match (None: the bot plays for him, and after
        :attr:`TableCore.max_timeouts` a computer takes his seats)."""
        if not is_correspondence(rt.row.turn_timer) or rt.row.guild_id is None:
            return None
        return (await GuildSettingsRepo(self.core.store.db).get(rt.row.guild_id)).timeout_loss

    async def _time_out(self, rt: TableState, seq: int) -> ActionResult | None:
        loss = await self._timeout_loss(rt)
        async with rt.lock:
            if rt.row.status != "running" or rt.match is None or rt.seq != seq:
                return None
            turn = rt.match.turn
            row = rt.seats[turn] if turn is not None else None
            if turn is None or row is None or row.kind != "human" or row.user_id is None:
                return None
            user_id = row.user_id
            seats = rt.user_seats(user_id)
            count = row.timeouts + 1
            action: Action
            if loss is not None and count >= loss:  # the server's rule: his side loses
                action, taken = Resign(turn, count), False
            else:
                legal = rt.match.legal_actions()
                action = (
                    legal[0]
                    if len(legal) == 1
                    else await self.core.choose(rt, turn, self.core.ai_level)
                )
                taken = loss is None and count >= self.core.max_timeouts
            by = TAKEOVER if taken else "timeout"
            result = await self.core.apply(rt, turn, action, by, timeouts=(seats, count, taken))
        self.core.after(rt, result)
        if taken:
            self.core.notify(rt, "on_seat_taken_over", result.table, user_id, seats)
        return result
