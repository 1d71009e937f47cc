"""The daily deal's words as Discord receives them, in each language: how the person did
against the expert, the expert's replay's alt text, the commands it names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import commands as named_commands
from tests.cogs.helpers import FakeClock, play_until_over
from tests.daily.test_cog import GIF, at, daily_factory, idle, start
from tests.fakediscord import FakeDiscord, running_bot

#: Per locale: the result post's first words, and the words comparing the person with the
#: expert (more, fewer, the same), the replay's line and its alt text's start.
WORDS = {
    "en-US": {
        "result": "your result is",
        "better": "You beat the expert by {count} point{s}: with the same tiles you scored "
                  "{mine}, the expert {expert}.",
        "worse": "The expert did {count} point{s} better: with the same tiles it scored "
                 "{expert}, you {mine}.",
        "same": "You matched the expert: with the same tiles you both scored {mine}.",
        "replay": "Its play of the deal is in the replay below.",
        "alt": "Replay of the expert's own play of the Partners (Latin) deal of 2026-11-27, "
               "every seat an expert, from your first seat's tiles: ",
        "others": "See how the others did: ",
    },
    "es-ES": {
        "result": "tu resultado es",
        "better": "Le ganaste al experto por {count} punto{s}: con las mismas fichas hiciste "
                  "{mine} y el experto {expert}.",
        "worse": "El experto hizo {count} punto{s} más que tú: con las mismas fichas hizo "
                 "{expert} y tú {mine}.",
        "same": "Empataste con el experto: con las mismas fichas, {mine} cada uno.",
        "replay": "Su forma de jugar la mano está en la repetición de abajo.",
        "alt": "Repetición de cómo jugó el experto la mano de ",
        "others": "Mira cómo les fue a los demás: ",
    },
    "pt-BR": {
        "result": "seu resultado é",
        "better": "Você superou o especialista por {count} ponto{s}: com as mesmas pedras você "
                  "fez {mine} e o especialista {expert}.",
        "worse": "O especialista fez {count} ponto{s} a mais que você: com as mesmas pedras ele "
                 "fez {expert} e você {mine}.",
        "same": "Você empatou com o especialista: com as mesmas pedras os dois fizeram {mine}.",
        "replay": "O jeito como ele jogou a mão está na repetição abaixo.",
        "alt": "Repetição de como o especialista jogou a mão de ",
        "others": "Veja como os outros se saíram: ",
    },
}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@pytest.mark.parametrize("locale", list(WORDS))
async def test_the_result_says_in_words_who_did_better_than_the_expert(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: Any, locale: str
) -> None:
    """"+33 vs the expert's +32" said in words (who did better, by how much), the expert's
    replay described for screen readers, the board named by its clickable command mention."""
    fake = fake_discord
    fake.guild.locale = locale
    words = WORDS[locale]
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    clock.now = at("2026-11-27", 12)
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        thread, table_id = await start(fake, bot, alice, "partners", locale=locale)
        await play_until_over(fake, bot, table_id, [alice], locale=locale)
        await idle(bot)
        post = await fake.wait_for(
            lambda: next(
                (m for m in fake.messages(thread) if words["result"] in m.text()), None
            ),
            timeout=60,
            what="the daily result post",
        )
        text = post.text()
        mine = (await bot.daily_cog.daily.attempt("2026-11-27", "partners", alice.id)).result
        play = await bot.daily_cog.daily.expert_play("2026-11-27", "partners")
        from cogs.daily.words import expert_points

        expert = expert_points(play)
        key = "better" if mine > expert else "worse" if mine < expert else "same"
        count = abs(mine - expert)
        said = words[key].format(
            count=count, s="" if count == 1 else "s", mine=signed(mine), expert=signed(expert)
        )
        assert said in text, text
        assert words["replay"] in text, text
        board = fake.find_command("domino", fake.guild_id)["id"]
        assert f"{words['others']}</domino daily board:{board}>." in text, text
        (gif,) = post.attachments
        assert gif.data.startswith(GIF)
        assert gif.description is not None and gif.description.startswith(words["alt"]), (
            gif.description
        )
        assert "None" not in gif.description


@pytest.mark.parametrize(
    ("locale", "plain", "nobody"),
    [
        ("en-US", "/domino daily play", "Nobody has finished it yet."),
        ("es-ES", "/domino diaria jugar", "Nadie la ha terminado todavía."),
        ("es-419", "/domino diaria jugar", "Nadie la terminó todavía."),
        ("pt-BR", "/domino diaria jogar", "Ninguém terminou ainda."),
    ],
)
async def test_the_board_names_its_command_as_a_mention_or_in_the_readers_words(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str, plain: str, nobody: str
) -> None:
    """A command named in Spanish or Portuguese text is Discord's clickable mention (each
    client shows it in its own language), from the ids the start-up's sync returned; without
    them (a failed sync), the command's names in the reader's language."""
    fake = fake_discord
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    clock.now = at("2026-11-27", 12)
    async with running_bot(fake, daily_factory(fake, tmp_path / "db.sqlite3", clock)) as bot:
        syncs = fake.sync_count
        board = fake.find_command("domino", fake.guild_id)["id"]
        result = await fake.slash(bob, fake.channel_id, "domino daily board", {}, locale=locale)
        message = result.message if result.message is not None else result.followups[0]
        text = message.text()
        assert f"(</domino daily play:{board}>)" in text, text
        assert nobody in text, text  # not "0 players have finished it so far"
        named_commands.forget()
        try:
            result = await fake.slash(
                bob, fake.channel_id, "domino daily board", {}, locale=locale
            )
            message = result.message if result.message is not None else result.followups[0]
            assert f"({plain})" in message.text(), message.text()
        finally:
            named_commands.remember([("domino", int(board))])
        assert fake.sync_count == syncs  # no request per message
        await idle(bot)
