"""Clicks that must change nothing, permissions Discord refuses, and unexpected errors."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord

from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    enabled,
    factory,
    game_message,
    hand_choice,
    new_table,
    open_hand,
    parse,
    settle,
)
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, StoredMessage, running_bot


async def two_player_game(
    fake: FakeDiscord, bot: TestBot, alice: FakeUser, bob: FakeUser
) -> tuple[int, StoredMessage]:
    """A running draw game between alice and bob; returns the table id and its game message."""
    result, tid = await new_table(fake, bot, alice, variant="draw")
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    return tid, await game_message(fake, bot, tid)


async def forced_click(
    fake: FakeDiscord, user: FakeUser, message: StoredMessage, custom_id: str
) -> InteractionResult:
    """Click a disabled button anyway (as a modified client, or a race, could)."""
    component = message.component(custom_id)
    assert component is not None
    component["disabled"] = False
    return await fake.click(user, message, custom_id)


def seq_of(custom_id: str) -> int:
    parsed = parse(custom_id)
    assert parsed is not None
    return int(parsed[2][-1])


async def test_bad_clicks_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_player_game(fake, bot, alice, bob)
        info = await bot.svc.get(tid)
        users = {alice.id: alice, bob.id: bob}
        assert info.turn_seat is not None and info.turn_seat.user_id is not None
        mover = users[info.turn_seat.user_id]
        waiter = bob if mover is alice else alice

        # A stranger: My tiles and Resign.
        for kind in ("tiles", "resign"):
            stranger = await fake.click(carol, game, button(game, kind))
            assert await answer(stranger) == "You are not seated at this table."

        # Out of turn: every tile of the waiting player is disabled; forcing one is refused.
        waiting = await open_hand(fake, bot, waiter, tid)
        hand = waiting.message
        assert hand is not None and hand.ephemeral and hand.ephemeral_user_id == waiter.id
        assert hand.attachments == [] or hand.attachments[0].filename == "hand.png"
        assert enabled(hand) == [] and "Waiting for" in hand.text()
        await open_hand(fake, bot, waiter, tid)  # a second copy: the one the bot keeps fresh
        tile = hand.custom_ids()[0]
        out_of_turn = await forced_click(fake, waiter, hand, tile)
        assert await answer(out_of_turn) == "It is not your turn."
        assert (await bot.svc.get(tid)).seq == info.seq

        # A double click, and a click at the same moment from a second copy of the hand:
        # exactly one action is applied, the others are told they came too late.
        first = await open_hand(fake, bot, mover, tid)
        second = await open_hand(fake, bot, mover, tid)
        copy_a, copy_b = first.message, second.message
        assert copy_a is not None and copy_b is not None
        choice = hand_choice(copy_a)
        assert seq_of(choice) == info.seq
        if parse(choice)[2][1] == "ask":  # type: ignore[index]
            choice = choice.replace(":ask:", ":left:")
            copy_a.component(hand_choice(copy_a))["custom_id"] = choice  # type: ignore[index]
            copy_b.component(hand_choice(copy_b))["custom_id"] = choice  # type: ignore[index]
        clicks = await asyncio.gather(
            fake.click(mover, copy_a, choice),
            fake.click(mover, copy_a, choice),
            fake.click(mover, copy_b, choice),
        )
        await settle(bot)
        assert (await bot.svc.get(tid)).seq == info.seq + 1
        late = [c for c in clicks if c.followups]
        assert len(late) == 2
        for click in late:
            assert click.followups[0].ephemeral
            assert click.followups[0].content in (
                "This was for an earlier state of the game; look at the latest message.",
                "Someone else acted first; look at the latest message.",
            )

        # A button from an older message: the waiting player's first copy of his hand still
        # carries the old move number (the bot refreshed his second copy when his turn came).
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.turn_seat is not None and info.turn_seat.user_id == waiter.id
        old_button = hand.custom_ids()[0]
        assert seq_of(old_button) < info.seq
        stale = await forced_click(fake, waiter, hand, old_button)
        assert await answer(stale) == (
            "This was for an earlier state of the game; look at the latest message."
        )
        assert (await bot.svc.get(tid)).seq == info.seq
        await stale.wait_for_edits(1)  # and the hand was shown as it is now
        assert all(seq_of(c) == info.seq for c in hand.custom_ids())

        # A finished table: the mover resigns; the other's buttons now answer "closed".
        resign = await fake.click(mover, game, button(game, "resign"))
        (confirm,) = await resign.wait_for_followups(1)
        assert confirm.content == "Resign? Your side loses the match."
        done = await fake.click(mover, confirm, button(confirm, "resignok"))
        await done.wait_for_edits(1)
        assert confirm.content == "You resigned." and confirm.custom_ids() == []
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "finished"
        # His hand message says so at once (no buttons); a tile button of its earlier version
        # (an old client, a race) is answered that the table is closed.
        assert "The match is over." in hand.text() and hand.buttons() == []
        old_tile = next(
            c["custom_id"] for c in hand.history[-1].buttons() if c["custom_id"].count(":") > 5
        )
        hand.components = [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": old_tile}
        ]}]
        hand.flags &= ~(1 << 15)
        closed = await fake.click(waiter, hand, old_tile)
        assert await answer(closed) == "This table is closed."
        assert game.custom_ids() == []


async def test_no_thread_permission_plays_in_the_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    fake.deny(fake.channel_id, "create_thread")
    no_threads = discord.Permissions(create_public_threads=True)
    fake.set_channel_overwrite(fake.channel_id, fake.bot_user.id, deny=no_threads)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_player_game(fake, bot, alice, bob)
        assert game.channel_id == fake.channel_id and fake.threads() == []
        info = await bot.svc.get(tid)
        assert info.table.thread_id is None
        assert bot.svc.table_in(channel_id=fake.channel_id) is not None
        mover = alice if info.turn_seat and info.turn_seat.user_id == alice.id else bob
        hand = await open_hand(fake, bot, mover, tid)
        assert hand.message is not None and enabled(hand.message)

        # One running table per channel: a second table here cannot start.
        result, other = await new_table(fake, bot, alice, variant="two")
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        busy = await fake.click(alice, lobby, button(lobby, "start"))
        assert await answer(busy) == "A match is already running here."
        assert (await bot.svc.get(other)).status == "lobby"


async def test_no_send_permission_is_explained(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        fake.deny(fake.channel_id, "create_thread")
        fake.deny(fake.channel_id, "send_messages")
        start = await fake.click(alice, lobby, button(lobby, "start"))
        text = await answer(start)
        assert text.startswith("I am missing a permission in this channel.")
        assert text.endswith("The table was cancelled.")
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "cancelled"
        assert "This table was cancelled." in lobby.text()
        assert not any(r.levelname == "ERROR" for r in fake.bot_errors)


async def test_unexpected_error_is_logged_with_the_table_and_apologised_for(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(
        fake, factory(fake, tmp_path / "db.sqlite3"), raise_bot_errors=False
    ) as bot:
        tid, game = await two_player_game(fake, bot, alice, bob)

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        bot.svc.views_for = broken  # type: ignore[method-assign]
        click = await fake.click(alice, game, button(game, "tiles"))
        assert await answer(click) == "Sorry, something went wrong on my side. Please try again."
    messages = [r.getMessage() for r in fake.bot_errors]
    assert any(f"table {tid}: button tiles failed" in m for m in messages), messages
