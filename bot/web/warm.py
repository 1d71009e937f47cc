"""The pages' warm-up, before the first reader: each kind of page rendered once through its
own handler on every connection of the pool, so that each connection has prepared its
statements (PostgreSQL plans a statement at its first run on a connection) and the
templates and catalogues are loaded. The first second is then as fast as the rest."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from bot.settings import POSTGRES_SCHEMES
from bot.store import DatabaseUnavailable
from bot.store.connection import POOL_SIZE
from bot.web.queries import PageRepo
from bot.web.reader import Reader

__all__ = ["warm"]

log = logging.getLogger(__name__)


async def warm(app: web.Application, reader: Reader) -> float:
    """Render a page of each kind (on PostgreSQL, as many at once as the pool has
    connections); the seconds it took (0 when the database has no server with pages)."""
    started = time.perf_counter()
    try:
        async with reader.reading() as store:
            sample = await PageRepo(store.db).sample()
    except DatabaseUnavailable:
        return 0.0  # the pages answer 503 until it is back; nothing to prepare
    if sample is None:
        return 0.0
    guild, player, table, event = sample
    g = str(guild)
    tour = [
        ("home", "/", {}),
        ("server", f"/s/{g}", {"guild": g}),
        ("server", f"/s/{g}?by=wins&page=2", {"guild": g}),
        ("server", f"/s/{g}?period=week", {"guild": g}),
        ("server", f"/s/{g}?period=month", {"guild": g}),
        ("server", f"/s/{g}?period=season", {"guild": g}),
        ("server", f"/s/{g}?player=a", {"guild": g}),
        ("player", f"/s/{g}/p/{player}", {"guild": g, "player": str(player)}),
        ("match", f"/m/{table}", {"table": str(table)}),
        ("tournament", f"/s/{g}/t/{event}", {"guild": g, "event": str(event)}),
    ]
    handlers = {r.name: r.handler for r in app.router.routes() if r.name}

    async def once() -> None:
        for name, path, info in tour:
            request = make_mocked_request("GET", path, match_info=info, app=app)
            with contextlib.suppress(web.HTTPException, DatabaseUnavailable):
                await handlers[name](request)

    postgres = reader.url.partition(":")[0].lower() in POSTGRES_SCHEMES
    await asyncio.gather(*(once() for _ in range(POOL_SIZE if postgres else 1)))
    return time.perf_counter() - started
