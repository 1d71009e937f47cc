"""The stamp the kept pages are checked against: readers asking at the same time share one
reading (no task of its own), a reader cancelled while reading leaves the others to read it
themselves, and a failed reading reaches those waiting and is tried again by the next."""

from __future__ import annotations

import asyncio

import pytest

from bot.web.kept import KeptPages


class Stamps:
    """A stamp reader whose readings wait until let go."""

    def __init__(self) -> None:
        self.calls = 0
        self.started = asyncio.Event()
        self.go = asyncio.Event()
        self.fail: Exception | None = None

    async def __call__(self, guild_id: int | None) -> tuple[object, ...]:
        self.calls += 1
        number = self.calls
        self.started.set()
        await self.go.wait()
        if self.fail is not None:
            raise self.fail
        return (number, guild_id)


async def test_readers_asking_together_share_one_reading() -> None:
    stamps = Stamps()
    kept = KeptPages(stamps)
    first = asyncio.ensure_future(kept.stamp(7))
    await stamps.started.wait()
    assert asyncio.all_tasks() == {first, asyncio.current_task()}  # read in the first's own
    others = [asyncio.ensure_future(kept.stamp(7)) for _ in range(3)]
    apart = asyncio.ensure_future(kept.stamp(None))  # another server's: its own reading
    await asyncio.sleep(0)
    stamps.go.set()
    assert await first == (1, 7)
    assert [await o for o in others] == [(1, 7)] * 3
    assert (await apart)[1] is None
    assert stamps.calls == 2
    assert await kept.stamp(7) == (3, 7)  # a later reader reads again


async def test_a_reader_cancelled_while_reading_leaves_the_others_to_read_it() -> None:
    stamps = Stamps()
    kept = KeptPages(stamps)
    first = asyncio.ensure_future(kept.stamp(7))
    await stamps.started.wait()
    second = asyncio.ensure_future(kept.stamp(7))
    await asyncio.sleep(0)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    stamps.go.set()
    assert await second == (2, 7)


async def test_a_failed_reading_reaches_those_waiting_and_the_next_reads_again() -> None:
    stamps = Stamps()
    stamps.fail = RuntimeError("no database")
    kept = KeptPages(stamps)
    first = asyncio.ensure_future(kept.stamp(None))
    await stamps.started.wait()
    second = asyncio.ensure_future(kept.stamp(None))
    await asyncio.sleep(0)
    stamps.go.set()
    for reader in (first, second):
        with pytest.raises(RuntimeError, match="no database"):
            await reader
    stamps.fail = None
    assert await kept.stamp(None) == (2, None)
