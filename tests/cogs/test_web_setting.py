"""``/domino server-settings web:on``: off by default, turned on and off by managers only, and
the server's page linked once the bot knows the pages' address."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import discord

from bot.store.table_extras import GuildSettingsRepo
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    game_message,
    settings_for,
    settle,
    table_id_of,
)
from tests.cogs.test_match_end import match_end, resign
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS, StoredMessage
from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]

VIEW = discord.Permissions(view_channel=True).value
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


def links_of(message: StoredMessage) -> list[str]:
    """The addresses of the link buttons of ``message``."""
    return [c["url"] for c in message.all_components() if c.get("type") == 2 and c.get("url")]


async def test_the_bot_links_to_the_pages_where_a_server_has_them(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    bob = fake.add_user(1002, "bob", "Bob")
    fake.set_everyone_permissions(DEFAULT_MEMBER_PERMISSIONS)  # a new server's: View Channels
    staff = fake.add_channel("staff")
    fake.set_channel_overwrite(staff.id, fake.guild.everyone.id, deny=VIEW)
    for user in (boss.id, bob.id, fake.bot_user.id):
        fake.set_channel_overwrite(staff.id, user, allow=VIEW)
    base = "https://domino.example.org"
    settings = dataclasses.replace(settings_for(fake, tmp_path / "db.sqlite3"), web_base_url=base)

    async def ended(bot: TestBot, channel_id: int) -> tuple[int, StoredMessage]:
        """Boss opens a table of "draw" in the channel, Bob joins and resigns; while it runs,
        its game message links the table's live page where the pages show the table."""
        result = await fake.slash(boss, channel_id, "domino new", {"variant": "draw"})
        lobby = result.message
        assert lobby is not None
        tid = table_id_of(lobby)
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(boss, lobby, button(lobby, "start"))
        running = await game_message(fake, bot, tid)
        thread = running.channel_id
        public = channel_id == fake.channel_id
        assert links_of(running) == ([f"{base}/live/{tid}"] if public else [])
        await resign(fake, bot, bob, thread)
        end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        await settle(bot)
        assert links_of(fake.message(running.id)) == []  # over: no live link
        return tid, end

    async with running_bot(fake, lambda: TestBot(settings)) as bot:
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "on"})
        tid, end = await ended(bot, fake.channel_id)
        assert links_of(end) == [f"{base}/m/{tid}"]
        # A match of a staff-only channel is not on the pages: no link to it.
        _, end = await ended(bot, staff.id)
        assert links_of(end) == []

        board = await fake.slash(bob, fake.channel_id, "domino leaderboard", {"variant": "draw"})
        assert board.message is not None
        assert links_of(board.message) == [f"{base}/s/{fake.guild_id}?board=draw&by=rating"]
        everyone = await fake.slash(bob, fake.channel_id, "domino leaderboard", {"scope": "global"})
        assert everyone.message is not None and links_of(everyone.message) == []
        stats = await fake.slash(bob, fake.channel_id, "domino stats", {})
        (shown,) = await stats.wait_for_followups(1)
        assert links_of(shown) == [f"{base}/s/{fake.guild_id}/p/{bob.id}"]

        # Pages off: no link anywhere.
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "off"})
        board = await fake.slash(bob, fake.channel_id, "domino leaderboard", {"variant": "draw"})
        assert board.message is not None and links_of(board.message) == []
        stats = await fake.slash(bob, fake.channel_id, "domino stats", {})
        (shown,) = await stats.wait_for_followups(1)
        assert links_of(shown) == []

