"""Upkeep of the translation catalogues: extract the message ids, merge them, check them.

``python -m bot.locales update`` writes ``messages.pot`` from the code (``babel.cfg``), the
slash commands' strings and the words drawn in pictures, and merges it into every
``<name>/LC_MESSAGES/messages.po`` (new ids arrive empty, vanished ones are dropped).
``python -m bot.locales check`` lists what is missing; the tests run the same check.

``es_419`` keeps only the entries Latin America says differently; the rest comes from ``es``.

Adding a string:

1. In code, write the English text as the message id: ``tr(locale, "Hand {number} begins.",
   number=n)``; text kept in a table is marked ``N_("...")`` and passed to ``tr`` when shown
   (``NC_("context", "...")`` and ``trc`` where the same English needs its own entry, as each
   paragraph of the rules has in ``rules <variant>``);
   errors are ``raise NotSeated("...", **params)`` (every ``ServiceError`` class is a keyword
   in ``babel.cfg``); slash command strings are plain strings or ``locale_str``. A count is
   said with plural forms: ``trn(locale, "One seat is empty.", "{count} seats are empty.",
   n)`` (its ``.po`` entry has ``msgid_plural`` and one ``msgstr[i]`` per form of the
   language's ``Plural-Forms``; ``{count}`` is filled in the locale's digits).
2. ``python -m bot.locales update``: the id lands in ``messages.pot`` and, empty, in
   ``es`` and ``pt_BR``.
3. Translate it in ``es/LC_MESSAGES/messages.po`` and ``pt_BR/...``, keeping the same
   ``{placeholders}``; add it to ``es_419/...`` only if Latin America says it differently.
   Command and option names (``msgctxt "command name"``/``"option name"``) must be lowercase
   words without spaces (``-`` and ``_`` allowed), at most 32 characters.
4. ``python -m bot.locales check`` (and ``tests/bot/test_i18n.py``) must report nothing.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import pkgutil
import string
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot import i18n
from bot.i18n import COMMAND_NAME, NAME_CONTEXTS, OPTION_NAME, Key

ROOT = Path(__file__).resolve().parents[2]
LOCALES = Path(__file__).resolve().parent
POT = LOCALES / "messages.pot"
CONFIG = ROOT / "babel.cfg"
NAMES = ("es", "es_419", "pt_BR")
FULL = ("es", "pt_BR")  # catalogues that must hold every message themselves
PROJECT = "domino-bot"
SLASH_COMMANDS = "(slash-commands)"  # the location of command strings in the .pot


@dataclass
class Entry:
    """One message id to translate, with where it comes from."""

    key: Key
    sources: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    plural: str | None = None  # the English plural of a message with plural forms (``trn``)


# ----------------------------------------------------------------------------- extraction


def code_messages(root: Path = ROOT, config: Path = CONFIG) -> dict[Key, Entry]:
    """The message ids in the code, as ``babel.cfg`` says where to look."""
    with config.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(config))
    found: dict[Key, Entry] = {}
    for filename, _lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map
    ):
        text = message if isinstance(message, str) else message[0]
        if not text:
            continue
        entry = found.setdefault((context, text), Entry((context, text)))
        if not isinstance(message, str) and len(message) > 1 and message[1]:
            entry.plural = message[1]
        if filename not in entry.sources:
            entry.sources.append(filename)
        entry.comments.extend(c for c in comments if c not in entry.comments)
    return found


class RecordingTranslator:
    """Stands in for the command translator and notes every string Discord would get."""

    def __init__(self) -> None:
        self.seen: dict[Key, set[str]] = {}

    async def _checked_translate(self, string: Any, locale: Any, context: Any) -> None:
        return await self.translate(string, locale, context)

    async def translate(self, string: Any, locale: Any, context: Any) -> None:
        message = string.message
        if not any(ch.isalpha() for ch in message):
            return None  # numbers (choices like 100) stay as they are
        ctx = NAME_CONTEXTS.get(context.location.name)
        self.seen.setdefault((ctx, message), set()).add(context.location.name)
        return None


async def command_messages(extensions: list[str] | None = None) -> dict[Key, Entry]:
    """Every string of the slash commands the bot syncs: names, descriptions, choices.

    Starts the real bot offline (a temporary database, no Discord) to load the cogs.
    """
    from bot.client import DominoBot
    from bot.settings import Settings

    class OfflineBot(DominoBot):
        async def sync_commands(self) -> None:
            return None

    if extensions is None:
        extensions = every_extension()
    recorder = RecordingTranslator()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            discord_token=None,
            database_path=Path(tmp) / "locales.sqlite3",
            dev_guild_id=None,
            log_level="WARNING",
            ai_processes=0,
        )
        bot = OfflineBot(settings, extensions=extensions)
        async with bot:  # initialised as for a login, closed (cogs unloaded) at the end
            await bot.setup_hook()
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, recorder)  # type: ignore[arg-type]
    entries: dict[Key, Entry] = {}
    for key, locations in recorder.seen.items():
        entries[key] = Entry(key, [SLASH_COMMANDS], sorted(locations))
    return entries


def every_extension(package: str = "cogs") -> list[str]:
    """The extensions the bot loads, then any other module of ``package`` with a ``setup``.

    So the strings of a cog are translated before it is switched on.
    """
    from bot.client import discover_extensions

    names = discover_extensions(package)
    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        name = f"{package}.{info.name}"
        if name in names or info.name.startswith("_"):
            continue
        if callable(getattr(importlib.import_module(name), "setup", None)):
            names.append(name)
    return names


def picture_defaults() -> dict[str, str]:
    """The words the renderers draw: every ``*LABELS`` dict of str in ``render/``'s modules."""
    words: dict[str, str] = {}
    package = importlib.import_module("render")
    modules = [package]
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        modules.append(importlib.import_module(f"render.{info.name}"))
    for module in modules:
        for name, value in vars(module).items():
            if name.upper() == name and name.endswith("LABELS") and isinstance(value, Mapping):
                for key, text in value.items():
                    if isinstance(key, str) and isinstance(text, str) and text.strip():
                        words[f"{module.__name__}.{name}.{key}"] = text
    return words


def picture_messages() -> dict[Key, Entry]:
    """Message ids of the words drawn in pictures."""
    entries: dict[Key, Entry] = {}
    for where, text in picture_defaults().items():
        entry = entries.setdefault((None, text), Entry((None, text)))
        entry.sources.append(where.rsplit(".", 1)[0])
    return entries


def all_messages(extensions: list[str] | None = None) -> dict[Key, Entry]:
    """Every message id the bot can show: code, slash commands, pictures."""
    merged: dict[Key, Entry] = {}
    for part in (
        code_messages(),
        asyncio.run(command_messages(extensions)),
        picture_messages(),
    ):
        for key, entry in part.items():
            into = merged.setdefault(key, Entry(key))
            into.plural = into.plural or entry.plural
            into.sources.extend(s for s in entry.sources if s not in into.sources)
            into.comments.extend(c for c in entry.comments if c not in into.comments)
    return merged


def template(entries: Mapping[Key, Entry]) -> Catalog:
    """The ``.pot`` catalogue of ``entries``."""
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for (context, text), entry in entries.items():
        catalog.add(
            (text, entry.plural) if entry.plural else text,
            None,
            locations=[(s, None) for s in entry.sources],
            auto_comments=entry.comments,
            context=context,
        )
    return catalog


# ----------------------------------------------------------------------------- files


def read(path: Path, locale: str | None = None) -> Catalog:
    """A ``.po``/``.pot`` file as a Babel catalogue."""
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def write(path: Path, catalog: Catalog) -> None:
    """Write ``catalog`` as a ``.po`` file (no line numbers, so code edits don't churn it)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, include_lineno=False, ignore_obsolete=True, width=100)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def _header(catalog: Catalog) -> None:
    catalog.project = PROJECT
    catalog.version = "0.1"
    catalog.copyright_holder = "the domino-bot contributors"
    catalog.last_translator = "the domino-bot contributors"
    catalog.language_team = f"{catalog.locale_identifier}"
    catalog.fuzzy = False


def update(entries: Mapping[Key, Entry] | None = None) -> dict[str, int]:
    """Write ``messages.pot`` and merge it into every catalogue; returns untranslated counts."""
    entries = all_messages() if entries is None else entries
    pot = template(entries)
    _header(pot)
    write(POT, pot)
    missing: dict[str, int] = {}
    for name in NAMES:
        path = i18n.catalogue_path(name)
        catalog = read(path, name) if path.exists() else Catalog(locale=name, project=PROJECT)
        catalog.update(pot, no_fuzzy_matching=True)
        if name not in FULL:
            for message in list(catalog):
                if message.id and not _translated(message.string):
                    catalog.delete(message.id, context=message.context)
        _header(catalog)
        write(path, catalog)
        missing[name] = sum(1 for m in catalog if m.id and not _translated(m.string))
    i18n.reload()
    return missing


def _translated(string: str | tuple[str, ...] | None) -> bool:
    """Whether a catalogue entry's translation (every plural form of it) is filled in."""
    if isinstance(string, tuple | list):
        return bool(string) and all(string)
    return bool(string)


# ----------------------------------------------------------------------------- checks


def placeholders(text: str) -> set[str]:
    """The ``{names}`` of a ``str.format`` template (ValueError if it is malformed)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(keys: Iterable[Key]) -> list[str]:
    """What is wrong with the catalogues for the message ids ``keys``; empty when all is well.

    Each catalogue must translate every id (``es_419`` through its ``es`` fallback), without
    fuzzy or empty entries, with the same placeholders as the English text; names of
    commands and options must be names Discord accepts.
    """
    found: list[str] = []
    wanted = list(dict.fromkeys(keys))
    for name in NAMES:
        path = i18n.catalogue_path(name)
        if not path.exists():
            found.append(f"{name}: no catalogue at {path}")
            continue
        own = read(path, name)
        for message in own:
            if message.id and message.fuzzy:
                found.append(f"{name}: fuzzy entry {message.id!r}")
        effective: dict[Key, str] = {}
        fallback = i18n.FALLBACKS.get(name)
        if fallback:
            effective.update(i18n.read_catalogue(i18n.catalogue_path(fallback)))
        effective.update(i18n.read_catalogue(path))
        plurals: dict[Key, tuple[str, ...]] = {}
        english_plurals: dict[Key, str] = {}  # the English plural of each plural message
        for source in [*([i18n.catalogue_path(fallback)] if fallback else []), path]:
            plurals.update(i18n.read_plurals(source)[0])
            english_plurals.update(
                {
                    (m.context, m.id[0]): m.id[1]
                    for m in (own if source == path else read(source))
                    if m.id and not isinstance(m.id, str)
                }
            )
        for key in wanted:
            context, text = key
            translated = effective.get(key)
            where = f"{name}: {text!r}" + (f" ({context})" if context else "")
            if not translated or not translated.strip():
                found.append(f"{where} is not translated")
                continue
            if context in (COMMAND_NAME, OPTION_NAME):
                if not i18n.valid_name(translated):
                    found.append(f"{where}: {translated!r} is not a valid Discord name")
                continue
            if key in english_plurals:
                found.extend(_plural_problems(where, text, english_plurals[key], plurals.get(key)))
                continue
            try:
                expected = placeholders(text)
                got = placeholders(translated)
                translated.format(**dict.fromkeys(got, "x"))
            except (ValueError, IndexError, KeyError) as exc:
                found.append(f"{where}: malformed translation {translated!r} ({exc})")
                continue
            if expected != got:
                found.append(f"{where}: placeholders {sorted(got)} instead of {sorted(expected)}")
    return found


def _plural_problems(
    where: str, singular: str, plural: str, forms: tuple[str, ...] | None
) -> list[str]:
    """What is wrong with the plural forms of one message: every form filled in, none with a
    placeholder English lacks, the last (the general plural) with all of the English plural's."""
    if not forms:
        return [f"{where}: a plural form is not translated"]
    found: list[str] = []
    allowed = placeholders(singular) | placeholders(plural)
    for form in forms:
        try:
            got = placeholders(form)
            form.format(**dict.fromkeys(got, "x"))
        except (ValueError, IndexError, KeyError) as exc:
            found.append(f"{where}: malformed translation {form!r} ({exc})")
            continue
        if not got <= allowed:
            found.append(f"{where}: {form!r} has placeholders {sorted(got - allowed)}")
    if not placeholders(plural) <= placeholders(forms[-1]):
        found.append(f"{where}: its plural {forms[-1]!r} lacks {sorted(placeholders(plural))}")
    return found


def pot_keys(path: Path = POT) -> set[Key]:
    """The message ids of the ``.pot`` file."""
    return {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read(path) if m.id
    }


def import_all(packages: Iterable[str] = ("bot", "cogs")) -> None:
    """Import every module of ``packages`` (so every error class is defined)."""
    for package in packages:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if info.name.endswith("__main__"):
                continue
            importlib.import_module(info.name)
