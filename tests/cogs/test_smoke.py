from __future__ import annotations

from pathlib import Path

from tests.cogs.helpers import (
    button,
    factory,
    new_table,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_smoke(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="venezuelan", target=50)
        lobby = result.message
        assert lobby is not None
        join = await fake.click(bob, lobby, button(lobby, "join"))
        assert join.type == 6
        await settle(bot)
        print(lobby.text())
        game = await start_with_computers(fake, bot, alice, lobby)
        await settle(bot)
        print(game.text(), game.custom_ids())
        info = await bot.svc.get(tid)
        print(info.turn, info.seats)
        for m in fake.public_messages():
            print(m.id, m.channel_id, m.text()[:200])
