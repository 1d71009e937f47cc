"""Discord refuses a table's thread for a while (a shared rate limit): the table plays in its
channel meanwhile, nobody's private hand waits, and the thread is asked for again later until
it exists; then the game message moves into it."""

from __future__ import annotations

from pathlib import Path

from cogs.domino.presenter import THREAD_RETRY
from tests.bot.helpers import FakeClock
from tests.cogs.helpers import (
    TestBot,
    button,
    factory,
    game_message,
    human_to_move,
    new_table,
    play_turn,
    settle,
)
from tests.fakediscord import (
    FakeDiscord,
    FakeUser,
    InteractionResult,
    StoredMessage,
    running_bot,
)

RETRY = 600.0  # Discord's retry for a shared limit: minutes


async def two_people_start(
    fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser
) -> tuple[int, StoredMessage]:
    """``host`` opens a table, ``guest`` joins, the match starts: its id and game message."""
    result, tid = await new_table(fake, bot, host, variant="draw")
    lobby = result.message
    assert lobby is not None
    await fake.click(guest, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{guest.id}>" in lobby.text())
    await fake.click(host, lobby, button(lobby, "start"))
    return tid, await game_message(fake, bot, tid)


async def test_refused_thread_is_made_later(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    users = {u.id: u for u in (alice, bob)}
    clock = FakeClock()
    refusals = 2
    fake.fail("POST", r"/threads$", status=429, times=refusals, retry_after=RETRY)

    def refused() -> int:
        return sum(r.status == 429 and r.path.endswith("/threads") for r in fake.requests)

    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await two_people_start(fake, bot, alice, bob)
        assert game.channel_id == fake.channel_id  # no thread yet: the table plays here
        hands: dict[int, InteractionResult] = {}
        for made in range(1, refusals + 1):
            assert refused() == made
            who = human_to_move(bot, tid)
            assert isinstance(who, int)
            # the player's own hand is redrawn at once: it does not wait for the thread
            await play_turn(fake, bot, tid, users[who], hands)
            clock.advance(RETRY)
            who = human_to_move(bot, tid)
            assert isinstance(who, int)
            await play_turn(fake, bot, tid, users[who], hands)  # the feed asks again
            await settle(bot)
        info = await bot.svc.get(tid)
        thread = fake.channels[info.table.thread_id or 0]
        assert thread.is_thread and thread.parent_id == fake.channel_id
        game = await game_message(fake, bot, tid)
        assert game.channel_id == thread.id  # the game message moved into the thread
        assert refused() == refusals


async def test_thread_refused_five_times_is_not_given_up(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    users = {u.id: u for u in (alice, bob)}
    clock = FakeClock()
    # short refusals: discord.py waits each out and gives up after its fifth try
    fake.fail("POST", r"/threads$", status=429, times=5, retry_after=0.01)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await two_people_start(fake, bot, alice, bob)
        assert game.channel_id == fake.channel_id
        assert (await bot.svc.get(tid)).table.thread_id == 0  # still to be made
        clock.advance(THREAD_RETRY)
        who = human_to_move(bot, tid)
        assert isinstance(who, int)
        await play_turn(fake, bot, tid, users[who], {})
        await settle(bot)
        game = await game_message(fake, bot, tid)
        assert fake.channels[game.channel_id].is_thread
