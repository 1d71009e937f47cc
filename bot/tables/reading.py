"""The table service's reading: snapshots of tables, a match's history, the feeds' marks and
the players' settings."""

from __future__ import annotations

from bot.errors import NotSeated, WrongStatus
from bot.store import FeedRow, PlayerSettingsRow
from bot.tables.core import UNSET, TableCore
from bot.tables.history import History
from bot.tables.values import HISTORIES_KEPT, TableInfo
from domino import Match, Ruleset, View


class TableReading:
    """Reads tables (from memory while open, else from the store) and what goes with them."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def get(self, table_id: int) -> TableInfo:
        """The table, loading it from the store if needed; finished tables are read too."""
        return (await self.core.table(table_id, closed=True)).info()

    def open_tables(self) -> list[TableInfo]:
        """Every table in the lobby or running, as kept in memory."""
        return [rt.info() for rt in self.core.tables.values()]

    def table_in(
        self, channel_id: int | None = None, thread_id: int | None = None
    ) -> TableInfo | None:
        """The running table of a thread, or the one running directly in a channel."""
        for rt in self.core.tables.values():
            if rt.row.status != "running":
                continue
            if thread_id is not None and rt.row.thread_id == thread_id:
                return rt.info()
            if (
                channel_id is not None
                and rt.row.thread_id is None
                and rt.row.channel_id == channel_id
            ):
                return rt.info()
        return None

    def tables_of(self, user_id: int, guild_id: int | None = UNSET) -> list[TableInfo]:
        """Open tables where ``user_id`` has a seat (of one server if ``guild_id`` is given)."""
        return [
            rt.info()
            for rt in self.core.tables.values()
            if rt.user_seats(user_id, taken_over=True)
            and (guild_id is UNSET or rt.row.guild_id == guild_id)
        ]

    def tables_in_guild(self, guild_id: int | None) -> list[TableInfo]:
        """Open tables of one server, oldest first."""
        return [rt.info() for rt in self.core.tables.values() if rt.row.guild_id == guild_id]

    async def table_by_message(self, message_id: int) -> TableInfo | None:
        """The table whose lobby or game message is ``message_id`` (open ones from memory)."""
        rt = self.core.tables.get(self.core.by_message.get(message_id, 0))
        if rt is not None:
            return rt.info()
        row = await self.core.store.tables.by_message(message_id)
        return None if row is None else await self.get(row.id)

    async def hand_end_view(self, table_id: int, hand_number: int) -> tuple[int, View]:
        """The public view right after hand ``hand_number`` ended (its final position), and
        the number of actions up to then."""
        rt = await self.core.table(table_id, closed=True)
        assert rt.match is not None and rt.seed is not None
        match_row = await self.core.store.matches.get(rt.id)
        assert match_row is not None
        match = Match.new(rt.ruleset, match_row.seed, match_row.deal)
        seq = 0
        for action in rt.match.actions:
            if len(match.hand_results) >= hand_number:
                break
            match = match.apply(action)
            seq += 1
        return seq, match.public_view()

    async def history(self, table_id: int) -> History:
        """The match's public history as stored (read on from where the last call stopped)."""
        history = self.core.histories.get(table_id)
        if history is None:
            match_row = await self.core.store.matches.get(table_id)
            if match_row is None:
                raise WrongStatus("The match has not started yet.")
            ruleset = Ruleset.from_dict(match_row.ruleset)
            history = History(ruleset, match_row.seed, match_row.deal)
        history.extend(await self.core.store.actions.list(table_id, since=history.seq))
        self.core.histories[table_id] = history
        self.core.histories.move_to_end(table_id)
        while len(self.core.histories) > HISTORIES_KEPT:
            self.core.histories.popitem(last=False)
        return history

    async def unpublished(self) -> list[int]:
        """Closed tables of this process whose end is not published yet."""
        ids = await self.core.store.tables.unpublished()
        out = []
        for table_id in ids:
            row = await self.core.store.tables.get(table_id)
            if row is not None and self.core.owns(row.guild_id):
                out.append(table_id)
        return out

    async def feed(self, table_id: int) -> FeedRow:
        """How far the table's public messages were brought."""
        return await self.core.store.feeds.get(table_id)

    async def save_feed(self, feed: FeedRow) -> None:
        await self.core.store.feeds.save(feed)

    async def player_settings(self, user_id: int) -> PlayerSettingsRow:
        """What ``user_id`` chose with ``/domino settings`` (the defaults if nothing)."""
        return await self.core.store.player_settings.get(user_id)

    async def save_player_settings(self, settings: PlayerSettingsRow) -> None:
        await self.core.store.player_settings.save(settings, now=self.core.clock())

    async def views_for(self, table_id: int, user_id: int) -> list[View]:
        """The private view of each seat ``user_id`` holds (two in seven-seven), seat order."""
        # (read from the store where another process runs the table: a table across servers'
        # person opens his tiles through his own server)
        rt = await self.core.table(table_id, closed=True)
        self.core.check_running(rt)
        seats = rt.user_seats(user_id, taken_over=True)
        if not seats:
            raise NotSeated("You are not seated at this table.", table_id=table_id)
        assert rt.match is not None
        return [rt.match.view(seat) for seat in seats]
