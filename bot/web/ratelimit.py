"""The pages' rate limit: a token bucket per client (an IPv4 address or an IPv6 /64)."""

from __future__ import annotations

import collections
import functools
import ipaddress
import time
from collections.abc import Callable


class RateLimiter:
    """A token bucket per client: ``per_minute`` requests a minute, in bursts of a quarter of
    that (at least 10); 0 turns it off. A client is an IPv4 address or an IPv6 /64 (one
    subscriber's network). The last ``MAX_ADDRESSES`` clients are remembered, the one unseen
    longest forgotten first (it starts again with a full bucket)."""

    MAX_ADDRESSES = 10_000

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(10, per_minute // 4))
        self.clock = clock
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = (
            collections.OrderedDict()
        )  # client -> (tokens, when), the least recently seen first

    def __len__(self) -> int:
        return len(self._buckets)

    def wait(self, address: str) -> float:
        """0 when ``address`` may go on (a token is taken), else the seconds to wait."""
        if self.rate <= 0:
            return 0.0
        client = client_key(address)
        now = self.clock()
        tokens, when = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens - 1.0 if wait == 0 else tokens, now)
        if len(self._buckets) > self.MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        return wait


@functools.lru_cache(maxsize=4096)
def client_key(address: str) -> str:
    """Whom a request is counted for: an IPv4 address (also when written as IPv6), an IPv6
    address's /64 network, or the text itself when it is no address."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
