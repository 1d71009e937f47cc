"""Write a picture of every preset mid-game and at the end of a hand, plus hand pictures.

Run: ``python -m render.gallery DIR``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from domino import PRESETS, Match, preset
from render.hand import render_hand
from render.table import render_table

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def positions(pid: str, seed: int = 7) -> tuple[Match, Match]:
    """A seeded match of ``pid`` mid-way through its first hand, and just after it ended."""
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    history = [m]
    while m.turn is not None and m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
        history.append(m)
    return history[len(history) // 2], m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="folder to write the pictures to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for pid in PRESETS:
        middle, ended = positions(pid)
        names = NAMES[: middle.ruleset.seats]
        (args.out / f"{pid}-middle.png").write_bytes(render_table(middle.public_view(), names))
        (args.out / f"{pid}-end.png").write_bytes(render_table(ended.public_view(), names))
        if middle.turn is not None:
            (args.out / f"{pid}-hand.png").write_bytes(render_hand(middle.view(middle.turn)))
    print(f"wrote {len(list(args.out.glob('*.png')))} pictures to {args.out}")


if __name__ == "__main__":
    main()
