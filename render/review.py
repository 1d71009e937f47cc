"""The picture of a reviewed decision: the table as everyone saw it, and the reviewed
player's own tiles under it (only his: it is drawn from his seat's view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from domino.views import View
from render.hand import draw_hand
from render.table import draw_table, encode

__all__ = ["render_position"]


def render_position(public: View, mine: View, names: Sequence[str], *,
                    labels: Mapping[str, str] | None = None) -> bytes:
    """PNG: the table picture of the public view ``public`` above the hand picture of the
    seat view ``mine`` (the same moment of the match)."""
    if public.hand is not None or mine.hand is None:
        raise ValueError("a position takes the public view and one seat's view")
    table = draw_table(public, names, labels)
    hand = draw_hand(mine, labels)
    img = Image.new("RGB", (max(table.width, hand.width), table.height + hand.height))
    img.paste(table, (0, 0))
    img.paste(hand, (0, table.height))
    return encode(img)
