"""Pages kept rendered: each page is rendered once, gzipped, and served again from memory
until it may have changed, with an ``ETag`` (a reader's browser or proxy asks "still this?"
and gets a 304 without a body), ``Last-Modified`` and a ``Cache-Control`` per kind of page.

How long a page is kept (:data:`POLICIES`):

- a finished match, a finished tournament: until the database's stamp moves (migration 0940:
  someone left the boards or was forgotten, a name changed, a server's pages were turned off
  or renamed, a match removed), or an hour at most; browsers may keep it a minute and then
  ask again (a 304 when it is unchanged);
- a server's page (its leaderboards) and a player's page: until the server records another
  match or a line of its boards is left off for inactivity (the server's own stamp, read
  with the database's) or the database's stamp moves, or :data:`BOARDS`
  seconds at most (the week's and month's boards roll over); browsers :data:`RUNNING`
  seconds;
- a running tournament: :data:`RUNNING` seconds, browsers as long.

The stamp is one row read by key for each page (readers arriving while it is read share
that reading), so a forget-me or a server turning its pages off shows on the next page, kept
or not. Two readers asking for the same page while it is rendered share the one rendering. Only 200
answers are kept; a 404, a 503 or a 400 is rendered every time.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import gzip
import hashlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime

from aiohttp import web
from zlib_ng import zlib_ng

__all__ = [
    "FRESH",
    "POLICIES",
    "RUNNING",
    "STAMP",
    "KeptPages",
    "Policy",
]

RUNNING = 5.0  # seconds a running tournament is kept (and a board in browsers)
BOARDS = 60.0  # seconds a board or a player's page is kept at most
FINISHED = 3600.0  # at most, for a page that only the stamp changes
MAX_BYTES = 64 * 2**20  # the kept pages' gzipped bodies, at most
MAX_PAGES = 20_000
#: Our decision: gzip's fastest level, by zlib-ng (already the pictures' deflater). A board's
#: page (14-15 KB of HTML) takes 21 µs at zlib-ng's level 1 against 44 at zlib's, for 4.1 KB
#: against 3.4 (zlib-ng's level 2: 34 µs, 3.3 KB): the few hundred bytes more stay within the
#: first round trip of any connection, the CPU is spent at each rendering (docs/web.md).
GZIP_LEVEL = 1
GZIP_FORMAT = 31  # deflate's window bits for a gzip stream (header and CRC), mtime 0


@dataclass(frozen=True, slots=True)
class Policy:
    """How long a kind of page is kept here and in browsers (seconds)."""

    kept: float
    browsers: int
    per_server: bool = False  # also until the server's own stamp moves (a match recorded)


#: A handler may set ``response[FRESH]`` to another :class:`Policy` (a running tournament).
FRESH = "kept.policy"
#: ``request[STAMP]``: the stamp read for this request (the database's first), for the parts
#: of a page kept apart while it holds.
STAMP = "kept.stamp"
BOARD = Policy(BOARDS, int(RUNNING), per_server=True)
EVENT = Policy(RUNNING, int(RUNNING))
DONE = Policy(FINISHED, 60)
#: The kept kinds of page, by route name.
POLICIES: dict[str, Policy] = {
    "home": DONE,
    "server": BOARD,
    "player": BOARD,
    "tournament": DONE,  # a running one says EVENT
    "match": DONE,
}


@dataclass(slots=True)
class Page:
    """One rendered page, gzipped."""

    gzipped: bytes
    etag: str
    modified: float  # when rendered (seconds since the epoch)
    made: float  # the same, on the monotonic clock
    stamp: tuple[object, ...]
    policy: Policy
    content_type: str
    language: str
    fixed: dict[str, str] = dataclasses.field(default_factory=dict)  # the headers, once

    def __post_init__(self) -> None:
        self.fixed = {
            "ETag": self.etag,
            "Last-Modified": formatdate(self.modified, usegmt=True),
            "Cache-Control": f"public, max-age={self.policy.browsers}",
            "Vary": "Accept-Language, Accept-Encoding",
            "Content-Language": self.language,
        }

    def answer(self, request: web.Request) -> web.Response:
        """This page, or 304 when the reader already holds it."""
        headers = dict(self.fixed)
        if not_modified(request, self):
            return web.Response(status=304, headers=headers)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = self.gzipped
        else:
            body = gzip.decompress(self.gzipped)
        headers["Content-Type"] = self.content_type
        return web.Response(body=body, headers=headers)


def not_modified(request: web.Request, page: Page) -> bool:
    """True when the request's ``If-None-Match`` names the page's tag (or, without one, its
    ``If-Modified-Since`` is not before the page was rendered)."""
    tags = request.headers.get("If-None-Match")
    if tags is not None:
        wanted = {t.strip() for t in tags.split(",")}
        return "*" in wanted or page.etag in wanted or page.etag.removeprefix("W/") in wanted
    since = request.headers.get("If-Modified-Since")
    if since is None:
        return False
    try:
        return parsedate_to_datetime(since).timestamp() >= int(page.modified)
    except (TypeError, ValueError, OverflowError):
        return False


class KeptPages:
    """The rendered pages of one process, the least recently used dropped first."""

    def __init__(
        self,
        read_stamp: Callable[[int | None], Awaitable[tuple[object, ...]]],
        *,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], float] = time.time,
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self.read_stamp = read_stamp
        self.clock = clock
        self.now = now
        self.max_bytes = max_bytes
        self.bytes = 0
        self.rendered = 0  # pages rendered (not served from here), for the benchmark
        self._pages: collections.OrderedDict[tuple[str, ...], Page] = (
            collections.OrderedDict()
        )
        self._making: dict[tuple[str, ...], asyncio.Future[Page | web.StreamResponse]] = {}
        self._stamp_reading: dict[int | None, asyncio.Future[tuple[object, ...]]] = {}

    def __len__(self) -> int:
        return len(self._pages)

    async def stamp(self, guild_id: int | None = None) -> tuple[object, ...]:
        """The database's stamp, with the server's own when ``guild_id`` is given
        (one reading for the readers asking at the same time: the first reads it in its own
        task, the others wait for what it read)."""
        reading = self._stamp_reading.get(guild_id)
        if reading is not None:
            try:
                return await asyncio.shield(reading)
            except _Abandoned:
                pass  # the first reader went away before the answer: read it here
        reading = asyncio.get_running_loop().create_future()
        self._stamp_reading[guild_id] = reading
        try:
            stamp = await self.read_stamp(guild_id)
        except BaseException as exc:
            reading.set_exception(
                _Abandoned() if isinstance(exc, asyncio.CancelledError) else exc
            )
            reading.exception()  # seen, though no one else may be waiting
            raise
        finally:
            if self._stamp_reading.get(guild_id) is reading:
                del self._stamp_reading[guild_id]
        reading.set_result(stamp)
        return stamp

    async def serve(
        self,
        request: web.Request,
        key: tuple[str, ...],
        policy: Policy,
        render: Callable[[], Awaitable[web.StreamResponse]],
        guild_id: int | None = None,
    ) -> web.StreamResponse:
        """The page kept for ``key``, else the one ``render`` makes (kept when a 200);
        ``guild_id``: the server whose own stamp a :attr:`Policy.per_server` page
        follows."""
        stamp = await self.stamp(guild_id if policy.per_server else None)
        request[STAMP] = stamp
        page = self._pages.get(key)
        if page is not None and page.stamp == stamp and self.clock() - page.made < page.policy.kept:
            self._pages.move_to_end(key)
            return page.answer(request)
        making = self._making.get(key)
        first = making is None
        if making is None:
            making = asyncio.ensure_future(self._make(key, policy, stamp, render))
            making.add_done_callback(_seen)
            self._making[key] = making
        made = await asyncio.shield(making)
        if isinstance(made, Page):
            return made.answer(request)
        return made if first else await render()  # not kept: each reader his own answer

    async def _make(
        self,
        key: tuple[str, ...],
        policy: Policy,
        stamp: tuple[object, ...],
        render: Callable[[], Awaitable[web.StreamResponse]],
    ) -> Page | web.StreamResponse:
        try:
            response = await render()
            self.rendered += 1
            if response.status != 200 or not isinstance(response, web.Response):
                return response
            body = response.body
            if not isinstance(body, bytes):
                return response
            chosen = response.get(FRESH, policy)
            page = Page(
                zlib_ng.compress(body, GZIP_LEVEL, GZIP_FORMAT),
                'W/"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"',
                self.now(),
                self.clock(),
                stamp,
                chosen,
                response.headers.get("Content-Type", "text/html; charset=utf-8"),
                response.headers.get("Content-Language", ""),
            )
            old = self._pages.pop(key, None)
            if old is not None:
                self.bytes -= len(old.gzipped)
            self._pages[key] = page
            self.bytes += len(page.gzipped)
            while self._pages and (self.bytes > self.max_bytes or len(self._pages) > MAX_PAGES):
                _, dropped = self._pages.popitem(last=False)
                self.bytes -= len(dropped.gzipped)
            return page
        finally:
            del self._making[key]


class _Abandoned(Exception):
    """The reader reading the stamp for others was cancelled before it had it."""


def _seen(making: asyncio.Future[object]) -> None:
    if not making.cancelled():
        making.exception()
