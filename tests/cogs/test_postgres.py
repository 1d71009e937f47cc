"""The whole bot on PostgreSQL: a match through the fake Discord, a restart, the records."""

from __future__ import annotations

from bot.settings import Settings
from bot.store import POSTGRES, Store
from tests.cogs.helpers import (
    TestBot,
    new_table,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_match_on_postgres_survives_a_restart_and_is_recorded(
    fake_discord: FakeDiscord, postgres_databases
) -> None:
    fake = fake_discord
    url = postgres_databases.create()
    settings = Settings(
        discord_token=fake.token,
        database_path=None,
        dev_guild_id=fake.guild_id,
        log_level="INFO",
        database_url=url,
        ai_processes=0,  # a quick restart: the stored forced move stays ahead of the check
    )
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, lambda: TestBot(settings)) as bot:
        assert bot.store is not None and bot.store.dialect == POSTGRES
        result, tid = await new_table(fake, bot, alice, variant="two", target=50)
        lobby = result.message
        assert lobby is not None
        await start_with_computers(fake, bot, alice, lobby)
        await play_until_over(fake, bot, tid, [alice], stop=lambda turns: turns >= 2)
        await settle(bot)
        seq = (await bot.svc.get(tid)).seq
        assert seq >= 2

    async with running_bot(fake, lambda: TestBot(settings)) as bot:  # the bot was restarted
        info = await bot.svc.get(tid)
        # Nothing acknowledged is lost; a computer or a stored forced move may already have
        # played after the restart on a slow machine.
        assert info.status == "running" and info.seq >= seq
        await play_until_over(fake, bot, tid, [alice], stop=lambda turns: turns >= 2)
        await bot.svc.resign(tid, alice.id)  # ends the match quickly; it is recorded
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "finished"

    async with await Store.open(url) as store:
        recorded = await store.db.fetchval(
            "SELECT count(*) FROM record_matches WHERE table_id = ?", (tid,)
        )
        entries = await store.db.fetchall(
            "SELECT player_id FROM record_entries WHERE table_id = ? ORDER BY player_id", (tid,)
        )
    assert recorded == 1 and 1001 in {r[0] for r in entries}
