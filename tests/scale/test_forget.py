"""``/domino forget-me`` with two real bot processes on one PostgreSQL, each holding one shard:
the person's match on the other process's server is resigned there, and nothing of him stays
in the database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.tables.service import TableService
from tests.bot.test_records_privacy import occurrences
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, Table, cluster, open_table

__all__ = ["fake_discord"]

ALICE = 187654321098765432  # a real-looking id: no other figure of the database contains it
WHOLE_TEST = 3 * GUARD  # seconds: against a hang (with the processes' logs)


@pytest.fixture
def pg_url(postgres_databases: Any) -> str:
    return str(postgres_databases.migrated())


async def test_forget_me_ends_the_match_another_process_runs(
    fake_discord: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [fake.add_channel("play", guild_id=g.id).id for g in guilds]
    alice = fake.add_user(ALICE, "alice_account", "Alicia Global", guild_id=guilds[0].id)
    fake._add_member(guilds[1], alice, DEFAULT_MEMBER_PERMISSIONS)
    tables = [Table(alice, channel) for channel in channels]
    store = await Store.open(pg_url)
    observer = TableService(store, owns=lambda guild_id: False)  # reads, never runs a table
    async with cluster(fake, pg_url, tmp_path, env={"NEW_TABLE_COOLDOWN": "0"}) as procs:
        try:
            async with asyncio.timeout(WHOLE_TEST):
                await asyncio.gather(procs.start("p0", "0"), procs.start("p1", "1"))
                await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
                for table in tables:  # a match against a computer on each process's server
                    await open_table(fake, table)
                assert {(await observer.get(t.id)).status for t in tables} == {"running"}

                # Asked on shard 0's server: warned of both matches, answered once both ended.
                asked = await fake.slash(alice, channels[0], "domino forget-me", {}, timeout=GUARD)
                assert asked.message is not None
                assert "You are playing in 2 running matches" in asked.message.text()
                yes = next(c for c in asked.message.custom_ids() if ":yes:" in c)
                done = await fake.click(alice, asked.message, yes, timeout=GUARD)
                await done.wait_for_edits(1, timeout=GUARD)
                assert asked.message.content == (
                    "Done: your name and figures are deleted from the records."
                )
                for table in tables:
                    assert (await observer.get(table.id)).status == "finished"
                left = await occurrences(store, ["alice_account", "Alicia Global"], alice.id)
                assert left == []
        except BaseException:
            print(procs.logs())
            raise
        finally:
            await store.close()
    assert not fake.unknown_routes
