"""The end of a match through the fake Discord: the final picture, the result, each person's
rating change, a Rematch that starts once everyone accepted, and the thread archived later."""

from __future__ import annotations

import re
from pathlib import Path

from bot.records.match_end import ARCHIVE_AFTER
from cogs.colours import GOLD
from tests.cogs.helpers import (
    FakeClock,
    TestBot,
    answer,
    button,
    factory,
    forget_me,
    game_message,
    new_table,
    settings_for,
    settle,
)
from tests.cogs.test_server_settings import MANAGER
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot

RATING = re.compile(r"<@(\d+)>: ([+-]\d+) → (\d[\d,]*)")


async def resign(fake: FakeDiscord, bot: TestBot, user: FakeUser, where: int) -> None:
    asked = await fake.slash(user, where, "domino leave", {})
    assert asked.message is not None
    await fake.click(user, asked.message, button(asked.message, "resignok"))


def match_end(fake: FakeDiscord, thread: int) -> StoredMessage | None:
    found = [m for m in fake.messages(thread) if m.title() == "Match over"]
    return found[-1] if found else None


def rematch_ids(message: StoredMessage) -> list[str]:
    """The Rematch buttons of a match-end post (its Review button stays on offer)."""
    return [c for c in message.custom_ids() if c.startswith("domino:rematch:")]


def offer(message: StoredMessage) -> str:
    """What the rematch offer says now: the match-end post's last text."""
    texts = [c["content"] for c in message.all_components() if c.get("type") == 10]
    return texts[-1] if texts else ""


async def test_rematch_and_wrap_up(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw", target=50, turn_timer=45)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        game = await game_message(fake, bot, tid)
        thread = game.channel_id
        first = await bot.svc.get(tid)
        await resign(fake, bot, bob, thread)
        end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        await settle(bot)

        # The result and both rating changes, in one gold container; the final position is on
        # the game message above (one picture of it).
        text = end.text()
        assert "Alice" in text and "won the match" in text
        assert end.v2 and end.container()["accent_color"] == GOLD.value  # type: ignore[index]
        assert not end.attachments and game.attachment("table.png")
        assert "won the match" in game.text() and not game.buttons()
        changes = {int(u): (d, r) for u, d, r in RATING.findall(text)}
        assert set(changes) == {alice.id, bob.id}, text
        assert changes[alice.id][0].startswith("+") and changes[bob.id][0].startswith("-")
        stats = await bot.get_cog("Records").records.stats(alice.id)  # type: ignore[union-attr]
        assert str(stats.ratings["two-player"].display) == changes[alice.id][1].replace(",", "")

        # Only the players may ask; one acceptance waits for the other.
        stranger = await fake.click(carol, end, button(end, "rematch"))
        assert await answer(stranger) == "Only the players of this match can ask for a rematch."
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        assert offer(end) == "Rematch? Accepted: <@1001>. Waiting for <@1002>."
        assert not [t for t in bot.svc.open_tables() if t.status == "running"]
        click = await fake.click(bob, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)

        # The rematch: same seats, same options, in the same thread, at once.
        (new,) = bot.svc.open_tables()
        assert new.status == "running" and new.id != tid
        assert offer(end) == f"Rematch accepted by everyone: table {new.id}."
        assert rematch_ids(end) == []  # (the Review button stays)
        assert [(s.user_id, s.kind) for s in new.seats] == [
            (s.user_id, s.kind) for s in first.seats
        ]
        assert new.ruleset == first.ruleset and new.table.turn_timer == 45
        assert new.table.channel_id == thread
        second = await game_message(fake, bot, new.id)
        assert second.channel_id == thread and "the match begins" in second.text()
        assert not fake.channels[thread].archived

        # The rematch ends too; nobody asks for another: the thread is archived later.
        await resign(fake, bot, alice, thread)
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await settle(bot)
        ends = [m for m in fake.messages(thread) if m.title() == "Match over"]
        assert len(ends) == 2 and button(ends[-1], "rematch")
        clock.advance(ARCHIVE_AFTER - 1)
        await bot.svc.tick()
        assert not fake.channels[thread].archived
        clock.advance(2)
        await bot.svc.tick()
        await fake.wait_for(lambda: fake.channels[thread].archived, what="the thread archived")
        assert rematch_ids(ends[-1]) == [] and "offer has closed" in offer(ends[-1])
        assert await bot.svc.store.deadlines.list() == []


async def test_rematch_offer_survives_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    make = factory(fake, tmp_path / "db.sqlite3", clock=clock)
    async with running_bot(fake, make) as bot:
        _, tid = await new_table(fake, bot, alice, variant="two")
        lobby = fake.message((await bot.svc.get(tid)).table.lobby_message_id or 0)
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        thread = (await game_message(fake, bot, tid)).channel_id
        await resign(fake, bot, alice, thread)
        end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        await settle(bot)
        click = await fake.click(bob, end, button(end, "rematch"))
        await click.wait_for_edits(1)
    async with running_bot(fake, make) as bot:
        # The vote was kept; the other acceptance starts the rematch.
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)
        (new,) = bot.svc.open_tables()
        assert new.status == "running"
        clock.advance(ARCHIVE_AFTER + 1)
        await bot.svc.tick()
        assert not fake.channels[thread].archived  # the rematch plays there


async def test_no_rematch_once_a_player_was_forgotten(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        end, _ = await finished_match(fake, bot, alice, bob)
        await forget_me(fake, alice)
        before = end.text()
        click = await fake.click(bob, end, button(end, "rematch"))
        assert await answer(click) == "The rematch offer has closed."
        assert "<@-" not in end.text() and end.text() == before
        assert bot.svc.open_tables() == []


async def finished_match(
    fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser
) -> tuple[StoredMessage, int]:
    """``host`` and ``guest`` play a match of draw that ``guest`` resigns: its match-end post
    and its thread."""
    result, tid = await new_table(fake, bot, host, variant="draw", target=50)
    lobby = result.message
    assert lobby is not None
    await fake.click(guest, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{guest.id}>" in lobby.text())
    await fake.click(host, lobby, button(lobby, "start"))
    thread = (await game_message(fake, bot, tid)).channel_id
    await resign(fake, bot, guest, thread)
    end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
    await settle(bot)
    return end, thread


async def test_rematch_the_bot_cannot_post_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        end, thread = await finished_match(fake, bot, alice, bob)
        fake.deny(thread, "send_messages")
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        click = await fake.click(bob, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)
        assert offer(end) == (
            "I am missing a permission in this channel. A server manager can let me view the "
            "channel, send messages, embed links, attach files, create public threads and send "
            "messages in threads here.\nThe table was cancelled."
        )
        assert bot.svc.open_tables() == []

        # The offer is still open with both acceptances: once the bot may post, a click retries.
        fake.allow(thread)
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)
        (new,) = bot.svc.open_tables()
        assert new.status == "running"
        assert offer(end) == f"Rematch accepted by everyone: table {new.id}."
        assert rematch_ids(end) == []
        assert (await game_message(fake, bot, new.id)).channel_id == thread


async def test_rematch_names_whose_limit_stops_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    db = tmp_path / "db.sqlite3"
    make = lambda: TestBot(settings_for(fake, db, cooldown=60.0), clock=clock)  # noqa: E731
    async with running_bot(fake, make) as bot:
        end, _ = await finished_match(fake, bot, alice, bob)
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)

        # Alice hosts: the rematch is a table she opens, within her cooldown.
        refused = await fake.click(bob, end, button(end, "rematch"))
        assert await answer(refused) == (
            "<@1001> opened a table a moment ago: the rematch can start in 60 s."
        )
        refused = await fake.click(alice, end, button(end, "rematch"))
        assert await answer(refused) == "Please wait 60 s before you open another table."
        assert bot.svc.open_tables() == []

        clock.advance(61)
        click = await fake.click(bob, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)
        (new,) = bot.svc.open_tables()
        assert new.status == "running"
        assert offer(end) == f"Rematch accepted by everyone: table {new.id}."


async def test_rematch_follows_the_servers_settings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A rematch is a table its host opens: the server's channels, host role and own limits
    apply to it as to ``/domino new``, at the moment it would start."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    boss = fake.add_user(1004, "boss", "Boss", permissions=MANAGER)
    games = fake.add_channel("games")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        end, thread = await finished_match(fake, bot, alice, bob)
        click = await fake.click(alice, end, button(end, "rematch"))
        await click.wait_for_edits(1)

        async def settings(**changes: object) -> None:
            await fake.slash(boss, games.id, "domino server-settings", changes)

        async def last_acceptance(user: FakeUser) -> str:
            text = await answer(await fake.click(user, end, button(end, "rematch")))
            await settle(bot)
            assert bot.svc.open_tables() == [] and button(end, "rematch")
            return text

        # Tables only in #games now: not in the match's thread of the main channel.
        await settings(add_channel=games.id)
        assert await last_acceptance(bob) == (
            f"Tables can be opened only in <#{games.id}> on this server."
        )
        # A host role Alice (the host) does not have: said to each as to him.
        await settings(reset="channels")
        role = fake.guild.personal_roles[carol.id]
        await settings(host_role=role)
        assert await last_acceptance(bob) == (
            f"<@1001> hosts this table and no longer has the role <@&{role}> that opens "
            "tables on this server: the rematch cannot start."
        )
        assert await last_acceptance(alice) == (
            f"Only members with the role <@&{role}> can open tables on this server."
        )
        # The server's own limits: one open table at most, and Carol has one open.
        await settings(reset="host_role")
        await settings(open_tables=1)
        await new_table(fake, bot, carol, variant="draw")
        assert await answer(await fake.click(bob, end, button(end, "rematch"))) == (
            "This server already has 1 open tables: wait until one finishes."
        )
        assert len(bot.svc.open_tables()) == 1
        # Matches per member: Alice plays another match already.
        await settings(open_tables=0, matches_per_member=1)
        (lobby,) = bot.svc.open_tables()
        assert lobby.table.lobby_message_id is not None
        lobby_message = fake.message(lobby.table.lobby_message_id)
        await fake.click(alice, lobby_message, f"domino:join:{lobby.id}")
        await settle(bot)
        await fake.click(carol, lobby_message, f"domino:start:{lobby.id}")
        await fake.wait_for(lambda: bot.svc.open_tables()[0].status == "running")
        assert await answer(await fake.click(bob, end, button(end, "rematch"))) == (
            "<@1001> is already playing 1 matches: the rematch can start once one of them ends."
        )

        # Back to no limits: the next click starts it, in the match's thread.
        await settings(reset="limits")
        click = await fake.click(bob, end, button(end, "rematch"))
        await click.wait_for_edits(1)
        await settle(bot)
        new = [t for t in bot.svc.open_tables() if t.host_id == alice.id]
        assert len(new) == 1 and new[0].status == "running"
        assert offer(end) == f"Rematch accepted by everyone: table {new[0].id}."
        assert (await game_message(fake, bot, new[0].id)).channel_id == thread
