"""Pictures go through worker threads of their own; the table picture takes the public view."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

import render
from bot.workers import pictures
from domino import Match, preset


@pytest.fixture
def fake_render(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object, str]]:
    calls: list[tuple[str, object, str]] = []

    def render_table(view, names, **options) -> bytes:
        calls.append(("table", view, threading.current_thread().name))
        return b"table"

    def render_hand(view, **options) -> bytes:
        calls.append(("hand", view, threading.current_thread().name))
        return b"hand"

    monkeypatch.setattr(render, "render_table", render_table)
    monkeypatch.setattr(render, "render_hand", render_hand)
    return calls


async def test_pictures_are_drawn_off_the_event_loop(fake_render) -> None:
    match = Match.new(preset("partners"), 1)
    assert await pictures.table_png(match.public_view(), ["a", "b", "c", "d"]) == b"table"
    assert await pictures.hand_png(match.view(0)) == b"hand"
    main = threading.main_thread().name
    assert [c[0] for c in fake_render] == ["table", "hand"]
    assert all(thread != main for _, _, thread in fake_render)


async def test_table_picture_refuses_a_private_view(fake_render) -> None:
    match = Match.new(preset("partners"), 1)
    with pytest.raises(ValueError):
        await pictures.table_png(match.view(0), ["a", "b", "c", "d"])
    assert fake_render == []


async def test_pictures_in_a_process_pool() -> None:
    pool = pictures.use_processes(1)
    try:
        match = Match.new(preset("partners"), 1)
        png = await pictures.table_png(match.public_view(), ["a", "b", "c", "d"])
        assert png is not None and png.startswith(b"\x89PNG")
        worker = pool.submit(os.getpid).result()
    finally:
        await pictures.shut_pool()
    with pytest.raises(RuntimeError):  # the pool was shut down
        pool.submit(int)
    with pytest.raises(ProcessLookupError):  # and its process has exited
        os.kill(worker, 0)


async def test_pictures_share_a_few_threads_of_their_own_and_long_work_runs_beside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Many pictures at once are drawn by the pictures' own few threads (the event loop then
    waits less for the interpreter's lock); a replay's long drawing does not hold them up."""
    release = threading.Event()
    drawing: list[str] = []

    def render_table(view, names, **options) -> bytes:
        drawing.append(threading.current_thread().name)
        assert release.wait(10)
        return b"table"

    monkeypatch.setattr(render, "render_table", render_table)
    match = Match.new(preset("partners"), 1)
    tables = [asyncio.create_task(pictures.table_png(match.public_view(), ["a", "b", "c", "d"]))
              for _ in range(6)]
    while len(drawing) < pictures.PICTURE_THREADS:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    assert len(drawing) == pictures.PICTURE_THREADS  # the others wait for a thread of theirs
    assert await pictures.offload(threading.current_thread) not in {
        t for t in threading.enumerate() if t.name in drawing}
    release.set()
    assert await asyncio.gather(*tables) == [b"table"] * 6
    assert len(set(drawing)) <= pictures.PICTURE_THREADS
