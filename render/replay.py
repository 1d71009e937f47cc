"""Animated replays: the table picture after every move, as one looping GIF.

Every frame is drawn by :func:`render.table.draw_table` from a public view and mapped onto
the pictures' fixed palette, so the GIF has one global palette and Pillow stores each frame
as the rectangle that changed. A whole match is shrunk until it fits ``max_bytes``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image

from domino import View
from render.moves import LastMove, last_moves
from render.table import WIDTH, draw_table, palette

#: Discord's attachment limit for every server, with room for the message around it.
MAX_BYTES = 8_000_000
MOVE_MS = 900  # how long each move stays on screen
HAND_END_MS = 3000  # the picture that announces how a hand ended
LAST_MS = 5000  # the final frame, before the loop starts again
#: Widths tried in turn until the GIF fits.
WIDTHS = (WIDTH, 800, 640, 512)
#: About what one full-width frame adds to the GIF; frames shrink with the square of the width.
FRAME_BYTES = 32_000


class ReplayTooLarge(ValueError):
    """The replay does not fit the size limit even at the smallest width."""


def _frame(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
           last: Sequence[LastMove | None] | None, width: int) -> Image.Image:
    img = draw_table(view, names, labels, last if last is not None else last_moves(view))
    if width != img.width:
        img = img.resize((width, round(img.height * width / img.width)),
                         Image.Resampling.BILINEAR)
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)


def _durations(views: Sequence[View]) -> list[int]:
    """Each frame's time on screen: longer where a hand or the match ends."""
    out = []
    for i, view in enumerate(views):
        ended = view.outcome is not None or (
            view.previous is not None and not any(e.kind != "start" for e in view.events)
            and (i == 0 or views[i - 1].hand_number != view.hand_number)
        )
        out.append(HAND_END_MS if ended else MOVE_MS)
    if out:
        out[-1] = LAST_MS
    return out


def render_replay(views: Sequence[View], names: Sequence[str], *,
                  labels: Mapping[str, str] | None = None,
                  last: Sequence[Sequence[LastMove | None]] | None = None,
                  max_bytes: int = MAX_BYTES) -> bytes:
    """A looping GIF with one frame per public view (the table after each move).

    ``last`` optionally gives each frame's last moves (default: read from each view).
    Frames are drawn full width, or smaller when the whole GIF would pass ``max_bytes``.
    """
    if not views:
        raise ValueError("a replay needs at least one picture")
    if last is not None and len(last) != len(views):
        raise ValueError("give one set of last moves per picture")
    if any(v.hand is not None for v in views):
        raise ValueError("a replay is drawn from public views only")
    durations = _durations(views)
    # Start at the widest size the estimate says fits, so a long match is encoded once.
    fits = [w for w in WIDTHS if len(views) * FRAME_BYTES * (w / WIDTH) ** 2 <= max_bytes]
    for width in WIDTHS[WIDTHS.index(fits[0]) if fits else -1:]:
        frames = [_frame(v, names, labels, last[i] if last is not None else None, width)
                  for i, v in enumerate(views)]
        out = io.BytesIO()
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                       duration=durations, loop=0, disposal=1, optimize=False)
        data = out.getvalue()
        if len(data) <= max_bytes:
            return data
    raise ReplayTooLarge(f"{len(views)} pictures do not fit in {max_bytes} bytes")

