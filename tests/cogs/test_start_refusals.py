"""A table that cannot start, or could not be shown, leaves nothing behind: a refused
challenge start gives the acceptance back, a practice table that cannot start leaves no table
and no announcement, and a table is refused up front where the bot could not show it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.errors import LimitReached
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    factory,
    game_message,
    new_table,
    settings_for,
    settle,
    start_with_computers,
    table_id_of,
)
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, running_bot

BUSY = "A match is already running here."
PLAYING = (
    "Someone at this table is already playing 1 matches: the match can start once he has "
    "finished one."
)
NO_PERMISSION = (
    "I am missing a permission in this channel. A server manager can let me view the channel, "
    "send messages, embed links, attach files, create public threads and send messages in "
    "threads here."
)


async def challenge(fake: FakeDiscord, host: FakeUser, invited: FakeUser) -> InteractionResult:
    return await fake.slash(
        host, fake.channel_id, "domino challenge", {"variant": "draw", "player": invited}
    )


async def test_a_refused_challenge_start_gives_the_acceptance_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    one_match = lambda: TestBot(  # noqa: E731
        settings_for(fake, tmp_path / "db.sqlite3", matches_per_user=1)
    )
    async with running_bot(fake, one_match) as bot:
        sent = await challenge(fake, alice, bob)
        invite = sent.message
        assert invite is not None and not sent.ephemeral
        tid = table_id_of(invite)
        lobby, other = await new_table(fake, bot, alice, variant="draw")
        assert lobby.message is not None
        await start_with_computers(fake, bot, alice, lobby.message)
        await settle(bot)
        shown = invite.text()

        refused = await fake.click(bob, invite, button(invite, "accept"))
        assert await answer(refused) == PLAYING
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "lobby" and not info.is_seated(bob.id)
        assert invite.text() == shown and button(invite, "accept")

        again = await fake.click(bob, invite, button(invite, "accept"))
        assert await answer(again) == PLAYING  # the reason again, not "already seated"

        done = await fake.slash(alice, fake.channel_id, "domino cancel", {"table": other})
        assert await answer(done) == f"Table {other} was cancelled."
        accepted = await fake.click(bob, invite, button(invite, "accept"))
        await game_message(fake, bot, tid)
        await settle(bot)
        assert accepted.followups == []
        assert (await bot.svc.get(tid)).status == "running"


async def test_an_accepted_challenge_that_did_not_start_starts_on_accept(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Every invitee seated but no match (the bot stopped in between): Accept starts it."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        sent = await challenge(fake, alice, bob)
        invite = sent.message
        assert invite is not None
        tid = table_id_of(invite)
        await bot.svc.join(tid, bob.id, "Bob")
        await fake.click(bob, invite, button(invite, "accept"))
        await game_message(fake, bot, tid)
        assert (await bot.svc.get(tid)).status == "running"


async def running_in_the_channel(
    fake: FakeDiscord, bot: TestBot, alice: FakeUser, bob: FakeUser
) -> int:
    """A match of alice and bob playing in the channel itself (no threads allowed)."""
    result, tid = await new_table(fake, bot, alice, variant="draw")
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    await game_message(fake, bot, tid)
    await settle(bot)
    return tid


async def test_no_practice_where_a_match_runs(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    fake.deny(fake.channel_id, "create_thread")
    no_threads = discord.Permissions(create_public_threads=True)
    fake.set_channel_overwrite(fake.channel_id, fake.bot_user.id, deny=no_threads)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        running = await running_in_the_channel(fake, bot, alice, bob)
        before = len(fake.messages(fake.channel_id))

        refused = await fake.slash(carol, fake.channel_id, "domino practice", {"variant": "draw"})
        assert refused.ephemeral and await answer(refused) == BUSY
        await settle(bot)
        assert [t.id for t in bot.svc.open_tables()] == [running]
        assert len(fake.messages(fake.channel_id)) == before

        await bot.svc.cancel(running, alice.id)
        await settle(bot)
        again = await fake.slash(carol, fake.channel_id, "domino practice", {"variant": "draw"})
        assert not again.ephemeral and "practises Draw game" in again.content
        await settle(bot)
        (info,) = bot.svc.open_tables()
        assert info.status == "running" and info.is_seated(carol.id)


async def test_a_practice_start_refused_takes_back_table_and_announcement(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        refuse = LimitReached(
            "Someone at this table is already playing {limit} matches: the match can start "
            "once he has finished one.",
            limit=1,
        )

        async def refused(*args: Any, **kwargs: Any) -> Any:
            raise refuse

        monkeypatch.setattr(bot.svc, "start", refused)
        result = await fake.slash(alice, fake.channel_id, "domino practice", {"variant": "draw"})
        assert await answer(result) == PLAYING
        await settle(bot)
        assert result.message is not None and result.message.deleted
        assert fake.messages(fake.channel_id) == []
        assert bot.svc.open_tables() == []

        monkeypatch.undo()
        again = await fake.slash(alice, fake.channel_id, "domino practice", {"variant": "draw"})
        assert not again.ephemeral
        await settle(bot)
        (info,) = bot.svc.open_tables()
        assert info.status == "running"


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("domino new", {"variant": "draw"}),
        ("domino challenge", {"variant": "draw", "player": "bob"}),
        ("domino practice", {"variant": "draw"}),
    ],
)
@pytest.mark.parametrize(
    "denied",
    [
        discord.Permissions(view_channel=True),
        discord.Permissions(embed_links=True),
        discord.Permissions(send_messages=True, create_public_threads=True),
    ],
    ids=["view", "embed", "post"],
)
async def test_no_table_where_the_bot_could_not_show_it(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    command: str,
    options: dict[str, Any],
    denied: discord.Permissions,
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    options = {k: bob if v == "bob" else v for k, v in options.items()}
    fake.set_channel_overwrite(fake.channel_id, fake.bot_user.id, deny=denied)
    if denied.view_channel:
        fake.deny(fake.channel_id, "edit_messages")  # what Discord answers then
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        refused = await fake.slash(alice, fake.channel_id, command, options)
        assert refused.ephemeral and await answer(refused) == NO_PERMISSION
        await settle(bot)
        assert bot.svc.open_tables() == []
        assert fake.messages(fake.channel_id) == []

        fake.allow(fake.channel_id)
        fake.set_channel_overwrite(fake.channel_id, fake.bot_user.id)
        again = await fake.slash(alice, fake.channel_id, command, options)
        assert not again.ephemeral, again.text()
        await settle(bot)
        assert len(bot.svc.open_tables()) == 1
