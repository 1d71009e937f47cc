"""``/domino daily`` through the real discord.py path and the fake Discord."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.settings import Settings
from tests.cogs.helpers import (
    FakeClock,
    TestBot,
    answer,
    button,
    game_message,
    play_until_over,
    settings_for,
    settle,
)
from tests.daily.conftest import BUDGET
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

GIF = b"GIF8"


def at(day: str, hour: int = 12, minute: int = 0, second: int = 0) -> float:
    d = dt.date.fromisoformat(day)
    return dt.datetime(d.year, d.month, d.day, hour, minute, second, tzinfo=dt.UTC).timestamp()


class DailyBot(TestBot):
    """The test bot with quick experts (a short search) and the daily deal's seeds fixed."""

    __test__ = False

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        self.service_options["ai_budget"] = BUDGET
        seeds = itertools.count(500)
        self.daily_options = {"expert_budget": BUDGET, "seed_source": lambda: next(seeds)}

    @property
    def daily_cog(self) -> Any:
        cog = self.get_cog("Daily")
        assert cog is not None
        return cog


def daily_factory(fake: FakeDiscord, db: Path, clock: FakeClock) -> Any:
    return lambda: DailyBot(settings_for(fake, db), clock=clock)


async def idle(bot: DailyBot) -> None:
    await settle(bot)
    await bot.daily_cog.idle()
    await settle(bot)


async def start(
    fake: FakeDiscord, bot: DailyBot, user: FakeUser, variant: str, channel_id: int | None = None,
    locale: str = "en-US",
) -> tuple[int, int]:
    """``/domino daily play`` (in ``channel_id``, else the fake's channel): the answer says
    where; returns (thread, table)."""
    result = await fake.slash(
        user, channel_id or fake.channel_id, "domino daily play", {"variant": variant},
        locale=locale,
    )
    (answer,) = await result.wait_for_followups(1)
    assert answer.ephemeral and "<#" in answer.text(), answer.text()
    thread = int(answer.text().split("<#", 1)[1].split(">", 1)[0])
    await idle(bot)
    (info,) = [t for t in bot.svc.open_tables() if t.table.channel_id == thread]
    return thread, info.id


async def play_attempt(
    fake: FakeDiscord, bot: DailyBot, user: FakeUser, variant: str
) -> StoredMessage:
    """Start and play the whole attempt through Discord; the result post in the thread."""
    thread, table_id = await start(fake, bot, user, variant)
    legs = 0
    while True:
        await play_until_over(fake, bot, table_id, [user])
        legs += 1
        await idle(bot)
        running = [t for t in bot.svc.open_tables() if t.table.channel_id == thread]
        if not running:
            break
        (info,) = running
        table_id = info.id
    post = await fake.wait_for(
        lambda: next((m for m in fake.messages(thread) if "your result is" in m.text()), None),
        timeout=60,
        what="the daily result post",
    )
    assert legs == (1 if variant == "partners" else 2)
    return post


async def board(
    fake: FakeDiscord, user: FakeUser, channel_id: int | None = None, **options: str
) -> str:
    result = await fake.slash(user, channel_id or fake.channel_id, "domino daily board", options)
    message = result.message if result.message is not None else result.followups[0]
    assert message.ephemeral
    return message.text()


async def test_a_daily_deal_played_refused_again_boarded_and_its_streak_counted(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice *the* Great")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    clock.now = at("2026-11-27", 23, 59, 59)  # a second before midnight UTC
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        thread, table_id = await start(fake, bot, alice, "partners")
        channel = fake.channels[thread]
        assert channel.type == 12 and not channel.invitable  # a private thread
        game = await game_message(fake, bot, table_id)
        assert game.channel_id == thread
        # A stranger's click on the table is refused privately and changes nothing.
        seq = (await bot.svc.get(table_id)).seq
        stranger = await fake.click(bob, game, button(game, "tiles"))
        said = await answer(stranger)
        assert stranger.followups[0].ephemeral and "not seated" in said, said
        assert (await bot.svc.get(table_id)).seq == seq
        assert not [c for c in game.custom_ids() if c.startswith("domino:hint:")]
        # Asked again while it is being played: sent to its thread, nothing opened.
        again = await fake.slash(
            alice, fake.channel_id, "domino daily play", {"variant": "partners"}
        )
        said = await answer(again)
        assert said == (
            f"You are playing today's deal of this variant in <#{thread}>: finish it there."
        )
        assert len(bot.svc.open_tables()) == 1
        clock.now = at("2026-11-28", 0, 0, 30)  # played after midnight: it keeps its day
        await play_until_over(fake, bot, table_id, [alice])
        await idle(bot)
        post = await fake.wait_for(
            lambda: next((m for m in fake.messages(thread) if "your result is" in m.text()), None),
            timeout=60,
            what="the daily result post",
        )
        text = post.text()
        assert "Daily deal of 2026-11-27 · Partners" in text, text
        assert "Your streak: 1 day in a row." in text and "the expert" in text.lower()
        (gif,) = post.attachments
        assert gif.filename == "expert.gif" and gif.data.startswith(GIF)
        ends = [m for m in fake.messages(thread) if "Rematch" in m.text()]
        assert not ends  # a daily deal offers no rematch
        # Only one result post, even after a restart (it is marked published).
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        await idle(bot)
        assert len([m for m in fake.messages(thread) if "your result is" in m.text()]) == 1
        # The board of that day: no spoilers for Bob, who did not play it.
        clock.now = at("2026-11-27", 23, 59, 59)
        shown = await board(fake, alice)
        assert "1. Alice \\*the\\* Great" in shown, shown
        hidden = await board(fake, bob)
        assert "No spoilers" in hidden and "1 player has finished it so far." in hidden
        assert "Alice" not in hidden
        # A second attempt that day is refused clearly and changes nothing.
        clock.now = at("2026-11-27", 23, 59, 59)
        threads = len(fake.threads())
        again = await fake.slash(
            alice, fake.channel_id, "domino daily play", {"variant": "partners"}
        )
        said = await answer(again)
        assert again.ephemeral and "already" in said, said
        assert len(fake.threads()) == threads and not bot.svc.open_tables()
        # The next day: a new deal, and the streak counts two days.
        clock.now = at("2026-11-28", 9)
        post = await play_attempt(fake, bot, alice, "draw")
        assert "Your streak: 2 days in a row." in post.text(), post.text()
        assert "From your first seat" in post.text()
        notes = [m for m in fake.messages(post.channel_id) if "Leg 2 of 2" in m.text()]
        assert len(notes) == 1 and "holding the tiles your opponent held" in notes[0].text()
        assert "Your streak: 2 days" in await board(fake, alice, variant="draw", scope="global")


async def test_a_restart_mid_deal_resumes_it(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    clock.now = at("2026-11-27", 10)
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, daily_factory(fake, db, clock)) as bot:
        thread, table_id = await start(fake, bot, alice, "all-fives")
        await play_until_over(fake, bot, table_id, [alice], stop=lambda turns: turns >= 2)
        await idle(bot)
    async with running_bot(fake, daily_factory(fake, db, clock)) as bot:
        await idle(bot)
        assert (await bot.svc.get(table_id)).status == "running"
        await play_until_over(fake, bot, table_id, [alice])
        await idle(bot)
        (info,) = [t for t in bot.svc.open_tables() if t.table.channel_id == thread]
        await play_until_over(fake, bot, info.id, [alice])
        await idle(bot)
        post = await fake.wait_for(
            lambda: next((m for m in fake.messages(thread) if "your result is" in m.text()), None),
            timeout=60,
            what="the daily result post",
        )
        assert "From your first seat" in post.text()


async def test_bad_input_gets_a_clear_answer(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        # No private threads allowed here: said, and nothing opened.
        fake.deny(fake.channel_id, "create_thread")
        result = await fake.slash(alice, fake.channel_id, "domino daily play", {})
        said = await answer(result)
        assert "I am missing a permission" in said, said
        fake.allow(fake.channel_id)
        assert not bot.svc.open_tables()
        assert await bot.svc.store.db.fetchval("SELECT COUNT(*) FROM daily_attempts") == 0
        # Inside a thread: the daily deal wants a text channel.
        other = fake.add_thread(fake.channel_id, "chat", owner=alice)
        inside = await fake.slash(alice, other.id, "domino daily play", {})
        assert "text channel" in await answer(inside)
        # Where the server lets no table be opened: said, and nothing opened.
        manager = discord.Permissions(manage_guild=True)
        boss = fake.add_user(1009, "boss", "Boss", permissions=manager)
        games = fake.add_channel("games")
        await fake.slash(boss, fake.channel_id, "domino server-settings", {"add_channel": games.id})
        refused = await fake.slash(alice, fake.channel_id, "domino daily play", {})
        said = await answer(refused)
        assert said == f"Tables can be opened only in <#{games.id}> on this server.", said
        assert not bot.svc.open_tables() and len(fake.threads()) == 1  # the user's own


async def test_two_servers_have_their_own_boards_and_share_the_global_one(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    other = fake.add_guild("Other server")
    there = fake.add_channel("general", guild_id=other.id)
    fake._add_member(other, bob, DEFAULT_MEMBER_PERMISSIONS)
    clock = FakeClock()
    clock.now = at("2026-11-27", 15)
    settings = dataclasses.replace(settings_for(fake, tmp_path / "db.sqlite3"), dev_guild_id=None)
    async with running_bot(fake, lambda: DailyBot(settings, clock=clock)) as bot:
        await play_attempt(fake, bot, alice, "partners")
        thread, table_id = await start(fake, bot, bob, "partners", channel_id=there.id)
        assert fake.channels[thread].guild_id == other.id
        await play_until_over(fake, bot, table_id, [bob])
        await idle(bot)
        here_board = await board(fake, alice)
        assert "1. Alice" in here_board and "Bob" not in here_board, here_board
        there_board = await board(fake, bob, channel_id=there.id)
        assert "1. Bob" in there_board and "Alice" not in there_board, there_board
        everyone = await board(fake, alice, scope="global")
        assert "Alice" in everyone and "Bob" in everyone, everyone


async def test_a_daily_leg_stays_hidden_until_the_viewer_has_played_that_deal(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any
) -> None:
    """Today's legs are not listed, replayed nor in a history for anyone who has not finished
    that day's deal (its player included, between his legs), even one who can view every
    private thread; once he has, or on a later day, they are."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    threads = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_threads=True).value
    erin = fake.add_user(1005, "erin", "Erin", permissions=threads)
    frank = fake.add_user(1006, "frank", "Frank", permissions=threads)
    clock = FakeClock()
    clock.now = at("2026-11-27", 12)

    async def listed(user: FakeUser) -> set[int]:
        got = await fake.autocomplete(user, fake.channel_id, "domino replay", "table", {})
        return {int(c["value"]) for c in got.choices or ()}

    async def replayed(user: FakeUser, table: int) -> bool:
        asked = await fake.slash(user, fake.channel_id, "domino replay", {"table": table})
        said = await answer(asked)
        assert said.startswith("Replay: ") or said == f"No match was played at table {table}."
        return said.startswith("Replay: ")

    async def history_of_alice(user: FakeUser) -> int:
        asked = await fake.slash(user, fake.channel_id, "domino history", {"user": alice})
        return asked.text().count("<t:")  # one relative time per match listed

    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        thread, first = await start(fake, bot, alice, "draw")
        await play_until_over(fake, bot, first, [alice])
        await idle(bot)
        (second,) = [t.id for t in bot.svc.open_tables() if t.table.channel_id == thread]
        # Between her legs: her first is hidden from her too (the same deal, the same pile).
        assert first not in await listed(alice) and not await replayed(alice, first)
        reviewed = await fake.slash(alice, fake.channel_id, "domino review", {"table": first})
        assert await answer(reviewed) == (
            f"Table {first} is a leg of a daily deal you are still playing: its review opens"
            " when you have finished the deal."
        )
        spanish = await fake.slash(alice, fake.channel_id, "domino review", {"table": first},
                                   locale="es-ES")
        assert await answer(spanish) == (
            f"La mesa {first} es una vuelta de una mano del día que todavía estás jugando: su"
            " análisis estará disponible cuando la termines."
        )
        await play_until_over(fake, bot, second, [alice])
        await idle(bot)
        legs = {first, second}
        assert legs <= await listed(alice) and await replayed(alice, first)
        # The web shows only matches of places @everyone could view: never a daily leg.
        for leg in legs:
            assert await bot.svc.store.db.fetchval(
                "SELECT public_place FROM tables WHERE id = ?", (leg,)
            ) == 0
        # Erin sees every private thread of the channel, but has not played today's deal.
        assert not legs & await listed(erin)
        assert not await replayed(erin, first) and not await replayed(erin, second)
        assert await history_of_alice(erin) == 0
        await play_attempt(fake, bot, erin, "draw")
        assert legs <= await listed(erin) and await replayed(erin, second)
        assert await history_of_alice(erin) == 2
        assert not legs & await listed(frank)  # he still has not
        clock.now = at("2026-11-28", 9)  # a later day: the deal is over for everyone
        assert legs <= await listed(frank) and await replayed(frank, first)
        await settle(bot)


@pytest.mark.parametrize(("locale", "start_of"), [
    ("en-US", "Table picture. One hand. Scores: "),
    ("es-ES", "Imagen de la mesa. Una mano. "),
    ("pt-BR", "Imagem da mesa. Uma mão. "),
])
async def test_a_one_hand_deal_says_so_on_its_picture_in_every_language(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any, locale: str, start_of: str
) -> None:
    """A daily deal has no points target: its table picture's alt text says it is one hand,
    never "to None", in the server's language."""
    fake = fake_discord
    fake.guild.locale = locale
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    clock.now = at("2026-11-27", 12)
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        _, table_id = await start(fake, bot, alice, "partners", locale=locale)
        game = await game_message(fake, bot, table_id)
        alts = [alt for _, alt in game.media() if alt]
        assert alts and all("None" not in alt for alt in alts), alts
        assert alts[0].startswith(start_of), alts
        await settle(bot)
