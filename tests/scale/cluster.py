"""Real bot processes (``python -m tests.scale.runner``) against the fake Discord and one
database, and a person playing through Discord: what the process tests share."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import Store
from bot.tables.service import TableInfo, TableService
from domino import Match, Ruleset, decode_action
from tests.cogs.helpers import button, parse, said_results
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage

ROOT = Path(__file__).resolve().parents[2]
HAND_RESULT = re.compile(r"^Hand (\d+): ")
FIRST = asyncio.FIRST_COMPLETED
#: Seconds any one wait of a process test may last: only a hang takes this long. A wait ends
#: on its event (a line, a row, a request); a busy machine makes it slow, never red.
GUARD = 600.0
POLL = 0.05  # seconds between two looks at what has no notification (the store, a log)


async def until(ready: Callable[[], object | Awaitable[object]], what: str) -> None:
    """Wait until ``ready()`` holds (it may be a coroutine function); fail only after
    :data:`GUARD` seconds."""
    try:
        async with asyncio.timeout(GUARD):
            while not await holds(ready):
                await asyncio.sleep(POLL)
    except TimeoutError:
        raise AssertionError(f"still waiting for {what} after {GUARD:.0f} s: a hang") from None


async def holds(ready: Callable[[], object | Awaitable[object]]) -> bool:
    value = ready()
    return bool(await value if inspect.isawaitable(value) else value)


@dataclass
class BotProcess:
    """One ``python -m tests.scale.runner`` process and its log."""

    name: str
    shard_ids: str
    proc: asyncio.subprocess.Process
    log: Path
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    loaded: asyncio.Event = field(default_factory=asyncio.Event)  # its LOAD_RATE posts went
    released: float | None = None  # when a held clock (``CLOCK_HOLD``) began to run
    _reader: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for line in self.proc.stdout:
            if line.strip() == b"ready":
                self.ready.set()
            elif line.strip() == b"load done":
                self.loaded.set()
            elif line.startswith(b"clock "):
                self.released = float(line.split()[1])

    def kill(self) -> None:
        """SIGKILL: no clean-up at all (leases stay until they expire)."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        """SIGTERM: a clean stop (leases released); SIGKILL only if it hangs."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), GUARD)
            except TimeoutError:
                self.kill()
                await self.proc.wait()
        if self._reader is not None:
            self._reader.cancel()

    def log_tail(self, lines: int = 40) -> str:
        """The log's last ``lines``, and the last dump of its tasks (SIGUSR1) if any."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        text, marker, dump = text.rpartition("\n--- ")
        if not marker or " asyncio task(s) at " not in dump.partition("\n")[0]:
            text, dump = text + marker + dump, ""
        tail = "\n".join(text.splitlines()[-lines:])
        if dump:
            tail += "\n--- " + "\n".join(dump.splitlines()[: 6 * lines])
        return f"--- {self.name} ---\n" + tail


class Cluster:
    """Starts bot processes against one fake Discord and one database."""

    def __init__(
        self,
        fake: FakeDiscord,
        database_url: str,
        folder: Path,
        *,
        shard_count: int = 2,
        lease_ttl: float = 2.0,
        env: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.database_url = database_url
        self.folder = folder
        self.shard_count = shard_count
        self.lease_ttl = lease_ttl
        self.env = env or {}
        self.processes: list[BotProcess] = []

    async def start(
        self,
        name: str,
        shard_ids: str,
        *,
        wait: bool = True,
        extra: dict[str, str] | None = None,
        nice: int = 0,
    ) -> BotProcess:
        """Start a process of the shards ``shard_ids`` (``extra``: more of its environment;
        ``nice``: its scheduling priority lowered by so much)."""
        env = {
            **os.environ,
            "FAKE_DISCORD_URL": self.fake.url,
            "DISCORD_TOKEN": self.fake.token,
            "DATABASE_URL": self.database_url,
            "SHARD_COUNT": str(self.shard_count),
            "SHARD_IDS": shard_ids,
            "LEASE_TTL": str(self.lease_ttl),
            "LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT),
            **self.env,
            **(extra or {}),
        }
        for key in ("DATABASE_PATH", "DEV_GUILD_ID", "RENDER_PROCESSES", "AI_PROCESSES"):
            env.pop(key, None)
        env.update({"AI_PROCESSES": "0", **self.env, **(extra or {})})  # threads, unless told
        log = self.folder / f"{name}.log"
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.scale.runner",
            cwd=self.folder,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=log.open("wb"),
            preexec_fn=(lambda: os.nice(nice)) if nice else None,
        )
        bot = BotProcess(name, shard_ids, proc, log)
        bot._reader = asyncio.create_task(bot._read())
        self.processes.append(bot)
        if wait:
            await self.wait_ready(bot)
        return bot

    async def wait_ready(self, bot: BotProcess, timeout: float = GUARD) -> None:
        """Wait for the process's "ready"; fail at once if it ended, or after ``timeout``
        seconds (a hang: a start-up on a busy machine takes many times the usual few)."""
        ready = asyncio.ensure_future(bot.ready.wait())
        ended = asyncio.ensure_future(bot.proc.wait())
        try:
            await asyncio.wait((ready, ended), timeout=timeout, return_when=FIRST)
        finally:
            for waiter in (ready, ended):
                waiter.cancel()
        if not bot.ready.is_set():
            why = "ended" if bot.proc.returncode is not None else "did not get ready"
            raise AssertionError(f"{bot.name} {why}\n{self.logs()}")

    def logs(self) -> str:
        return "\n".join(p.log_tail() for p in self.processes)

    async def dump_tasks(self) -> None:
        """Have every running process print its asyncio tasks' stacks into its log."""
        running = [p for p in self.processes if p.proc.returncode is None]
        for p in running:
            with contextlib.suppress(ProcessLookupError):
                p.proc.send_signal(signal.SIGUSR1)
        if running:
            await asyncio.sleep(1.0)

    async def close(self) -> None:
        await asyncio.gather(*(p.stop() for p in self.processes))


@contextlib.asynccontextmanager
async def cluster(
    fake: FakeDiscord, url: str, folder: Path, **options: object
) -> AsyncIterator[Cluster]:
    """A :class:`Cluster` (``options`` as its own) whose processes are stopped at the end."""
    made = Cluster(fake, url, folder, **options)  # type: ignore[arg-type]
    try:
        yield made
    finally:
        await made.close()


@dataclass
class Watch:
    """What a process test looks through: the processes, the store, and a table service that
    reads the store and never runs a table."""

    procs: Cluster
    store: Store
    observer: TableService


@contextlib.asynccontextmanager
async def watching(
    fake: FakeDiscord, url: str, folder: Path, *, timeout: float, **options: object
) -> AsyncIterator[Watch]:
    """A :class:`Cluster` (``options`` as its own) and the store it runs on; a failure or a
    hang past ``timeout`` seconds prints the processes' logs; everything is stopped after."""
    store = await Store.open(url)
    try:
        async with cluster(fake, url, folder, **options) as procs:
            try:
                async with asyncio.timeout(timeout):
                    yield Watch(procs, store, TableService(store, owns=lambda guild_id: False))
            except BaseException:
                with contextlib.suppress(BaseException):
                    await procs.dump_tasks()
                print(procs.logs())
                raise
    finally:
        await store.close()


# ------------------------------------------------------------------------------ driving


@dataclass
class Table:
    """One table played by one person against a computer, seen through the store."""

    user: FakeUser
    channel_id: int
    id: int = 0
    acked: list[tuple[int, int]] = field(default_factory=list)  # (seq, seat) of acked moves
    refused: list[str] = field(default_factory=list)  # what the bot answered instead


def enabled_choice(message: StoredMessage) -> str | None:
    for b in message.buttons():
        parsed = parse(b.get("custom_id", ""))
        if not b.get("disabled") and parsed and parsed[0] in ("play", "draw", "pass"):
            return str(b["custom_id"])
    return None


async def open_table(fake: FakeDiscord, table: Table, target: int = 50) -> None:
    """``/domino new`` (draw, two seats), then Start with a computer in the other seat."""
    result = await fake.slash(
        table.user,
        table.channel_id,
        "domino new",
        {"variant": "draw", "target": target},
        timeout=GUARD,
    )
    lobby = result.message
    assert lobby is not None, result.text()
    table.id = parse(button(lobby, "start"))[1]  # type: ignore[index]
    start = await fake.click(table.user, lobby, button(lobby, "start"), timeout=GUARD)
    (confirm,) = await start.wait_for_followups(1, timeout=GUARD)
    fill = await fake.click(table.user, confirm, button(confirm, "fill"), timeout=GUARD)
    await fill.wait_for_edits(1, timeout=GUARD)


async def play_turn(fake: FakeDiscord, info: TableInfo, table: Table) -> bool:
    """The person plays once through a fresh hand message; True once the bot acknowledged."""
    if info.table.message_id is None:
        return False
    game = fake.message(info.table.message_id)
    if "tiles" not in [p[0] for c in game.custom_ids() if (p := parse(c))]:
        return False  # between two hands, or not redrawn yet
    tiles = await fake.click(table.user, game, button(game, "tiles"), timeout=GUARD)
    await tiles.wait_for_followups(1, timeout=GUARD)
    hand = fake.message(tiles.followups[0].id)  # (the click's own message is the game message)
    if not hand.buttons():  # an answer instead of the hand ("try again in a few seconds")
        table.refused.append(hand.text())
        return False
    choice = enabled_choice(hand)
    if choice is None:
        return False
    parsed = parse(choice)
    assert parsed is not None
    click = await fake.click(table.user, hand, choice, timeout=GUARD)
    if parsed[0] == "play" and parsed[2][1] == "ask":
        await click.wait_for_edits(1, timeout=GUARD)
        left = next((c for c in hand.custom_ids() if (p := parse(c)) and "left" in p[2]), None)
        if left is None:  # the hand moved on (a refusal, or redrawn for a later state)
            table.refused.extend(m.text() for m in click.followups)
            return False
        click = await fake.click(table.user, hand, left, timeout=GUARD)
    await click.wait_for_edits(1, timeout=GUARD)
    if click.followups:  # refused (stale, moved): not acknowledged
        table.refused.extend(m.text() for m in click.followups)
        return False
    table.acked.append((info.seq, info.turn))  # type: ignore[arg-type]
    return True


async def play(
    fake: FakeDiscord,
    observer: TableService,
    table: Table,
    *,
    until: Callable[[TableInfo], bool] = lambda info: False,
    after_ack: Callable[[TableInfo], bool] = lambda info: False,
) -> TableInfo:
    """Play the person's turns until ``until(info)``, ``after_ack(info)`` right after a move of
    his was acknowledged (``info`` from before it), or the match's end (the caller's guard
    ends a hang)."""
    while True:
        info = await observer.get(table.id)
        if info.status != "running" or until(info):
            return info
        seat = info.turn_seat
        if seat is not None and seat.user_id == table.user.id and seat.kind == "human":
            if await play_turn(fake, info, table) and after_ack(info):
                return await observer.get(table.id)
            await asyncio.sleep(0.02)
        else:
            await asyncio.sleep(POLL)


async def check_table(fake: FakeDiscord, store: Store, table: Table) -> None:
    """The stored log replays, holds every acknowledged move once, and every hand's result and
    the match end were posted exactly once."""
    match_row = await store.matches.get(table.id)
    assert match_row is not None
    rows = await store.actions.list(table.id)
    assert [r.seq for r in rows] == list(range(len(rows)))
    match = Match.replay(
        Ruleset.from_dict(match_row.ruleset),
        match_row.seed,
        [decode_action(r.action) for r in rows],
        match_row.deal,
    )
    assert match.outcome is not None
    for seq, seat in table.acked:
        assert rows[seq].seat == seat, (seq, seat, rows[seq])
    assert len({seq for seq, _ in table.acked}) == len(table.acked)
    place = (await store.tables.get(table.id)).thread_id or table.channel_id  # type: ignore[union-attr]
    titles = [m.title() for m in fake.messages(place)]
    hands = said_results(fake.messages(place))
    assert hands == list(range(1, len(match.hand_results) + 1)), hands
    assert titles.count("Match over") == 1
