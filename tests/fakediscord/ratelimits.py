"""Discord's rate limits, for a fake that turns them on (``fake.rate_limits = RateLimits(...)``).

- The global limit: ``global_limit`` bot-token requests per second for the whole application
  (interaction callbacks and interaction webhooks are exempt).
- Per-route limits: ``route_limit`` requests per ``route_per`` seconds per route and major
  parameter (channel, guild, webhook), for bot-token routes; :meth:`RateLimits.route` sets
  another limit for one route (interaction routes included).
- Shared limits (:meth:`RateLimits.shared`): a limit of the resource, hidden from the headers
  until it refuses (scope ``shared``), e.g. thread creation in a busy channel.

Every answer of a limited route carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/
Bucket``; a refusal is a 429 with ``Retry-After``, ``X-RateLimit-Scope`` (``user``, ``global``
or ``shared``), ``X-RateLimit-Global`` when global, and the JSON body ``{"message",
"retry_after", "global"}``. Time is ``clock()`` (injectable: tests move it by hand). A request
counts at the instant it was received (``received``), as on Discord's own machines: a fake held
up by a busy CPU does not count late requests that came on time.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .fake import ApiError

__all__ = ["RateLimits"]

MAJOR = ("channel_id", "guild_id", "webhook_id", "application_id", "interaction_id")
_EXEMPT = re.compile(r"^/(interactions/|webhooks/)")


@dataclass
class _Window:
    limit: int
    per: float
    start: float = 0.0
    used: int = 0

    def roll(self, now: float) -> None:
        if now >= self.start + self.per:
            self.start, self.used = now, 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.start + self.per - now)


@dataclass
class RateLimits:
    """The limits the fake enforces, and what they refused (``refused``: scope per 429)."""

    clock: Callable[[], float] = time.monotonic
    global_limit: int = 50
    route_limit: int = 5
    route_per: float = 5.0
    refused: list[str] = field(default_factory=list)
    _routes: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    _shared: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    _windows: dict[tuple[str, ...], _Window] = field(default_factory=dict)

    def route(self, method: str, template: str, limit: int, per: float) -> None:
        """``limit`` requests per ``per`` seconds for one route (its template, as the fake's)."""
        self._routes[(method, template)] = (limit, per)

    def shared(self, method: str, template: str, limit: int, per: float) -> None:
        """A hidden limit of the resource (scope ``shared``) on one route."""
        self._shared[(method, template)] = (limit, per)

    def _window(self, key: tuple[str, ...], limit: int, per: float, now: float) -> _Window:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(limit, per, now)
        window.roll(now)
        return window

    def check(
        self,
        method: str,
        path: str,
        template: str,
        params: dict[str, str],
        received: float | None = None,
    ) -> dict[str, str]:
        """The rate-limit headers of this request's answer (received at ``received`` on
        ``clock()``, else now); raises the 429 if it is refused."""
        now = self.clock() if received is None else received
        exempt = bool(_EXEMPT.match(template))
        major = next((params[p] for p in MAJOR if p in params), "")
        checks: list[tuple[str, _Window]] = []
        if not exempt:
            checks.append(("global", self._window(("global",), self.global_limit, 1.0, now)))
        shared = self._shared.get((method, template))
        if shared is not None:
            key = ("shared", method, template, major)
            checks.append(("shared", self._window(key, *shared, now)))
        limit = self._routes.get((method, template))
        if limit is None and not exempt:
            limit = (self.route_limit, self.route_per)
        bucket: _Window | None = None
        name = hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]
        if limit is not None:
            bucket = self._window(("route", method, template, major), *limit, now)
            checks.append(("user", bucket))
        for scope, window in checks:
            if window.used >= window.limit:
                self.refused.append(scope)
                raise self._refusal(scope, window.reset_after(now), bucket, name, now)
        for _, window in checks:
            window.used += 1
        return _headers(bucket, name, now) if bucket is not None else {}

    def _refusal(
        self, scope: str, retry: float, bucket: _Window | None, name: str, now: float
    ) -> ApiError:
        headers = {
            "Via": "1.1 google",  # discord.py takes a 429 without it for the edge's ban
            "Retry-After": str(math.ceil(retry)),
            "X-RateLimit-Scope": scope,
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        elif bucket is not None:
            headers.update(_headers(bucket, name, now))
        error = ApiError(429, 0, "You are being rate limited.", headers=headers)
        error.extra = {"retry_after": round(retry, 3), "global": scope == "global"}
        return error


def _headers(bucket: _Window, name: str, now: float) -> dict[str, str]:
    after = bucket.reset_after(now)
    return {
        "X-RateLimit-Limit": str(bucket.limit),
        "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
        "X-RateLimit-Reset": f"{time.time() + after:.3f}",
        "X-RateLimit-Reset-After": f"{after:.3f}",
        "X-RateLimit-Bucket": name,
    }
