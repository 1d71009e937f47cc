"""A long match's replay turns its pages with Previous and Next hand, through the fake Discord:
only the asker turns them, a click on a page already turned is answered, and the limits of
drawing (one at a time per process, the cache) hold."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.tables import replay
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    factory,
    game_message,
    human_to_move,
    new_table,
    play_turn,
    settle,
)
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, running_bot
from tests.fakediscord.models import StoredMessage


def frames(gif: bytes) -> int:
    return int(Image.open(io.BytesIO(gif)).n_frames)


def pages(message: StoredMessage) -> dict[str, tuple[str, bool]]:
    """The replay's page buttons: label -> (custom id, enabled)."""
    out = {}
    for row in message.components:
        for c in row.get("components", []):
            if str(c.get("custom_id", "")).startswith("domino:replay:"):
                out[c["label"]] = (c["custom_id"], not c.get("disabled", False))
    return out


PREVIOUS, NEXT = "◀ Previous hand", "Next hand ▶"


async def three_hands(fake: FakeDiscord, bot: TestBot, alice: FakeUser, bob: FakeUser) -> int:
    """Alice and Bob play two whole hands, then Alice resigns in the third: the table's id."""
    result, tid = await new_table(fake, bot, alice, variant="two", target=500)
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    users = {alice.id: alice, bob.id: bob}
    hands: dict[int, InteractionResult] = {}
    while len(await bot.svc.store.hand_results.list(tid)) < 2:
        who = await fake.wait_for(lambda: human_to_move(bot, tid))
        await play_turn(fake, bot, tid, users[int(who)], hands)
    thread = (await game_message(fake, bot, tid)).channel_id
    asked = await fake.slash(alice, thread, "domino leave", {})
    assert asked.message is not None
    await fake.click(alice, asked.message, button(asked.message, "resignok"))
    await fake.wait_for(lambda: not bot.svc.open_tables())
    await settle(bot)
    return tid


async def hand_moves(bot: TestBot, tid: int) -> dict[int, int]:
    """Moves per hand, from the stored log."""
    match = await bot.svc.store.matches.get(tid)
    assert match is not None
    actions = await bot.svc.store.actions.list(tid)
    counts: dict[int, int] = {}
    for hand, _row, _m in replay._moves(match, actions):
        counts[hand] = counts.get(hand, 0) + 1
    return counts


async def test_a_long_replay_pages_hand_by_hand(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    monkeypatch.setattr(replay, "MAX_MOVES", 5)  # every match here is a long one
    monkeypatch.setattr(replay, "COOLDOWN", 0.0)
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, factory(fake, db)) as bot:
        tid = await three_hands(fake, bot, alice, bob)
        moves = await hand_moves(bot, tid)
        assert sorted(moves) == [1, 2, 3]

        # Shared with the channel: the first hand, Previous disabled, Next enabled.
        shown = await fake.slash(alice, fake.channel_id, "domino replay",
                                 {"table": tid, "share": True})
        (message,) = await shown.wait_for_followups(1)
        assert not message.ephemeral and "· hand 1 (" in message.content
        assert frames(message.attachments[0].data) == moves[1] + 1
        buttons = pages(message)
        assert [buttons[PREVIOUS][1], buttons[NEXT][1]] == [False, True]
        drawn = bot.cog.replays().drawn

        # Bob is not the asker: refused to him alone, the message unchanged.
        before = message.snapshot()
        stranger = await fake.click(bob, message, buttons[NEXT][0])
        (no,) = await stranger.wait_for_followups(1)
        assert no.ephemeral and no.content.startswith("Only the person who asked for this replay")
        assert message.content == before.content and pages(message) == buttons
        assert bot.cog.replays().drawn == drawn

        # Alice turns to hand 2: the same message shows it, with both buttons enabled.
        turned = await fake.click(alice, message, buttons[NEXT][0])
        await turned.wait_for_edits(1)
        assert "· hand 2 (" in message.content and f"({moves[2]} moves)" in message.content
        assert frames(message.attachments[0].data) == moves[2] + 1
        second = pages(message)
        assert [second[PREVIOUS][1], second[NEXT][1]] == [True, True]
        assert bot.cog.replays().drawn == drawn + 1

        # Two clicks on the same Next at once: the first turns the page, the later one is
        # told the replay moved on, and nothing more is drawn.
        one = await fake.click(alice, message, second[NEXT][0], wait=False)
        two = await fake.click(alice, message, second[NEXT][0], wait=False)
        await one.wait_for_response()
        await two.wait_for_response()
        await fake.wait_for(lambda: "· hand 3 (" in message.content)
        late = await fake.wait_for(lambda: (one.followups or two.followups) or None)
        assert [m.content for m in late] == [
            "This replay shows another hand now: use the buttons it shows."
        ]
        third = pages(message)
        assert [third[PREVIOUS][1], third[NEXT][1]] == [True, False]
        assert bot.cog.replays().drawn == drawn + 2

    # After a restart the buttons still work; hand 2 again comes from the cache.
    async with running_bot(fake, factory(fake, db)) as bot:
        back = await fake.click(alice, message, third[PREVIOUS][0])
        await back.wait_for_edits(1)
        assert "· hand 2 (" in message.content
        assert bot.cog.replays().drawn == 0

        # The asker's own (ephemeral) replay of hand 3 goes back to hand 2 the same way.
        own = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid, "hand": 3})
        (mine,) = await own.wait_for_followups(1)
        assert mine.ephemeral
        left = await fake.click(alice, mine, pages(mine)[PREVIOUS][0])
        await left.wait_for_edits(1)
        assert "· hand 2 (" in mine.content


async def test_page_turns_are_not_held_by_the_replay_cooldown(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our decision: the cooldown is for asking for replays, not for reading one. Within the
    asker's cooldown Next hand turns the page (drawn, not from the cache), a new replay is
    still refused; a page that needs drawing while the process draws all it may at once is
    refused to the asker alone and the page stays."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    monkeypatch.setattr(replay, "MAX_MOVES", 5)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid = await three_hands(fake, bot, alice, bob)
        shown = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid})
        (message,) = await shown.wait_for_followups(1)
        replays = bot.cog.replays()
        drawn = replays.drawn
        turned = await fake.click(alice, message, pages(message)[NEXT][0])
        await turned.wait_for_edits(1)
        assert not turned.followups, [m.content for m in turned.followups]
        assert "· hand 2 (" in message.content
        assert replays.drawn == drawn + 1
        again = await fake.slash(alice, fake.channel_id, "domino replay", {"table": tid, "hand": 3})
        assert (await answer(again)).startswith("You can ask for another replay in ")

        replays.drawing = replays.at_once  # every drawing slot taken by other replays
        busy = await fake.click(alice, message, pages(message)[NEXT][0])
        assert (await answer(busy)).startswith("The bot is drawing other replays right now")
        assert "· hand 2 (" in message.content
        replays.drawing = 0
