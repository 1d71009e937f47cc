"""``/domino server-settings web:on``: off by default, turned on and off by managers only, and
the server's page linked once the bot knows the pages' address."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import discord

from bot.store.table_extras import GuildSettingsRepo
from tests.cogs.helpers import TestBot, answer, settings_for
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


async def test_web_pages_are_off_until_a_manager_turns_them_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    settings = dataclasses.replace(
        settings_for(fake, tmp_path / "db.sqlite3"), web_base_url="https://domino.example.org"
    )
    async with running_bot(fake, lambda: TestBot(settings)) as bot:
        repo = GuildSettingsRepo(bot.svc.store.db)
        shown = await fake.slash(boss, fake.channel_id, "domino server-settings", {})
        assert "Web pages" in shown.text() and "off" in shown.text()
        assert (await repo.get(fake.guild_id)).web is None

        refused = await fake.slash(alice, fake.channel_id, "domino server-settings", {"web": "on"})
        assert "Only members who can manage the server" in await answer(refused)
        assert (await repo.get(fake.guild_id)).web is None

        on = await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "on"})
        assert f"on: https://domino.example.org/s/{fake.guild_id}" in on.text()
        stored = await repo.get(fake.guild_id)
        assert stored.web is True and stored.web_name == fake.guild.name

        off = await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "off"})
        assert "https://" not in off.text()
        assert (await repo.get(fake.guild_id)).web is None
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "on"})
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"reset": "all"})
        assert (await repo.get(fake.guild_id)).web is None
