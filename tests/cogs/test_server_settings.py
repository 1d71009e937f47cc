"""``/domino server-settings``: stored per server, shown with their values, applied to
``/domino new``, and refused to members who cannot manage the server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.store.table_extras import GuildSettings, GuildSettingsRepo
from tests.cogs.helpers import FakeClock, answer, factory, new_table, settle
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


async def test_server_defaults_apply_to_new_tables(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        shown = await fake.slash(boss, fake.channel_id, "domino server-settings", {})
        assert shown.ephemeral and shown.embed is not None
        assert "Partners (Latin) (the bot's default)" in shown.text()
        assert "any channel" in shown.text() and "anyone" in shown.text()

        saved = await fake.slash(
            boss,
            fake.channel_id,
            "domino server-settings",
            {"variant": "draw", "target": 50, "turn_timer": 45},
        )
        assert saved.ephemeral and saved.embed is not None
        assert saved.embed["title"] == "Server settings saved"
        text = saved.text()
        assert "Draw" in text and "50 points" in text and "45 seconds" in text

        # /domino new without options takes the server's defaults ...
        _, tid = await new_table(fake, bot, alice)
        info = await bot.svc.get(tid)
        assert info.ruleset.id == "draw" and info.ruleset.target == 50
        assert info.table.turn_timer == 45
        # ... and what the host chose wins over them.
        await bot.svc.cancel(tid, alice.id)
        _, tid = await new_table(fake, bot, alice, variant="two", turn_timer=90)
        info = await bot.svc.get(tid)
        assert info.ruleset.id == "two" and info.ruleset.target == 50
        assert info.table.turn_timer == 90
        await bot.svc.cancel(tid, alice.id)

        # The settings live in the database.
        stored = await GuildSettingsRepo(bot.svc.store.db).get(fake.guild_id)
        assert (stored.variant, stored.target, stored.turn_timer) == ("draw", 50, 45)

        # A target the server's variant cannot be played to is refused; nothing changes.
        bad = await fake.slash(
            boss, fake.channel_id, "domino server-settings", {"variant": "partners", "target": 250}
        )
        assert bad.ephemeral and "can go to" in await answer(bad)
        kept = await GuildSettingsRepo(bot.svc.store.db).get(fake.guild_id)
        assert (kept.variant, kept.target) == ("draw", 50)

        # Back to the bot's defaults.
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"reset": "all"})
        _, tid = await new_table(fake, bot, alice)
        info = await bot.svc.get(tid)
        assert info.ruleset.id == "partners" and info.table.turn_timer == 120


async def test_channels_and_host_role(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    bob = fake.add_user(1003, "bob", "Bob")
    games = fake.add_channel("games")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"add_channel": games.id})
        refused = await fake.slash(alice, fake.channel_id, "domino new", {"variant": "draw"})
        assert refused.ephemeral
        assert await answer(refused) == (
            f"Tables can be opened only in <#{games.id}> on this server."
        )
        assert bot.svc.open_tables() == []
        opened = await fake.slash(alice, games.id, "domino new", {"variant": "draw"})
        assert not opened.ephemeral and len(bot.svc.open_tables()) == 1

        role = fake.guild.personal_roles[alice.id]  # a role only Alice has
        shown = await fake.slash(boss, games.id, "domino server-settings", {"host_role": role})
        assert f"<@&{role}>" in shown.text() and f"<#{games.id}>" in shown.text()
        options = {"variant": "two", "player": alice}
        no = await fake.slash(bob, games.id, "domino challenge", options)
        assert await answer(no) == (
            f"Only members with the role <@&{role}> can open tables on this server."
        )
        assert len(bot.svc.open_tables()) == 1


async def test_refused_without_manage_server(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1002, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(
            alice, fake.channel_id, "domino server-settings", {"variant": "draw"}
        )
        assert result.ephemeral
        assert await answer(result) == (
            "Only members who can manage the server can change its settings."
        )
        stored = await GuildSettingsRepo(bot.svc.store.db).get(fake.guild_id)
        assert stored.variant is None
        _, tid = await new_table(fake, bot, alice)
        assert (await bot.svc.get(tid)).ruleset.id == "partners"
        es = await fake.slash(
            alice, fake.channel_id, "domino server-settings", {}, locale="es-ES"
        )
        assert await answer(es) != result.content  # said in Spanish


async def test_server_limits_on_top_of_the_bots(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    bob = fake.add_user(1003, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        shown = await fake.slash(
            boss, fake.channel_id, "domino server-settings", {"lobbies_per_member": 1}
        )
        assert "tables waiting per member: 1" in shown.text()
        assert "cooldown: the bot's" in shown.text()
        await new_table(fake, bot, alice, variant="draw")
        second = await fake.slash(alice, fake.channel_id, "domino new", {"variant": "two"})
        assert await answer(second) == (
            "You are already at 1 tables waiting for players: start or leave one first."
        )
        assert len(bot.svc.open_tables()) == 1
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"open_tables": 1})
        full = await fake.slash(bob, fake.channel_id, "domino new", {"variant": "two"})
        assert await answer(full) == (
            "This server already has 1 open tables: wait until one finishes."
        )
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"reset": "limits"})
        stored = await GuildSettingsRepo(bot.svc.store.db).get(fake.guild_id)
        assert (stored.lobbies_per_member, stored.open_tables) == (None, None)
        opened = await fake.slash(bob, fake.channel_id, "domino new", {"variant": "two"})
        assert not opened.ephemeral and len(bot.svc.open_tables()) == 2


async def test_settings_go_with_a_departed_servers_data(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "db.sqlite3") as store:
        clock = FakeClock()
        settings = ServerSettings(store, clock=clock)
        await settings.update(77, variant="draw", cooldown=30)
        await settings.update(78, variant="two")
        records = Records(store, clock=clock)
        await records.guild_left(77)
        clock.advance(6 * 24 * 3600)
        assert await records.sweep_departed() == []
        assert (await settings.get(77)).variant == "draw"  # invited back in time: nothing lost
        clock.advance(2 * 24 * 3600)
        assert await records.sweep_departed() == [77]
        assert await settings.get(77) == GuildSettings(77)
        assert (await settings.get(78)).variant == "two"


async def test_server_cooldown_counts_only_opened_tables(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"cooldown": 60})
        refused = await fake.slash(
            alice, fake.channel_id, "domino new", {"variant": "draw", "players": 3}
        )
        assert await answer(refused) == "The option players is for All Fives only."
        yourself = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": alice}
        )
        assert await answer(yourself) == "You cannot challenge yourself."
        assert bot.svc.open_tables() == []

        # Nothing was opened: no cooldown yet. The table that opens starts it.
        await new_table(fake, bot, alice, variant="draw")
        clock.advance(20)
        again = await fake.slash(alice, fake.channel_id, "domino new", {"variant": "two"})
        assert await answer(again) == "Please wait 40 s before you open another table."
        assert len(bot.svc.open_tables()) == 1
        clock.advance(41)
        await new_table(fake, bot, alice, variant="two")
        assert len(bot.svc.open_tables()) == 2


async def test_server_cooldown_lets_one_of_two_quick_requests_in(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"cooldown": 60})
        both = await asyncio.gather(
            fake.slash(alice, fake.channel_id, "domino new", {"variant": "draw"}),
            fake.slash(alice, fake.channel_id, "domino new", {"variant": "two"}),
        )
        refused = [r for r in both if r.ephemeral]
        assert len(refused) == 1, [r.text() for r in both]
        assert await answer(refused[0]) == "Please wait 60 s before you open another table."
        await fake.wait_for(lambda: len(bot.svc.open_tables()) == 1)
        await settle(bot)
        assert len(bot.svc.open_tables()) == 1
