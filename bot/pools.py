"""Process pools that keep CPU-heavy work (computer players, pictures) off the event loop."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Offload:
    """Where one kind of work runs: worker threads by default, or an executor once set."""

    def __init__(self) -> None:
        self.executor: Executor | None = None

    def use_processes(self, workers: int | None, warm_up: Callable[[], object]) -> Executor:
        """From now on run the work in ``workers`` spawned processes (default: one per CPU),
        each prepared by ``warm_up`` before this returns."""
        workers = workers or os.cpu_count() or 1
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        for future in [pool.submit(warm_up) for _ in range(workers)]:
            future.result()
        self.use_executor(pool)
        return pool

    def use_executor(self, executor: Executor | None, *, wait: bool = False) -> None:
        """Run the work with ``executor`` (None: worker threads). The old pool is shut and its
        queued work cancelled; with ``wait``, this returns once its running work is done and
        its processes have exited (only then can the interpreter exit without a race in
        the pool's threads)."""
        old, self.executor = self.executor, executor
        if old is not None and old is not executor:
            old.shutdown(wait=wait, cancel_futures=True)

    async def shut(self) -> None:
        """Go back to worker threads and wait, off the event loop, until the old pool's
        processes have exited."""
        await asyncio.to_thread(self.use_executor, None, wait=True)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in the executor, or in a worker thread without one."""
        if self.executor is None:
            return await asyncio.to_thread(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args, **kwargs))
