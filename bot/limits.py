"""Limits on what one person or one server may keep open, and the cooldown on opening tables.

:class:`Gate` checks a request against the open tables the service holds and refuses with a
:class:`~bot.errors.LimitReached` whose one sentence says the limit. The defaults are in
:class:`Limits` (``bot.settings`` reads overrides from the environment).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.errors import LimitReached

__all__ = ["NO_LIMITS", "Gate", "Limits", "OpenTable"]


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one person or one server may have open at once (0: no limit)."""

    lobbies_per_user: int = 3  # tables waiting for players where he sits
    matches_per_user: int = 5  # running matches where he sits
    tables_per_server: int = 50  # open tables (waiting or running) of one server
    cooldown: float = 10.0  # seconds between two tables (or challenges) opened by one person


NO_LIMITS = Limits(0, 0, 0, 0.0)


class _Row(Protocol):
    @property
    def guild_id(self) -> int | None: ...


class OpenTable(Protocol):
    """What the gate reads of an open table (the service's ``TableInfo``)."""

    @property
    def status(self) -> str: ...

    @property
    def table(self) -> _Row: ...

    def is_seated(self, user_id: int) -> bool: ...


class Gate:
    """Checks the limits; remembers when each person last opened a table."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._opened: dict[int, float] = {}

    def check_open(self, user_id: int, guild_id: int | None, tables: Iterable[OpenTable]) -> None:
        """May ``user_id`` open a table (or a challenge) on ``guild_id``?"""
        lim = self.limits
        last = self._opened.get(user_id)
        if last is not None and lim.cooldown > 0:
            wait = last + lim.cooldown - self.clock()
            if wait > 0:
                raise LimitReached(
                    "Please wait {seconds} s before you open another table.",
                    seconds=max(1, round(wait)),
                )
        tables = list(tables)
        self._check_seated(user_id, tables)
        if lim.tables_per_server and guild_id is not None:
            here = sum(t.table.guild_id == guild_id for t in tables)
            if here >= lim.tables_per_server:
                raise LimitReached(
                    "This server already has {limit} open tables: wait until one finishes.",
                    limit=lim.tables_per_server,
                )

    def check_join(self, user_id: int, tables: Iterable[OpenTable]) -> None:
        """May ``user_id`` sit down at one more table?"""
        self._check_seated(user_id, list(tables))

    def check_start(self, people: Iterable[int], tables: Iterable[OpenTable]) -> None:
        """May a match with ``people`` start (none of them playing too many already)?"""
        limit = self.limits.matches_per_user
        if not limit:
            return
        running = [t for t in tables if t.status == "running"]
        for user_id in set(people):
            if sum(1 for t in running if t.is_seated(user_id)) >= limit:
                raise LimitReached(
                    "Someone at this table is already playing {limit} matches: the match can "
                    "start once he has finished one.",
                    limit=limit,
                )

    def opened(self, user_id: int) -> None:
        """``user_id`` just opened a table: his cooldown starts."""
        now = self.clock()
        self._opened[user_id] = now
        if len(self._opened) > 10_000:  # forget the cooldowns that are over
            horizon = now - self.limits.cooldown
            self._opened = {u: t for u, t in self._opened.items() if t > horizon}

    def _check_seated(self, user_id: int, tables: list[OpenTable]) -> None:
        lim = self.limits
        if not lim.lobbies_per_user and not lim.matches_per_user:
            return
        mine = [t for t in tables if t.is_seated(user_id)]
        waiting = sum(1 for t in mine if t.status == "lobby")
        if lim.lobbies_per_user and waiting >= lim.lobbies_per_user:
            raise LimitReached(
                "You are already at {limit} tables waiting for players: start or leave one first.",
                limit=lim.lobbies_per_user,
            )
        running = sum(1 for t in mine if t.status == "running")
        if lim.matches_per_user and running >= lim.matches_per_user:
            raise LimitReached(
                "You are already playing {limit} matches: finish one first.",
                limit=lim.matches_per_user,
            )
