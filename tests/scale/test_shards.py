"""Sharded bot processes against one PostgreSQL and the fake Discord.

Real OS processes (``python -m tests.scale.runner``): ``SHARD_COUNT=2`` with ``SHARD_IDS=0`` and
``1``. Each process gets only its shard's guilds from the fake gateway and runs only their
tables; a process killed with SIGKILL mid-hand is started again (or replaced by another
process) and its tables go on from the store once its lease has expired.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.store.leases import LeaseRepo
from bot.tables.service import TableService
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import (
    GUARD,
    Cluster,
    Table,
    check_table,
    cluster,
    open_table,
    play,
    until,
)

__all__ = ["fake_discord"]

WHOLE_TEST = 3 * GUARD  # seconds: against a hang (with the processes' logs)


# --------------------------------------------------------------------------------- test


@pytest.fixture
def pg_url(postgres_databases: Any) -> str:
    return str(postgres_databases.migrated())


async def test_two_processes_share_the_tables_and_survive_a_kill(
    fake_discord: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [fake.add_channel("play", guild_id=g.id) for g in guilds]
    users = [
        fake.add_user(2001 + n, f"player{n}", f"Player {n}", guild_id=g.id)
        for n, g in enumerate(guilds)
    ]
    tables = [Table(u, c.id) for u, c in zip(users, channels, strict=True)]
    store = await Store.open(pg_url)
    observer = TableService(store, owns=lambda guild_id: False)  # reads, never runs a table
    async with cluster(fake, pg_url, tmp_path) as procs:
        try:
            async with asyncio.timeout(WHOLE_TEST):  # a hang fails with the processes' logs
                await scenario(fake, procs, observer, store, tables)
        except BaseException:
            print(procs.logs())
            raise
        finally:
            await store.close()
    assert not fake.unknown_routes


async def announced(store: Store, table: Table) -> bool:
    """The match end of ``table`` is marked published (its hands' results were before)."""
    return (await store.feeds.get(table.id)).match_announced


async def scenario(
    fake: FakeDiscord, procs: Cluster, observer: TableService, store: Store, tables: list[Table]
) -> None:
    """Both shards play; shard 1's process is killed twice: restarted, then replaced."""
    leases = LeaseRepo(store.driver)
    p0, p1 = await asyncio.gather(procs.start("p0", "0"), procs.start("p1", "1"))
    await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
    # Each process got only the guilds of its shard.
    for shard in (0, 1):
        (session,) = fake.shard_sessions(shard)
        got = [int(d["id"]) for e, d in session.events if e == "GUILD_CREATE"]
        assert got == fake.guilds_of([shard], 2)

    # Tables in both shards play at once.
    await asyncio.gather(*(open_table(fake, t) for t in tables))
    t0, t1 = tables
    await asyncio.gather(*(play(fake, observer, t, until=lambda i: i.seq >= 6) for t in tables))
    assert {r.shard_id: r.owner for r in await leases.list()}.keys() == {0, 1}

    # SIGKILL the process of shard 1 right after an acknowledged move, mid-hand.
    info1 = await play(fake, observer, t1, after_ack=lambda i: i.seq > 8)
    assert info1.status == "running"
    held = {r.shard_id: r for r in await leases.list()}[1]
    p1.kill()
    await p1.proc.wait()
    seq0 = (await observer.get(t0.id)).seq
    # Shard 0's table plays on meanwhile.
    p1b = await procs.start("p1-restarted", "1", wait=False)
    await play(fake, observer, t0, until=lambda i: i.seq >= seq0 + 6)
    await procs.wait_ready(p1b)
    # The restarted process takes the dead one's lease (at once when it can prove that process
    # dead, as here on one machine; else once it expires), then resumes its table.
    info1 = await play(fake, observer, t1, until=lambda i: i.seq >= info1.seq + 4)
    lease = {r.shard_id: r for r in await leases.list()}[1]
    assert lease.epoch == 2 and lease.owner != held.owner

    # A takeover: shard 1's process dies again; a third process is given shard 1.
    await play(fake, observer, t1, after_ack=lambda i: i.seq > info1.seq)
    held = {r.shard_id: r for r in await leases.list()}[1]
    p1b.kill()
    await p1b.proc.wait()
    await procs.start("p2", "1")
    await asyncio.gather(*(play(fake, observer, t) for t in tables))
    lease = {r.shard_id: r for r in await leases.list()}[1]
    assert lease.epoch == 3 and lease.owner != held.owner
    for table in tables:
        assert (await observer.get(table.id)).status == "finished"
    # Once the feeds published the ends, check everything.
    for table in tables:
        await until(lambda t=table: announced(store, t), f"table {table.id}'s end published")
        await check_table(fake, store, table)
    # A clean stop (SIGTERM) gives the lease up at once.
    await p0.stop()
    assert p0.proc.returncode == 0
    lease0 = {r.shard_id: r for r in await leases.list()}[0]
    assert lease0.expires_at < await leases.now()
