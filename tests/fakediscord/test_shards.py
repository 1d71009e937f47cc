"""The fake gateway honours IDENTIFY's ``shard``: each guild's events reach only its shard."""

from __future__ import annotations

import discord

from tests.fakediscord import FakeDiscord, running_bot


class Client(discord.AutoShardedClient):
    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(intents=discord.Intents.default(), shard_count=2, shard_ids=shard_ids)
        self.renamed: list[int] = []

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        self.renamed.append(after.id)


async def test_each_guild_reaches_only_its_shard(fake_discord: FakeDiscord) -> None:
    """Discord's rule: a guild's shard is (guild_id >> 22) % shard_count; READY, GUILD_CREATE
    and every later event of a guild go to that shard's session only."""
    fake = fake_discord
    g0 = fake.add_guild("zero", shard=(0, 2))
    g1 = fake.add_guild("one", shard=(1, 2))
    assert (g0.id >> 22) % 2 == 0 and (g1.id >> 22) % 2 == 1
    async with (
        running_bot(fake, lambda: Client([0])) as a,
        running_bot(fake, lambda: Client([1])) as b,
    ):
        assert {g.id for g in a.guilds} == set(fake.guilds_of([0], 2))
        assert {g.id for g in b.guilds} == set(fake.guilds_of([1], 2))
        assert not {g.id for g in a.guilds} & {g.id for g in b.guilds}
        assert [s.shard for s in fake.shard_sessions(1)] == [(1, 2)]
        for guild in (g0, g1):
            payload = fake.guild_payload(guild) | {"name": f"{guild.name}!"}
            await fake.dispatch("GUILD_UPDATE", payload)
        await fake.wait_for(lambda: a.renamed and b.renamed)
        assert a.renamed == [g0.id] and b.renamed == [g1.id]
