"""The web companion's aiohttp application: routes, pages, languages, limits and headers.

Every page is rendered on the server (Jinja2, every value escaped); the only script is the
replay's static file. Responses carry a strict Content-Security-Policy and set no cookie. A
client address that asks too often gets 429 without slowing anyone else; a malformed address
gets 400, anything that is not there (or not public) 404, a database that does not answer
503, and a bug 500: always a short page in the reader's language, never a traceback.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import gzip
import itertools
import json
import logging
import math
import time
import zlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.web_urldispatcher import SystemRoute
from markupsafe import Markup, escape

from bot.achievements.catalogue import BY_CODE, LOOKS
from bot.i18n import N_, picture_options, tr
from bot.i18n import number as written_number
from bot.records.boards import PeriodBoard
from bot.records.periods import ALL_TIME, PERIOD_KINDS
from bot.records.rating import display_ordinal
from bot.records.record import ALL, BUCKETS, DEFAULT_FAMILY, FAMILIES, SLOW_FAMILIES
from bot.records.seasons import SEASON, calendar_of
from bot.records.seasons_service import SeasonBoard
from bot.records.service import LEADERBOARD_ORDERS, LeaderboardPage
from bot.store import DatabaseUnavailable
from bot.tournaments.model import Bracket
from bot.tournaments.naming import round_title
from bot.web import kept as kept_pages
from bot.web import links, live
from bot.web.pages import (
    BASE_URL,
    FORWARDED,
    PREVIEW_SIZE,
    READER,
    anchor,
    client_address,
    joined_markup,
    joined_names,
    language,
    link,
    number,
    optional_number,
    page,
)
from bot.web.player import player_page
from bot.web.positions import Replay, position_json, to_json
from bot.web.queries import PageRepo
from bot.web.ratelimit import RateLimiter
from bot.web.reader import MatchPage, Reader, Seat
from bot.web.warm import warm
from bot.web.words import (
    BOARD_ENDINGS,
    EVENT_STATUSES,
    EVENT_SYSTEMS,
    LANGUAGES,
    MINIMUM_NOTE,
    PERIOD_RANK,
    SEASON_RANK,
    SEASON_WINS_RANK,
    bucket_name,
    ending_text,
    player_name,
    result_name,
    variant_name,
    word,
)
from bot.workers import pictures
from render.badges import badge_png

__all__ = ["RateLimiter", "create_app", "run_web"]

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
PER_PAGE = 25
PREVIEWS_KEPT = 32
REPLAYS_KEPT = 64  # the replays' data, per match, language and names
RECENT_KEPT = 256  # servers' recent matches as listed, per language
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
ERRORS = {
    400: (N_("Bad request"), N_("This address is not valid.")),
    404: (N_("Page not found"), N_("There is no page here, or it is not public.")),
    405: (N_("Bad request"), N_("This address is not valid.")),
    429: (N_("Too many requests"), N_("Please wait a moment before loading more pages.")),
    500: (N_("Something went wrong"), N_("The page could not be shown. Please try again later.")),
    503: (
        N_("Pages unavailable"),
        N_("The records cannot be read just now. Please try again in a minute."),
    ),
}

PREVIEWS: web.AppKey[dict[tuple[Any, ...], bytes]] = web.AppKey("previews", dict)
REPLAYS: web.AppKey[dict[tuple[Any, ...], bytes]] = web.AppKey("replays", dict)
RECENT: web.AppKey[dict[tuple[Any, ...], Any]] = web.AppKey("recent", dict)
BUILDING: web.AppKey[asyncio.Lock] = web.AppKey("building", asyncio.Lock)
KEPT: web.AppKey[kept_pages.KeptPages] = web.AppKey("kept", kept_pages.KeptPages)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


LIMITER: web.AppKey[RateLimiter] = web.AppKey("limiter", RateLimiter)


# ------------------------------------------------------------------------------- middleware


#: Our decision: a trailing slash or doubled slashes that no page answers are redirected to the
#: address without them (aiohttp's own rule), asked only where no route matched.
SLASHES = web.normalize_path_middleware(append_slash=False, remove_slash=True)


@web.middleware
async def serve(request: web.Request, handler: Handler) -> web.StreamResponse:
    """What every request goes through, in one step: the client's limit (too many requests,
    from any path: 429 with when to come back), an address that no page answers redirected
    without its trailing or doubled slashes, the kinds of page :mod:`bot.web.kept` keeps
    served from memory (or a 304) while unchanged, and every failure as a short page in the
    reader's language."""
    try:
        wait = request.app[LIMITER].wait(client_address(request))
        if wait > 0:
            raise web.HTTPTooManyRequests(headers={"Retry-After": str(math.ceil(wait))})
        route = request.match_info.route
        if isinstance(route, SystemRoute):  # no page here (404, 405)
            return await SLASHES(request, handler)
        policy = kept_pages.POLICIES.get(route.name or "")
        if policy is None or request.method != "GET":
            return await handler(request)
        key = (request.path, request.query_string, language(request))
        guild = request.match_info.get("guild", "")
        guild_id = int(guild) if guild.isascii() and guild.isdigit() and len(guild) < 19 else None
        return await request.app[KEPT].serve(
            request, key, policy, lambda: handler(request), guild_id
        )
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        status = exc.status if exc.status in ERRORS else 400 if exc.status < 500 else 500
        response = error_page(request, status)
        retry = exc.headers.get("Retry-After")
        if retry is not None:
            response.headers["Retry-After"] = retry
        return response
    except DatabaseUnavailable:
        response = error_page(request, 503)
        response.headers["Retry-After"] = "30"
        return response
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("%s %s failed", request.method, request.path)
        return error_page(request, 500)


def error_page(request: web.Request, status: int) -> web.Response:
    title, text = ERRORS[status]
    server = request.get(SERVER_FOUND)  # a server whose pages are on, named by the address
    context = {"title": title, "text": text, "server": server}
    response = page(request, "error.html", context, status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for key, value in HEADERS.items():
        response.headers.setdefault(key, value)
    response.headers.popall("Set-Cookie", None)


# ------------------------------------------------------------------------------- the pages


async def home(request: web.Request) -> web.Response:
    return page(request, "home.html", {})


SERVER_FOUND = "server_found"  # the request's server with pages on, for its 404 page's link


async def find_server(request: web.Request) -> web.Response:
    """The home page's form: a server's pages by its id (a 404 there if it has none)."""
    raise web.HTTPSeeOther(link(request, links.server_path(number(request.query.get("server")))))


async def health(request: web.Request) -> web.Response:
    """200 while the database answers (for the reverse proxy's checks), else 503."""
    await request.app[READER].server(0)
    return web.Response(text="ok\n", headers={"Cache-Control": "no-store"})


async def server_page(request: web.Request) -> web.Response:
    guild_id = number(request.match_info["guild"])
    reader = request.app[READER]
    stamp = request.get(kept_pages.STAMP)
    server = await reader.server(guild_id, stamp)
    if server is None:
        raise web.HTTPNotFound()
    board = request.query.get("board") or DEFAULT_FAMILY
    by = request.query.get("by") or "rating"
    period = request.query.get("period") or ALL_TIME
    if board not in BUCKETS or by not in LEADERBOARD_ORDERS or period not in PERIODS:
        raise web.HTTPBadRequest()
    wanted = max(0, (optional_number(request, "page") or 1) - 1)
    if period in PERIOD_KINDS:
        by = "wins"  # a week's or month's board ranks by wins: there is no rating of a week
    if period == ALL_TIME:
        leaders: LeaderboardPage | PeriodBoard | SeasonBoard = await reader.leaderboard(
            guild_id, board, by, wanted, PER_PAGE, stamp
        )
    else:
        leaders = await reader.period_board(
            guild_id, board, period, wanted, PER_PAGE, by, stamp
        )
    lang = language(request)
    locale = LANGUAGES[lang]
    ranked_by = PERIOD_RANK if period != SEASON else SEASON_WINS_RANK if by == "wins" else (
        SEASON_RANK
    )
    recent = await recent_matches(request, guild_id, locale)
    rated = (period == ALL_TIME and by == "rating") or period == SEASON
    events = [
        (
            link(request, links.tournament_path(guild_id, e.id)),
            e.name,
            variant_name(locale, e.variant),
            word(locale, EVENT_STATUSES, e.status),
        )
        for e in await reader.tournaments(guild_id)
    ]
    return page(
        request,
        "server.html",
        {
            "server": server,
            "board": board,
            "board_name": bucket_name(locale, board),
            "by": by,
            "period": period,
            "choices": board_choices(locale, board, period, by),
            "period_name": _period_name(locale, leaders),
            "ranking": "" if period == ALL_TIME else tr(locale, ranked_by),
            "rated": rated,
            "minimum": tr(locale, MINIMUM_NOTE, count=getattr(leaders, "least", 1))
            if by == "rating" else "",
            "leaders": leaders,
            "rows_html": board_rows_html(
                request, locale, guild_id, leaders, rated=rated, points=period in PERIOD_KINDS
            ),
            "recent": recent,
            "events": events,
            "search": await search_results(request, guild_id),
        },
    )


@functools.lru_cache(maxsize=1024)
def board_choices(locale: str, board: str, period: str, by: str) -> Markup:
    """The board form's three lists (variants, period, order) with the chosen ones selected,
    as HTML: the same for every page of a board, so written once (a board's first rendering
    spent a fifth of its time on them)."""
    boards = [(ALL, bucket_name(locale, ALL))]
    for family, variants in FAMILIES.items():
        boards.append((family, bucket_name(locale, family)))
        boards += [(v, "\u2003" + bucket_name(locale, v)) for v in variants]
    boards += [(f, bucket_name(locale, f)) for f in SLOW_FAMILIES]  # the correspondence speed
    periods = [(p, tr(locale, PERIOD_NAMES[p]), False) for p in PERIODS]
    orders = [
        ("rating", tr(locale, "Rating"), period in PERIOD_KINDS),
        ("wins", tr(locale, "Wins"), False),
    ]
    lists = (
        ("board-choice", "board", N_("Variants"), [(v, t, False) for v, t in boards], board),
        ("period", "period", N_("Period"), periods, period),
        ("by", "by", N_("Order"), orders, by),
    )
    out = []
    for id_, name, label, options, chosen in lists:
        out.append(f'<label for="{id_}">{escape(tr(locale, label))}</label>\n'
                   f'<select id="{id_}" name="{name}">\n')
        out += [
            f'<option value="{escape(value)}"{" selected" if value == chosen else ""}'
            f'{" disabled" if off else ""}>{escape(text)}</option>\n'
            for value, text, off in options
        ]
        out.append("</select>\n\n")
    return Markup("".join(out)[:-1])


def when(t: float) -> str:
    """A moment as the pages write it (UTC, to the minute)."""
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def iso(t: float) -> str:
    """A moment for a ``<time datetime>``."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


async def recent_matches(
    request: web.Request, guild_id: int, locale: str
) -> Markup:
    """The server's recent matches as its pages list them (HTML) (each side's people linked to
    their pages, and its score). Kept apart from the pages while the matches and the
    database's stamp read for this request (:data:`~bot.web.kept.STAMP`: names, who left the
    boards, who was forgotten) are the same: every board of the server lists them."""
    matches = await request.app[READER].recent_matches(guild_id)
    stamp = request.get(kept_pages.STAMP)
    key = (guild_id, locale, request.query.get("lang"), tuple(m.table_id for m in matches),
           None if stamp is None else stamp[0])
    kept = request.app[RECENT]
    if stamp is not None and key in kept:
        return kept[key]
    items = []
    for match, seats in await request.app[READER].recent(guild_id, matches):
        sides = []
        for side, score in enumerate(match.scores):
            names = [
                anchor(
                    link(request, links.player_path(guild_id, s.player_id)),
                    player_name(locale, s.name, s.kind),
                )
                if s.shown and s.kind == "human" and s.player_id > 0
                else escape(player_name(locale, s.name, s.kind, shown=s.shown))
                for s in seats
                if s.side == side
            ]
            sides.append(Markup(f"{joined_markup(locale, names)} {int(score)}"))
        at = match.finished_at
        items.append(
            f'<li><a href="{escape(link(request, links.match_path(match.table_id)))}">'
            f"{escape(variant_name(locale, match.variant))}</a>: {Markup(' — ').join(sides)}"
            f' <time datetime="{iso(at)}">{when(at)}</time></li>\n'
        )
    recent = Markup(f'<ul class="matches">\n{"".join(items)}</ul>') if items else Markup()
    if stamp is not None:
        kept[key] = recent
        while len(kept) > RECENT_KEPT:
            kept.pop(next(iter(kept)))
    return recent


SEARCH_LENGTH = 100  # characters of a searched name, at most (a global name has 32)
SEARCH_RESULTS = 20


async def search_results(request: web.Request, guild_id: int) -> dict[str, Any]:
    """The player search of a server's pages (``?player=``: the start of a global name,
    any case): what was asked, and the people with a page there whose name starts so, each
    with his page's address. An address asking for more than ``SEARCH_LENGTH`` characters
    is a 400."""
    asked = " ".join(request.query.get("player", "").split())
    if len(asked) > SEARCH_LENGTH:
        raise web.HTTPBadRequest()
    found: list[tuple[str, str]] = []
    if asked:
        async with request.app[READER].reading() as store:
            people = await PageRepo(store.db).search_players(guild_id, asked, SEARCH_RESULTS)
        found = [(name, link(request, links.player_path(guild_id, p))) for p, name in people]
    return {"asked": asked, "found": found}


#: The boards a server's page offers: all time (by rating or wins), and the running week's,
#: month's (by wins, then points difference) and season's (by the season's rating).
PERIODS = (ALL_TIME, *PERIOD_KINDS, SEASON)
PERIOD_NAMES = {
    ALL_TIME: N_("All time"),
    "week": N_("This week"),
    "month": N_("This month"),
    SEASON: N_("This season"),
}


#: A figure written the reader's way (Babel's formatting costs about half a millisecond; the
#: boards' figures repeat, so each is written once).
format_number = functools.lru_cache(maxsize=8192)(written_number)


def board_rows_html(
    request: web.Request,
    locale: str,
    guild_id: int,
    board: LeaderboardPage | PeriodBoard | SeasonBoard,
    *,
    rated: bool,
    points: bool,
) -> Markup:
    """The board's lines as the table's rows (HTML, every name and address escaped), written
    at once rather than cell by cell through the template. People who left this server's or
    the global boards read "a player", without a link."""
    left, provisional = Reader.marks(board)
    provisional_rating = tr(locale, "provisional rating")
    mark = f'<abbr title="{escape(provisional_rating)}">?</abbr>'
    keep = link(request, "")  # the reader's chosen language, kept by each link
    season = isinstance(board, SeasonBoard)
    period = isinstance(board, PeriodBoard)
    out = []
    for row in board.rows:
        kind = getattr(row, "kind", "human")
        shown = row.player_id not in left
        name = player_name(locale, row.name, kind, shown=shown)
        if kind == "human" and row.player_id > 0 and shown:
            href = links.player_path(guild_id, row.player_id) + keep
            who = f'<a href="{escape(href)}">{escape(name)}</a>'
        else:
            who = escape(name)
        rating = ""
        if rated:
            if season:
                figure = format_number(locale, display_ordinal(row.rating))
            elif period or row.rating is None:
                figure = ""
            else:
                figure = format_number(locale, row.rating)
            sure = mark if row.player_id in provisional else ""
            rating = f"<td>{escape(figure)}{sure}</td>"
        diff = f"<td>{escape(format_number(locale, row.diff, signed=True))}</td>" if points else ""
        out.append(
            f'<tr><td>{int(row.place)}</td><th scope="row">{who}</th>{rating}'
            f"<td>{int(row.matches)}</td><td>{int(row.wins)}</td><td>{int(row.losses)}</td>"
            f"<td>{int(row.draws)}</td>{diff}</tr>\n"
        )
    return Markup("".join(out))


def _period_name(locale: str, board: LeaderboardPage | PeriodBoard | SeasonBoard) -> str:
    """Which period the board covers, in words (a season with its number)."""
    if isinstance(board, SeasonBoard):
        return tr(locale, "Season {number}", number=board.number)
    if isinstance(board, PeriodBoard):
        return tr(locale, PERIOD_NAMES[board.period.kind])
    return tr(locale, PERIOD_NAMES[ALL_TIME])


async def _match_page(request: web.Request) -> MatchPage:
    table_id = number(request.match_info["table"])
    found = await request.app[READER].match(table_id, request.get(kept_pages.STAMP))
    if found is None:
        raise web.HTTPNotFound()
    return found


def seat_names(locale: str, found: MatchPage) -> list[str]:
    """The name at each seat, as the pages show it."""
    names = [""] * found.record.seats
    for s in found.seats:
        for seat in s.seats:
            if 0 <= seat < len(names):
                names[seat] = player_name(locale, s.name, s.kind, shown=s.shown, seat=seat)
    return names


def seat_name(locale: str, seat: Seat, names: list[str]) -> str:
    """A participant's name: the name at his first seat (computers are named by seat)."""
    if seat.seats and 0 <= seat.seats[0] < len(names):
        return names[seat.seats[0]]
    return player_name(locale, seat.name, seat.kind, shown=seat.shown)


@functools.lru_cache(maxsize=16)
def match_parts(env: jinja2.Environment, locale: str) -> dict[str, Markup]:
    """The parts of a match page that change only with its language (match_parts.html),
    rendered once for each."""
    template = env.get_template("match_parts.html")
    context = template.new_context({"_": lambda text: tr(locale, text)})
    return {name: Markup("".join(block(context))) for name, block in template.blocks.items()}


def score_rows(
    request: web.Request, locale: str, found: MatchPage, names: list[str]
) -> list[tuple[Markup, str]]:
    """Each side's line of the final score: its people (linked to their pages where they
    have one) and its result."""
    guild_id = found.server.guild_id
    rows = []
    for side in range(len(found.record.scores)):
        people = [s for s in found.seats if s.side == side]
        named = []
        for s in people:
            name = seat_name(locale, s, names)
            if s.shown and s.kind == "human" and s.player_id > 0:
                named.append(anchor(link(request, links.player_path(guild_id, s.player_id)), name))
            else:
                named.append(escape(name))
        rows.append(
            (joined_markup(locale, named), result_name(locale, people[0].result) if people else "")
        )
    return rows


async def match_page(request: web.Request) -> web.Response:
    found = await _match_page(request)
    hand = optional_number(request, "hand")
    move = optional_number(request, "move")
    lang = language(request)
    locale = LANGUAGES[lang]
    names = seat_names(locale, found)
    sides: dict[int, list[str]] = {}
    for s in found.seats:
        sides.setdefault(s.side, []).append(seat_name(locale, s, names))
    side_names = [joined_names(locale, sides.get(i, [])) for i in range(len(found.record.scores))]
    table_id = found.record.table_id
    preview = links.url(request.app[BASE_URL], link(request, f"/m/{table_id}/preview.png"))
    record = found.record
    ending = [] if found.ending is None else ending_text(
        locale, found.ending, winner_side=record.winner_side, draw=record.draw,
        hands_played=len(found.hands), side_names=side_names, seat_names=names,
    )
    return page(
        request,
        "match.html",
        {
            "match": found,
            "record": found.record,
            "server": found.server,
            "names": names,
            "side_names": side_names,
            "score_rows": score_rows(request, locale, found, names),
            "parts": match_parts(aiohttp_jinja2.get_env(request.app), locale),
            "hand": hand,
            "move": move,
            "variant": variant_name(locale, found.record.variant),
            "preview": preview,
            "canonical": links.url(request.app[BASE_URL], link(request, f"/m/{table_id}")),
            "ending": " ".join(ending),
            "preview_size": PREVIEW_SIZE,
            "event": found.event,
        },
    )


async def replay_data(request: web.Request) -> web.Response:
    found = await _match_page(request)
    locale = LANGUAGES[language(request)]
    names = seat_names(locale, found)
    key = (found.record.table_id, locale, tuple(names))
    kept = request.app[REPLAYS]
    body = kept.get(key)
    if body is None:
        async with request.app[BUILDING]:  # one uncached build at a time
            body = kept.get(key)  # built while this one waited?
            if body is None:
                try:
                    replay = await request.app[READER].replay(found.record.table_id)
                except LookupError:
                    raise web.HTTPNotFound() from None
                body = await asyncio.to_thread(replay_body, locale, replay, names)
                kept[key] = body
                while len(kept) > REPLAYS_KEPT:
                    kept.pop(next(iter(kept)))
    headers = {"Cache-Control": "max-age=60", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"  # compressed once, when first asked for
    else:
        body = gzip.decompress(body)
    return web.Response(body=body, content_type="application/json", headers=headers)


def replay_body(locale: str, replay: Replay, names: list[str]) -> bytes:
    """A match's replay data as gzipped JSON, written and compressed one hand after another
    (run off the event loop: a long match takes a good part of a second)."""
    head = to_json(locale, replay.ruleset, (), names)
    del head["positions"]
    head["words"] = {
        "up": tr(locale, "up"),
        "down": tr(locale, "down"),
        "play": tr(locale, "Play"),
        "pause": tr(locale, "Pause"),
    }
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # the gzip format
    opening = json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1]
    parts = [packer.compress(f'{opening},"positions":['.encode())]
    for hand, group in itertools.groupby(replay.positions, key=lambda p: p.hand):
        text = ",".join(
            json.dumps(
                position_json(locale, p, replay.ruleset, names),
                separators=(",", ":"),
                ensure_ascii=False,
            )
            for p in group
        )
        parts.append(packer.compress(("" if hand == replay.positions[0].hand else ",").encode()))
        parts.append(packer.compress(text.encode()))
    parts.append(packer.compress(b"]}"))
    parts.append(packer.flush())
    return b"".join(parts)


async def preview_image(request: web.Request) -> web.Response:
    """The match's final table, for link previews (Open Graph)."""
    found = await _match_page(request)
    locale = LANGUAGES[language(request)]
    names = seat_names(locale, found)
    key = (found.record.table_id, locale, tuple(names))
    cache = request.app[PREVIEWS]
    png = cache.get(key)
    if png is None:
        try:
            replay = await request.app[READER].replay(found.record.table_id)
        except LookupError:
            raise web.HTTPNotFound() from None
        png = await pictures.table_png(replay.final, names, **picture_options(locale))
        if png is None:
            raise web.HTTPNotFound()
        cache[key] = png
        while len(cache) > PREVIEWS_KEPT:
            cache.pop(next(iter(cache)))
    return web.Response(
        body=png, content_type="image/png", headers={"Cache-Control": "max-age=300"}
    )


async def badge_image(request: web.Request) -> web.Response:
    """An achievement's badge."""
    code = request.match_info["code"]
    if code not in BY_CODE:
        raise web.HTTPNotFound()
    png = await asyncio.to_thread(badge_png, LOOKS, code)
    return web.Response(
        body=png, content_type="image/png", headers={"Cache-Control": "max-age=86400"}
    )


async def tournament_page(request: web.Request) -> web.Response:
    guild_id = number(request.match_info["guild"])
    event_id = number(request.match_info["event"])
    reader = request.app[READER]
    server = await reader.server(guild_id, request.get(kept_pages.STAMP))
    found = None if server is None else await reader.tournament(server, event_id)
    if server is None or found is None:
        request[SERVER_FOUND] = server
        raise web.HTTPNotFound()
    state, known = found
    locale = LANGUAGES[language(request)]
    pages = await reader.with_pages(guild_id, [p for p, name in known.items() if name])

    @functools.cache
    def entrant(number: int | None) -> Markup:
        """The entrant's people, each linked to his page where he has one (escaped; each
        written once a page)."""
        entry = state.entry(number)
        if entry is None:
            return escape(tr(locale, "Computer"))
        names = []
        for member in entry.members:
            name = known.get(member) or (
                tr(locale, "a player") if member > 0 else tr(locale, "a former player")
            )
            if member in pages:
                href = link(request, links.player_path(guild_id, member))
                names.append(anchor(href, name))
            else:
                names.append(escape(name))
        return joined_markup(locale, names)

    standings = [(line, entrant(line.entrant)) for line in state.standings()]
    rounds = []
    for r in sorted(state.rounds, key=lambda r: r.number, reverse=True):
        boards = []
        for b in sorted(state.boards_of(r.number), key=lambda b: b.board):
            sides = [joined_markup(locale, [entrant(e) for e in side]) for side in b.sides]
            boards.append(
                (b, sides, "–".join(map(str, b.points or ())), word(locale, BOARD_ENDINGS, b.how))
            )
        rounds.append((r, boards))
    bracket = state.bracket()
    event = state.event
    response = page(
        request,
        "tournament.html",
        {
            "server": server,
            "event": event,
            "variant": variant_name(locale, event.variant),
            "status": word(locale, EVENT_STATUSES, event.status),
            "system": word(locale, EVENT_SYSTEMS, event.system),
            "standings": standings,
            "rounds": rounds,
            "bracket": [] if bracket is None else bracket_rounds(locale, bracket, entrant),
            "live": event.is_open,
            "knockout": event.system == "knockout",
            "arena": event.system == "arena",  # its score and performance in the columns
        },
    )
    if event.is_open:
        response[kept_pages.FRESH] = kept_pages.EVENT  # changes with each result
    return response


def bracket_rounds(
    locale: str, bracket: Bracket, entrant: Callable[[int | None], Markup]
) -> list[tuple[str, list[tuple[list[Markup], str, Markup]]]]:
    """A knockout's rounds as far as they go: each titled from the final backwards, each
    match as its two sides' names (an individual knockout: two partners a side), the table's
    points and who went through."""
    bye = tr(locale, "bye")
    per_table = 4 if bracket.people else 2
    out = []
    for matches, left in zip(bracket.rounds, bracket.left(), strict=False):
        rows = [
            (
                [
                    joined_markup(locale, [entrant(e) for e in side])
                    if any(e is not None for e in side) else escape(bye)
                    for side in m.teams
                ],
                "–".join(map(str, m.points or ())),
                joined_markup(locale, [entrant(e) for e in m.advancing]),
            )
            for m in matches
        ]
        out.append((round_title(locale, left, per_table), rows))
    return out


# ------------------------------------------------------------------------------- the app


def create_app(
    reader: Reader,
    *,
    base_url: str = "",
    rate_limit: int = 120,
    forwarded: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> web.Application:
    """The application; ``reader`` is closed with it."""
    app = web.Application(middlewares=[serve])
    app[READER] = reader
    app[LIMITER] = RateLimiter(rate_limit, clock)
    app[BASE_URL] = base_url.rstrip("/")
    app[FORWARDED] = forwarded
    app[PREVIEWS] = {}
    app[REPLAYS] = {}
    app[RECENT] = {}
    app[BUILDING] = asyncio.Lock()

    async def read_stamp(guild_id: int | None) -> tuple[Any, ...]:
        async with reader.reading() as store:
            return await PageRepo(store.db).stamp(guild_id)

    app[KEPT] = kept_pages.KeptPages(read_stamp, clock=clock)
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )
    env = aiohttp_jinja2.get_env(app)
    env.filters["when"] = when
    env.filters["iso"] = iso
    env.filters["day"] = lambda t: datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")
    app.router.add_get("/", home, name="home")
    app.router.add_get("/health", health)
    app.router.add_get("/s", find_server)
    app.router.add_get("/s/{guild}", server_page, name="server")
    app.router.add_get("/s/{guild}/p/{player}", player_page, name="player")
    app.router.add_get("/badges/{code}.png", badge_image)
    app.router.add_get("/s/{guild}/t/{event}", tournament_page, name="tournament")
    app.router.add_get("/m/{table}", match_page, name="match")
    app.router.add_get("/m/{table}/replay.json", replay_data)
    app.router.add_get("/m/{table}/preview.png", preview_image)
    live.add_routes(app, reader, live.PageTools(page, link, language, number))
    app.router.add_static("/static/", HERE / "static", append_version=False)
    app.on_response_prepare.append(security_headers)

    async def close(app: web.Application) -> None:
        await reader.close()

    app.on_cleanup.append(close)
    return app


async def settle(app: web.Application) -> None:
    """Before the first reader: compile the templates, load each language's catalogue and
    number formats, then collect once and put every object made so far out of the garbage
    collector's reach (``gc.freeze``). A full collection walked them all, some 100 ms with
    the event loop stopped, which every reader waiting then paid; it now walks what serving
    made."""
    env = aiohttp_jinja2.get_env(app)
    for name in env.list_templates(filter_func=lambda name: name.endswith(".html")):
        env.get_template(name)
    for locale in LANGUAGES.values():
        tr(locale, ERRORS[404][0])
        format_number(locale, -1234.5, signed=True)
    gc.collect()
    gc.freeze()


def run_web(settings: Any) -> int:
    """``python -m bot web``: serve the pages until stopped."""
    from bot.log import setup_logging

    setup_logging(settings.log_level)
    reader = Reader(settings.database_url, seasons=calendar_of(settings))
    app = create_app(
        reader,
        base_url=settings.web_base_url,
        rate_limit=settings.web_rate_limit,
        forwarded=settings.web_forwarded,
    )

    async def warm_up(app: web.Application) -> None:
        took = await warm(app, reader)
        log.info("the pages are warm (%.2f s)", took)

    app.on_startup.append(warm_up)  # before settle: what it loads is frozen too
    app.on_startup.append(settle)
    web.run_app(
        app,
        host=settings.web_host,
        port=settings.web_port,
        access_log=None,
        print=lambda text: log.info("%s", text),
    )
    return 0
