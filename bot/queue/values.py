"""The quick match's values: its settings' defaults and ranges, the variants one may queue for."""

from __future__ import annotations

from domino import PRESETS

__all__ = [
    "ANY",
    "COMPUTERS_AFTER",
    "COMPUTERS_AFTER_RANGE",
    "EXPIRY",
    "EXPIRY_RANGE",
    "VARIANTS",
    "scope_of",
]

#: Queue for every variant at once.
ANY = "any"
#: The variants one may queue for (besides :data:`ANY`).
VARIANTS: tuple[str, ...] = tuple(PRESETS)
#: Seconds a place is kept (a server may choose within :data:`EXPIRY_RANGE`).
EXPIRY = 15 * 60
EXPIRY_RANGE = (60, 24 * 3600)
#: Seconds a person waits before computers fill the empty seats of his table.
COMPUTERS_AFTER = 60
COMPUTERS_AFTER_RANGE = (5, 3600)


def scope_of(guild_id: int) -> int:
    """The matching scope of a server's queue: the people matched together are those of one
    scope, under its lock. Today a server is its own scope."""
    return guild_id
