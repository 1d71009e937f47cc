"""The quick match's rule against a plain first-come-first-served queue, in one run.

``python -m benchmarks.queue [--people N] [--servers S] [--hours H] [--seed X]``: N people
(10,000) arrive over H hours (1) on S servers (1,000; a few busy servers and many quiet ones:
a Zipf law), each for a variant (partners 40 %, draw 25 %, any 20 %, all-fives 10 %, three
5 %), a rating (openskill ordinal, normal around 0, deviation 4) and one in five refusing
computers. Each server's queue is matched as the bot does it (``bot.queue.matching.plan`` at
each arrival, at each person's computers' time, 60 s, or expiry, 15 min, and when a rating
range has widened), once with our rule and once first come, first served (the same code with
no window and no rating range: the next people in line). Prints the time to be seated (p50,
p99), the rating gap at tables of two people or more (mean, p90), the tables filled by
computers and the places that expired; then the time of one matching of 1,000 people waiting
in one scope (the median of several runs). The simulation's clock is its own; only the last
figures are wall time.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import time
from dataclasses import dataclass, field

from bot.queue.matching import Waiting, match, plan
from bot.queue.service import SHAPES
from bot.queue.values import ANY, COMPUTERS_AFTER, EXPIRY

MIX = (("partners", 0.40), ("draw", 0.25), (ANY, 0.20), ("all-fives", 0.10), ("three", 0.05))
REFUSE = 0.2
SERVER_OF: dict[int, int] = {}  # person -> his server


@dataclass
class Result:
    """One rule's figures."""

    waits: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    tables: int = 0
    with_computers: int = 0
    expired: int = 0


def arrivals(people: int, servers: int, hours: float, rng: random.Random) -> list[Waiting]:
    weights = [1.0 / (rank + 1) for rank in range(servers)]
    variants, shares = zip(*MIX, strict=True)
    out = []
    for user in range(people):
        at = rng.uniform(0, hours * 3600)
        rating = rng.gauss(0, 4)
        SERVER_OF[user] = rng.choices(range(servers), weights)[0]
        out.append(Waiting(
            user_id=user,
            variant=rng.choices(variants, shares)[0],
            joined_at=at,
            fill_at=at + COMPUTERS_AFTER,
            computers=rng.random() >= REFUSE,
            ratings={f: rating for f in {s.family for s in SHAPES.values()}},
        ))
    return sorted(out, key=lambda w: w.joined_at)


def simulate(people: list[Waiting], slack: float, ranged: bool) -> Result:
    """Run every server's queue through the arrivals and the deadlines, in time order."""
    result = Result()
    queues: dict[int, list[Waiting]] = {}
    events: list[tuple[float, int, int]] = []  # (time, order, server)
    order = 0
    for w in people:
        heapq.heappush(events, (w.joined_at, order, -1 - w.user_id))  # an arrival
        order += 1
    by_id = {w.user_id: w for w in people}
    while events:
        now, _, what = heapq.heappop(events)
        if what < 0:
            w = by_id[-1 - what]
            server = SERVER_OF[w.user_id]
            queues.setdefault(server, []).append(w)
        else:
            server = what
        queue = queues.get(server, [])
        gone = [w for w in queue if w.joined_at + EXPIRY <= now]
        result.expired += len(gone)
        queue = [w for w in queue if w.joined_at + EXPIRY > now]
        made = plan(queue, now, SHAPES, default="partners", slack=slack, ranged=ranged)
        for table in made.tables:
            result.tables += 1
            seated = table.seated
            result.with_computers += table.level is not None
            for p in seated:
                result.waits.append(now - by_id[p].joined_at)
            if len(seated) > 1:
                result.gaps.append(table.gap)
            queue = [w for w in queue if w.user_id not in set(seated)]
        queues[server] = queue
        dues = [  # the scope's next deadline, as the clock holds it
            min(w.fill_at, w.joined_at + EXPIRY) if w.computers else w.joined_at + EXPIRY
            for w in queue
        ]
        later = [d for d in (*dues, made.retry_at or 0.0) if d > now]
        if later:
            heapq.heappush(events, (min(later), order, server))
            order += 1
    return result


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_matching(count: int, slack: float, rng: random.Random, runs: int = 7) -> float:
    """Median seconds of one matching of ``count`` people waiting in one scope."""
    variants, shares = zip(*MIX, strict=True)
    waiting = [
        Waiting(i, rng.choices(variants, shares)[0], rng.uniform(0, 600), 10_000.0,
                rng.random() >= REFUSE, {"partnership": rng.gauss(0, 4)})
        for i in range(count)
    ]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        match(waiting, 0.0, SHAPES, default="partners", slack=slack, ranged=slack > 0)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--servers", type=int, default=1_000)
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    people = arrivals(args.people, args.servers, args.hours, rng)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores")
    print(f"{args.people} people over {args.servers} servers in {args.hours:g} h "
          f"(computers after {COMPUTERS_AFTER} s, places kept {EXPIRY // 60} min)")
    print(f"{'rule':<10} {'seated':>7} {'wait p50':>9} {'wait p99':>9} {'gap mean':>9} "
          f"{'gap p90':>8} {'tables':>7} {'w/ comp':>8} {'expired':>8}")
    figures = {}
    for name, slack in (("ours", 1.0), ("fcfs", 0.0)):
        r = simulate(people, slack, ranged=slack > 0)
        figures[name] = r
        print(f"{name:<10} {len(r.waits):>7} {quantile(r.waits, 0.5):>8.1f}s "
              f"{quantile(r.waits, 0.99):>8.1f}s {statistics.fmean(r.gaps):>9.2f} "
              f"{quantile(r.gaps, 0.9):>8.2f} {r.tables:>7} {r.with_computers:>8} "
              f"{r.expired:>8}")
    ours, fcfs = figures["ours"], figures["fcfs"]
    print(f"rating gap at tables of people, ours / fcfs: "
          f"{statistics.fmean(ours.gaps) / statistics.fmean(fcfs.gaps):.2f} (mean), "
          f"{quantile(ours.gaps, 0.9) / quantile(fcfs.gaps, 0.9):.2f} (p90); "
          f"wait p99 ours / fcfs: {quantile(ours.waits, 0.99) / quantile(fcfs.waits, 0.99):.2f}")
    for name, slack in (("ours", 1.0), ("fcfs", 0.0)):
        seconds = time_matching(1_000, slack, random.Random(args.seed))
        print(f"one matching of 1,000 waiting people ({name}): {seconds * 1000:.1f} ms")
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
