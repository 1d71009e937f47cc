"""Computer players for the table service: decisions off the event loop, at a human pace.

The table service calls :func:`decide`: it draws an answer time from one human-like
distribution, has the search run meanwhile in a worker process (:func:`use_processes`, sized
by the ``AI_PROCESSES`` setting; by default one per core) or, without a pool, in a worker
thread, and answers at the drawn time: the search stops by then with the best move found
(an anytime search with that deadline), and when it has not answered by then (a busy
machine) the rules of thumb of ``normal`` answer instead. So the answer time is the drawn
one at any load and whatever the position: it tells nothing about the computer's tiles.
The player only ever receives a seat's view. A practice table's hints (:func:`hint_for`) are
computed in the same place.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.tables.hint import Hint, hint
from bot.workers.pools import Offload
from domino import Action, View, ai

LEVELS: tuple[str, ...] = ai.LEVELS
DEFAULT_LEVEL = "normal"
DEFAULT_BUDGET: float | None = None  # each level's own default (hard 0.3 s, expert 0.5 s)

_offload = Offload()
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Pace:
    """The distribution of a computer's answer time: log-normal with this ``median`` (s) and
    ``spread`` (the standard deviation of its logarithm), clipped to ``[low, high]``."""

    median: float = 1.5
    spread: float = 0.35
    low: float = 0.9
    high: float = 4.0

    def draw(self, rng: random.Random) -> float:
        """One answer time in seconds."""
        value = self.median * math.exp(rng.gauss(0.0, self.spread))
        return min(self.high, max(self.low, value))


HUMAN_PACE = Pace()
#: The search stops this long before the answer time, for its answer to come back from a
#: worker process in time.
RETURN_MARGIN = 0.05


def rng_for(seed: int | str, seq: int) -> random.Random:
    """The random generator for the decision at action ``seq`` of a match: replayable."""
    return random.Random(f"{seed}/{seq}")


def pace_rng_for(seed: int | str, seq: int) -> random.Random:
    """The generator of the answer time at action ``seq``: apart from the decision's, and
    never fed anything about the position."""
    return random.Random(f"{seed}/{seq}/pace")


def choose(
    view: View,
    level: str = DEFAULT_LEVEL,
    *,
    rng: random.Random,
    budget: float | None = DEFAULT_BUDGET,
    deadline: float | None = None,
) -> Action:
    """One legal action for the seat of ``view`` (which must be to move), computed here; the
    search stops at ``deadline`` (a :func:`time.monotonic` instant) at the latest."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    return ai.choose(view, level, rng=rng, budget=budget, deadline=deadline)


def fallback(view: View) -> Action:
    """The move answered when the search has not answered by the drawn time: ``normal``'s
    rules of thumb (well under a millisecond, so it runs on the event loop)."""
    return ai.choose(view, "normal")


async def decide(
    view: View,
    level: str = DEFAULT_LEVEL,
    *,
    rng: random.Random,
    pace_rng: random.Random,
    pace: Pace = HUMAN_PACE,
    budget: float | None = DEFAULT_BUDGET,
) -> Action:
    """The action of computer ``level`` for the seat of ``view``, answered at a time drawn
    from ``pace`` with ``pace_rng``, whatever the position and the machine's load.

    The search runs in the process pool when one is set (:func:`use_processes`), else in a
    worker thread, and stops by the drawn time; if its answer is not back by then, the
    :func:`fallback` move is answered instead. A single legal action needs no search.
    Cancelling the await abandons the decision.
    """
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    if level not in ai.ALL_LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
    answer_at = time.monotonic() + pace.draw(pace_rng)
    if len(view.legal) == 1:
        await _sleep_until(answer_at)
        return view.legal[0]
    if is_cheap(level):
        action = choose(view, level, rng=rng, budget=budget)
        await _sleep_until(answer_at)
        return action
    search = asyncio.ensure_future(
        compute(view, level, rng=rng, budget=budget, deadline=answer_at - RETURN_MARGIN)
    )
    try:
        done, _ = await asyncio.wait({search}, timeout=max(0.0, answer_at - time.monotonic()))
    except BaseException:
        search.cancel()
        raise
    if not done:
        search.cancel()  # one still queued never starts; one running stops (its deadline passed)
        return fallback(view)
    action = search.result()
    await _sleep_until(answer_at)
    return action


async def _sleep_until(instant: float) -> None:
    left = instant - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)


async def offload(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` where computer players think: in their process pool when one is
    set, else in a worker thread (a review's searches)."""
    return await _offload.run(fn, *args, **kwargs)


async def compute(
    view: View,
    level: str = DEFAULT_LEVEL,
    *,
    rng: random.Random,
    budget: float | None = DEFAULT_BUDGET,
    deadline: float | None = None,
) -> Action:
    """The action of computer ``level`` for the seat of ``view``, at once: computed in the
    process pool when one is set (:func:`use_processes`), else in a worker thread; the search
    stops at ``deadline`` (a :func:`time.monotonic` instant) at the latest."""
    return await _offload.run(choose, view, level, rng=rng, budget=budget, deadline=deadline)


async def hint_for(view: View, rng: random.Random) -> Hint:
    """The practice hint for the seat of ``view`` (:func:`bot.tables.hint.hint`), computed where
    decisions are: in the process pool when one is set, else in a worker thread."""
    return await _offload.run(hint, view, rng=rng)


def _warm_up() -> bool:
    """Import the players in a worker before its first decision."""
    return bool(ai.LEVELS)


def use_processes(workers: int | None = None) -> Executor:
    """Compute decisions in a pool of ``workers`` processes (default: one per core) from now
    on."""
    return _offload.use_processes(workers, _warm_up)


def use_executor(executor: Executor | None, *, wait: bool = False) -> None:
    """Compute decisions with ``executor`` (None: worker threads). The old pool is shut
    (with ``wait``: this returns once its processes have exited)."""
    _offload.use_executor(executor, wait=wait)


async def shut_pool() -> None:
    """Compute decisions in worker threads again, once the pool's processes have exited."""
    await _offload.shut()


def is_cheap(level: str) -> bool:
    """Whether a decision is fast enough to compute on the event loop itself."""
    return level in ("easy", "heaviest")
