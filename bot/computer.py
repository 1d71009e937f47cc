"""Computer players for the table service: decisions off the event loop, at a human pace.

The table service calls :func:`decide`: it draws a thinking time from one human-like
distribution (the same whatever the position: how long a computer takes tells nothing about
its tiles), computes the move meanwhile in a worker process (:func:`use_processes`, sized by
the ``AI_PROCESSES`` setting) or, without a pool, in a worker thread, and returns the move no
earlier than the drawn time. The player only ever receives a seat's view. A practice table's
hints (:func:`hint_for`) are computed in the same place.
"""

from __future__ import annotations

import asyncio
import math
import random
from concurrent.futures import Executor
from dataclasses import dataclass

from bot.hint import Hint, hint
from bot.pools import Offload
from domino import Action, View, ai

LEVELS: tuple[str, ...] = ai.LEVELS
DEFAULT_LEVEL = "normal"
DEFAULT_BUDGET: float | None = None  # each level's own default (hard 0.3 s, expert 0.5 s)

_offload = Offload()


@dataclass(frozen=True, slots=True)
class Pace:
    """The distribution of a computer's answer time: log-normal with this ``median`` (s) and
    ``spread`` (the standard deviation of its logarithm), clipped to ``[low, high]``. ``low``
    must leave room for the slowest level's thinking (its budget), so the position never
    shows in the timing."""

    median: float = 1.5
    spread: float = 0.35
    low: float = 0.9
    high: float = 4.0

    def draw(self, rng: random.Random) -> float:
        """One answer time in seconds."""
        value = self.median * math.exp(rng.gauss(0.0, self.spread))
        return min(self.high, max(self.low, value))


HUMAN_PACE = Pace()


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
) -> Action:
    """One legal action for the seat of ``view`` (which must be to move), computed here."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    return ai.choose(view, level, rng=rng, budget=budget)


async def decide(
    view: View,
    level: str = DEFAULT_LEVEL,
    *,
    rng: random.Random,
    pace_rng: random.Random,
    pace: Pace = HUMAN_PACE,
    budget: float | None = DEFAULT_BUDGET,
) -> Action:
    """The action of computer ``level`` for the seat of ``view``, returned after a thinking
    time drawn from ``pace`` with ``pace_rng`` (and not before the computation ends).

    The computation runs in the process pool when one is set (:func:`use_processes`), else in
    a worker thread, so the event loop stays free. Every position, even one with a single
    legal action, takes its time from the same distribution. Cancelling the await abandons
    the decision.
    """
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    if level not in ai.ALL_LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + pace.draw(pace_rng)
    action = await compute(view, level, rng=rng, budget=budget)
    left = deadline - loop.time()
    if left > 0:
        await asyncio.sleep(left)
    return action


async def compute(
    view: View,
    level: str = DEFAULT_LEVEL,
    *,
    rng: random.Random,
    budget: float | None = DEFAULT_BUDGET,
) -> Action:
    """The action of computer ``level`` for the seat of ``view``, at once: computed in the
    process pool when one is set (:func:`use_processes`), else in a worker thread."""
    return await _offload.run(choose, view, level, rng=rng, budget=budget)


async def hint_for(view: View, rng: random.Random) -> Hint:
    """The practice hint for the seat of ``view`` (:func:`bot.hint.hint`), computed where
    decisions are: in the process pool when one is set, else in a worker thread."""
    return await _offload.run(hint, view, rng=rng)


def _warm_up() -> bool:
    """Import the players in a worker before its first decision."""
    return bool(ai.LEVELS)


def use_processes(workers: int | None = None) -> Executor:
    """Compute decisions in a pool of ``workers`` processes (default: one per CPU) from now on."""
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
