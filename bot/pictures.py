"""Pictures off the event loop: ``render/`` called in a worker thread, or a process pool.

Returns None while ``render/`` is not available, so callers can fall back to text.
By default pictures are drawn with :func:`asyncio.to_thread`; :func:`use_processes` moves
them to a process pool, so drawing never competes with the event loop for the GIL.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from domino import View

_executor: Executor | None = None


def _render_function(name: str) -> Callable[..., bytes] | None:
    try:
        module = importlib.import_module("render")
    except ImportError:
        return None
    fn = getattr(module, name, None)
    return fn if callable(fn) else None


def table_renderer() -> Callable[..., bytes] | None:
    """``render.render_table(view, names, ...) -> PNG bytes`` if available."""
    return _render_function("render_table")


def hand_renderer() -> Callable[..., bytes] | None:
    """``render.render_hand(view, ...) -> PNG bytes`` if available."""
    return _render_function("render_hand")


def _warm_up() -> bool:
    """Import the renderer and build what it caches (fonts, palette) before the first move."""
    module = importlib.import_module("render")
    table = getattr(module, "table", None)
    palette = getattr(table, "palette", None)
    if callable(palette):
        palette()
    return True


async def warm_up() -> None:
    """Prepare the renderer off the event loop, so the first picture is as fast as the rest."""
    if table_renderer() is None:
        return
    if _executor is None:
        await asyncio.to_thread(_warm_up)


def use_processes(workers: int | None = None) -> Executor:
    """Draw pictures in a pool of ``workers`` processes (default: one per CPU) from now on."""
    workers = workers or os.cpu_count() or 1
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    for future in [pool.submit(_warm_up) for _ in range(workers)]:
        future.result()
    use_executor(pool)
    return pool


def use_executor(executor: Executor | None) -> None:
    """Draw pictures with ``executor`` (None: back to worker threads). The old pool is shut."""
    global _executor
    old, _executor = _executor, executor
    if old is not None and old is not executor:
        old.shutdown(wait=False, cancel_futures=True)


async def _run(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    if _executor is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor, functools.partial(fn, *args, **kwargs))


async def table_png(view: View, names: list[str], **options: Any) -> bytes | None:
    """The table picture of a public view (never pass a seat's view here)."""
    if view.hand is not None:
        raise ValueError("the table picture takes the public view, which holds no hand")
    fn = table_renderer()
    if fn is None:
        return None
    return await _run(fn, view, list(names), **options)


async def hand_png(view: View, **options: Any) -> bytes | None:
    """The picture of one seat's own hand (for an ephemeral reply only)."""
    fn = hand_renderer()
    if fn is None:
        return None
    return await _run(fn, view, **options)
