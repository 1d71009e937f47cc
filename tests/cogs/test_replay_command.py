"""``/domino replay`` through the fake Discord: a stored match, chosen by autocomplete, comes
back as an animated picture with one frame per move; other servers' matches stay hidden."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.store.table_extras import FinishedRepo
from tests.cogs.helpers import (
    answer,
    button,
    factory,
    game_message,
    new_table,
    play_turn,
    settle,
)
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot


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
        result, tid = await new_table(fake, bot, alice, variant="two", target=50)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        thread = (await game_message(fake, bot, tid)).channel_id
        users = {alice.id: alice, bob.id: bob}
        hands: dict[int, InteractionResult] = {}
        for _ in range(6):  # a few moves, then Alice resigns
            info = await bot.svc.get(tid)
            assert info.turn_seat is not None and info.turn_seat.user_id is not None
            await play_turn(fake, bot, tid, users[info.turn_seat.user_id], hands)
        asked = await fake.slash(alice, thread, "domino leave", {})
        assert asked.message is not None
        await fake.click(alice, asked.message, button(asked.message, "resignok"))
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await settle(bot)
        moves = await bot.svc.store.actions.count(tid)
        assert moves == 7

        # Autocomplete offers the match, by table, variant and players.
        typed = await fake.autocomplete(bob, fake.channel_id, "domino replay", "table", {})
        assert typed.choices and typed.choices[0]["value"] == tid
        assert typed.choices[0]["name"].startswith(f"Table {tid} · Domino for two · Alice, Bob")
        none = await fake.autocomplete(
            bob, fake.channel_id, "domino replay", "table", {"table": "zzz"}
        )
        assert none.choices == []

        # The whole match: one frame per move, under Discord's limit, with alt text.
        shown = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid})
        (message,) = await shown.wait_for_followups(1)
        assert message.ephemeral and "(7 moves)" in message.content
        (gif,) = message.attachments
        assert gif.filename == "replay.gif" and len(gif.data) < 8_000_000
        assert frames(gif.data) == moves
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
        assert not public.ephemeral and frames(public.attachments[0].data) == moves

        # A hand that was not played, and a match someone may not see, change nothing.
        bad = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid, "hand": 9})
        assert "Hand 9 has no moves to replay" in await answer(bad)
        # Another server's member sees neither the match nor its label; its players still do.
        repo = FinishedRepo(bot.svc.store.db)
        assert await repo.visible(carol.id, 999) == []
        assert [m.table_id for m in await repo.visible(alice.id, 999)] == [tid]
