"""Tables store whether the server's @everyone could view where they were opened: the web
companion, public on the internet, shows only the matches of such places."""

from __future__ import annotations

from pathlib import Path

import discord

from tests.cogs.helpers import factory, table_id_of
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS, PRIVATE_THREAD

VIEW = discord.Permissions(view_channel=True).value


async def test_a_table_stores_whether_everyone_could_view_its_place(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A public channel and its public thread are public places; a staff-only channel, its
    thread and a private thread (even of a public channel) are not."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    fake.set_everyone_permissions(DEFAULT_MEMBER_PERMISSIONS)  # a new server's: View Channels
    staff = fake.add_channel("staff")
    fake.set_channel_overwrite(staff.id, fake.guild.everyone.id, deny=VIEW)
    hosts = [fake.add_user(2001 + i, f"host{i}", f"Host {i}") for i in range(5)]
    for user in (alice.id, fake.bot_user.id, *(h.id for h in hosts)):
        fake.set_channel_overwrite(staff.id, user, allow=VIEW)
    places = {
        "general": (fake.channel_id, True),
        "thread of general": (fake.add_thread(fake.channel_id, "talk", owner=alice).id, True),
        "staff": (staff.id, False),
        "thread of staff": (fake.add_thread(staff.id, "staff talk", owner=alice).id, False),
        "private thread of general": (
            fake.add_thread(fake.channel_id, "secret", owner=alice, type=PRIVATE_THREAD).id,
            False,
        ),
    }
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        for host, (name, (channel_id, public)) in zip(hosts, places.items(), strict=True):
            opened = await fake.slash(host, channel_id, "domino new", {"variant": "two"})
            assert opened.message is not None and not opened.ephemeral, opened.text()
            row = await bot.svc.store.tables.get(table_id_of(opened.message))
            assert row is not None
            assert row.public_place is public, name
