"""The bot's global budget with real bot processes (``python -m tests.scale.runner``) against a
fake Discord that enforces Discord's limits (``RateLimits``: a global limit of 10 requests a
second here, and the per-route limits).

Each run asks twice the bot's budget (``DISCORD_RATE_LIMIT=6``): 12 board posts a second for
8 s, from one process (SQLite: the process's own budget) or from two processes sharing one
PostgreSQL (6 a second each: without sharing the budget, together 12 a second against
Discord's 10), while a person plays a whole match in each process's server. Discord's
documentation (Rate Limits): "All bots can make up to 50 requests per second to our API"
(here 10), for the whole application; Our decision: every process keeps to its share of one
budget below that (docs/scaling.md).

Discord counts requests as they reach its own machines; here the fake Discord shares the
bot's CPU, and a fake held up by the bot processes would count a second's requests late and
together. The bot processes therefore run at a lower scheduling priority than the fake, and
no other test runs meanwhile (``alone``: with two test processes, another test's work beside
it made the fake count two seconds' requests as one, twice in a whole run).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.settings import sqlite_url
from tests.fakediscord import FakeDiscord, RateLimits
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, Table, check_table, open_table, play, until, watching

__all__ = ["fake_discord"]

WHOLE_TEST = 3 * GUARD  # seconds: against a hang (with the processes' logs)
BUDGET = 6  # the bot's requests a second (DISCORD_RATE_LIMIT)
DISCORD = 10  # Discord's global limit in this fake
DEMAND, SECONDS = 2 * BUDGET, 8  # board posts a second, all processes together, for so long
BOT_NICE = 10  # the bot processes' lowered priority, beside the fake Discord
CHANNELS = 8  # per server: each under its per-route limit (5 posts per 5 s)


@pytest.mark.alone  # the fake Discord counts a second's requests as they reach it
@pytest.mark.parametrize("processes", [1, 2])
async def test_twice_the_budget_gets_no_global_429_and_every_table_converges(
    fake_discord: FakeDiscord, postgres_databases: Any, tmp_path: Path, processes: int
) -> None:
    fake = fake_discord
    url = sqlite_url(tmp_path / "bot.sqlite3") if processes == 1 else postgres_databases.migrated()
    guilds = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    plays = [fake.add_channel("play", guild_id=g.id) for g in guilds]
    boards = [
        [fake.add_channel(f"board{n}", guild_id=g.id).id for n in range(CHANNELS)] for g in guilds
    ]
    users = [
        fake.add_user(2001 + n, f"player{n}", f"Player {n}", guild_id=g.id)
        for n, g in enumerate(guilds)
    ]
    tables = [Table(u, c.id) for u, c in zip(users, plays, strict=True)]
    limits = fake.rate_limits = RateLimits(global_limit=DISCORD)
    shards = ["0-1"] if processes == 1 else ["0", "1"]
    posts = round(DEMAND / processes * SECONDS)

    def load(n: int) -> dict[str, str]:
        channels = boards[0] + boards[1] if processes == 1 else boards[n]
        return {
            "DISCORD_RATE_LIMIT": str(BUDGET),
            "LOAD_RATE": str(DEMAND / processes),
            "LOAD_SECONDS": str(SECONDS),
            "LOAD_CHANNELS": ",".join(map(str, channels)),
            "LOAD_NAME": f"p{n}",
        }

    async with watching(fake, url, tmp_path, timeout=WHOLE_TEST) as watch:
        procs = await asyncio.gather(
            *(
                watch.procs.start(f"p{n}", ids, extra=load(n), nice=BOT_NICE)
                for n, ids in enumerate(shards)
            )
        )
        await asyncio.gather(*(open_table(fake, t) for t in tables))
        await asyncio.gather(*(play(fake, watch.observer, t) for t in tables))
        for proc in procs:
            await proc.loaded.wait()
        for table in tables:
            await until(
                lambda t=table: announced(watch.store, t), f"table {table.id}'s end published"
            )
            await check_table(fake, watch.store, table)
            # The messages caught up with the table: every hand's result said and the end
            # posted (on each hand's game message; hands that began and ended while the feed
            # waited for its slots have no game message of their own: a result post shows them).
            feed = await watch.store.feeds.get(table.id)
            view = (await watch.observer.get(table.id)).public_view()
            assert view is not None and feed.hands_announced == len(view.hand_results)
        fake.rate_limits = None
    assert "global" not in limits.refused, limits.refused
    # Nothing lost: every board post went, once.
    sent = [m.content for c in boards[0] + boards[1] for m in fake.messages(c)]
    for n in range(processes):
        assert sorted(c for c in sent if c.startswith(f"load p{n} ")) == sorted(
            f"load p{n} {i}" for i in range(posts)
        )
    assert not fake.unknown_routes


async def announced(store: Any, table: Table) -> bool:
    return bool((await store.feeds.get(table.id)).match_announced)
