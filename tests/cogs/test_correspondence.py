"""Correspondence tables: a turn of hours or days, told once and reminded once, `/domino turns`
across servers, vacations, the server's time-out rule, on both backends.

Our decisions (docs/rules.md, "Correspondence tables"): the turn's person is told as his turn
begins and reminded at three quarters of his time, in the table's thread or by direct message
if he chose that; a vacation lasts 1 to 7 days, two in 90 days, and pauses the clock of every
correspondence table he plays at.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE
from bot.store.correspondence import CorrespondenceRepo, Vacation
from bot.tables.core import make_ruleset
from bot.tables.service import TableInfo
from bot.tables.values import VACATION_WINDOW
from cogs.domino.across import open_across
from tests.cogs.helpers import (
    LOADED_WAIT,
    FakeClock,
    TestBot,
    button,
    game_message,
    open_hand,
    play_turn,
    settings_for,
    settle,
)
from tests.cogs.test_match_end import match_end
from tests.cogs.test_pool import B_NICK, World, place_message, texts_in
from tests.cogs.test_pool import places as pool_places
from tests.cogs.test_self_pings import notified
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS, FakeUser

DAY = 24 * 3600
Bots = Callable[[FakeClock], Callable[[], TestBot]]


@pytest.fixture(params=[SQLITE, POSTGRES])
def bots(request: pytest.FixtureRequest, fake_discord: FakeDiscord, tmp_path: Path) -> Bots:
    """Bots on a SQLite file, or on a throw-away PostgreSQL database, with a given clock;
    their commands synced globally (every server has them)."""
    settings = dataclasses.replace(
        settings_for(fake_discord, tmp_path / "db.sqlite3"), dev_guild_id=None
    )
    if request.param == POSTGRES:
        url = request.getfixturevalue("postgres_databases").migrated()
        settings = dataclasses.replace(settings, database_path=None, database_url=url)
    return lambda clock: lambda: TestBot(settings, clock=clock)


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


def shard_bot(fake: FakeDiscord, url: str, shard: int, clock: FakeClock) -> TestBot:
    """The bot of one of two shards on one database, its commands synced globally."""
    settings = dataclasses.replace(
        settings_for(fake, Path("unused")),
        database_url=url,
        database_path=None,
        dev_guild_id=None,
        shard_count=2,
        shard_ids=(shard,),
    )
    return TestBot(settings, clock=clock)


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``check()`` (read from the store) holds."""
    try:
        async with asyncio.timeout(LOADED_WAIT):
            while not await check():
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"waited in vain for {what}") from None


def notices(fake: FakeDiscord, channel_id: int, user: int) -> list[str]:
    """Every turn notice and reminder ever posted in a place for ``user`` (deleted ones too)."""
    posted = [*fake.messages(channel_id), *fake.deleted_messages]
    return [
        m.content
        for m in sorted(posted, key=lambda m: m.id)
        if m.channel_id == channel_id
        and m.content.startswith(f"<@{user}>, ")
        and "move at table" in m.content
    ]


async def correspondence_match(
    fake: FakeDiscord,
    bot: TestBot,
    host: FakeUser,
    guest: FakeUser,
    *,
    pace: int = DAY,
    channel_id: int | None = None,
) -> int:
    """A two-player correspondence match of ``pace`` seconds per move, started."""
    result = await fake.slash(
        host, channel_id, "domino new", {"variant": "draw", "pace": pace}
    )
    lobby = result.message
    assert lobby is not None, result.text()
    shown = {3600: "1 hour", 8 * 3600: "8 hours", DAY: "1 day", 3 * DAY: "3 days"}[pace]
    assert f"correspondence: {shown} per move" in lobby.text()
    tid = int(button(lobby, "join").split(":")[2])
    await fake.click(guest, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{guest.id}>" in lobby.text())
    await fake.click(host, lobby, button(lobby, "start"))
    await game_message(fake, bot, tid)
    await settle(bot)
    return tid


async def test_a_correspondence_turn_is_told_once_and_reminded_once(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        tid = await correspondence_match(fake, bot, alice, bob)
        info = await bot.svc.get(tid)
        assert info.table.turn_timer == DAY and info.correspondence
        thread = info.table.thread_id
        assert thread is not None and info.turn_seat is not None
        first = info.turn_seat.user_id
        assert first is not None
        deadline = info.deadline
        assert deadline == pytest.approx(clock.now + DAY)
        game = await game_message(fake, bot, tid)
        assert f"your move; your time runs out <t:{int(deadline)}:R>." in game.text()

        # Told once as the turn begins, whatever the game message's edits.
        told = await fake.wait_for(lambda: notices(fake, thread, first) or None)
        assert told == [
            f"<@{first}>, it is your move at table {tid}. Your time runs out "
            f"<t:{int(deadline)}:R>."
        ]
        # Half a day later nothing more; at three quarters, one reminder.
        clock.advance(DAY / 2)
        await bot.svc.tick()
        await settle(bot)
        assert len(notices(fake, thread, first)) == 1
        clock.advance(DAY / 4)
        await bot.svc.tick()
        await fake.wait_for(lambda: len(notices(fake, thread, first)) == 2)
        clock.advance(60)
        await bot.svc.tick()
        await settle(bot)
        said = notices(fake, thread, first)
        assert len(said) == 2 and said[1].startswith(f"<@{first}>, a reminder:")

        # Days later his tiles still come (a fresh interaction; every old token expired).
        clock.advance(DAY / 5)
        fake.expire_interactions()
        mover = alice if first == alice.id else bob
        hand = await open_hand(fake, bot, mover, tid)
        assert hand.message is not None and hand.message.ephemeral
        await play_turn(fake, bot, tid, mover, {mover.id: hand})
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.turn_seat is not None and info.turn_seat.user_id != first
        second = info.turn_seat.user_id
        assert second is not None
        await fake.wait_for(lambda: len(notices(fake, thread, second)) == 1)
        assert info.deadline == pytest.approx(clock.now + DAY)
        # The first player got nothing more for the other's turn.
        assert len(notices(fake, thread, first)) == 2


def whose_turn(info: TableInfo) -> int:
    assert info.turn_seat is not None and info.turn_seat.user_id is not None
    return info.turn_seat.user_id


async def test_turns_lists_every_table_of_his_move_across_servers(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    """`/domino turns`: a private answer, every table where it is his move, in any server,
    each with its server's name escaped and the link to its game message."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    other = fake.add_guild("Other *server*")
    elsewhere = fake.add_channel("general", guild_id=other.id)
    for user in (alice, bob):
        fake._add_member(other, user, DEFAULT_MEMBER_PERMISSIONS)
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        here = await correspondence_match(fake, bot, alice, bob)
        there = await correspondence_match(
            fake, bot, bob, alice, pace=3 * DAY, channel_id=elsewhere.id
        )
        infos = {t: await bot.svc.get(t) for t in (here, there)}
        for person in (alice, bob):
            mine = sorted(t for t, i in infos.items() if whose_turn(i) == person.id)
            asked = await fake.slash(person, fake.channel_id, "domino turns", {})
            assert asked.message is not None and asked.message.ephemeral
            text = asked.message.content
            if not mine:
                assert text == "It is not your move at any table."
                continue
            assert [t for t in (here, there) if f"table {t} (" in text] == mine
            for t in mine:
                row = infos[t].table
                link = f"https://discord.com/channels/{row.guild_id}/{row.thread_id}/{row.message_id}"
                assert link in text
            if there in mine:
                assert "(Other \\*server\\*)" in text
        # Alice's move at both tables: both listed.
        for t, info in infos.items():
            if whose_turn(info) != alice.id:
                other_player = bob
                hand = await open_hand(fake, bot, other_player, t)
                await play_turn(fake, bot, t, other_player, {other_player.id: hand})
        await settle(bot)
        asked = await fake.slash(alice, elsewhere.id, "domino turns", {})
        assert asked.message is not None
        assert asked.message.content.startswith("It is your move at 2 tables:")


async def test_a_vacation_moves_the_deadlines_is_told_once_and_is_limited(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        assert bot.store is not None
        tid = await correspondence_match(fake, bot, alice, bob)
        info = await bot.svc.get(tid)
        thread = info.table.thread_id
        assert thread is not None
        before = await bot.store.deadlines.list(tid)

        # Bad input changes nothing.
        for days in (0, 8):
            asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": days})
            assert asked.message is not None
            assert asked.message.content == "A vacation lasts 1 to 7 days."
        assert await bot.store.deadlines.list(tid) == before

        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": 3})
        assert asked.message is not None and asked.message.ephemeral
        assert asked.message.content.startswith(
            "Enjoy your vacation! Your 1 correspondence table is paused until"
        )
        assert "You have 1 vacation left in 90 days" in asked.message.content
        ends = clock.now + 3 * DAY
        moved = {d.kind: d.due_at for d in await bot.store.deadlines.list(tid)}
        assert moved["timeout"] == pytest.approx(ends + DAY)
        assert moved["remind"] == pytest.approx(ends + 0.75 * DAY)
        assert (await bot.svc.get(tid)).deadline == pytest.approx(ends + DAY)
        told = await fake.wait_for(
            lambda: [m for m in fake.messages(thread) if "is on vacation" in m.content]
        )
        await settle(bot)
        assert [m.content for m in told] == [
            f"<@{alice.id}> is on vacation: this table's clock is paused until <t:{int(ends)}:f>."
        ]
        # Nobody times out meanwhile.
        clock.advance(2 * DAY)
        await bot.svc.tick()
        await settle(bot)
        assert (await bot.svc.get(tid)).seq == info.seq

        # One vacation at a time; two in 90 days.
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": 1})
        assert asked.message is not None
        assert asked.message.content == "You are on vacation already."
        clock.advance(2 * DAY)
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": 1})
        assert asked.message is not None and asked.message.content.startswith("Enjoy")
        clock.advance(2 * DAY)
        kept = await bot.store.deadlines.list(tid)
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": 1})
        assert asked.message is not None
        assert asked.message.content == (
            "You have taken 2 vacations in the last 90 days; the next one can start in 84 days."
        )
        assert await bot.store.deadlines.list(tid) == kept
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {})
        assert asked.message is not None
        assert asked.message.content.startswith("You have 0 vacations left in 90 days")
        clock.advance(VACATION_WINDOW)
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {})
        assert asked.message is not None
        assert asked.message.content.startswith("You have 2 vacations left in 90 days")


@pytest.mark.parametrize("loss", [None, 2])
async def test_the_servers_time_out_rule(
    fake_discord: FakeDiscord, bots: Bots, loss: int | None
) -> None:
    """Our decision: the server chooses; by default the bot plays for the absent person and a
    computer takes his seats after three time-outs in a row; or his side loses the match at
    its N-th time-out in a row."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        if loss is not None:
            asked = await fake.slash(
                fake.owner, fake.channel_id, "domino server-settings", {"timeout_loss": loss}
            )
            assert asked.message is not None
        tid = await correspondence_match(fake, bot, alice, bob, pace=3600)
        thread = (await bot.svc.get(tid)).table.thread_id
        assert thread is not None
        for _ in range(20):
            info = await bot.svc.get(tid)
            if info.status != "running" or any(
                s is not None and s.kind == "computer" for s in info.seats
            ):
                break
            clock.advance(3600)
            await bot.svc.tick()
            await settle(bot)
        info = await bot.svc.get(tid)
        if loss is None:
            assert any(s is not None and s.kind == "computer" for s in info.seats)
            await fake.wait_for(
                lambda: any("ran out of time 3 times" in m.content for m in fake.messages(thread))
            )
        else:
            assert info.status == "finished"
            outcome = info.public_view()
            assert outcome is not None
            history = await bot.svc.history(tid)
            assert history is not None
            timeouts = [s for s in info.seats if s is not None and s.timeouts == loss]
            assert len(timeouts) == 1
            assert all(s is not None and s.kind == "human" for s in info.seats)
            # Lost on time, and said so (not "resigned"): the match-end post, which wakes
            # the absent loser too, and the game message's last lines.
            assert outcome.outcome is not None and outcome.outcome.reason == "time"
            loser = timeouts[0]
            assert loser.user_id is not None
            name = "Alice" if loser.user_id == alice.id else "Bob"
            said = f"{name} lost on time: 2 time-outs in a row."
            end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
            await settle(bot)
            assert said in end.text() and "resigned" not in end.text()
            assert loser.user_id in notified(fake, end)
            game = await game_message(fake, bot, tid) if info.table.message_id is None else (
                fake.message(info.table.message_id)
            )
            assert said in game.text() and "resigned" not in game.text()


async def test_a_person_who_chose_direct_messages_gets_his_turns_there(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    """With `turn_dms` on, the notice and the reminder come by direct message (with the game
    message's link), not in the thread, even with turn pings off; with his direct messages
    closed, in the thread."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    fake.block_dms(bob)
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        # Alice also turned the thread's pings off: her direct messages still come.
        for person, options in (
            (alice, {"turn_dms": "on", "turn_pings": "off"}),
            (bob, {"turn_dms": "on"}),
        ):
            asked = await fake.slash(person, fake.channel_id, "domino settings", options)
            assert asked.message is not None
            assert "Direct messages: **on**" in asked.message.content
        tid = await correspondence_match(fake, bot, alice, bob, pace=8 * 3600)
        info = await bot.svc.get(tid)
        thread = info.table.thread_id
        assert thread is not None
        row = info.table
        link = f"https://discord.com/channels/{row.guild_id}/{thread}/{row.message_id}"

        def dms() -> list[str]:
            return [m.content for m in fake.dm_messages(alice)]

        if whose_turn(info) == bob.id:  # Bob's direct messages are closed: his mention
            await fake.wait_for(lambda: len(notices(fake, thread, bob.id)) == 1)
            hand = await open_hand(fake, bot, bob, tid)
            await play_turn(fake, bot, tid, bob, {bob.id: hand})
            await settle(bot)
        await fake.wait_for(lambda: len(dms()) == 1)
        clock.advance(6 * 3600)
        await bot.svc.tick()
        await fake.wait_for(lambda: len(dms()) == 2)
        await settle(bot)
        said = dms()
        assert said[0].startswith(f"<@{alice.id}>, it is your move at table {tid}.")
        assert said[1].startswith(f"<@{alice.id}>, a reminder:")
        assert all(s.endswith("\n" + link) for s in said)
        assert notices(fake, thread, alice.id) == []


async def test_a_vacation_stored_by_another_process_holds_the_time_out(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    """A vacation taken through another bot process (the row in the store, this process's
    tables not told): when the turn's time-out falls due, the table pauses instead."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        assert bot.store is not None
        tid = await correspondence_match(fake, bot, alice, bob, pace=3600)
        info = await bot.svc.get(tid)
        ends = clock.now + 2 * DAY
        await CorrespondenceRepo(bot.store.db).add_vacation(Vacation(bob.id, clock.now, ends))
        clock.advance(3600)
        await bot.svc.tick()
        await settle(bot)
        after = await bot.svc.get(tid)
        assert after.seq == info.seq and after.status == "running"
        moved = {d.kind: d.due_at for d in await bot.store.deadlines.list(tid)}
        assert moved["timeout"] == pytest.approx(ends + 3600)
        clock.advance(2 * DAY)
        await bot.svc.tick()
        await settle(bot)
        assert (await bot.svc.get(tid)).seq == info.seq + 1  # the time-out, after the pause


def vacation_notices(fake: FakeDiscord, channel_id: int) -> list[str]:
    """Every vacation notice posted in a place (deleted ones too)."""
    posted = {m.id: m for m in [*fake.messages(channel_id), *fake.deleted_messages]}
    return [
        m.content
        for m in sorted(posted.values(), key=lambda m: m.id)
        if m.channel_id == channel_id and "is on vacation" in m.content
    ]


async def told_everywhere(bot: TestBot) -> bool:
    """Every vacation notice owed was posted (and marked so in the store)."""
    assert bot.store is not None
    left = await bot.store.db.fetchval("SELECT count(*) FROM vacation_notices WHERE posted = 0")
    return not left


async def test_a_vacation_notice_is_posted_once_in_each_table_through_discord_failures(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    """Discord fails the notice's post (503, twice): the feed tries again, and each paused
    table's thread shows the notice exactly once."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        tables = [
            await correspondence_match(fake, bot, alice, bob),
            await correspondence_match(fake, bot, carol, alice, pace=3 * DAY),
        ]
        threads = [(await bot.svc.get(t)).table.thread_id for t in tables]
        assert all(threads)
        fake.fail(
            "POST",
            r"/channels/\d+/messages$",
            status=503,
            message="Service Unavailable",
            times=2,
            when=lambda r: "is on vacation" in str((r.json or {}).get("content")),
        )
        asked = await fake.slash(alice, fake.channel_id, "domino vacation", {"days": 2})
        assert asked.message is not None
        assert asked.message.content.startswith(
            "Enjoy your vacation! Your 2 correspondence tables are paused until"
        )
        ends = int(clock.now + 2 * DAY)
        await fake.wait_for(
            lambda: all(vacation_notices(fake, t) for t in threads), what="the notices"
        )
        await settle(bot)
        assert await told_everywhere(bot)
        for thread in threads:
            assert thread is not None
            assert vacation_notices(fake, thread) == [
                f"<@{alice.id}> is on vacation: this table's clock is paused until <t:{ends}:f>."
            ]
        # Carol's and Bob's tables are not Alice's only: nobody else is told anything.
        assert not vacation_notices(fake, fake.channel_id)


async def test_a_vacation_taken_through_another_process_pauses_its_tables_at_once(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Two processes, each running the tables of one shard: Alice takes a vacation in the
    first one's server; the other process moves her table's reminder and time-out within its
    poll (no reminder on the old schedule) and tells its thread once."""
    fake = fake_discord
    servers = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    here, there = (fake.add_channel("play", guild_id=g.id).id for g in servers)
    alice = fake.add_user(1001, "alice", "Alice", join_guild=False)
    bob = fake.add_user(1002, "bob", "Bob", join_guild=False)
    for guild in servers:
        for user in (alice, bob):
            fake._add_member(guild, user, DEFAULT_MEMBER_PERMISSIONS)
    clock = FakeClock()
    async with (
        running_bot(fake, lambda: shard_bot(fake, database_url, 0, clock)) as a,
        running_bot(fake, lambda: shard_bot(fake, database_url, 1, clock)) as b,
    ):
        assert b.store is not None
        tid = await correspondence_match(fake, b, alice, bob, pace=3600, channel_id=there)
        info = await b.svc.get(tid)
        thread = info.table.thread_id
        assert thread is not None
        if whose_turn(info) != alice.id:
            hand = await open_hand(fake, b, bob, tid)
            await play_turn(fake, b, tid, bob, {bob.id: hand})
            await settle(b)
            info = await b.svc.get(tid)
        assert whose_turn(info) == alice.id
        await fake.wait_for(lambda: len(notices(fake, thread, alice.id)) == 1)
        assert {t.id for t in a.svc.open_tables()} == set()

        asked = await fake.slash(alice, here, "domino vacation", {"days": 1})
        assert asked.message is not None
        assert asked.message.content.startswith("Enjoy your vacation! Your 1 correspondence")
        ends = clock.now + DAY

        async def moved() -> bool:
            due = {d.kind: d.due_at for d in await b.store.deadlines.list(tid)}  # type: ignore[union-attr]
            return due.get("timeout") == pytest.approx(ends + 3600)

        await until(moved, "the other process's deadlines moved")
        due = {d.kind: d.due_at for d in await b.store.deadlines.list(tid)}
        assert due["remind"] == pytest.approx(ends + 0.75 * 3600)
        assert {(d.kind, d.due_at) for d in b.svc.scheduler.pending(tid)} >= {
            ("timeout", due["timeout"]), ("remind", due["remind"])
        }
        await fake.wait_for(lambda: vacation_notices(fake, thread), what="the notice")
        # The old schedule's reminder time passes: nothing comes; the new one, once.
        clock.advance(3600)
        await b.svc.tick()
        await settle(b)
        assert len(notices(fake, thread, alice.id)) == 1
        assert (await b.svc.get(tid)).seq == info.seq
        clock.advance(DAY - 3600 + 0.75 * 3600)
        await b.svc.tick()
        await fake.wait_for(lambda: len(notices(fake, thread, alice.id)) == 2)
        await settle(b)
        assert vacation_notices(fake, thread) == [
            f"<@{alice.id}> is on vacation: this table's clock is paused until "
            f"<t:{int(ends)}:f>."
        ]


async def test_a_vacation_is_told_once_in_each_place_of_a_table_across_servers(
    fake_discord: FakeDiscord, bots: Bots
) -> None:
    """A correspondence table shown in two servers: the notice is owed in each place, posted
    once in each; where the person plays from he is mentioned, in the other server he is
    named by his global name (no nickname, no mention of someone of another server)."""
    fake = fake_discord
    here = World(fake)
    clock = FakeClock()
    async with running_bot(fake, bots(clock)) as bot:
        alice, bob = await bot.fetch_user(here.alice.id), await bot.fetch_user(here.bob.id)
        info = await open_across(
            bot.svc,
            bot.cog.presenter,
            ruleset=make_ruleset("two", {"target": 50}),
            options={},
            seated=[(alice, fake.guild_id), (bob, here.b.id)],
            channels={fake.guild_id: fake.channel_id, here.b.id: here.b_channel.id},
            turn_timer=DAY,
        )
        tid = info.id
        rows = await pool_places(bot, tid)
        assert [p.people for p in rows] == [(here.alice.id,), (here.bob.id,)]
        for guild in (fake.guild_id, here.b.id):
            await place_message(fake, bot, tid, guild)
        threads = [p.thread_id or p.channel_id for p in await pool_places(bot, tid)]
        asked = await fake.slash(here.bob, here.b_channel.id, "domino vacation", {"days": 3})
        assert asked.message is not None
        assert asked.message.content.startswith("Enjoy your vacation! Your 1 correspondence")
        until_at = f"<t:{int(clock.now + 3 * DAY)}:f>"
        await fake.wait_for(lambda: all(vacation_notices(fake, t) for t in threads))
        await settle(bot)
        assert await told_everywhere(bot)
        a_thread, b_thread = threads
        assert a_thread is not None and b_thread is not None
        assert vacation_notices(fake, a_thread) == [
            f"Bob is on vacation: this table's clock is paused until {until_at}."
        ]
        assert vacation_notices(fake, b_thread) == [
            f"<@{here.bob.id}> is on vacation: this table's clock is paused until {until_at}."
        ]
        assert B_NICK not in texts_in(fake, fake.guild_id)
