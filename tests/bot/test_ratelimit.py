"""The bot's global limit (``bot/ratelimit``): a budget below Discord's, shared by every
process through PostgreSQL, handed out by priority; against the fake Discord enforcing
Discord's limits with discord.py's own requests.

Discord's documentation (Rate Limits): "All bots can make up to 50 requests per second to our
API", for the whole application; "Interaction endpoints are not bound to the bot's Global Rate
Limit". Our decision (docs/scaling.md): the answer to a click never waits, a game message a
player waits for goes before a ping, a ping before everything else.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.ratelimit import HORIZON, Limiter, LocalBudget, Priority, SharedBudget, priority_of
from bot.settings import sqlite_url
from bot.store import Store
from bot.store.budget import BudgetRepo
from bot.traffic import Traffic, purpose
from tests.fakediscord import FakeDiscord, RateLimits, running_bot
from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# -------------------------------------------------------------------------------- the budget


async def test_a_local_budget_spaces_its_slots_and_keeps_low_priorities_close() -> None:
    clock = Clock()
    budget = LocalBudget(clock)
    first = await budget.reserve(3, 0.1, 2.0)
    assert (first.slots, first.wait) == (3, 0.0)
    second = await budget.reserve(50, 0.1, 2.0)  # up to 2 s ahead: slots 0.3 .. 2.0
    assert second.slots == 18 and second.wait == pytest.approx(0.3)
    refused = await budget.reserve(1, 0.1, 0.25)  # booked 2.1 s ahead: not within 0.25 s
    assert refused.slots == 0 and refused.wait == pytest.approx(2.1 - 0.25)
    clock.now += refused.wait
    assert (await budget.reserve(1, 0.1, 0.25)).slots == 1


def test_the_priority_of_a_request_follows_its_kind_and_purpose() -> None:
    callback = "/api/v10/interactions/1/tok/callback"
    webhook = "/api/v10/webhooks/2/tok/messages/@original"
    edit = "/api/v10/channels/3/messages/4"
    assert priority_of(callback) is priority_of(webhook) is Priority.CLICK
    assert priority_of(edit) is Priority.OTHER
    with purpose("game"):
        assert priority_of(edit) is Priority.WAITING
        assert priority_of(callback) is Priority.CLICK
    with purpose("ping"):
        assert priority_of(edit) is Priority.PING
    with purpose("post"):
        assert priority_of(edit) is Priority.OTHER


async def test_slots_go_to_the_best_request_waiting() -> None:
    limiter = Limiter(50)
    order: list[str] = []

    async def ask(name: str, level: Priority) -> None:
        await limiter.acquire(level)
        order.append(name)

    try:
        await asyncio.gather(
            *(ask(f"board{n}", Priority.OTHER) for n in range(6)),
            *(ask(f"ping{n}", Priority.PING) for n in range(3)),
            *(ask(f"game{n}", Priority.WAITING) for n in range(3)),
            ask("click", Priority.CLICK),
        )
    finally:
        await limiter.aclose()
    assert order[0] == "click"  # never waits
    assert order[1:4] == ["game0", "game1", "game2"]
    assert order[4:7] == ["ping0", "ping1", "ping2"]
    assert order[7:] == [f"board{n}" for n in range(6)]


# --------------------------------------------------------------- against the fake Discord


async def twice_the_budget(
    fake: FakeDiscord, traffic: Traffic, limiter: Limiter | None
) -> tuple[list[discord.Message], RateLimits]:
    """Discord's limit 10/s, the bot's budget 6/s: 12 requests a second asked for 3 s, to 12
    channels (each under its route's limit)."""
    channels = [fake.add_channel(f"c{n}").id for n in range(12)]
    limits = RateLimits(global_limit=10, route_limit=5, route_per=5.0)
    trace = traffic.trace() if limiter is None else limiter.trace(traffic.trace())
    make = lambda: discord.Client(intents=discord.Intents.default(), http_trace=trace)  # noqa: E731
    async with running_bot(fake, make) as client:
        fake.rate_limits = limits

        async def send(n: int) -> discord.Message:
            await asyncio.sleep(n / 12)
            return await client.get_partial_messageable(channels[n % 12]).send(f"m{n}")

        sent = await asyncio.gather(*(send(n) for n in range(36)))
        fake.rate_limits = None
    if limiter is not None:
        await limiter.aclose()
    return sent, limits


async def test_twice_the_budget_gets_no_global_429_and_loses_nothing(
    fake_discord: FakeDiscord,
) -> None:
    traffic, limiter = Traffic(), Limiter(6)
    sent, limits = await twice_the_budget(fake_discord, traffic, limiter)
    assert sorted(m.content for m in sent) == sorted(f"m{n}" for n in range(36))
    assert "global" not in limits.refused
    assert traffic.rate_limited() == len(limits.refused)
    assert limiter.served[Priority.OTHER] >= 36


async def test_without_the_limiter_the_same_demand_meets_global_429s(
    fake_discord: FakeDiscord,
) -> None:
    """The check above can fail: the same demand, unlimited, is refused by the fake."""
    _sent, limits = await twice_the_budget(fake_discord, Traffic(), None)
    assert "global" in limits.refused


async def test_a_request_held_up_between_its_slot_and_its_write_waits_for_another_slot(
    fake_discord: FakeDiscord,
) -> None:
    """Discord counts a request when it arrives: five posts whose connection took 0.8 s to
    open after their slots would arrive among the next second's. Our decision
    (docs/scaling.md): a request written more than ``LATE`` after its slot waits for another
    one, so no second gets more than ``rate × (1 + LATE) + 1``."""
    fake = fake_discord
    channels = [fake.add_channel(f"c{n}").id for n in range(24)]
    limits = RateLimits(global_limit=12, route_limit=100)  # the budget 10/s: 11.5 at most
    traffic, limiter = Traffic(), Limiter(10)
    trace = limiter.trace(traffic.trace())
    held: list[str] = []

    async def hold(_session: Any, _context: Any, params: Any) -> None:  # after the slot
        if fake.rate_limits is not None and params.method == "POST" and len(held) < 5:
            held.append(params.url.path)
            await asyncio.sleep(0.8)

    trace.on_request_start.append(hold)
    make = lambda: discord.Client(intents=discord.Intents.default(), http_trace=trace)  # noqa: E731
    async with running_bot(fake, make) as client:
        fake.rate_limits = limits
        sent = await asyncio.gather(
            *(client.get_partial_messageable(c).send(f"m{n}") for n, c in enumerate(channels))
        )
        fake.rate_limits = None
    await limiter.aclose()
    assert "global" not in limits.refused, limits.refused
    assert sorted(m.content for m in sent) == sorted(f"m{n}" for n in range(24))
    assert len(held) == 5 and limiter.resent >= 5


async def test_slots_of_an_answer_held_up_are_not_moved_later() -> None:
    """A reservation answered late (a busy database, a stalled process) keeps its slots at
    the budget's times: moved later by the delay they would meet the next reservation's."""

    class HeldBudget(LocalBudget):
        answers = 0

        async def reserve(self, count: int, interval: float, horizon: float) -> Any:
            grant = await super().reserve(count, interval, horizon)
            self.answers += bool(grant.slots)
            if grant.slots and self.answers % 2 == 0:
                await asyncio.sleep(0.3)
            return grant

    limiter = Limiter(10, HeldBudget())
    slots = await asyncio.gather(*(limiter.acquire(Priority.OTHER) for _ in range(20)))
    await limiter.aclose()
    times = sorted(t for t in slots if t is not None)
    assert len(times) == 20
    assert min(b - a for a, b in itertools.pairwise(times)) >= 0.1 - 1e-3
    assert limiter.late > 0  # the held answers' slots had passed: not used


async def test_a_game_message_and_a_click_go_before_the_boards_queued_earlier(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    channels = [fake.add_channel(f"c{n}").id for n in range(10)]
    traffic = Traffic()
    limiter = Limiter(5)
    order: list[str] = []
    trace = limiter.trace(traffic.trace())
    make = lambda: discord.Client(intents=discord.Intents.default(), http_trace=trace)  # noqa: E731
    async with running_bot(fake, make) as client:
        game = await client.get_partial_messageable(fake.channel_id).send("game, hand 1")
        fake.rate_limits = RateLimits(global_limit=10, route_limit=100, route_per=1.0)

        async def board(n: int) -> None:
            await client.get_partial_messageable(channels[n]).send(f"board {n}")
            order.append(f"board {n}")

        async def edit() -> None:
            with purpose("game"):
                await game.edit(content="game, move 2")
            order.append("game")

        async def ping() -> None:
            with purpose("ping"):
                await client.get_partial_messageable(channels[0]).send("your turn")
            order.append("ping")

        boards = [asyncio.ensure_future(board(n)) for n in range(10)]
        await until(lambda: limiter.waiting() >= 8)  # the boards queue behind the budget
        later = [asyncio.ensure_future(ping()), asyncio.ensure_future(edit())]
        await until(lambda: limiter.waiting(Priority.WAITING) == 1)
        async with aiohttp.ClientSession(trace_configs=[limiter.trace(aiohttp.TraceConfig())]) as s:
            url = f"{fake.api_base}/interactions/1/unknown/callback"
            async with s.post(url, json={"type": 1}) as answer:  # a click's answer: not queued
                order.append("click")
                assert answer.status != 429
        await asyncio.gather(*boards, *later)
        fake.rate_limits = None
    await limiter.aclose()
    assert order[0] == "click"
    assert order.index("game") < order.index("ping") < order.index("board 9")
    boards_before_game = order.index("game") - 1
    assert boards_before_game < 5, order  # queued after 8 boards, served before most of them
    assert fake.message(game.id).content == "game, move 2"


async def until(ready: Any) -> None:
    while not ready():
        await asyncio.sleep(0.01)


# ----------------------------------------------------------------- shared through the database


@pytest.fixture
async def two_stores(database_url: str) -> Any:
    """Two processes' stores of one database (SQLite: several processes of one machine)."""
    stores = [await Store.open(database_url), await Store.open(database_url)]
    yield stores
    for store in stores:
        await store.close()


async def test_two_budgets_on_one_database_never_book_the_same_time(two_stores: Any) -> None:
    """Two processes' reservations race on the one row: the slots they get are consecutive
    and never overlap, on the database's clock."""
    repos = [BudgetRepo(store.driver) for store in two_stores]
    interval = 0.01
    grants = await asyncio.gather(
        *(repos[n % 2].reserve("global", 3, interval, 10.0) for n in range(40))
    )
    spans = sorted((g.at, g.at + g.slots * interval) for g in grants)
    assert sum(g.slots for g in grants) == 120
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert start >= end - 1e-9


async def test_a_low_priority_process_waits_while_another_books_ahead(two_stores: Any) -> None:
    """Process A has game messages waiting (booked up to 2 s ahead); process B's boards are
    refused until A's backlog is under the boards' horizon."""
    a = Limiter(20, SharedBudget(BudgetRepo(two_stores[0].driver)))
    b = Limiter(20, SharedBudget(BudgetRepo(two_stores[1].driver)))
    order: list[str] = []

    async def ask(limiter: Limiter, name: str, level: Priority) -> None:
        await limiter.acquire(level)
        order.append(name)

    try:
        games = [asyncio.ensure_future(ask(a, f"game{n}", Priority.WAITING)) for n in range(30)]
        await until(lambda: a.served[Priority.WAITING] >= 1)
        boards = [asyncio.ensure_future(ask(b, f"board{n}", Priority.OTHER)) for n in range(5)]
        await asyncio.gather(*games, *boards)
    finally:
        await a.aclose()
        await b.aclose()
    first_board = min(order.index(f"board{n}") for n in range(5))
    booked_ahead = int(20 * (2.0 - HORIZON[Priority.OTHER]))
    assert first_board >= min(30, booked_ahead) - 10, order


async def test_a_process_that_loses_the_database_keeps_to_its_share(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Our decision: while the shared budget is out of reach (here: its connection closed),
    a process holding half the shards books half the rate by itself (slots two intervals
    apart)."""
    store = await Store.open(sqlite_url(tmp_path / "bot.sqlite3"))
    budget = SharedBudget(BudgetRepo(store.driver), share=lambda: 0.5)
    assert (await budget.reserve(1, 0.1, 1.0)).slots == 1 and not budget.down
    await store.close()
    grant = await budget.reserve(5, 0.1, 1.0)
    assert budget.down and "out of reach" in caplog.text
    assert grant.slots == 5 and grant.wait == 0.0
    again = await budget.reserve(1, 0.1, 1.0)
    assert again.slots == 1 and again.wait == pytest.approx(1.0, abs=0.05)  # 5 slots of 0.2 s
