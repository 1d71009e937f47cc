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
        assert "Achievements" in text
        assert "🏅 <@1001> earned **First win**: Won a rated match." in text
        assert "<@1002> earned" not in text  # the loser earned nothing
        # Announced once: one match-end post, and no other post names the achievement.
        assert sum("First win" in m.text() for m in fake.messages(game.channel_id)) == 1

        mine = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (shown,) = await mine.wait_for_followups(1)
        assert not shown.ephemeral
        said = shown.text()
        assert "Achievements of Alice" in said and f"1 of {TOTAL} achievement" in said
        assert "**First win** · <t:" in said
        assert "**Capicúa**: Dominoed with a tile that fitted either end. (nobody has it yet)" in (
            said
        )
        badges = shown.attachment("badges.png")
        assert badges is not None and badges.is_png
        assert badges.description == "Badges of Alice, in colour those earned: First win."

        theirs = await fake.slash(bob, fake.channel_id, "domino achievements", {"user": alice})
        (seen,) = await theirs.wait_for_followups(1)
        assert "Achievements of Alice" in seen.text()
        nothing = await fake.slash(bob, fake.channel_id, "domino achievements", {})
        (none,) = await nothing.wait_for_followups(1)
        assert f"0 of {TOTAL} achievements earned." in none.text()
        assert "**First win**: Won a rated match. (1 player has it)" in none.text()
        assert none.attachment("badges.png").description == (  # type: ignore[union-attr]
            "Badges of Bob: none earned yet."
        )

        stats = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (figures,) = await stats.wait_for_followups(1)
        assert "Latest achievement" in figures.text()
        assert "**First win** · <t:" in figures.text() and f"(1 of {TOTAL})" in figures.text()
        badge = figures.attachment("badge.png")
        assert badge is not None and badge.is_png and badge.description == "First win"

        # She leaves the global boards: hers are for her eyes only.
        privacy = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        assert privacy.message is not None
        leave = next(c for c in privacy.message.custom_ids() if c.endswith(":0:1"))
        await fake.click(alice, privacy.message, leave)
        hidden = await fake.slash(bob, fake.channel_id, "domino achievements", {"user": alice})
        assert await answer(hidden) == "No achievements to show for Alice."
        own = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (private,) = await own.wait_for_followups(1)
        assert private.ephemeral and "First win" in private.text()

        # Forget-me: they go.
        await forget_me(fake, alice)
        gone = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (after,) = await gone.wait_for_followups(1)
        assert f"0 of {TOTAL} achievements earned." in after.text()
