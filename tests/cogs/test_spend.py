"""What a table spends of the bot token's global rate limit, through the real bot and the fake
Discord: a click on a public message carries that message's redraw on its own interaction
(free), a stale click's token falls back to the bot token, and computers' replies to a person
(or a player's draws) are shown in one edit of the game message, which still converges."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.traffic import BOT, INTERACTION, Request
from domino import Draw, decode_action
from tests.cogs.helpers import (
    button,
    factory,
    game_message,
    hand_choice,
    human_to_move,
    match_states,
    new_table,
    open_hand,
    parse,
    play_turn,
    play_until_over,
    settle,
    shown_seq,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage, running_bot

LOBBY_WEBHOOK = "PATCH /webhooks/{id}/{token}/messages/@original"


def _spent(spent: Counter[Request], kind: str, purpose: str) -> int:
    return sum(n for r, n in spent.items() if r.kind == kind and r.purpose == purpose)


async def test_a_click_on_the_lobby_carries_its_redraw(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord: a component interaction answered with DEFERRED_UPDATE_MESSAGE edits the message
    the component is on through ``@original``, outside the global rate limit. Bob's Join
    redraws the lobby through his click; once that token is no longer good (15 minutes), a
    change that no click brings is drawn with the bot token, and the lobby is right both ways."""
    fake = fake_discord
    host = fake.add_user(1001, "host", "Host")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, host, variant="partners")
        lobby = result.message
        assert lobby is not None
        await settle(bot)
        before = bot.traffic.snapshot()
        join = await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: f"<@{bob.id}>" in lobby.text(), what="Bob in the lobby")
        await settle(bot)
        spent = bot.traffic.snapshot() - before
        assert join.type == 6
        assert _spent(spent, BOT, "lobby") == 0, spent
        assert _spent(spent, INTERACTION, "lobby") >= 1, spent
        assert any(r.route == LOBBY_WEBHOOK for r in spent), spent
        assert join.edits, "the lobby was not redrawn through Bob's click"

        join.expire()  # Discord refuses the token after 15 minutes
        before = bot.traffic.snapshot()
        await bot.svc.leave(tid, bob.id)
        await fake.wait_for(lambda: f"<@{bob.id}>" not in lobby.text(), what="Bob gone")
        await settle(bot)
        spent = bot.traffic.snapshot() - before
        assert _spent(spent, BOT, "lobby") == 1, spent


def _held(states: list[Any], rows: list[Any], kinds: list[str], seq: int) -> bool:
    """Whether the state after ``seq`` actions is one the game message waits past: computers
    replying to a person, or a player who drew and is still to move."""
    if seq == 0 or states[seq].outcome is not None:
        return False
    last = rows[seq - 1]
    state = states[seq]
    if state.hand_number != states[seq - 1].hand_number:
        return False  # a new hand's start
    turn = state.turn
    if turn is None:
        return False
    if kinds[last.seat] == "computer" and kinds[turn] == "computer":
        return True
    return isinstance(decode_action(last.action), Draw) and last.seat == turn


def _edited_versions(fake: FakeDiscord, channel_ids: set[int]) -> list[StoredMessage]:
    """Every version of the table's game messages but the first (the post), running ones."""
    out = []
    for message in fake.public_messages():
        if message.channel_id not in channel_ids:
            continue
        versions = [*message.history, message]
        out.extend(v for v in versions[1:] if shown_seq(v) is not None)
    return out


@pytest.mark.parametrize("variant", ["partners", "draw"])
async def test_computers_replies_are_one_edit_between_a_persons_moves(
    fake_discord: FakeDiscord, tmp_path: Path, variant: str
) -> None:
    """Alice against computers that take a moment each: the game message shows her every move,
    and the computers' replies together once her turn is back (their moves all in its log); a
    player's draws are shown with what he does next. It converges to the table's state."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    made = factory(fake, tmp_path / "db.sqlite3", computer_delay=0.15)
    async with running_bot(fake, made) as bot:
        result, tid = await new_table(fake, bot, alice, variant=variant, target=50)
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        await play_until_over(fake, bot, tid, [alice], stop=lambda turns: turns >= 10)
        await fake.wait_for(lambda: human_to_move(bot, tid) is not None, what="Alice's turn")
        await settle(bot)
        info = await bot.svc.get(tid)
        game = await game_message(fake, bot, tid)
        states, _ = await match_states(bot, tid)
        rows = await bot.svc.store.actions.list(tid)
        drawing = 0  # Alice's own draws of this turn (the bot makes a forced one for her)
        while isinstance(decode_action(rows[-1 - drawing].action), Draw) and (
            rows[-1 - drawing].seat == info.turn
        ):
            drawing += 1
        assert shown_seq(game) == info.seq - drawing, "the game message did not converge"
        kinds = [s.kind if s is not None else "" for s in info.seats]
        places = {c for c in (info.table.thread_id, info.table.channel_id) if c}
        versions = _edited_versions(fake, places)
        assert versions
        shown = [shown_seq(v) for v in versions]
        held = [s for s in shown if s is not None and _held(states, rows, kinds, s)]
        assert not held, f"edits for states the message should wait past: {held}"


async def test_the_matchs_end_is_drawn_once_on_the_game_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The last hand's end is the match's end: its game message is edited once to show it (the
    outcome, the final position, no buttons), not once as the hand's end and again as the
    match's."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="partners", target=50)
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        game = await game_message(fake, bot, tid)
        await play_until_over(fake, bot, tid, [alice])
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished"
        final = fake.message(info.table.message_id) if info.table.message_id else game
        versions = [*final.history, final]
        ended = [v for v in versions if shown_seq(v) is None]
        assert len(ended) == 1, [v.text() for v in ended]
        assert "won the match!" in ended[0].text() or "draw" in ended[0].text()
        assert not ended[0].buttons() and ended[0].media()


async def test_a_restart_while_computers_reply_loses_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The bot stops while the game message waits for the computers' replies (nothing of it is
    kept in memory): the next bot shows the whole run once Alice's turn is back, and her hand
    offers that turn."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    make = factory(fake, tmp_path / "db.sqlite3", computer_delay=1.0)
    hands: dict[int, InteractionResult] = {}
    async with running_bot(fake, make) as bot:
        result, tid = await new_table(fake, bot, alice, variant="partners", target=50)
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        await play_until_over(fake, bot, tid, [alice], stop=lambda n: n >= 2, hands=hands)
        await settle(bot)
        await play_turn(fake, bot, tid, alice, hands)
        moved = (await bot.svc.get(tid)).seq

        def replying() -> bool:
            info = next(t for t in bot.svc.open_tables() if t.id == tid)
            row = info.turn_seat
            return info.seq >= moved + 2 and row is not None and row.kind == "computer"

        await fake.wait_for(replying, what="a computer replying after another")
        game = await game_message(fake, bot, tid)
        stopped = (await bot.svc.get(tid)).seq
        assert (shown_seq(game) or 0) < stopped  # the run is not shown yet

    async with running_bot(fake, make) as bot:
        await fake.wait_for(lambda: human_to_move(bot, tid) == alice.id, what="Alice's turn")
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.seq > stopped
        game = await game_message(fake, bot, tid)
        assert shown_seq(game) == info.seq
        # (a new process has no token of her old hand message: My tiles opens it again)
        opened = await open_hand(fake, bot, alice, tid)
        hand = opened.message
        assert hand is not None and hand.ephemeral
        parsed = parse(hand_choice(hand))
        assert parsed is not None and parsed[2][-1] == str(info.seq)
