"""Limits on what one person or one server may keep open, and the cooldown on opening tables.

:class:`Gate` checks a request against what the person (and his server) hold open,
:class:`Held`, and refuses with a :class:`~bot.errors.LimitReached` whose one sentence says the
limit. The table service counts :class:`Held` in the shared database, inside the transaction
that opens the table, seats the person or starts the match, so several bot processes never let
one person past a limit. The defaults are in
:class:`Limits` (``bot.settings`` reads overrides from the environment).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.errors import LimitReached

__all__ = ["NO_LIMITS", "Gate", "Held", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one person or one server may have open at once (0: no limit)."""

    lobbies_per_user: int = 3  # tables waiting for players where he sits
    matches_per_user: int = 5  # running matches where he sits
    tables_per_server: int = 50  # open tables (waiting or running) of one server
    cooldown: float = 10.0  # seconds between two tables (or challenges) opened by one person


NO_LIMITS = Limits(0, 0, 0, 0.0)


@dataclass(frozen=True, slots=True)
class Held:
    """What one person holds open, and how many tables his server has open.

    The table service counts these in the shared database (every process's tables, see
    ``bot.store.LimitRepo``)."""

    lobbies: int = 0  # tables waiting for players where he has a seat
    matches: int = 0  # running matches where he has a seat (even one a computer took over)
    server_tables: int = 0  # open tables (waiting or running) of the server asked about
    last_opened: float | None = None  # when he last opened a table (Unix seconds, the gate's clock)


class Gate:
    """Checks the limits against what people hold; remembers when each person last opened a
    table here (on top of :attr:`Held.last_opened`)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.time) -> None:
        self.limits = limits
        self.clock = clock
        self._opened: dict[int, float] = {}

    @property
    def counts_people(self) -> bool:
        """True if any limit needs a person's holdings (lobbies, matches, cooldown)."""
        lim = self.limits
        return bool(lim.lobbies_per_user or lim.matches_per_user or lim.cooldown > 0)

    def check_open(self, user_id: int, guild_id: int | None, held: Held) -> None:
        """May ``user_id``, holding ``held``, open a table (or a challenge) on ``guild_id``?"""
        lim = self.limits
        times = [t for t in (self._opened.get(user_id), held.last_opened) if t is not None]
        if times and lim.cooldown > 0:
            wait = max(times) + lim.cooldown - self.clock()
            if wait > 0:
                raise LimitReached(
                    "Please wait {seconds} s before you open another table.",
                    seconds=max(1, round(wait)),
                )
        self.check_join(held)
        server_full = lim.tables_per_server and held.server_tables >= lim.tables_per_server
        if server_full and guild_id is not None:
            raise LimitReached(
                "This server already has {limit} open tables: wait until one finishes.",
                limit=lim.tables_per_server,
            )

    def check_join(self, held: Held) -> None:
        """May a person holding ``held`` sit down at one more table?"""
        lim = self.limits
        if lim.lobbies_per_user and held.lobbies >= lim.lobbies_per_user:
            raise LimitReached(
                "You are already at {limit} tables waiting for players: start or leave one first.",
                limit=lim.lobbies_per_user,
            )
        if lim.matches_per_user and held.matches >= lim.matches_per_user:
            raise LimitReached(
                "You are already playing {limit} matches: finish one first.",
                limit=lim.matches_per_user,
            )

    def check_start(self, held: Iterable[Held]) -> None:
        """May a match start whose people hold ``held`` (none playing too many already)?"""
        limit = self.limits.matches_per_user
        if limit and any(h.matches >= limit for h in held):
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
