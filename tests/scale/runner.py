"""``python -m tests.scale.runner``: the real bot as an OS process of its own, against a fake
Discord that runs in the test's process.

The settings come from the environment as for ``python -m bot`` (``DATABASE_URL``,
``SHARD_COUNT``, ``SHARD_IDS``, ``DISCORD_TOKEN`` …). ``FAKE_DISCORD_URL`` (``http://host:port``)
points discord.py's REST base and gateway at the fake, as ``tests.fakediscord`` does in-process;
``LEASE_TTL`` sets short leases; computers move after ``COMPUTER_DELAY`` seconds (``AI_BUDGET``:
seconds of search of each of their moves). The process
prints ``ready`` on its standard output once Discord's READY came and every table it holds is
loaded, then runs until it is killed or stopped (SIGTERM closes it cleanly). Computers answer
at once (no human-like pace). ``TIME_SCALE`` makes the table service's clock run that many
times faster than real time from the process's start on (turn timers run out within
the clock's poll, half a second); ``CLOCK_START`` (Unix time) sets where that clock starts.
``TIME_ORIGIN`` (Unix time) instead: the clock runs fast from that instant on, so the processes
of one test share one time line (a deadline one stored falls due for the next at the same
instant). ``CLOCK_HOLD`` (Unix time) instead: the clock stands at that time until the process
is ready, then runs fast (a test's restart that takes up the time where the killed process
left it: the seconds a new process needs to start cost no minutes of the fast clock); the
process prints ``clock <Unix time>`` when it lets the clock go. ``CLOCK_POLL`` bounds the
clock's sleeps (seconds; with a fast clock, a short poll lets deadlines fall due on time).
``TOURNAMENT_TURN_TIMER`` sets the turn timer of tournament tables (seconds, 30 or more),
``TOURNAMENT_CHECKIN`` how long a round's check-in lasts (seconds of the bot's clock).
``QUICK_IDENTIFY`` set: a session that is not the process's first identifies at once (the
fake Discord has no five-second identify limit to honour). SIGUSR1 prints every asyncio task's
stack to the log (a test that finds the bot stuck asks for it before it prints the logs).
``LOAD_RATE`` posts a second for ``LOAD_SECONDS``, once ready, each to the next of the channels
``LOAD_CHANNELS`` (comma-separated ids) as a board would (``load <LOAD_NAME> <n>``; one refused
is sent again): demand on the bot's budget beside its tables'; the process prints ``load done``
once every post went.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import signal
import sys
import time
from collections.abc import Callable

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.client import DominoBot
from bot.log import setup_logging
from bot.settings import load_settings
from bot.tables.computer import Pace
from bot.traffic import purpose


class RunnerBot(DominoBot):
    """The real bot; quick computers and a short pause between hands; says when it is ready."""

    held: HeldClock | None = None
    load: asyncio.Task[None] | None = None

    async def on_ready(self) -> None:
        if self.held is not None:
            print(f"clock {self.held.release()!r}", flush=True)
        print("ready", flush=True)
        if "LOAD_RATE" in os.environ and self.load is None:
            self.load = asyncio.create_task(self.post_load(), name="load")

    async def post_load(self) -> None:
        """``LOAD_RATE`` posts a second for ``LOAD_SECONDS`` (boards' priority), every one
        sent."""
        rate, seconds = float(os.environ["LOAD_RATE"]), float(os.environ["LOAD_SECONDS"])
        channels = [int(c) for c in os.environ["LOAD_CHANNELS"].split(",")]
        name = os.environ.get("LOAD_NAME", "")
        loop = asyncio.get_running_loop()
        start = loop.time()

        async def post(n: int) -> None:
            channel = self.get_partial_messageable(channels[n % len(channels)])
            while True:
                try:
                    await channel.send(f"load {name} {n}")
                    return
                except discord.HTTPException:
                    await asyncio.sleep(1.0)

        posts = []
        with purpose("board"):
            for n in range(round(rate * seconds)):
                await asyncio.sleep(max(0.0, start + n / rate - loop.time()))
                posts.append(asyncio.ensure_future(post(n)))
        await asyncio.gather(*posts)
        print("load done", flush=True)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not os.environ.get("QUICK_IDENTIFY"):
            await super().before_identify_hook(shard_id, initial=initial)

    async def setup_hook(self) -> None:
        await super().setup_hook()
        if "CLOCK_POLL" in os.environ and self.service is not None:
            self.service.scheduler.poll = float(os.environ["CLOCK_POLL"])


def patch_discord(url: str) -> None:
    Route.BASE = f"{url}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http", "ws", 1) + "/gateway")


FAST_PACE = Pace(median=0.04, spread=0.2, low=0.02, high=0.08)


def scaled_clock(scale: float, at: float | None = None) -> Callable[[], float]:
    """Unix time that runs ``scale`` times faster from now on (stored deadlines stay valid),
    starting at ``at`` (now if None)."""
    start = time.time()
    origin = start if at is None else at
    return lambda: origin + (time.time() - start) * scale


class HeldClock:
    """Unix time that stands at ``at`` until :meth:`release`, then runs ``scale`` times
    faster."""

    def __init__(self, scale: float, at: float) -> None:
        self.scale, self.at = scale, at
        self.since: float | None = None

    def __call__(self) -> float:
        if self.since is None:
            return self.at
        return self.at + (time.time() - self.since) * self.scale

    def release(self) -> float:
        """Let the clock run (once); the real time it began to."""
        if self.since is None:
            self.since = time.time()
        return self.since


def shared_clock(scale: float, origin: float) -> Callable[[], float]:
    """Unix time that has run ``scale`` times faster since ``origin``: every process given the
    same origin reads the same time."""
    return lambda: origin + (time.time() - origin) * scale


def dump_tasks() -> None:
    """Print every asyncio task and where it waits (to standard error: the process's log)."""
    out = io.StringIO()
    tasks = asyncio.all_tasks()
    out.write(f"--- {len(tasks)} asyncio task(s) at {time.time():.3f} ---\n")
    for task in sorted(tasks, key=lambda t: t.get_name()):
        task.print_stack(limit=12, file=out)
    sys.stderr.write(out.getvalue())
    sys.stderr.flush()


async def main() -> int:
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, dump_tasks)
    patch_discord(os.environ["FAKE_DISCORD_URL"])
    settings = load_settings(None)
    setup_logging(settings.log_level)
    seeds = itertools.count(int(os.environ.get("SEED", "11")))
    scale = float(os.environ.get("TIME_SCALE", "1"))
    held = HeldClock(scale, float(os.environ["CLOCK_HOLD"])) if "CLOCK_HOLD" in os.environ else None
    clock: Callable[[], float]
    if held is not None:
        clock = held
    elif "TIME_ORIGIN" in os.environ:
        clock = shared_clock(scale, float(os.environ["TIME_ORIGIN"]))
    else:
        start = os.environ.get("CLOCK_START")
        clock = scaled_clock(scale, None if start is None else float(start))
    bot = RunnerBot(
        settings,
        service_options={
            "seed_source": lambda: next(seeds),
            "clock": clock,
            "computer_delay": float(os.environ.get("COMPUTER_DELAY", "0.05")),
            # Answer at once, not at a human pace; with a fast clock, in a few hundredths of a
            # second of real time (the hands still last long enough to be shown move by move).
            "computer_pace": None if scale == 1 else FAST_PACE,
            "hand_pause": float(os.environ.get("HAND_PAUSE", "0.05")),
            "ai_level": "easy",
            **({"ai_budget": float(os.environ["AI_BUDGET"])} if "AI_BUDGET" in os.environ else {}),
        },
        lease_ttl=float(os.environ["LEASE_TTL"]) if "LEASE_TTL" in os.environ else None,
    )
    bot.held = held
    options: dict[str, float] = {}
    if "TOURNAMENT_TURN_TIMER" in os.environ:
        options["turn_timer"] = int(os.environ["TOURNAMENT_TURN_TIMER"])
    if "TOURNAMENT_CHECKIN" in os.environ:
        options["checkin_before"] = float(os.environ["TOURNAMENT_CHECKIN"])
    if options:
        bot.tournament_options = options
    bot._connection.guild_ready_timeout = 0.05
    bot.stop_on_sigterm = True
    async with bot:
        await bot.start(settings.token())
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
