"""Only the holder of a shard's lease answers that shard's players: a second process started
with the same ``SHARD_IDS`` stays off the gateway until it gets the lease, and a process paused
(SIGSTOP) past its lease, then woken (SIGCONT), answers nothing more and leaves the gateway.
Players never see two bots: no click refused as "moving tables", none answered twice (40060).

Real processes (``python -m tests.scale.runner``) on one PostgreSQL, the fake Discord's
gateway sending each interaction to every session of the shard, as Discord does."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from bot.store.leases import LeaseRepo
from bot.tables.service import TableService
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, BotProcess, Table, open_table, play, until, watching

__all__ = ["fake_discord"]

# Seconds: the first's renewals (every third of it, each allowed a third) keep up with a busy
# machine's database, so the lease moves only when the first is paused.
TTL = 6.0


@pytest.fixture
def pg_url(postgres_databases: Any) -> str:
    return str(postgres_databases.migrated())


async def logged(bot: BotProcess, text: str) -> None:
    await until(
        lambda: bot.log.exists() and text in bot.log.read_text(errors="replace"),
        f"{bot.name}'s log: {text}",
    )


def answered_twice(fake: FakeDiscord) -> list[str]:
    return [f"{r.method} {r.path}" for r in fake.error_responses if r.error_code == 40060]


async def test_only_the_lease_holder_answers(
    fake_discord: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    table = Table(fake.add_user(2001, "player", "Player"), fake.channel_id)
    options = {"shard_count": 1, "lease_ttl": TTL}
    async with watching(fake, pg_url, tmp_path, timeout=3 * GUARD, **options) as watch:
        leases = LeaseRepo(watch.store.driver)
        await scenario(fake, watch.procs, watch.observer, leases, table)
    assert not fake.unknown_routes


async def scenario(
    fake: FakeDiscord, procs: Any, observer: TableService, leases: LeaseRepo, table: Table
) -> None:
    first = await procs.start("first", "0")
    await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
    # The same SHARD_IDS by mistake: the second waits for the lease, off the gateway.
    second = await procs.start("second", "0", wait=False)
    await logged(second, "are run by another process")
    await logged(second, "connect once this process holds their lease")  # its start is over
    assert len(fake.shard_sessions(0)) == 1 and not second.ready.is_set()

    await open_table(fake, table)
    info = await play(fake, observer, table, until=lambda i: i.seq >= 8)
    assert table.refused == [] and answered_twice(fake) == []
    (lease,) = await leases.list()
    assert lease.epoch == 1

    # The first is paused past its lease: the second takes the shard and connects.
    first.proc.send_signal(signal.SIGSTOP)
    try:
        await procs.wait_ready(second)
    finally:
        first.proc.send_signal(signal.SIGCONT)
    (lease,) = await leases.list()
    assert lease.epoch == 2
    # Woken, the first answers nothing (its backlog and every new click are left to the
    # second) and leaves the gateway.
    await play(fake, observer, table, until=lambda i: i.seq >= info.seq + 8)
    await fake.wait_for(lambda: len(fake.shard_sessions(0)) == 1, timeout=GUARD)
    assert table.refused == [], table.refused
    assert answered_twice(fake) == []
    await logged(first, "disconnected (its lease is lost)")
    assert first.proc.returncode is None  # alive, waiting for the lease
