"""``python -m benchmarks.web``: the web companion's pages under a steady 200 requests a second.

Builds the records of ``benchmarks.records`` (``--players`` people, ``--matches`` recorded
matches over ``--guilds`` servers), plays ``--played`` whole matches of computer players
through the real table service on the biggest server (action logs and hand results, so their
match pages have every hand), turns pages on for the biggest and a middling server, then
starts ``python -m bot web`` in its own process (no rate limit) and sends it requests at
``--rate`` a second for ``--seconds`` seconds per kind of page, on a fixed schedule (a request
starts at its time whether or not earlier ones finished; its latency counts from then):

- leaderboard pages: both servers, any variant, family or all, by rating or wins, the first
  twenty pages;
- period boards: the same servers and boards, this week's, month's and season's, the first ten
  pages;
- match pages: recorded matches of the biggest server (the played ones among them);
- player pages: people of the biggest server's board;
- popular pages: the first page of each board and the 40 most active players' pages, the
  pages most read (kept rendered: what a page costs once rendered);
- tournament pages: three 64-entrant Swiss events of the biggest server (one running, two
  finished), six rounds of 32 boards each;
- the replay's data of the played matches, for reference (not in the target);
- a peer, in the same run: the style sheet, a plain static file of aiohttp (what a request
  costs without any page).

The pages are kept rendered (``bot/web/kept.py``): a board and a player's page five seconds,
a finished match or event until the database's stamp moves. ``--busy N`` (2 by default) runs
N processes that keep a core busy each beside the server during the whole run.

Prints p50/p99/max latency and the throughput reached, each page's weight (the HTML with the
style sheet and the script, before the replay's data), the CPU time the pages' process spent
per request (what the machine's other work cannot inflate much) and the machine's load.
Target: at most 1 ms of the server's CPU per page of every kind, p99 under 50 ms with the
busy processes beside it, pages under 100 KB. With ``--database-url postgresql://…`` (an empty
database; ``temp``: a throw-away server; ``kept``: a server whose cluster is kept beside
``--db``, copied once) the same data is copied there and measured again.
``--breakdown`` runs the pages' process with timers and says where the time went. The built
database is kept for the next runs (``--db``; by default in ``/var/tmp/domino-web-bench``,
named by the generator's version, the sizes and the seed; ``--fresh`` builds it again).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import math
import os
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.bot import postgres_url
from benchmarks.records import COPIED, GENERATOR, _migrate, cache_key, copy_to, fill, kept_postgres
from benchmarks.records import DEFAULT_CACHE as RECORDS_CACHE
from bot.records.record import BUCKETS
from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_url
from bot.store import Store
from bot.tables.service import TableService
from bot.web.queries import WebRepo

TARGET_MS = 50.0
TARGET_CPU_MS = 1.0  # the server's CPU per page
MAX_WEIGHT = 100_000
WARM_UP = (200, 20)  # pages read before a run is timed, and how many at once
STARTING = 180.0  # seconds the pages' process may take to listen
CACHE = Path("/var/tmp/domino-web-bench")  # the built databases, kept between runs


def load() -> str:
    with contextlib.suppress(OSError):
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


async def play(path: Path, guild_id: int, count: int) -> list[int]:
    """``count`` whole matches of computer players on ``guild_id``, recorded (their tables
    numbered after the synthetic records')."""
    store = await Store.open(path)
    # The synthetic matches' tables, in a channel everyone on their server can view (the pages
    # show no other).
    await store.db.execute(
        "INSERT INTO tables (id, guild_id, host_id, variant, status, created_at, updated_at,"
        " public_place) SELECT table_id, guild_id, 0, variant, 'finished', finished_at,"
        " finished_at, 1 FROM record_matches"
    )
    top = await store.db.fetchval("SELECT coalesce(max(table_id), 0) FROM record_matches")
    await store.db.execute("DELETE FROM sqlite_sequence WHERE name = 'tables'")
    await store.db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('tables', ?)", (top,))
    service = TableService(store, computer_delay=0.0, hand_pause=0.0, computer_pace=None)
    records = Records(store)
    played = []
    try:
        for _ in range(count):
            table = await service.create_table(
                host_id=1, host_name="host", variant="partners", guild_id=guild_id,
                seat_host=False, public_place=True,
            )
            while not (await service.get(table.id)).is_full:
                await service.add_computer(table.id, 1, level="easy")
            await service.start(table.id, 1)
            while await service.play_computer(table.id) is not None:
                pass
            await records.record(table.id)
            played.append(table.id)
    finally:
        await service.aclose()
        await store.close()
    return played


async def turn_on(url: str, guilds: list[int]) -> None:
    store = await Store.open(url)
    try:
        for g in guilds:
            await ServerSettings(store).update(g, web=True, web_name=f"Server {g}")
    finally:
        await store.close()


async def match_ids(url: str, guild_id: int, limit: int) -> list[int]:
    store = await Store.open(url)
    try:
        rows = await store.db.fetchall(
            "SELECT table_id FROM record_matches WHERE guild_id = ? ORDER BY table_id LIMIT ?",
            (guild_id, limit),
        )
        return [int(r[0]) for r in rows]
    finally:
        await store.close()


async def player_ids(url: str, guild_id: int, limit: int) -> list[int]:
    """The most active people of the server's board who have a page there (the synthetic
    matches are in public places; a person who left a board has none: a 404)."""
    store = await Store.open(url)
    try:
        rows = await store.db.fetchall(
            "SELECT player_id FROM record_stats WHERE scope = ? AND bucket = 'all'"
            " AND player_id > 0 ORDER BY matches DESC LIMIT ?",
            (guild_id, 2 * limit),
        )
        ids = [int(r[0]) for r in rows]
        paged = await WebRepo(store.db).with_pages(guild_id, ids)
        return [p for p in ids if p in paged][:limit]
    finally:
        await store.close()


async def make_events(url: str, guild_id: int, people: list[int]) -> list[int]:
    """Three 64-entrant Swiss events on ``guild_id`` (one running, two finished), six rounds
    of 32 played boards each; those made before are used again."""
    from bot.tournaments.store import BoardRow, EntryRow, EventRow, RoundRow, TournamentRepo

    store = await Store.open(url)
    try:
        found = await store.db.fetchall(
            "SELECT id FROM tournaments WHERE guild_id = ? AND name LIKE 'Bench %' ORDER BY id",
            (guild_id,),
        )
        if len(found) >= 3:
            return [int(r[0]) for r in found[:3]]
        repo = TournamentRepo(store.db)
        rng = random.Random(7)
        made = []
        for n, status in enumerate(("running", "finished", "finished")):
            event = await repo.create(EventRow(
                id=0, guild_id=guild_id, channel_id=10_000 + n, host_id=people[0],
                name=f"Bench <Cup> {n}", variant="draw", options={}, format="individual",
                system="swiss", rounds=6, hands=None, points=100, time_limit=1800, grace=300,
                fill="bye", max_entrants=64, start_at=None, status=status, round=6,
                locale=None, winner_role=None, paused_left=None, created_at=1.0,
                updated_at=1.0, public_place=True,
            ))
            entrants = people[n * 64 : n * 64 + 64]
            for i, user in enumerate(entrants):
                await repo.add_entry(
                    EntryRow(event.id, 0, user, f"nick {i}", None, None, "active", 1, 30.0, 0, 1.0)
                )
            for number in range(1, 7):
                await repo.put_round(RoundRow(event.id, number, "done", 1.0, 2.0))
                order = list(range(1, 65))
                rng.shuffle(order)
                await repo.put_boards([
                    BoardRow(event.id, number, b + 1, (order[2 * b], order[2 * b + 1]),
                             ((order[2 * b],), (order[2 * b + 1],)),
                             (entrants[order[2 * b] - 1], entrants[order[2 * b + 1] - 1]),
                             None, "done", True, (100, rng.randrange(100)), "played")
                    for b in range(32)
                ])
            made.append(event.id)
        return made
    finally:
        await store.close()


@contextlib.contextmanager
def busy(count: int) -> Any:
    """``count`` processes keeping a core busy each (the machine's other work)."""
    procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)
    ]
    try:
        yield
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(url: str, probe: Path | None = None, code: Path | None = None) -> Any:
    """``python -m bot web`` on the database at ``url`` (with ``probe``: through
    :func:`serve_probed`, writing its timings there; with ``code``: that checkout's);
    yields its base address and pid."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "WEB_PORT": str(port),
        "WEB_RATE_LIMIT": "0",
        "LOG_LEVEL": "WARNING",
    }
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    command = ["-m", "bot", "--env-file", os.devnull, "web"]
    if probe is not None:
        command = ["-m", "benchmarks.web", "--serve-probed", str(probe)]
    proc = subprocess.Popen([sys.executable, *command], env=env, cwd=code)
    try:
        base = f"http://127.0.0.1:{port}"
        # it listens once warm (every pooled connection's statements prepared): on a loaded
        # machine, a PostgreSQL pool takes a while
        deadline = time.monotonic() + STARTING
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("the pages' process did not start listening")
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(30)


@dataclass(frozen=True, slots=True)
class Sent:
    """One request of a steady run: when it was due, sent and answered (``time.monotonic``
    seconds, the clock the probed server uses too), its address and whether it was a 200."""

    due: float
    sent: float
    done: float
    path: str
    ok: bool

    @property
    def ms(self) -> float:
        return (self.done - self.due) * 1000


async def steady(base: str, paths: list[str], rate: float, seconds: float) -> list[Sent]:
    """Requests at ``rate`` a second for ``seconds`` (open loop: each starts at its time
    whether or not earlier ones finished; its latency counts from then)."""
    sent: list[Sent] = []
    total = int(rate * seconds)
    timeout = aiohttp.ClientTimeout(total=30)
    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        # Warm up as a server that has served a while is: templates compiled, and every
        # connection of the pages' pool has prepared its statements (``WARM_UP`` pages, so
        # many at once); the database's caches hold what those pages read.
        async def read(path: str) -> None:
            async with session.get(base + path) as r:
                await r.read()

        for first in range(0, min(len(paths), WARM_UP[0]), WARM_UP[1]):
            await asyncio.gather(*(read(p) for p in paths[first : first + WARM_UP[1]]))
        start = time.monotonic()

        async def one(i: int) -> None:
            due = start + i / rate
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            path = paths[i % len(paths)]
            began = time.monotonic()
            ok = False
            try:
                async with session.get(base + path) as r:
                    await r.read()
                    ok = r.status == 200
            except (aiohttp.ClientError, TimeoutError):
                pass
            sent.append(Sent(due, began, time.monotonic(), path, ok))

        await asyncio.gather(*(one(i) for i in range(total)))
    return sorted(sent, key=lambda s: s.ms)


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


async def weights(base: str, paths: dict[str, str]) -> dict[str, int]:
    """Each kind's weight as sent (gzipped where the reader accepts it), with the style
    sheet and the scripts the page names."""
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        static: dict[bytes, int] = {}
        found = {}
        for kind, path in paths.items():
            async with session.get(base + path) as r:
                body = await r.read()
                html = gzip.decompress(body) if r.headers.get("Content-Encoding") else body
            named = set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html))
            for name in named - set(static):
                async with session.get(base + name.decode()) as r:
                    static[name] = len(await r.read())
            found[kind] = len(body) + sum(static[n] for n in named)
        return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(pid: int, most: float = 60.0) -> None:
    """Wait (``most`` seconds at most) until the server has finished what it was given: its
    CPU time grows by less than a tenth of the time waited."""
    end = time.monotonic() + most
    while time.monotonic() < end:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - before < 0.05:
            return


def measure(
    url: str,
    title: str,
    mixes: dict[str, list[str]],
    rate: float,
    seconds: float,
    breakdown: bool = False,
    code: Path | None = None,
    busy_count: int = 2,
) -> bool:
    ok = True
    with contextlib.ExitStack() as stack:
        probe = None
        if breakdown:
            probe = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "probe.jsonl"
        runs: dict[str, list[Sent]] = {}
        with server(url, probe, code) as (base, pid), busy(busy_count):
            sizes = asyncio.run(weights(base, {k: v[0] for k, v in mixes.items()}))
            for kind, paths in mixes.items():
                settle(pid)  # what the kind before left queued does not count here
                cpu = cpu_seconds(pid)
                started = time.monotonic()
                sent = asyncio.run(steady(base, paths, rate, seconds))
                took = time.monotonic() - started
                runs[kind] = sent
                times = [s.ms for s in sent]
                failed = sum(not s.ok for s in sent)
                per_request = (cpu_seconds(pid) - cpu) * 1000 / max(1, len(times))
                p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
                target = kind not in ("replay data", "static (peer)")
                verdict = ""
                if target:
                    good = (
                        p99 < TARGET_MS and sizes[kind] < MAX_WEIGHT and not failed
                        and per_request <= TARGET_CPU_MS
                    )
                    ok = ok and good
                    verdict = "  ok" if good else "  OVER TARGET"
                print(
                    f"{title:10} {kind:12} {len(times):5} requests in {took:5.1f} s"
                    f" ({len(times) / took:5.0f}/s): p50 {p50:6.1f} ms, p99 {p99:6.1f} ms,"
                    f" max {times[-1]:6.1f} ms, {failed} failed; {sizes[kind] / 1000:5.1f} KB;"
                    f" the server's CPU {per_request:.2f} ms a request{verdict}"
                    f"  (load {load()})",
                    flush=True,
                )
        if probe is not None:
            events = [json.loads(line) for line in probe.read_text().splitlines()]
            for kind, sent in runs.items():
                for line in explain(sent, events):
                    print(f"{title:10} {kind:12}   {line}")
    return ok


# ------------------------------------------------------------------------ the breakdown


def serve_probed(out: Path) -> int:
    """``python -m bot web`` with timings written to ``out`` as it stops (one JSON object a
    line): each request's handler time (when it began and ended), its database time and
    statements and its template time; each garbage collection; each stall of the event loop
    over 5 ms; each answer the pages keep a few seconds being computed again."""
    import contextvars
    import gc

    import aiohttp_jinja2
    from aiohttp import web

    from bot.__main__ import main as bot_main
    from bot.store import connection
    from bot.web import app as pages
    from bot.web import queries, reader

    events: list[dict[str, Any]] = []
    spent: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
        "spent", default=None
    )

    def timed(fn: Any, slot: int) -> Any:
        async def probed(*args: Any, **kwargs: Any) -> Any:
            begin = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                found = spent.get()
                if found is not None:
                    found[slot] += time.perf_counter() - begin
                    found[slot + 1] += 1

        return probed

    # (aiosqlite's fetchone and fetchval go through its fetchall)
    connection._SqliteDb.fetchall = timed(connection._SqliteDb.fetchall, 0)  # type: ignore
    for kind in (connection._PostgresDb, getattr(queries, "_InlineDb", None)):
        for name in ("fetchall", "fetchone", "fetchval"):
            if kind is not None:
                setattr(kind, name, timed(getattr(kind, name), 0))

    render = aiohttp_jinja2.render_template

    def rendered(*args: Any, **kwargs: Any) -> Any:
        begin = time.perf_counter()
        try:
            return render(*args, **kwargs)
        finally:
            found = spent.get()
            if found is not None:
                found[2] += time.perf_counter() - begin

    aiohttp_jinja2.render_template = rendered  # type: ignore[assignment]

    keep = getattr(reader._Kept, "_keep", None)

    async def kept(self: Any, key: Any, read: Any) -> Any:
        begin = time.monotonic()
        try:
            return await keep(self, key, read)
        finally:
            events.append({"e": "kept", "t": begin, "key": str(key[0]),
                           "took": time.monotonic() - begin})

    if hasattr(reader._Kept, "put"):  # (the pages before their answers were single-flight)
        put = reader._Kept.put

        def put_probed(self: Any, key: Any, value: Any) -> Any:
            events.append({"e": "kept", "t": time.monotonic(), "key": str(key[0])})
            return put(self, key, value)

        reader._Kept.put = put_probed
    else:
        reader._Kept._keep = kept  # type: ignore[method-assign]

    @web.middleware
    async def timing(request: web.Request, handler: Any) -> web.StreamResponse:
        found = [0.0, 0.0, 0.0]
        spent.set(found)
        begin = time.monotonic()
        try:
            return await handler(request)
        finally:
            events.append({
                "e": "req", "t": begin, "end": time.monotonic(), "path": request.path_qs,
                "db": found[0], "statements": found[1], "render": found[2],
            })

    collecting = [0.0, 0.0]

    def collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[:] = [time.perf_counter(), time.thread_time()]
        else:
            took = time.perf_counter() - collecting[0]
            events.append({"e": "gc", "t": time.monotonic() - took, "took": took,
                           "cpu": time.thread_time() - collecting[1], "gen": info["generation"]})

    gc.callbacks.append(collected)

    async def watch(app: web.Application) -> Any:
        async def stalls() -> None:
            while True:
                begin = time.monotonic()
                await asyncio.sleep(0.005)
                late = time.monotonic() - begin - 0.005
                if late > 0.005:
                    events.append({"e": "stall", "t": begin + 0.005, "took": late})

        task = asyncio.ensure_future(stalls())
        yield
        task.cancel()
        events.append({"e": "heap", "t": time.monotonic(), "frozen": gc.get_freeze_count(),
                       "tracked": len(gc.get_objects())})
        out.write_text("".join(json.dumps(e) + "\n" for e in events))

    create = pages.create_app

    def create_probed(*args: Any, **kwargs: Any) -> web.Application:
        app = create(*args, **kwargs)
        app.middlewares.insert(0, timing)
        app.cleanup_ctx.append(watch)
        return app

    pages.create_app = create_probed  # type: ignore[assignment]
    return bot_main(["--env-file", os.devnull, "web"])


def explain(sent: list[Sent], events: list[dict[str, Any]]) -> list[str]:
    """Where the time of one kind's requests went, the slow ones (over the target) apart."""
    if not sent:
        return []
    begin, end = min(s.due for s in sent), max(s.done for s in sent)
    inside = [e for e in events if begin <= e["t"] <= end]
    handled: dict[str, list[dict[str, Any]]] = {}
    for e in inside:
        if e["e"] == "req":
            handled.setdefault(e["path"], []).append(e)
    parts: dict[str, list[list[float]]] = {"all": [], "slow": []}
    for s in sent:
        found = [e for e in handled.get(s.path, []) if s.sent - 0.001 <= e["t"] <= s.done]
        if not found:
            continue
        e = found[0]
        handled[s.path].remove(e)
        row = [
            (s.sent - s.due) * 1000,  # the client's own lateness
            (e["t"] - s.sent) * 1000,  # before the handler: connecting, the server's queue
            (e["end"] - e["t"]) * 1000,  # the handler
            e["db"] * 1000,
            e["statements"],
            e["render"] * 1000,
            (s.done - e["end"]) * 1000,  # writing and reading the answer
        ]
        parts["all"].append(row)
        if s.ms > TARGET_MS:
            parts["slow"].append(row)
    names = ("client late", "before handler", "handler", "db", "statements", "render", "after")
    lines = []
    for which, rows in parts.items():
        if not rows:
            continue
        columns = list(zip(*rows, strict=True))
        figures = ", ".join(
            f"{n} {statistics.median(c):.1f}/{quantile(sorted(c), 0.99):.1f}"
            for n, c in zip(names, columns, strict=True)
        )
        lines.append(f"{which} ({len(rows)}), median/p99 ms: {figures}")
    gcs = [e for e in inside if e["e"] == "gc"]
    for gen in (0, 1, 2):
        took = sorted(e["took"] * 1000 for e in gcs if e["gen"] == gen)
        cpu = sorted(e.get("cpu", e["took"]) * 1000 for e in gcs if e["gen"] == gen)
        if took:
            lines.append(
                f"gc gen {gen}: {len(took)} collections, median {statistics.median(took):.1f} ms,"
                f" max {took[-1]:.1f} ms (its CPU: median {statistics.median(cpu):.1f} ms,"
                f" max {cpu[-1]:.1f} ms)"
            )
    stalls = sorted(e["took"] * 1000 for e in inside if e["e"] == "stall")
    if stalls:
        lines.append(
            f"event loop stalls over 5 ms: {len(stalls)}, median {statistics.median(stalls):.1f}"
            f" ms, max {stalls[-1]:.1f} ms, {sum(stalls):.0f} ms in all"
        )
    kept: dict[str, list[float]] = {}
    for e in inside:
        if e["e"] == "kept":
            kept.setdefault(e["key"], []).append(e.get("took", 0.0) * 1000)
    if kept:
        lines.append("read again (kept answers): " + ", ".join(
            f"{k} {len(t)} times, at most {max(t):.1f} ms" for k, t in sorted(kept.items())
        ))
    for e in events:
        if e["e"] == "heap":
            lines.append(f"objects the garbage collector walks at the end: {e['tracked']:,}"
                         f" (frozen at start-up: {e['frozen']:,})")
    slow = [s for s in sent if s.ms > TARGET_MS]
    if slow:
        # when the slow ones happened: bunched (something stalled) or spread out
        seconds = sorted({int(s.due - begin) for s in slow})
        lines.append(f"slow requests due in seconds {seconds} of the run")
    return lines


def kept_records(path: Path, args: argparse.Namespace) -> dict[str, Any] | None:
    """The records ``benchmarks.records`` filled with the same sizes and seed and keeps in its
    cache, copied to ``path`` (a consistent copy, even while it runs; its store is left as it
    is); None when it keeps none."""
    name = cache_key(args)
    store, about = RECORDS_CACHE / f"{name}.sqlite3", RECORDS_CACHE / f"{name}.json"
    if not (store.is_file() and about.is_file()):
        return None
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    target = sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
    info: dict[str, Any] = json.loads(about.read_text())
    print(f"the records are a copy of benchmarks.records' kept store {store}")
    return info


def build(path: Path, args: argparse.Namespace) -> tuple[int, int, list[int]]:
    """The benchmark's database at ``path``: the biggest and a middling server with pages, and
    the matches played move by move. A file built before with the same sizes and seed (its
    description beside it, ``<file>.json``) is used again, brought up to date; else the
    records are those ``benchmarks.records`` keeps, when it has filled the same sizes."""
    made = {k: getattr(args, k) for k in ("players", "matches", "guilds", "seed", "played")}
    described = path.with_name(path.name + ".json")
    with contextlib.suppress(OSError, ValueError, KeyError):
        known = json.loads(described.read_text())
        if known["made"] == made and path.is_file():
            start = time.perf_counter()
            asyncio.run(_migrate(path))
            print(f"reusing {path} (built before with the same sizes), up to date in"
                  f" {time.perf_counter() - start:.0f} s")
            return int(known["big"]), int(known["mid"]), [int(t) for t in known["played"]]
    described.unlink(missing_ok=True)
    path.unlink(missing_ok=True)
    start = time.perf_counter()
    info = kept_records(path, args)
    if info is None:
        asyncio.run(_migrate(path))
        info = fill(path, args.players, args.matches, args.guilds, args.seed)
    else:
        asyncio.run(_migrate(path))
    big, mid = info["big_guild"], info["mid_guild"]
    played = asyncio.run(play(path, big, args.played))
    asyncio.run(turn_on(sqlite_url(path), [big, mid]))
    print(
        f"built in {time.perf_counter() - start:.0f} s: {args.players:,} players,"
        f" {info['counts']['record_matches']:,} matches over {args.guilds} servers"
        f" (pages on for {info['big_guild_players']:,} and {info['mid_guild_players']:,}"
        f" players), {args.played} matches played move by move;"
        f" {path.stat().st_size / 2**20:,.0f} MiB"
    )
    described.write_text(json.dumps({"made": made, "big": big, "mid": mid, "played": played}))
    return big, mid, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__)
    parser.add_argument("--players", type=int, default=100_000, help="people (100,000)")
    parser.add_argument("--matches", type=int, default=1_000_000, help="matches (1,000,000)")
    parser.add_argument("--guilds", type=int, default=300, help="servers (300)")
    parser.add_argument("--played", type=int, default=10, help="matches played move by move")
    parser.add_argument("--rate", type=float, default=200.0, help="requests a second (200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="per kind of page (20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db",
        default=None,
        help="database file, kept and used again by a later run with the same sizes and seed"
        f" (default: one in {CACHE} named by the generator's version, the sizes and the seed)",
    )
    parser.add_argument("--fresh", action="store_true", help="build the database again")
    parser.add_argument(
        "--database-url",
        default=None,
        help="also on this empty PostgreSQL database (temp: a throw-away server, filled by copy"
        " at each run; kept: a server whose cluster is kept beside --db, filled by copy once)",
    )
    parser.add_argument("--skip-sqlite", action="store_true", help="measure on PostgreSQL only")
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="also serve the pages from this other checkout's code, before this one's in each"
        " round: the same database, client and load (an A/B)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each (1)")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also say where the time went (server's queue, database, templates, garbage"
        " collection, event-loop stalls): the pages' process runs with timers",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=(
            "leaderboard", "popular", "period board", "match", "player", "tournament",
            "replay data",
            "static (peer)",
        ),
        help="measure only this kind of page (again for several)",
    )
    parser.add_argument(
        "--busy", type=int, default=2, help="processes keeping a core busy beside the server (2)"
    )
    parser.add_argument("--serve-probed", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_probed is not None:
        return serve_probed(args.serve_probed)
    url = args.database_url
    if url and url not in ("temp", "kept") and not url.startswith(POSTGRES_SCHEMES):
        print("--database-url must be a postgresql:// URL, temp or kept", file=sys.stderr)
        return 2
    if args.skip_sqlite and not args.database_url:
        print("--skip-sqlite needs --database-url", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    if args.db:
        path = Path(args.db)
    else:
        CACHE.mkdir(parents=True, exist_ok=True)
        path = CACHE / f"web-v{GENERATOR}-{cache_key(args).split('-', 2)[2]}-{args.played}x.sqlite3"
    if args.fresh:
        path.with_name(path.name + ".json").unlink(missing_ok=True)
    url = sqlite_url(path)
    big, mid, played = build(path, args)
    recorded = asyncio.run(match_ids(url, big, 5000))
    boards = [
        f"/s/{g}?board={b}&by={by}&page={p}"
        for g in (big, mid)
        for b in BUCKETS
        for by in ("rating", "wins")
        for p in range(1, 21)
    ]
    rng.shuffle(boards)
    periods = [
        f"/s/{g}?board={b}&period={period}&page={p}"
        for g in (big, mid)
        for b in BUCKETS
        for period in ("week", "month", "season")
        for p in range(1, 11)
    ]
    rng.shuffle(periods)
    matches = [f"/m/{t}" for t in played] + [f"/m/{t}" for t in rng.sample(recorded, 2000)]
    rng.shuffle(matches)
    people = asyncio.run(player_ids(url, big, 2000))
    events = asyncio.run(make_events(url, big, people))
    players = [f"/s/{big}/p/{p}" for p in people]
    rng.shuffle(players)
    mixes = {
        "leaderboard": boards,
        # the pages most read (each board's first page, the top players): kept rendered
        "popular": [p for p in boards if p.endswith("&page=1")][:40] + players[:40],
        "period board": periods,
        "match": matches,
        "player": players,
        "tournament": [f"/s/{big}/t/{e}" for e in events],
        "replay data": [f"/m/{t}/replay.json" for t in played],
        "static (peer)": ["/static/site.css"],
    }
    if args.only:
        mixes = {k: v for k, v in mixes.items() if k in args.only}
    ok = True
    if not args.skip_sqlite:
        ok = rounds(url, "SQLite", mixes, args)
    if args.database_url:
        with postgres_copy(args.database_url, path) as pg:
            ok = rounds(pg, "PostgreSQL", mixes, args) and ok
    return 0 if ok else 1


def rounds(url: str, title: str, mixes: dict[str, list[str]], args: argparse.Namespace) -> bool:
    """``measure`` ``--rounds`` times; with ``--against``, the other checkout's pages first
    in each round (titled "before"), then this one's ("now")."""
    ok = True
    codes: list[Path | None] = [None] if args.against is None else [args.against, None]
    for _ in range(args.rounds):
        for code in codes:
            named = title if args.against is None else f"{title} {'before' if code else 'now'}"
            good = measure(
                url, named, mixes, args.rate, args.seconds, args.breakdown, code, args.busy
            )
            ok = ok and (good or code is not None)
    return ok


@contextlib.contextmanager
def postgres_copy(url: str, path: Path) -> Any:
    """A PostgreSQL database holding what the SQLite file at ``path`` holds: ``url`` (empty)
    or a throw-away server's (``temp``) filled by copy now, or (``kept``) a server on a
    cluster kept beside the file, ``<file>.pg``, filled by copy once and used again while the
    file is the one it was copied from (brought up to date like the file)."""
    if url != "kept":
        with postgres_url(url) as pg:
            seconds = asyncio.run(copy_to(path, pg))
            print(f"copied to {redact_url(pg)} and analysed in {seconds:.0f} s")
            yield pg
        return
    root = path.with_name(path.name + ".pg")
    copied, source = root / COPIED, path.with_name(path.name + ".json").read_text()
    if not copied.is_file() or copied.read_text() != source:
        shutil.rmtree(root, ignore_errors=True)  # none, one cut short or of another file
    with kept_postgres(root) as pg:
        if copied.is_file():
            asyncio.run(_migrate(pg))
            print(f"the copy kept in {root}, up to date")
        else:
            seconds = asyncio.run(copy_to(path, pg))
            copied.write_text(source)
            print(f"copied to {root} and analysed in {seconds:.0f} s (kept for the next runs)")
        yield pg


if __name__ == "__main__":
    raise SystemExit(main())
