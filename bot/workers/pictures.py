"""Pictures off the event loop: ``render/`` called in a worker thread, or a process pool.

By default pictures are drawn in :data:`PICTURE_THREADS` worker threads of their own (a
replay's long drawing in another); :func:`use_processes` moves them to a process pool, so
drawing never competes with the event loop for the GIL.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

import render
from bot.workers.pools import Offload
from domino import View

#: Worker threads for the pictures when no process pool is set. Two: more draw no faster
#: (the interpreter's lock lets one run Python at a time) and make the event loop wait
#: longer for that lock at each database round trip (``benchmarks.bot`` measured it).
PICTURE_THREADS = 2
_offload = Offload(PICTURE_THREADS)
T = TypeVar("T")


def table_renderer() -> Callable[..., bytes] | None:
    """``render.render_table(view, names, ...) -> PNG bytes``."""
    return render.render_table


def hand_renderer() -> Callable[..., bytes] | None:
    """``render.render_hand(view, ...) -> PNG bytes``."""
    return render.render_hand


def _warm_up() -> bool:
    """Build what the renderer caches (fonts, palette, and what every table's first pictures
    share) before the first move."""
    render.table.palette()
    render.warm_up()
    return True


async def warm_up() -> None:
    """Prepare the renderer off the event loop, so the first picture is as fast as the rest."""
    if _offload.executor is None:
        await _offload.run(_warm_up)


def use_processes(workers: int | None = None) -> Executor:
    """Draw pictures in a pool of ``workers`` processes (default: one per CPU) from now on."""
    return _offload.use_processes(workers, _warm_up)


def use_executor(executor: Executor | None, *, wait: bool = False) -> None:
    """Draw pictures with ``executor`` (None: back to worker threads). The old pool is shut
    (with ``wait``: this returns once its processes have exited)."""
    _offload.use_executor(executor, wait=wait)


async def shut_pool() -> None:
    """Draw pictures in worker threads again, once the pool's processes have exited."""
    await _offload.shut()


async def table_png(view: View, names: list[str], **options: Any) -> bytes | None:
    """The table picture of a public view (never pass a seat's view here)."""
    if view.hand is not None:
        raise ValueError("the table picture takes the public view, which holds no hand")
    fn = table_renderer()
    if fn is None:
        return None
    return await _offload.run(fn, view, list(names), **options)


async def hand_png(view: View, **options: Any) -> bytes | None:
    """The picture of one seat's own hand (for an ephemeral reply only)."""
    fn = hand_renderer()
    if fn is None:
        return None
    return await _offload.run(fn, view, **options)


async def offload(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` where pictures are drawn: in the pool when one is set, else in
    a worker thread beside the pictures' own (the replays' long drawing)."""
    return await _offload.run_aside(fn, *args, **kwargs)
