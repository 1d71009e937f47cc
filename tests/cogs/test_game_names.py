"""Names in the game's public messages are inert text: no masked link, markdown or mention."""

from __future__ import annotations

from pathlib import Path

from cogs.domino import texts
from tests.cogs.helpers import button, factory, game_message, new_table, play_until_over, settle
from tests.fakediscord import FakeDiscord, running_bot

LINK = "[NITRO](https://evil.example)"
STYLED = "**bold** __u__ ||x||"


async def test_a_masked_link_name_is_shown_inert_in_every_game_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", LINK)
    bob = fake.add_user(1002, "bob", STYLED)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw", target=50)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        await game_message(fake, bot, tid)
        await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        shown = "\n".join(v.text() for m in fake.public_messages() for v in [*m.history, m])
        assert LINK not in shown and "](https://" not in shown
        assert STYLED not in shown and "**bold**" not in shown
        assert "\\[NITRO\\]" in shown  # the name is there, escaped
        # The pictures draw the raw name (they render no markdown).
        info = await bot.svc.get(tid)
        assert LINK in texts.picture_names(info, None)
