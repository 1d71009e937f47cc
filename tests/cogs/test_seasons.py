"""Seasons and the period boards' pages through the fake Discord: ``/domino leaderboard
period:season``, Previous/Next (a stranger's click refused) and the web link on a week's,
month's or season's board, the season line of ``/domino stats``, and a season's end announced
once in the board channel, also when the process stops at the instant of the post."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from bot.records.periods import period_of
from bot.records.seasons import SeasonCalendar
from tests.cogs.helpers import FakeClock, TestBot, factory, settings_for
from tests.cogs.test_boards import MANAGER, wait_posted, win
from tests.cogs.test_records import records_of
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_BOT_PERMISSIONS

BASE = "https://domino.example.org"
SEND_ALL = DEFAULT_BOT_PERMISSIONS  # what the bot may do on a new server
MANAGE_ROLES = 1 << 28


def pb_button(message: StoredMessage, direction: str) -> str:
    """The custom id of a period board's Previous ("p") or Next ("n")."""
    for cid in message.custom_ids():
        if cid.startswith(f"records:pb:{direction}:"):
            return cid
    raise LookupError(message.custom_ids())


def links_of(message: StoredMessage) -> list[str]:
    return [c["url"] for c in message.all_components() if c.get("type") == 2 and c.get("url")]


async def test_the_seasons_board_pages_for_its_owner_only_and_links_to_the_web(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    settings = dataclasses.replace(settings_for(fake, tmp_path / "db.sqlite3"), web_base_url=BASE)
    async with running_bot(fake, lambda: TestBot(settings, clock=clock)) as bot:
        season = SeasonCalendar().season_of(clock.now)
        g = fake.guild_id
        # Twelve people beat Bob once each this season: thirteen on the board, two pages
        # (where one match is enough to be listed).
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"board_minimum": 1})
        for k in range(12):
            await win(bot, k + 1, 3000 + k, 1002, 20 + k, season.start + 3600 * (k + 1), g)
        shown = await fake.slash(boss, fake.channel_id, "domino leaderboard",
                                 {"period": "season", "variant": "two-player"})
        message = shown.message
        assert message is not None and not shown.ephemeral
        embed = message.embeds[0]
        number = SeasonCalendar().number(clock.now)
        assert embed["title"] == f"Season {number}: Two-player games, this server"
        assert "Ranked by the season's rating" in embed["description"]
        assert "Page 1 of 2 · 13 players" in embed["footer"]["text"]
        assert links_of(message) == []  # the server has no pages on
        # A stranger's click is refused; the message stays.
        refused = await fake.click(bob, message, pb_button(message, "n"))
        assert refused.ephemeral and "asked for by someone else" in refused.text()
        assert "Page 1 of 2" in message.text()
        moved = await fake.click(boss, message, pb_button(message, "n"))
        assert moved.type == 7 and "Page 2 of 2" in message.text()
        assert "Bob" in message.embeds[0]["description"]
        assert message.component(pb_button(message, "n"))["disabled"]  # type: ignore[index]
        # With the pages on, the board links to them.
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"web": "on"})
        week = await fake.slash(bob, fake.channel_id, "domino leaderboard", {"period": "week"})
        assert week.message is not None
        assert links_of(week.message) == [f"{BASE}/s/{g}?board=all&period=week"]
        # Bob's figures show his place in the season.
        stats = await fake.slash(bob, fake.channel_id, "domino stats", {})
        (figures,) = await stats.wait_for_followups(1)
        text = figures.text()
        assert f"Season {number}" in text and "Two-player games: #13 of 13" in text


async def test_a_week_board_pages_and_keeps_its_week_after_it_ended(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        week = period_of("week", clock.now)
        for k in range(11):
            await win(bot, k + 1, 3000 + k, 1001, 10 + k, week.start + 60 * (k + 1),
                      fake.guild_id)
        shown = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"period": "week"})
        message = shown.message
        assert message is not None and "Page 1 of 2" in message.text()
        clock.now = week.end + 10  # a new week: the buttons still page the week shown
        await fake.click(alice, message, pb_button(message, "n"))
        assert "Page 2 of 2" in message.text() and "Alice" in message.text()
        assert f"<t:{int(week.start)}:D>" in message.text()


async def test_a_seasons_end_is_announced_once_even_when_the_post_is_cut_short(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    channel = fake.add_channel("boards")
    clock = FakeClock()
    make = factory(fake, tmp_path / "db.sqlite3", clock=clock)
    season = SeasonCalendar().season_of(clock.now)
    nonce = f"b.{fake.guild_id}.{season.key}"

    def the_post(record: object) -> bool:
        body = getattr(record, "json", None) or {}
        return isinstance(body, dict) and body.get("nonce") == nonce

    def announcements() -> list[StoredMessage]:
        return [
            m for m in fake.public_messages()
            if m.channel_id == channel.id and m.embeds
            and "is over" in m.embeds[0].get("title", "")
        ]

    async with running_bot(fake, make, raise_bot_errors=False) as bot:
        g = fake.guild_id
        await win(bot, 1, 1001, 2001, 40, season.start + 60, g)
        await records_of(bot).rename(1001, "Boss")
        await win(bot, 2, 2002, 2003, 40, season.start + 120, None)  # elsewhere: global only
        await fake.slash(boss, fake.channel_id, "domino server-settings",
                         {"board_channel": channel.id})
        wire = fake.tripwire(the_post, lambda: None, before=False, name="season")
        clock.now = season.end + 1
        await fake.wait_for(lambda: wire.fired.is_set())
        await fake.wait_for(lambda: len(announcements()) == 1)
    async with running_bot(fake, make) as bot:
        assert await wait_posted(bot, fake.guild_id, season.key)
        posted = announcements()
        assert len(posted) == 1
        embed = posted[0].embeds[0]
        number = SeasonCalendar().number(season.start)
        assert embed["title"] == f"Season {number} is over: the champions"
        field = embed["fields"][0]
        assert field["name"] == "Two-player games"
        lines = field["value"].splitlines()
        assert lines[0].startswith("This server: 🥇 **Boss** (")
        assert lines[1].startswith("Everywhere: 🥇 **Boss** (") and "🥇 **P2002**" in lines[1]
        assert "🥉" in lines[1]  # equal ratings share a place: 1, 1, 3, 3
    async with running_bot(fake, make):  # a restart announces nothing again
        await asyncio.sleep(0.3)
    assert len(announcements()) == 1


async def test_the_champions_role_goes_to_the_seasons_champions_and_moves_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER | MANAGE_ROLES)
    alice = fake.add_user(1002, "alice", "Alice")
    fake.add_user(1003, "bea", "Bea")
    channel = fake.add_channel("boards")
    champions = fake.add_role("Champions", position=5)
    high = fake.add_role("Staff", position=60)
    fake.set_role_position(fake.guild.personal_roles[boss.id], 40)  # above Champions
    clock = FakeClock()
    cal = SeasonCalendar()
    season = cal.season_of(clock.now)
    bot_role = fake.guild.personal_roles[fake.bot_user.id]
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        g = fake.guild_id
        settings = "domino server-settings"
        # The bot may not give roles yet: said at once, and nothing changes.
        refused = await fake.slash(boss, fake.channel_id, settings, {"champion_role": champions.id})
        assert refused.ephemeral
        assert refused.text() == (
            f"I need the Manage Roles permission to give <@&{champions.id}>. Nothing was changed."
        )
        fake.set_member_permissions(fake.bot_user.id, MANAGER | (1 << 28) | SEND_ALL)
        fake.set_role_position(bot_role, 50)
        refused = await fake.slash(boss, fake.channel_id, settings, {"champion_role": high.id})
        assert "is not below my own highest role" in refused.text()
        refused = await fake.slash(
            alice, fake.channel_id, settings, {"champion_role": champions.id}
        )
        assert "manage the server" in refused.text()
        saved = await fake.slash(boss, fake.channel_id, settings, {"champion_role": champions.id,
                                                                  "board_channel": channel.id})
        assert saved.embed is not None and saved.embed["title"] == "Server settings saved"
        assert f"Season champions' role\n<@&{champions.id}>" in saved.text()
        # Alice wins the season: she gets the role at its end.
        await win(bot, 1, 1002, 1003, 30, season.start + 60, g)
        clock.now = season.end + 1
        assert await wait_posted(bot, g, season.key)
        post = next(m for m in fake.public_messages() if m.channel_id == channel.id
                    and "is over" in m.embeds[0]["title"])
        assert f"The champions of this server get <@&{champions.id}>." in post.text()
        await fake.wait_for(lambda: champions.id in fake.member_roles(1002))
        # Next season Bea wins: the role moves to her.
        following = cal.season_of(season.end)
        await win(bot, 2, 1003, 1002, 30, following.start + 60, g)
        clock.now = following.end + 1
        assert await wait_posted(bot, g, following.key)
        await fake.wait_for(lambda: champions.id in fake.member_roles(1003))
        assert champions.id not in fake.member_roles(1002)
        # The bot loses Manage Roles: the next season's end says so, and so do the settings.
        fake.set_member_permissions(fake.bot_user.id, SEND_ALL)
        third = cal.season_of(following.end)
        await win(bot, 3, 1002, 1003, 30, third.start + 60, g)
        clock.now = third.end + 1
        assert await wait_posted(bot, g, third.key)
        post = next(m for m in fake.public_messages() if m.channel_id == channel.id
                    and m.embeds[0]["title"].startswith(f"Season {cal.number_of(third)} "))
        assert "I need the Manage Roles permission" in post.text()
        assert champions.id in fake.member_roles(1003)  # nothing could change
        shown = await fake.slash(boss, fake.channel_id, settings, {})
        assert "⚠️ Last time: I need the Manage Roles permission" in shown.text()


async def test_a_prize_role_is_chosen_only_by_who_may_give_it_and_checked_when_given(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The champions' role: a member with Manage Server but not Manage Roles may not choose
    one, nor may a member whose highest role is not above it; a role with a dangerous
    permission is refused to everyone. A role that gains such a permission after it was
    chosen is not given at the season's end, said once in the season's post."""
    fake = fake_discord
    fake.set_member_permissions(fake.bot_user.id, SEND_ALL | MANAGE_ROLES)
    fake.set_role_position(fake.guild.personal_roles[fake.bot_user.id], 50)
    manager = fake.add_user(1001, "manager", "Manager", permissions=MANAGER)
    mod = fake.add_user(1004, "mod", "Mod", permissions=MANAGER | MANAGE_ROLES)
    fake.add_user(1002, "alice", "Alice")
    fake.add_user(1003, "bea", "Bea")
    channel = fake.add_channel("boards")
    champions = fake.add_role("Champions", position=5)
    admins = fake.add_role("Admins", position=6, permissions=8)  # Administrator
    fake.set_role_position(fake.guild.personal_roles[mod.id], 4)  # below Champions
    clock = FakeClock()
    season = SeasonCalendar().season_of(clock.now)
    settings = "domino server-settings"
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        g = fake.guild_id
        refused = await fake.slash(manager, fake.channel_id, settings, {"champion_role": admins.id})
        assert refused.text() == (
            f"<@&{admins.id}> carries a permission too powerful for a prize (such as"
            " Administrator, Manage Server, Manage Roles or Ban Members): I give no such role."
            " Nothing was changed."
        )
        chooser = (
            f"Only the server's owner, or a member with Manage Roles whose highest role is above"
            f" <@&{champions.id}>, may choose it. Nothing was changed."
        )
        refused = await fake.slash(
            manager, fake.channel_id, settings, {"champion_role": champions.id}
        )
        assert refused.text() == chooser
        refused = await fake.slash(mod, fake.channel_id, settings, {"champion_role": champions.id})
        assert refused.text() == chooser
        refused = await fake.slash(
            fake.owner, fake.channel_id, settings, {"champion_role": admins.id}
        )
        assert "too powerful for a prize" in refused.text()
        shown = await fake.slash(manager, fake.channel_id, settings, {})
        assert "Season champions' role\nno role" in shown.text()
        fake.set_role_position(fake.guild.personal_roles[mod.id], 30)  # now above it
        saved = await fake.slash(mod, fake.channel_id, settings, {
            "champion_role": champions.id, "board_channel": channel.id,
        })
        assert f"Season champions' role\n<@&{champions.id}>" in saved.text()
        # Someone later gives the role Manage Roles: at the season's end it is not given.
        champions.permissions = MANAGE_ROLES
        fake.set_role_position(champions.id, 5)  # announces the role's change
        await win(bot, 1, 1002, 1003, 30, season.start + 60, g)
        clock.now = season.end + 1
        assert await wait_posted(bot, g, season.key)
        (post,) = [m for m in fake.public_messages() if m.channel_id == channel.id
                   and "is over" in m.embeds[0]["title"]]
        assert "too powerful for a prize" in post.text()
        assert "get <@&" not in post.text()
        assert champions.id not in fake.member_roles(1002)
