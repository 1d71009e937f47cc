"""The turn timer: a reminder at half time, the bot plays for the absent player, and after
three time-outs in a row a computer takes the seat (announced)."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.helpers import (
    FakeClock,
    button,
    factory,
    game_message,
    new_table,
    open_hand,
    settle,
)
from tests.fakediscord import FakeDiscord, running_bot

TIMER = 30


async def test_reminder_timeout_and_takeover(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw", turn_timer=TIMER)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        game = await game_message(fake, bot, tid)
        thread = game.channel_id
        info = await bot.svc.get(tid)
        assert info.turn_seat is not None
        first = info.turn_seat.user_id
        assert f"<t:{int(clock.now) + TIMER}:R>" in game.text()  # when the bot plays for him

        # Half time: a reminder that mentions the player.
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        reminder = await fake.wait_for(
            lambda: next((m for m in fake.messages(thread) if "it is your turn" in m.content), None)
        )
        assert reminder.content.startswith(f"<@{first}>, it is your turn!")

        # Time is up: the bot plays for him, and the game message says so.
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        await fake.wait_for(lambda: bot.svc.open_tables()[0].seq == info.seq + 1)
        await settle(bot)
        assert "(time ran out: the bot played)" in fake.message(game.id).text()

        # Nobody plays: three time-outs in a row each, then computers take both seats.
        for _ in range(12):
            if not bot.svc.open_tables():  # both seats computers: they finished the match
                break
            clock.advance(TIMER)
            await bot.svc.tick()
            await settle(bot)
        announcements = [m.content for m in fake.messages(thread) if "ran out of time" in m.content]
        assert announcements == [
            f"<@{u}> ran out of time 3 times in a row: a computer plays for them for the rest "
            "of the match."
            for u in (first, bob.id if first == alice.id else alice.id)
        ][: len(announcements)]
        assert len(announcements) == 2

        # The computers finish the match by themselves (the clock moves on: pauses between hands).
        for _ in range(500):
            if not bot.svc.open_tables():
                break
            clock.advance(1)
            await bot.svc.tick()
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished"
        final = fake.messages(thread)[-1]
        assert final.title() == "Match over"


async def test_taken_over_player_sees_tiles_but_cannot_act(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        result, tid = await new_table(fake, bot, alice, variant="partners", turn_timer=TIMER)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        start = await fake.click(alice, lobby, button(lobby, "start"))
        (confirm,) = await start.wait_for_followups(1)
        await fake.click(alice, confirm, button(confirm, "fill"))
        await game_message(fake, bot, tid)
        for _ in range(40):
            seats = bot.svc.open_tables()[0].seats
            if seats[0] is not None and seats[0].kind == "computer":
                break
            clock.advance(TIMER)
            await bot.svc.tick()
            await settle(bot)
        info = await bot.svc.get(tid)
        assert info.seats[0] is not None and info.seats[0].kind == "computer"
        hand = await open_hand(fake, bot, alice, tid)
        assert hand.message is not None
        assert "A computer plays for you now" in hand.message.text()
        assert all(b.get("disabled") for b in hand.message.buttons())
