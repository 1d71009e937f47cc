"""A crash and a restart of the default, one-process bot: the restarted process recognises the
lease of the process it replaces (same machine, that process gone) and plays at once, instead
of answering "the bot is moving this server's tables" until the old lease expires.

Real processes (``python -m tests.scale.runner``) with the default settings: no
``SHARD_COUNT``, leases of ``SHARD_LEASE_SECONDS`` (30 s). The first is killed with SIGKILL
right after an acknowledged move."""

from __future__ import annotations

import time
from pathlib import Path

from bot.store.leases import LeaseRepo
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, Table, open_table, play, watching

__all__ = ["fake_discord"]

DEFAULTS = {"SHARD_COUNT": "", "SHARD_IDS": "", "SHARD_LEASE_SECONDS": ""}  # none set


async def test_a_restart_after_kill_9_plays_at_once(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    user = fake.add_user(2001, "player", "Player")
    table = Table(user, fake.channel_id)
    options = {"lease_ttl": 30.0, "env": DEFAULTS}
    async with watching(fake, database_url, tmp_path, timeout=3 * GUARD, **options) as watch:
        procs, observer = watch.procs, watch.observer
        leases = LeaseRepo(watch.store.driver)
        first = await procs.start("bot1", "")
        await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
        await open_table(fake, table)
        info = await play(fake, observer, table, after_ack=lambda i: i.seq >= 2)
        (old,) = await leases.list()
        assert old.expires_at - old.acquired_at >= 29  # the default 30 s lease
        first.kill()
        await first.proc.wait()

        restarted = time.monotonic()
        await procs.start("bot2", "")
        after = await play(fake, observer, table, after_ack=lambda i: i.seq > info.seq)
        took = time.monotonic() - restarted
        print(f"restart to the first acknowledged move: {took:.2f} s")
        assert table.refused == [], table.refused  # never "moving tables"
        assert after.seq > info.seq
        (new,) = await leases.list()
        assert new.epoch == old.epoch + 1 and new.owner != old.owner
        assert new.acquired_at < old.expires_at  # taken, not waited for
    assert not fake.unknown_routes
