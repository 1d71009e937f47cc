""""Find a better move" through the fake Discord: from a finished match's review, the player
tries each costly decision himself in a private message (the table then, his own tiles, his
legal moves as buttons), then sees whether his try was as good as the expert's and why; a
stranger's click, forged and stale ids are refused privately and change nothing; the buttons
keep working after a restart."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.review.exercise import BETTER, GOOD, WORSE, _values, flagged, move_code, verdict
from bot.review.judge import at
from cogs.domino import texts
from domino import Tile, decode_action
from render.review import render_position
from tests.cogs.helpers import TestBot, answer, factory, settle
from tests.cogs.test_match_end import match_end
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot
from tests.review.test_review_command import FEW, played, reviewer


def ids(message: StoredMessage, kind: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(f"review:{kind}:")]


def labels(message: StoredMessage) -> dict[str, str]:
    return {b["custom_id"]: b.get("label", "") for b in message.buttons()}


def forge(fake: FakeDiscord, message: StoredMessage, custom_id: str) -> None:
    """Put a button with ``custom_id`` on ``message``, as a forged client could."""
    stored = fake.message(message.id)
    stored.components = [*stored.components, {"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]


async def exercise_of(fake: FakeDiscord, bot: TestBot, alice: FakeUser, tid: int
                      ) -> tuple[StoredMessage, list[Any]]:
    """Alice asks her review and presses Find a better move: the exercise's message and the
    flagged decisions of her stored review."""
    asked = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid})
    (review,) = await asked.wait_for_followups(1, timeout=60)
    (open_id,) = ids(review, "open")
    assert labels(review)[open_id] == "Find a better move"
    stored = await reviewer(bot).reviews.review(tid, alice.id)
    found = flagged(list(stored.decisions))
    assert found, "the match has a costly decision of Alice's"
    click = await fake.click(alice, review, open_id)
    (message,) = await click.wait_for_followups(1, timeout=60)
    assert message.ephemeral_user_id == alice.id and message.v2
    return message, found


async def test_find_a_better_move_in_a_finished_match(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    make = factory(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, make) as bot:
        reviewer(bot)
        tid, thread = await played(fake, bot, alice, bob)
        end = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        message, found = await exercise_of(fake, bot, alice, tid)
        first = found[0]

        # The position: where it is, what she played, the table then and her own tiles.
        text = message.text()
        assert text.startswith(f"**Find a better move · 1 of {len(found)}**")
        assert f"Table {tid} · hand {first.hand}, move {first.seq + 1} · " in text
        mine_then = f"review:try:{tid}:{alice.id}:{first.seq}"
        played_id = f"{mine_then}:{move_code(decode_action(first.played))}"
        label = labels(message)[played_id]
        assert f"You played {label} here. Can you find a better move? Press it, or Show me." in text
        store = bot.svc.store
        match = await store.matches.get(tid)
        assert match is not None
        public, mine = at(match, await store.actions.list(tid), first.seq, first.seat)
        info = await bot.svc.get(tid)
        names = [texts.picture_name("en-US", row) for row in info.seats]
        ((picture, alt),) = message.media()
        assert picture is not None and picture.data == render_position(public, mine, names)
        tiles = ", ".join(str(t) for t in mine.hand or ())
        assert alt == f"The table before move {first.seq + 1}, and your tiles: {tiles}"
        named = {Tile.parse(t) for t in re.findall(r"\b\d-\d\b", text)}
        assert named <= set(mine.hand or ()), (named, mine.hand)
        # Her legal moves as buttons, then Show me, Next (when there is one), Done.
        moves = [a for a in mine.legal if a.__class__.__name__ != "Resign"]
        tries = ids(message, "try")
        assert tries == [f"review:try:{tid}:{alice.id}:{first.seq}:{move_code(a)}"
                         for a in moves]
        shown = labels(message)
        assert {shown[i].split(" ")[0] for i in tries} <= {str(t) for t in mine.hand or ()} | {
            "Draw", "Pass"}
        steps = [shown[i] for i in message.custom_ids() if not i.startswith("review:try:")]
        assert steps == ["Show me", *(["Next ▶"] if len(found) > 1 else []), "Done"]

        # A stranger's click (his client forged Alice's button on the match-end post):
        # refused privately, her message unchanged.
        edits = fake.message(message.id).edit_count
        forge(fake, end, played_id)
        refused = await fake.click(bob, end, played_id)
        assert await answer(refused) == (
            "This exercise is someone else's: ask for your own with "
            f"</domino review:{fake.find_command('domino', fake.guild_id)['id']}>."
        )
        assert fake.message(message.id).edit_count == edits

        # A bad try: the move she played in the match.
        click = await fake.click(alice, message, played_id)
        await click.wait_for_edits(1, timeout=60)
        text = fake.message(message.id).text()
        assert re.search(rf"^❌ {label} is what you played: it gives away about \d+ points\.$",
                         text, re.M), text
        best = decode_action(first.best)
        assert re.search(r"^The expert: .+, because .+", text, re.M)
        assert re.search(rf"^You played {label}: about \d+ points below it, as the expert "
                         "estimates.$", text, re.M), text
        assert ids(fake.message(message.id), "try") == []  # answered: no move buttons
        assert labels(fake.message(message.id))[
            f"review:go:{tid}:{alice.id}:{first.seq}"] == "Try again"
        ((picture, alt),) = fake.message(message.id).media()
        assert picture is not None and alt is not None and alt.startswith("The table before")

        # Try again, then a good try: the expert's move.
        again = await fake.click(alice, message, f"review:go:{tid}:{alice.id}:{first.seq}")
        await again.wait_for_edits(1, timeout=60)
        assert len(ids(fake.message(message.id), "try")) == len(moves)
        best_id = f"{mine_then}:{move_code(best)}"
        good = await fake.click(alice, message, best_id)
        await good.wait_for_edits(1, timeout=60)
        text = fake.message(message.id).text()
        assert re.search(r"^✅ Well found: .+ is the expert's move\.$", text, re.M), text
        await settle(bot)

    # A restart between two steps: the buttons carry what they need.
    async with running_bot(fake, make) as bot:
        reviewer(bot)
        current = fake.message(message.id)
        if len(found) > 1:
            step = f"review:go:{tid}:{alice.id}:{found[1].seq}"
            assert labels(current)[step] == "Next ▶"
            click = await fake.click(alice, current, step)
            await click.wait_for_edits(1, timeout=60)
            text = fake.message(message.id).text()
            assert text.startswith(f"**Find a better move · 2 of {len(found)}**")
            assert labels(fake.message(message.id))[
                f"review:go:{tid}:{alice.id}:{first.seq}"] == "◀ Previous"
        show = f"review:show:{tid}:{alice.id}:{(found[1] if len(found) > 1 else first).seq}"
        if show not in fake.message(message.id).custom_ids():
            again = await fake.click(alice, current, f"review:go:{tid}:{alice.id}:{first.seq}")
            await again.wait_for_edits(1, timeout=60)
        click = await fake.click(alice, message, show)
        await click.wait_for_edits(1, timeout=60)
        text = fake.message(message.id).text()
        assert re.search(r"^The expert: .+, because .+", text, re.M)
        assert "✅" not in text and "❌" not in text  # Show me: no verdict, no try
        done = await fake.click(alice, message, f"review:done:{tid}:{alice.id}")
        await done.wait_for_edits(1, timeout=60)
        final = fake.message(message.id)
        assert final.text().startswith(f"Done. Your review of table {tid} stays there")
        assert final.custom_ids() == [] and final.media() == []
        await settle(bot)


async def test_forged_and_stale_exercise_buttons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        reviewer(bot)
        tid, _ = await played(fake, bot, alice, bob)
        message, found = await exercise_of(fake, bot, alice, tid)
        seq = found[0].seq
        hand = [str(t) for t in (at(*(await _log(bot, tid)), seq, found[0].seat)[1].hand or ())]
        missing = next(f"{a}-{b}" for a in range(7) for b in range(a, 7)
                       if f"{a}-{b}" not in hand and f"{b}-{a}" not in hand)
        edits = fake.message(message.id).edit_count
        cases = {
            # a tile she did not have
            f"review:try:{tid}:{alice.id}:{seq}:{missing}":
                "That move cannot be played in this position.",
            # a decision that is no costly one of her review
            f"review:go:{tid}:{alice.id}:999999":
                f"This exercise is out of date: ask for your review of table {tid} again.",
            # a table she did not play at
            f"review:go:4242:{alice.id}:{seq}": "No match was played at table 4242.",
            # no kind of ours reads it
            f"review:try:{tid}:{alice.id}:{seq}:banana": "This button is not valid any more.",
            "review:": "This button is not valid any more.",
        }
        for custom_id, said in cases.items():
            forge(fake, message, custom_id)
            assert await answer(await fake.click(alice, message, custom_id)) == said, custom_id
        assert fake.message(message.id).edit_count == edits

        # A try that is neither her move nor the expert's, judged by the review's search.
        cog = reviewer(bot)
        exercises = [await cog.exercises.exercise(tid, alice.id, alice.id, d.seq) for d in found]
        exercise = next(e for e in exercises if len(e.moves) > 2)
        third = next(a for a in exercise.moves if a not in (exercise.best, exercise.played))
        seq3 = exercise.judged.seq
        go = f"review:go:{tid}:{alice.id}:{seq3}"
        if go not in fake.message(message.id).custom_ids():
            forge(fake, message, go)
        await (await fake.click(alice, message, go)).wait_for_edits(1, timeout=60)
        try_id = f"review:try:{tid}:{alice.id}:{seq3}:{move_code(third)}"
        label = labels(fake.message(message.id))[try_id]
        await (await fake.click(alice, message, try_id)).wait_for_edits(1, timeout=60)
        judged = verdict(exercise, third, _values(exercise.mine, tid, seq3, FEW))
        points = max(1, round(judged.cost))
        said = {
            GOOD: f"✅ Good: {label} is about as good as the expert's move.",
            BETTER: f"➖ Better than in the match, but {label} still gives away about {points} "
                    "points.",
            WORSE: f"❌ Not better: {label} gives away about {points} points.",
        }[judged.outcome]
        assert said in fake.message(message.id).text().splitlines()
        # Bob's own review of the same match is his, not hers: hers refuses him.
        assert await answer(await _click_on_public(fake, bob, tid, alice.id, seq)) == (
            "This exercise is someone else's: ask for your own with "
            f"</domino review:{fake.find_command('domino', fake.guild_id)['id']}>."
        )
        # In her language.
        asked = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid},
                                 locale="pt-BR")
        (review,) = await asked.wait_for_followups(1, timeout=60)
        (open_id,) = ids(review, "open")
        click = await fake.click(alice, review, open_id, locale="pt-BR")
        (portuguese,) = await click.wait_for_followups(1, timeout=60)
        assert portuguese.text().startswith("**Encontre uma jogada melhor · 1 de")
        assert "Consegue encontrar uma jogada melhor? Toque nela, ou em Mostre-me." in (
            portuguese.text())
        assert [b for b in labels(portuguese).values() if not b[0].isdigit()][-2:] == [
            "Próxima ▶", "Concluir"]
        ((_, alt),) = portuguese.media()
        assert alt is not None and alt.startswith("A mesa antes da jogada ")
        await settle(bot)


async def _log(bot: TestBot, tid: int) -> tuple[Any, Any]:
    store = bot.svc.store
    match = await store.matches.get(tid)
    return match, await store.actions.list(tid)


async def _click_on_public(fake: FakeDiscord, user: FakeUser, tid: int, owner: int, seq: int
                           ) -> Any:
    posted = await fake.post_user_message(user, fake.channel_id, "look")
    custom_id = f"review:show:{tid}:{owner}:{seq}"
    forge(fake, posted, custom_id)
    return await fake.click(user, posted, custom_id)
