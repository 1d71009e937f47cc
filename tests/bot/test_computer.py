"""Computer decisions for the table service: legal, off the event loop, and paced so the
answer time tells nothing about the position."""

from __future__ import annotations

import asyncio
import math
import os
import random
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.tables import computer
from bot.tables.hint import hint
from domino import Match, Play, preset
from tests.domino.ai.helpers import position

# Small times keep the test short; the distribution's shape is the one players get.
FAST = computer.Pace(median=0.08, spread=0.35, low=0.05, high=0.2)


def ks_p_value(a: list[float], b: list[float]) -> float:
    """Two-sample Kolmogorov-Smirnov test: the p-value of "same distribution" (asymptotic)."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    n = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    return min(1.0, max(0.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam)
                                     for k in range(1, 101))))


async def answer_times(view, level: str, seeds: range) -> list[float]:
    loop = asyncio.get_running_loop()

    async def one(seed: int) -> float:
        start = loop.time()
        action = await computer.decide(
            view, level, rng=random.Random(seed), pace_rng=random.Random(seed), pace=FAST
        )
        assert action in view.legal
        return loop.time() - start

    times: list[float] = []
    for start in range(0, len(seeds), 12):  # a few tables at once, as on a real bot
        times += await asyncio.gather(*(one(s) for s in seeds[start : start + 12]))
    return times


async def test_answer_time_is_the_same_for_one_and_three_playable_tiles() -> None:
    """Our decision: a computer's answer time is drawn from one human-like distribution, so
    it does not tell how many tiles it could play (privacy of hidden tiles)."""
    one = position("partners", "2-5 0-0 1-1", [(5, 3)], hand_sizes=(3, 6, 6, 6))
    three = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
    assert len(one.legal) == 1 and len(three.legal) == 3
    seeds = range(120)
    # The searches run in worker processes, as in the bot: a search in a thread of this
    # process would hold the interpreter's lock and delay the event loop's wake-ups.
    computer.use_processes(2)
    try:
        await answer_times(three, "normal", range(2))  # the workers started before measuring
        # Both kinds in the same batches, so that the machine's load (a busy machine delays
        # every wake-up) weighs on both alike: what is compared is the decision's time alone.
        times_one: list[float] = []
        times_three: list[float] = []
        for start in range(0, len(seeds), 6):
            batch = seeds[start : start + 6]
            ones, threes = await asyncio.gather(
                answer_times(one, "normal", batch), answer_times(three, "normal", batch)
            )
            times_one += ones
            times_three += threes
    finally:
        await computer.shut_pool()
    assert min(times_one + times_three) >= FAST.low - 0.005
    assert ks_p_value(times_one, times_three) > 0.01
    # a clock that answered at once when there is a single choice would be told apart
    instant = [0.001] * len(seeds)
    assert ks_p_value(instant, times_three) < 1e-6


async def test_a_search_that_cannot_run_in_time_does_not_delay_the_answer() -> None:
    """Our decision: the answer comes at the drawn time at any load. A search stuck behind
    other work (every worker busy) is abandoned at that time and the rules of thumb answer,
    so a position with several moves is not answered later than one with a single move."""
    busy = threading.Event()
    pool = ThreadPoolExecutor(1)
    pool.submit(busy.wait, 30)  # the only worker is taken
    computer.use_executor(pool)
    try:
        three = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
        action = await asyncio.wait_for(
            computer.decide(
                three, "expert", rng=random.Random(1), pace_rng=random.Random(1), pace=FAST
            ),
            10,
        )
        assert not busy.is_set()  # answered while the search could not even start
        assert action == computer.fallback(three) and action in three.legal
    finally:
        busy.set()
        computer.use_executor(None, wait=True)


def test_the_pace_is_human_and_independent_of_the_position() -> None:
    draws = [computer.HUMAN_PACE.draw(random.Random(k)) for k in range(2000)]
    assert all(computer.HUMAN_PACE.low <= d <= computer.HUMAN_PACE.high for d in draws)
    median = sorted(draws)[len(draws) // 2]
    assert 1.3 < median < 1.7
    assert computer.pace_rng_for(7, 3).random() != computer.rng_for(7, 3).random()


async def test_decide_refuses_what_it_cannot_play() -> None:
    match = Match.new(preset("partners"), 1)
    idle = next(s for s in range(4) if s != match.turn)
    with pytest.raises(ValueError, match="no legal action"):
        await computer.decide(
            match.view(idle), "normal", rng=random.Random(1), pace_rng=random.Random(1), pace=FAST
        )
    with pytest.raises(ValueError, match="unknown level"):
        await computer.decide(
            match.view(match.turn), "grandmaster", rng=random.Random(1),
            pace_rng=random.Random(1), pace=FAST,
        )


async def test_decisions_in_a_process_pool() -> None:
    pool = computer.use_processes(1)
    try:
        view = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
        action = await computer.decide(
            view, "hard", rng=random.Random(1), pace_rng=random.Random(1), pace=FAST, budget=0.02
        )
        assert isinstance(action, Play) and action in view.legal
        found = await computer.hint_for(view, random.Random(1))  # crosses the process line
        assert found.action in view.legal and found.reason
        worker = pool.submit(os.getpid).result()
        assert worker != os.getpid()
    finally:
        await computer.shut_pool()
    with pytest.raises(RuntimeError):  # the pool was shut down
        pool.submit(int)
    with pytest.raises(ProcessLookupError):  # and its process has exited
        os.kill(worker, 0)


async def test_every_search_runs_in_the_pool_when_one_is_set() -> None:
    """A move made at once (a timed-out turn) and a practice hint run where paced decisions
    do: in the pool when one is set."""

    class Spy(ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(1)
            self.ran: list[object] = []

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            self.ran.append(getattr(fn, "func", fn))
            return super().submit(fn, *args, **kwargs)

    spy = Spy()
    computer.use_executor(spy)
    try:
        view = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
        found = await computer.hint_for(view, random.Random(1))
        assert found.action in view.legal
        now = await computer.compute(view, "hard", rng=random.Random(1), budget=0.02)
        assert now in view.legal
    finally:
        await computer.shut_pool()
    assert spy.ran == [hint, computer.choose]


async def test_a_pool_whose_worker_died_is_renewed(caplog: pytest.LogCaptureFixture) -> None:
    """A worker killed (for memory, say) breaks its pool for good: a fresh pool takes its
    place, once, and the moves that found it broken are made there."""
    pool = computer.use_processes(1)
    try:
        worker = pool.submit(os.getpid).result()
        os.kill(worker, signal.SIGKILL)
        view = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
        moves = await asyncio.gather(*(
            computer.compute(view, "hard", rng=random.Random(k), budget=0.02) for k in range(3)
        ))
        assert all(move in view.legal for move in moves)
        fresh = computer._offload.executor
        assert fresh is not None and fresh is not pool
        assert fresh.submit(os.getpid).result() not in (worker, os.getpid())
        renewed = [r for r in caplog.records if "a new pool took its place" in r.getMessage()]
        assert len(renewed) == 1
    finally:
        await computer.shut_pool()
