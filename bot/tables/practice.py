"""Practice tables: which tables are for practice, and the Hint a player there may ask for.

A hint is searched once per table state and seat (however often its button is pressed) and
one search at a time per person: a burst of clicks runs one search, and the rest wait for
its answer.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Sequence

from bot.errors import NotYourTurn, ServiceError, TableFinished
from bot.store.table_extras import PracticeRepo
from bot.tables import computer
from bot.tables.hint import Hint
from bot.tables.service import TableInfo, TableService
from domino import View

#: Hints kept per table service: (table, state, seat) -> the view and its hint.
CACHED_HINTS = 1024


class Hints:
    """The hints found so far (the latest :data:`CACHED_HINTS`) and each person's lock."""

    def __init__(self, size: int = CACHED_HINTS) -> None:
        self.size = size
        self.found: OrderedDict[tuple[int, int, int], tuple[View, Hint]] = OrderedDict()
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def get(self, key: tuple[int, int, int]) -> tuple[View, Hint] | None:
        found = self.found.get(key)
        if found is not None:
            self.found.move_to_end(key)
        return found

    def put(self, key: tuple[int, int, int], value: tuple[View, Hint]) -> None:
        self.found[key] = value
        while len(self.found) > self.size:
            self.found.popitem(last=False)

    def lock(self, user_id: int) -> asyncio.Lock:
        """The lock that lets ``user_id`` run one search at a time."""
        lock = self.locks.get(user_id)
        if lock is None:
            lock = self.locks[user_id] = asyncio.Lock()
        return lock


_hints: weakref.WeakKeyDictionary[TableService, Hints] = weakref.WeakKeyDictionary()


def hints_of(service: TableService) -> Hints:
    """The hints found at ``service``'s tables."""
    found = _hints.get(service)
    if found is None:
        found = _hints[service] = Hints()
    return found


async def is_practice(service: TableService, table_id: int) -> bool:
    """Whether ``table_id`` was opened for practice."""
    return bool(await PracticeRepo(service.store.db).among([table_id]))


async def offers_hints(service: TableService, info: TableInfo) -> bool:
    """Whether the table's hands offer the Hint: a practice table's, but not a daily deal's
    (its result is the player's own)."""
    return "daily" not in info.table.options and await is_practice(service, info.id)


async def mark(service: TableService, table_id: int) -> None:
    """Make ``table_id`` a practice table (its hands offer hints)."""
    await PracticeRepo(service.store.db).add(table_id)


async def hint_at(
    service: TableService, table_id: int, user_id: int, seq: int
) -> tuple[View, Hint] | None:
    """The strongest computer player's move for ``user_id`` on practice table ``table_id``,
    with the view it was made for; ``None`` when the table moved on from state ``seq``.

    Found once per table state and seat, one search at a time per person. Raises
    :class:`TableFinished`, :class:`ServiceError` (not a practice table) or
    :class:`NotYourTurn`, and changes nothing.
    """
    info = await service.get(table_id)
    if info.status != "running":
        raise TableFinished("This table is closed.")
    if not await offers_hints(service, info):
        raise ServiceError("Hints are for practice tables only.")
    views: Sequence[View] = await service.views_for(table_id, user_id)
    acting = next(
        (v for v in views if v.seat is not None and v.seat == info.turn and v.legal), None
    )
    if acting is None:
        raise NotYourTurn("It is not your turn.")
    if info.seq != seq:
        return None
    assert acting.seat is not None
    hints = hints_of(service)
    key = (table_id, info.seq, acting.seat)
    async with hints.lock(user_id):
        found = hints.get(key)
        if found is None:
            rng = computer.rng_for(f"hint/{table_id}", info.seq)
            found = (acting, await computer.hint_for(acting, rng))
            hints.put(key, found)
    return found


__all__ = [
    "CACHED_HINTS", "Hints", "hint_at", "hints_of", "is_practice", "mark", "offers_hints"
]
