"""A SIGKILL of a real bot process at the instant it posts a season's champions: the next
process on the same database posts them, and the month's board, exactly once.

On SQLite and on PostgreSQL, the bot runs as an OS process (``python -m tests.scale.runner``)
against the fake Discord. Its clock starts two seconds before 1 January 2027 00:00 UTC, the
end of a month and of the season October-December 2026; the server's board channel was
chosen before. The fake Discord applies the season's post and kills the process before it
hears back (nothing is marked in the store); a second process, its clock after the instant,
takes the shard and posts what is owed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import Counter
from pathlib import Path

from bot.records.boards import PeriodBoards
from bot.records.periods_store import PeriodRepo
from bot.records.service import Records
from bot.store import Store
from tests.bot.test_records_support import hand, human, make_record
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, cluster, until
from tests.scale.test_kill import posted

__all__ = ["fake_discord"]

END = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()  # a month's and a season's end


def _titles(fake: FakeDiscord, channel_id: int) -> Counter[str]:
    return Counter(
        m.embeds[0].get("title", "")
        for m in fake.public_messages()
        if m.channel_id == channel_id and m.embeds
    )


async def _prepare(url: str, guild_id: int, channel_id: int) -> None:
    """A match of the season on the server, and its board channel, due at :data:`END`."""
    store = await Store.open(url)
    try:
        await Records(store).record_match(
            make_record(
                1, "draw", [human(1001, "Ana"), human(1002, "Beto")],
                [hand(1, "domino", 0, 0, [40, 0])], winner_side=0, guild_id=guild_id,
                started_at=END - 86_400, finished_at=END - 86_000,
            )
        )
        boards = PeriodBoards(store, clock=lambda: END - 60)
        chosen = await boards.set_channel(guild_id, channel_id, by=1)
        assert chosen.due_at == END
    finally:
        await store.close()


async def _marked(url: str, guild_id: int, key: str) -> bool:
    store = await Store.open(url)
    try:
        return await PeriodRepo(store.db).posted(guild_id, key)
    finally:
        await store.close()


async def test_kill_at_the_season_post(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    fake = fake_discord
    url = database_url
    channel = fake.add_channel("boards")
    g = fake.guild_id
    await _prepare(url, g, channel.id)
    nonce = f"b.{g}.season:2026-10"
    async with cluster(
        fake, url, tmp_path, shard_count=1, lease_ttl=1.0, env={"CLOCK_START": str(END - 2)}
    ) as procs:
        first = await procs.start("bot1", "0", wait=False)
        wire = fake.tripwire(posted(lambda n: n == nonce), first.kill, before=False, name="season")
        await until(wire.fired.is_set, "the season's post")
        async with asyncio.timeout(GUARD):
            await first.proc.wait()
        assert first.proc.returncode == -9
        titles = _titles(fake, channel.id)
        assert titles["Season 4 is over: the champions"] == 1, procs.logs()
        assert not await _marked(url, g, "season:2026-10")  # the process never heard back
        procs.env["CLOCK_START"] = str(END + 30)
        await procs.start("bot2", "0", wait=False)
        try:
            await until(lambda: _marked(url, g, "season:2026-10"), "the season marked posted")
        except AssertionError:
            print(procs.logs())
            raise
        await procs.close()  # whatever it would post twice is posted by the time it ended
        titles = _titles(fake, channel.id)
        assert titles["Season 4 is over: the champions"] == 1
        assert titles["Last month's best: All variants, this server"] == 1
        announcement = next(
            m for m in fake.public_messages()
            if m.channel_id == channel.id and m.embeds[0]["title"].startswith("Season 4")
        )
        assert "🥇 **Ana**" in announcement.embeds[0]["fields"][0]["value"]
