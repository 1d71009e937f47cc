"""Animated replays: the table picture after every move, streamed into one looping GIF.

The first frame is the deal (the table before the first move shown); then one frame per
move, each ~1.3 s on screen, with a strip under the table counting the moves ("Move 12 of
45") and a bar of the progress. Every frame is drawn by :func:`render.table.draw_table` from
a public view and mapped onto the pictures' fixed palette, so the GIF has one global palette
and each frame is stored as the rectangle that changed. Frames are written as they are
drawn: at most two are in memory, whatever the length of the replay.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import IO

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from domino import View
from render.moves import LastMove, last_moves
from render.sprites import FELT_DARK, HIGHLIGHT, MUTED, WHITE, font
from render.table import WIDTH, draw_table, palette

#: Discord's attachment limit for every server, with room for the message around it.
MAX_BYTES = 8_000_000
OPENING_MS = 2500  # the deal, before the first move
MOVE_MS = 1300  # how long each move stays on screen
HAND_END_MS = 3000  # the picture that announces how a hand ended
LAST_MS = 5000  # the final frame, before the loop starts again
#: Widths tried in turn (the first the estimate says fits is used).
WIDTHS = (WIDTH, 800, 640, 512)
#: About what one full-width frame adds to the GIF; frames shrink with the square of the width.
FRAME_BYTES = 32_000
STRIP = 52  # the strip under the table: the move counter and the progress bar
#: Raise when what a replay shows changes (cached replays are keyed by it).
VERSION = 2

#: The words a replay adds to the table picture (key -> English); translated via ``labels``.
REPLAY_LABELS: dict[str, str] = {
    "deal": "The deal",
    "move": "Move {number} of {total}",
}


class ReplayTooLarge(ValueError):
    """The replay does not fit the size limit."""


def width_for(moves: int, max_bytes: int = MAX_BYTES) -> int:
    """The widest frame width at which ``moves`` frames are expected to fit ``max_bytes``;
    raises :class:`ReplayTooLarge` when none is (refused before anything is drawn)."""
    frames = moves + 1
    for width in WIDTHS:
        if frames * FRAME_BYTES * (width / WIDTH) ** 2 <= max_bytes:
            return width
    raise ReplayTooLarge(f"{moves} moves do not fit in {max_bytes} bytes")


def _word(labels: Mapping[str, str] | None, key: str, **params: object) -> str:
    template = (labels or {}).get(key) or REPLAY_LABELS[key]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return REPLAY_LABELS[key].format(**params)


def _with_strip(img: Image.Image, text: str, done: float) -> Image.Image:
    """``img`` with the counter strip under it: ``text`` and a bar ``done`` (0-1) full."""
    out = Image.new("RGB", (img.width, img.height + STRIP), FELT_DARK)
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    top = img.height
    draw.text((20, top + STRIP // 2), text, fill=WHITE, font=font(32), anchor="lm")
    left, right = img.width // 2, img.width - 20
    mid = top + STRIP // 2
    draw.rounded_rectangle((left, mid - 6, right, mid + 6), 6, fill=MUTED)
    if done > 0:
        end = left + max(12, round((right - left) * min(1.0, done)))
        draw.rounded_rectangle((left, mid - 6, end, mid + 6), 6, fill=HIGHLIGHT)
    return out


def _frame(view: View, names: Sequence[str], labels: Mapping[str, str] | None,
           last: Sequence[LastMove | None] | None, width: int, text: str,
           done: float) -> Image.Image:
    img = draw_table(view, names, labels, last if last is not None else last_moves(view))
    img = _with_strip(img, text, done)
    if width != img.width:
        img = img.resize((width, round(img.height * width / img.width)),
                         Image.Resampling.BILINEAR)
    return img


def opening_view(before: View) -> View:
    """The deal of the hand that starts after ``before``: the table with no tile laid (the
    previous hand's result, which the table picture would show, left out)."""
    return dataclasses.replace(before, hand_results=(), outcome=None)


class GifStream:
    """Writes an animated GIF frame by frame: one global palette (the pictures' fixed one),
    each frame stored as the rectangle that changed, at most one frame held back (to merge
    an identical one into it)."""

    def __init__(self, out: IO[bytes], max_bytes: int = MAX_BYTES) -> None:
        self.out = out
        self.max_bytes = max_bytes
        self.written = 0
        self.frames = 0
        self._shown: Image.Image | None = None  # the previous frame (RGB), for the change
        self._pending: tuple[Image.Image, tuple[int, int], int] | None = None

    def _write(self, chunks: Iterable[bytes]) -> None:
        for chunk in chunks:
            self.written += len(chunk)
            if self.written > self.max_bytes:
                raise ReplayTooLarge(f"the replay passed {self.max_bytes} bytes")
            self.out.write(chunk)

    def add(self, img: Image.Image, duration: int) -> None:
        """Append ``img`` (RGB), shown ``duration`` ms."""
        if self._shown is None:
            mapped = img.quantize(palette=palette(), dither=Image.Dither.NONE)
            header, _ = GifImagePlugin.getheader(mapped, None, {"loop": 0, "duration": 1})
            self._write(header)
            self._pending = (mapped, (0, 0), duration)
            self._shown = img
            return
        box = ImageChops.difference(self._shown, img).getbbox()
        self._shown = img
        assert self._pending is not None
        if box is None:  # nothing changed: the previous frame stays longer
            pending, offset, shown = self._pending
            self._pending = (pending, offset, shown + duration)
            return
        self._flush()
        part = img.crop(box).quantize(palette=palette(), dither=Image.Dither.NONE)
        self._pending = (part, box[:2], duration)

    def _flush(self) -> None:
        if self._pending is None:
            return
        frame, offset, duration = self._pending
        self._pending = None
        self._write(GifImagePlugin.getdata(frame, offset, duration=duration, disposal=1))
        self.frames += 1

    def close(self, last_duration: int | None = None) -> None:
        """Write the held-back frame (shown ``last_duration`` ms when given) and the end."""
        if self._pending is not None and last_duration is not None:
            frame, offset, _ = self._pending
            self._pending = (frame, offset, last_duration)
        self._flush()
        self._write([b";"])


def write_replay(out: IO[bytes], opening: View, views: Iterable[View], total: int,
                 names: Sequence[str], *, labels: Mapping[str, str] | None = None,
                 max_bytes: int = MAX_BYTES) -> int:
    """Stream the replay into ``out``: the deal (``opening``, a public view before the first
    move shown), then one frame per public view of ``views`` (the table after each of the
    ``total`` moves). Returns the frames written. Refused before drawing anything when
    ``total`` cannot fit ``max_bytes``."""
    if total < 1:
        raise ValueError("a replay needs at least one move")
    if opening.hand is not None:
        raise ValueError("a replay is drawn from public views only")
    width = width_for(total, max_bytes)
    gif = GifStream(out, max_bytes)
    gif.add(_frame(opening, names, labels, [None] * len(names), width,
                   _word(labels, "deal"), 0.0), OPENING_MS)
    previous: View | None = None
    number = 0
    for view in views:
        if view.hand is not None:
            raise ValueError("a replay is drawn from public views only")
        number += 1
        ended = view.outcome is not None or (
            view.previous is not None and not any(e.kind != "start" for e in view.events)
            and (previous is None or previous.hand_number != view.hand_number)
        )
        text = _word(labels, "move", number=number, total=total)
        gif.add(_frame(view, names, labels, None, width, text, number / total),
                HAND_END_MS if ended else MOVE_MS)
        previous = view
    if number != total:
        raise ValueError(f"{number} views for {total} moves")
    gif.close(LAST_MS)
    return gif.frames


def render_replay(views: Sequence[View], names: Sequence[str], *,
                  opening: View | None = None, labels: Mapping[str, str] | None = None,
                  max_bytes: int = MAX_BYTES) -> bytes:
    """A looping GIF: the deal (``opening``), then one frame per public view (the table
    after each move); see :func:`write_replay`. Without ``opening`` the first view opens
    the replay in its place."""
    if opening is None:
        if len(views) < 2:
            raise ValueError("a replay needs its deal, or at least two pictures")
        opening, views = views[0], views[1:]
    out = io.BytesIO()
    write_replay(out, opening, views, len(views), names, labels=labels, max_bytes=max_bytes)
    return out.getvalue()
