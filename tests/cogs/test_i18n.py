"""End to end in Spanish and Portuguese: the synced commands carry localizations; a Spanish
server's table speaks Spanish in public while each player gets private answers in his own
language (real catalogues, no stand-ins)."""

from __future__ import annotations

import io
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import i18n
from bot.i18n import picture_options
from bot.workers import pictures
from cogs.rules_text import rules_text, variant_rules
from render import render_table
from tests.cogs.helpers import (
    OpenedHand,
    answer,
    button,
    enabled,
    factory,
    game_message,
    parse,
    play_until_over,
    settle,
    table_id_of,
)
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot


def _option(command: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in command["options"] if o["name"] == name)


async def test_synced_commands_carry_localizations(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        domino = fake.find_command("domino", fake.guild_id)
        assert domino["description_localizations"] == {
            "es-ES": "Juega al dominó: mesas, desafíos, reglas",
            "es-419": "Juega dominó: mesas, desafíos, reglas",
            "pt-BR": "Jogue dominó: mesas, desafios, regras",
        }
        new = _option(domino, "new")
        assert new["name_localizations"] == {"es-ES": "nueva", "es-419": "nueva", "pt-BR": "nova"}
        assert new["description_localizations"]["pt-BR"] == "Abra uma mesa e espere os jogadores"
        blocked = _option(new, "blocked")
        assert blocked["name_localizations"] == {
            "es-ES": "tranca",
            "es-419": "tranque",
            "pt-BR": "tranca",
        }
        first = _option(new, "first_hand")
        random = next(c for c in first["choices"] if c["value"] == "random")
        assert random["name_localizations"]["es-ES"] == "al azar: sale un jugador al azar"
        assert random["name_localizations"]["pt-BR"] == "sorteio: sai um jogador sorteado"
        variant = _option(new, "variant")
        assert all(len(c["name_localizations"]) == 3 for c in variant["choices"])
        rules = _option(domino, "rules")
        assert rules["name_localizations"]["pt-BR"] == "regras"
        # Every subcommand and option of every command is localized in the three languages.
        for sub in domino["options"]:
            assert set(sub.get("name_localizations") or {}) == {"es-ES", "es-419", "pt-BR"}, sub
            for option in sub.get("options", []):
                assert option.get("description_localizations"), (sub["name"], option["name"])


async def _hand(fake: FakeDiscord, user: Any, game: Any, locale: str) -> OpenedHand:
    result = await fake.click(user, game, button(game, "tiles"), locale=locale)
    await result.wait_for_followups(1)
    return OpenedHand(result)


async def test_a_spanish_server_with_a_brazilian_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild.locale = "es-ES"
    ana = fake.add_user(1001, "ana", "Ana")
    bia = fake.add_user(1002, "bia", "Bia")
    locales = {ana.id: "es-419", bia.id: "pt-BR"}
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        # The lobby is public: the server's Spanish (Spain), whoever opened it.
        result = await fake.slash(
            ana, fake.channel_id, "domino new", {"variant": "draw"}, locale="es-419"
        )
        lobby = result.message
        assert lobby is not None and lobby.v2 and not result.ephemeral
        tid = table_id_of(lobby)
        assert lobby.title() == f"Con robo (dos jugadores) · mesa {tid}"
        assert "Asiento 1: <@1001>" in lobby.text()
        labels = [b["label"] for b in lobby.buttons()]
        assert labels[:4] == ["Sentarse", "Levantarse", "Empezar", "Cancelar"]
        menu = lobby.component(f"domino:addai:{tid}")
        assert menu is not None and menu["options"][0]["label"] == "fácil"
        assert "máquina" in menu["placeholder"]  # Spain's word, not es-419's "computadora"

        # Private answers follow each player's own language.
        await fake.click(bia, lobby, button(lobby, "join"), locale="pt-BR")
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        again = await fake.click(bia, lobby, button(lobby, "join"), locale="pt-BR")
        assert await answer(again) == "Você já tem lugar nesta mesa."
        not_host = await fake.click(bia, lobby, button(lobby, "start"), locale="pt-BR")
        assert await answer(not_host) == "Só o anfitrião da mesa pode fazer isso."

        await fake.click(ana, lobby, button(lobby, "start"), locale="es-419")
        game = await game_message(fake, bot, tid)
        await settle(bot)
        text = game.text()
        # The short text block: heading, what just happened, whose turn (the score and the
        # tiles in hand are on the picture, its alt text in Spanish too).
        assert text.startswith("**Con robo (dos jugadores) · mano 1**"), text
        assert "Empieza la partida." in text and "▶ <@1001>: si no juegas" in text, text
        assert f"Mesa {tid} · pozo: 14" in text and "jugada" not in text
        ((_, alt),) = game.media()
        assert alt and alt == game.attachments[0].description
        assert [b["label"] for b in game.buttons()] == ["Mis fichas", "Rendirse"]
        # The table picture is drawn with the server's words.
        started = await bot.svc.get(tid)
        public = started.public_view()
        assert public is not None
        spanish = render_table(public, started.names, **picture_options("es-ES"))
        assert game.attachments[0].data == spanish != render_table(public, started.names)
        begins = [m for m in fake.public_messages() if "¡empieza la partida!" in m.text()]
        assert begins, [m.text() for m in fake.public_messages()]
        assert "Pulsa **Mis fichas**" in begins[0].text()
        (thread,) = fake.threads(fake.channel_id)
        assert thread.name == f"Dominó · Con robo (dos jugadores) · mesa {tid}"

        # The player to move opens his tiles and plays, in his language.
        info = await bot.svc.get(tid)
        seat = info.turn_seat
        mover = ana if seat is not None and seat.user_id == ana.id else bia
        other = bia if mover is ana else ana
        hand = await _hand(fake, mover, game, locales[mover.id])
        message = hand.message
        assert message is not None and message.ephemeral
        opening = {"es-419": "Te toca: sales tú.", "pt-BR": "Sua vez: você sai jogando."}
        assert opening[locales[mover.id]] in message.text(), message.text()
        waiting = await _hand(fake, other, game, locales[other.id])
        other_hand = waiting.message
        assert other_hand is not None
        expected = {"es-419": "Mano 1. Esperando a", "pt-BR": "Mão 1. Esperando"}
        assert expected[locales[other.id]] in other_hand.text()

        choice = next(c for c in enabled(message) if (p := parse(c)) and p[0] == "play")
        parsed = parse(choice)
        assert parsed is not None
        tile = parsed[2][0]
        click = await fake.click(mover, message, choice, locale=locales[mover.id])
        await click.wait_for_edits(1)
        played = {"es-419": f"Jugaste el {tile}.", "pt-BR": f"Você jogou a {tile}."}
        assert played[locales[mover.id]] in message.text(), message.text()
        await settle(bot)
        game = await game_message(fake, bot, tid)
        assert f"{mover.global_name} sale con el {tile}." in game.text()  # public: Spain's Spanish

        # The other player's private hand is refreshed for his turn, in his language.
        turn = {"es-419": "Te toca (mano 1). Puntas:", "pt-BR": "Sua vez (mão 1). Pontas:"}
        await fake.wait_for(lambda: turn[locales[other.id]] in other_hand.text())


async def test_rules_and_errors_in_the_users_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    caio = fake.add_user(1003, "caio", "Caio")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        rules = await fake.slash(
            caio, fake.channel_id, "domino rules", {"variant": "brazilian"}, locale="pt-BR"
        )
        assert rules.ephemeral and rules.embed is not None
        assert rules.embed["title"] == "Brasileiro"
        assert rules.embed["description"].startswith("1. 4 jogadores em duas duplas")
        message = rules.message
        assert message is not None
        (menu,) = [c["custom_id"] for c in message.all_components() if c.get("type") == 3]
        await fake.select(caio, message, menu, ["full"], locale="pt-BR")
        assert message.embed is not None
        assert message.embed["description"] == variant_rules("pt-BR", "brazilian")
        assert rules_text("pt-BR", "brazilian").startswith(message.embed["description"])
        assert "batida" in message.embed["description"]

        cuban = await fake.slash(
            caio, fake.channel_id, "domino rules", {"variant": "cuban"}, locale="es-419"
        )
        assert cuban.embed is not None and cuban.embed["title"] == "Cubano (doble nueve)"
        assert "tranque" in cuban.embed["description"]
        assert "data" in variant_rules("es-419", "cuban")

        overview = await fake.slash(caio, fake.channel_id, "domino rules", locale="es-ES")
        assert overview.embed is not None and overview.embed["title"] == "Modalidades de dominó"
        assert overview.embed["fields"][0]["name"] == "Por parejas (latino) (`partners`)"

        leave = await fake.slash(caio, fake.channel_id, "domino leave", locale="pt-BR")
        assert leave.ephemeral and leave.content == "Você não tem lugar em nenhuma mesa aberta."
        cancel = await fake.slash(caio, fake.channel_id, "domino cancel", locale="es-ES")
        assert cancel.content == "Aquí no hay ninguna mesa que cancelar."
        english = await fake.slash(caio, fake.channel_id, "domino cancel", locale="en-GB")
        assert english.content == "There is no table to cancel here."


async def test_the_words_in_the_pictures_follow_the_locale(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table picture gets the server's words, a hand picture its owner's; English pictures
    get no labels at all (the renderer's defaults)."""
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, "PNG")
    png = buffer.getvalue()
    calls: list[tuple[str, dict[str, Any]]] = []

    def renderer(kind: str) -> Any:
        def render(view: Any, *args: Any, **options: Any) -> bytes:
            calls.append((kind, options))
            return png

        return render

    fake_render = types.ModuleType("render")
    fake_render.LABELS = {"score": "Match over", "pile": "pile: {count}"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "render", fake_render)
    monkeypatch.setattr(pictures, "table_renderer", lambda: renderer("render_table"))
    monkeypatch.setattr(pictures, "hand_renderer", lambda: renderer("render_hand"))
    i18n.render_defaults.cache_clear()
    fake = fake_discord
    fake.guild.locale = "pt-BR"
    ana = fake.add_user(1001, "ana", "Ana")
    eve = fake.add_user(1002, "eve", "Eve")
    try:
        async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
            result = await fake.slash(ana, fake.channel_id, "domino new", {"variant": "draw"})
            lobby = result.message
            assert lobby is not None
            tid = table_id_of(lobby)
            await fake.click(eve, lobby, button(lobby, "join"), locale="es-ES")
            await fake.wait_for(lambda: "<@1002>" in lobby.text())
            await fake.click(ana, lobby, button(lobby, "start"))
            game = await game_message(fake, bot, tid)
            await settle(bot)
            await _hand(fake, eve, game, "es-ES")
            await _hand(fake, ana, game, "en-US")
    finally:
        i18n.render_defaults.cache_clear()
    tables = [options for kind, options in calls if kind == "render_table"]
    hands = [options for kind, options in calls if kind == "render_hand"]
    assert tables and all(
        o["labels"] == {"score": "Fim da partida", "pile": "monte: {count}"} for o in tables
    )
    assert all(len(o["last"]) == 2 for o in tables)  # each seat's last move, from the log
    assert {"labels": {"score": "Fin de la partida", "pile": "pozo: {count}"}} in hands  # Eve's
    assert {} in hands  # Ana's, in English


#: English words that must not show in a table's messages read in another language.
ENGLISH = ("Hand ", "hand ", "Match over", "Score", "Pips left", "My tiles", "Resign", "Table ",
           "Join", "Rematch", "Your turn", "begins", "Waiting for", "Since your last turn")


@pytest.mark.parametrize("locale", ["es-ES", "es-419", "pt-BR"])
async def test_every_message_of_a_match_in_the_new_layout_in_each_language(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    """Lobby, game messages, hand results, the match end with its rematch offer and the private
    hand: each one container of the components v2 layout (within Discord's limits, which the
    fake enforces), every picture with its alt text, and no English word in another language."""
    fake = fake_discord
    fake.guild.locale = locale
    ana = fake.add_user(1001, "ana", "Ana")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result = await fake.slash(
            ana, fake.channel_id, "domino new",
            {"variant": "two", "target": 50, "forced_moves": False}, locale=locale,
        )
        lobby = result.message
        assert lobby is not None
        tid = table_id_of(lobby)
        menu = lobby.component(f"domino:addai:{tid}")
        assert menu is not None
        await fake.select(ana, lobby, f"domino:addai:{tid}", ["easy"], locale=locale)
        await fake.wait_for(lambda: len([s for s in bot.svc.open_tables()[0].seats if s]) == 2)
        await fake.click(ana, lobby, button(lobby, "start"), locale=locale)
        game = await game_message(fake, bot, tid)
        hands: dict[int, InteractionResult] = {}
        await play_until_over(fake, bot, tid, [ana], hands=hands, locale=locale)
        await settle(bot)
        place = game.channel_id
        shown = [lobby, *fake.messages(place), hands[ana.id].message]
        for message in shown:
            assert message is not None
            if message.content.startswith("<@"):  # a turn ping: a plain line
                continue
            for version in (*message.history, message):
                if version.loading:
                    continue
                assert version.v2 and not version.embeds, version.text()
                text = version.text()
                assert not [w for w in ENGLISH if w in text], (locale, text)
                for attachment, alt in version.media():
                    assert attachment is not None and alt, version.text()
        kinds = {m.title().split(" · ")[0] for m in shown if m is not None}
        # lobby and game (one title), match end, the hand (each hand's result is said on its
        # game message, checked above with the rest of its words)
        assert len(kinds) >= 3, kinds
