"""What the table says around the game, through the fake Discord: Resign offers Keep playing,
the practice card keeps its note, the private hand message and the match-end post say who won
first; in English and in Spanish or Portuguese, a stranger's click refused, across a restart."""

from __future__ import annotations

from pathlib import Path

from bot.achievements.store import Earned
from bot.i18n import tr
from cogs.records.achievements import earned_summary
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    factory,
    game_message,
    new_table,
    open_hand,
    settle,
)
from tests.fakediscord import (
    FakeDiscord,
    FakeUser,
    InteractionResult,
    StoredMessage,
    running_bot,
)


async def forged_click(
    fake: FakeDiscord, user: FakeUser, message: StoredMessage, custom_id: str
) -> InteractionResult:
    """``user`` presses a button of someone else's private message (a forged interaction:
    Discord shows that message to its owner only)."""
    owner = message.ephemeral_user_id
    message.ephemeral_user_id = user.id
    try:
        return await fake.click(user, message, custom_id)
    finally:
        message.ephemeral_user_id = owner


async def two_at_a_table(
    fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser
) -> tuple[int, StoredMessage]:
    """``host`` opens a draw game, ``guest`` joins, the host starts: the table and its game
    message."""
    result, tid = await new_table(fake, bot, host, variant="draw")
    lobby = result.message
    assert lobby is not None
    await fake.click(guest, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{guest.id}>" in lobby.text())
    await fake.click(host, lobby, button(lobby, "start"))
    return tid, await game_message(fake, bot, tid)


def labels(message: StoredMessage) -> list[str]:
    return [b.get("label", "") for b in message.buttons()]


async def test_resign_asks_first_and_keep_playing_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Our decision: the resignation's question offers Resign and Keep playing; Keep playing
    closes the question and nothing else (the match goes on, no action is stored)."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    make = factory(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, make) as bot:
        tid, game = await two_at_a_table(fake, bot, alice, bob)
        await settle(bot)
        seq = (await bot.svc.get(tid)).seq

        asked = await fake.click(alice, game, button(game, "resign"))
        (question,) = await asked.wait_for_followups(1)
        assert question.ephemeral and question.content == "Resign? Your side loses the match."
        assert labels(question) == ["Resign", "Keep playing"]
        keep = button(question, "keepplaying")

        # Someone who does not sit there: refused to him alone; the question stays.
        stranger = await forged_click(fake, carol, question, keep)
        assert await answer(stranger) == "You are not seated at this table."
        assert labels(question) == ["Resign", "Keep playing"]

        spanish = await fake.slash(bob, game.channel_id, "domino leave", {}, locale="es-ES")
        pregunta = spanish.message
        assert pregunta is not None and pregunta.ephemeral
        assert labels(pregunta) == ["Rendirse", "Seguir jugando"]
        seguir = await fake.click(bob, pregunta, button(pregunta, "keepplaying"), locale="es-ES")
        await seguir.wait_for_edits(1)
        assert pregunta.content == "Sigues jugando." and pregunta.buttons() == []

    # After a restart the question's buttons still work.
    async with running_bot(fake, make) as bot:
        kept = await fake.click(alice, question, keep)
        await kept.wait_for_edits(1)
        assert question.content == "You keep playing." and question.buttons() == []
        info = await bot.svc.get(tid)
        assert info.status == "running" and info.seq == seq


async def test_the_practice_card_keeps_saying_it_is_not_rated(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The announcement of a practice table becomes its card when the match starts, and when
    it ends: the note stays on it, in the server's language."""
    fake = fake_discord
    fake.guild.locale = "es-ES"
    alice = fake.add_user(1001, "alice", "Alice")
    note = tr("es-ES", "Practice is not rated.")
    assert note != "Practice is not rated."
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(alice, fake.channel_id, "domino practice", {"variant": "draw"})
        card = result.message
        assert card is not None and note in card.text()
        await settle(bot)
        (info,) = bot.svc.open_tables()
        await fake.wait_for(lambda: card.v2, what="the practice card")
        assert note in card.text(), card.text()
        thread = (await bot.svc.get(info.id)).table.thread_id
        assert thread is not None
        versions = len(card.history)
        asked = await fake.slash(alice, thread, "domino leave", {})
        assert asked.message is not None
        await fake.click(alice, asked.message, button(asked.message, "resignok"))
        await fake.wait_for(lambda: not bot.svc.open_tables())
        await settle(bot)
        await fake.wait_for(lambda: len(card.history) > versions, what="the card of the end")
        assert tr("es-ES", "{name} resigned.", name="Alice") in card.text(), card.text()
        assert note in card.text(), card.text()


async def test_the_hand_message_and_the_match_end_say_who_won_first(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """When the match ends each player's private message says who won (in his language);
    the match-end post says it on its first line after its title."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_at_a_table(fake, bot, alice, bob)
        hers = await open_hand(fake, bot, alice, tid, locale="pt-BR")
        his = await open_hand(fake, bot, bob, tid)
        asked = await fake.slash(bob, game.channel_id, "domino leave", {})
        assert asked.message is not None
        await fake.click(bob, asked.message, button(asked.message, "resignok"))
        await settle(bot)
        mine, theirs = hers.message, his.message
        assert mine is not None and theirs is not None
        await fake.wait_for(lambda: "Alice" in mine.text() and "Alice" in theirs.text(),
                            what="who won, in both hand messages")
        assert "The match is over. Bob resigned. Alice won the match!" in theirs.text()
        over = tr("pt-BR", "The match is over.")
        assert over != "The match is over." and over in mine.text()
        assert "won the match" not in mine.text()
        final = next(m for m in fake.messages(game.channel_id) if m.title() == "Match over")
        lines = final.text().splitlines()
        assert lines[0] == "**Match over**" and lines[1] == "Bob resigned. Alice won the match!"


def test_eight_achievements_of_four_people_are_one_line() -> None:
    """The match-end post's achievements stay one line however many were earned: the count,
    then each achievement's name once (who earned which: the Details button)."""
    codes = ["first-win", "capicua", "first-win", "tranque", "one-pip", "first-win",
             "comeback", "five-hands"]
    earned = [Earned(1001 + i % 4, code, 7, 1, 1_000.0) for i, code in enumerate(codes)]
    line = earned_summary("en-US", earned)
    assert line is not None and "\n" not in line
    assert line.startswith("🏅 8 achievements: **First win**, **Capicúa**")
    assert line.count("First win") == 1 and "<@" not in line
    spanish = earned_summary("es-ES", earned)
    assert spanish is not None and spanish.startswith("🏅 8 logros: ")
    assert earned_summary("en-US", earned[:1]) == "🏅 1 achievement: **First win**"
    assert earned_summary("en-US", []) is None
