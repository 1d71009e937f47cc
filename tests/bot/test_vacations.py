"""Vacations' limits, as a property: whatever people ask and when, a vacation lasts 1 to 7 days,
one at a time, at most two started in any 90 days, and a refused one stores nothing.

Our decision (docs/commands.md, "Correspondence tables"), after Board Game Arena's vacations.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import InvalidOptions, LimitReached
from bot.store import Store
from bot.store.correspondence import CorrespondenceRepo
from bot.tables.service import TableService
from bot.tables.values import MAX_VACATION_DAYS, VACATION_WINDOW, VACATIONS_PER_WINDOW
from tests.bot.helpers import FakeClock

DAY = 24 * 3600
USERS = itertools.count(5000)  # a person per example: the store lives across examples
REQUESTS = st.lists(
    st.tuples(st.integers(-1, MAX_VACATION_DAYS + 2), st.floats(0, 50, allow_nan=False)),
    max_size=12,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(requests=REQUESTS)
async def test_vacations_keep_their_limits(
    service: TableService, store: Store, clock: FakeClock, requests: list[tuple[int, float]]
) -> None:
    user = next(USERS)
    repo = CorrespondenceRepo(store.db)
    for days, gap in requests:
        clock.advance(gap * DAY)
        now = clock.now
        before = await repo.vacations(user, 0)
        recent = [v for v in before if v.started_at > now - VACATION_WINDOW]
        allowed = (
            1 <= days <= MAX_VACATION_DAYS
            and not any(v.ends_at > now for v in before)
            and len(recent) < VACATIONS_PER_WINDOW
        )
        try:
            taken = await service.take_vacation(user, days)
        except (InvalidOptions, LimitReached):
            assert not allowed
            assert await repo.vacations(user, 0) == before  # nothing changed
        else:
            assert allowed
            assert taken.vacation.ends_at == pytest.approx(now + days * DAY)
            assert taken.left == VACATIONS_PER_WINDOW - len(recent) - 1
    held = await repo.vacations(user, 0)
    for earlier, later in itertools.pairwise(held):
        assert later.started_at >= earlier.ends_at  # one at a time
    for first in held:
        window = [v for v in held if first.started_at <= v.started_at < first.started_at
                  + VACATION_WINDOW]
        assert len(window) <= VACATIONS_PER_WINDOW
