"""The answers the pages keep a few seconds (a server's recent matches):
one reading for many readers, the last answer served while it is read again, never older than
twice its time, and a failed reading tried again by the next reader."""

from __future__ import annotations

import asyncio

import pytest

from bot.web.reader import _Kept
from tests.bot.helpers import FakeClock


class Source:
    """Counts its readings; each waits until ``release`` is set (when given)."""

    def __init__(self) -> None:
        self.readings = 0
        self.release: asyncio.Event | None = None
        self.fail = False

    async def read(self) -> int:
        self.readings += 1
        if self.release is not None:
            await self.release.wait()
        if self.fail:
            raise OSError("the disk is gone")
        return self.readings


async def test_readers_who_find_nothing_wait_together_for_one_reading() -> None:
    source, kept = Source(), _Kept(FakeClock(), 5.0, 5.0)
    source.release = asyncio.Event()
    readers = [asyncio.ensure_future(kept.get("k", source.read)) for _ in range(20)]
    await asyncio.sleep(0)
    source.release.set()
    assert await asyncio.gather(*readers) == [1] * 20
    assert source.readings == 1


async def test_the_last_answer_is_served_while_one_reading_renews_it() -> None:
    clock, source = FakeClock(), Source()
    kept = _Kept(clock, 5.0, 5.0)
    assert await kept.get("k", source.read) == 1
    clock.advance(6.0)  # older than its time: read again, meanwhile the last one is served
    source.release = asyncio.Event()
    assert [await kept.get("k", source.read) for _ in range(10)] == [1] * 10
    await asyncio.sleep(0)
    assert source.readings == 2  # one renewal for the ten readers
    source.release.set()
    await asyncio.sleep(0)
    assert await kept.get("k", source.read) == 2
    clock.advance(10.1)  # more than twice its time: nobody is served it, all wait
    source.release = None
    assert await kept.get("k", source.read) == 3


async def test_a_failed_reading_is_tried_again_by_the_next_reader() -> None:
    clock, source = FakeClock(), Source()
    kept = _Kept(clock, 5.0, 5.0)
    source.fail = True
    with pytest.raises(OSError):
        await kept.get("k", source.read)
    source.fail = False
    assert await kept.get("k", source.read) == 2
    clock.advance(6.0)
    source.fail = True
    assert await kept.get("k", source.read) == 2  # the renewal fails unseen ...
    await asyncio.sleep(0)
    source.fail = False
    assert await kept.get("k", source.read) == 2  # ... and is tried again
    await asyncio.sleep(0)
    assert await kept.get("k", source.read) == 4


async def test_nothing_is_kept_without_a_time() -> None:
    source, kept = Source(), _Kept(FakeClock(), 0.0, 5.0)
    assert [await kept.get("k", source.read) for _ in range(3)] == [1, 2, 3]

