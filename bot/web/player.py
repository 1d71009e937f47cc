"""A person's page on a server's pages: his ratings and their chart, his results, his record
against the computer, his achievements and latest matches.

The chart is drawn in the reader's browser (``static/chart.js``) from its legend, which
carries each family's curve as the database writes it (:data:`~bot.web.queries.CURVE`):
the page sends the curve, read as one text a family, and no point is handled here.

The page is rendered once and kept (bot/web/kept.py); its first rendering is what a reader
waits for. Its main part is written here: each section's fixed words once per language
(:func:`_frames`), its rows each a line of text, with every name and word of the language
escaped once per language (:func:`_said`), numbers written as they are; the template
places it in the site's frame. The page is the same whichever way its figures were
read (kept by the database or counted from the entries: :func:`player_response`).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Mapping

from aiohttp import web
from markupsafe import Markup, escape

from bot.achievements.catalogue import BY_CODE
from bot.i18n import N_, tr, trc
from bot.records.record import FAMILIES
from bot.web import links
from bot.web.kept import STAMP
from bot.web.pages import READER, language, link, number, page
from bot.web.reader import PlayerPage
from bot.web.words import FAMILY_NAMES, LANGUAGES, bucket_name, result_name, variant_name

__all__ = ["player_page", "player_response"]

#: ``request`` key: the server found for a 404 page (the error page links to it).
SERVER_FOUND = "server_found"  # bot.web.app reads it (it imports this module)


@functools.lru_cache(maxsize=4096)
def _said(locale: str, kind: str, key: str) -> str:
    """A word of the page in ``locale``, escaped: a bucket's, a variant's, a result's, a
    family's or a computer level's name, an achievement's name or description."""
    if kind == "bucket":
        text = bucket_name(locale, key)
    elif kind == "variant":
        text = variant_name(locale, key)
    elif kind == "result":
        text = result_name(locale, key)
    elif kind == "family":
        text = tr(locale, FAMILY_NAMES[key]) if key in FAMILY_NAMES else key
    elif kind == "achievement":
        text = tr(locale, BY_CODE[key].name)
    elif kind == "said of":
        # said of the player to whoever reads his page (cogs/records/said_of.py)
        text = trc(locale, "achievement, said of someone", BY_CODE[key].description)
    else:
        text = tr(locale, key)
    return str(escape(text))


INTRO = N_("Only this server's public matches count on this page.")
CHART = N_("Rating over time")
#: The sections of the page's main part, in order: each one's key, its title's words, and its
#: table's column heads or, for a list, the list's class.
SECTIONS: tuple[tuple[str, tuple[str, ...], tuple[str, ...] | str], ...] = (
    ("ratings-title", (N_("Ratings"),), (N_("Variants"), N_("Rating"), N_("Rated matches"))),
    ("results-1", (N_("Results"), N_("On this server")),
     (N_("Variants"), N_("Matches"), N_("Wins"), N_("Losses"), N_("Draws"), N_("Best streak"))),
    ("versus-title", (N_("Against the computer"),),
     (N_("Level"), N_("Wins"), N_("Losses"), N_("Draws"))),
    ("achievements-title", (N_("Achievements"),), "achievements"),
    ("history-title", (N_("Recent matches"),), "matches"),
)


@functools.lru_cache(maxsize=16)
def _frames(locale: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The main part's fixed words in ``locale``: its first paragraph, and each section's
    words before and after its rows (:data:`SECTIONS`)."""
    word = functools.partial(_said, locale, "word")
    frames = []
    for key, title, heads in SECTIONS:
        named = ": ".join(word(t) for t in title)
        top = f'<section aria-labelledby="{key}">\n<h2 id="{key}">{named}</h2>\n'
        if isinstance(heads, str):  # a list
            frames.append((f'{top}<ul class="{heads}">\n', "</ul>\n</section>\n"))
            continue
        cells = "".join(f'<th scope="col">{word(h)}</th>' for h in heads)
        frames.append((
            f'{top}<div class="wide" tabindex="0">\n<table>\n<caption class="sr">{named}'
            f"</caption>\n<thead><tr>{cells}</tr></thead>\n<tbody>\n",
            "</tbody>\n</table>\n</div>\n",
        ))
    return f"<p>{word(INTRO)}</p>\n", tuple(frames)


@functools.lru_cache(maxsize=4096)
def day_text(number: int) -> str:
    """The day ``number`` days after 1970-01-01, written YYYY-MM-DD."""
    y, m, d = time.gmtime(number * 86400)[:3]
    return f"{y:04d}-{m:02d}-{d:02d}"


def _when(t: float) -> tuple[str, str, str]:
    """A moment as the pages write it: ISO 8601 for ``<time datetime>``, to the minute
    (UTC) for reading, and its day (as ``time.gmtime`` counts: the second's floor)."""
    number, second = divmod(math.floor(t), 86400)
    h, second = divmod(second, 3600)
    mi, s = divmod(second, 60)
    day = day_text(number)
    return f"{day}T{h:02d}:{mi:02d}:{s:02d}+00:00", f"{day} {h:02d}:{mi:02d} UTC", day


#: Our decision: a family of one variant (three players, All Fives) is one line of a
#: person's results, not two lines of the same figures.
SOLE_VARIANTS = frozenset(vs[0] for vs in FAMILIES.values() if len(vs) == 1)


def _lines(rows: Iterable[str]) -> str:
    return "".join(f"{row}\n" for row in rows)


#: Each family's line, points and legend take a class (``s0``..``s3``) whose colours the style
#: sheet sets, with at least 4.5:1 contrast in light and dark mode.
SERIES = 4


def chart_legend(
    curves: Mapping[str, str], name: Callable[[str], str], title: str
) -> str:
    """The rating chart's legend: a line per family, its name and latest rating, carrying its
    curve for the script that draws the chart above it and then shows the legend (without
    script neither shows: the ratings table says each family's rating).
    ``name``: a family's name, escaped; ``title``: the chart's, escaped."""
    if not curves:
        return ""
    items = []
    for i, (family, points) in enumerate(sorted(curves.items())):
        label = name(family)
        written = escape(points)  # (the database's digits, commas and spaces)
        latest = written[written.rfind(",") + 1:]
        items.append(
            f'<li class="s{i % SERIES}" data-name="{label}" data-points="{written}">'
            f"{label}: {latest}</li>"
        )
    return f'<ul class="legend" data-chart="{title}" hidden>{"".join(items)}</ul>\n'


def player_response(request: web.Request, found: PlayerPage) -> web.Response:
    """The page of ``found`` in the reader's language: its main part written here, each
    section its fixed words (once per language) around its rows."""
    locale = LANGUAGES[language(request)]
    stats = found.stats
    said: Callable[[str, str], str] = functools.partial(_said, locale)
    to = functools.partial(link, request)
    intro, (ratings, results, versus, achievements, history) = _frames(locale)
    main = [f"<h1>{escape(stats.name)}</h1>\n", intro]
    if stats.ratings:
        main += [
            ratings[0],
            _lines(
                f'<tr><th scope="row">{said("family", family)}</th><td>{r.display}</td>'
                f"<td>{r.matches}</td></tr>"
                for family, r in stats.ratings.items()
            ),
            ratings[1],
            chart_legend(
                found.curves,
                functools.partial(_said, locale, "family"),
                said("word", CHART),
            ),
            "</section>\n",
        ]
    if stats.server:
        main += [
            results[0],
            _lines(
                f'<tr><th scope="row">{said("bucket", bucket)}</th><td>{line.matches}</td>'
                f"<td>{line.wins}</td><td>{line.losses}</td><td>{line.draws}</td>"
                f"<td>{line.best_streak}</td></tr>"
                for bucket, line in stats.server.items()
                if bucket not in SOLE_VARIANTS
            ),
            results[1] + "</section>\n",
        ]
    if stats.versus_server or stats.versus:
        main += [
            versus[0],
            _lines(
                f'<tr><th scope="row">{said("level", v.level)}</th><td>{v.wins}</td>'
                f"<td>{v.losses}</td><td>{v.draws}</td></tr>"
                for v in stats.versus
            ),
            versus[1] + "</section>\n",
        ]
    if found.achievements:
        main.append(achievements[0])
        for a in found.achievements:
            day = _when(a.earned_at)[2]
            main.append(
                f'<li><img src="{escape(to(links.badge_path(a.code)))}" alt="" width="48"'
                f' height="48"> <strong>{said("achievement", a.code)}</strong>:'
                f' {said("said of", a.code)}\n<time datetime="{day}">{day}</time></li>\n'
            )
        main.append(achievements[1])
    if found.history:
        main.append(history[0])
        for h in found.history:
            stamp, written, _ = _when(h.finished_at)
            main.append(
                f'<li><a href="{escape(to(links.match_path(h.table_id)))}">'
                f'{said("variant", h.variant)}</a>: {said("result", h.result)}'
                f" {h.points_for}–{h.points_against}\n"
                f'<time datetime="{stamp}">{written}</time></li>\n'
            )
        main.append(history[1])
    return page(
        request,
        "player.html",
        {"server": found.server, "stats": stats, "main": Markup("".join(main))},
    )


async def player_page(request: web.Request) -> web.Response:
    """``/s/{guild}/p/{player}``: a person's page on a server's pages (404 unless he has
    one there)."""
    guild_id = number(request.match_info["guild"])
    player_id = number(request.match_info["player"])
    reader = request.app[READER]
    server = await reader.server(guild_id, request.get(STAMP))  # kept under the page's stamp
    if server is None:
        raise web.HTTPNotFound()
    found = await reader.player(server, player_id)
    if found is None:
        request[SERVER_FOUND] = server
        raise web.HTTPNotFound()
    return player_response(request, found)
