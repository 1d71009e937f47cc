"""What a match review costs, and whether its judgement holds.

``python -m benchmarks.review [--seed 1] [--workers 2] [--hands 200] [--quality-workers 2]``

1. **Cost.** Stores a finished 4-hand partners match (every move by the ``normal`` computer;
   seat 0 stands for the person asking, his tiles that fit one end only stored without their
   end, as their buttons send them) in a throw-away SQLite database, starts the computers'
   process pool with ``--workers`` processes and asks for seat 0's review as ``/domino
   review`` does (:meth:`bot.review.Reviews.review`: checks, judging each decision in the
   pool, storing it), then asks again (from the store). Prints the decisions judged against
   seat 0's real choices (turns with two or more legal moves, counted from the engine), the
   time per decision, the total, and the peak resident memory of this process and of the
   pool's processes. Targets: every real choice judged; under 30 s on 2 cores, under 300 MB.
2. **Quality.** Plays ``--hands`` seeded hands of partners, ``easy`` (seats 0 and 2) against
   ``expert`` (seats 1 and 3, held to :data:`~domino.ai.evaluate.REVIEW_ITERATIONS`
   iterations a move so that the run is deterministic), and judges every decision with a
   choice of every seat as a review does. Prints per side the decisions judged, the flagged
   ones (an inaccuracy or worse) per hand and the mean cost per decision; and how often the
   review's best move is the one the same search (same seed) picks when run 4x longer.
   Targets: ``easy`` flagged more and costlier than ``expert``; agreement at least 80%.

Every line carries the machine's load averages (``uptime``): the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.replay import peak_mb, reset_peak
from bot.review import Reviews
from bot.review.judge import INACCURACY
from bot.store import SeatRow, Store
from bot.tables import computer
from domino import Action, Match, Play, encode_action, preset
from domino.ai import choose
from domino.ai.evaluate import REVIEW_ITERATIONS, evaluate

SECONDS = 30.0
MEGABYTES = 300.0
AGREEMENT = 0.8
NAMES = ["Ana", "Bruno", "Carla", "Diego"]
ASKER = 1


def load() -> str:
    """The load averages, as ``uptime`` shows them."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def four_hands(seed: int) -> Match:
    """The first partners match (to 100) from ``seed`` on that lasts exactly 4 hands, every
    move by ``normal``."""
    while True:
        m = Match.new(preset("partners"), seed)
        while m.outcome is None:
            seat = m.turn
            assert seat is not None
            m = m.apply(choose(m.view(seat), "normal"), seat)
        if len(m.hand_results) == 4:
            return m
        seed += 1


def replayed(m: Match) -> list[Match]:
    """The match before each move of ``m``'s history."""
    out = []
    now = Match.new(m.ruleset, m.seed)
    for seat, action in m.history:
        out.append(now)
        now = now.apply(action, seat)
    return out


def as_sent(action: Action, before: Match) -> Action:
    """``action`` as a button sends it: a tile with one legal end, without its end."""
    if not isinstance(action, Play):
        return action
    same = [a for a in before.legal_actions() if isinstance(a, Play) and a.tile == action.tile]
    return Play(action.tile, None) if len(same) == 1 else action


def real_choices(m: Match, seat: int) -> int:
    """The turns of ``seat`` with two or more distinct legal moves, from the engine."""
    return sum(1 for (who, _), before in zip(m.history, replayed(m), strict=True)
               if who == seat and len(set(before.legal_actions())) >= 2)


async def store_match(store: Store, m: Match) -> int:
    """``m`` stored as the bot stores a finished match; seat 0 is person :data:`ASKER`."""
    table = await store.tables.create(host_id=ASKER, variant="partners", options={}, now=0.0)
    for seat in range(4):
        user = ASKER if seat == 0 else None
        kind = "human" if seat == 0 else "computer"
        await store.seats.put(SeatRow(table.id, seat, user, NAMES[seat], kind,
                                      None if seat == 0 else "normal"))
    await store.matches.create(table.id, ruleset=m.ruleset.to_dict(), seed=int(m.seed),
                               now=0.0, deal=m.deal)
    befores = replayed(m)
    for seq, (seat, action) in enumerate(m.history):
        made_by = "player" if seat == 0 else "computer"
        await store.actions.append(table.id, seq, seat,
                                   encode_action(as_sent(action, befores[seq])),
                                   now=float(seq), made_by=made_by)
    for number, result in enumerate(m.hand_results, 1):
        await store.hand_results.add(table.id, number, {"winner_seat": result.winner_seat})
    assert m.outcome is not None
    await store.matches.finish(table.id, now=1.0, outcome=m.outcome.to_dict())
    await store.tables.set_status(table.id, "finished", now=1.0)
    return table.id


def pool_peaks(pool: Any) -> list[float]:
    """Peak resident memory (MB) of each process of a ``ProcessPoolExecutor``."""
    out = []
    for pid in list(getattr(pool, "_processes", {}) or {}):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    out.append(int(line.split()[1]) / 1024)
        except OSError:
            pass
    return out


async def cost(seed: int, workers: int, iterations: int = REVIEW_ITERATIONS) -> bool:
    m = four_hands(seed)
    print(f"match: partners to 100, seed {m.seed}, {len(m.history)} moves, 4 hands; "
          f"{workers} pool processes; {iterations} iterations a decision; {load()}")
    pool = computer.use_processes(workers)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = await Store.open(Path(tmp) / "review.sqlite3")
            try:
                tid = await store_match(store, m)
                reviews = Reviews(store, iterations=iterations)
                reset_peak()
                before = load()
                started = time.perf_counter()
                review = await reviews.review(tid, ASKER)
                total = time.perf_counter() - started
                mine = peak_mb()
                workers_mb = pool_peaks(pool)
                count = len(review.decisions)
                choices = real_choices(m, 0)
                print(f"judged: {count} decisions of seat 0's {choices} real choices "
                      f"in {total:.2f} s ({total / max(count, 1) * 1000:.0f} ms a decision); "
                      f"{before} -> {load()}")
                peak = mine + sum(workers_mb)
                print(f"peak memory: this process {mine:.0f} MB, pool processes "
                      f"{', '.join(f'{x:.0f}' for x in workers_mb)} MB; {peak:.0f} MB in all")
                for hand in review.hands:
                    grades = review.grades(hand)
                    print(f"  hand {hand}: {len(review.of_hand(hand))} decisions, "
                          + ", ".join(f"{n} {g}" for g, n in grades.items()))
                started = time.perf_counter()
                await reviews.review(tid, ASKER)
                print(f"asked again: {time.perf_counter() - started:.3f} s (from the store)")
                ok = total <= SECONDS and peak <= MEGABYTES and count == choices
                print(f"target: every real choice, under {SECONDS:.0f} s and {MEGABYTES:.0f} MB: "
                      f"{'met' if ok else 'MISSED'}")
                return ok
            finally:
                await store.close()
    finally:
        await computer.shut_pool()


def judge_hand(seed: int, iterations: int = REVIEW_ITERATIONS) -> list[tuple[int, float, bool]]:
    """One seeded hand of partners, easy (side 0) against expert (side 1): for each decision
    with a choice, (side, cost, whether the review's best agrees with a 4x longer search)."""
    rs = preset("partners")
    m = Match.new(rs, 10_000 + seed)
    out = []
    count = 0
    while m.outcome is None and m.hand_number == 1:
        seat = m.turn
        assert seat is not None
        view = m.view(seat)
        side = rs.side_of(seat)
        if side == 0:
            action = choose(view, "easy", rng=random.Random(f"{seed}/{count}"))
        else:
            action = choose(view, "expert", rng=random.Random(f"{seed}/{count}"),
                            samples=REVIEW_ITERATIONS)
        if len(view.legal) > 1:
            rng_key = f"review/{seed}/{count}"
            judged = evaluate(view, random.Random(rng_key), iterations)
            longer = evaluate(view, random.Random(rng_key), 4 * iterations)  # run on
            out.append((side, judged.cost(action), judged.best == longer.best))
        m = m.apply(action, seat)
        count += 1
    return out


def quality(hands: int, workers: int, iterations: int = REVIEW_ITERATIONS) -> bool:
    print(f"quality: {hands} hands of partners, easy (side 0) against expert (side 1), "
          f"{iterations} iterations a decision, {workers} processes; {load()}")
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(judge_hand, range(hands), [iterations] * hands))
    seconds = time.perf_counter() - started
    rows = [r for hand in results for r in hand]
    ok = True
    figures = {}
    for side, name in ((0, "easy"), (1, "expert")):
        costs = [c for s, c, _ in rows if s == side]
        flagged = sum(1 for c in costs if c >= INACCURACY)
        mean = sum(costs) / len(costs) if costs else 0.0
        figures[name] = (flagged / hands, mean)
        print(f"  {name:<6}: {len(costs)} decisions judged, {flagged / hands:.2f} flagged a hand,"
              f" mean cost {mean:.2f} points a decision")
    agree = sum(1 for _, _, a in rows if a) / len(rows) if rows else 0.0
    print(f"  the review's best move agrees with a 4x longer search: {agree:.1%} "
          f"of {len(rows)} decisions")
    ok = (figures["easy"][0] > figures["expert"][0] and figures["easy"][1] > figures["expert"][1]
          and agree >= AGREEMENT)
    print(f"  {seconds:.0f} s; {load()}; targets (easy flagged more and costlier, agreement "
          f">= {AGREEMENT:.0%}): {'met' if ok else 'MISSED'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hands", type=int, default=200, help="0: skip the quality check")
    parser.add_argument("--quality-workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS,
                        help="tree-search iterations a decision (the review's own by default)")
    args = parser.parse_args(argv)
    ok = asyncio.run(cost(args.seed, args.workers, args.iterations))
    if args.hands:
        ok = quality(args.hands, args.quality_workers, args.iterations) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
