"""Helpers for the bot tests: a fake clock, a recording observer, a service factory, a
computer search that fails once."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.store import Store
from bot.tables import computer
from bot.tables.service import ActionResult, TableInfo, TableObserver, TableService
from domino import Action


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class Recorder(TableObserver):
    """Records every observer call as (method, args)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    def of(self, name: str) -> list[tuple[Any, ...]]:
        return [args for n, args in self.calls if n == name]

    async def on_lobby_changed(self, table: TableInfo) -> None:
        self.calls.append(("on_lobby_changed", (table,)))

    async def on_table_started(self, table: TableInfo) -> None:
        self.calls.append(("on_table_started", (table,)))

    async def on_action(self, result: ActionResult) -> None:
        self.calls.append(("on_action", (result,)))

    async def on_hand_ended(self, table: TableInfo, result: Any) -> None:
        self.calls.append(("on_hand_ended", (table, result)))

    async def on_match_ended(self, table: TableInfo, outcome: Any) -> None:
        self.calls.append(("on_match_ended", (table, outcome)))

    async def on_table_cancelled(self, table: TableInfo) -> None:
        self.calls.append(("on_table_cancelled", (table,)))

    async def on_reminder(self, table: TableInfo, seat: int, user_id: int, deadline: float) -> None:
        self.calls.append(("on_reminder", (table, seat, user_id, deadline)))

    async def on_seat_taken_over(
        self, table: TableInfo, user_id: int, seats: tuple[int, ...]
    ) -> None:
        self.calls.append(("on_seat_taken_over", (table, user_id, seats)))


def make_service(store: Store, clock: FakeClock, seed: int = 7, **kwargs: Any) -> TableService:
    """A service with a fixed seed and the fake clock."""
    kwargs.setdefault("computer_delay", 1.0)
    kwargs.setdefault("computer_pace", None)  # answer as soon as computed (no real waiting)
    kwargs.setdefault("hand_pause", 3.0)
    return TableService(store, clock=clock, seed_source=lambda: seed, **kwargs)


def fail_one_computer_search(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the next computer move fail as a broken process pool would (once); the list
    returned gets an item when it has failed."""
    real_compute, real_choose = computer.compute, computer.choose
    failed: list[int] = []

    def fail_once() -> None:
        if not failed:
            failed.append(1)
            raise BrokenProcessPool("a worker process died")

    async def compute(*args: Any, **kwargs: Any) -> Action:
        fail_once()
        return await real_compute(*args, **kwargs)

    def choose(*args: Any, **kwargs: Any) -> Action:  # an only move, or a cheap level
        fail_once()
        return real_choose(*args, **kwargs)

    monkeypatch.setattr(computer, "compute", compute)
    monkeypatch.setattr(computer, "choose", choose)
    return failed


class HintSearches(list[int]):
    """The seat of every hint search run, and the most that ran at once."""

    most = 0


def count_hint_searches(monkeypatch: pytest.MonkeyPatch, budget: float = 0.02) -> HintSearches:
    """Make every hint search short and count them."""
    searches = HintSearches()
    running = [0]
    search = computer.hint

    def counted(view, **kwargs):  # type: ignore[no-untyped-def]
        searches.append(view.seat)
        running[0] += 1
        searches.most = max(searches.most, running[0])
        try:
            return search(view, budget=budget, **kwargs)
        finally:
            running[0] -= 1

    monkeypatch.setattr(computer, "hint", counted)
    return searches
