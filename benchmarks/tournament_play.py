"""A whole event simulated end to end: the store, the clock, the tables, the computers.

``people`` people enter an individual Swiss event of partners; each round they check in, the
tables open, everyone clicks in and lets a computer play his seat, and the tables are played
to the end on an accelerated clock (the clock jumps to each deadline: the
time measured is the bot's work, not the waiting). Printed: the wall time of each round (from
the pairing to the last table scored) and the process's peak memory. Part of
``python -m benchmarks.tournament``.
"""

from __future__ import annotations

import asyncio
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService


class JumpClock:
    """A clock that moves only when told to (to the next deadline)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True, slots=True)
class RoundRun:
    number: int
    seconds: float
    tables: int
    hands: int


async def _run_due(tables: TableService, clock: JumpClock, until: float | None = None) -> None:
    """Run every deadline, jumping the clock to each (up to ``until``)."""
    while True:
        await tables.tick()
        await tables.idle()
        due = tables.scheduler.next_due()
        if due is None or (until is not None and due > until):
            clock.now = max(clock.now, until or clock.now)
            await tables.tick()
            await tables.idle()
            return
        clock.now = max(clock.now, due)


async def simulate(
    people: int = 64, rounds: int = 5, hands: int = 4, level: str = "easy"
) -> list[RoundRun]:
    """Play the event; the time of each round."""
    out: list[RoundRun] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        clock = JumpClock()
        tables = TableService(
            store,
            clock=clock,
            computer_delay=0.0,
            computer_pace=None,
            hand_pause=0.0,
            ai_level=level,
        )
        events = TournamentService(store, tables, clock=clock)
        tables.add_observer(events)
        try:
            event = await events.create(
                guild_id=1, channel_id=1, host_id=1, name="Benchmark", variant="partners",
                format="individual", rounds=rounds, hands=hands,
            )
            for user in range(1000, 1000 + people):
                await events.register(event.id, user, f"P{user}")
            await events.start(event.id, 1)
            for number in range(1, rounds + 1):
                state = await events.state(event.id)
                for e in state.active():
                    await events.check_in(event.id, e.user_id)
                clock.now += events.checkin_before  # the round starts
                began = time.perf_counter()
                await tables.tick()
                await tables.idle()
                # Everyone clicks in, then lets a computer play his seat.
                for b in (await events.state(event.id)).boards_of(number):
                    for user in b.people:
                        if user is not None and b.table_id is not None:
                            await events.here(event.id, number, user)
                            await tables.take_over(b.table_id, user)
                for _ in range(10_000):
                    await _run_due(tables, clock, clock.now + state.event.grace)
                    row = (await events.state(event.id)).round_row(number)
                    if row is not None and row.status == "done":
                        break
                    clock.now += 60
                else:
                    raise RuntimeError(f"round {number} never ended")
                seconds = time.perf_counter() - began
                boards = (await events.state(event.id)).boards_of(number)
                out.append(RoundRun(number, seconds, len([b for b in boards if not b.is_bye]),
                                    hands))
            final = await events.get(event.id)
            if final.status != "finished":
                raise RuntimeError(f"the event did not finish: {final.status}")
        finally:
            await tables.aclose()
            await store.close()
    return out


def peak_memory_mib() -> float:
    """The process's peak resident memory so far."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def print_simulation(runs: list[RoundRun], people: int, level: str, load: str) -> None:
    print(f"A {people}-person individual Swiss event of {len(runs)} rounds, every seat a "
          f"computer ({level}), accelerated clock ({load})")
    for r in runs:
        print(f"  round {r.number}: {r.seconds:6.2f} s ({r.tables} tables of {r.hands} hands)")
    total = sum(r.seconds for r in runs)
    print(f"  whole event {total:.2f} s; peak memory {peak_memory_mib():.0f} MiB")


def run(people: int, rounds: int, level: str, load: str) -> None:
    print_simulation(asyncio.run(simulate(people, rounds, level=level)), people, level, load)
