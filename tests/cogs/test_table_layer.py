"""The table layer: the store is the truth and Discord converges on it.

Through the real discord.py path and the fake Discord: every hand's final position is drawn
and its result posted exactly once, also when Discord fails or the bot stops at a hand's end;
challenges keep their invitees across a restart; commands stay in their server; lobbies and
challenges expire; many tables start at once from one channel.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import discord

from tests.bot.helpers import FakeClock
from tests.cogs.helpers import (
    answer,
    assert_no_hidden_tiles,
    button,
    factory,
    game_message,
    is_game_message,
    new_table,
    play_until_over,
    said_results,
    settle,
    start_with_computers,
)
from tests.cogs.test_privacy import global_bot
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

HAND_RESULT = re.compile(r"^Hand (\d+): ")


def results_posted(fake: FakeDiscord, channel_id: int) -> list[int]:
    """The hand numbers whose result the messages of a place say, in order."""
    return said_results(fake.messages(channel_id))


def match_ends(fake: FakeDiscord, channel_id: int) -> int:
    return sum(m.title() == "Match over" for m in fake.messages(channel_id))


def forge(fake: FakeDiscord, message: StoredMessage, old: str, new: str) -> None:
    """Rewrite a button's custom id in the stored message, as a forged client would send it."""
    stored = fake.message(message.id)
    for comp in stored.all_components():
        if comp.get("custom_id") == old:
            comp["custom_id"] = new
            return
    raise LookupError(old)


async def two_humans(fake: FakeDiscord, bot: object, variant: str = "draw", **options: object):
    alice, bob = fake.user(1001), fake.user(1002)
    result, tid = await new_table(fake, bot, alice, variant=variant, **options)  # type: ignore[arg-type]
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    game = await game_message(fake, bot, tid)  # type: ignore[arg-type]
    return tid, game


async def test_every_hand_end_is_drawn_and_announced_once(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: object
) -> None:
    """The hand-ending move gets its picture: the game message shows the final position with
    the result (nothing else is posted for that hand)."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot, target=50)
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert info.status == "finished" and view is not None
        hands = len(view.hand_results)
        assert hands >= 2
        place = game.channel_id
        assert results_posted(fake, place) == list(range(1, hands + 1))
        assert match_ends(fake, place) == 1
        for m in fake.messages(place):
            if HAND_RESULT.match(m.title()):  # words only: the game message shows the picture
                assert not m.attachments, m.title()
        # Each hand's game message was last edited into the final position of its hand.
        games = [m for m in fake.messages(place) if is_game_message(m)]
        finished = [m for m in games if "is over" in m.text() or "domino" in m.text().lower()]
        assert len(finished) >= hands - 1
        assert await assert_no_hidden_tiles(fake, bot, tid) > hands


async def test_discord_errors_at_hand_ends_never_freeze_the_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """503s on every kind of post (the next hand's table message included), 500s on edits and
    a 429: every human can act on every turn and the match reaches its end."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot, target=50)
        place = game.channel_id
        fake.fail("POST", rf"/channels/{place}/messages$", status=503, times=3)
        fake.fail("PATCH", rf"/channels/{place}/messages/\d+$", status=500, times=2)
        fake.fail("POST", rf"/channels/{place}/messages$", status=429, times=1, retry_after=0.01)
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert info.status == "finished" and view is not None
        assert fake.error_responses  # the failures did happen
        assert results_posted(fake, place) == list(range(1, len(view.hand_results) + 1))
        assert match_ends(fake, place) == 1


async def test_a_stop_at_a_hand_end_loses_no_announcement(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The bot stops after the hand-ending commit, before Discord heard of it. After the
    restart every hand's result appears exactly once, with its picture, and the match goes on."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    make = factory(fake, tmp_path / "db.sqlite3")

    def hands_done(bot: object) -> int:
        info = bot.svc.open_tables()  # type: ignore[attr-defined]
        view = info[0].public_view() if info else None
        return len(view.hand_results) if view else 99

    async with running_bot(fake, make) as bot:
        tid, game = await two_humans(fake, bot, target=100)
        place = game.channel_id
        # Discord is down for posts and for the edits that say a hand's result: the hand's
        # end is committed but not published.
        fake.fail("POST", rf"/channels/{place}/messages$", status=503, times=None)
        fake.fail("PATCH", r"/messages/(?:\d+|@original)$", status=503, times=None,
                  when=lambda r: "Pips left" in json.dumps(r.json))
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda n: hands_done(bot) >= 1)
        assert hands_done(bot) == 1 and results_posted(fake, place) == []
    fake._failures.clear()

    async with running_bot(fake, make) as bot:
        await fake.wait_for(lambda: results_posted(fake, place) == [1])
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert info.status == "finished" and view is not None
        assert results_posted(fake, place) == list(range(1, len(view.hand_results) + 1))
        assert match_ends(fake, place) == 1


async def test_a_challenge_stays_private_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The invitees are in the store: with Read Message History denied, after a restart a
    stranger's Accept is refused and the invitee's starts the match."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    eve = fake.add_user(1005, "eve", "Eve")
    make = factory(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, make) as bot:
        result = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": bob}
        )
        challenge = result.message
        assert challenge is not None
    fake.deny(fake.channel_id, "read_messages")
    async with running_bot(fake, make) as bot:
        await settle(bot)
        refused = await fake.click(eve, challenge, button(challenge, "accept"))
        assert await answer(refused) == "This challenge is not for you."
        tid = next(iter(t.id for t in bot.svc.open_tables()))
        assert not (await bot.svc.get(tid)).is_seated(eve.id)
        await fake.click(bob, challenge, button(challenge, "accept"))
        await fake.wait_for(lambda: bot.svc.open_tables()[0].status == "running")


async def test_commands_act_only_in_their_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """/domino leave in another server does nothing to a match here; here it asks first."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    fake.add_user(1002, "bob", "Bob")
    other = fake.add_guild("Elsewhere")
    elsewhere = fake.add_channel("general", guild_id=other.id)
    fake._add_member(other, alice, DEFAULT_MEMBER_PERMISSIONS)
    async with running_bot(fake, lambda: global_bot(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot)
        there = await fake.slash(alice, elsewhere.id, "domino leave", {})
        assert await answer(there) == "You have no seat at an open table."
        assert (await bot.svc.get(tid)).status == "running"
        cancel = await fake.slash(alice, elsewhere.id, "domino cancel", {})
        assert await answer(cancel) == "There is no table to cancel here."
        here = await fake.slash(alice, game.channel_id, "domino leave", {})
        assert here.content == "Resign? Your side loses the match."
        assert (await bot.svc.get(tid)).status == "running"
        # A forged button for a table that cannot exist.
        forged = f"domino:tiles:{10**19 - 1}:0"
        forge(fake, game, button(game, "tiles"), forged)
        huge = await fake.click(alice, game, forged)
        assert await answer(huge) == f"There is no table {10**19 - 1}."


async def test_lobbies_and_challenges_expire_also_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    make = factory(fake, tmp_path / "db.sqlite3", clock=clock)
    async with running_bot(fake, make) as bot:
        result, lobby_id = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None and "Closes" in lobby.text()
        sent = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": bob}
        )
        challenge = sent.message
        assert challenge is not None
    clock.advance(bot.svc.lobby_ttl + 1)
    async with running_bot(fake, make) as bot:
        await bot.svc.tick()
        await settle(bot)
        assert (await bot.svc.get(lobby_id)).table.closed_reason == "expired"
        await fake.wait_for(lambda: "this table has closed" in lobby.text())
        assert lobby.custom_ids() == []
        assert "expired" not in challenge.text()  # a challenge waits a day
        clock.advance(bot.svc.challenge_ttl)
        await bot.svc.tick()
        await settle(bot)
        await fake.wait_for(lambda: "this challenge has expired" in challenge.text())
        assert challenge.custom_ids() == []
        assert await bot.svc.get(lobby_id + 1) is not None
        assert (await bot.svc.get(lobby_id + 1)).table.closed_reason == "expired"


async def test_eight_tables_started_at_once_from_one_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Each table gets its own thread, so none is refused for the channel being busy."""
    fake = fake_discord
    hosts = [fake.add_user(2000 + i, f"host{i}", f"Host {i}") for i in range(8)]
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        lobbies = []
        for host in hosts:
            result, _ = await new_table(fake, bot, host, variant="draw")
            assert result.message is not None
            lobbies.append(result.message)
        starts = await asyncio.gather(
            *(fake.click(h, m, button(m, "start")) for h, m in zip(hosts, lobbies, strict=True))
        )
        fills = []
        for host, start in zip(hosts, starts, strict=True):
            (confirm,) = await start.wait_for_followups(1)
            fills.append(fake.click(host, confirm, button(confirm, "fill")))
        await asyncio.gather(*fills)
        await fake.wait_for(
            lambda: len([t for t in bot.svc.open_tables() if t.status == "running"]) == 8
            or not any(t.status == "lobby" for t in bot.svc.open_tables()),
        )
        await settle(bot)
        tables = [await bot.svc.get(t) for t in range(1, 9)]
        assert all(t.status in ("running", "finished") for t in tables)
        threads = {t.table.thread_id for t in tables}
        assert len(threads) == 8 and None not in threads
        assert len(fake.threads(fake.channel_id)) == 8


async def test_a_channel_without_threads_holds_one_running_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    no_threads = discord.Permissions(create_public_threads=True)
    fake.set_channel_overwrite(fake.channel_id, fake.bot_user.id, deny=no_threads)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        first, a = await new_table(fake, bot, alice, variant="draw")
        second, b = await new_table(fake, bot, bob, variant="draw")
        assert first.message is not None and second.message is not None
        await start_with_computers(fake, bot, alice, first.message)
        busy = await fake.click(bob, second.message, button(second.message, "start"))
        (confirm,) = await busy.wait_for_followups(1)
        busy = await fake.click(bob, confirm, button(confirm, "fill"))
        assert await answer(busy) == "A match is already running here."
        assert (await bot.svc.get(b)).status == "lobby"
        assert (await bot.svc.get(a)).table.thread_id is None


async def test_a_dropped_gateway_and_an_invalid_session_leave_no_one_stuck(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The connection drops mid-match (resumed), then the session is refused (a new one): the
    players keep acting and the match ends with every hand announced once."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot, target=50)
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda n: n >= 3)
        await fake.disconnect_gateway()  # resumable: discord.py RESUMEs
        await fake.wait_connected()
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda n: n >= 3)
        sessions = len(fake._sessions)
        await fake.disconnect_gateway(code=1000)  # not resumable: a new session (IDENTIFY)
        await fake.wait_for(lambda: len(fake._sessions) > sessions and fake.connected)
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert info.status == "finished" and view is not None
        place = game.channel_id
        assert results_posted(fake, place) == list(range(1, len(view.hand_results) + 1))
        assert match_ends(fake, place) == 1

