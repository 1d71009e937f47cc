"""Correspondence tables: a turn of hours or days, told once and reminded once, `/domino turns`
across servers, vacations, the server's time-out rule, on both backends.

Our decisions (docs/rules.md, "Correspondence tables"): the turn's person is told as his turn
begins and reminded at three quarters of his time, in the table's thread or by direct message
if he chose that; a vacation lasts 1 to 7 days, two in 90 days, and pauses the clock of every
correspondence table he plays at.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import POSTGRES, SQLITE
from tests.cogs.helpers import (
    FakeClock,
    TestBot,
    button,
    game_message,
    open_hand,
    play_turn,
    settings_for,
    settle,
)
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import FakeUser

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
        assert f"<t:{int(deadline)}:R>" in game.text()

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
