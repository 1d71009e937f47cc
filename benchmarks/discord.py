"""``python -m benchmarks.discord``: what a whole match asks of Discord.

The real bot against the fake Discord (in this process, SQLite in a temporary folder) plays
whole matches: four people (``partners``), then one person and computers (``--variants``: a
list of variants, one match each; default ``partners``). Each run
prints, per move (people's and computers'), the bot-token requests by purpose, the interaction
requests, the 429s, and the requests per second over the match. Discord allows 50 bot-token
requests a second for the whole application (interactions are not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bot.traffic import BOT, INTERACTION
from tests.cogs.helpers import (
    button,
    factory,
    new_table,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


async def one_match(people: int, variant: str, target: int | None, folder: Path) -> str:
    async with FakeDiscord() as fake:
        users = [fake.add_user(3001 + i, f"p{i}", f"P{i}") for i in range(people)]
        db = folder / f"{variant}-{people}.sqlite3"
        async with running_bot(fake, factory(fake, db)) as bot:
            before = bot.traffic.snapshot()
            started = time.perf_counter()
            options = (
                {"variant": variant} if target is None else {"variant": variant, "target": target}
            )
            result, tid = await new_table(fake, bot, users[0], **options)
            lobby = result.message
            assert lobby is not None
            for user in users[1:]:
                await fake.click(user, lobby, button(lobby, "join"))
                await fake.wait_for(lambda u=user: f"<@{u.id}>" in lobby.text())
            if people < 4:
                await start_with_computers(fake, bot, users[0], lobby)
            else:
                await fake.click(users[0], lobby, button(lobby, "start"))
            by_people = await play_until_over(fake, bot, tid, users)
            await settle(bot)
            seconds = time.perf_counter() - started
            moves = (await bot.svc.get(tid)).seq
            traffic = bot.traffic
            spent = traffic.snapshot() - before
    bot_by: dict[str, int] = {}
    for r, n in spent.items():
        if r.kind == BOT:
            bot_by[r.purpose] = bot_by.get(r.purpose, 0) + n
    nbot = sum(bot_by.values())
    ninter = sum(n for r, n in spent.items() if r.kind == INTERACTION)
    limited = sum(n for r, n in spent.items() if r.status == 429)
    kinds = ", ".join(
        f"{p} {n / moves:.2f}" for p, n in sorted(bot_by.items(), key=lambda x: -x[1])
    )
    return (
        f"{variant}, {people} {'person' if people == 1 else 'people'}: {moves} moves"
        f" ({by_people} by people) in {seconds:.1f} s;"
        f" bot token {nbot} = {nbot / moves:.2f}/move ({kinds}); interaction {ninter} ="
        f" {ninter / moves:.2f}/move; {(nbot + ninter) / seconds:.1f} requests/s"
        f" ({nbot / seconds:.1f} bot-token/s); 429s {limited} ({load()})"
    )


async def run(target: int, variants: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(await one_match(4, "partners", target, Path(folder)), flush=True)
        for variant in variants:
            points = target if variant == "partners" else None
            print(await one_match(1, variant, points, Path(folder)), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.discord", description=__doc__)
    parser.add_argument("--target", type=int, default=50, help="partners: points to win (50)")
    parser.add_argument(
        "--variants",
        default="partners",
        help="one person and computers play each of these (comma-separated; partners)",
    )
    args = parser.parse_args(argv)
    print(f"before: {load()}")
    asyncio.run(run(args.target, [v for v in args.variants.split(",") if v]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
