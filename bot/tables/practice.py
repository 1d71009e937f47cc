"""Practice tables: which tables are for practice, and the Hint a player there may ask for."""

from __future__ import annotations

from collections.abc import Sequence

from bot import computer
from bot.errors import NotYourTurn, ServiceError, TableFinished
from bot.hint import Hint
from bot.store.table_extras import PracticeRepo
from bot.tables.service import TableService
from domino import View


async def is_practice(service: TableService, table_id: int) -> bool:
    """Whether ``table_id`` was opened for practice."""
    return bool(await PracticeRepo(service.store.db).among([table_id]))


async def mark(service: TableService, table_id: int) -> None:
    """Make ``table_id`` a practice table (its hands offer hints)."""
    await PracticeRepo(service.store.db).add(table_id)


async def hint_at(
    service: TableService, table_id: int, user_id: int, seq: int
) -> tuple[View, Hint] | None:
    """The strongest computer player's move for ``user_id`` on practice table ``table_id``,
    with the view it was made for; ``None`` when the table moved on from state ``seq``.

    Raises :class:`TableFinished`, :class:`ServiceError` (not a practice table) or
    :class:`NotYourTurn`, and changes nothing.
    """
    info = await service.get(table_id)
    if info.status != "running":
        raise TableFinished("This table is closed.")
    if not await is_practice(service, table_id):
        raise ServiceError("Hints are for practice tables only.")
    views: Sequence[View] = await service.views_for(table_id, user_id)
    acting = next(
        (v for v in views if v.seat is not None and v.seat == info.turn and v.legal), None
    )
    if acting is None:
        raise NotYourTurn("It is not your turn.")
    if info.seq != seq:
        return None
    rng = computer.rng_for(f"hint/{table_id}", info.seq)
    return acting, await computer.hint_for(acting, rng)


__all__ = ["hint_at", "is_practice", "mark"]
