"""A player's private hand message always ends on the table as it is: a slow redraw of his own
click never overwrites the newer one that offers his next turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.workers import pictures
from domino import View
from tests.cogs.helpers import (
    LOADED_WAIT,
    _action_on,
    factory,
    hand_choice,
    human_to_move,
    new_table,
    open_hand,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_slow_redraw_of_a_click_does_not_hide_the_next_turn(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice plays; the redraw of her click (which shows the computers to move) is slow, and
    the computers answer meanwhile. Her message ends showing her turn, with its buttons."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    real_hand_png = pictures.hand_png
    armed = False
    held = asyncio.Event()
    release = asyncio.Event()

    async def gated(view: View, **options: Any) -> bytes | None:
        nonlocal armed
        if armed and not view.legal:  # the click's redraw: the computers are to move
            armed = False
            held.set()
            await release.wait()
        return await real_hand_png(view, **options)

    monkeypatch.setattr(pictures, "hand_png", gated)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        await fake.wait_for(
            lambda: human_to_move(bot, tid) == alice.id, timeout=LOADED_WAIT, what="Alice's turn"
        )
        hand = await open_hand(fake, bot, alice, tid)
        message = hand.message
        assert message is not None
        choice = await fake.wait_for(
            lambda: _action_on(message), timeout=LOADED_WAIT, what="an action on Alice's hand"
        )
        armed = True
        click = await fake.click(alice, message, choice)
        await fake.wait_for(held.is_set, timeout=LOADED_WAIT, what="the click's redraw")
        await fake.wait_for(
            lambda: human_to_move(bot, tid) in (alice.id, "over"),
            timeout=LOADED_WAIT,
            what="the computers' answers",
        )
        hands = bot.cog.presenter.hands
        lock = hands._lock(tid, alice.id)

        def refresh_done_or_waiting() -> bool:
            # the table's refresh either already drew her turn, or waits for the click's redraw
            waiting = bool(getattr(lock, "_waiters", None))
            return waiting or _action_on(message) is not None

        await fake.wait_for(
            refresh_done_or_waiting, timeout=LOADED_WAIT, what="the table's refresh of her hand"
        )
        release.set()
        # both redraws were sent with the click's token: the click's own, and the refresh's
        await click.wait_for_edits(2, timeout=LOADED_WAIT)
        await settle(bot)
        if human_to_move(bot, tid) == alice.id:
            hand_choice(message)  # raises when no action is offered
            assert "Your turn" in message.text(), message.text()
