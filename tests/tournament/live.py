"""Whole events played by real bot processes (``python -m tests.scale.runner``) against the
fake Discord, with a crowd of people who check in and click in at their tables by themselves.

The bot's clock runs :data:`TIME_SCALE` times faster than real time: the 10-minute check-in
lasts 2 s, the 5-minute grace 1 s, a two-minute turn timer 0.4 s. :func:`play_event` runs a
9-person individual event or a 10-pair event of three Swiss rounds with a no-show in round 1,
a withdrawal and a late entrant (both during round 1), and a disruption of the bot's process
in the middle of round 2; then it checks every public message.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.store import TournamentRepo
from tests.fakediscord import (
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RequestRecord,
    StoredMessage,
)
from tests.scale.cluster import BotProcess, Cluster
from tests.scale.test_kill import MESSAGE_PATH, posted
from tests.tournament.test_discord import register_pair

TIME_SCALE = 300
LEASE_TTL = 2.0  # seconds: a short lease, yet renewed in time on a busy machine
ROUNDS = 3
PATIENCE = 1.0  # seconds a person waits for an answer before clicking again
GRACE = 30  # minutes (the most): 6 s of real time to click in at one's table on a busy machine
SEAT_POST = re.compile(r"^Round (\d+), table (\d+): ")

#: Stops the bot's process at a tripwire's instant and brings the event back on another one.
Disruption = Callable[["Live"], Awaitable[None]]
#: The instant of an event's life a disruption strikes at: its tripwire's request.
Instant = Callable[["Live"], Callable[[RequestRecord], bool]]


def fast_env() -> dict[str, str]:
    """The bot processes' environment: the fast clock, one time line for all of them, short
    clock polls and turn timers, identifies at once."""
    return {
        "TIME_SCALE": str(TIME_SCALE),
        "TIME_ORIGIN": str(time.time()),
        "CLOCK_POLL": "0.05",
        "TOURNAMENT_TURN_TIMER": "30",
        "QUICK_IDENTIFY": "1",
    }


def titles(fake: FakeDiscord, guild_channels: set[int] | None = None) -> Counter[str]:
    """How many times each embed title was posted publicly (in ``guild_channels`` if given)."""
    return Counter(
        m.embeds[0].get("title", "")
        for m in fake.public_messages()
        if m.embeds and (guild_channels is None or m.channel_id in guild_channels)
    )


@dataclass
class Crowd:
    """The people of an event: ``checkers`` press Check in on every round's post (one member
    per pair is enough); whoever a table's post mentions presses I'm here, but ``absent``
    and, in round 1, the no-show: the first person the first table post mentions who is not
    in ``keep``    (per round) never does. Answers to the clicks are kept."""

    fake: FakeDiscord
    checkers: list[FakeUser]
    absent: dict[int, set[int]] = field(default_factory=dict)
    keep: set[int] = field(default_factory=set)
    no_show: int | None = None
    answers: list[str] = field(default_factory=list)
    clicks: list[InteractionResult] = field(default_factory=list)
    _done: set[tuple[int, str, int]] = field(default_factory=set)
    _sent: dict[tuple[int, str, int], tuple[InteractionResult | None, float]] = field(
        default_factory=dict
    )

    async def run(self) -> None:
        while True:
            now = time.monotonic()
            for key, (result, sent) in list(self._sent.items()):
                if result is not None and result.responded.is_set():
                    del self._sent[key]
                elif now - sent > PATIENCE:  # not answered: click again
                    del self._sent[key]
                    self._done.discard(key)
            for message in list(self.fake.public_messages()):
                for cid in message.custom_ids():
                    for user in self._clickers(message, cid):
                        key = (message.id, cid, user.id)
                        self._done.add(key)
                        try:
                            result = await self.fake.click(user, message, cid, wait=False)
                        except Exception as exc:  # no process is connected: again later
                            self.answers.append(f"{cid} by {user.id}: {exc!r}")
                            self._sent[key] = (None, time.monotonic())
                        else:
                            self._sent[key] = (result, time.monotonic())
                            self.clicks.append(result)
            await asyncio.sleep(0.05)

    def arrived(self, number: int) -> bool:
        """Everyone the pairings of round ``number`` seat (but the absent) was answered at his
        table (the grace is behind them)."""
        name = f"pairings of round {number}"
        posts = [m for m in self.fake.public_messages() if name in m.title()]
        if not posts:
            return False
        seated = {int(u) for u in re.findall(r"<@(\d+)>", posts[0].content or "")}
        answered = {
            r.user.id
            for r in self.clicks
            if r.followups and r.name == f"tournament:here:{event_of(r.name)}:{number}"
        }
        return seated - self.absent.get(number, set()) <= answered

    def _clickers(self, message: StoredMessage, cid: str) -> list[FakeUser]:
        if cid.startswith("tournament:checkin:"):
            people = list(self.checkers)
        elif cid.startswith("tournament:here:"):
            number = int(cid.rsplit(":", 1)[1])
            if number == 1 and self.no_show is None:
                mentioned = [int(u) for u in re.findall(r"<@(\d+)>", message.content or "")]
                self.no_show = next(u for u in mentioned if u not in self.keep)
                self.absent.setdefault(1, set()).add(self.no_show)
            people = [
                u
                for u in self.fake.users.values()
                if f"<@{u.id}>" in (message.content or "")
                and u.id not in self.absent.get(number, ())
            ]
        else:
            return []
        return [u for u in people if (message.id, cid, u.id) not in self._done]


@dataclass
class Live:
    """One event played by bot processes: what a disruption needs."""

    fake: FakeDiscord
    procs: Cluster
    store: Store
    current: BotProcess
    name: str
    crowd: Crowd
    events: list[str] = field(default_factory=list)  # what happened to the processes


def edited(r: RequestRecord) -> bool:
    """An edit of a message (a table's message as its moves are played, most of the time)."""
    found = MESSAGE_PATH.match(r.path)
    return r.method == "PATCH" and found is not None and found.group(2) is not None


def once(
    ready: Callable[[], bool], match: Callable[[RequestRecord], bool]
) -> Callable[[RequestRecord], bool]:
    """The first request ``match`` accepts once ``ready()`` holds."""
    return lambda r: ready() and match(r)


def mid_play(live: Live) -> Callable[[RequestRecord], bool]:
    """In round 2, once everyone came to his table: the next edit of a message (a table's
    message as a move is shown)."""
    return once(lambda: live.crowd.arrived(2), edited)


def table_result(live: Live) -> Callable[[RequestRecord], bool]:
    """In round 2, once everyone came to his table: the first table's hand result post."""
    return once(lambda: live.crowd.arrived(2), posted(lambda n: n.startswith("h.")))


def kill_at(instant: Instant) -> Disruption:
    """SIGKILL the bot's process right after Discord applied the request of ``instant`` (the
    bot never learns it was); a new process is started on the same database and takes the dead
    one's lease."""

    async def disrupt(live: Live) -> None:
        victim = live.current
        wire = live.fake.tripwire(instant(live), victim.kill, before=False, name="kill")
        await asyncio.wait_for(wire.fired.wait(), 90)
        await victim.proc.wait()
        live.events.append(f"killed {victim.name}")
        live.current = await live.procs.start("bot2", "0")

    return disrupt


def move_at(instant: Instant) -> Disruption:
    """A second process waits for the shard; the first stops (SIGSTOP) at ``instant``, past
    its lease: the second takes the shard over and goes on. The first, woken, must post
    nothing more."""

    async def disrupt(live: Live) -> None:
        first = live.current
        second = await live.procs.start("bot2", "0", wait=False)
        wire = live.fake.tripwire(
            instant(live), lambda: first.proc.send_signal(signal.SIGSTOP), before=False, name="stop"
        )
        await asyncio.wait_for(wire.fired.wait(), 90)
        live.events.append(f"stopped {first.name}")
        try:
            await live.procs.wait_ready(second)
        finally:
            first.proc.send_signal(signal.SIGCONT)
        live.current = second
        await wait_logged(first, "disconnected (its lease is lost)")
        assert first.proc.returncode is None  # alive, waiting for the lease

    return disrupt


async def wait_logged(bot: BotProcess, text: str, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not bot.log.exists() or text not in bot.log.read_text(errors="replace"):
            await asyncio.sleep(0.05)


def event_of(custom_id: str | None) -> str:
    """The event's id in a tournament button's custom id."""
    return (custom_id or "::").split(":")[2]


async def slash(fake: FakeDiscord, user: FakeUser, command: str, **options: Any) -> str:
    result = await fake.slash(user, fake.channel_id, f"domino tournament {command}", options)
    return result.text()


async def play_event(
    fake: FakeDiscord, procs: Cluster, store: Store, fmt: str, disrupt: Disruption
) -> None:
    """A ``fmt`` ("individual": 9 people; "pairs": 10 pairs) event of three Swiss rounds to
    the podium, ``disrupt`` striking in round 2; then every public message is checked."""
    host = fake.owner
    first = await procs.start("bot1", "0")
    name = "Nine" if fmt == "individual" else "Pairs"
    made = await slash(
        fake,
        host,
        "create",
        name=name,
        variant="partners",
        format=fmt,
        rounds=ROUNDS,
        hands=1,
        grace=GRACE,
    )
    assert "open for registration" in made, made
    base = 7000 if fmt == "individual" else 7100
    people = [fake.add_user(base + i, f"u{base + i}", f"Player {base + i}") for i in range(22)]
    if fmt == "individual":
        playing, leaver, late = people[:9], people[7], people[9]
        for user in playing:
            assert "registered" in await slash(fake, user, "register")
        checkers, leaving = list(playing), {leaver.id}
    else:
        playing, leaver, late = people[:20], people[4], people[20]
        for i in range(0, 20, 2):
            await register_pair(fake, people[i], people[i + 1])
        checkers, leaving = people[:20:2], {leaver.id, people[5].id}
    crowd = Crowd(fake, checkers, keep=leaving)
    clicks = asyncio.create_task(crowd.run())
    live = Live(fake, procs, store, first, name, crowd)
    try:
        assert "check-in is open" in await slash(fake, host, "start")
        await fake.wait_for(lambda: titles(fake)[f"{name}: pairings of round 1"], timeout=30)
        # During round 1: one entrant withdraws, one enters late (he plays from round 2).
        assert "withdrawn" in await slash(fake, leaver, "withdraw")
        crowd.checkers.remove(leaver)
        if fmt == "individual":
            assert "from round 2" in await slash(fake, late, "register")
        else:
            await register_pair(fake, late, people[21])
        crowd.checkers.append(late)
        await disrupt(live)
        await fake.wait_for(lambda: titles(fake)[f"{name}: the podium"], timeout=120)
        await asyncio.sleep(1.0)  # anything posted twice would come now
    except BaseException:
        print(procs.logs(), *crowd.answers, await describe(store, fake.guild_id), sep="\n")
        raise
    finally:
        clicks.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clicks
    try:
        assert crowd.no_show is not None
        await check_event(live, fmt, no_show=crowd.no_show, leaver=leaver.id, late=late.id)
    except BaseException:
        print(await describe(store, fake.guild_id))
        raise


async def check_event(live: Live, fmt: str, *, no_show: int, leaver: int, late: int) -> None:
    """The store's event and every public message: each post exactly once."""
    fake, name = live.fake, live.name
    repo = TournamentRepo(live.store.db)
    event = await repo.latest(fake.guild_id, fake.channel_id)
    assert event is not None and event.name == name and event.status == "finished", event
    entries = {e.user_id: e for e in await repo.entries(event.id)}
    assert entries[leaver].status == "withdrawn"
    assert entries[late].joined_round == 2
    boards = await repo.boards(event.id)
    # The no-show never moved at his round-1 table: at the grace a computer took his seat
    # (individual) or his pair forfeited, unless the turn timer had played his seat to the
    # table's end before (the clock runs fast); nobody else missed a round.
    (first,) = [b for b in boards if b.round == 1 and no_show in b.people]
    mark = "absent:" if fmt == "individual" else "forfeit"
    assert first.table_id is not None
    info = await observer(live).get(first.table_id)
    his = {s.seat for s in info.seats if s is not None and s.user_id == no_show}
    rows = await live.store.actions.list(first.table_id)
    assert not [r for r in rows if r.seat in his and r.made_by in (None, "player")]
    assert mark in (first.how or "") or (first.how == "played" and rows), first
    missed = [e.members for e in entries.values() if e.missed]
    assert missed in ([], [next(e.members for e in entries.values() if no_show in e.members)])
    assert not [b for b in boards if b.round > 1 and leaver in b.people]
    assert [b for b in boards if b.round > 1 and late in b.people]

    counted = titles(fake)
    for number in range(1, ROUNDS + 1):
        assert counted[f"{name}: pairings of round {number}"] == 1, counted
        assert counted[f"{name}: standings after round {number}"] == 1, counted
    assert counted[f"{name}: the podium"] == 1, counted
    assert counted[f"Tournament: {name}"] == 1, counted
    checkins = [m for m in fake.public_messages() if "check in now" in (m.content or "")]
    assert len(checkins) == ROUNDS
    seats = Counter(
        (int(m.group(1)), int(m.group(2)))
        for p in fake.public_messages()
        if (m := SEAT_POST.match(p.content or ""))
    )
    tables = {(b.round, b.board) for b in boards if b.table_id is not None}
    assert set(seats) == tables and set(seats.values()) == {1}, seats
    # Nothing said twice in any place: the tables' threads (hand results, the match end,
    # take-overs) as much as the event's channel.
    said = Counter((m.channel_id, m.text()) for m in fake.public_messages() if m.text())
    assert [k for k, n in said.items() if n > 1] == []
    assert not [r for r in fake.error_responses if r.error_code == 40060]
    assert not fake.unknown_routes


def observer(live: Live) -> TableService:
    """A table service that reads the store and never runs a table."""
    return TableService(live.store, owns=lambda guild_id: False)


async def describe(store: Store, guild: int) -> str:
    """The events' rounds and boards with their tables' states (for a failure's message)."""
    repo = TournamentRepo(store.db)
    lines = []
    for event in await repo.open_events() or [e for e in [await repo.latest(guild)] if e]:
        lines.append(f"event {event.id} {event.status} round {event.round}/{event.rounds}")
        lines += [f"  {r}" for r in await repo.rounds(event.id)]
        lines += [f"  timer {t}" for t in await repo.timers(event.id)]
        for b in await repo.boards(event.id):
            table = None if b.table_id is None else await store.tables.get(b.table_id)
            status = None if table is None else table.status
            lines.append(f"  board {b.round}.{b.board} {b.status} {b.how} table {status}")
    return "\n".join(lines)
