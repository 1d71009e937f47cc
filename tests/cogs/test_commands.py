"""/domino challenge, rules, leave; the options of /domino new."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.domino import texts
from cogs.rules_text import common_rules, rules_text, tournament_rules, variant_rules
from tests.cogs.helpers import (
    answer,
    button,
    factory,
    game_message,
    new_table,
    settle,
    table_id_of,
)
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot


async def test_challenge_accepted_by_everyone_starts_with_computers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    dave = fake.add_user(1004, "dave", "Dave")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(
            alice,
            fake.channel_id,
            "domino challenge",
            {"variant": "brazilian", "player": bob, "player2": carol},
        )
        message = result.message
        assert message is not None and not result.ephemeral
        assert message.v2 and message.text().startswith(
            "<@1002> <@1003>: <@1001> challenges you to Brazilian!"
        )
        tid = table_id_of(message)
        assert "Waiting for" in message.text()

        outsider = await fake.click(dave, message, button(message, "accept"))
        assert await answer(outsider) == "This challenge is not for you."
        host = await fake.click(alice, message, button(message, "accept"))
        assert await answer(host) == "This challenge is not for you."

        await fake.click(bob, message, button(message, "accept"))
        await fake.wait_for(lambda: "Accepted: <@1002>" in message.text())
        assert (await bot.svc.get(tid)).status == "lobby"
        twice = await fake.click(bob, message, button(message, "accept"))
        assert await answer(twice) == "You already have a seat at this table."

        await fake.click(carol, message, button(message, "accept"))
        await game_message(fake, bot, tid)
        info = await bot.svc.get(tid)
        assert info.status == "running"
        assert [s.user_id if s else None for s in info.seats] == [1001, 1002, 1003, None]
        assert info.seats[3] is not None and info.seats[3].kind == "computer"
        await settle(bot)
        assert message.custom_ids() == []


async def test_challenge_declined_and_bad_invitations(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    robot = fake.add_user(1005, "robot", bot=True)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": bob}
        )
        message = result.message
        assert message is not None
        tid = table_id_of(message)
        decline = await fake.click(bob, message, button(message, "decline"))
        (said,) = await decline.wait_for_followups(1)
        assert not said.ephemeral and said.content == "<@1002> declined the challenge."
        await fake.wait_for(lambda: "This challenge was declined." in message.text())
        assert (await bot.svc.get(tid)).status == "cancelled"
        assert message.custom_ids() == []

        too_many = await fake.slash(
            alice,
            fake.channel_id,
            "domino challenge",
            {"variant": "draw", "player": bob, "player2": carol},
        )
        assert too_many.ephemeral
        assert too_many.content == "Draw game (two players) seats at most 2 people."
        self_ = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": alice}
        )
        assert self_.content == "You cannot challenge yourself."
        bots = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": robot}
        )
        assert bots.content == "Bots cannot accept challenges."
        assert [t.id for t in bot.svc.open_tables()] == []


def _sections(message: StoredMessage) -> tuple[str, list[tuple[str, str, bool]]]:
    """The rules answer's menu: its custom id and its options (value, label, shown)."""
    (menu,) = [c for c in message.all_components() if c.get("type") == 3]
    return menu["custom_id"], [
        (o["value"], o["label"], bool(o.get("default"))) for o in menu["options"]
    ]


@pytest.mark.parametrize("variant", list(texts.VARIANTS))
async def test_rules_of_every_variant(
    fake_discord: FakeDiscord, tmp_path: Path, variant: str
) -> None:
    """Our decision: the rules come one section at a time (in short, the variant's rules, the
    rules every variant shares), a menu under them turning to the others in place."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        result = await fake.slash(alice, fake.channel_id, "domino rules", {"variant": variant})
        assert result.ephemeral and result.embed is not None and len(result.embeds) == 1
        name, _ = texts.VARIANTS[variant]
        assert result.embed["title"] == name
        # Five lines first: who plays, the tiles, a turn, a hand's end, the score.
        summary = result.embed["description"].splitlines()
        assert [line[:3] for line in summary] == ["1. ", "2. ", "3. ", "4. ", "5. "], summary
        assert "players" in summary[0] or "people" in summary[0]
        assert "tiles each" in summary[1] and "On your turn" in summary[2]
        assert "wins" in summary[4] or "win" in summary[4]
        menu, options = _sections(result.message)  # type: ignore[arg-type]
        assert [(v, shown) for v, _, shown in options] == [
            ("short", True), ("full", False), ("common", False)
        ]
        message = result.message
        assert message is not None
        turned = await fake.select(alice, message, menu, ["full"])
        assert turned.type == 7  # the answer itself changes: no new message
        text = message.embed["description"] if message.embed else ""
        assert text == variant_rules("en-US", variant)
        if variant in ("partners", "spanish", "venezuelan", "cuban", "three", "two"):
            assert "**Our decision:**" in text  # the decisions of RULES.md are spelled out
        assert [shown for _, _, shown in _sections(message)[1]] == [False, True, False]
        await fake.select(alice, message, _sections(message)[0], ["common"])
        assert message.embed is not None
        assert message.embed["description"] == common_rules("en-US")
        # Every section is shorter than the whole was (the summary, every rule, the common).
        whole = len(rules_text("en-US", variant)) + len("".join(summary))
        assert max(len(text), len(common_rules("en-US"))) < whole * 0.7
        overview = await fake.slash(alice, fake.channel_id, "domino rules")
        assert overview.ephemeral and overview.embed is not None
        assert len(overview.embed["fields"]) == len(texts.VARIANTS)
        assert "description" not in overview.embed  # the common rules: the menu's other page
        assert [v for v, _, _ in _sections(overview.message)[1]] == ["variants", "common"]  # type: ignore[arg-type]


async def test_only_the_asker_turns_the_rules_pages_and_they_survive_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A forged menu pick by someone else is refused to him alone, the answer unchanged; the
    menu keeps working after the bot restarts; in Spanish the menu speaks Spanish."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    make = factory(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, make):
        result = await fake.slash(
            alice, fake.channel_id, "domino rules", {"variant": "partners"}, locale="es-ES"
        )
        message = result.message
        assert message is not None
        menu, options = _sections(message)
        assert [label for _, label, _ in options] == [
            "En resumen: cinco líneas", "Todas las reglas de esta modalidad",
            "Reglas comunes a todas las modalidades",
        ]
        before = message.snapshot()
        message.ephemeral_user_id = bob.id  # as if Bob forged a pick on Alice's answer
        try:
            forged = await fake.select(bob, message, menu, ["full"])
        finally:
            message.ephemeral_user_id = alice.id
        assert forged.ephemeral and forged.content.startswith("These rules were asked for by")
        assert message.embeds == before.embeds
    async with running_bot(fake, make):
        turned = await fake.select(alice, message, menu, ["full"], locale="es-ES")
        assert turned.type == 7
        assert message.embed is not None
        assert message.embed["description"] == variant_rules("es-ES", "partners")


async def test_rules_of_a_tournament_in_the_readers_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        command = fake.find_command("domino", fake.guild_id)
        rules = next(o for o in command["options"] if o["name"] == "rules")
        choice = next(c for c in rules["options"][0]["choices"] if c["value"] == "tournament")
        assert set(choice["name_localizations"]) == {"es-ES", "es-419", "pt-BR"}
        for locale in ("en-US", "es-ES", "pt-BR"):
            result = await fake.slash(alice, fake.channel_id, "domino rules",
                                      {"variant": "tournament"}, locale=locale)
            assert result.ephemeral and result.embed is not None
            assert result.embed["description"] == tournament_rules(locale)
        assert "**Swiss system**" in tournament_rules("en-US")


async def test_new_options_and_leave(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        command = fake.find_command("domino", fake.guild_id)
        new = next(o for o in command["options"] if o["name"] == "new")
        options = {o["name"]: o for o in new["options"]}
        assert [c["value"] for c in options["variant"]["choices"]] == list(texts.VARIANTS)
        assert all(len(c["name"]) <= 100 for c in options["variant"]["choices"])
        assert (options["turn_timer"]["min_value"], options["turn_timer"]["max_value"]) == (
            30,
            600,
        )
        assert {"first_hand", "next_hand", "scoring", "blocked", "target"} <= set(options)

        wrong = await fake.slash(
            alice, fake.channel_id, "domino new", {"variant": "draw", "scoring": "all"}
        )
        assert wrong.ephemeral and "partners only" in wrong.content
        bad_target = await fake.slash(
            alice, fake.channel_id, "domino new", {"variant": "partners", "target": 500}
        )
        assert bad_target.ephemeral and "target" in bad_target.content

        result, tid = await new_table(
            fake,
            bot,
            alice,
            variant="partners",
            target=150,
            turn_timer=45,
            first_hand="random",
            next_hand="winner",
            scoring="all",
            blocked="individual",
        )
        info = await bot.svc.get(tid)
        assert info.ruleset.target == 150 and info.ruleset.first_hand == "random"
        assert info.ruleset.blocked == "individual" and info.table.turn_timer == 45
        lobby = result.message
        assert lobby is not None and "turn timer 45 s" in lobby.text()

        # /domino leave: out of the lobby; then, once it runs, resigning ends the match.
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        left = await fake.slash(bob, fake.channel_id, "domino leave")
        assert left.content == f"You left table {tid}."
        await fake.wait_for(lambda: "<@1002>" not in lobby.text())
        nothing = await fake.slash(bob, fake.channel_id, "domino leave")
        assert nothing.content == "You have no seat at an open table."
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        start = await fake.click(alice, lobby, button(lobby, "start"))
        (confirm,) = await start.wait_for_followups(1)
        await fake.click(alice, confirm, button(confirm, "fill"))
        game = await game_message(fake, bot, tid)
        asked = await fake.slash(bob, game.channel_id, "domino leave")
        assert asked.ephemeral and asked.content == "Resign? Your side loses the match."
        assert (await bot.svc.get(tid)).status == "running"  # nothing happens before the answer
        confirm = asked.message
        assert confirm is not None
        resigned = await fake.click(bob, confirm, button(confirm, "resignok"))
        await resigned.wait_for_edits(1)
        assert confirm.content == "You resigned."
        await settle(bot)
        info = await bot.svc.get(tid)
        assert info.status == "finished"
        view = info.public_view()
        assert view is not None and view.outcome is not None
        assert view.outcome.reason == "resign" and view.outcome.winner_side == 0
        final = fake.messages(game.channel_id)[-1]
        assert final.title() == "Match over"
        assert "Bob resigned." in final.text()


async def test_public_texts_in_the_server_language_private_in_the_users(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.i18n

    def lookup(locale: str | None, text: str, context: str | None = None) -> str | None:
        return f"[{locale}] {text}" if context is None and locale in ("es-ES", "pt-BR") else None

    monkeypatch.setattr(bot.i18n, "lookup", lookup)
    fake = fake_discord
    fake.guild.locale = "es-ES"
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        result = await fake.slash(
            alice, fake.channel_id, "domino new", {"variant": "draw"}, locale="pt-BR"
        )
        assert result.message is not None and not result.ephemeral
        assert "[es-ES] Draw game (two players)" in result.message.title()
        labels = [b["label"] for b in result.message.buttons()]
        assert labels[0] == "[es-ES] Join"
        lobby = result.message
        assert lobby is not None
        again = await fake.click(alice, lobby, button(lobby, "join"), locale="pt-BR")
        assert await answer(again) == "[pt-BR] You already have a seat at this table."
