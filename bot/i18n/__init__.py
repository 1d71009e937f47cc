"""Translations: every user-facing string goes through :func:`tr`.

The message id is the English text itself (gettext style), with ``{name}`` placeholders
filled from keyword arguments. Catalogues are gettext ``.po`` files under
``bot/locales/<name>/LC_MESSAGES/messages.po``, read with Babel at first use.
Supported locales: English (default), ``es-ES``, ``es-419`` and ``pt-BR``; ``es_419`` holds
only the words Latin America says differently and falls back to ``es`` for the rest.

Slash command names, descriptions, option names and choices are translated from the same
catalogues (:func:`translate_command_string`, for the client's command translator); names
use the gettext contexts ``command name`` and ``option name`` so that e.g. the command
``new`` and the word "new" in a sentence are separate entries. ``python -m bot.locales``
extracts and checks them.

Nothing here is Discord markup: messages come back as ids and parameters (words a reader
types as :class:`Typed`, channels and roles as :class:`Ref`), which the cogs show.
"""

from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from babel.core import UnknownLocaleError
from babel.numbers import format_decimal

from domino.errors import IllegalAction

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent.with_name("locales")
DEFAULT_LOCALE = "en-US"
# Discord locale -> catalogue folder (es-419 falls back to es-ES's words where missing).
CATALOGUES = {"es-ES": "es", "es-419": "es_419", "pt-BR": "pt_BR"}
FALLBACKS = {"es_419": "es"}

COMMAND_NAME = "command name"  # msgctxt of slash command and group names
OPTION_NAME = "option name"  # msgctxt of slash command option names
# discord.py's TranslationContextLocation names -> msgctxt
NAME_CONTEXTS: dict[str, str] = {
    "command_name": COMMAND_NAME,
    "group_name": COMMAND_NAME,
    "parameter_name": OPTION_NAME,
}
# Discord's rule for command and option names (lowercase letters, digits, - and _).
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
MAX_TEXT = 100  # descriptions and choice names

Key = tuple[str | None, str]  # (msgctxt, msgid)


def N_(text: str) -> str:
    """Mark ``text`` for extraction without translating it (it is translated when shown)."""
    return text


def NC_(context: str, text: str) -> Key:
    """Mark ``text`` in the gettext ``context`` for extraction; its key for :func:`trc`."""
    return (context, text)


def catalogue_name(locale: str | None) -> str | None:
    """The catalogue folder for a Discord locale string, or None for English."""
    if not locale:
        return None
    locale = str(locale)
    if locale in CATALOGUES:
        return CATALOGUES[locale]
    if locale.startswith("es"):
        return "es_419"
    if locale.startswith("pt"):
        return "pt_BR"
    return None


def catalogue_path(name: str) -> Path:
    """The ``.po`` file of a catalogue folder name."""
    return LOCALES_DIR / name / "LC_MESSAGES" / "messages.po"


def read_catalogue(path: Path) -> dict[Key, str]:
    """The non-empty, non-fuzzy translations of one ``.po`` file (no fallback); a message
    with plural forms gives its first form here (all of them: :func:`read_plurals`)."""
    return {key: forms[0] for key, forms in _read(path)[0].items()}


def read_plurals(path: Path) -> tuple[dict[Key, tuple[str, ...]], str]:
    """The messages with plural forms of one ``.po`` file, each with every form filled in,
    and the file's plural expression (gettext's ``Plural-Forms``)."""
    forms, expression = _read(path)
    return {k: v for k, v in forms.items() if len(v) > 1}, expression


def _read(path: Path) -> tuple[dict[Key, tuple[str, ...]], str]:
    if not path.exists():
        return {}, "(n != 1)"
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle)
    messages: dict[Key, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        value = (message.string,) if isinstance(message.string, str) else message.string
        if value and all(value):
            messages[(message.context, key)] = tuple(value)
    return messages, catalog.plural_expr


@cache
def _messages(name: str) -> dict[Key, str]:
    """The translations of a catalogue, its fallback's filling the gaps."""
    messages: dict[Key, str] = {}
    fallback = FALLBACKS.get(name)
    if fallback:
        messages.update(_messages(fallback))
    messages.update(read_catalogue(catalogue_path(name)))
    return messages


@cache
def _plurals(name: str) -> tuple[dict[Key, tuple[str, ...]], Any]:
    """The plural messages of a catalogue (its fallback's filling the gaps) and the function
    from a count to the index of its form."""
    messages: dict[Key, tuple[str, ...]] = {}
    fallback = FALLBACKS.get(name)
    if fallback:
        messages.update(_plurals(fallback)[0])
    own, expression = read_plurals(catalogue_path(name))
    messages.update(own)
    return messages, gettext.c2py(expression)


def reload() -> None:
    """Forget the catalogues read so far (they are read again at next use)."""
    _messages.cache_clear()
    _plurals.cache_clear()


def lookup(locale: str | None, text: str, context: str | None = None) -> str | None:
    """The translation of ``text`` (in gettext ``context``) for ``locale``, None if none."""
    name = catalogue_name(locale)
    if name is None:
        return None
    return _messages(name).get((context, text))


def tr(locale: str | None, text: str, /, **params: Any) -> str:
    """``text`` in ``locale`` (English when there is no translation), placeholders filled."""
    return trc(locale, None, text, **params)


def trc(locale: str | None, context: str | None, text: str, /, **params: Any) -> str:
    """:func:`tr` of ``text`` in the gettext ``context``."""
    translated = lookup(locale, text, context) or text
    if not params:
        return translated
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad translation of %r for %s", text, locale)
        return text.format(**params)


def trn(locale: str | None, singular: str, plural: str, count: int, /, **params: Any) -> str:
    """``singular`` or ``plural`` as ``count`` asks in ``locale``'s grammar (gettext's
    ``ngettext``), placeholders filled; ``{count}`` is the count in the locale's digits unless
    ``params`` give it."""
    params.setdefault("count", number(locale, count))
    name = catalogue_name(locale)
    translated = singular if count == 1 else plural
    if name is not None:
        messages, index = _plurals(name)
        forms = messages.get((None, singular))
        if forms:
            translated = forms[min(int(index(abs(count))), len(forms) - 1)]
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad translation of %r for %s", singular, locale)
        return (singular if count == 1 else plural).format(**params)


def joined(locale: str | None, words: Sequence[str]) -> str:
    """``words`` as one list in ``locale``'s words: "Ann and Bob", "Ana y Bob", "Ana e Bob"."""
    from babel.lists import format_list

    try:
        return format_list(list(words), locale=babel_locale(locale))
    except (UnknownLocaleError, ValueError):
        return format_list(list(words), locale="en_US")


def babel_locale(locale: str | None) -> str:
    """Babel's name of a Discord locale (English when none)."""
    return (locale or DEFAULT_LOCALE).replace("-", "_")


def number(locale: str | None, value: float, *, signed: bool = False) -> str:
    """``value`` written the way ``locale`` writes numbers (Babel: 1,097 · 1.097), one minus
    sign everywhere; ``signed``: a plus sign on positive values too (+23, 0, -5)."""
    pattern = "+#,##0.##;-#,##0.##" if signed and value != 0 else None
    try:
        return format_decimal(value, format=pattern, locale=babel_locale(locale))
    except (ValueError, UnknownLocaleError):
        return format_decimal(value, format=pattern, locale="en_US")


# ----------------------------------------------------------------------------- errors

# The engine's IllegalAction messages that carry values, by ``code`` (seat numbers are shown
# from 1). Messages without values are translated from their English text as they are.
ENGINE_MESSAGES: dict[str, str] = {
    "not_your_turn": N_("It is seat {turn}'s turn, not seat {seat}'s."),
    "not_in_hand": N_("You do not have {tile}."),
    "must_open_with": N_("This hand must open with {tile}."),
    "no_match": N_("{tile} does not match {left} or {right}."),
    "choose_end": N_("{tile} fits both ends: choose left ({left}) or right ({right})."),
    "no_match_end:left": N_("{tile} does not match the left end ({number})."),
    "no_match_end:right": N_("{tile} does not match the right end ({number})."),
    "no_match_end:up": N_("{tile} does not match the up end ({number})."),
    "no_match_end:down": N_("{tile} does not match the down end ({number})."),
    "arm_closed": N_(
        "The spinner's up and down ends open once it has a tile on its left and on its right."
    ),
    # choose_end with the spinner's ends among the choices ({ends}: their names, translated)
    "choose_ends": N_("{tile} fits several ends: choose one of {ends}."),
    "draw_limit": N_("You may draw at most {limit} tiles a turn."),
    "no_seat": N_("There is no seat {seat}."),
    "unknown_action": N_("That is not an action."),
}
ENGINE_PLAIN = (
    N_("The match is over."),
    N_("You cannot draw while you can play."),
    N_("There is no drawing in this game."),
    N_("The pile is too small to draw from."),
    N_("You cannot pass while you can play."),
    N_("You cannot pass while you can draw."),
)


# The engine's ValueErrors about presets and options (the service passes their English text
# as InvalidOptions): recognised by their wording, said again with translated option names.
OPTION_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"(?P<variant>[\w-]+) has no option '(?P<option>\w+)'; its options are: "
            r"(?P<allowed>.+)"
        ),
        N_("{variant} has no option {option}; its options are: {allowed}."),
    ),
    (
        re.compile(
            r"(?P<option>\w+) for (?P<variant>[\w-]+) must be one of: (?P<allowed>.+) "
            r"\(not (?P<value>.+)\)"
        ),
        N_("{option} for {variant} must be one of: {allowed} (not {value})."),
    ),
    (
        re.compile(r"unknown variant (?P<variant>.+); choose one of: (?P<allowed>.+)"),
        N_("There is no variant {variant}; choose one of: {allowed}."),
    ),
    (
        re.compile(r"targets (?P<low>\d+) and (?P<high>\d+) need (?P<option>\w+) on"),
        N_("The targets {low} and {high} need the option {option} turned on."),
    ),
)
NO_OPTIONS = N_("none")


class Typed(str):
    """A word the reader types in a command (an option name, a variant id), not prose."""


@dataclass(frozen=True)
class Ref:
    """A Discord channel or role by id, in a message's parameters (the cogs mention it)."""

    kind: Literal["channel", "role"]
    id: int

    def __str__(self) -> str:
        return str(self.id)  # in the English message of logs


def _option_error(locale: str | None, text: str) -> tuple[str, dict[str, Any]] | None:
    """An engine option error: its message id and parameters, the option names as the
    reader's Discord shows them (``allowed``: a list of them, empty for none)."""
    for pattern, template in OPTION_ERRORS:
        found = pattern.fullmatch(text.strip())
        if found is None:
            continue
        params: dict[str, Any] = dict(found.groupdict())

        def name(option: str) -> Typed:
            return Typed(lookup(locale, option, OPTION_NAME) or option)

        if "option" in params:
            params["option"] = name(params["option"])
        if "value" not in params and "allowed" in params and "option" in params:
            allowed = [a.strip() for a in params["allowed"].split(",")]
            params["allowed"] = [] if allowed == ["none"] else [name(a) for a in allowed]
        if "variant" in params:
            params["variant"] = Typed(params["variant"].strip(chr(39)))
        return template, params
    return None


# The ends of the line and of the spinner's arms, as the engine names them.
END_NAMES: dict[str, str] = {
    "left": N_("left"),
    "right": N_("right"),
    "up": N_("up"),
    "down": N_("down"),
}


def named_ends(locale: str | None, ends: Sequence[tuple[str, int]]) -> str:
    """Open ends each named with its number: "left 3, right 5, up 5, down 5"."""
    return ", ".join(f"{tr(locale, END_NAMES.get(name, name))} {n}" for name, n in ends)


def engine_message(code: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The message id and parameters of an engine error with values, None if it has none."""
    key = f"{code}:{params.get('end')}" if code == "no_match_end" else code
    if code == "choose_end" and params.get("ends", "left, right") != "left, right":
        key = "choose_ends"  # the spinner's up or down is among the ends
    template = ENGINE_MESSAGES.get(key)
    if template is None:
        return None
    shown = dict(params)
    for seat in ("seat", "turn"):
        if isinstance(shown.get(seat), int):
            shown[seat] += 1
    return template, shown


def error_message(locale: str | None, error: Exception) -> tuple[str, dict[str, Any]]:
    """What to tell a user about ``error`` (a service error or an engine ``IllegalAction``):
    the message id and its parameters as data, words in ``locale`` (:class:`Typed` words,
    :class:`Ref` ids and lists of them are for the Discord layer to show)."""
    params: dict[str, Any] = dict(getattr(error, "params", None) or {})
    engine_code = getattr(error, "engine_code", None)  # an IllegalMove from the service
    if engine_code is None and isinstance(error, IllegalAction):
        engine_code = error.code
    if isinstance(engine_code, str):
        found = engine_message(engine_code, params)
        if found is not None:
            shown = found[1]
            if isinstance(shown.get("ends"), str):
                names = [tr(locale, END_NAMES.get(n, n)) for n in shown["ends"].split(", ")]
                shown["ends"] = ", ".join(names)
            return found
    if getattr(error, "code", None) == "invalid_options":
        said = _option_error(locale, str(error))
        if said is not None:
            return said
    template = getattr(error, "template", None)
    if isinstance(template, str):
        return template, params
    return str(error), {}


# ----------------------------------------------------------------------------- pictures


def picture_labels(locale: str | None, defaults: Mapping[str, str]) -> dict[str, str] | None:
    """The words drawn in pictures (``defaults``: key -> English) in ``locale``.

    None for English, so renderers draw their defaults.
    """
    if catalogue_name(locale) is None:
        return None
    return {key: tr(locale, text) for key, text in defaults.items()}


@cache
def render_defaults() -> dict[str, str]:
    """The renderer's own words (key -> English): ``render.LABELS``."""
    import render  # at first use, so that reading the catalogues needs no Pillow

    return dict(render.LABELS)


def picture_options(locale: str | None) -> dict[str, Any]:
    """Keyword arguments for ``render_table``/``render_hand`` in ``locale``: ``labels`` when
    the picture's words are to be translated, nothing for English (the renderer's defaults)."""
    labels = picture_labels(locale, render_defaults())
    return {"labels": labels} if labels else {}


# ----------------------------------------------------------------------------- commands


def valid_name(text: str) -> bool:
    """Whether Discord accepts ``text`` as a command or option name."""
    return bool(NAME_PATTERN.match(text)) and text == text.lower()


def translate_command_string(message: str, locale: str, location: str) -> str | None:
    """The localization of one command string (``location``: the name of discord.py's
    ``TranslationContextLocation``), None when English should be used."""
    if locale not in CATALOGUES:
        return None
    context = NAME_CONTEXTS.get(location)
    text = lookup(locale, message, context)
    if text is None or text == message:
        return None
    if context is not None and not valid_name(text):
        log.warning("invalid %s %r for %r in %s", context, text, message, locale)
        return None
    if context is None and len(text) > MAX_TEXT:
        log.warning("translation of %r in %s is longer than %d", message, locale, MAX_TEXT)
        return None
    return text
