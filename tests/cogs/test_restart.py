"""Restarts: a new bot on the same database and the same Discord carries on where it stopped."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.helpers import (
    TestBot,
    assert_no_hidden_tiles,
    button,
    factory,
    hand_choice,
    human_to_move,
    new_table,
    parse,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot


async def test_restart_in_the_middle_of_a_hand(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: object
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    users = {alice.id: alice, bob.id: bob}
    make = factory(fake, tmp_path / "db.sqlite3")
    hands: dict[int, InteractionResult] = {}

    async with running_bot(fake, make) as bot:
        result, tid = await new_table(fake, bot, alice, variant="venezuelan", target=50)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        game = await start_with_computers(fake, bot, alice, lobby)
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda n: n >= 3, hands=hands)
        await settle(bot)
        before = await bot.svc.get(tid)
        assert before.status == "running" and before.seq > 3
        view = before.public_view()
        assert view is not None and view.events  # in the middle of a hand
        mover = before.turn_seat
        assert mover is not None and mover.user_id in users

    # A new bot instance, the same database file and the same (fake) Discord.
    async with running_bot(fake, make) as bot:
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "running" and info.seq == before.seq
        assert info.table.message_id == game.id  # the same game message, refreshed
        assert game.edit_count >= 1
        # The mover's private hand message from before the restart still works.
        assert mover.user_id is not None
        hand = hands[mover.user_id].message
        assert hand is not None
        choice = hand_choice(hand)
        parsed = parse(choice)
        assert parsed is not None and parsed[2][-1] == str(info.seq)
        if parsed[2][1] == "ask":
            click = await fake.click(users[mover.user_id], hand, choice)
            await click.wait_for_edits(1)
            choice = next(c for c in hand.custom_ids() if ":left:" in c)
        click = await fake.click(users[mover.user_id], hand, choice)
        await click.wait_for_edits(1)
        assert not click.followups
        await settle(bot)
        assert (await bot.svc.get(tid)).seq > before.seq
        # The old game message's My tiles button works too.
        who = await fake.wait_for(lambda: human_to_move(bot, tid))
        assert who in users
        tiles = await fake.click(users[int(who)], game, button(game, "tiles"))
        (shown,) = await tiles.wait_for_followups(1)
        assert shown.ephemeral and shown.custom_ids()
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda n: n >= 2)

    # While the bot is down someone deletes the game message: a new one is posted.
    await fake.delete_message(game.channel_id, game.id)
    async with running_bot(fake, make) as bot:
        fresh = await fake.wait_for(lambda: new_message(bot, tid, game.id))
        reposted = fake.message(fresh)
        assert reposted.channel_id == game.channel_id and not reposted.deleted
        assert button(reposted, "tiles")

        # Deleted while the bot runs: posted again at once.
        await fake.delete_message(reposted.channel_id, reposted.id)
        await fake.wait_for(lambda: new_message(bot, tid, game.id, reposted.id))
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished"
        assert await assert_no_hidden_tiles(fake, bot, tid) > 5


def message_id(bot: TestBot, table_id: int) -> int | None:
    """The game message id the bot has for an open table."""
    for info in bot.svc.open_tables():
        if info.id == table_id:
            return info.table.message_id
    return None


def new_message(bot: TestBot, table_id: int, *old: int) -> int | None:
    """The table's game message id once it is none of ``old``."""
    current = message_id(bot, table_id)
    return current if current is not None and current not in old else None
