"""Reading an event for the Discord layer: finding it, its posts and when they are published
again, the rating changes of its entrants, whether its podium may be drawn."""

from __future__ import annotations

import time

from bot.errors import TableNotFound, WrongStatus
from bot.records.rating import display_ordinal, ordinal
from bot.records.store import RecordsRepo
from bot.store import DeadlineRow
from bot.tournaments.core import PUBLISH, EventState, Part, family_of
from bot.tournaments.store import CorrectionRow, EventRow, TimerRow

PUBLISH_FIRST, PUBLISH_MOST = 1.0, 60.0  # seconds before publishing again after a failure
RECORDS_WAIT = 600.0  # seconds the podium waits for the match records of the last tables


class Reading(Part):
    """What the Discord layer reads of an event, and the bookkeeping of its publication."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # event -> when (this process's monotonic time) its podium first waited for records
        self._waiting: dict[int, float] = {}

    async def find(self, guild_id: int, channel_id: int | None = None) -> EventRow:
        """The event a command in this channel is about: the channel's open event, else the
        server's only open one, else the channel's or server's latest."""
        events = await self.repo.open_events(guild_id)
        here = [e for e in events if e.channel_id == channel_id]
        if here:
            return here[0]
        if len(events) == 1:
            return events[0]
        if len(events) > 1:
            raise WrongStatus(
                "This server runs several tournaments: use the command in the tournament's channel."
            )
        latest = await self.repo.latest(guild_id, channel_id) or await self.repo.latest(guild_id)
        if latest is None:
            raise TableNotFound("There is no tournament on this server.")
        return latest

    async def last_finished(self, guild_id: int) -> int | None:
        """The server's event that finished last (its winners hold the server's role)."""
        return await self.repo.last_finished(guild_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        return await self.repo.organiser_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.repo.set_organiser_role(guild_id, role_id)

    async def corrections(self, event_id: int) -> list[CorrectionRow]:
        return await self.repo.corrections(event_id)

    async def posts(self, event_id: int) -> dict[str, int | None]:
        return await self.repo.posts(event_id)

    async def mark_post(self, event_id: int, key: str, message_id: int | None) -> None:
        await self.repo.mark_post(event_id, key, message_id)

    async def publish_later(self, event_id: int, delay: float | None = None) -> float:
        """Publish the event's posts again later, as a stored deadline of the one clock (a kill
        meanwhile loses nothing): after ``delay`` seconds, or (None: Discord failed) after a
        wait that doubles with each failure in a row. Returns the wait."""
        found = next((t for t in await self.repo.timers(event_id) if t.kind == PUBLISH), None)
        failures = found.seq if found is not None else 0
        if delay is None:
            delay = min(PUBLISH_MOST, PUBLISH_FIRST * 2**min(failures, 10))
            failures += 1
        row = TimerRow(event_id, PUBLISH, self.clock() + delay, failures)
        await self.repo.set_timer(row)
        event = await self.repo.get(event_id)
        if event is not None and self.owns(event.guild_id):
            self.scheduler.set(DeadlineRow(-event_id, PUBLISH, row.due_at, row.seq))
        return delay

    async def published(self, event_id: int) -> None:
        """The event's posts are up to date: no publication waits any more."""
        if any(t.kind == PUBLISH for t in await self.repo.timers(event_id)):
            await self.repo.clear_timers(event_id, (PUBLISH,))
            self.scheduler.clear(-event_id, (PUBLISH,))

    async def on_publish(self, d: DeadlineRow) -> None:
        """Time to publish again: the listeners (the publisher) are told; its row stays until
        a publication succeeds."""
        self.ctx.changed(-d.table_id)

    async def due(self, kind: str, event_id: int, seq: int) -> float | None:
        """When the event's deadline ``kind`` for round ``seq`` falls due (None: not set)."""
        for t in await self.repo.timers(event_id):
            if t.kind == kind and t.seq == seq:
                return t.due_at
        return None

    async def unpublished(self) -> list[int]:
        """Events of this process that ended and whose end is not published yet."""
        return [e.id for e in await self.repo.ended_unpublished() if self.owns(e.guild_id)]

    async def rating_changes(self, state: EventState) -> dict[int, tuple[float, float]]:
        """Per entrant: (rating at registration, that rating plus what the event's own rated
        tables changed) in the event's variant family; a pair's is its members' mean. Matches
        its people played elsewhere meanwhile do not count."""
        table_ids = [b.table_id for b in state.boards if b.table_id is not None]
        family = family_of(state.event.variant)
        gained: dict[int, float] = {}
        for row in await RecordsRepo(self.store.db).entries_of(table_ids):
            if row.rated and row.kind == "human" and row.family == family:
                after = display_ordinal(ordinal(row.mu_after, row.sigma_after))
                change = after - display_ordinal(ordinal(row.mu_before, row.sigma_before))
                gained[row.player_id] = gained.get(row.player_id, 0.0) + change
        out: dict[int, tuple[float, float]] = {}
        for e in state.entries:
            change = sum(gained.get(u, 0.0) for u in e.members) / len(e.members)
            out[e.entry] = (e.rating, e.rating + change)
        return out

    async def podium_ready(self, state: EventState) -> bool:
        """Whether the podium may be drawn: each finished table of the event has its match
        record (the rating change reads them; the records' observer may lag behind the last
        table's end, or catch up after a restart), or this process has waited for them
        ``RECORDS_WAIT`` seconds."""
        ids = [b.table_id for b in state.boards if b.table_id is not None]
        recorded = {r.table_id for r in await RecordsRepo(self.store.db).entries_of(ids)}
        for table_id in set(ids) - recorded:
            match = await self.store.matches.get(table_id)
            if match is not None and match.outcome is not None and match.finished_at is not None:
                # Every finished match is recorded (computers' seats too): wait for it, and
                # give up only after RECORDS_WAIT seconds of real time (the records are not
                # running), not of the bot's clock, which a test may run fast.
                since = self._waiting.setdefault(state.id, time.monotonic())
                return time.monotonic() - since >= RECORDS_WAIT
        self._waiting.pop(state.id, None)
        return True
