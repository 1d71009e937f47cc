"""``/domino replay`` through the fake Discord: a stored match, chosen by autocomplete, comes
back as an animated picture with one frame per move; other servers' matches stay hidden."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.store.table_extras import FinishedRepo, Readable
from bot.tables import replay
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    factory,
    forget_me,
    game_message,
    new_table,
    play_turn,
    settle,
    table_id_of,
)
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS, PRIVATE_THREAD


def frames(gif: bytes) -> int:
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    return int(img.n_frames)


async def test_replay_of_a_stored_match(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol", join_guild=False)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid = await seven_moves(fake, bot, alice, bob)
        moves = 7

        # Autocomplete offers the match, by table, variant and players.
        typed = await fake.autocomplete(bob, fake.channel_id, "domino replay", "table", {})
        assert typed.choices and typed.choices[0]["value"] == tid
        assert typed.choices[0]["name"].startswith(f"Table {tid} · Domino for two · Alice, Bob")
        none = await fake.autocomplete(
            bob, fake.channel_id, "domino replay", "table", {"table": "zzz"}
        )
        assert none.choices == []

        # The whole match: the deal, then one frame per move, under Discord's limit, with
        # alt text.
        shown = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid})
        (message,) = await shown.wait_for_followups(1)
        assert message.ephemeral and "(7 moves)" in message.content
        (gif,) = message.attachments
        assert gif.filename == "replay.gif" and len(gif.data) < 8_000_000
        assert frames(gif.data) == moves + 1
        assert any(
            a.get("description") == "Replay of the match between Alice, Bob: 7 moves."
            for r in fake.requests
            if isinstance(r.json, dict)
            for a in (r.json.get("attachments") or [])
        )

        # One hand, shared with the channel.
        shared = await fake.slash(
            bob, fake.channel_id, "domino replay", {"table": tid, "hand": 1, "share": True}
        )
        (public,) = await shared.wait_for_followups(1)
        assert not public.ephemeral and frames(public.attachments[0].data) == moves + 1

        # A hand that was not played, and a match someone may not see, change nothing.
        bad = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid, "hand": 9})
        assert "Hand 9 has no moves to replay" in await answer(bad)
        # Another server's member sees neither the match nor its label; its players still do.
        repo = FinishedRepo(bot.svc.store.db)
        elsewhere = Readable(999, frozenset({fake.channel_id}))
        assert await repo.visible(carol.id, elsewhere, veil=None) == []
        assert [m.table_id for m in await repo.visible(alice.id, elsewhere, veil=None)] == [tid]

        # The kept replays draw Bob's name: forget-me deletes them with his records.
        kept = replay.cache_folder(bot.svc.store)
        assert list(kept.glob(f"{tid}-*.gif"))
        await forget_me(fake, bob)
        assert not list(kept.glob(f"{tid}-*.gif"))


# ------------------------------------------------- matches of channels the asker cannot see

VIEW = discord.Permissions(view_channel=True).value
VIEW_THREADS = discord.Permissions(manage_threads=True).value


def overwrite_of(bot: TestBot, channel_id: int, user_id: int) -> discord.PermissionOverwrite:
    """The bot's cached overwrite of ``user_id`` in the channel (CHANNEL_UPDATE arrived)."""
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel.overwrites_for(discord.Object(user_id))


async def finished_in(fake: FakeDiscord, bot: TestBot, place: int) -> int:
    """Alice opens a table of "two" in ``place``, Bob joins, Bob resigns: the table's id."""
    alice, bob = fake.user(1001), fake.user(1002)
    opened = await fake.slash(alice, place, "domino new", {"variant": "two", "target": 50})
    lobby = opened.message
    assert lobby is not None, opened.text()
    tid = table_id_of(lobby)
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    where = (await game_message(fake, bot, tid)).channel_id
    asked = await fake.slash(bob, where, "domino leave", {})
    assert asked.message is not None
    await fake.click(bob, asked.message, button(asked.message, "resignok"))
    await fake.wait_for(lambda: all(t.id != tid for t in bot.svc.open_tables()))
    await settle(bot)
    return tid


async def test_matches_of_channels_the_asker_cannot_see(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Someone else's match is listed, replayed, shared and in a history only for a member
    who can view, when he asks, the channel it was played in (or its thread's channel; a
    private thread: Manage Threads there)."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")  # #general only
    dave = fake.add_user(1004, "dave", "Dave")  # #staff too, by an overwrite
    erin = fake.add_user(
        1005, "erin", "Erin", permissions=DEFAULT_MEMBER_PERMISSIONS | VIEW_THREADS
    )
    staff = fake.add_channel("staff")
    fake.set_channel_overwrite(staff.id, fake.guild.everyone.id, deny=VIEW)
    for user in (alice.id, 1002, dave.id, fake.bot_user.id):
        fake.set_channel_overwrite(staff.id, user, allow=VIEW)
    talk = fake.add_thread(staff.id, "staff talk", owner=alice)  # a thread of #staff
    secret = fake.add_thread(fake.channel_id, "secret", owner=alice, type=PRIVATE_THREAD)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        general = await finished_in(fake, bot, fake.channel_id)
        in_staff = await finished_in(fake, bot, staff.id)
        in_talk = await finished_in(fake, bot, talk.id)
        in_secret = await finished_in(fake, bot, secret.id)
        hidden = {in_staff, in_talk, in_secret}

        async def listed(user: FakeUser) -> set[int]:
            got = await fake.autocomplete(user, fake.channel_id, "domino replay", "table", {})
            return {int(c["value"]) for c in got.choices or ()}

        async def history_of_alice(user: FakeUser) -> int:
            asked = await fake.slash(user, fake.channel_id, "domino history", {"user": alice})
            return asked.text().count("<t:")  # one relative time per match listed

        assert await listed(alice) == hidden | {general}  # her own: every one
        assert await listed(carol) == {general}
        assert await history_of_alice(carol) == 1
        for tid in hidden:
            public_before = len(fake.public_messages())
            shared = await fake.slash(
                carol, fake.channel_id, "domino replay", {"table": tid, "share": True}
            )
            assert shared.ephemeral
            assert await answer(shared) == f"No match was played at table {tid}."
            assert len(fake.public_messages()) == public_before
        assert await listed(dave) == {general, in_staff, in_talk}
        assert await history_of_alice(dave) == 3
        assert await listed(erin) == {general, in_secret}  # sees private threads of #general

        # Our decision: shown to Dave alone, a #staff match may be posted for everyone only
        # where everyone reading could look at #staff: in #staff or its threads, not #general.
        for asker, tid in ((dave, in_staff), (dave, in_talk), (alice, in_secret)):
            public_before = len(fake.public_messages())
            shared = await fake.slash(
                asker, fake.channel_id, "domino replay", {"table": tid, "share": True}
            )
            assert shared.ephemeral
            assert await answer(shared) == (
                f"Table {tid} was played where not everyone here can look: it can only be"
                " shown to you (leave share out)."
            )
            assert len(fake.public_messages()) == public_before
        # In #staff, Dave may post its thread's match for everyone there.
        shared = await fake.slash(
            dave, staff.id, "domino replay", {"table": in_talk, "share": True}
        )
        (posted,) = await shared.wait_for_followups(1)
        assert not posted.ephemeral and posted.content.startswith("Replay:")

        # At the time of asking: Dave loses #staff, and its matches with it.
        fake.set_channel_overwrite(staff.id, dave.id, deny=VIEW)
        await fake.wait_for(lambda: overwrite_of(bot, staff.id, dave.id).view_channel is False)
        assert await listed(dave) == {general}
        assert await history_of_alice(dave) == 1
        shared = await fake.slash(
            dave, fake.channel_id, "domino replay", {"table": in_staff, "share": True}
        )
        assert await answer(shared) == f"No match was played at table {in_staff}."


# ------------------------------------------------------------------------- what it costs


def deferrals(fake: FakeDiscord) -> int:
    """How many interactions the bot has deferred ("thinking") so far."""
    return sum(
        1
        for r in fake.requests
        if r.path.endswith("/callback") and isinstance(r.json, dict) and r.json.get("type") == 5
    )


async def test_a_replay_is_deferred_drawn_off_the_loop_once_and_within_limits(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our decision: the command answers first ("thinking"), then the match is rebuilt and
    drawn off the event loop; a long match shows one hand; a replay drawn once is served
    from the cache; at most AT_ONCE are drawn at once and a person waits COOLDOWN seconds
    between two drawings, each refusal said at once to him alone."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    monkeypatch.setattr(replay, "MAX_MOVES", 5)  # this match's 7 moves make a long match
    monkeypatch.setattr(replay, "AT_ONCE", 1)
    seen: list[tuple[str, bool, int]] = []
    hold = threading.Event()
    hold.set()
    real = replay.draw_file

    def spy(*args: Any) -> Any:
        seen.append(
            (
                threading.current_thread().name,
                threading.current_thread() is threading.main_thread(),
                deferrals(fake),
            )
        )
        assert hold.wait(10)
        return real(*args)

    monkeypatch.setattr(replay, "draw_file", spy)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid = await seven_moves(fake, bot, alice, bob)

        # Bob's drawing holds the only slot: Carol's shared replay is refused to her alone.
        hold.clear()
        before = deferrals(fake)
        waiting = await fake.slash(
            bob, fake.channel_id, "domino replay", {"table": tid, "hand": 1}, locale="pt-BR"
        )
        await fake.wait_for(lambda: len(seen) == 1)
        (drawn,) = seen
        assert not drawn[1] and drawn[2] == before + 1  # in a worker, after the answer
        public_before = len(fake.public_messages())
        busy = await fake.slash(
            carol, fake.channel_id, "domino replay", {"table": tid, "share": True}
        )
        assert busy.ephemeral and not busy.deferred
        assert await answer(busy) == (
            "The bot is drawing other replays right now; try again in a minute."
        )
        assert len(fake.public_messages()) == public_before
        hold.set()
        (bobs,) = await waiting.wait_for_followups(1)
        assert waiting.deferred and bobs.ephemeral and frames(bobs.attachments[0].data) == 8

        # The whole match, too long here: its first hand, said so.
        shown = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid})
        (message,) = await shown.wait_for_followups(1)
        assert shown.deferred and shown.ephemeral and len(seen) == 2
        assert "· hand 1 (7 moves)" in message.content
        assert "A long match: its first hand is shown." in message.content
        assert "(1 to 1)" in message.content

        # The same replay again: from the cache, nothing drawn (and no cooldown).
        again = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid})
        (copy,) = await again.wait_for_followups(1)
        assert len(seen) == 2 and copy.attachments[0].data == message.attachments[0].data

        # Another picture for Alice (in Spanish) within her cooldown: refused, nothing drawn.
        refused = await fake.slash(
            alice, fake.channel_id, "domino replay", {"table": tid}, locale="es-ES"
        )
        assert not refused.deferred and refused.ephemeral and len(seen) == 2
        assert (await answer(refused)).startswith("Podrás pedir otra repetición dentro de ")


async def seven_moves(fake: FakeDiscord, bot: TestBot, alice: FakeUser, bob: FakeUser) -> int:
    """A game of two between Alice and Bob: six turns, then Alice resigns (seven moves)."""
    result, tid = await new_table(fake, bot, alice, variant="two", target=50)
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    thread = (await game_message(fake, bot, tid)).channel_id
    users = {alice.id: alice, bob.id: bob}
    hands: dict[int, InteractionResult] = {}
    for _ in range(6):
        info = await bot.svc.get(tid)
        assert info.turn_seat is not None and info.turn_seat.user_id is not None
        await play_turn(fake, bot, tid, users[info.turn_seat.user_id], hands)
    asked = await fake.slash(alice, thread, "domino leave", {})
    assert asked.message is not None
    await fake.click(alice, asked.message, button(asked.message, "resignok"))
    await fake.wait_for(lambda: not bot.svc.open_tables())
    await settle(bot)
    assert await bot.svc.store.actions.count(tid) == 7
    return tid
