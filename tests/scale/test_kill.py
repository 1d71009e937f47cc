"""SIGKILL at every instant of a hand's end and of the match's end, through real processes.

The bot runs as an OS process of its own (``python -m tests.scale.runner``) against the fake
Discord and a database (a SQLite file). The fake Discord kills the process at an
exact instant with a tripwire on a request (no hook in the bot): before it answers the first
request after the commit of the hand-ending move, after it applied the edit that draws the
hand's final position, after it stored the hand's result post, before it stores the next
hand's table message; then, at the match's end, right after the commit of the last move, before
and after the match-end post. "After" means Discord holds the message but the bot never learnt
it: the restarted bot posts again with the same nonce and ``enforce_nonce`` must answer with
the first message. After each kill the process is started again and goes on from the store.

At the end the players saw every hand's result exactly once with its picture, each hand's
table message drawn in its final position (the same picture as the result), the match end
once, and the stored move log has no hole and no double.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.settings import sqlite_url
from bot.store import SQLITE, Store
from bot.tables.service import TableService
from tests.fakediscord import FakeDiscord, RequestRecord, StoredMessage, Tripwire
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import HAND_RESULT, BotProcess, Cluster, Table, cluster, open_table, play

__all__ = ["fake_discord"]

LEASE_TTL = 1.0  # a killed process's lease lapses quickly: the next one takes over at once
TARGET = 50  # the shortest match offered: a few hands
WHOLE_TEST = 180.0  # seconds: a hang fails with the processes' logs
STEP = 30.0  # seconds one kill may take to come
MESSAGE_PATH = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")


@pytest.fixture(params=[SQLITE])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return sqlite_url(tmp_path / "bot.sqlite3")


class Killer:
    """Runs one bot process at a time; tripwires in the fake Discord SIGKILL it."""

    def __init__(self, fake: FakeDiscord, procs: Cluster, store: Store) -> None:
        self.fake = fake
        self.procs = procs
        self.store = store
        self.current: BotProcess | None = None
        self.kills: list[str] = []
        self.starts = 0

    async def start(self) -> None:
        self.starts += 1
        self.current = await self.procs.start(f"bot{self.starts}", "0")

    async def _kill(self) -> None:
        bot = self.current
        assert bot is not None
        bot.kill()
        await bot.proc.wait()  # dead before the fake answers: the answer goes nowhere

    def wire(
        self,
        name: str,
        match: Callable[[RequestRecord], bool | Awaitable[bool]],
        *,
        before: bool,
    ) -> Tripwire:
        return self.fake.tripwire(match, self._kill, before=before, name=name)

    async def fired(
        self, wire: Tripwire, *, playing: Table | None = None, observer: Any = None
    ) -> None:
        """Wait for ``wire`` to kill the process (the person plays his turns meanwhile, if
        given), then note the kill."""
        game: asyncio.Task[Any] | None = None
        if playing is not None:
            game = asyncio.create_task(
                play(self.fake, observer, playing, until=lambda info: wire.fired.is_set())
            )
        waiter = asyncio.create_task(wire.fired.wait())
        try:
            async with asyncio.timeout(STEP):
                if game is not None:
                    await asyncio.wait([game, waiter], return_when=asyncio.FIRST_COMPLETED)
                    if game.done() and not wire.fired.is_set():
                        game.result()  # the play's own failure; else the match just ended
                await waiter  # (a kill under way finishes first)
        except TimeoutError:
            raise AssertionError(f"the bot was never killed at {wire.name!r}") from None
        finally:
            for task in (game, waiter):
                if task is not None and not task.done():
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
        assert wire.request is not None
        self.kills.append(f"{wire.name}: {wire.request.method} {wire.request.path}")

    async def kill_then_restart(self, wire: Tripwire, **playing: Any) -> None:
        await self.fired(wire, **playing)
        await self.start()


# ------------------------------------------------------------------------- what to trip on


def posted(nonce: Callable[[str], bool]) -> Callable[[RequestRecord], bool]:
    """A message post whose nonce ``nonce`` accepts."""

    def match(r: RequestRecord) -> bool:
        return (
            r.method == "POST"
            and MESSAGE_PATH.match(r.path) is not None
            and isinstance(r.json, dict)
            and nonce(str(r.json.get("nonce") or ""))
        )

    return match


def final_edit(hand: int) -> Callable[[RequestRecord], bool]:
    """The edit of a table message that draws hand ``hand``'s final position."""

    def match(r: RequestRecord) -> bool:
        found = MESSAGE_PATH.match(r.path)
        if r.method != "PATCH" or found is None or found.group(2) is None:
            return False
        embeds = (r.json or {}).get("embeds") or [{}]
        return str(embeds[0].get("description", "")).startswith(f"**Hand {hand}: ")

    return match


def after_commit(
    store: Store, table_id: int, *, hands: int
) -> Callable[[RequestRecord], Awaitable[bool]]:
    """Any request once ``hands`` hand results (or the match's outcome) are committed."""

    async def match(r: RequestRecord) -> bool:
        if len(await store.hand_results.list(table_id)) >= hands:
            return True
        row = await store.matches.get(table_id)
        return row is not None and row.outcome is not None

    return match


# ---------------------------------------------------------------------------------- checks


def png_of(message: StoredMessage) -> bytes:
    assert message.attachments and message.attachments[0].is_png, message.text()
    return message.attachments[0].data


async def check_what_players_saw(fake: FakeDiscord, store: Store, table: Table) -> None:
    """Every hand's result once, with its picture, after its table message shows that very
    picture; the match end once; the move log whole."""
    tid = table.id
    row = await store.tables.get(tid)
    assert row is not None and row.thread_id
    messages = fake.messages(row.thread_id)
    results = [m for m in messages if HAND_RESULT.match((m.embed or {}).get("title", ""))]
    ends = [m for m in messages if (m.embed or {}).get("title") == "Match over"]
    hand_rows = await store.hand_results.list(tid)
    hands = len(hand_rows)
    assert [int(HAND_RESULT.match(m.embed["title"]).group(1)) for m in results] == list(  # type: ignore[index, union-attr]
        range(1, hands + 1)
    ), [m.embed["title"] for m in results]  # type: ignore[index]
    assert len(ends) == 1, [m.text() for m in ends]
    games = {
        int(key.split(".")[2]): fake.message(mid)
        for (channel, key), mid in fake.nonces.items()
        if channel == row.thread_id and key.startswith(f"g.{tid}.")
    }
    assert sorted(games) == list(range(1, hands + 1)), sorted(games)
    for number, result in enumerate(results, start=1):
        game = games[number]
        assert not game.deleted
        assert result.attachments[0].filename == f"hand-{number}.png"
        # The hand's table message was drawn in its final position: the result's picture.
        assert png_of(game) == png_of(result), f"hand {number}'s final position is not shown"
        assert not game.buttons(), f"hand {number}'s message still offers buttons"
        assert game.id < result.id
        if number < hands:
            assert result.id < games[number + 1].id  # the next hand began after the result
            assert str(game.embed["description"]).startswith(f"**Hand {number}: ")  # type: ignore[index]
    (end,) = ends
    assert end.id > results[-1].id
    assert png_of(end) == png_of(games[hands])
    # The move log: no hole, no double, every acknowledged move of the person in it.
    rows = await store.actions.list(tid)
    assert [r.seq for r in rows] == list(range(len(rows)))
    for seq, seat in table.acked:
        assert rows[seq].seat == seat, (seq, seat, rows[seq])
    assert len({seq for seq, _ in table.acked}) == len(table.acked)
    feed = await store.feeds.get(tid)
    assert feed.hands_announced == hands and feed.match_announced


# ------------------------------------------------------------------------------------ test


async def test_a_kill_at_each_instant_of_hand_and_match_ends_loses_nothing(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    user = fake.add_user(2001, "player", "Player")
    table = Table(user, fake.channel_id)
    store = await Store.open(database_url)
    observer = TableService(store, owns=lambda guild_id: False)  # reads, never runs a table
    started = time.monotonic()
    async with cluster(fake, database_url, tmp_path, shard_count=1, lease_ttl=LEASE_TTL) as procs:
        killer = Killer(fake, procs, store)
        try:
            async with asyncio.timeout(WHOLE_TEST):
                await scenario(fake, killer, observer, store, table)
        except BaseException:
            print(procs.logs())
            print("kills:", *killer.kills, sep="\n  ")
            raise
        finally:
            await store.close()
    print(*killer.kills, sep="\n")
    print(f"{len(killer.kills)} kills, {killer.starts} starts, {time.monotonic() - started:.1f} s")
    assert not fake.unknown_routes


async def scenario(
    fake: FakeDiscord, killer: Killer, observer: TableService, store: Store, table: Table
) -> None:
    await killer.start()
    await fake.wait_for(lambda: fake.commands(), timeout=10, what="the commands")
    await open_table(fake, table, target=TARGET)
    tid = table.id
    playing = {"playing": table, "observer": observer}

    # Hand 1's end, one instant after the other.
    wire = killer.wire("after the commit", after_commit(store, tid, hands=1), before=True)
    await killer.kill_then_restart(wire, **playing)
    assert (await observer.get(tid)).status == "running", "the match ended in one hand"
    wire = killer.wire("after the table message edit", final_edit(1), before=False)
    await killer.kill_then_restart(wire)
    wire = killer.wire("after the result post", posted(lambda n: n == f"h.{tid}.1"), before=False)
    await killer.kill_then_restart(wire)
    wire = killer.wire(
        "before the next hand's message",
        posted(lambda n: n.startswith(f"g.{tid}.2.")),
        before=True,
    )
    await killer.kill_then_restart(wire)

    # The match's end.
    hands = len(await store.hand_results.list(tid))
    wire = killer.wire(
        "after the last commit", after_commit(store, tid, hands=hands + 99), before=True
    )
    await killer.kill_then_restart(wire, **playing)
    assert (await observer.get(tid)).status == "finished"
    wire = killer.wire("before the match end", posted(lambda n: n == f"m.{tid}"), before=True)
    await killer.kill_then_restart(wire)
    wire = killer.wire("after the match end", posted(lambda n: n == f"m.{tid}"), before=False)
    await killer.kill_then_restart(wire)

    deadline = time.monotonic() + 15
    while not (await store.feeds.get(tid)).match_announced:
        assert time.monotonic() < deadline, "the match end was never marked published"
        await asyncio.sleep(0.05)
    await check_what_players_saw(fake, store, table)
    # The posts that reached Discord before the kill were sent again with their nonce, and
    # Discord answered with the first message.
    nonces = [str((r.json or {}).get("nonce")) for r in fake.requests if r.method == "POST"]
    assert nonces.count(f"h.{tid}.1") == 2 and nonces.count(f"m.{tid}") == 3
