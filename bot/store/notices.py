"""The database's notifications to the bot's processes (PostgreSQL's LISTEN): a process hears
on one connection of its own that another process wrote something it waits for, instead of
looking at the store again and again.

The notifications are sent by triggers when the writing transaction commits (migrations 0940:
``domino_web``, ``t<table>`` after each move or change of a table's state; 0962:
``domino_requests``, ``<table>`` after each click forwarded between processes, ``a<table>``
after its answer). A notification
can be lost (the listening connection dropped): the listeners keep a slow look at the store as
a fallback. SQLite has no notifications: its callers look at the store (:func:`data_version`
says whether another connection committed since).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from bot.store import Store
from bot.store.connection import POSTGRES, SqliteDriver

__all__ = ["MOVES", "REQUESTS", "Notices", "data_version"]

log = logging.getLogger(__name__)

MOVES = "domino_web"  # ``t<table>``: a table moved or changed state
#: ``<table>``: a click was forwarded to the table's process; ``a<table>``: one was answered
REQUESTS = "domino_requests"
RETRY = 5.0  # seconds before a lost listening connection is opened again


class Notices:
    """One process's listening connection (PostgreSQL), opened when first needed and again
    after it dropped; on SQLite it never listens (:meth:`listening` is False)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._heard: dict[str, list[Callable[[str], None]]] = {}
        self._conn: Any = None
        self._failed_at: float | None = None
        self._lock = asyncio.Lock()
        self._dropped: list[Callable[[], None]] = []

    def on(self, channel: str, heard: Callable[[str], None]) -> None:
        """Call ``heard(payload)`` for each notification of ``channel`` (from the next open)."""
        self._heard.setdefault(channel, []).append(heard)

    def on_reopen(self, woken: Callable[[], None]) -> None:
        """Call ``woken()`` whenever listening (re)starts: what was said meanwhile was lost."""
        self._dropped.append(woken)

    async def listening(self) -> bool:
        """Whether this process hears the notifications now (a connection is opened if none
        is, at most once every :data:`RETRY` seconds after a failure)."""
        if self.store.dialect != POSTGRES:
            return False
        if self._conn is not None and not self._conn.is_closed():
            return True
        async with self._lock:
            if self._conn is not None and not self._conn.is_closed():
                return True
            loop = asyncio.get_running_loop()
            if self._failed_at is not None and loop.time() - self._failed_at < RETRY:
                return False
            import asyncpg

            conn = None
            try:
                conn = await asyncpg.connect(self.store.url, timeout=10)
                for channel in self._heard:
                    await conn.add_listener(channel, self._dispatch)
            except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
                log.warning("cannot listen to the database's notifications: %r", exc)
                self._failed_at = loop.time()
                if conn is not None:
                    conn.terminate()
                return False
            self._conn, self._failed_at = conn, None
        for woken in self._dropped:
            woken()
        return True

    def _dispatch(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        for heard in self._heard.get(channel, ()):
            try:
                heard(payload)
            except Exception:
                log.exception("a notification of %s was not handled", channel)

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)
            if not conn.is_closed():
                conn.terminate()


async def data_version(store: Store) -> int | None:
    """SQLite's count of commits by other connections to the file (free to read); None on
    PostgreSQL."""
    if not isinstance(store.driver, SqliteDriver):
        return None
    return int(await store.pragma("data_version"))
