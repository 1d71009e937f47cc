"""What every page's handler shares: the reader's address and language, links that keep the
language, a page rendered in it, the numbers an address carries, names joined and linked."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
from aiohttp import web
from markupsafe import Markup, escape

from bot.i18n import joined, tr
from bot.i18n.commands import command_text
from bot.web import links
from bot.web.reader import Reader
from bot.web.words import LANGUAGE_NAMES, LANGUAGES, choose_language
from render.table import HEIGHT as TABLE_HEIGHT
from render.table import WIDTH as TABLE_WIDTH

MAX_ID = 2**63 - 1

READER: web.AppKey[Reader] = web.AppKey("reader", Reader)
BASE_URL: web.AppKey[str] = web.AppKey("base_url", str)
FORWARDED: web.AppKey[bool] = web.AppKey("forwarded", bool)


def client_address(request: web.Request) -> str:
    """The reader's address: the proxy's ``X-Forwarded-For`` (its last entry, the one the
    proxy wrote) when trusted, else the peer's."""
    if request.app[FORWARDED]:
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.remote or "?"


def language(request: web.Request) -> str:
    """The page's language code (en, es, pt-BR)."""
    found = request.get("lang")
    if found is None:
        asked = request.query.get("lang")
        found = choose_language(asked, request.headers.get("Accept-Language"))
        request["lang"] = found
    return str(found)


def link(request: web.Request, path: str, **query: Any) -> str:
    """An address on the pages, keeping the language the reader chose with ``?lang=``."""
    params = {k: v for k, v in query.items() if v is not None}
    if request.query.get("lang") in LANGUAGES:
        params["lang"] = request.query["lang"]
    if not params:
        return path
    return path + ("&" if "?" in path else "?") + urlencode(params)


def page(
    request: web.Request, template: str, context: Mapping[str, Any], *, status: int = 200
) -> web.Response:
    """A page in the reader's language."""
    lang = language(request)
    locale = LANGUAGES[lang]
    others = urlencode({k: v for k, v in request.query.items() if k != "lang"})
    before = f"?{others}&lang=" if others else "?lang="
    switch = [  # query-only links: the same page, whatever its path says
        (code, LANGUAGE_NAMES[code], before + code, code == lang) for code in LANGUAGES
    ]
    full = {
        "_": _translator(locale),
        "command": functools.partial(command_text, locale),  # a command's names, as text
        "lang": lang,
        "locale": locale,
        "link": functools.partial(link, request),
        "switch": switch,
        "chosen": request.query.get("lang") if request.query.get("lang") in LANGUAGES else None,
        "links": links,
        # the link previews' addresses (Open Graph needs absolute ones: none without a base)
        "page_url": links.url(request.app[BASE_URL], request.path) if status == 200 else None,
        "site_image": links.url(request.app[BASE_URL], SITE_IMAGE),
        **context,
    }
    response = aiohttp_jinja2.render_template(template, request, full, status=status)
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    return response


@functools.lru_cache(maxsize=16)
def _translator(locale: str) -> Callable[..., str]:
    """The templates' ``_`` in ``locale``: :func:`~bot.i18n.tr`, each plain text looked up
    once (a page says some forty)."""
    plain = functools.lru_cache(maxsize=2048)(functools.partial(tr, locale))

    def said(text: str, /, **params: Any) -> str:
        return tr(locale, text, **params) if params else plain(text)

    return said


#: The link previews' picture of every page but a match's (1200×630, the size Open Graph's
#: readers show whole), and the size of a match's (the bot's table picture).
SITE_IMAGE = "/static/preview.png"
PREVIEW_SIZE = (TABLE_WIDTH, TABLE_HEIGHT)


def number(text: str | None, *, low: int = 0, high: int = MAX_ID) -> int:
    """A whole number written in an address, else 400 (bounded, no sign or spaces)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 19:
        raise web.HTTPBadRequest()
    value = int(text)
    if not low <= value <= high:
        raise web.HTTPBadRequest()
    return value


def optional_number(request: web.Request, key: str) -> int | None:
    """A query's whole number (``-1`` allowed: read as the nearest valid one); else 400."""
    raw = request.query.get(key)
    if raw is None or raw == "":
        return None
    text = raw[1:] if raw.startswith("-") else raw
    value = number(text, high=10**9)
    return -value if raw.startswith("-") else value


def joined_markup(locale: str, names: Iterable[Markup]) -> Markup:
    """Escaped names (links where they have pages) joined with the language's "and"."""
    return Markup(joined_names(locale, [str(escape(n)) for n in names]))


def joined_names(locale: str, names: Sequence[str]) -> str:
    """Names joined with the language's "and" ("Ann and Bob"; a list of one is that one:
    Babel is not asked)."""
    if len(names) == 1:
        return names[0]
    return _joined(locale, tuple(names))


#: The language's "and" over a few names (Babel parses the locale at each call).
_joined = functools.lru_cache(maxsize=4096)(joined)


def anchor(href: str, text: str) -> Markup:
    """A link, both parts escaped (markupsafe's own ``format`` costs ten times more)."""
    return Markup(f'<a href="{escape(href)}">{escape(text)}</a>')
