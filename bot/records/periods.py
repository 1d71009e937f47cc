"""Periods of the periodic leaderboards (UTC weeks from Monday 00:00, calendar months) and the
ranking of a period's board.

Pure: what a period is, which period a moment falls in, when the next one starts, and the
places of a board ranked by wins, then points difference (equal on both: the same place).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ALL_TIME",
    "PERIODS",
    "PERIOD_KINDS",
    "Period",
    "ended_at",
    "next_boundary",
    "period_lines",
    "period_of",
    "places",
]

ALL_TIME = "all"
PERIOD_KINDS = ("week", "month")
PERIODS = (*PERIOD_KINDS, ALL_TIME)  # what /domino leaderboard's ``period`` accepts
_UTC = dt.UTC


@dataclass(frozen=True, slots=True)
class Period:
    """One week, month or season (:mod:`bot.records.seasons`): ``start`` ≤ t < ``end`` (Unix
    seconds, UTC)."""

    kind: str
    start: float
    end: float

    @property
    def key(self) -> str:
        """How the store names it: ``week:2026-11-23`` (its Monday), ``month:2026-11``,
        ``season:2026-10`` (its first month)."""
        return _key(self.kind, self.start)

    def previous(self) -> Period:
        return period_of(self.kind, self.start - 1)


def _stamp(day: dt.date) -> float:
    return dt.datetime(day.year, day.month, day.day, tzinfo=_UTC).timestamp()


@functools.lru_cache(maxsize=256)
def _key(kind: str, start: float) -> str:
    """:attr:`Period.key` (written once: every board's page asks for it a few times)."""
    day = dt.datetime.fromtimestamp(start, _UTC).date()
    return f"week:{day.isoformat()}" if kind == "week" else f"{kind}:{day:%Y-%m}"


def period_of(kind: str, t: float) -> Period:
    """The week (from Monday 00:00 UTC) or calendar month (UTC) that holds ``t``."""
    day = dt.datetime.fromtimestamp(t, _UTC).date()
    if kind == "week":
        monday = day - dt.timedelta(days=day.weekday())
        return Period(kind, _stamp(monday), _stamp(monday + dt.timedelta(days=7)))
    if kind == "month":
        first = day.replace(day=1)
        after = (first + dt.timedelta(days=32)).replace(day=1)
        return Period(kind, _stamp(first), _stamp(after))
    raise ValueError(f"unknown period {kind!r}")


def next_boundary(t: float) -> float:
    """The first moment after ``t`` at which a week or a month starts."""
    return min(period_of(kind, t).end for kind in PERIOD_KINDS)


def ended_at(t: float) -> list[Period]:
    """The periods that end exactly at ``t`` (a Monday 00:00 ends a week, a 1st a month)."""
    return [p for kind in PERIOD_KINDS if (p := period_of(kind, t - 1)).end == t]


def period_lines(
    at: float, scopes: Sequence[int], buckets: Sequence[str]
) -> list[tuple[str, int, str]]:
    """The ``(period, scope, bucket)`` lines a match finished at ``at`` counts in."""
    keys = [period_of(kind, at).key for kind in PERIOD_KINDS]
    return [(k, s, b) for k in keys for s in scopes for b in dict.fromkeys(buckets)]


def places(keys: Sequence[tuple[int, int]], first: int = 1, offset: int = 0) -> list[int]:
    """Places of rows ranked best first by ``(wins, points difference)``: rows equal on both
    share a place, and a row's place counts everyone above it (1, 2, 2, 4).

    For a later page, ``offset`` is how many rows come before it and ``first`` the place of
    its first row (which may share a place with the end of the page before).
    """
    out: list[int] = []
    for i, key in enumerate(keys):
        if i and key == keys[i - 1]:
            out.append(out[-1])
        else:
            out.append(first if i == 0 else offset + i + 1)
    return out
