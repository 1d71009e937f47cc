"""How large the table picture's tiles and pips are on a phone, at the longest lines.

Run: ``python -m benchmarks.legibility [--hands N]``. For every variant, plays ``N`` random
hands (default 500), finds the hand whose final line (the spinner's arms included) is the
longest, lays out the picture that announces its end (the line under the banner: the least
room a line gets) and prints its smallest tile side (a tile's short side, the side of one
square half) and its smallest pip's diameter, at 1,024 px and as shown 380 px wide (a phone).
Targets at 380 px: tile side >= 20 px, pip diameter >= 4 px. The last columns say how many
of the ``N`` hands' end pictures have a smaller tile side, or pips, than the targets (the
longest line is not always the one drawn smallest).
"""

from __future__ import annotations

import argparse
import random

from domino import PRESETS, Match, preset
from render.sprites import PIP_LAYOUTS
from render.table import WIDTH, table_layout

PHONE = 380


def ended_hands(pid: str, hands: int) -> list[tuple[int, Match]]:
    """(tiles on the table, the match right after it ended) of ``hands`` random first hands."""
    out = []
    for seed in range(hands):
        rng = random.Random(seed)
        m = Match.new(preset(pid), seed)
        while m.hand_number == 1 and m.turn is not None:
            m = m.apply(rng.choice(m.legal_actions()))
        result = m.hand_results[0]
        out.append((len(result.line) + len(result.arms[0]) + len(result.arms[1]), m))
    return out


def longest_hand(pid: str, hands: int) -> tuple[int, Match]:
    """(tiles on the table, the match right after it ended) of the longest of ``hands``."""
    best: tuple[int, Match] | None = None
    for tiles, m in ended_hands(pid, hands):
        if best is None or tiles > best[0]:
            best = (tiles, m)
    assert best is not None
    return best


def measure(m: Match) -> tuple[int, float]:
    """The smallest tile side and pip diameter (px at 1,024) of the picture of ``m``."""
    layout = table_layout(m.public_view())
    side = layout.short
    numbers = {n for p in layout.tiles for n in (p.first, p.second) if n}
    return side, min(2 * PIP_LAYOUTS[n][1] * side for n in numbers) if numbers else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=500, help="random hands per variant")
    args = parser.parse_args()
    scale = PHONE / WIDTH
    print(f"longest line of {args.hands} random hands per variant, as drawn at its end; "
          f"at {PHONE} px: targets tile side >= 20 px, pip >= 4 px")
    print(f"{'variant':<12} {'tiles':>5} {'side px':>8} {'pip px':>7} "
          f"{'side @380':>10} {'pip @380':>9} {'hands under: side':>18} {'pip':>4}")
    for pid in sorted(PRESETS):
        hands = ended_hands(pid, args.hands)
        tiles, m = max(hands, key=lambda h: h[0])
        side, pip = measure(m)
        sizes = [measure(h) for _, h in hands]
        small = sum(1 for s, _ in sizes if s * scale < 20)
        dots = sum(1 for _, p in sizes if p * scale < 4)
        print(f"{pid:<12} {tiles:>5} {side:>8} {pip:>7.1f} {side * scale:>10.1f} "
              f"{pip * scale:>9.1f} {small:>18} {dots:>4}", flush=True)


if __name__ == "__main__":
    main()
