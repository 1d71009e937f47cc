"""My tiles is answered as an update of the public game message (Discord: a component
interaction answered with ``DEFERRED_UPDATE_MESSAGE`` has the message the component is on as its
``@original``, editable through the interaction's webhook for 15 minutes, outside the bot
token's global limit), so that click's token redraws the game message; the hand itself goes
out as an ephemeral followup and is edited by its id. A person's hidden tiles never reach the
public message, through any of its versions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.traffic import BOT, INTERACTION, Request
from cogs.domino.hand_message import PublicMessage, edit_hand
from tests.cogs.helpers import (
    LOADED_WAIT,
    TILE_LABEL,
    OpenedHand,
    answer,
    assert_no_hidden_tiles,
    factory,
    human_to_move,
    open_hand,
    play_turn,
    play_until_over,
    settle,
)
from tests.cogs.test_table_layer import forge, two_humans
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot

DEFERRED_UPDATE_MESSAGE = 6
GAME_WEBHOOK = "PATCH /webhooks/{id}/{token}/messages/@original"
HAND_WEBHOOK = "PATCH /webhooks/{id}/{token}/messages/{id}"


def _spent(spent: Counter[Request], kind: str, purpose: str) -> int:
    return sum(n for r, n in spent.items() if r.kind == kind and r.purpose == purpose)


def _hand_tiles(message: StoredMessage) -> set[str]:
    """The tiles a hand message names (its tile buttons' labels)."""
    return {str(b.get("label")) for b in message.buttons() if TILE_LABEL.fullmatch(
        str(b.get("label") or ""))}


def _public_versions(message: StoredMessage) -> list[StoredMessage]:
    return [*message.history, message]


def _assert_private(fake: FakeDiscord, hand: OpenedHand, user_id: int) -> StoredMessage:
    """The hand went out as the click's ephemeral followup, to its clicker alone, and the
    click's own message (the public game message) shows none of it."""
    assert hand.type == DEFERRED_UPDATE_MESSAGE, hand.click
    message = hand.message
    assert message is not None and message.ephemeral and message.ephemeral_user_id == user_id
    assert message.id != hand.original_id
    public = fake.message(hand.original_id)
    assert not public.ephemeral
    tiles = _hand_tiles(message)
    assert tiles, message.custom_ids()
    for version in _public_versions(public):
        assert not any(a.filename.startswith("hand") for a in version.attachments)
        named = {m.group(0) for m in TILE_LABEL.finditer(version.text())}
        assert "Your turn" not in version.text() and "Waiting for" not in version.text()
        assert not (named & tiles) or version.buttons() == [], (named & tiles, version.text())
    return message


async def test_my_tiles_carries_the_game_message_and_keeps_the_hand_private(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Alice and Bob open their tiles: each click is answered as an update of the game message
    and each hand is an ephemeral followup for its clicker. Bob's hand, opened while Alice is to
    move, is refreshed for his turn by its id; every redraw of the game message in the hand goes
    through a My tiles click's token (no bot-token edit); no version of any public message
    shows a hidden tile, to the match's end."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot)
        mover_id = await fake.wait_for(
            lambda: human_to_move(bot, tid), timeout=LOADED_WAIT, what="the first turn"
        )
        mover, waiter = (alice, bob) if mover_id == alice.id else (bob, alice)
        hands = {
            waiter.id: await open_hand(fake, bot, waiter, tid),
            mover.id: await open_hand(fake, bot, mover, tid),
        }
        waiting = _assert_private(fake, hands[waiter.id], waiter.id)
        _assert_private(fake, hands[mover.id], mover.id)
        assert "Waiting for" in waiting.text()
        hand_number = (await bot.svc.get(tid)).public_view().hand_number  # type: ignore[union-attr]

        before = bot.traffic.snapshot()
        await play_turn(fake, bot, tid, mover, hands)  # type: ignore[arg-type]
        # Bob's hand, opened by My tiles, is redrawn for his turn through that click's token,
        # by the followup's id: never through @original, which is the public message.
        await fake.wait_for(
            lambda: "Your turn" in waiting.text() or human_to_move(bot, tid) != waiter.id,
            timeout=LOADED_WAIT,
            what="the waiter's hand refreshed for his turn",
        )
        await settle(bot)
        spent = bot.traffic.snapshot() - before
        info = await bot.svc.get(tid)
        if info.public_view().hand_number == hand_number:  # type: ignore[union-attr]
            assert _spent(spent, BOT, "game") == 0, spent
            assert _spent(spent, INTERACTION, "game") >= 1, spent
            assert any(r.route == GAME_WEBHOOK for r in spent), spent
        assert any(r.route == HAND_WEBHOOK for r in spent), spent
        for version in _public_versions(game):
            assert "Your turn" not in version.text()

        await play_until_over(fake, bot, tid, [alice, bob], hands=hands)  # type: ignore[arg-type]
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "finished"
        assert await assert_no_hidden_tiles(fake, bot, tid) > 5
        for user in (alice, bob):
            private = hands[user.id].message
            assert private is not None and private.ephemeral
            assert "The match is over." in private.text()
        assert fake.error_responses == []


async def test_a_hand_is_never_drawn_through_a_public_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The token of a My tiles click can edit the public game message (its ``@original``): the
    hand's editor refuses to draw a hand there, and the message stays as it was."""
    fake = fake_discord
    fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, _ = await two_humans(fake, bot)
        hand = await open_hand(fake, bot, bob, tid)
        kept = await fake.wait_for(
            lambda: bot.cog.presenter.hands._hands.get((tid, bob.id)), what="Bob's hand kept"
        )
        assert kept.message_id == hand.followups[0].id
        public = fake.message(hand.original_id)
        versions = len(public.history)
        with pytest.raises(PublicMessage):
            await edit_hand(kept.interaction, None, content="3-5 6-6")
        await edit_hand(kept.interaction, kept.message_id, content=None, view=None)
        assert len(public.history) == versions
        assert "3-5" not in public.text()


async def test_a_turn_button_forged_onto_the_game_message_draws_no_hand_there(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A turn's button (Draw, a tile) forged onto the public game message is answered in
    private (out of date, or the move made), and the clicker's hand is drawn nowhere public:
    such a click's own message is the game message, not his hand."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot)
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert view is not None and info.turn_seat is not None
        mover = alice if info.turn_seat.user_id == alice.id else bob
        seq, number = info.seq, view.hand_number
        last = game.buttons()[-1]["custom_id"]
        forge(fake, game, last, f"domino:draw:{tid}:{number}:{seq + 5}")
        click = await fake.click(mover, game, f"domino:draw:{tid}:{number}:{seq + 5}")
        assert "earlier state" in await answer(click)
        await settle(bot)
        views = await bot.svc.views_for(tid, mover.id)
        tiles = {str(t) for v in views for t in (v.hand or ())}
        for version in _public_versions(fake.message(game.id)):
            named = {m.group(0) for m in TILE_LABEL.finditer(version.text())}
            assert not named & tiles, (named & tiles, version.text())
            assert "Your turn" not in version.text()
            assert not any(a.filename.startswith("hand") for a in version.attachments)
