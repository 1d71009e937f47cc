"""Pictures off the event loop: ``render/`` called in a worker thread.

Returns None while ``render/`` is not available, so callers can fall back to text.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import Any

from domino import View


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


async def table_png(view: View, names: list[str], **options: Any) -> bytes | None:
    """The table picture of a public view (never pass a seat's view here), in a thread."""
    if view.hand is not None:
        raise ValueError("the table picture takes the public view, which holds no hand")
    fn = table_renderer()
    if fn is None:
        return None
    return await asyncio.to_thread(fn, view, names, **options)


async def hand_png(view: View, **options: Any) -> bytes | None:
    """The picture of one seat's own hand (for an ephemeral reply only), in a thread."""
    fn = hand_renderer()
    if fn is None:
        return None
    return await asyncio.to_thread(fn, view, **options)
