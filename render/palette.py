"""``python -m render.palette``: make ``render/palette.png``, the fixed palette of every picture,
from reference tables and hands (run it again when the pictures' colours change)."""

from __future__ import annotations

import random

from PIL import Image

from domino import Match, preset
from render.hand import draw_hand
from render.table import PALETTE_FILE, draw_table

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def build() -> Image.Image:
    """A 255-colour palette image quantised from tables and hands of three variants."""
    samples = []
    for pid, seed in (("cuban", 3), ("three", 1), ("draw", 2)):
        rng = random.Random(seed)
        m = Match.new(preset(pid), seed)
        while m.turn is not None and m.hand_number == 1 and len(m.line) < 12:
            m = m.apply(rng.choice(m.legal_actions()))
        samples.append(draw_table(m.public_view(), NAMES))
        if m.turn is not None:
            samples.append(draw_hand(m.view(m.turn)))
        while m.turn is not None and m.hand_number == 1:
            m = m.apply(rng.choice(m.legal_actions()))
        samples.append(draw_table(m.public_view(), NAMES))
    sheet = Image.new("RGB", (max(i.width for i in samples), sum(i.height for i in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (0, y))
        y += sample.height
    return sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def main() -> None:
    img = build()
    small = Image.new("P", (16, 16))
    small.putpalette(img.getpalette())
    small.save(PALETTE_FILE, optimize=True)
    print(f"wrote {PALETTE_FILE}")


if __name__ == "__main__":
    main()
