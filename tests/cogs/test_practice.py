"""``/domino practice``: against computers at once, with a Hint button only there."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from bot.tables import clock
from bot.tables.hint import Hint, hint, lacked_numbers
from bot.tables.practice import is_practice
from cogs.domino import practice
from domino import Match, Pass, Play, Tile, preset
from tests.bot.helpers import count_hint_searches, fail_one_computer_search
from tests.cogs.helpers import (
    button,
    factory,
    game_message,
    human_to_move,
    new_table,
    open_hand,
    parse,
    play_until_over,
    settle,
    shown_seq,
)
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot

HINT = re.compile(r"^Hint: (.+), because (.+)$")


async def test_practice_starts_at_once_and_offers_hints(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(
            alice, fake.channel_id, "domino practice", {"variant": "draw", "level": "hard"}
        )
        assert not result.ephemeral and "practises Draw game" in result.content
        await settle(bot)
        (info,) = bot.svc.open_tables()
        assert info.status == "running"
        assert [(s.kind, s.ai_level) for s in info.seats] == [("human", None), ("computer", "hard")]
        tid = info.id
        await fake.wait_for(lambda: human_to_move(bot, tid) == alice.id)
        hand = await open_hand(fake, bot, alice, tid)
        await settle(bot)
        message = hand.message
        assert message is not None
        cid = button(message, "hint")
        _, _, args = parse(cid)  # type: ignore[misc]
        info = await bot.svc.get(tid)
        assert args[-1] == str(info.seq)
        asked = await fake.click(alice, message, cid)
        # No new message pushing the hand up: the hint is said inside the hand message.
        assert asked.type == 6
        await asked.wait_for_edits(1)
        assert not asked.followups and message.v2
        text = next(x for x in message.text().splitlines() if x.startswith("💡 "))[2:]
        assert (await bot.svc.get(tid)).seq == info.seq  # a hint plays nothing
        (view,) = await bot.svc.views_for(tid, alice.id)
        if not text.startswith("Hint: no tile fits"):  # a pass or a draw has its own sentence
            found = HINT.match(text)
            assert found, text
            # The end named by its number, as the buttons name it (never "left"/"right").
            legal = {f"play {a.tile}" for a in view.legal if isinstance(a, Play)}
            assert any(found.group(1).startswith(m) for m in legal), text
            assert "left" not in found.group(1) and "right" not in found.group(1)
        assert cid in message.custom_ids()  # the tiles are still there to play
        es = await fake.click(alice, message, cid, locale="es-ES")
        await es.wait_for_edits(1)
        assert "💡 Pista" in message.text() or "💡 Consejo" in message.text(), message.text()

        # A rematch of a practice match is practice too.
        thread = (await bot.svc.get(tid)).table.thread_id
        assert thread is not None
        asked = await fake.slash(alice, thread, "domino leave", {})
        assert asked.message is not None
        await fake.click(alice, asked.message, button(asked.message, "resignok"))
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await settle(bot)
        end = fake.messages(thread)[-1]
        again = await fake.click(alice, end, button(end, "rematch"))
        await again.wait_for_edits(1)
        await settle(bot)
        (rematch,) = bot.svc.open_tables()
        assert await is_practice(bot.svc, rematch.id) and not await is_practice(bot.svc, 10**9)


async def test_twenty_hint_clicks_at_once_run_one_search(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our decision: a burst of clicks on Hint runs one search, and every click gets the
    same hint."""
    searches = count_hint_searches(monkeypatch)
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        await fake.slash(alice, fake.channel_id, "domino practice", {"variant": "draw"})
        await settle(bot)
        (info,) = bot.svc.open_tables()
        await fake.wait_for(lambda: human_to_move(bot, info.id) == alice.id)
        hand = await open_hand(fake, bot, alice, info.id)
        await settle(bot)
        assert hand.message is not None
        cid = button(hand.message, "hint")
        clicks = await asyncio.gather(*(fake.click(alice, hand.message, cid) for _ in range(20)))
        for click in clicks:
            await click.wait_for_edits(1)
        texts = [hint_line(click.edits[-1]) for click in clicks]
        assert all(HINT.match(t) for t in texts) and len(set(texts)) == 1, texts
        assert len(searches) == 1


def hint_line(edit: dict[str, object]) -> str:
    """The hint an edit of a hand message says (its line with the bulb, without it)."""
    shown = StoredMessage(0, 0, None, FakeUser(0, ""), components=edit.get("components") or [])  # type: ignore[arg-type]
    return next(x for x in shown.text().splitlines() if x.startswith("💡 "))[2:]


async def test_no_hint_at_an_ordinary_table(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        start = await fake.click(alice, lobby, button(lobby, "start"))
        (confirm,) = await start.wait_for_followups(1)
        await fake.click(alice, confirm, button(confirm, "fill"))
        await fake.wait_for(lambda: human_to_move(bot, tid) == alice.id)
        hand = await open_hand(fake, bot, alice, tid)
        assert hand.message is not None
        assert not [c for c in hand.message.custom_ids() if c.startswith("domino:hint:")]


def test_hint_reasons_read_the_position() -> None:
    """The only move, going out and a double are named as such; a pass is seen as a lack."""
    rng = random.Random(3)
    reasons: set[str] = set()
    for seed in range(30):
        match = Match.new(preset("draw"), seed)
        for _ in range(60):
            if match.turn is None:
                break
            view = match.view(match.turn)
            found = hint(view, rng=random.Random(seed), budget=0.02)
            assert found.action in view.legal
            reasons.add(found.reason)
            if len(view.legal) == 1:
                assert found.reason in ("it is your only move.", "No tile fits: draw one.",
                                        "No tile fits and you cannot draw: pass.",
                                        "it is your last tile: you go out and win the hand.")
            for seat in range(2):
                passes = [e for e in view.events if e.kind == "pass" and e.seat == seat]
                if seat != view.seat and passes and passes[-1].ends_before is not None:
                    # A pass comes with an empty pile: the seat holds neither end's number.
                    assert set(passes[-1].ends_before) <= lacked_numbers(view, seat)
            match = match.apply(rng.choice(match.legal_actions()))
    assert "a double fits one number only: lay it while you can." in reasons
    assert "it is your only move." in reasons


def test_hint_words_a_pass_a_count_and_an_end_as_the_player_reads_them() -> None:
    """A pass has its own sentence (not "pass, because ... pass."), a count its plural form
    (never "1 of your 1 tiles"), an end its number (the line winds in the picture: "left" and
    "right" mean nothing there)."""
    match = Match.new(preset("draw"), 1)
    view = match.view(match.turn)
    passing = practice.hint_text(
        None, view, Hint(Pass(), "No tile fits and you cannot draw: pass.")
    )
    assert passing == "Hint: no tile fits and you cannot draw, so you pass."
    keeps = "it keeps {count} of your {total} tiles playable on the new ends."
    play = next(a for a in view.legal if isinstance(a, Play))
    said = {
        (c, t): practice.reason_text(None, Hint(play, keeps, {"count": c, "total": t}))
        for c, t in ((1, 1), (1, 2), (2, 3), (3, 3))
    }
    assert said == {
        (1, 1): "your last tile still fits one of the new ends.",
        (1, 2): "one of your 2 tiles still fits the new ends.",
        (2, 3): "2 of your 3 tiles still fit the new ends.",
        (3, 3): "all 3 of your tiles still fit the new ends.",
    }
    opened = match.apply(play, match.turn)
    after = opened.view(opened.turn)
    assert after.ends is not None
    left, right = after.ends
    tile = Tile(left, 9) if left != right else Tile(left, 8)
    text = practice.action_text(None, after, Play(tile, "right"))
    assert text == (
        f"play {tile} on the {right}" if left != right else f"play {tile} on either {right}"
    )



async def test_a_computer_whose_search_failed_still_plays_and_the_table_shows_it(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer's search that fails once (its process pool broken, say) is made again a
    moment later: the game goes on and its message shows the table as it is."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    monkeypatch.setattr(clock, "RETRY_FIRST", 0.05)
    failed = fail_one_computer_search(monkeypatch)
    async with running_bot(
        fake, factory(fake, tmp_path / "db.sqlite3"), raise_bot_errors=False
    ) as bot:
        await fake.slash(
            alice, fake.channel_id, "domino practice", {"variant": "partners", "level": "hard"}
        )
        await settle(bot)
        (info,) = bot.svc.open_tables()
        await play_until_over(fake, bot, info.id, [alice], stop=lambda turns: turns == 3)
        await settle(bot)
        assert failed
        now = await bot.svc.get(info.id)
        assert now.seq > 3  # the computers moved between Alice's turns
        game = await game_message(fake, bot, info.id)
        assert shown_seq(game) == now.seq
    logged = [r.getMessage() for r in fake.bot_errors]
    assert logged == ["table 1: deadline move failed (1 time(s)); again in 0 s"]
