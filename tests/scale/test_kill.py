"""SIGKILL at every instant of a hand's end, a take-over and the match's end, through real
processes.

The bot runs as an OS process of its own (``python -m tests.scale.runner``) against the fake
Discord and a database. The fake Discord kills the process at an exact instant with a tripwire
on a request (no hook in the bot): before it answers the first request after the commit of the
hand-ending move, after it applied the edit that draws the hand's final position and says
its result, before and after it stores the next hand's table message; then
the person stops playing, the turn timer plays for him (the bot's clock runs fast) and a
computer takes his seat: right after that commit, after the announcement's post; at the match's
end, right after the commit of the last move, before and after the match-end post. "After" a
post means Discord holds the message but the bot never learnt it: the restarted bot posts again
with the same nonce and ``enforce_nonce`` answers with the first message. After each kill the
process is started again and goes on from the store. Every instant, on a SQLite file and on
PostgreSQL.

At the end the players saw every hand's result exactly once with its picture (each hand's
table message drawn in its final position, saying the result), the take-over
announced once, the match end once, and the stored move log has no hole and no double.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE, Store
from bot.tables.history import TAKEOVER
from bot.tables.service import TableService
from tests.cogs.helpers import said_results
from tests.fakediscord import FakeDiscord, FakeUser, RequestRecord, StoredMessage, Tripwire
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import (
    GUARD,
    HAND_RESULT,
    BotProcess,
    Cluster,
    Table,
    cluster,
    open_table,
    play,
    until,
)

__all__ = ["fake_discord"]

TIME_SCALE = 300  # the fast clock: a turn timer of two minutes runs out in 0.4 s
LEASE_TTL = 1.0  # a killed process's lease lapses quickly: the next one takes over at once
TARGET = 50  # the shortest match offered: a few hands
WHOLE_TEST = 3 * GUARD  # seconds: against a hang (with the processes' logs)
FIRST = asyncio.FIRST_COMPLETED
TABLE_TITLE = re.compile(r" · hand \d+$")  # "Draw game (two players) · hand 2"
MESSAGE_PATH = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


@dataclass
class Step:
    """One kill: at the first request ``match`` accepts, ``before`` or after Discord applied it."""

    name: str
    match: Callable[[RequestRecord], bool | Awaitable[bool]]
    before: bool
    play: bool = False  # the person plays his turns until the kill
    fast: bool = False  # the processes started after this kill run a fast clock


class Killer:
    """Runs one bot process at a time; the fake Discord SIGKILLs it at each step in turn (the
    next step's tripwire is laid while the process is dead, so no instant is missed)."""

    def __init__(self, fake: FakeDiscord, procs: Cluster) -> None:
        self.fake = fake
        self.procs = procs
        self.current: BotProcess | None = None
        self.kills: list[str] = []
        self.requests: list[RequestRecord] = []  # the requests the kills came at
        self.applied: list[RequestRecord] = []  # those Discord applied before the kill
        self.starts = 0
        self._steps: list[Step] = []
        self._plan: list[Step] = []
        self._wire: Tripwire | None = None
        self._killed: asyncio.Queue[Step] = asyncio.Queue()

    async def start(self) -> None:
        self.starts += 1
        # The current one from its first breath: it may post (and be killed) before it says
        # it is ready.
        bot = self.current = await self.procs.start(f"bot{self.starts}", "0", wait=False)
        ready = asyncio.create_task(bot.ready.wait())
        dead = asyncio.create_task(bot.proc.wait())  # killed already: the next step's start
        done, pending = await asyncio.wait([ready, dead], timeout=GUARD, return_when=FIRST)
        for task in pending:
            task.cancel()
        if not done:
            raise AssertionError(f"{bot.name} did not get ready\n{self.procs.logs()}")

    def plan(self, steps: list[Step]) -> None:
        self._steps = list(steps)
        self._plan = list(steps)  # (the steps still to trip: the fake's tripwires take them)
        self._arm()

    def _arm(self) -> None:
        step = self._plan[0]
        self._wire = self.fake.tripwire(step.match, self._kill, before=step.before, name=step.name)

    async def _kill(self) -> None:
        bot, wire = self.current, self._wire
        assert bot is not None and wire is not None and wire.request is not None
        if bot.proc.returncode is not None:
            self._arm()  # a late request of the process killed already: wait for the next one
            return
        bot.kill()
        await bot.proc.wait()  # dead before the fake answers: the answer goes nowhere
        step = self._plan.pop(0)
        self.requests.append(wire.request)
        if not step.before:
            self.applied.append(wire.request)
        self.kills.append(f"{step.name}: {wire.request.method} {wire.request.path}")
        if step.fast:
            self.procs.env["TIME_SCALE"] = str(TIME_SCALE)
        if self._plan:
            self._arm()
        self._killed.put_nowait(step)

    async def run(self, observer: TableService, table: Table) -> None:
        """Each step: wait for its kill (the person playing meanwhile if it says so), then start
        the bot again."""
        for step in self._steps:
            await self._wait(step, observer, table if step.play else None)
            await self.start()

    async def _wait(self, step: Step, observer: TableService, table: Table | None) -> None:
        killed = asyncio.Event()
        game: asyncio.Task[Any] | None = None
        if table is not None:
            game = asyncio.create_task(
                play(self.fake, observer, table, until=lambda info: killed.is_set())
            )
        waiter = asyncio.create_task(self._killed.get())
        try:
            async with asyncio.timeout(GUARD):
                if game is not None:
                    await asyncio.wait([game, waiter], return_when=asyncio.FIRST_COMPLETED)
                    if game.done() and not waiter.done():
                        game.result()  # the play's own failure; else the match just ended
                assert await waiter is step
                killed.set()
        except TimeoutError:
            raise AssertionError(f"the bot was never killed at {step.name!r}") from None
        finally:
            for task in (game, waiter):
                if task is not None and not task.done():
                    task.cancel()
                    # A cancelled wait of the fake ends at once: a task still running is a hang.
                    await asyncio.wait([task], timeout=GUARD)
                    if not task.done():
                        raise AssertionError(f"a task outlived its cancellation at {step.name!r}")


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


#: An edit through an interaction's token of the message clicked (a public message's redraw
#: when the click was on it).
ORIGINAL_PATH = re.compile(r"^/webhooks/\d+/[^/]+/messages/@original$")


def final_edit(hand: int) -> Callable[[RequestRecord], bool]:
    """The edit of a table message that draws hand ``hand``'s final position and result (with
    the bot token, or through a click on that message)."""

    def match(r: RequestRecord) -> bool:
        found = MESSAGE_PATH.match(r.path)
        if r.method != "PATCH":
            return False
        if (found is None or found.group(2) is None) and not ORIGINAL_PATH.match(r.path):
            return False
        shown = StoredMessage(0, 0, None, FakeUser(0, ""), components=(r.json or {}).get(
            "components") or [])
        return f"\n**Hand {hand}: " in shown.text()

    return match


def committed(
    store: Store, table_id: int, *, hands: int = 0, takeover: bool = False, end: bool = False
) -> Callable[[RequestRecord], Awaitable[bool]]:
    """Any request once the store holds ``hands`` hand results, a take-over, or the match's
    outcome: the first one after that commit."""

    async def match(r: RequestRecord) -> bool:
        if hands:
            return len(await store.hand_results.list(table_id)) >= hands
        if takeover:
            return any(a.made_by == TAKEOVER for a in await store.actions.list(table_id))
        row = await store.matches.get(table_id)
        return end and row is not None and row.outcome is not None

    return match


# ---------------------------------------------------------------------------------- checks


def png_of(message: StoredMessage) -> bytes:
    assert message.attachments and message.attachments[0].is_png, message.text()
    return message.attachments[0].data


async def check_what_players_saw(fake: FakeDiscord, store: Store, table: Table) -> None:
    """Every hand's result said once, with its picture: on that hand's table message, drawn in
    the hand's final position, or (a hand that had no message of its own) in a result post;
    the match end once; the take-over announced once; the move log whole."""
    tid = table.id
    row = await store.tables.get(tid)
    assert row is not None and row.thread_id
    messages = fake.messages(row.thread_id)
    posts = {
        int(found[1]): m for m in messages if (found := HAND_RESULT.match(m.title()))
    }
    ends = [m for m in messages if m.title() == "Match over"]
    hands = len(await store.hand_results.list(tid))
    assert said_results(messages) == list(range(1, hands + 1)), [m.text() for m in messages]
    assert len(ends) == 1, [m.text() for m in ends]
    # The table message of each hand (posted with the nonce g.<table>.<hand>.<seq>).
    games = {
        int(key.split(".")[2]): fake.message(mid)
        for (channel, key), mid in fake.nonces.items()
        if channel == row.thread_id and key.startswith(f"g.{tid}.")
    }
    # Hands 1 and 2 began with the feed in step; a later hand whose every move came in one
    # burst while the feed was busy may have no message of its own (its result post shows it).
    assert {1, 2} <= games.keys() <= set(range(1, hands + 1)), sorted(games)
    tables = [m for m in messages if TABLE_TITLE.search(m.title())]
    assert sorted(m.id for m in tables) == sorted(m.id for m in games.values()), "a double"
    for number in range(1, hands + 1):
        game = games.get(number)
        if game is None:  # the result post shows the final position: its one picture
            assert posts[number].attachments[0].filename == f"hand-{number}.png"
            continue
        assert number not in posts, f"hand {number}'s result said twice"
        assert not game.deleted and not game.buttons(), f"hand {number}'s message still plays"
        assert png_of(game), f"hand {number}'s final position is not shown"
        assert f"\n**Hand {number}: " in game.text() and "Pips left:" in game.text(), game.text()
        if number + 1 in games:
            assert game.id < games[number + 1].id
    (end,) = ends
    assert end.id > max(m.id for m in [*games.values(), *posts.values()])
    assert not end.attachments  # the last hand's final position is shown once, above
    # The move log: no hole, no double, every acknowledged move of the person in it.
    rows = await store.actions.list(tid)
    assert [r.seq for r in rows] == list(range(len(rows)))
    for seq, seat in table.acked:
        assert rows[seq].seat == seat, (seq, seat, rows[seq])
    assert len({seq for seq, _ in table.acked}) == len(table.acked)
    feed = await store.feeds.get(tid)
    assert feed.hands_announced == hands and feed.match_announced
    # The take-over: announced once, after the move that made it.
    takeovers = [r.seq for r in rows if r.made_by == TAKEOVER]
    said = [m for m in messages if "ran out of time" in m.content]
    assert len(takeovers) == 1 and len(said) == 1, [m.content for m in said]
    assert said[0].content.startswith(f"<@{table.user.id}> ran out of time 3 times in a row")
    assert feed.takeovers_announced == takeovers[0] + 1


# ------------------------------------------------------------------------------------ test


async def test_a_kill_at_each_instant_of_hand_and_match_ends_loses_nothing(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    user = fake.add_user(2001, "player", "Player")
    table = Table(user, fake.channel_id)
    store = await Store.open(database_url)
    observer = TableService(store, owns=lambda guild_id: False)  # reads, never runs a table
    async with cluster(fake, database_url, tmp_path, shard_count=1, lease_ttl=LEASE_TTL) as procs:
        killer = Killer(fake, procs)
        try:
            async with asyncio.timeout(WHOLE_TEST):
                await scenario(fake, killer, observer, store, table)
        except BaseException:
            print(procs.logs())
            print("kills:", *killer.kills, sep="\n  ")
            raise
        finally:
            await store.close()
    assert not fake.unknown_routes


async def scenario(
    fake: FakeDiscord, killer: Killer, observer: TableService, store: Store, table: Table
) -> None:
    await killer.start()
    await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
    await open_table(fake, table, target=TARGET)
    tid = table.id
    killer.plan(steps(store, tid))
    await killer.run(observer, table)


    async def announced() -> bool:
        return (await store.feeds.get(tid)).match_announced

    await until(announced, "the match end marked published")
    await check_what_players_saw(fake, store, table)

    # The posts that reached Discord right before a kill were sent again once with their
    # nonce, and Discord answered with the first message (the checks above: no double).
    def nonce(r: RequestRecord) -> str | None:
        return (r.json or {}).get("nonce") if r.method == "POST" else None

    nonces = [nonce(r) for r in fake.requests]
    applied = [n for r in killer.applied if (n := nonce(r))]
    killed = [nonce(r) for r in killer.requests]
    assert len(applied) >= 3, applied
    for n in applied:
        assert nonces.count(n) == killed.count(n) + 1, (n, nonces.count(n))


def steps(store: Store, tid: int) -> list[Step]:
    """Where to kill the bot, in order."""
    commit = Step("after the commit", committed(store, tid, hands=1), before=True, play=True)

    def second(nonce: str) -> bool:  # the post of hand 2's table message
        return nonce == f"g.{tid}.2" or nonce.startswith(f"g.{tid}.2.")

    return [
        # Hand 1 ends (the person plays until then), one instant after the other.
        commit,
        Step("after the table message edit", final_edit(1), before=False),
        # From here the person stops playing: the turn timer plays for him (the bots' clocks
        # run fast) until a computer takes his seat over.
        Step("before the next hand's message", posted(second), before=True, fast=True),
        # (a computer or the timer may move before the restarted bot posts it again)
        Step("after the next hand's message", posted(second), before=False),
        Step("after the take-over commit", committed(store, tid, takeover=True), before=True),
        Step("after the take-over post", posted(lambda n: n.startswith(f"t.{tid}.")), False),
        # The match's end.
        Step("after the last commit", committed(store, tid, end=True), before=True),
        Step("before the match end", posted(lambda n: n == f"m.{tid}"), before=True),
        Step("after the match end", posted(lambda n: n == f"m.{tid}"), before=False),
    ]
