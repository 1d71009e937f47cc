"""What every table's first pictures share, drawn once when the bot starts."""

from __future__ import annotations

from domino import PRESETS, Match, preset
from render.table import render_table

__all__ = ["warm_up"]


def warm_up(moves: int = 4) -> None:
    """Draw the first pictures of a match of every variant: the empty table's bands, the seat
    cards' and the header's frames, the tiles' backs, the first tiles and the end badges are
    then cached (they are the same at every table), so a new table's first picture draws
    only what is its own (its names, its tiles)."""
    for pid in sorted(PRESETS):
        match = Match.new(preset(pid), 0)
        names = [f"Seat {seat + 1}" for seat in range(match.ruleset.seats)]
        render_table(match.public_view(), names)
        for _ in range(moves):
            if match.outcome is not None:
                break
            match = match.apply(match.legal_actions()[0])
            render_table(match.public_view(), names)
