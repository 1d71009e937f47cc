"""Helpers of the tournament tests: play an event's clock forward; a bot on any database."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from bot.errors import WrongStatus
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from tests.bot.helpers import FakeClock
from tests.cogs.helpers import TestBot, settings_for
from tests.fakediscord import FakeDiscord

KNOCKED_OUT = "You are out of this knockout."


async def run(tables: TableService, clock: FakeClock, seconds: float = 0.0) -> None:
    """Move the clock and run everything due (computer moves, the event's steps), until
    nothing more is due now."""
    clock.advance(seconds)
    for _ in range(10_000):
        await tables.tick()
        await tables.idle()
        due = tables.scheduler.next_due()
        if due is None or due > clock():
            return
    raise AssertionError("the clock never settled")


async def play_round(
    events: TournamentService,
    tables: TableService,
    clock: FakeClock,
    event_id: int,
    *,
    skip: Collection[int] = (),
    absent: Collection[int] = (),
) -> int:
    """From an open check-in: everyone but ``skip`` (and a knockout's losers) checks in, the
    round starts, everyone seated but ``absent`` clicks in at his table, and the tables are
    played out (the people let their turns time out until a computer takes over). Returns the
    round's number."""
    state = await events.state(event_id)
    number = state.event.round
    for e in state.active():
        if e.joined_round <= number and e.user_id not in skip:
            try:
                await events.check_in(event_id, e.user_id)
            except WrongStatus as exc:  # a knockout's losers are told they are out
                if exc.template != KNOCKED_OUT:
                    raise
    await run(tables, clock, events.checkin_before)
    state = await events.state(event_id)
    for b in state.boards_of(number):
        for user in b.people:
            if user is not None and user not in absent and b.status == "playing":
                await events.here(event_id, number, user)
    for _ in range(500):
        state = await events.state(event_id)
        row = state.round_row(number)
        if row is not None and row.status == "done":
            return number
        await run(tables, clock, tables_timer(events))
    raise AssertionError(f"round {number} never ended")


def tables_timer(events: TournamentService) -> float:
    return float(events.turn_timer)


def bot_at(
    fake: FakeDiscord, url: str, *, everywhere: bool = False, **kwargs: Any
) -> Callable[[], TestBot]:
    """A test bot's factory on the database at ``url`` (SQLite or PostgreSQL); ``everywhere``:
    its commands synced globally (every server has them), not to the test server only."""
    settings = dataclasses.replace(
        settings_for(fake, Path("unused")),
        database_url=url,
        database_path=None,
        **({"dev_guild_id": None} if everywhere else {}),
    )
    return lambda: TestBot(settings, **kwargs)
