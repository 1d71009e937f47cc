"""A whole match through Discord: two people and two computers, from /domino new to the end."""

from __future__ import annotations

import re
from pathlib import Path

from cogs.colours import GREEN
from domino import Action, Match, Play, preset
from tests.cogs.helpers import (
    assert_no_hidden_tiles,
    button,
    button_with,
    enabled,
    factory,
    human_to_move,
    new_table,
    open_hand,
    play_turn,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot


async def test_full_match_two_people_two_computers(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: object
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
        # One container (the running match's green), the players greeted in its text, the
        # picture at full width with its alt text, My tiles beside the turn line.
        assert game.v2 and not game.content and not game.embeds
        container = game.container()
        assert container is not None and container["accent_color"] == GREEN.value
        assert "<@1001>" in game.text() and "<@1002>" in game.text()
        ((picture, alt),) = game.media()
        assert picture is not None and picture.filename == "table.png" and alt
        turn = next(c for c in container["components"] if c["type"] == 9)
        assert turn["components"][0]["content"].startswith("▶ ")
        assert turn["accessory"]["custom_id"].startswith(f"domino:tiles:{tid}:")

        hands: dict[int, InteractionResult] = {}
        turns = await play_until_over(fake, bot, tid, [alice, bob], hands=hands)
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished" and turns > 5
        view = info.public_view()
        assert view is not None and view.outcome is not None
        assert max(view.scores) >= 50

        posted = fake.messages(thread.id)
        assert all(m.v2 for m in posted if m.author.id == fake.bot_user.id and not m.content)
        games = [m for m in posted if m.attachment("table.png")]
        results = [m for m in posted if "Pips left:" in m.text() and m not in games]
        # One picture per hand end: each hand's game message shows its final position and,
        # under how it ended, its result (pips left, points, the score); nothing else is posted
        # for a hand that had its message.
        assert len(games) == len(view.hand_results) and results == []
        for number, shown in enumerate(games, start=1):
            text = shown.text()
            assert f"· hand {number}" in text
            assert f"Hand {number}: " in text and "Pips left:" in text and "Score: " in text
            assert "▶" not in text and not shown.buttons()
        # A computer's name never runs into a figure ("Computer 2 5"): a colon between them.
        for message in posted:
            assert not re.search(r"Computer \d+ \**\d", message.text()), message.text()
        assert re.search(r"Computer \d+: \d", games[0].text()), games[0].text()
        final = posted[-1]
        assert final.text().startswith("**Match over**")
        assert not final.attachments  # the last game message shows the final position
        (score,) = [x for x in games[-1].text().splitlines() if x.startswith("Score: ")]
        assert score.removeprefix("Score: ") in final.text()
        assert "won the match" in final.text()
        assert info.table.message_id is not None
        last_game = fake.message(info.table.message_id)
        assert last_game.custom_ids() == []  # no buttons once over
        assert "won the match" in last_game.text()
        # Private transitions: each player was told the next hand dealt him new tiles; at the
        # end every seated player's message says the match is over (none keeps waiting).
        assert len(view.hand_results) > 1
        for user in (alice, bob):
            private = hands[user.id].message
            assert private is not None and private.v2
            versions = [*private.history, private]
            assert any("**Hand 2: new tiles.**" in v.text() for v in versions), user.name
            assert "The match is over." in private.text() and not private.buttons()
        assert await assert_no_hidden_tiles(fake, bot, tid) > 5
        assert fake.error_responses == []


def first_button_policy(match: Match) -> Action:
    """What ``play_turn`` presses: the lowest playable tile (Left if it asks), else Draw/Pass."""
    legal = match.legal_actions()
    plays = sorted((a for a in legal if isinstance(a, Play)), key=lambda a: a.tile)
    if not plays:
        return legal[0]
    tile = plays[0].tile
    ends = [a for a in plays if a.tile is tile]
    return next((a for a in ends if a.end == "left"), ends[0])


def seed_with_a_choice(variant: str) -> int:
    """A shuffle seed whose match, played by ``first_button_policy``, soon offers a tile that
    fits both ends (so the test needs no luck)."""
    for seed in range(1, 2000):
        match = Match.new(preset(variant), seed)
        for _ in range(60):
            if match.turn is None:
                break
            plays = [a for a in match.legal_actions() if isinstance(a, Play)]
            if len({a.tile for a in plays}) < len(plays):
                return seed
            match = match.apply(first_button_policy(match))
    raise AssertionError("no seed offers a choice of ends")


async def test_a_tile_that_fits_both_ends_asks_which_end(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    users = {alice.id: alice, bob.id: bob}
    seed = seed_with_a_choice("two")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", seed=seed)) as bot:
        result, tid = await new_table(fake, bot, alice, variant="two")
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        hands: dict[int, InteractionResult] = {}
        for _ in range(200):
            who = await fake.wait_for(lambda: human_to_move(bot, tid))
            assert who != "over", "no tile fitting both ends came up"
            user = users[int(who)]
            if user.id not in hands:
                hands[user.id] = await open_hand(fake, bot, user, tid)
            await settle(bot)
            hand = hands[user.id].message
            assert hand is not None
            ask = [c for c in enabled(hand) if ":ask:" in c]
            if not ask:
                await play_turn(fake, bot, tid, user, hands)
                continue
            info = await bot.svc.get(tid)
            tile = ask[0].split(":")[3]
            click = await fake.click(user, hand, ask[0])
            await click.wait_for_edits(1)
            assert f"Where do you lay {tile}?" in hand.text()
            before = info.public_view()
            assert before is not None and before.ends is not None
            # The end buttons say the number they play on, as the picture's end discs do.
            left, right = before.ends
            labels = [b["label"] for b in hand.buttons()]
            assert labels == [f"on the {left}", f"on the {right}", "Back"], labels
            assert "move" not in hand.text()
            back = await fake.click(user, hand, button(hand, "back"))
            await back.wait_for_edits(1)
            assert ask[0] in enabled(hand)  # the tiles again
            click = await fake.click(user, hand, ask[0])
            await click.wait_for_edits(1)
            right = button_with(hand, "play", "right")
            played = await fake.click(user, hand, right)
            await played.wait_for_edits(1)
            assert f"You played {tile}." in hand.text()
            after = await bot.svc.get(tid)
            view = after.public_view()
            assert view is not None and after.seq == info.seq + 1
            event = next(e for e in view.events if str(e.tile) == tile)
            assert event.end == "right"
            return
        raise AssertionError("no tile fitting both ends came up")
