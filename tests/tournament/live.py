"""Whole events played by real bot processes (``python -m tests.scale.runner``) against the
fake Discord, with a crowd of people who check in and click in at their tables by themselves.

The bot's clock runs :data:`TIME_SCALE` times faster than real time: a check-in of
:data:`CHECKIN` (30 minutes) lasts 6 s, the 5-minute grace 1 s, a two-minute turn timer 0.4 s.
:func:`play_event` runs a 9-person individual event or a 10-pair event of three Swiss rounds
with a no-show in round 1, a withdrawal and a late entrant (both during round 1), and a
disruption of the bot's process in the middle of round 2; :func:`play` any :class:`Plan`
(format, system, playoff) with its disruption from the start. Both then check every public
message against the store (:func:`check_posts`).

Every wait is for an event (a tripwire fired, a post made, a row stored, a process ready or
dead); only a hang fails it (:data:`tests.scale.cluster.GUARD`): a loaded machine makes a test
slow, not red.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import commands as named_commands
from bot.i18n import number as i18n_number
from bot.i18n import tr
from bot.settings import sqlite_url
from bot.store import SQLITE, Store
from bot.tables.service import TableService
from bot.tournaments.model import TableResult
from bot.tournaments.rounds import MISSED_LIMIT
from bot.tournaments.service import EventState, TournamentService
from bot.tournaments.store import BoardRow, TournamentRepo
from cogs.tournaments.cog import MEDALS
from cogs.tournaments.posts import (
    LINES_SHOWN,
    announcement,
    board_result,
    entry_name,
    knockout_lines,
    pairings_embed,
    standings_lines,
)
from tests.fakediscord import (
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RequestRecord,
    StoredMessage,
    Tripwire,
)
from tests.scale.cluster import GUARD, BotProcess, Cluster, Watch, until, watching
from tests.scale.test_kill import MESSAGE_PATH, posted
from tests.tournament.test_discord import register_pair

TIME_SCALE = 300
# Seconds: a shard stopped in a process moves this soon; its renewals (every third of it, each
# allowed a third) keep up with a busy machine's database.
LEASE_TTL = 6.0
ROUNDS = 3
PATIENCE = 1.0  # seconds a person waits for an answer before clicking again
GRACE = 30  # minutes (the most): 6 s of real time to click in at one's table on a busy machine
CHECKIN = 1800  # seconds of the bot's clock a round's check-in lasts: 6 s on a busy machine
WHOLE_TEST = 3 * GUARD  # seconds: the whole event, against a hang (with the logs)
SEAT_POST = re.compile(r"^Round (\d+), table (\d+): ")
CHECKIN_POST = re.compile(r"^Round (\d+) of (.+): check in now")
TABLE_LINE = re.compile(r"^Table \d+: ")
PLACE_LINK = re.compile(r" · (?:<#\d+>|https://discord\.com/channels/\d+/\d+/\d+)")
CHECKED_IN = "You are checked in: you will be paired."
AT_TABLE = "Thank you: you are at your table."

#: Stops the bot's process at a tripwire's instant and brings the event back on another one.
Disruption = Callable[["Live"], Awaitable[None]]
#: The instant of an event's life a disruption strikes at: its tripwire's request.
Match = Callable[[RequestRecord], bool | Awaitable[bool]]
Instant = Callable[["Live"], Match]


def url_of(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of ``backend``: a SQLite file, or a migrated PostgreSQL database."""
    if backend == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


@contextlib.asynccontextmanager
async def processes(fake: FakeDiscord, url: str, tmp_path: Path) -> AsyncIterator[Watch]:
    """Bot processes of one shard on ``url``, short leases and the fast clock; the logs
    printed when the test fails."""
    async with watching(
        fake,
        url,
        tmp_path,
        timeout=WHOLE_TEST,
        shard_count=1,
        lease_ttl=LEASE_TTL,
        env=fast_env(),
    ) as watch:
        yield watch


def fast_env() -> dict[str, str]:
    """The bot processes' environment: the fast clock, one time line for all of them, short
    clock polls and turn timers, identifies at once."""
    return {
        "TIME_SCALE": str(TIME_SCALE),
        "TIME_ORIGIN": str(time.time()),
        "CLOCK_POLL": "0.05",
        "TOURNAMENT_TURN_TIMER": "30",
        "TOURNAMENT_CHECKIN": str(CHECKIN),
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
    and, in round 1 if ``no_show`` is wanted, the no-show: the first person the first table
    post mentions who is not in ``keep`` (per round) never does. Answers to the clicks are
    kept."""

    fake: FakeDiscord
    checkers: list[FakeUser]
    absent: dict[int, set[int]] = field(default_factory=dict)
    keep: set[int] = field(default_factory=set)
    wants_no_show: bool = True
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
        seated = set(mentions(posts[0]))
        answered = {
            r.user.id
            for r in self.clicks
            if r.followups and r.name == f"tournament:here:{event_of(r.name)}:{number}"
        }
        return seated - self.absent.get(number, set()) <= answered

    def told(self, answer: str) -> list[InteractionResult]:
        """The clicks the bot answered with ``answer`` (Discord holds the answer)."""
        return [r for r in self.clicks if any(m.text() == answer for m in r.followups)]

    def _clickers(self, message: StoredMessage, cid: str) -> list[FakeUser]:
        if cid.startswith("tournament:checkin:"):
            people = list(self.checkers)
        elif cid.startswith("tournament:here:"):
            number = int(cid.rsplit(":", 1)[1])
            if number == 1 and self.wants_no_show and self.no_show is None:
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
    killed_at: float = 0.0  # real time of the last kill
    clock: tuple[float, float] = (0.0, 0.0)  # the bot's time, and the real time it was so

    def __post_init__(self) -> None:
        origin = float(self.procs.env["TIME_ORIGIN"])
        self.clock = (origin, origin)

    def now(self, at: float) -> float:
        """The bot's (fast) clock at real time ``at``."""
        then, since = self.clock
        return then + (at - since) * TIME_SCALE

    def kill(self) -> None:
        self.killed_at = time.time()
        self.current.kill()

    async def restart(self) -> None:
        """A new process on the same database (it takes the dead one's lease); its clock takes
        up where the killed one's stopped once it is ready, as for a restart of a few seconds
        in minutes of check-in and grace: the fast clock would make its start-up last many
        minutes."""
        held = self.now(self.killed_at)
        bot = await self.procs.start(
            f"bot{len(self.procs.processes) + 1}",
            "0",
            wait=False,
            extra={"CLOCK_HOLD": repr(held)},
        )
        self.current = bot  # before it makes a request: a tripwire already laid kills it
        await self.procs.wait_ready(bot)
        assert bot.released is not None
        self.clock = (held, bot.released)

    async def ended(self) -> bool:
        """The podium's post is marked in the store (the process is done with the event)."""
        repo = TournamentRepo(self.store.db)
        event = await repo.latest(self.fake.guild_id, self.fake.channel_id)
        return event is not None and "end" in await repo.posts(event.id)

    async def boards(self, number: int) -> list[BoardRow]:
        repo = TournamentRepo(self.store.db)
        event = await repo.latest(self.fake.guild_id, self.fake.channel_id)
        return [] if event is None else await repo.boards(event.id, number)


# ------------------------------------------------------------------------------ instants


def edited(r: RequestRecord) -> bool:
    """An edit of a message (a table's message as its moves are played, most of the time)."""
    found = MESSAGE_PATH.match(r.path)
    return r.method == "PATCH" and found is not None and found.group(2) is not None


def once(ready: Callable[[], bool], match: Match) -> Match:
    """The first request ``match`` accepts once ``ready()`` holds."""
    return lambda r: ready() and match(r)


def mid_play(live: Live) -> Match:
    """In round 2, once everyone came to his table: the next edit of a message (a table's
    message as a move is shown)."""
    return once(lambda: live.crowd.arrived(2), edited)


def table_result(live: Live) -> Match:
    """In round 2, once everyone came to his table: the first table's hand result, drawn on
    its table message (through a click's token or the bot's), or posted for a hand that had
    no message."""
    said = re.compile(r"^(?:/channels/\d+/messages/\d+|/webhooks/\d+/[^/]+/messages/@original)$")

    def result(r: RequestRecord) -> bool:
        if r.method != "PATCH" or not said.match(r.path) or not isinstance(r.json, dict):
            return False
        shown = str(r.json)  # a final position: the table's picture, and My tiles no more
        return "table.png" in shown and "domino:tiles:" not in shown

    hand_post = posted(lambda n: n.startswith("h."))
    return once(lambda: live.crowd.arrived(2), lambda r: result(r) or hand_post(r))


def post(key: str) -> Instant:
    """The event's post ``key`` (``checkin.2``, ``pairings.1``, ``seat.1.1``,
    ``standings.3``, ``end``: the podium)."""
    return lambda live: posted(lambda n: n.startswith("t.") and n.split(".", 2)[2:] == [key])


def mid_hand(number: int) -> Instant:
    """In round ``number``, once everyone came to his table: the next edit of a message in a
    table's thread (a move shown)."""

    def instant(live: Live) -> Match:
        def in_thread(r: RequestRecord) -> bool:
            found = MESSAGE_PATH.match(r.path)
            return edited(r) and found is not None and int(found.group(1)) != live.fake.channel_id

        return once(lambda: live.crowd.arrived(number), in_thread)

    return instant


def checked_in(number: int, count: int) -> Instant:
    """During round ``number``'s check-in: the answer "you are checked in" that makes
    ``count`` of them (the check-ins are stored, and Discord shows the answers); the round's
    pairings post if the check-in closes before (a very slow machine)."""

    def instant(live: Live) -> Match:
        pairings = posted(lambda n: n.endswith(f".pairings.{number}"))

        def paired_already() -> bool:
            # (a restarted process may have closed the check-in before this wire was set)
            return any(
                m.embeds and m.title().endswith(f": pairings of round {number}")
                for m in live.fake.public_messages()
            )

        def match(r: RequestRecord) -> bool:
            if pairings(r) or paired_already():
                live.events.append(f"round {number}'s check-in closed before {count} answers")
                return True
            if r.method != "POST" or not r.path.startswith("/webhooks/"):
                return False
            opened = [
                m.id
                for m in live.fake.public_messages()
                if (c := CHECKIN_POST.match(m.content or "")) and int(c.group(1)) == number
            ]
            click = next((c for c in live.crowd.clicks if c.token in r.path), None)
            if click is None or click.source_message_id not in opened:
                return False
            told = [c for c in live.crowd.told(CHECKED_IN) if c.source_message_id in opened]
            return len(told) >= count

        return match

    return instant


def at_table(number: int) -> Instant:
    """Within round ``number``'s grace: the first answer "you are at your table" (the arrival
    is stored, and Discord shows the answer)."""

    def instant(live: Live) -> Match:
        def match(r: RequestRecord) -> bool:
            said = r.json.get("content") if isinstance(r.json, dict) else None
            if r.method != "POST" or not r.path.startswith("/webhooks/") or said != AT_TABLE:
                return False
            click = next((c for c in live.crowd.clicks if c.token in r.path), None)
            return click is not None and (click.name or "").endswith(f":{number}")

        return match

    return instant


def last_match_over(number: int) -> Instant:
    """The match-end post of round ``number``'s last table: every move of the round is
    stored; the round is scored and the next check-in opened, or about to be."""

    def instant(live: Live) -> Match:
        async def match(r: RequestRecord) -> bool:
            if not posted(lambda n: n.startswith("m."))(r):
                return False
            boards = [b for b in await live.boards(number) if b.table_id is not None]
            tables = [await live.store.tables.get(b.table_id) for b in boards]  # type: ignore[arg-type]
            nonce = str(r.json.get("nonce"))  # type: ignore[union-attr]
            return any(nonce == f"m.{b.table_id}" for b in boards) and all(
                t is not None and t.status != "running" for t in tables
            )

        return match

    return instant


# ------------------------------------------------------------------------------ disruptions


@dataclass(frozen=True)
class Kill:
    """A SIGKILL at the first request ``instant`` accepts: ``before`` Discord applies it (it
    never happens), or after (Discord applied it; the bot never learns it)."""

    name: str
    instant: Instant
    before: bool = False


def kills(*steps: Kill) -> Disruption:
    """SIGKILL the bot's process at each step in turn; after each, a new process is started on
    the same database and takes the dead one's lease. Each step's tripwire is laid before the
    process it kills starts, so no instant is missed."""

    async def disrupt(live: Live) -> None:
        for step in steps:
            wire = live.fake.tripwire(
                step.instant(live), live.kill, before=step.before, name=step.name
            )
            if live.current.proc.returncode is not None:
                await live.restart()
            await strikes(live, wire, f"the kill {step.name}")
            await live.current.proc.wait()
            live.events.append(f"killed {live.current.name} {step.name}")
        await live.restart()

    return disrupt


def kill_at(instant: Instant) -> Disruption:
    """SIGKILL the bot's process right after Discord applied the request of ``instant`` (the
    bot never learns it was); a new process is started on the same database and takes the dead
    one's lease."""
    return kills(Kill("kill", instant))


@dataclass
class Move:
    """A second process waits for the shard; the first stops (SIGSTOP) at ``instant``, past its
    lease: the second takes the shard over and goes on. The first, woken, must post nothing
    more."""

    instant: Instant
    second: BotProcess | None = None

    async def prepare(self, live: Live) -> None:
        """The second process, started before the event: it waits for the lease."""
        self.second = await live.procs.start("bot2", "0", wait=False)
        second = self.second
        await until(
            lambda: second.ready.is_set()
            or logged(second, "connect once this process holds their lease"),
            "the second process waiting for the lease",
        )

    async def __call__(self, live: Live) -> None:
        first, second = live.current, self.second
        assert second is not None
        wire = live.fake.tripwire(
            self.instant(live),
            lambda: first.proc.send_signal(signal.SIGSTOP),
            before=False,
            name="stop",
        )
        await strikes(live, wire, "the stop")
        live.events.append(f"stopped {first.name}")
        try:
            await live.procs.wait_ready(second)
        finally:
            first.proc.send_signal(signal.SIGCONT)
        live.current = second
        await until(lambda: logged(first, "disconnected (its lease is lost)"), "lost")
        assert first.proc.returncode is None  # alive, waiting for the lease


def move_at(instant: Instant) -> Disruption:
    """The shard moves to a second process at ``instant`` (see :class:`Move`)."""
    return Move(instant)


async def strikes(live: Live, wire: Tripwire, what: str) -> None:
    """Wait for ``wire`` to fire; fail at once if the event ended first (its instant never
    came: a round that was not played, say)."""

    async def fired_or_over() -> bool:
        return wire.fired.is_set() or await live.ended()

    await until(fired_or_over, what)
    if not wire.fired.is_set():
        state = await describe(live.store, live.fake.guild_id)
        raise AssertionError(f"the event ended before {what}:\n{state}")


def logged(bot: BotProcess, text: str) -> bool:
    return bot.log.exists() and text in bot.log.read_text(errors="replace")


def event_of(custom_id: str | None) -> str:
    """The event's id in a tournament button's custom id."""
    return (custom_id or "::").split(":")[2]


async def slash(fake: FakeDiscord, user: FakeUser, command: str, **options: Any) -> str:
    result = await fake.slash(
        user, fake.channel_id, f"domino tournament {command}", options, timeout=GUARD
    )
    return result.text()


# ------------------------------------------------------------------------------ events


@dataclass(frozen=True)
class Plan:
    """An event to play: ``entrants`` people (``pairs``: pairs) of ids from ``base``, created
    with ``options`` (rounds, system, playoff …) besides name, variant, format, one hand a
    round and the longest grace."""

    name: str
    fmt: str
    variant: str
    entrants: int
    base: int
    options: dict[str, Any] = field(default_factory=dict)


async def open_event(fake: FakeDiscord, plan: Plan) -> tuple[list[FakeUser], list[FakeUser]]:
    """Create the event and register its entrants: (everyone, one checker per entrant)."""
    made = await slash(
        fake,
        fake.owner,
        "create",
        name=plan.name,
        checkin=True,
        variant=plan.variant,
        format=plan.fmt,
        hands=1,
        grace=GRACE,
        **plan.options,
    )
    assert "open for registration" in made, made
    size = plan.entrants * (2 if plan.fmt == "pairs" else 1)
    people = [
        fake.add_user(plan.base + i, f"u{plan.base + i}", f"Player {plan.base + i}")
        for i in range(size)
    ]
    if plan.fmt == "pairs":
        for i in range(0, size, 2):
            await register_pair(fake, people[i], people[i + 1], timeout=GUARD)
        return people, people[::2]
    for user in people:
        assert "registered" in await slash(fake, user, "register")
    return people, list(people)


async def run_event(
    fake: FakeDiscord,
    procs: Cluster,
    store: Store,
    name: str,
    crowd: Crowd,
    disrupt: Disruption,
    during: Callable[[Live], Awaitable[None]] | None = None,
) -> Live:
    """The host starts the event; ``during`` (once round 1 is paired) and ``disrupt`` run;
    once the podium is posted the processes are stopped (nothing can come after); then every
    public message is checked, and every check-in and arrival the bot acknowledged."""
    live = Live(fake, procs, store, procs.processes[-1], name, crowd)
    clicks = asyncio.create_task(crowd.run())
    try:
        prepare = getattr(disrupt, "prepare", None)
        if prepare is not None:  # before the event's clock runs: its start-up slows nothing
            await prepare(live)
        assert "check-in is open" in await slash(fake, fake.owner, "start")
        if during is not None:
            await until(lambda: titles(fake)[f"{name}: pairings of round 1"], "round 1")
            await during(live)
        await disrupt(live)
        await until(lambda: titles(fake)[f"{name}: the podium"], "the podium")
        await until(live.ended, "the podium's mark")
        await procs.close()
    except BaseException:
        print(procs.logs(), *crowd.answers, *live.events, await describe(store, fake.guild_id),
              sep="\n")
        raise
    finally:
        clicks.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clicks
    try:
        await check_posts(live)
        await check_told(live)
    except BaseException:
        print(*live.events, await describe(store, fake.guild_id), sep="\n")
        raise
    return live


async def play(
    fake: FakeDiscord, procs: Cluster, store: Store, plan: Plan, disrupt: Disruption
) -> Live:
    """``plan``'s event from registration to the podium, ``disrupt`` striking from the host's
    Start on, by people who check in and come to their tables (see :func:`run_event`)."""
    await procs.start("bot1", "0")
    _, checkers = await open_event(fake, plan)
    crowd = Crowd(fake, checkers, wants_no_show=False)
    return await run_event(fake, procs, store, plan.name, crowd, disrupt)


async def play_event(
    fake: FakeDiscord, procs: Cluster, store: Store, fmt: str, disrupt: Disruption
) -> None:
    """A ``fmt`` ("individual": 9 people; "pairs": 10 pairs) event of three Swiss rounds to
    the podium, ``disrupt`` striking in round 2; then every public message is checked."""
    await procs.start("bot1", "0")
    individual = fmt == "individual"
    name = "Nine" if individual else "Pairs"
    plan = Plan(name, fmt, "partners", 9 if individual else 10, 7000 if individual else 7100,
                {"rounds": ROUNDS})
    people, checkers = await open_event(fake, plan)
    extra = [fake.add_user(8000 + i, f"u{8000 + i}", f"Player {8000 + i}") for i in range(2)]
    leaver, late = (people[7], extra[0]) if individual else (people[4], extra[0])
    leaving = {leaver.id} if individual else {leaver.id, people[5].id}
    crowd = Crowd(fake, checkers, keep=leaving)

    async def during(live: Live) -> None:
        """During round 1: one entrant withdraws, one enters late (he plays from round 2)."""
        assert "withdrawn" in await slash(fake, leaver, "withdraw")
        crowd.checkers.remove(leaver)
        if individual:
            assert "from round 2" in await slash(fake, late, "register")
        else:
            await register_pair(fake, late, extra[1], timeout=GUARD)
        crowd.checkers.append(late)

    live = await run_event(fake, procs, store, name, crowd, disrupt, during)
    try:
        assert crowd.no_show is not None
        await check_event(live, fmt, no_show=crowd.no_show, leaver=leaver.id, late=late.id)
    except BaseException:
        print(await describe(store, fake.guild_id))
        raise


async def check_event(live: Live, fmt: str, *, no_show: int, leaver: int, late: int) -> None:
    """The no-show, the withdrawal and the late entrant as the store keeps them."""
    repo = TournamentRepo(live.store.db)
    event = await repo.latest(live.fake.guild_id, live.fake.channel_id)
    assert event is not None and event.rounds == ROUNDS
    entries = {e.user_id: e for e in await repo.entries(event.id)}
    assert entries[leaver].status == "withdrawn"
    assert entries[late].joined_round == 2
    boards = await repo.boards(event.id)
    # The no-show never moved at his round-1 table: at the grace a computer took his seat
    # (individual) or his pair forfeited, unless the turn timer had played his seat to the
    # table's end before (the clock runs fast). (Whoever else checked in or came to his table
    # in time was told so, and :func:`check_told` holds the store to it.)
    (first,) = [b for b in boards if b.round == 1 and no_show in b.people]
    mark = "absent:" if fmt == "individual" else "forfeit"
    assert first.table_id is not None
    info = await observer(live).get(first.table_id)
    his = {s.seat for s in info.seats if s is not None and s.user_id == no_show}
    rows = await live.store.actions.list(first.table_id)
    assert not [r for r in rows if r.seat in his and r.made_by in (None, "player")]
    assert mark in (first.how or "") or (first.how == "played" and rows), first
    assert not [b for b in boards if b.round > 1 and leaver in b.people]
    assert [b for b in boards if b.round > 1 and late in b.people]


# ------------------------------------------------------------------------------ checks


def as_of(state: EventState, number: int) -> EventState:
    """The event as it stood when round ``number`` was done (what its standings post drew)."""
    event = dataclasses.replace(state.event, round=number, status="running")
    return dataclasses.replace(
        state,
        event=event,
        rounds=tuple(r for r in state.rounds if r.number <= number),
        boards=tuple(b for b in state.boards if b.round <= number),
    )


def only(fake: FakeDiscord, title: str) -> StoredMessage:
    """The one public post of embed title ``title``."""
    found = [m for m in fake.public_messages() if m.embeds and m.title() == title]
    assert len(found) == 1, (title, len(found))
    return found[0]


def podium_lines(podium: StoredMessage) -> list[str]:
    """The podium's final standings, one line a place (under its bold heading)."""
    _, _, standings = podium.embeds[0]["description"].partition("\n\n")
    return standings.splitlines()[1:]


def mentions(message: StoredMessage) -> list[int]:
    """The people a post's first line mentions (a pairings post's seated people; its byes
    follow on a line of their own)."""
    first = (message.content or "").split("\n", 1)[0]
    return [int(u) for u in re.findall(r"<@(\d+)>", first)]


async def check_posts(live: Live) -> None:
    """The event is over, and each of its public posts was made exactly once with what the
    store says: the announcement (in its final state), each round's check-in, pairings (the
    seated people mentioned, each table linked to its place), seat posts and standings (in
    words: a knockout's or a playoff's who is still in), the podium;
    nothing said twice anywhere, no message edited from a stale nonce, no unknown route."""
    fake, store = live.fake, live.store
    events = TournamentService(store, observer(live))
    found = await events.repo.latest(fake.guild_id, fake.channel_id)
    assert found is not None and found.status == "finished", found
    state = await events.state(found.id)
    name, locale = state.event.name, state.event.locale
    numbers = [r.number for r in state.rounds]
    assert numbers == list(range(1, state.event.round + 1)), numbers
    assert all(r.status == "done" for r in state.rounds), state.rounds

    # The bot ran in another process: its command ids, as its sync made them, for the words.
    named_commands.remember([("domino", int(fake.find_command("domino", fake.guild_id)["id"]))])
    embed, view = announcement(state)
    shown = only(fake, f"Tournament: {name}")
    assert shown.embeds[0]["description"] == embed.description and view is None
    assert not shown.custom_ids()  # Register and Withdraw are gone
    checkins = Counter(
        int(m.group(1))
        for p in fake.public_messages()
        if (m := CHECKIN_POST.match(p.content or "")) and m.group(2) == name
    )
    assert checkins == Counter(numbers), checkins
    seats = Counter(
        (int(m.group(1)), int(m.group(2)))
        for p in fake.public_messages()
        if (m := SEAT_POST.match(p.content or ""))
    )
    # Each table's seat post once; none only where nobody could come in time: the bot was
    # down past the round's grace (minutes of the fast clock), and the seats were forfeited.
    tables = {(b.round, b.board): b for b in state.boards if b.table_id is not None}
    assert set(seats) <= set(tables) and set(seats.values()) <= {1}, seats
    unseen = [b for key, b in tables.items() if key not in seats]
    assert all((b.how or "").startswith("forfeit") or "absent:" in (b.how or "") for b in unseen)

    # Who missed rounds enough to be withdrawn (a busy machine's slow clicks) was withdrawn
    # when a later round was paired: the store keeps no trace of that round.
    missed_out = [e for e in state.entries if e.status == "withdrawn" and e.missed >= MISSED_LIMIT]
    for number in numbers:
        then = as_of(state, number)
        boards = then.boards_of(number)
        paired = only(fake, f"{name}: pairings of round {number}")
        # each table's line links its place: its thread, or its game message in the channel
        description = paired.embeds[0]["description"]
        table_lines = [x for x in description.splitlines() if TABLE_LINE.match(x)]
        assert len(table_lines) == len([b for b in boards if not b.is_bye]), description
        assert all(PLACE_LINK.search(x) for x in table_lines), description
        assert PLACE_LINK.sub("", description) == pairings_embed(then, number).description
        assert mentions(paired) == sorted({u for b in boards for u in b.people if u}), number
        title = f"{name}: standings after round {number}"
        after = only(fake, title)
        shown = knockout_lines if then.in_playoff(number) else standings_lines
        lines = "\n".join(shown(then, number))
        if missed_out:  # (withdrawn) as the store says now, maybe not yet after this round
            note = " " + tr(locale, "(withdrawn)")
            assert after.embeds[0]["description"].replace(note, "") == lines.replace(note, "")
        else:
            assert after.embeds[0]["description"] == lines
        results = "\n".join(board_result(locale, then, b) for b in boards)
        assert after.embeds[0]["fields"][0]["value"] == results
        assert not after.attachments, title  # words only: legible on a phone

    podium = only(fake, f"{name}: the podium")
    places = state.places()
    medals = [f"{MEDALS[p - 1]} {entry_name(state.entry(e), locale)}" for p, e in places if p <= 3]
    assert podium.embeds[0]["description"].split("\n\n")[0] == "\n".join(medals)
    lines = podium_lines(podium)
    changes = await events.rating_changes(state)
    for (place, entrant), line in zip(places[:LINES_SHOWN], lines, strict=False):
        before, gained = changes[entrant]
        assert line.startswith(f"{place}. {entry_name(state.entry(entrant), locale)}"), line
        said = f": {i18n_number(locale, round(before))} → {i18n_number(locale, round(gained))} ("
        assert said in line, (line, before, gained)
        assert "from this event)" in line, line
    winners = [u for p, e in places if p == 1 for u in state.entry(e).members]  # type: ignore[union-attr]
    assert sorted(mentions(podium)) == sorted(winners)
    assert not podium.attachments

    # Nothing said twice in any place: the tables' threads (hand results, the match end,
    # take-overs) as much as the event's channel.
    said = Counter((m.channel_id, m.text()) for m in fake.public_messages() if m.text())
    assert [k for k, n in said.items() if n > 1] == []
    assert not [r for r in fake.error_responses if r.error_code == 40060]
    assert not fake.unknown_routes


async def check_told(live: Live) -> None:
    """What the bot told a person is kept: whoever was answered "you are checked in" for a
    round was paired in it (or got its bye); whoever was answered "you are at your table"
    neither forfeited nor had his seat played by a computer for being away."""
    events = TournamentService(live.store, observer(live))
    found = await events.repo.latest(live.fake.guild_id, live.fake.channel_id)
    assert found is not None
    state = await events.state(found.id)
    entry = {u: e.entry for e in state.entries for u in e.members}
    for r in live.crowd.told(CHECKED_IN):
        source = live.fake.message(r.source_message_id or 0)
        number = int(CHECKIN_POST.match(source.content).group(1))  # type: ignore[union-attr]
        if state.boards_of(number):  # (not when the event ended for want of a pairing)
            seated = {e for b in state.boards_of(number) for side in b.sides for e in side}
            assert entry[r.user.id] in seated, (r.user.id, number)
    here: dict[int, set[int]] = {}
    for r in live.crowd.told(AT_TABLE):
        here.setdefault(int((r.name or "").rsplit(":", 1)[1]), set()).add(r.user.id)
    tables = [t for t in state.results() if isinstance(t, TableResult)]
    for number, people in here.items():
        for user in people:
            (b,) = [b for b in state.boards_of(number) if user in b.people]
            (t,) = [t for t in tables if t.round == number and list(t.sides) == list(b.sides)]
            k = 0 if entry[user] in t.sides[0] else 1
            assert entry[user] not in t.absent, (user, b)
            side = [u for u in b.people if u is not None and entry.get(u) in t.sides[k]]
            assert not t.forfeited[k] or not set(side) <= people, (user, b)


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
