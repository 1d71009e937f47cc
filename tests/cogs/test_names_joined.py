"""A team's names in the words a person reads (the table picture's alt text) are joined with
the language's "and", never "&"; the picture itself keeps its short "&"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.cogs.helpers import factory, game_message, settle
from tests.fakediscord import FakeDiscord, running_bot

SCORES = {
    "en-US": ("Scores: Alice and Computer 3 0, Computer 2 and Computer 4 0."),
    "es-ES": ("Alice y Máquina 3 0, Máquina 2 y Máquina 4 0."),
    "pt-BR": ("Alice e Computador 3 0, Computador 2 e Computador 4 0."),
}


@pytest.mark.parametrize("locale", list(SCORES))
async def test_the_alt_texts_scores_join_a_teams_names_with_and(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any, locale: str
) -> None:
    fake = fake_discord
    fake.guild.locale = locale
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        await fake.slash(
            alice, fake.channel_id, "domino practice", {"variant": "partners"}, locale=locale
        )
        await settle(bot)
        (info,) = bot.svc.open_tables()
        game = await game_message(fake, bot, info.id)
        alts = [alt for _, alt in game.media() if alt]
        assert alts, game.text()
        scores = re.sub(r" \d+(,|\.)", r" 0\1", alts[0])  # the scores so far, as zero
        assert SCORES[locale] in scores, alts[0]
        assert " & " not in alts[0]
        await settle(bot)
