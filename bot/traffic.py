"""What the bot asks of Discord: every HTTP request counted by kind, route, purpose and answer.

Discord counts requests made with the bot token against one global limit for the whole
application (interaction callbacks and interaction webhooks are exempt), and 401, 403 and 429
answers against an invalid-request limit. :class:`Traffic` counts both, for the logs and the
benchmarks. The purpose of a request is the :data:`PURPOSE` of the code that made it (set with
:func:`purpose`), else the asyncio task's name with its numbers dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, TypeVar

import aiohttp

_F = TypeVar("_F", bound=Callable[..., Any])
__all__ = [
    "BOT",
    "INTERACTION",
    "PURPOSE",
    "Request",
    "Traffic",
    "counted_as",
    "kind_of",
    "purpose",
    "route_of",
]

BOT = "bot"
INTERACTION = "interaction"
#: What the code running now publishes: "game", "post", "ping", "thread", "hand", …
PURPOSE: contextvars.ContextVar[str] = contextvars.ContextVar("discord_purpose", default="")

_API = re.compile(r"^/api/v\d+")
_INTERACTION = re.compile(r"^/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")
_TOKEN = re.compile(r"^/(interactions|webhooks)/(\d+)/[^/]+")
_SNOWFLAKE = re.compile(r"(?<=/)\d+(?=/|$)")
_DIGITS = re.compile(r"[-_]?\d+")


@contextlib.contextmanager
def purpose(name: str) -> Iterator[None]:
    """Count the requests made inside the block (and tasks it starts) as ``name``."""
    token = PURPOSE.set(name)
    try:
        yield
    finally:
        PURPOSE.reset(token)


def kind_of(path: str) -> str:
    """:data:`INTERACTION` for an interaction callback or webhook path, else :data:`BOT`."""
    return INTERACTION if _INTERACTION.match(_API.sub("", path)) else BOT


def route_of(method: str, path: str) -> str:
    """``METHOD /path`` with ids and tokens replaced: the route, not the resource."""
    path = _TOKEN.sub(r"/\1/{id}/{token}", _API.sub("", path))
    return f"{method} {_SNOWFLAKE.sub('{id}', path)}"


def _current_purpose() -> str:
    name = PURPOSE.get()
    if name:
        return name
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    return _DIGITS.sub("", task.get_name()) if task is not None else "other"


@dataclass(frozen=True)
class Request:
    """One request's counting key."""

    kind: str  # BOT or INTERACTION
    route: str
    purpose: str
    status: int  # the answer's status; 0: no answer (a connection error)


class Traffic:
    """Counts every request of one bot process (:meth:`trace` hooks it to discord.py's HTTP
    session: every attempt, retries and 429s included)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.counts: Counter[Request] = Counter()
        self.started = clock()
        self._mark: Counter[Request] = Counter()  # the counts at the last summary
        self._marked = self.started

    def add(self, method: str, path: str, status: int) -> None:
        self.counts[Request(kind_of(path), route_of(method, path), _current_purpose(), status)] += 1

    def trace(self) -> aiohttp.TraceConfig:
        """A trace config for discord.py's ``http_trace`` option: counts each answer."""
        config = aiohttp.TraceConfig()

        async def end(_s: Any, _c: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
            self.add(params.method, params.url.path, params.response.status)

        async def failed(
            _s: Any, _c: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
        ) -> None:
            self.add(params.method, params.url.path, 0)

        config.on_request_end.append(end)
        config.on_request_exception.append(failed)
        return config

    # -- reading -------------------------------------------------------------------------------

    def total(self, kind: str | None = None, *, since: Counter[Request] | None = None) -> int:
        counts = self.counts - since if since is not None else self.counts
        return sum(n for r, n in counts.items() if kind is None or r.kind == kind)

    def by(self, field: str, kind: str | None = None) -> Counter[str]:
        """Counts per ``field`` ("purpose", "route" or "status") of ``kind`` (None: all)."""
        out: Counter[str] = Counter()
        for r, n in self.counts.items():
            if kind is None or r.kind == kind:
                out[str(getattr(r, field))] += n
        return out

    def rate_limited(self) -> int:
        """429 answers."""
        return sum(n for r, n in self.counts.items() if r.status == 429)

    def invalid(self) -> int:
        """Answers Discord counts against its invalid-request limit (401, 403, 429)."""
        return sum(n for r, n in self.counts.items() if r.status in (401, 403, 429))

    def snapshot(self) -> Counter[Request]:
        return Counter(self.counts)

    def summary(self) -> str:
        """One line: requests since the last summary, by kind, bot-token ones by purpose."""
        now = self.clock()
        recent = self.counts - self._mark
        seconds = max(now - self._marked, 1e-9)
        self._mark, self._marked = Counter(self.counts), now
        bot = Counter[str]()
        for r, n in recent.items():
            if r.kind == BOT:
                bot[r.purpose] += n
        nbot = sum(bot.values())
        ninter = sum(n for r, n in recent.items() if r.kind == INTERACTION)
        limited = sum(n for r, n in recent.items() if r.status == 429)
        invalid = sum(n for r, n in recent.items() if r.status in (401, 403, 429))
        parts = ", ".join(f"{p} {n}" for p, n in bot.most_common())
        return (
            f"Discord requests in {seconds:.0f} s: bot token {nbot} ({nbot / seconds:.2f}/s"
            f"{': ' + parts if parts else ''}), interaction {ninter}; 429 {limited},"
            f" invalid {invalid}"
        )


def counted_as(name: str) -> Callable[[_F], _F]:
    """Decorate a coroutine function: the requests it makes count as ``name``."""

    def wrap(fn: _F) -> _F:
        @functools.wraps(fn)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            with purpose(name):
                return await fn(*args, **kwargs)

        return counted  # type: ignore[return-value]

    return wrap
