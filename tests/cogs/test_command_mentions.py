"""Commands named in the bot's words: Discord's clickable mentions (each client shows them in
its own language), from the ids the start-up's command sync returned, never a request per
message; where Discord shows mentions as raw text (an embed's footer), or without ids, the
command's names in the reader's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import commands as named_commands
from tests.cogs.helpers import answer, factory
from tests.fakediscord import FakeDiscord, running_bot

WORDS = {
    "en-US": {
        "settings": "Change them with {command}.",
        "rules": "/domino rules with a variant shows its full rules.",
        "create": "{command}: open a tournament (organisers).",
        "plain settings": "Change them with /domino settings.",
    },
    "es-ES": {
        "settings": "Cámbialos con {command}.",
        "rules": "/domino reglas con una modalidad muestra sus reglas completas.",
        "create": "{command}: abrir un torneo (organizadores).",
        "plain settings": "Cámbialos con /domino ajustes.",
    },
    "pt-BR": {
        "settings": "Mude-as com {command}.",
        "rules": "/domino regras com uma modalidade mostra as regras completas dela.",
        "create": "{command}: abrir um torneio (organizadores).",
        "plain settings": "Mude-as com /domino configuracoes.",
    },
}


@pytest.mark.parametrize("locale", list(WORDS))
async def test_commands_named_in_answers_are_clickable_mentions(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    fake = fake_discord
    words = WORDS[locale]
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        assert bot.is_ready()
        syncs = fake.sync_count
        domino = fake.find_command("domino", fake.guild_id)["id"]
        settings = await fake.slash(alice, fake.channel_id, "domino settings", {}, locale=locale)
        said = await answer(settings)
        assert words["settings"].format(command=f"</domino settings:{domino}>") in said, said
        rules = await fake.slash(alice, fake.channel_id, "domino rules", {}, locale=locale)
        message = rules.message if rules.message is not None else rules.followups[0]
        (embed,) = message.embeds
        assert embed["footer"]["text"] == words["rules"]  # a footer shows no mention
        helped = await fake.slash(
            alice, fake.channel_id, "domino tournament help", {}, locale=locale
        )
        message = helped.message if helped.message is not None else helped.followups[0]
        create = f"</domino tournament create:{domino}>"
        assert words["create"].format(command=create) in message.text(), message.text()
        assert f"</domino tournament correct:{domino}>" in message.text()
        assert "/domino tournament register" not in message.text().replace(
            f"</domino tournament register:{domino}>", ""
        )
        named_commands.forget()  # as after a failed sync
        try:
            settings = await fake.slash(
                alice, fake.channel_id, "domino settings", {}, locale=locale
            )
            said = await answer(settings)
            assert words["plain settings"] in said, said
        finally:
            named_commands.remember([("domino", int(domino))])
        assert fake.sync_count == syncs
        assert not [r for r in fake.requests if "/commands" in r.path and r.method == "GET"]
