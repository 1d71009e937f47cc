"""The spinner layout of All Fives: the first double opens two more arms, and the open ends
are counted after every play.

The main line is the usual left-to-right ``line`` of oriented pairs; ``spinner`` is the index
in it of the first double laid (None before one is laid). ``arms`` are the two other arms,
"up" and "down", each a tuple of pairs oriented outward from the spinner (the first pair
starts with the spinner's number). They open once both sides of the spinner on the main line
hold a tile.
"""

from __future__ import annotations

from domino.tiles import Tile
from domino.views import Pair

Arms = tuple[tuple[Pair, ...], tuple[Pair, ...]]
NO_ARMS: Arms = ((), ())
ARM_ENDS = ("up", "down")


def arms_open(line: tuple[Pair, ...], spinner: int | None) -> bool:
    """Whether the spinner's up and down sides may take tiles (both main sides are laid)."""
    return spinner is not None and 0 < spinner < len(line) - 1


def open_ends(
    line: tuple[Pair, ...], spinner: int | None, arms: Arms
) -> tuple[tuple[str, int], ...]:
    """Every open end as ``(name, number)``: "left", "right", then "up" and "down" when open."""
    if not line:
        return ()
    ends = [("left", line[0][0]), ("right", line[-1][1])]
    if arms_open(line, spinner):
        assert spinner is not None
        s = line[spinner][0]
        for name, arm in zip(ARM_ENDS, arms, strict=True):
            ends.append((name, arm[-1][1] if arm else s))
    return tuple(ends)


def _end_value(pair: Pair, outward: int) -> int:
    """What an end tile counts: a double laid crosswise counts both halves."""
    return pair[0] + pair[1] if pair[0] == pair[1] else outward


def end_count(line: tuple[Pair, ...], spinner: int | None, arms: Arms) -> int:
    """The sum of the open ends as All Fives counts it.

    A lone first tile counts both its numbers; a double at the end of an arm (the spinner too,
    while one of its main sides is empty) counts both halves; an empty up or down side of the
    spinner counts nothing.
    """
    if not line:
        return 0
    if len(line) == 1:
        return line[0][0] + line[0][1]
    total = _end_value(line[0], line[0][0]) + _end_value(line[-1], line[-1][1])
    for arm in arms:
        if arm:
            total += _end_value(arm[-1], arm[-1][1])
    return total


def place(
    line: tuple[Pair, ...], spinner: int | None, arms: Arms, tile: Tile, end: str | None
) -> tuple[tuple[Pair, ...], int | None, Arms]:
    """The layout after ``tile`` is laid at ``end`` (any end on an empty line; the caller has
    checked that it fits). The first double laid becomes the spinner."""
    if not line:
        return ((tile.a, tile.b),), (0 if tile.is_double else None), arms
    if end == "left":
        n = line[0][0]
        if spinner is not None:
            spinner += 1
        elif tile.is_double:
            spinner = 0
        return ((tile.other(n), n), *line), spinner, arms
    if end == "right":
        n = line[-1][1]
        if spinner is None and tile.is_double:
            spinner = len(line)
        return (*line, (n, tile.other(n))), spinner, arms
    assert spinner is not None
    k = 0 if end == "up" else 1
    arm = arms[k]
    n = arm[-1][1] if arm else line[spinner][0]
    grown = (*arm, (n, tile.other(n)))
    return line, spinner, ((grown, arms[1]) if k == 0 else (arms[0], grown))


def arm_tiles(arms: Arms) -> tuple[Pair, ...]:
    """The pairs laid on the up and down arms."""
    return arms[0] + arms[1]
