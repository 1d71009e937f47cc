"""What every table's first pictures share, drawn once when the bot starts."""

from __future__ import annotations

from domino import PRESETS, Match, preset
from render.layout import TILE_SIZES
from render.table import half_on_palette, render_table

__all__ = ["warm_up"]


def warm_up(moves: int = 4) -> None:
    """Draw the first pictures of a match of every variant: the empty table's bands, the seat
    cards' and the header's frames, the tiles' backs, the first tiles and the end badges are
    then cached (they are the same at every table), so a new table's first picture draws
    only what is its own (its names, its tiles). The halves of tiles of every size are drawn
    too (about 2 MB on the palette): every table's line meets most sizes as it grows."""
    for pid in sorted(PRESETS):
        match = Match.new(preset(pid), 0)
        names = [f"Seat {seat + 1}" for seat in range(match.ruleset.seats)]
        render_table(match.public_view(), names)
        for _ in range(moves):
            if match.outcome is not None:
                break
            match = match.apply(match.legal_actions()[0])
            render_table(match.public_view(), names)
    top = max(preset(pid).max_pip for pid in PRESETS)
    for long in TILE_SIZES:
        for n in range(top + 1):
            for upper in (True, False):
                for highlight in (False, True):
                    half_on_palette(n, upper, long, highlight)
