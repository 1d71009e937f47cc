"""``/domino review`` and the Review button through the fake Discord: a player's private
review with the pictures of his costliest decisions (his own tiles only), refusals that change
nothing, a stranger's click, many asks at once, and Discord failing."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from bot.review.judge import at
from cogs.domino import texts
from domino import Tile
from render.review import render_position
from tests.cogs.helpers import TestBot, answer, button, factory, game_message, new_table, settle
from tests.cogs.test_match_end import match_end
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot
from tests.review.helpers import play_out, real_choices

FEW = 40  # iterations per decision: quick, and the same for a seed


def reviewer(bot: TestBot) -> Any:
    cog = bot.get_cog("Review")
    assert cog is not None
    cog.reviews.iterations = FEW  # type: ignore[attr-defined]
    cog.reviews.per_request = 1_000  # type: ignore[attr-defined]  # a whole match at once
    return cog


async def played(fake: FakeDiscord, bot: TestBot, alice: FakeUser, bob: FakeUser,
                 *, to_the_end: bool = True, like_buttons: bool = False) -> tuple[int, int]:
    """Alice and Bob play a match of "draw" (to 50); the table and its thread."""
    result, tid = await new_table(fake, bot, alice, variant="draw", target=50)
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    thread = (await game_message(fake, bot, tid)).channel_id
    await play_out(bot.svc, tid, (alice.id, bob.id), seed=4, stop_at=None if to_the_end else 2,
                   like_buttons=like_buttons)
    return tid, thread


def review_of(message: StoredMessage) -> str:
    assert message.v2 and message.ephemeral
    return message.text()


async def test_a_players_review_through_the_button_and_the_command(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        cog = reviewer(bot)
        tid, thread = await played(fake, bot, alice, bob)
        end = await fake.wait_for(
            lambda: match_end(fake, thread), what="the match end"
        )
        review_id = button(end, "review")
        assert "Review: the expert goes over your own moves" in end.text()

        # A stranger's click: refused privately, nothing judged.
        stranger = await fake.click(carol, end, review_id)
        assert await answer(stranger) == (
            f"You did not play at table {tid}: a review covers only your own matches."
        )
        assert cog.reviews.judged == 0

        # Alice's click: her review, for her eyes only.
        click = await fake.click(alice, end, review_id)
        (message,) = await click.wait_for_followups(1, timeout=60)
        assert message.ephemeral_user_id == alice.id
        text = review_of(message)
        assert text.startswith(f"**Review: Table {tid} · Draw game (two players) · Alice, Bob")
        assert re.search(r"^Hand 1: .+ \((one decision|\d+ decisions) of yours\)$", text, re.M)
        review = await cog.reviews.review(tid, alice.id)
        shown = review.costliest()
        media = message.media()
        assert len(media) == len(shown) and all(a is not None and a.is_png for a, _ in media)
        if not shown:
            assert "No costly move" in text
        # Each picture is the table then and Alice's own tiles, nothing more.
        store = bot.svc.store
        match = await store.matches.get(tid)
        actions = await store.actions.list(tid)
        assert match is not None
        info = await bot.svc.get(tid)
        names = [texts.picture_name("en-US", row) for row in info.seats]
        for rank, (judged, (attachment, alt)) in enumerate(zip(shown, media, strict=True), 1):
            public, mine = at(match, actions, judged.seq, judged.seat)
            assert mine.seat == judged.seat == next(
                s.seat for s in info.seats if s.user_id == alice.id
            )
            assert attachment is not None
            assert attachment.data == render_position(public, mine, names)
            assert alt is not None and alt.startswith(f"The table before move {judged.seq + 1}")
            assert f"**{rank}. Hand {judged.hand}, move {judged.seq + 1}**" in text
            # Every tile the words name is Alice's own then (no other hand is told).
            part = text.split(f"**{rank}. ", 1)[1].split(f"**{rank + 1}. ", 1)[0]
            named = {Tile.parse(t) for t in re.findall(r"\b\d-\d\b", part)}
            assert named and named <= set(mine.hand or ()), (named, mine.hand)

        # The command: the same review, one hand, from the store (judged once).
        asked = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid,
                                                                           "hand": 1})
        (again,) = await asked.wait_for_followups(1)
        assert review_of(again).startswith(f"**Review: Table {tid} · Draw game (two players)")
        assert "· hand 1**" in review_of(again).splitlines()[0]
        assert cog.reviews.judged == 1

        # Bad input: a hand that does not exist, a table that does not, someone else's match.
        bad = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid, "hand": 9})
        hands = ", ".join(map(str, review.hands))
        assert await answer(bad) == f"There is no hand 9 at this table; its hands are {hands}."
        none = await fake.slash(alice, fake.channel_id, "domino review", {"table": 4242})
        assert await answer(none) == "No match was played at table 4242."
        theirs = await fake.slash(carol, fake.channel_id, "domino review", {"table": tid})
        assert "You did not play at table" in await answer(theirs)
        assert cog.reviews.judged == 1
        await settle(bot)


async def test_the_review_counts_every_real_choice_of_the_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Tiles played as their buttons send them (one end: no end named): each hand's line
    counts every turn where the engine offered her two or more moves."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        reviewer(bot)
        tid, thread = await played(fake, bot, alice, bob, like_buttons=True)
        end = await fake.wait_for(
            lambda: match_end(fake, thread), what="the match end"
        )
        click = await fake.click(alice, end, button(end, "review"))
        (message,) = await click.wait_for_followups(1, timeout=60)
        text = review_of(message)
        choices = await real_choices(bot.svc, tid, alice.id)
        assert sum(choices.values()) >= 10
        for hand, count in choices.items():
            said = "one decision" if count == 1 else f"{count} decisions"
            assert re.search(rf"^Hand {hand}: .+ \({said} of yours\)$", text, re.M), (
                hand, count, text)
        await settle(bot)


async def test_a_long_match_is_judged_over_a_few_requests_and_the_answer_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        cog = reviewer(bot)
        cog.reviews.per_request = 3
        tid, _ = await played(fake, bot, alice, bob, like_buttons=True)
        total = sum((await real_choices(bot.svc, tid, alice.id)).values())
        assert total > 6
        asked = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid})
        (first,) = await asked.wait_for_followups(1, timeout=60)
        assert (
            f"-# A long match: {total - 3} of your decisions are not judged yet (the expert"
            " judges at most 3 a request): ask again to judge them." in review_of(first)
        )
        again = await fake.slash(alice, fake.channel_id, "domino review", {"table": tid},
                                 locale="pt-BR")
        (second,) = await again.wait_for_followups(1, timeout=60)
        assert (
            f"-# Uma partida longa: {total - 6} das suas decisões ainda não foram analisadas (o"
            " especialista analisa no máximo 3 por pedido): peça de novo para analisá-las."
            in review_of(second)
        )
        await settle(bot)


async def test_a_running_match_has_no_review_yet(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        cog = reviewer(bot)
        tid, _ = await played(fake, bot, alice, bob, to_the_end=False)
        asked = await fake.slash(bob, fake.channel_id, "domino review", {"table": tid})
        assert await answer(asked) == (
            f"The match at table {tid} is not over: its review opens when it ends."
        )
        assert cog.reviews.judged == 0 and (await bot.svc.get(tid)).status == "running"
        await settle(bot)


async def test_many_asks_at_once_and_discord_failing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3"),
                           raise_bot_errors=False) as bot:
        cog = reviewer(bot)
        tid, thread = await played(fake, bot, alice, bob)
        end = await fake.wait_for(
            lambda: match_end(fake, thread), what="the match end"
        )
        # Discord refuses the first review's answer: the asker is told; the review is kept.
        fake.fail("POST", r"/webhooks/\d+/[^/]+$", status=403, code=50013,
                  message="Missing Permissions", times=1)
        failed = await fake.click(bob, end, button(end, "review"))
        (told,) = await failed.wait_for_followups(1, timeout=60)
        assert told.ephemeral and "missing a permission" in told.content
        assert cog.reviews.judged == 1
        # Eight clicks at once: answered from the one judgement.
        clicks = await asyncio.gather(
            *(fake.click(bob, end, button(end, "review")) for _ in range(8))
        )
        for click in clicks:
            (message,) = await click.wait_for_followups(1, timeout=60)
            assert review_of(message).startswith(f"**Review: Table {tid}")
        assert cog.reviews.judged == 1
        # In the asker's language.
        spanish = await fake.click(bob, end, button(end, "review"), locale="es-ES")
        (message,) = await spanish.wait_for_followups(1, timeout=60)
        assert review_of(message).startswith("**Análisis: ")
        assert "Mano 1: " in review_of(message)
        await settle(bot)
