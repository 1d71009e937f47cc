"""What a replay request costs, long matches included.

``python -m benchmarks.replay [--target 1000] [--seed 11] [--burst 8]``

Stores a long match (partners to 1000 with the bonuses, about 2,000 moves, played by the
``normal`` computer) in a throw-away SQLite database, then answers replay requests as
``/domino replay`` does (:func:`bot.tables.replay.plan`, the cache, the admission, the drawing off
the event loop) and prints, for each, the time from the request to the GIF or the refusal and
the process's peak memory (resident set) during it:

- the whole long match (shown as its first hand), a hand from its middle, its longest hand;
- the same request again (from the cache);
- a burst of ``--burst`` people asking for different hands at once (at most
  :data:`bot.tables.replay.AT_ONCE` drawn, the others refused at once);
- the same person again at once (his cooldown).

Target: every request answered within 3 s and under 200 MB of peak memory.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.errors import ServiceError
from bot.store import SeatRow, Store
from bot.tables import replay
from domino import Match, encode_action, preset
from domino.ai import choose

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
SECONDS = 3.0
MEGABYTES = 200


def long_match(target: int, seed: int) -> Match:
    """Partners to ``target`` with the bonuses, every move by the ``normal`` player."""
    m = Match.new(preset("partners", target=target, bonuses=True), seed)
    while m.outcome is None:
        seat = m.turn
        assert seat is not None
        m = m.apply(choose(m.view(seat), "normal"), seat)
    return m


async def store_match(store: Store, m: Match) -> int:
    """Write ``m`` as the bot does: table, seats, match, actions, hand results, and its
    outcome once it has one."""
    table = await store.tables.create(host_id=1, variant="partners", options={}, now=0.0)
    for seat in range(4):
        await store.seats.put(SeatRow(table.id, seat, None, NAMES[seat], "computer", "normal"))
    await store.matches.create(table.id, ruleset=m.ruleset.to_dict(), seed=int(m.seed),
                               now=0.0, deal=m.deal)
    for seq, (seat, action) in enumerate(m.history):
        await store.actions.append(table.id, seq, seat, encode_action(action), now=float(seq))
    for number, result in enumerate(m.hand_results, 1):
        await store.hand_results.add(table.id, number, {"winner_seat": result.winner_seat})
    if m.outcome is not None:
        await store.matches.finish(table.id, now=1.0, outcome=m.outcome.to_dict())
    return table.id


def reset_peak() -> None:
    """Start measuring the peak resident memory afresh (Linux)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def peak_mb() -> float:
    """The process's peak resident memory since :func:`reset_peak`, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def request(replays: replay.Replays, store: Store, table_id: int, user: int,
                  hand: int | None) -> tuple[str, float, int]:
    """One request as the command answers it: what came back, seconds, bytes."""
    started = time.perf_counter()
    try:
        wanted = await replay.plan(store, table_id, hand)
        shown = await asyncio.to_thread(replays.cached, wanted, NAMES, None)
        if shown is not None:
            return "cached GIF", time.perf_counter() - started, len(shown.gif)
        with replays.admit(user):
            shown = await replays.draw(wanted, NAMES, None)
        return f"GIF, {shown.moves} moves", time.perf_counter() - started, len(shown.gif)
    except ServiceError as exc:
        return f"refused: {exc.message}", time.perf_counter() - started, 0


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


async def run(target: int, seed: int, burst: int) -> bool:
    started = time.perf_counter()
    m = long_match(target, seed)
    hands = Counter()
    again = Match.new(m.ruleset, m.seed, m.deal)
    for seat, action in m.history:
        hands[again.hand_number] += 1
        again = again.apply(action, seat)
    longest = max(hands, key=lambda h: hands[h])
    print(f"long match: partners to {target} with bonuses, seed {seed}: {len(m.history)} moves,"
          f" {len(hands)} hands (longest: hand {longest}, {hands[longest]} moves);"
          f" played in {time.perf_counter() - started:.1f}s")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "replay.sqlite3")
        try:
            tid = await store_match(store, m)
            replays = replay.Replays(store)
            print(f"{'request':<44} {'answer':<56} {'seconds':>7} {'peak MB':>7}  load")

            async def one(label: str, user: int, hand: int | None) -> None:
                nonlocal ok
                reset_peak()
                before = load()
                what, seconds, size = await request(replays, store, tid, user, hand)
                peak = peak_mb()
                ok = ok and seconds <= SECONDS and peak <= MEGABYTES
                extra = f" ({size / 1e6:.1f} MB)" if size else ""
                print(f"{label:<44} {(what + extra)[:56]:<56} {seconds:>7.2f} {peak:>7.0f}"
                      f"  {before} -> {load()}", flush=True)

            await one("whole long match (no hand given)", 1, None)
            await one(f"a middle hand ({len(hands) // 2})", 2, len(hands) // 2)
            await one(f"its longest hand ({longest})", 3, longest)
            await one("the whole long match again", 4, None)
            await one("the first person again at once", 1, 2)

            reset_peak()
            before = load()
            t0 = time.perf_counter()
            results = await asyncio.gather(*(
                request(replays, store, tid, 100 + k, 1 + (k * 7) % len(hands))
                for k in range(burst)
            ))
            peak = peak_mb()
            slowest = max(s for _, s, _ in results)
            drawn = sum(1 for w, _, _ in results if w.startswith("GIF"))
            refused = sum(1 for w, _, _ in results if w.startswith("refused"))
            ok = ok and slowest <= SECONDS and peak <= MEGABYTES
            print(f"{f'{burst} people at once, different hands':<44}"
                  f" {f'{drawn} drawn, {refused} refused at once':<56}"
                  f" {slowest:>7.2f} {peak:>7.0f}  {before} -> {load()}"
                  f"  (all answered in {time.perf_counter() - t0:.2f}s)")
        finally:
            await store.close()
    print(f"every request answered within {SECONDS:g} s and under {MEGABYTES} MB peak:"
          f" {'met' if ok else 'NOT met'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replay", description=__doc__)
    parser.add_argument("--target", type=int, default=1000, choices=(500, 1000))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--burst", type=int, default=8)
    args = parser.parse_args(argv)
    asyncio.run(run(args.target, args.seed, args.burst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
