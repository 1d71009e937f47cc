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
- match pages: recorded matches of the biggest server (the played ones among them);
- the replay's data of the played matches, for reference (not in the target).

Prints p50/p99/max latency and the throughput reached, each page's weight (the HTML with the
style sheet and the script, before the replay's data), the CPU time the pages' process spent
per request (what the machine's other work cannot inflate much) and the machine's load.
Target: p99 under 50 ms, pages under 100 KB. With ``--database-url postgresql://…`` (an empty
database; ``temp``: a throw-away server) the same data is copied there and measured again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.bot import postgres_url
from benchmarks.records import _migrate, copy_to, fill
from bot.records.record import BUCKETS
from bot.records.service import Records
from bot.server_settings import ServerSettings
from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_url
from bot.store import Store
from bot.tables.service import TableService

TARGET_MS = 50.0
MAX_WEIGHT = 100_000


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(url: str) -> Any:
    """``python -m bot web`` on the database at ``url``; yields its base address."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "WEB_PORT": str(port),
        "WEB_RATE_LIMIT": "0",
        "LOG_LEVEL": "WARNING",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--env-file", os.devnull, "web"], env=env
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.05)
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(30)


async def steady(
    base: str, paths: list[str], rate: float, seconds: float
) -> tuple[list[float], int, float]:
    """Requests at ``rate`` a second for ``seconds`` (open loop); latencies in ms, failures,
    and the seconds it took."""
    times: list[float] = []
    failed = 0
    total = int(rate * seconds)
    timeout = aiohttp.ClientTimeout(total=30)
    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        for path in paths[:20]:  # warm up: templates, statements, the first replays
            async with session.get(base + path) as r:
                await r.read()
        loop = asyncio.get_running_loop()
        start = loop.time()

        async def one(i: int) -> None:
            nonlocal failed
            due = start + i / rate
            await asyncio.sleep(max(0.0, due - loop.time()))
            try:
                async with session.get(base + paths[i % len(paths)]) as r:
                    await r.read()
                    if r.status != 200:
                        failed += 1
            except (aiohttp.ClientError, TimeoutError):
                failed += 1
            times.append((loop.time() - due) * 1000)

        await asyncio.gather(*(one(i) for i in range(total)))
        took = loop.time() - start
    return sorted(times), failed, took


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


async def weights(base: str, paths: dict[str, str]) -> dict[str, int]:
    async with aiohttp.ClientSession() as session:
        static = 0
        for name in ("site.css", "replay.js"):
            async with session.get(f"{base}/static/{name}") as r:
                static += len(await r.read())
        found = {}
        for kind, path in paths.items():
            async with session.get(base + path) as r:
                found[kind] = len(await r.read()) + static
        return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(url: str, title: str, mixes: dict[str, list[str]], rate: float, seconds: float) -> bool:
    ok = True
    with server(url) as (base, pid):
        sizes = asyncio.run(weights(base, {k: v[0] for k, v in mixes.items()}))
        for kind, paths in mixes.items():
            cpu = cpu_seconds(pid)
            times, failed, took = asyncio.run(steady(base, paths, rate, seconds))
            per_request = (cpu_seconds(pid) - cpu) * 1000 / max(1, len(times))
            p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
            target = kind != "replay data"
            verdict = ""
            if target:
                good = p99 < TARGET_MS and sizes[kind] < MAX_WEIGHT and not failed
                ok = ok and good
                verdict = "  ok" if good else "  OVER TARGET"
            print(
                f"{title:10} {kind:12} {len(times):5} requests in {took:5.1f} s"
                f" ({len(times) / took:5.0f}/s): p50 {p50:6.1f} ms, p99 {p99:6.1f} ms,"
                f" max {times[-1]:6.1f} ms, {failed} failed; {sizes[kind] / 1000:5.1f} KB;"
                f" the server's CPU {per_request:.1f} ms a request{verdict}  (load {load()})"
            )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__)
    parser.add_argument("--players", type=int, default=100_000, help="people (100,000)")
    parser.add_argument("--matches", type=int, default=1_000_000, help="matches (1,000,000)")
    parser.add_argument("--guilds", type=int, default=300, help="servers (300)")
    parser.add_argument("--played", type=int, default=10, help="matches played move by move")
    parser.add_argument("--rate", type=float, default=200.0, help="requests a second (200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="per kind of page (20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="database file (a temporary one)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="also on this empty PostgreSQL database (temp: a throw-away server)",
    )
    args = parser.parse_args(argv)
    if args.database_url and args.database_url != "temp" and not args.database_url.startswith(
        POSTGRES_SCHEMES
    ):
        print("--database-url must be a postgresql:// URL", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="web-bench-") as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "web.sqlite3"
        start = time.perf_counter()
        asyncio.run(_migrate(path))
        info = fill(path, args.players, args.matches, args.guilds, args.seed)
        big, mid = info["big_guild"], info["mid_guild"]
        played = asyncio.run(play(path, big, args.played))
        url = sqlite_url(path)
        asyncio.run(turn_on(url, [big, mid]))
        print(
            f"built in {time.perf_counter() - start:.0f} s: {args.players:,} players,"
            f" {info['counts']['record_matches']:,} matches over {args.guilds} servers"
            f" (pages on for {info['big_guild_players']:,} and {info['mid_guild_players']:,}"
            f" players), {args.played} matches played move by move;"
            f" {path.stat().st_size / 2**20:,.0f} MiB"
        )
        recorded = asyncio.run(match_ids(url, big, 5000))
        boards = [
            f"/s/{g}?board={b}&by={by}&page={p}"
            for g in (big, mid)
            for b in BUCKETS
            for by in ("rating", "wins")
            for p in range(1, 21)
        ]
        rng.shuffle(boards)
        matches = [f"/m/{t}" for t in played] + [f"/m/{t}" for t in rng.sample(recorded, 2000)]
        rng.shuffle(matches)
        mixes = {
            "leaderboard": boards,
            "match": matches,
            "replay data": [f"/m/{t}/replay.json" for t in played],
        }
        ok = measure(url, "SQLite", mixes, args.rate, args.seconds)
        if args.database_url:
            with postgres_url(args.database_url) as pg:
                seconds = asyncio.run(copy_to(path, pg))
                print(f"copied to {redact_url(pg)} and analysed in {seconds:.0f} s")
                ok = measure(pg, "PostgreSQL", mixes, args.rate, args.seconds) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
