"""Domino tiles and tile sets."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import total_ordering

from domino.errors import DominoError

_TILE_RE = re.compile(r"^\s*\[?\s*(\d)\s*[-|:/ ]\s*(\d)\s*\]?\s*$")
_CACHE: dict[tuple[int, int], Tile] = {}


@total_ordering
class Tile:
    """A tile ``a-b`` with ``a <= b``; interned, so ``Tile(3, 5) is Tile(5, 3)``."""

    __slots__ = ("a", "b", "bit", "is_double", "pips")
    a: int
    b: int
    pips: int
    is_double: bool
    bit: int  # 1 << (10*a + b): the engine's bitmask of this tile

    def __new__(cls, a: int, b: int) -> Tile:
        if a > b:
            a, b = b, a
        key = (a, b)
        tile = _CACHE.get(key)
        if tile is None:
            if not (0 <= a <= 9 and 0 <= b <= 9):
                raise DominoError(f"a tile's numbers go from 0 to 9, not {a}-{b}")
            tile = object.__new__(cls)
            object.__setattr__(tile, "a", a)
            object.__setattr__(tile, "b", b)
            object.__setattr__(tile, "pips", a + b)
            object.__setattr__(tile, "is_double", a == b)
            object.__setattr__(tile, "bit", 1 << (a * 10 + b))
            _CACHE[key] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.a, self.b))

    @classmethod
    def parse(cls, text: str | Tile) -> Tile:
        """Read ``"3-5"``, ``"5|3"``, ``"[3|5]"`` or ``"3:5"``."""
        if isinstance(text, Tile):
            return text
        match = _TILE_RE.match(str(text))
        if not match:
            raise DominoError(f"{text!r} is not a tile; write it like 3-5")
        return cls(int(match.group(1)), int(match.group(2)))

    def has(self, n: int) -> bool:
        """True when one half shows ``n``."""
        return self.a == n or self.b == n

    def other(self, n: int) -> int:
        """The number on the other half from ``n``."""
        if self.a == n:
            return self.b
        if self.b == n:
            return self.a
        raise DominoError(f"{self} has no {n}")

    # Tiles are interned, so object identity is equality (and the fast default hash).

    def __lt__(self, other: Tile) -> bool:
        return (self.a, self.b) < (other.a, other.b)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    def __repr__(self) -> str:
        return f"Tile({self.a}, {self.b})"


def tile_set(max_pip: int = 6, exclude: Iterable[Tile | str] = ()) -> tuple[Tile, ...]:
    """Every tile from 0-0 to ``max_pip``-``max_pip``, minus ``exclude``, in order."""
    excluded = {Tile.parse(t) for t in exclude}
    return tuple(
        Tile(a, b)
        for a in range(max_pip + 1)
        for b in range(a, max_pip + 1)
        if Tile(a, b) not in excluded
    )
