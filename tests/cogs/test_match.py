"""A whole match through Discord: two people and two computers, from /domino new to the end."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.helpers import (
    assert_no_hidden_tiles,
    button,
    factory,
    new_table,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_full_match_two_people_two_computers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="venezuelan", target=50)
        lobby = result.message
        assert lobby is not None and not result.ephemeral
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        game = await start_with_computers(fake, bot, alice, lobby)
        thread = fake.channels[game.channel_id]
        assert thread.is_thread and thread.parent_id == fake.channel_id
        assert "<@1001>" in game.content and "<@1002>" in game.content

        turns = await play_until_over(fake, bot, tid, [alice, bob])
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished" and turns > 5
        view = info.public_view()
        assert view is not None and view.outcome is not None
        assert max(view.scores) >= 50

        posted = fake.messages(thread.id)
        hand_ends = [m for m in posted if m.embed and "Hand " in (m.embed.get("title") or "")]
        assert len([m for m in hand_ends if "is over" not in m.embed["title"]]) == len(
            view.hand_results
        )
        final = posted[-1]
        assert final.embed is not None and final.embed["title"] == "Match over"
        announced = [m for m in hand_ends if "is over" not in m.embed["title"]]
        assert announced[-1].embed["fields"][0]["value"] == final.embed["fields"][0]["value"]
        assert "Pips left:" in announced[0].text()
        assert "won the match" in final.text()
        assert info.table.message_id is not None
        last_game = fake.message(info.table.message_id)
        assert last_game.custom_ids() == []  # no buttons once over
        assert await assert_no_hidden_tiles(fake, bot, tid) > 5
        assert fake.error_responses == []
