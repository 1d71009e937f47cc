"""Achievements through the fake Discord: announced on the match-end post of the match that
earned them (once), ``/domino achievements`` with its badges and their words, the latest in
``/domino stats``, privacy and forget-me; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from bot.achievements.catalogue import ACHIEVEMENTS
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    forget_me,
    game_message,
    new_table,
    settle,
)
from tests.cogs.test_records import any_backend
from tests.fakediscord import FakeDiscord, running_bot

__all__ = ["any_backend"]  # the fixture: a bot on SQLite, or on PostgreSQL

TOTAL = len(ACHIEVEMENTS)


async def test_a_first_win_is_announced_once_and_shown_with_its_badge(
    fake_discord: FakeDiscord, any_backend: Callable[[], TestBot]
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, any_backend) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        game = await game_message(fake, bot, tid)
        asked = await fake.slash(bob, game.channel_id, "domino leave")
        assert asked.message is not None
        await fake.click(bob, asked.message, button(asked.message, "resignok"))
        await settle(bot)
        await fake.wait_for(
            lambda: any(m.title() == "Match over" for m in fake.messages(game.channel_id)),
            what="the match-end post",
        )
        (final,) = [m for m in fake.messages(game.channel_id) if m.title() == "Match over"]
        text = final.text()
        # The result first; the achievements in one line, who earned which on demand.
        assert text.splitlines()[1] == "Bob resigned. Alice won the match!"
        assert "🏅 1 achievement: **First win**" in text
        assert "earned" not in text and "Won a rated match." not in text
        assert "Bob won" not in text
        # Announced once: one match-end post, and no other post names the achievement.
        assert sum("First win" in m.text() for m in fake.messages(game.channel_id)) == 1
        details = button(final, "achv")
        before = final.snapshot()
        for who in (bob, carol):  # a player, and someone who did not play: told privately
            click = await fake.click(who, final, details)
            (said,) = await click.wait_for_followups(1)
            assert said.ephemeral and "**First win**" in said.text() and "<@1001>" in said.text()
            assert "Won a rated match." in said.text()
        assert final.text() == before.text() and final.custom_ids() == before.custom_ids()

        mine = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (shown,) = await mine.wait_for_followups(1)
        assert shown.ephemeral  # private unless she shares it
        said = shown.text()
        assert "Achievements of Alice" in said and f"1 of {TOTAL} achievement" in said
        assert "🏅 **First win** · <t:" in said
        assert "nobody has it yet" not in said and "-# Not yet: " in said and "Capicúa" in said
        assert "Dominoed with a tile" not in said  # what each asks: on demand
        assert len(said.splitlines()) <= 5
        (badges, alt), = shown.media()
        assert badges is not None and badges.is_png
        assert alt == "Badges of Alice, in colour those earned: First win."
        labels = {b["label"]: b["custom_id"] for b in shown.buttons()}
        assert set(labels) == {"Share", "How to earn the others"}

        public = len(fake.messages(fake.channel_id))
        more = await fake.click(alice, shown, labels["How to earn the others"])
        (how,) = await more.wait_for_followups(1) if more.type != 4 else (more.message,)
        assert how is not None and how.ephemeral
        assert "**Capicúa**: Dominoed with a tile that fitted either end." in how.text()
        assert "nobody has it yet" not in how.text() and "First win" not in how.text()
        assert len(fake.messages(fake.channel_id)) == public

        shared = await fake.click(alice, shown, labels["Share"])
        (posted,) = await shared.wait_for_followups(1)
        assert not posted.ephemeral and posted.channel_id == fake.channel_id
        assert "Achievements of Alice" in posted.text() and "**First win**" in posted.text()
        assert "Share" not in {b["label"] for b in posted.buttons()}

        theirs = await fake.slash(
            bob, fake.channel_id, "domino achievements", {"user": alice, "share": True}
        )
        (seen,) = await theirs.wait_for_followups(1)
        assert not seen.ephemeral and "Achievements of Alice" in seen.text()
        nothing = await fake.slash(bob, fake.channel_id, "domino achievements", {})
        (none,) = await nothing.wait_for_followups(1)
        assert none.ephemeral and f"0 of {TOTAL} achievements earned." in none.text()
        (_, alt), = none.media()
        assert alt == "Badges of Bob: none earned yet."
        bobs = {b["label"]: b["custom_id"] for b in none.buttons()}
        more = await fake.click(bob, none, bobs["How to earn the others"])
        (how,) = await more.wait_for_followups(1) if more.type != 4 else (more.message,)
        assert how is not None and "**First win**: Won a rated match. (1 player has it)" in (
            how.text()
        )

        stats = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (figures,) = await stats.wait_for_followups(1)
        assert figures.ephemeral
        assert "Latest achievement" in figures.text()
        assert "**First win** · <t:" in figures.text() and f"(1 of {TOTAL})" in figures.text()
        badge = figures.attachment("badge.png")
        assert badge is not None and badge.is_png

        # She leaves the global boards: hers are for her eyes only, and cannot be shared.
        privacy = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        assert privacy.message is not None
        leave = next(c for c in privacy.message.custom_ids() if c.endswith(":0:1"))
        await fake.click(alice, privacy.message, leave)
        hidden = await fake.slash(bob, fake.channel_id, "domino achievements", {"user": alice})
        assert await answer(hidden) == "No achievements to show for Alice."
        own = await fake.slash(
            alice, fake.channel_id, "domino achievements", {"share": True}
        )
        (private,) = await own.wait_for_followups(1)
        assert private.ephemeral and "First win" in private.text()
        assert "Share" not in {b["label"] for b in private.buttons()}

        # Forget-me: they go.
        await forget_me(fake, alice)
        gone = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (after,) = await gone.wait_for_followups(1)
        assert f"0 of {TOTAL} achievements earned." in after.text()

    # After a restart the post's Details button still answers; what forget-me took is gone.
    async with running_bot(fake, any_backend):
        click = await fake.click(carol, final, details)
        (said,) = await click.wait_for_followups(1)
        assert said.ephemeral and said.content == "No achievements were earned in this match."
        assert final.text() == before.text()
