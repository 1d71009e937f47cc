"""Translations: every user-facing string goes through :func:`tr`.

The message id is the English text itself (gettext style), with ``{name}`` placeholders
filled from keyword arguments. Catalogues are gettext ``.po`` files under
``bot/locales/<locale>/LC_MESSAGES/messages.po``, read with Babel at first use.
Supported locales: English (default), ``es-ES``, ``es-419`` and ``pt-BR``.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).with_name("locales")
DEFAULT_LOCALE = "en-US"
# Discord locale -> catalogue folder (es-419 falls back to es-ES's words where missing).
CATALOGUES = {"es-ES": "es", "es-419": "es_419", "pt-BR": "pt_BR"}
FALLBACKS = {"es_419": "es"}


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


@cache
def _messages(name: str) -> dict[str, str]:
    path = LOCALES_DIR / name / "LC_MESSAGES" / "messages.po"
    messages: dict[str, str] = {}
    fallback = FALLBACKS.get(name)
    if fallback:
        messages.update(_messages(fallback))
    if not path.exists():
        return messages
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id and message.string and not message.fuzzy:
            key = message.id if isinstance(message.id, str) else message.id[0]
            value = message.string if isinstance(message.string, str) else message.string[0]
            messages[key] = value
    return messages


def tr(locale: str | None, text: str, /, **params: Any) -> str:
    """``text`` in ``locale`` (English when there is no translation), placeholders filled."""
    name = catalogue_name(locale)
    translated = _messages(name).get(text, text) if name else text
    if not params:
        return translated
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad translation of %r for %s", text, locale)
        return text.format(**params)
