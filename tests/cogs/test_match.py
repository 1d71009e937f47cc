"""A whole match through Discord: two people and two computers, from /domino new to the end."""

from __future__ import annotations

from pathlib import Path

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
            assert f"Where do you lay {tile}?" in hand.content
            before = info.public_view()
            assert before is not None and before.ends is not None
            # The end buttons say the number they play on, as the picture's end discs do.
            left, right = before.ends
            labels = [b["label"] for b in hand.buttons()]
            assert labels == [f"on the {left}", f"on the {right}", "Back"], labels
            assert "move" not in hand.content
            back = await fake.click(user, hand, button(hand, "back"))
            await back.wait_for_edits(1)
            assert ask[0] in enabled(hand)  # the tiles again
            click = await fake.click(user, hand, ask[0])
            await click.wait_for_edits(1)
            right = button_with(hand, "play", "right")
            played = await fake.click(user, hand, right)
            await played.wait_for_edits(1)
            assert f"You played {tile}." in hand.content
            after = await bot.svc.get(tid)
            view = after.public_view()
            assert view is not None and after.seq == info.seq + 1
            event = next(e for e in view.events if str(e.tile) == tile)
            assert event.end == "right"
            return
        raise AssertionError("no tile fitting both ends came up")
