"""Translations: every message id of the code is translated in every catalogue, with the same
placeholders; ``tr``, error texts, the command translator and the rules text."""

from __future__ import annotations

import ast
import asyncio
import configparser
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot import i18n, locales
from bot.client import CommandTranslator
from bot.errors import (
    IllegalMove,
    InvalidOptions,
    NotSeated,
    NotYourTurn,
    ServiceError,
    TableNotFound,
)
from bot.i18n import (
    COMMAND_NAME,
    ENGINE_MESSAGES,
    ENGINE_PLAIN,
    OPTION_NAME,
    error_message,
    picture_labels,
    tr,
    translate_command_string,
)
from bot.i18n import rules_text as paragraphs
from cogs import rules_text
from cogs.markup import error_text
from domino import PRESETS, Match, Play, preset
from domino.errors import IllegalAction
from domino.tiles import tile_set

Location = app_commands.TranslationContextLocation
ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("es-ES", "es-419", "pt-BR")


@pytest.fixture(scope="module")
def messages() -> dict[i18n.Key, locales.Entry]:
    """Every message id the bot can show, extracted now from the code and the commands."""
    return locales.all_messages()


# ----------------------------------------------------------------------------- catalogues


def test_every_message_is_translated_with_the_same_placeholders(
    messages: dict[i18n.Key, locales.Entry],
) -> None:
    """A new English string without translations (or with broken ones) fails here.

    Fix with ``python -m bot.locales update``, then translate the new empty entries of
    ``bot/locales/{es,pt_BR}/LC_MESSAGES/messages.po`` (and es_419 where it says it otherwise).
    """
    assert len(messages) > 150
    found = locales.problems(messages)
    assert not found, "\n".join(found)


def test_the_template_is_up_to_date(messages: dict[i18n.Key, locales.Entry]) -> None:
    """``bot/locales/messages.pot`` lists exactly the current ids (``python -m bot.locales
    update`` rewrites it)."""
    pot = locales.pot_keys()
    assert not set(messages) - pot, f"missing from the .pot: {sorted(set(messages) - pot)}"
    assert not pot - set(messages), f"stale in the .pot: {sorted(pot - set(messages))}"


def test_extraction_covers_commands_pictures_and_errors(
    messages: dict[i18n.Key, locales.Entry],
) -> None:
    assert (COMMAND_NAME, "new") in messages
    assert (OPTION_NAME, "variant") in messages
    assert (None, "Open a table and wait for players") in messages  # a description
    assert (None, "random: a random player opens") in messages  # a choice
    assert (None, "You are not seated at this table.") in messages  # a service error
    assert (None, "You do not have {tile}.") in messages  # an engine error
    for text in locales.picture_defaults().values():
        assert (None, text) in messages


def test_the_check_finds_missing_bad_and_fuzzy_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, body in {
        "es": 'msgid "Hi {name}"\nmsgstr "Hola {nombre}"\n\n'
        '#, fuzzy\nmsgid "Bye"\nmsgstr "Adiós"\n',
        "es_419": 'msgid "Bye"\nmsgstr "Chao"\n',
        "pt_BR": 'msgctxt "command name"\nmsgid "new"\nmsgstr "Nova Mesa"\n\n'
        'msgid "Hi {name}"\nmsgstr "Oi {name"\n',
    }.items():
        path = tmp_path / name / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True)
        path.write_text(body, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    found = locales.problems(
        [(None, "Hi {name}"), (None, "Bye"), (COMMAND_NAME, "new"), (None, "Missing")]
    )
    text = "\n".join(found)
    assert "es: 'Hi {name}': placeholders ['nombre'] instead of ['name']" in text
    assert "es: fuzzy entry 'Bye'" in text
    assert "es: 'Bye' is not translated" in text  # fuzzy entries don't count
    assert "es_419: 'Bye'" not in text  # es_419's own word
    assert "es_419: 'Hi {name}': placeholders" in text  # inherited from es
    assert "'Nova Mesa' is not a valid Discord name" in text
    assert "pt_BR: 'Hi {name}': malformed translation" in text
    assert all(f"{n}: 'Missing' is not translated" in text for n in ("es", "es_419", "pt_BR"))


def _keywords(config: configparser.RawConfigParser, section: str) -> set[str]:
    return {k.split(":")[0] for k in config.get(section, "keywords").split()}


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_service_error_class_is_an_extraction_keyword() -> None:
    """``raise NotSeated("text")``: the text is a message id only if babel.cfg knows the class."""
    locales.import_all()
    config = configparser.RawConfigParser()
    config.read(ROOT / "babel.cfg", encoding="utf-8")
    names = {c.__name__ for c in _subclasses(ServiceError)} | {"ServiceError"}
    for section in ("python: bot/**.py", "python: cogs/**.py"):
        missing = names - _keywords(config, section)
        assert not missing, f"add {sorted(missing)} to the keywords of [{section}] in babel.cfg"


def _illegal_action_calls() -> Iterator[tuple[str, ast.Call]]:
    for path in sorted((ROOT / "domino").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalAction"
            ):
                yield path.name, node


def test_every_engine_message_has_a_message_id() -> None:
    """Each ``IllegalAction`` of the engine: a plain English text that is a message id, or a
    code whose template in ``ENGINE_MESSAGES`` uses only the parameters the engine passes."""
    calls = list(_illegal_action_calls())
    assert len(calls) >= 10
    for where, call in calls:
        first = call.args[0]
        code_node = call.args[1] if len(call.args) > 1 else None
        code = code_node.value if isinstance(code_node, ast.Constant) else "illegal"
        params = {k.arg for k in call.keywords}
        if isinstance(first, ast.Constant):
            assert first.value in ENGINE_PLAIN, f"{where}: {first.value!r} is no message id"
            continue
        keys = [k for k in ENGINE_MESSAGES if k.split(":")[0] == code]
        assert keys, f"{where}: IllegalAction code {code!r} has no ENGINE_MESSAGES template"
        for key in keys:
            used = locales.placeholders(ENGINE_MESSAGES[key])
            assert used <= params, f"{where}: {key} uses {used - params} the engine doesn't pass"


# ----------------------------------------------------------------------------- tr


def test_tr_translates_and_falls_back() -> None:
    assert tr("es-ES", "Join") == "Sentarse"
    assert tr("pt-BR", "Join") == "Entrar"
    assert tr("en-US", "Join") == tr(None, "Join") == tr("fr", "Join") == "Join"
    assert tr("es-ES", "No such message {x}", x=1) == "No such message 1"
    # es-419 has words of its own and falls back to es for the rest.
    assert tr("es-419", "Add a computer player…") == "Agregar un jugador computadora…"
    assert tr("es-ES", "Add a computer player…") == "Añadir un jugador máquina…"
    assert tr("es-419", "Join") == "Sentarse"
    assert tr("es-MX", "Join") == "Sentarse"  # other Spanish locales: Latin American words
    assert tr("pt-PT", "Join") == "Entrar"


def test_a_broken_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    i18n.reload()
    broken = dict(i18n._messages("es"))
    broken[(None, "Table {id}")] = "Mesa {número}"
    monkeypatch.setattr(i18n, "_messages", lambda name: broken)
    assert tr("es-ES", "Table {id}", id=3) == "Table 3"


def test_error_texts_of_the_engine_and_the_service() -> None:
    match = Match.new(preset("draw"), seed=1)
    turn = match.turn
    assert turn is not None
    missing = next(t for t in tile_set(6) if t not in match.hands[turn])
    with pytest.raises(IllegalAction) as caught:
        match.apply(Play(missing), turn)
    engine = caught.value
    assert error_text("es-ES", engine) == f"No tienes el {missing}."
    assert error_text("pt-BR", engine) == f"Você não tem a {missing}."
    assert error_text("en-US", engine) == str(engine)
    # As the service raises it: the English text escaped, the engine's code and params.
    moved = IllegalMove(str(engine), engine.code, **engine.params)
    assert error_text("es-419", moved) == f"No tienes el {missing}."
    assert error_text("en-US", moved) == str(engine)
    # Seats are shown from 1; plain engine messages are message ids as they are.
    wrong = IllegalMove("x", "not_your_turn", seat=0, turn=1)
    assert error_text("pt-BR", wrong) == "É a vez do lugar 2, não do 1."
    assert error_text("es-ES", IllegalMove("You cannot pass while you can draw.", "must_draw")) == (
        "No puedes pasar mientras puedas robar."
    )
    # Service errors: template and params; a service code equal to an engine code stays itself.
    assert error_text("pt-BR", TableNotFound("There is no table {table_id}.", table_id=7)) == (
        "A mesa 7 não existe."
    )
    assert error_text("es-ES", NotYourTurn("It is not your turn.", turn=2)) == "No es tu turno."
    assert error_text("es-ES", NotSeated("You are not seated at this table.")) == (
        "No estás sentado en esta mesa."
    )
    assert error_text("es-ES", ValueError("plain")) == "plain"


@pytest.mark.parametrize(
    ("variant", "options", "spanish"),
    [
        ("penalty", {"target": 100}, "La modalidad `penalty` no tiene la opción `puntos`"),
        ("draw", {"first_hand": "random"}, "sus opciones son: `puntos`."),
        ("partners", {"target": 75}, "`puntos` tiene que ser uno de estos valores: 50, 100"),
        ("nope", {}, "No existe la modalidad `nope`; elige una de estas: partners"),
    ],
)
def test_option_errors_of_the_engine_are_translated(
    variant: str, options: dict[str, Any], spanish: str
) -> None:
    """The engine's preset errors reach users as ``InvalidOptions`` (e.g. a target for the
    penalty game): recognised by their wording, so a rewording in domino/ fails here."""
    with pytest.raises(ValueError) as caught:
        preset(variant, **options)
    error = InvalidOptions.verbatim(str(caught.value), variant=variant)
    assert spanish in error_text("es-ES", error)
    assert error_text("pt-BR", error) != error_text("en-US", error)


def test_errors_carry_data_and_the_cogs_add_the_markup() -> None:
    """The bot's error says which channels, role and option; the cogs mention and mark them."""
    places = ServiceError(
        "Tables can be opened only in {channels} on this server.",
        channels=[i18n.Ref("channel", 5), i18n.Ref("channel", 6)],
    )
    assert str(places) == "Tables can be opened only in 5, 6 on this server."
    assert error_message("es-ES", places)[1]["channels"] == [
        i18n.Ref("channel", 5), i18n.Ref("channel", 6)
    ]
    spanish = "En este servidor solo se pueden abrir mesas en <#5>, <#6>."
    assert error_text("es-ES", places) == spanish
    role = ServiceError(
        "Only members with the role {role} can open tables on this server.",
        role=i18n.Ref("role", 9),
    )
    assert "<@&9>" in error_text("pt-BR", role) and "<@&" not in str(role)
    with pytest.raises(ValueError) as caught:
        preset("penalty", target=100)
    error = InvalidOptions.verbatim(str(caught.value), variant="penalty")
    text, params = error_message("es-ES", error)
    assert params["option"] == "puntos" and isinstance(params["option"], i18n.Typed)
    assert "`" not in text and "`puntos`" in error_text("es-ES", error)


def test_picture_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = {"score": "Match over", "pile": "pile: {count}"}
    assert picture_labels("en-US", defaults) is None
    assert picture_labels(None, defaults) is None
    assert picture_labels("pt-BR", defaults) == {
        "score": "Fim da partida",
        "pile": "monte: {count}",
    }
    # The renderer's own dict is found, and its words are extracted for translation.
    fake = types.ModuleType("render")
    fake.LABELS = defaults  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "render", fake)
    i18n.render_defaults.cache_clear()
    try:
        assert i18n.picture_options("en-US") == {}
        assert i18n.picture_options("es-ES") == {
            "labels": {"score": "Fin de la partida", "pile": "pozo: {count}"}
        }
        assert set(locales.picture_defaults().values()) == {"Match over", "pile: {count}"}
    finally:
        i18n.render_defaults.cache_clear()


# ----------------------------------------------------------------------------- commands


def test_translate_command_strings() -> None:
    assert set(i18n.NAME_CONTEXTS) <= {location.name for location in Location}
    assert translate_command_string("new", "es-ES", "command_name") == "nueva"
    assert translate_command_string("new", "pt-BR", "command_name") == "nova"
    assert translate_command_string("blocked", "es-419", "parameter_name") == "tranque"
    assert translate_command_string("blocked", "es-ES", "parameter_name") == "tranca"
    assert translate_command_string("new", "fr", "command_name") is None
    assert translate_command_string("100", "es-ES", "choice_name") is None
    assert translate_command_string("domino", "es-ES", "group_name") is None  # same
    desc = translate_command_string(
        "Open a table and wait for players", "pt-BR", "command_description"
    )
    assert desc == "Abra uma mesa e espere os jogadores"
    # The word "new" inside a sentence is not the command name.
    assert i18n.lookup("es-ES", "new") is None


def test_invalid_translated_names_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {(COMMAND_NAME, "new"): "Nueva Mesa", (None, "x" * 5): "y" * 101}
    monkeypatch.setattr(i18n, "_messages", lambda name: fake)
    assert translate_command_string("new", "es-ES", "command_name") is None
    assert translate_command_string("x" * 5, "es-ES", "parameter_description") is None


def _walk(payload: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    yield path + payload["name"], payload
    for option in payload.get("options", []):
        yield from _walk(option, path + payload["name"] + " ")


def test_translated_payloads_carry_localizations_for_every_string() -> None:
    """What the tree syncs: every name, description and choice localized in the three
    locales, names valid and unique among their siblings."""

    async def payloads() -> list[dict[str, Any]]:
        from bot.client import DominoBot
        from bot.settings import Settings

        class Offline(DominoBot):
            async def sync_commands(self) -> None:
                return None

        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            bot = Offline(
                Settings(None, Path(tmp) / "db.sqlite3", None, "WARNING", ai_processes=0)
            )
            async with bot:
                await bot.setup_hook()
                assert isinstance(bot.tree.translator, CommandTranslator)
                return [
                    await c.get_translated_payload(bot.tree, bot.tree.translator)
                    for c in bot.tree.get_commands()
                ]

    synced = asyncio.run(payloads())
    assert synced
    localized = 0
    for command in synced:
        for path, item in _walk(command):
            for locale in LOCALES:
                # A translation equal to the English is left out of the localizations.
                name = item.get("name_localizations", {}).get(locale, item["name"])
                assert i18n.valid_name(name), (path, locale, name)
                localized += name != item["name"]
                if item.get("description"):
                    desc = item.get("description_localizations", {}).get(locale)
                    assert desc and len(desc) <= 100, (path, locale, desc)
                for choice in item.get("choices", []):
                    local = choice.get("name_localizations", {}).get(locale, choice["name"])
                    assert 0 < len(local) <= 100, (path, locale, local)
            siblings = item.get("options", [])
            for locale in LOCALES:
                names = [o.get("name_localizations", {}).get(locale, o["name"]) for o in siblings]
                assert len(names) == len(set(names)), (path, locale, names)
    assert localized > 30


# ----------------------------------------------------------------------------- rules


DECISION = {"en": "**Our decision:**", "es": "**Decisión nuestra:**", "pt": "**Nossa decisão:**"}
WORDS = {
    "en": ("tile", "pips", "pass"),
    "es": ("ficha", "puntos", "pasas", "tranca"),
    "pt": ("pedra", "pontos", "passa", "a vez", "tranca", "bat"),
}


@pytest.mark.parametrize("variant", sorted(PRESETS))
@pytest.mark.parametrize("locale", ["en-US", "es-ES", "es-419", "pt-BR"])
def test_rules_text_of_every_variant(variant: str, locale: str) -> None:
    ruleset = PRESETS[variant]
    lang = {"en-US": "en", "es-ES": "es", "es-419": "es", "pt-BR": "pt"}[locale]
    text = rules_text.rules_text(locale, variant)
    assert len(text) < 4096  # an embed's description
    assert "{" not in text and "}" not in text
    if ruleset.target is not None:
        assert str(ruleset.target) in rules_text.variant_rules(locale, variant)
    if ruleset.hands is not None:
        assert str(ruleset.hands) in rules_text.variant_rules(locale, variant)
    assert str(ruleset.hand_size) in rules_text.variant_rules(locale, variant)
    # Decisions where the sources are silent (a tie scores nothing, the draw game's opener
    # and draw floor, ...): every variant but brazilian and penalty has some.
    has_decision = variant not in ("brazilian", "penalty")
    assert (DECISION[lang] in text) == has_decision, (variant, lang)
    lowered = text.lower()
    for word in WORDS[lang]:
        assert word in lowered, (variant, lang, word)
    if lang != "en":
        assert text != rules_text.rules_text("en-US", variant)


def test_rules_text_names_options_as_the_reader_sees_them() -> None:
    assert "`primera_mano`" in rules_text.rules_text("es-ES", "partners")
    assert "`tranca`" in rules_text.rules_text("es-ES", "partners")
    assert "`tranque`" in rules_text.rules_text("es-419", "partners")
    assert "`primeira_mao`" in rules_text.rules_text("pt-BR", "partners")
    assert "`first_hand`" in rules_text.rules_text("en-US", "partners")
    assert "capicúa" in rules_text.common_rules("es-ES")
    assert "capicua" in rules_text.common_rules("pt-BR")
    assert set(paragraphs.RULES) == set(PRESETS)


def test_the_check_reads_every_plural_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    plural = 'msgid "{name} drew a tile."\nmsgid_plural "{name} drew {count} tiles."\n'
    for name, forms in {
        "es": ("{name} roba una ficha.", "{name} roba {count} fichas."),
        "es_419": None,
        "pt_BR": ("{name} comprou uma pedra.", "{name} comprou pedras."),
    }.items():
        body = header
        if forms is not None:
            body += plural + "".join(f'msgstr[{i}] "{f}"\n' for i, f in enumerate(forms))
        path = tmp_path / name / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True)
        path.write_text(body, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    text = "\n".join(locales.problems([(None, "{name} drew a tile.")]))
    assert "es:" not in text and "es_419:" not in text  # es_419 reads es's forms
    assert "pt_BR: '{name} drew a tile.': its plural '{name} comprou pedras.' lacks" in text


def test_plural_forms_follow_each_language() -> None:
    """Our decision: counted things are said with gettext's plural forms (``trn``) so no
    message reads "1 seat(s)"; Portuguese (Brazil) counts 0 and 1 as singular, Spanish 1."""
    one, many = "{name} drew a tile.", "{name} drew {count} tiles."
    assert i18n.trn(None, one, many, 1, name="Ana") == "Ana drew a tile."
    assert i18n.trn(None, one, many, 2, name="Ana") == "Ana drew 2 tiles."
    assert i18n.trn("es-ES", one, many, 1, name="Ana") == "Ana roba una ficha."
    assert i18n.trn("es-419", one, many, 3, name="Ana") == "Ana roba 3 fichas."
    assert i18n.trn("pt-BR", one, many, 2, name="Ana") == "Ana comprou 2 pedras."
    assert i18n.trn("fr", one, many, 2, name="Ana") == "Ana drew 2 tiles."
    seats = (
        "One seat is empty. Fill it with a computer player and start?",
        "{count} seats are empty. Fill them with computer players and start?",
    )
    assert i18n.trn("pt-BR", *seats, 1).startswith("Falta um jogador")
    assert i18n.trn("pt-BR", *seats, 2).startswith("Faltam 2 jogadores")


def test_one_number_format_per_locale() -> None:
    """Babel's digits for each locale (CLDR), and one minus sign (Babel's) everywhere."""
    assert i18n.number(None, 1097) == "1,097"
    assert i18n.number("es-ES", 1097) == i18n.number("pt-BR", 1097) == "1.097"
    assert i18n.number("es-419", 1097) == "1,097"
    assert i18n.number("en-US", -60) == i18n.number("pt-BR", -60) == "-60"
    assert i18n.number("es-ES", 23, signed=True) == "+23"
    assert i18n.number("es-ES", -1060, signed=True) == "-1.060"
    assert i18n.number("en-US", 0, signed=True) == "0"  # no sign on nothing
    assert i18n.number("xx-YY", 1097) == "1,097"  # a locale Babel does not know: English


def _strings(name: str) -> list[tuple[str | None, str]]:
    """Every translation of a catalogue, with its context (each plural form apart)."""
    found = []
    for m in locales.read(i18n.catalogue_path(name), name):
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        found.extend((m.context, s) for s in forms if m.id and s)
    return found


def test_one_word_for_each_thing_in_each_language() -> None:
    """Our decision, from reading every message on a phone: Spanish says "juega el 3-6",
    "puntas", "tu pareja", "hacerle pasar"; Portuguese "carroça" (never "bucha"), "mão" for
    a hand and "rodada" for a tournament's round, "pontuação" and "repetição" (not the
    English words); All Fives has a name in each language; command and option names carry no
    accents (typed the same on every keyboard)."""
    import unicodedata

    assert tr("es-ES", "play {tile}", tile="3-6") == "juega el 3-6"
    assert tr("es-ES", "Open ends: {left} and {right}.", left=3, right=5).startswith("Puntas")
    for name, banned in {
        "es": ("Extremo", "a tu lado", "trancarlo", "juega {tile}"),
        "pt_BR": ("bucha", "Rating", "rating", "Replay", "replay", "Fim da rodada"),
    }.items():
        for context, text in _strings(name):
            if context in (COMMAND_NAME, OPTION_NAME) or (context or "").startswith("rules"):
                continue
            words = re.sub(r"\{\w+\}(?!\w)", "", text) if name == "pt_BR" else text
            assert not any(word in words for word in banned), (name, text)
    assert "Todos los cincos" in tr("es-ES", "All Fives (Muggins)")
    assert "Todos os cincos" in tr("pt-BR", "All Fives (Muggins)")
    for name in ("es", "es_419", "pt_BR"):
        for context, text in _strings(name):
            if context in (COMMAND_NAME, OPTION_NAME):
                plain = unicodedata.normalize("NFD", text)
                assert all(unicodedata.category(c) != "Mn" for c in plain), (name, text)
