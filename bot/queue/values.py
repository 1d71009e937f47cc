"""The quick match's values: its settings' defaults and ranges, the variants one may queue for."""

from __future__ import annotations

from domino import PRESETS

__all__ = [
    "ANY",
    "COMPUTERS_AFTER",
    "COMPUTERS_AFTER_RANGE",
    "EXPIRY",
    "EXPIRY_RANGE",
    "POOL",
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


#: The scope of the open pool: everyone who may be seated with people of other servers (his
#: server joined the pool, he did not opt out). Guild ids are positive snowflakes, so no server's
#: scope is -1, and its clock key (``-scope``: 1, kind ``queue``) is no server's (negative).
POOL = -1


def scope_of(guild_id: int, *, pooled: bool = False) -> int:
    """The matching scope of a person queuing on ``guild_id``: the people matched together are
    those of one scope, under its lock. The pool's people share :data:`POOL`; everyone else
    waits in his server's own scope."""
    return POOL if pooled else guild_id
