"""``python -m benchmarks.limits``: the cost of the limits and of finding a table by message.

Opens ``--tables`` lobbies through the real table service (SQLite in a temporary folder),
three per host, spread over ``--guilds`` servers, each with a lobby message, then times:

- the limits a ``/domino new`` checks (the host's tables and the server's, counted in the
  database inside a transaction, as the table service does);
- finding a deleted message's table by id (the index), against the scan it replaced: building
  every open table's snapshot and comparing its message ids.

Median of ``--repeat`` runs each; the ratio is scan / index.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from bot.errors import LimitReached
from bot.limits import Limits
from bot.store import Store
from bot.tables.service import TableService


async def _median(call: Callable[[int], Awaitable[object]], repeat: int) -> float:
    times = []
    for k in range(repeat):
        start = time.perf_counter()
        await call(k)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def run(tables: int, guilds: int, repeat: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            limits = Limits(cooldown=0, tables_per_server=tables)
            service = TableService(store, limits=limits)
            first = 10**17
            for i in range(tables):
                info = await service.create_table(
                    host_id=first + i // 3, host_name="p", variant="draw", guild_id=1 + i % guilds
                )
                await service.set_messages(info.id, lobby_message_id=first + i)

            async def check(k: int) -> None:
                host, guild = first + (k * 7919) % tables // 3, 1 + k % guilds
                async with store.transaction() as tx:
                    await tx.limits.lock([host], guild)
                    held = await tx.limits.held(host, guild)
                with contextlib.suppress(LimitReached):  # each host is at 3: refused
                    service.gate.check_open(host, guild, held)

            async def by_id(k: int) -> None:
                await service.table_by_message(first + (k * 7919) % tables)

            async def scan(k: int) -> None:
                wanted = first + (k * 7919) % tables
                for t in service.open_tables():
                    if wanted in (t.table.message_id, t.table.lobby_message_id):
                        break

            limit = await _median(check, repeat)
            index = await _median(by_id, repeat)
            scanned = await _median(scan, repeat)
        finally:
            await store.close()
    return [
        f"{tables:,} open lobbies on {guilds} servers",
        f"limits of /domino new: {limit * 1e3:.2f} ms",
        f"table of a deleted message: by id {index * 1e6:.1f} us,"
        f" scan {scanned * 1e3:.2f} ms, ratio {scanned / index:,.0f}x",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.limits", description=__doc__)
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--guilds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    for line in asyncio.run(run(args.tables, args.guilds, args.repeat)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
