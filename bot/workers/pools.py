"""Process pools that keep CPU-heavy work (computer players, pictures) off the event loop."""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


def machine_processes() -> int:
    """The pool size that fits this machine: one process per core this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Offload:
    """Where one kind of work runs: worker threads by default, or an executor once set.

    The worker threads are asyncio's default ones, or with ``threads`` that many of its own
    (the event loop's thread then shares the interpreter's lock with fewer busy threads).
    A pool made by :meth:`use_processes` whose worker process dies (killed for memory, say)
    is replaced by a fresh one made the same way, and the work that found it broken runs
    again there once.
    """

    def __init__(self, threads: int | None = None) -> None:
        self.executor: Executor | None = None
        self._spawn: Callable[[], Executor] | None = None  # makes the pool afresh
        self._lock = threading.Lock()
        self._threads = threads
        self._own: ThreadPoolExecutor | None = None  # its worker threads, made on first use

    def use_processes(self, workers: int | None, warm_up: Callable[[], object]) -> Executor:
        """From now on run the work in ``workers`` spawned processes (default: one per CPU),
        each prepared by ``warm_up`` before this returns."""
        workers = workers or machine_processes()

        def spawn() -> Executor:
            pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
            for future in [pool.submit(warm_up) for _ in range(workers)]:
                future.result()
            return pool

        pool = spawn()
        self.use_executor(pool)
        self._spawn = spawn
        return pool

    def use_executor(self, executor: Executor | None, *, wait: bool = False) -> None:
        """Run the work with ``executor`` (None: worker threads). The old pool is shut and its
        queued work cancelled; with ``wait``, this returns once its running work is done and
        its processes have exited (only then can the interpreter exit without a race in
        the pool's threads)."""
        with self._lock:
            old, self.executor = self.executor, executor
            self._spawn = None
        if old is not None and old is not executor:
            old.shutdown(wait=wait, cancel_futures=True)

    async def shut(self) -> None:
        """Go back to worker threads and wait, off the event loop, until the old pool's
        processes have exited."""
        await asyncio.to_thread(self.use_executor, None, wait=True)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in the executor, or in a worker thread without one."""
        return await self._run(functools.partial(fn, *args, **kwargs), own=True)

    async def run_aside(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Like :meth:`run`, but without an executor in one of asyncio's default worker
        threads: long work that must not hold up this one's own threads."""
        return await self._run(functools.partial(fn, *args, **kwargs), own=False)

    async def _run(self, call: Callable[[], T], *, own: bool) -> T:
        executor = self.executor
        try:
            return await self._submit(executor or (self._threads_of_its_own() if own else None),
                                      call)
        except BrokenProcessPool:
            if executor is None or not await asyncio.to_thread(self._renew, executor):
                raise
        return await self._submit(self.executor, call)

    def _threads_of_its_own(self) -> Executor | None:
        """Its own worker threads (None: asyncio's default ones)."""
        if self._threads is None:
            return None
        with self._lock:
            if self._own is None:
                self._own = ThreadPoolExecutor(self._threads, thread_name_prefix="offload")
            return self._own

    @staticmethod
    async def _submit(executor: Executor | None, call: Callable[[], T]) -> T:
        if executor is None:
            return await asyncio.to_thread(call)
        return await asyncio.get_running_loop().run_in_executor(executor, call)

    def _renew(self, broken: Executor) -> bool:
        """Replace the pool ``broken`` by a fresh one made the same way, once however many
        callers found it broken; whether the work may run again (in :attr:`executor`)."""
        with self._lock:
            if self.executor is not broken:
                return True  # renewed (or replaced) since that work began
            if self._spawn is None:
                return False  # not a pool this class made: nothing to renew it from
            self.executor = self._spawn()
        log.warning("a worker process of the pool died; a new pool took its place")
        broken.shutdown(wait=True, cancel_futures=True)
        return True
