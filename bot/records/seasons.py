"""Seasons: the calendar of global seasons and the soft reset a season's ratings start from.

Pure. Seasons are runs of whole calendar months (UTC), :data:`DEFAULT_MONTHS` long by default,
counted from a first month (settings ``SEASON_MONTHS`` and ``SEASON_START``); every season starts
on a 1st at 00:00 UTC, so a season's end is also a month's end. Each season has its own rating
per family. A player's first rated match of a family in a season starts from his all-time rating
(with its idle weeks counted) pulled toward the newcomer's: mu halfway back to the start value,
sigma² widened by (start sigma / 2)², never past the start sigma (:func:`soft_reset`).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

from bot.records.periods import Period

__all__ = [
    "DEFAULT_MONTHS",
    "DEFAULT_START",
    "KEEP",
    "SEASON",
    "SeasonCalendar",
    "calendar_of",
    "parse_start",
    "soft_reset",
]

SEASON = "season"  # the kind of a season's :class:`Period`
DEFAULT_MONTHS = 3
DEFAULT_START = (2026, 1)  # seasons run January-March, April-June, ...
KEEP = 0.5  # the share of a player's distance from the start mu that a new season keeps
START_MU = 25.0  # openskill's defaults
START_SIGMA = 25.0 / 3.0
_UTC = dt.UTC


def soft_reset(
    mu: float, sigma: float, *, start_mu: float = START_MU, start_sigma: float = START_SIGMA
) -> tuple[float, float]:
    """A season's first rating from an all-time ``(mu, sigma)``: mu pulled halfway toward
    ``start_mu``; sigma² plus (``start_sigma``/2)², capped at ``start_sigma`` (a sigma above
    the cap stays). A newcomer's rating is its own reset."""
    widened = math.sqrt(sigma * sigma + (start_sigma / 2.0) ** 2)
    return start_mu + KEEP * (mu - start_mu), max(sigma, min(start_sigma, widened))


def parse_start(text: str) -> tuple[int, int]:
    """``"2026-01"`` as (2026, 1); raises ValueError for anything else."""
    found = re.fullmatch(r"([0-9]{4})-([0-9]{2})", text.strip())
    if found is None or not 1 <= int(found[2]) <= 12 or int(found[1]) < 1970:
        raise ValueError(f"a season start is a month like 2026-01, not {text!r}")
    return int(found[1]), int(found[2])


def _month_index(year: int, month: int) -> int:
    return year * 12 + month - 1


def _stamp(index: int) -> float:
    year, month = divmod(index, 12)
    return dt.datetime(year, month + 1, 1, tzinfo=_UTC).timestamp()


@dataclass(frozen=True, slots=True)
class SeasonCalendar:
    """Seasons of ``months`` months from the month ``start`` (year, month) on, both ways."""

    months: int = DEFAULT_MONTHS
    start: tuple[int, int] = DEFAULT_START

    def __post_init__(self) -> None:
        if not 1 <= self.months <= 12:
            raise ValueError("a season lasts 1 to 12 months")

    def number(self, t: float) -> int:
        """The season's number (1: the one starting at ``start``; earlier ones count down)."""
        day = dt.datetime.fromtimestamp(t, _UTC)
        since = _month_index(day.year, day.month) - _month_index(*self.start)
        return since // self.months + 1

    def season(self, number: int) -> Period:
        """Season ``number`` as a period (kind ``season``, key ``season:<first month>``)."""
        first = _month_index(*self.start) + (number - 1) * self.months
        return Period(SEASON, _stamp(first), _stamp(first + self.months))

    def season_of(self, t: float) -> Period:
        """The season that holds ``t``."""
        return self.season(self.number(t))

    def number_of(self, period: Period) -> int:
        return self.number(period.start)

    def previous(self, period: Period) -> Period:
        return self.season_of(period.start - 1)

    def by_key(self, key: str) -> Period | None:
        """The season a key names (None if it is no season of this calendar)."""
        found = re.fullmatch(r"season:([0-9]{4})-([0-9]{2})", key)
        if found is None or not 1 <= int(found[2]) <= 12:
            return None
        t = _stamp(_month_index(int(found[1]), int(found[2])))
        period = self.season_of(t)
        return period if period.start == t else None


def calendar_of(settings: Any) -> SeasonCalendar:
    """The seasons the settings choose (``SEASON_MONTHS``, ``SEASON_START``; the defaults for
    settings without them)."""
    start = getattr(settings, "season_start", None)
    return SeasonCalendar(
        getattr(settings, "season_months", DEFAULT_MONTHS),
        DEFAULT_START if start is None else parse_start(start),
    )
