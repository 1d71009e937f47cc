"""The rating lines of a match of three sides say each person's place, which the change
follows: a loser who placed second of three may gain rating, and reads why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cogs.helpers import button, factory, game_message, new_table, settle
from tests.cogs.test_match_end import resign
from tests.fakediscord import FakeDiscord, running_bot

PLACES = {
    "en-US": ("placed 1st of 3", "placed 2nd of 3", "placed 3rd of 3"),
    "es-ES": ("puesto 1 de 3", "puesto 2 de 3", "puesto 3 de 3"),
    "pt-BR": ("ficou em 1º de 3", "ficou em 2º de 3", "ficou em 3º de 3"),
}


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
        result, tid = await new_table(
            fake, bot, alice, variant="all-fives", players=3, target=100
        )
        lobby = result.message
        assert lobby is not None
        for user in (bob, carol):
            await fake.click(user, lobby, button(lobby, "join"))
            await fake.wait_for(lambda user=user: f"<@{user.id}>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        game = await game_message(fake, bot, tid)
        await resign(fake, bot, carol, game.channel_id)
        end = await fake.wait_for(
            lambda: next(
                (m for m in fake.messages(game.channel_id) if "<@1003>: " in m.text()
                 and " → " in m.text()), None
            ),
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
