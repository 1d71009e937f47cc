"""The rating lines of a match of three sides say each person's place, which the change
follows: a loser who placed second of three may gain rating, and reads why."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.cogs.helpers import TestBot, button, factory, game_message, new_table, settle
from tests.cogs.test_match_end import resign
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot

PLACES = {
    "en-US": ("placed 1st of 3", "placed 2nd of 3", "placed 3rd of 3"),
    "es-ES": ("puesto 1 de 3", "puesto 2 de 3", "puesto 3 de 3"),
    "pt-BR": ("ficou em 1º de 3", "ficou em 2º de 3", "ficou em 3º de 3"),
}


async def play_and_resign(
    fake: FakeDiscord, bot: TestBot, people: list[FakeUser], resigns: FakeUser, **options: Any
) -> int:
    """The first person opens a table, the others join, he starts, ``resigns`` resigns;
    returns the table's thread."""
    result, tid = await new_table(fake, bot, people[0], **options)
    lobby = result.message
    assert lobby is not None
    for user in people[1:]:
        await fake.click(user, lobby, button(lobby, "join"))
        await fake.wait_for(lambda user=user: f"<@{user.id}>" in lobby.text())
    await fake.click(people[0], lobby, button(lobby, "start"))
    game = await game_message(fake, bot, tid)
    await resign(fake, bot, resigns, game.channel_id)
    return game.channel_id


def posted(fake: FakeDiscord, thread: int, words: str) -> StoredMessage | None:
    return next((m for m in fake.messages(thread) if words in m.text()), None)


@pytest.mark.parametrize("locale", list(PLACES))
async def test_a_three_player_match_says_each_persons_place_by_his_rating(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    fake = fake_discord
    fake.guild.locale = locale
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        thread = await play_and_resign(
            fake, bot, [alice, bob, carol], carol, variant="all-fives", players=3, target=100
        )
        end = await fake.wait_for(
            lambda: posted(fake, thread, "<@1003>: +") or posted(fake, thread, "<@1003>: -"),
            what="the match end with its ratings",
        )
        await settle(bot)
        lines = {
            int(user): rest
            for user, rest in re.findall(r"<@(\d+)>: ([+-]\d+ → [\d.,]+, .+)", end.text())
        }
        assert set(lines) == {alice.id, bob.id, carol.id}, end.text()
        first, second, third = PLACES[locale]
        assert lines[carol.id].endswith(third), lines  # who resigned is last
        assert {lines[alice.id].split(", ")[-1], lines[bob.id].split(", ")[-1]} in (
            {first, second},
            {first},  # equal scores share the first place
        ), lines


ACHIEVED = {
    "en-US": "🏅 <@1001> earned **First win**: Won a rated match.",
    "es-ES": "🏅 <@1001> consiguió **Primera victoria**: Ganó una partida puntuable.",
    "pt-BR": "🏅 <@1001> conquistou **Primeira vitória**: Venceu uma partida que vale pontuação.",
}


@pytest.mark.parametrize("locale", list(ACHIEVED))
async def test_a_public_achievement_line_speaks_of_the_person_not_to_him(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    """Not "@Lucía consiguió Primera victoria: Ganaste…": what the match-end post's
    achievements say of the person (its Details, answered to whoever asks) is in the third
    person."""
    fake = fake_discord
    fake.guild.locale = locale
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        thread = await play_and_resign(fake, bot, [alice, bob], bob, variant="draw", target=50)
        end = await fake.wait_for(
            lambda: posted(fake, thread, "🏅"), what="the match end with its achievements"
        )
        await settle(bot)
        assert "Ganaste" not in end.text()
        details = await fake.click(bob, end, button(end, "achv"), locale=locale)
        (said,) = await details.wait_for_followups(1)
        assert said.ephemeral and ACHIEVED[locale] in said.text(), said.text()
        assert "Ganaste" not in said.text()
