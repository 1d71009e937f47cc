"""Rendering speed: the table picture over whole matches, and of long lines against encoding.

Run: ``python -m benchmarks.render [--against DIR] [--matches N]``. Prints the machine's load,
then:

- per variant, the mean CPU time per table picture (1,024 px) over ``N`` whole random matches,
  every picture a player would see (target <= 2 ms): each side in a fresh process, after the
  warm-up the bot does at start-up (:func:`render.warm_up`), and again from nothing; with
  ``--against DIR`` (another checkout, e.g. ``git worktree add --detach DIR <commit>``) the
  same matches are drawn by that code in turn, in the same run, and the ratio printed;
- for a full ``partners`` block and a long ``cuban`` line: the median time to draw and encode
  the table picture as a move does (reusing what earlier pictures drew), to draw and encode it
  whole (:func:`render.table.redraw`), to PNG-encode the finished image alone, the ratio of
  the first to the last (target <= 2.0) and the PNG size (target <= 200 KB);
- the encoder's choices (library, compression level, strategy) on the bands of whole matches'
  pictures: CPU ms to compress a whole picture's bands and its mean size, the one in use marked;
- the animated replay (GIF, one frame per move) of one long hand and of a whole match:
  seconds to build (target for a hand < 2 s), size (target < 8 MB), and the time per frame
  against drawing the same frames as PNGs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

from zlib_ng import zlib_ng

from domino import PRESETS, Match, View, preset
from render import png
from render.replay import MAX_BYTES, render_replay
from render.table import band_rows, draw_table, encode, redraw, render_table

NAMES = ["Ana", "Bruno", "Carla", "Diego"]

#: Run in a fresh interpreter with a checkout on its path: the mean CPU ms per picture.
PER_MATCH = """
import json, random, sys, time
from domino import Match, preset
from render import render_table
names = ["Ana", "Bruno", "Carla", "Diego"]
pid, matches, warm = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "warm"
if warm:  # what the bot draws at start-up, where the checkout has it
    try:
        from render import warm_up
    except ImportError:
        pass
    else:
        warm_up()
spent, pictures = 0.0, 0
for seed in range(matches):
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    while m.outcome is None:
        m = m.apply(rng.choice(m.legal_actions()))
        view = m.public_view()
        start = time.process_time()
        render_table(view, names[: view.ruleset.seats])
        spent += time.process_time() - start
        pictures += 1
print(json.dumps([spent / pictures * 1000, pictures]))
"""


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_match(checkout: Path, pid: str, matches: int, warm: bool = True) -> tuple[float, int]:
    """Mean CPU ms per table picture over ``matches`` whole matches, drawn by ``checkout``
    after the start-up warm-up the bot does (``warm``), or from nothing."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run([sys.executable, "-c", PER_MATCH, pid, str(matches),
                          "warm" if warm else "cold"], env=env,
                         cwd=checkout, capture_output=True, text=True, check=True)
    ms, count = json.loads(out.stdout)
    return float(ms), int(count)


def matches_table(against: Path | None, matches: int) -> None:
    here = Path(__file__).resolve().parent.parent
    print(f"mean CPU per table picture over {matches} whole matches, 1,024 px (target <= 2 ms);"
          " ms: after the bot's start-up warm-up, cold: from nothing")
    head = f"{'variant':<12} {'pictures':>8} {'ms':>6} {'cold':>6}"
    print(head + (f" {'before ms':>9} {'speed-up':>8}" if against else ""))
    for pid in sorted(PRESETS):
        ours, count = per_match(here, pid, matches)
        cold, _ = per_match(here, pid, matches, warm=False)
        row = f"{pid:<12} {count:>8} {ours:>6.2f} {cold:>6.2f}"
        if against is not None:
            theirs, _ = per_match(against, pid, matches)
            row += f" {theirs:>9.2f} {theirs / ours:>7.2f}x"
        print(row, flush=True)
    print(f"load after: {load()}\n")


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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--matches", type=int, default=4, help="whole matches per variant")
    args = parser.parse_args()
    print(f"load: {load()}")
    matches_table(args.against, args.matches)
    cases = {"partners block": longest_end("partners", "block"),
             "cuban long line": longest_end("cuban", None)}
    print(f"{'case':<16} {'tiles':>5} {'render+encode ms':>17} {'whole ms':>9} {'encode ms':>10} "
          f"{'ratio':>6} {'PNG KB':>7}")
    for name, view in cases.items():
        render_table(view, NAMES)  # warm the caches (fonts, tile faces)
        image = draw_table(view, NAMES)
        full = median_ms(lambda v=view: render_table(v, NAMES))
        whole = median_ms(lambda v=view: redraw(v, NAMES))
        alone = median_ms(lambda i=image: encode(i))
        size = len(render_table(view, NAMES)) / 1024
        tiles = len(view.previous.line) if view.previous else len(view.line)
        print(f"{name:<16} {tiles:>5} {full:>17.1f} {whole:>9.1f} {alone:>10.1f} "
              f"{full / alone:>6.2f} {size:>7.1f}")
    encoders()
    replays()


#: The deflate settings compared on the same bands.
ENCODERS = (
    png.Encoder("zlib level 1", zlib, 1),
    png.Encoder("zlib RLE", zlib, 1, zlib.Z_RLE),
    png.Encoder("zlib level 3", zlib, 3),
    png.Encoder("zlib level 6", zlib, 6),
    png.Encoder("zlib level 9", zlib, 9),
    png.Encoder("zlib-ng level 1", zlib_ng, 1),
    png.Encoder("zlib-ng RLE", zlib_ng, 1, zlib_ng.Z_RLE),
    png.Encoder("zlib-ng level 3", zlib_ng, 3),
)
try:  # ISA-L, from the bench extra: faster, but its bytes are not always the same
    from isal import isal_zlib
except ImportError:  # pragma: no cover
    pass
else:
    ENCODERS += tuple(png.Encoder(f"ISA-L level {level}", isal_zlib, level)
                      for level in range(4))


def encoders(every: int = 9) -> None:
    """Bytes against time of each encoder choice, on every ``every``-th picture of a match of
    each variant (every band of it, as a first picture compresses them all)."""
    raws: list[list[bytes]] = []
    for pid in sorted(PRESETS):
        for k, view in enumerate(played(pid, 1)[1]):
            if k % every == 0:
                raws.append(band_rows(view, NAMES[: view.ruleset.seats]))
    print(f"\nencoder on {len(raws)} pictures' bands   {'ms/picture':>10} {'KB/picture':>10}")
    for encoder in ENCODERS:
        start = time.process_time()
        size = sum(len(png.compress_band(raw, encoder).data) for bands in raws
                   for raw in bands)
        ms = (time.process_time() - start) / len(raws) * 1000
        used = " (in use)" if encoder == png.ENCODER else ""
        print(f"{encoder.name:<34} {ms:>10.2f} {size / len(raws) / 1024:>10.1f}{used}")


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
        gif = render_replay(views, NAMES, max_bytes=10 * MAX_BYTES)  # measured, not refused
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        for view in views:
            render_table(view, NAMES)
        png = (time.perf_counter() - start) / len(views) * 1000
        over = " (over the 8 MB limit)" if len(gif) > MAX_BYTES else ""
        print(f"{name:<16} {len(views):>6} {seconds:>8.2f} {len(gif) / 1e6:>6.2f} "
              f"{seconds / len(views) * 1000:>9.1f} {png:>13.1f}{over}")


if __name__ == "__main__":
    main()
