"""Rendering speed: the table picture of long lines, against PNG encoding alone.

Run: ``python -m benchmarks.render``. Prints, for a full ``partners`` block and a long
``cuban`` line: the median time to draw and encode the table picture, the median time to
PNG-encode the same finished image alone, their ratio (target <= 2.0) and the PNG size
(target <= 200 KB). Then the animated replay (GIF, one frame per move) of one long hand and
of a whole match: seconds to build (target for a hand < 2 s), size (target < 8 MB), and the
time per frame against drawing the same frames as PNGs.
"""

from __future__ import annotations

import random
import statistics
import time

from domino import Match, View, preset
from render.replay import render_replay
from render.table import draw_table, encode, render_table

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def longest_end(pid: str, want: str | None, tries: int = 400) -> View:
    """The public view right after the longest first hand found (a block if ``want``)."""
    best: tuple[int, View] | None = None
    for seed in range(tries):
        rng = random.Random(seed)
        m = Match.new(preset(pid, target=200), seed)
        while m.hand_number == 1:
            m = m.apply(rng.choice(m.legal_actions()))
        result = m.hand_results[0]
        if want and result.kind != want:
            continue
        if best is None or len(result.line) > best[0]:
            best = (len(result.line), m.public_view())
    assert best is not None
    return best[1]


def median_ms(fn: object, repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    cases = {"partners block": longest_end("partners", "block"),
             "cuban long line": longest_end("cuban", None)}
    print(f"{'case':<16} {'tiles':>5} {'render+encode ms':>17} {'encode ms':>10} "
          f"{'ratio':>6} {'PNG KB':>7}")
    for name, view in cases.items():
        render_table(view, NAMES)  # warm the caches (fonts, tile faces)
        image = draw_table(view, NAMES)
        full = median_ms(lambda v=view: render_table(v, NAMES))
        alone = median_ms(lambda i=image: encode(i))
        size = len(render_table(view, NAMES)) / 1024
        tiles = len(view.previous.line) if view.previous else len(view.line)
        print(f"{name:<16} {tiles:>5} {full:>17.1f} {alone:>10.1f} {full / alone:>6.2f} "
              f"{size:>7.1f}")
    replays()


def played(pid: str, seed: int) -> tuple[list[View], list[View]]:
    """The public view after every move of a seeded match: its first hand, and all of it."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    views: list[View] = []
    first: list[View] = []
    while m.outcome is None:
        hand = m.hand_number
        m = m.apply(rng.choice(m.legal_actions()))
        views.append(m.public_view())
        if hand == 1 and m.hand_number == 2:
            first = list(views)
    return first or views, views


def replays() -> None:
    hand, match = played("cuban", 3)
    print(f"\n{'replay':<16} {'frames':>6} {'seconds':>8} {'MB':>6} {'ms/frame':>9} "
          f"{'PNG ms/frame':>13}")
    for name, views in (("cuban hand", hand), ("cuban match", match)):
        start = time.perf_counter()
        gif = render_replay(views, NAMES)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        for view in views:
            render_table(view, NAMES)
        png = (time.perf_counter() - start) / len(views) * 1000
        print(f"{name:<16} {len(views):>6} {seconds:>8.2f} {len(gif) / 1e6:>6.2f} "
              f"{seconds / len(views) * 1000:>9.1f} {png:>13.1f}")


if __name__ == "__main__":
    main()
