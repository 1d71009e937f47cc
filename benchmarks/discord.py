"""``python -m benchmarks.discord``: what a whole match asks of Discord.

The real bot against the fake Discord (in this process, SQLite in a temporary folder) plays
whole matches of each variant of ``--variants`` (default ``partners``): one with every seat a
person's (``people``), one with one person and computers in the other seats (``one``; choose
with ``--flows``). People move as soon as their hand message offers the move; computers after
``--computer-delay`` seconds, so the feed sees each of their moves as at a real pace. Each run
prints, per move (people's and computers'), the bot-token requests by purpose, the interaction
requests, the 429s, and the requests per second over the match, and at the end the average per
flow against the targets (at most 1.0 bot-token request a move at all-people tables, 0.6 at a
table of one person and three computers; a table of one person and fewer computers is shown
without a target). Discord allows 50 bot-token requests a second for the whole application
(interaction callbacks and webhooks are not counted).
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
from typing import Any

from bot.traffic import BOT, INTERACTION
from domino import PRESETS
from tests.cogs.helpers import (
    button,
    factory,
    new_table,
    play_until_over,
    settle,
)
from tests.fakediscord import FakeDiscord, running_bot


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


TARGETS = {"people": 1.0, "one": 0.6}
#: How long a click's answer may take on a loaded machine.
WAIT = 60.0


async def _start_with_computers(fake: FakeDiscord, host: Any, lobby: Any) -> None:
    """The host presses Start, then "Start with computer players"."""
    start = await fake.click(host, lobby, button(lobby, "start"))
    (confirm,) = await start.wait_for_followups(1, timeout=WAIT)
    fill = await fake.click(host, confirm, button(confirm, "fill"))
    await fill.wait_for_edits(1, timeout=WAIT)


async def one_match(
    people: int, variant: str, target: int | None, folder: Path, delay: float
) -> tuple[str, float]:
    """Play one whole match; returns its line and the bot-token requests per move."""
    async with FakeDiscord() as fake:
        users = [fake.add_user(3001 + i, f"p{i}", f"P{i}") for i in range(people)]
        db = folder / f"{variant}-{people}.sqlite3"
        made = factory(fake, db, computer_delay=delay)
        async with running_bot(fake, made, ready_timeout=WAIT) as bot:
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
            if people < PRESETS[variant].seats:
                await _start_with_computers(fake, users[0], lobby)
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
    routes: dict[str, int] = {}
    for r, n in spent.items():
        if r.kind == BOT:
            key = f"{r.purpose}: {r.route}"
            routes[key] = routes.get(key, 0) + n
    kinds = ", ".join(
        f"{p} {n / moves:.2f}" for p, n in sorted(bot_by.items(), key=lambda x: -x[1])
    )
    where = "; ".join(f"{k} {n}" for k, n in sorted(routes.items(), key=lambda x: -x[1]))
    return (
        f"{variant}, {people} {'person' if people == 1 else 'people'}: {moves} moves"
        f" ({by_people} by people) in {seconds:.1f} s;"
        f" bot token {nbot} = {nbot / moves:.2f}/move ({kinds}); interaction {ninter} ="
        f" {ninter / moves:.2f}/move; {(nbot + ninter) / seconds:.1f} requests/s"
        f" ({nbot / seconds:.1f} bot-token/s); 429s {limited} ({load()})\n  bot-token"
        f" requests by purpose and route: {where}"
    ), nbot / moves


#: The computers at a table of one person that the ``one`` target is for.
TARGET_COMPUTERS = 3


async def run(target: int, variants: list[str], flows: list[str], delay: float) -> None:
    spent: dict[str, list[float]] = {flow: [] for flow in flows}
    untargeted: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for variant in variants:
            points = target if variant == "partners" else None
            for flow in flows:
                people = PRESETS[variant].people if flow == "people" else 1
                line, per_move = await one_match(people, variant, points, Path(folder), delay)
                computers = PRESETS[variant].seats - people
                if flow == "one" and computers != TARGET_COMPUTERS:
                    untargeted.append(f"{variant} {per_move:.2f}")
                else:
                    spent[flow].append(per_move)
                print(line, flush=True)
    for flow, figures in spent.items():
        if figures:
            mean = sum(figures) / len(figures)
            worst = max(figures)
            verdict = "within" if worst <= TARGETS[flow] else "OVER"
            whom = "all people" if flow == "people" else "one person, three computers"
            print(
                f"{flow} ({whom}): bot-token requests per move, mean {mean:.2f}, worst"
                f" {worst:.2f} (target {TARGETS[flow]:.1f}: {verdict}) ({load()})"
            )
    if untargeted:
        print(f"one person and fewer computers (no target): {', '.join(untargeted)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.discord", description=__doc__)
    parser.add_argument("--target", type=int, default=50, help="partners: points to win (50)")
    parser.add_argument(
        "--variants",
        default="partners",
        help="one person and computers play each of these (comma-separated; partners)",
    )
    parser.add_argument(
        "--flows",
        default="people,one",
        help="people: every seat a person's; one: one person and computers (people,one)",
    )
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=0.3,
        help="seconds a computer waits before its move (0.3)",
    )
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    flows = [f for f in args.flows.split(",") if f]
    for name in variants:
        if name not in PRESETS:
            parser.error(f"unknown variant {name!r}; known: {', '.join(PRESETS)}")
    for flow in flows:
        if flow not in TARGETS:
            parser.error(f"unknown flow {flow!r}; known: {', '.join(TARGETS)}")
    print(f"before: {load()}")
    asyncio.run(run(args.target, variants, flows, args.computer_delay))
    return 0


if __name__ == "__main__":
    sys.exit(main())
