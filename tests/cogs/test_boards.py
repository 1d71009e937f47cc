"""The boards of this week and month through the fake Discord: ``/domino leaderboard period``,
the board channel of ``/domino server-settings`` and the Monday and 1st posts (once, also when
the process stops at the instant of the post)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.records.inactivity import WEEK
from bot.records.periods import Period, next_boundary, period_of
from tests.bot.test_records_support import hand, human, make_record
from tests.cogs.helpers import FakeClock, factory
from tests.cogs.test_records import records_of
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
SEND = discord.Permissions(send_messages=True).value
TWO = {"variant": "two-player"}


async def win(bot: object, table_id: int, winner: int, loser: int, points: int, at: float,
              guild_id: int) -> None:
    """Record a match ``winner`` won ``points`` to 0, finished at ``at``."""
    await records_of(bot).record_match(  # type: ignore[arg-type]
        make_record(
            table_id,
            "draw",
            [human(winner), human(loser)],
            [hand(1, "domino", 0, 0, [points, 0])],
            winner_side=0,
            guild_id=guild_id,
            started_at=at - 60,
            finished_at=at,
        )
    )


async def wait_posted(bot: object, guild_id: int, key: str) -> bool:
    """Wait up to 10 s until the board ``key`` of the server is marked posted."""
    cog = bot.get_cog("Records")  # type: ignore[attr-defined]
    for _ in range(200):
        if await cog.boards.repo.posted(guild_id, key):
            return True
        await asyncio.sleep(0.05)
    return False


def boards_in(fake: FakeDiscord, channel_id: int) -> list[StoredMessage]:
    return [
        m for m in fake.public_messages()
        if m.channel_id == channel_id and m.embeds and "best" in m.embeds[0].get("title", "")
    ]


async def test_this_weeks_board_ranks_by_wins_then_difference(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        week = period_of("week", clock.now)
        at = week.start + 60
        g = fake.guild_id
        await win(bot, 1, 2001, 1001, 30, at, g)  # Bea: 1 win, +30
        await win(bot, 2, 2002, 1001, 30, at, g)  # Cris: 1 win, +30: equal to Bea
        await win(bot, 3, 2003, 1001, 50, at, g)  # Dani: 1 win, +50
        await win(bot, 4, 2003, 2001, 50, week.start - 60, g)  # last week: not on this board
        for uid, name in ((2001, "Bea"), (2002, "Cris"), (2003, "Dani")):
            await records_of(bot).rename(uid, name)
        shown = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"period": "week"})
        assert not shown.ephemeral and shown.embed is not None
        assert shown.embed["title"] == "This week's best: All variants, this server"
        lines = shown.embed["description"].splitlines()
        assert lines[1:5] == [
            "**1.** Dani — 1 W · 0 L · 0 D · +50 points",
            "**2.** Bea — 1 W · 0 L · 0 D · +30 points",
            "**2.** Cris — 1 W · 0 L · 0 D · +30 points",
            "**4.** Alice — 0 W · 3 L · 0 D · -110 points",
        ]
        assert "players equal on both share a place" in lines[-1]
        assert "you: #4" in shown.embed["footer"]["text"]
        month = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"period": "month"})
        assert month.embed is not None and month.embed["title"].startswith("This month's best")
        # All time is the board there was: by rating.
        old = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"period": "all"})
        assert old.embed is not None and old.embed["title"].startswith("Ratings")


async def test_only_managers_choose_a_channel_the_bot_can_post_in(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    boards = fake.add_channel("boards")
    closed = fake.add_channel("closed")
    fake.set_channel_overwrite(closed.id, fake.bot_user.id, deny=SEND)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        refused = await fake.slash(
            alice, fake.channel_id, "domino server-settings", {"board_channel": boards.id}
        )
        assert refused.ephemeral and "manage the server" in refused.text()
        refused = await fake.slash(
            boss, fake.channel_id, "domino server-settings", {"board_channel": closed.id}
        )
        assert refused.ephemeral
        assert f"I cannot post the boards in <#{closed.id}>" in refused.text()
        assert "Nothing was changed" in refused.text()
        cog = bot.get_cog("Records")
        assert await cog.boards.channel(fake.guild_id) is None  # type: ignore[union-attr]
        saved = await fake.slash(
            boss, fake.channel_id, "domino server-settings", {"board_channel": boards.id}
        )
        assert saved.embed is not None and saved.embed["title"] == "Server settings saved"
        assert f"in <#{boards.id}>, next on" in saved.text()
        due = next_boundary(bot.svc.clock())
        assert [r.due_at for r in bot.svc.scheduler.pending(-fake.guild_id)] == [due]
        cleared = await fake.slash(
            boss, fake.channel_id, "domino server-settings", {"reset": "board_channel"}
        )
        assert "not posted" in cleared.text()
        assert bot.svc.scheduler.pending(-fake.guild_id) == []


def plain_week(clock: FakeClock) -> Period:
    """The week of the clock, moved forward (a week at a time) to one that holds no month's
    start: its end is then the only boundary a jump past it crosses (a month that ends
    inside the week would be a board of its own, due first)."""
    week = period_of("week", clock.now)
    while next_boundary(week.start) != week.end:
        clock.now = week.end + 3600
        week = period_of("week", clock.now)
    return week


async def test_the_past_week_is_posted_once_even_when_the_post_is_cut_short(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    channel = fake.add_channel("boards")
    clock = FakeClock()
    make = factory(fake, tmp_path / "db.sqlite3", clock=clock)
    week = plain_week(clock)
    nonce = f"b.{fake.guild_id}.{week.key}"

    def the_post(record: object) -> bool:
        body = getattr(record, "json", None) or {}
        return isinstance(body, dict) and body.get("nonce") == nonce

    async with running_bot(fake, make, raise_bot_errors=False) as bot:
        await win(bot, 1, 1001, 2001, 40, week.start + 60, fake.guild_id)
        await records_of(bot).rename(1001, "Boss")
        await fake.slash(boss, fake.channel_id, "domino server-settings",
                         {"board_channel": channel.id})
        # Discord applies the post, the answer never comes: the process is as good as dead
        # at that instant (the board is not marked, the deadline not moved).
        wire = fake.tripwire(the_post, lambda: None, before=False, name="board")
        clock.now = week.end + 1
        await fake.wait_for(lambda: wire.fired.is_set())
        await fake.wait_for(lambda: len(boards_in(fake, channel.id)) == 1)
    assert len(boards_in(fake, channel.id)) == 1
    async with running_bot(fake, make) as bot:  # the next process posts what is owed
        assert await wait_posted(bot, fake.guild_id, week.key)
        posted = boards_in(fake, channel.id)
        assert len(posted) == 1
        embed = posted[0].embeds[0]
        assert embed["title"] == "Last week's best: All variants, this server"
        assert "**1.** Boss — 1 W · 0 L · 0 D · +40 points" in embed["description"]
        # The next post is due at the next week's or month's start, and only then.
        pending = bot.svc.scheduler.pending(-fake.guild_id)
        assert [r.due_at for r in pending] == [next_boundary(week.end)]
    async with running_bot(fake, make):  # a restart posts nothing again
        await asyncio.sleep(0.3)
    assert len(boards_in(fake, channel.id)) == 1


async def test_idle_players_are_left_off_and_counted_on_the_board(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    alice = fake.add_user(1002, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        g = fake.guild_id
        await win(bot, 1, 2001, 2002, 30, clock.now - 6 * WEEK, g)  # six weeks ago
        await win(bot, 2, 1002, 2003, 30, clock.now - 60, g)  # today
        cog = bot.get_cog("Records")
        await cog.inactivity.sweep()  # type: ignore[union-attr]
        least = await fake.slash(boss, fake.channel_id, "domino server-settings",
                                 {"board_minimum": 1})  # one match is enough to be listed
        assert "Minimum of matches: 1" in least.text()
        shown = await fake.slash(alice, fake.channel_id, "domino leaderboard", TWO)
        assert shown.embed is not None
        assert shown.embed["description"].endswith("-# 2 idle players hidden")
        assert "Alice" in shown.embed["description"]
        refused = await fake.slash(alice, fake.channel_id, "domino server-settings",
                                   {"idle_weeks": 8})
        assert "manage the server" in refused.text()
        saved = await fake.slash(boss, fake.channel_id, "domino server-settings",
                                 {"idle_weeks": 8})
        assert "left off the boards after 8 weeks without a match" in saved.text()
        shown = await fake.slash(alice, fake.channel_id, "domino leaderboard", TWO)
        assert shown.embed is not None and "idle" not in shown.embed["description"]
        everywhere = await fake.slash(alice, fake.channel_id, "domino leaderboard",
                                      {"scope": "global", "variant": "two-player"})
        assert everywhere.embed is not None
        assert everywhere.embed["description"].endswith("-# 2 idle players hidden")


async def test_a_channel_that_breaks_later_is_said_in_the_settings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    boss = fake.add_user(1001, "boss", "Boss", permissions=MANAGER)
    channel = fake.add_channel("boards")
    clock = FakeClock()
    week = plain_week(clock)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        await fake.slash(boss, fake.channel_id, "domino server-settings",
                         {"board_channel": channel.id})
        fake.deny(channel.id, "send_messages")  # someone took the bot's permission away
        clock.now = week.end + 1
        cog = bot.get_cog("Records")

        for _ in range(200):
            if await cog.boards.repo.posted(fake.guild_id, week.key):  # type: ignore
                break
            await asyncio.sleep(0.05)
        assert boards_in(fake, channel.id) == []
        shown = await fake.slash(boss, fake.channel_id, "domino server-settings", {})
        assert "The last board could not be posted there" in shown.text()
        pending = bot.svc.scheduler.pending(-fake.guild_id)
        assert [r.due_at for r in pending] == [next_boundary(week.end)]  # it goes on
