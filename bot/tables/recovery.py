"""The table service's recovery: the open tables rebuilt from the store after a start, and
those this process no longer owns let go."""

from __future__ import annotations

import dataclasses
import logging

from bot.store import DeadlineRow
from bot.tables.core import TableCore
from bot.tables.values import TableInfo, restart_grace

log = logging.getLogger(__name__)


class TableRecovery:
    """Loads the open tables of this process's shards, and releases those of others."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def load_open_tables(self) -> list[TableInfo]:
        """Rebuild every lobby and running table this process owns from the store (after a
        restart), with their stored deadlines."""
        rows = await self.core.store.tables.list_by_status("lobby", "running")
        loaded: list[TableInfo] = []
        fresh: set[int] = set()
        for row in rows:
            if not self.core.owns(row.guild_id):
                continue
            if row.id in self.core.tables:
                loaded.append(self.core.tables[row.id].info())
                continue
            try:
                rt = await self.core.build(row)
            except Exception:
                log.exception("table %s could not be rebuilt from the store; skipped", row.id)
                continue
            self.core.keep(rt)
            fresh.add(row.id)
            loaded.append(rt.info())
        await self._resume_deadlines(fresh)
        return loaded

    async def _resume_deadlines(self, table_ids: set[int]) -> None:
        """Give the clock the stored deadlines of the tables just loaded; a running table
        without any (a database from before deadlines were stored) gets its turn's deadlines
        now."""
        stored = [d for d in await self.core.store.deadlines.list() if d.table_id in table_ids]
        timed = {d.table_id for d in stored}
        now = self.core.clock()
        fresh: list[DeadlineRow] = []
        for rt in [self.core.tables[t] for t in table_ids]:
            if rt.row.status == "running" and rt.id not in timed:
                assert rt.turn_started is not None
                hand_ended = rt.turn_started > now
                start = rt.turn_started - (self.core.hand_pause if hand_ended else 0.0)
                fresh += self.core.turn_deadlines(rt, start, hand_ended=hand_ended)
        for d in fresh:
            await self.core.store.deadlines.set(d)
        out: list[DeadlineRow] = []
        for d in stored + fresh:
            rt = self.core.tables[d.table_id]
            if d.kind == "timeout":  # the bot's downtime is not the player's fault
                grace = restart_grace(rt.row.turn_timer)
                d = dataclasses.replace(d, due_at=max(d.due_at, now + grace))
            out.append(d)
        for d in out:
            if self.core.owns(self.core.tables[d.table_id].row.guild_id):
                self.core.scheduler.set(d)

    def release_unowned(self) -> list[int]:
        """Forget the open tables this process no longer owns (their shard went to another
        process): their deadlines leave the clock; the store keeps everything. Returns their
        ids."""
        dropped = [t for t, rt in self.core.tables.items() if not self.core.owns(rt.row.guild_id)]
        for table_id in dropped:
            self.core.scheduler.clear(table_id)
            self.core.close(self.core.tables[table_id])
        return dropped
