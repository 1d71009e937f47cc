"""The actions a seat can take, and their text form for storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domino.errors import DominoError
from domino.tiles import Tile

End = Literal["left", "right"]


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` at ``end`` ("left"/"right"); ``None`` when only one end fits."""

    tile: Tile
    end: End | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tile, Tile):
            object.__setattr__(self, "tile", Tile.parse(self.tile))
        if self.end not in ("left", "right", None):
            raise DominoError(f"end must be left or right, not {self.end!r}")

    def __str__(self) -> str:
        return f"play {self.tile}" + (f" {self.end}" if self.end else "")


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the pile."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn (only when the rules leave nothing else)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """``seat`` gives up: its side loses the match. Allowed at any time."""

    seat: int

    def __str__(self) -> str:
        return f"resign {self.seat}"


Action = Play | Draw | Pass | Resign


def encode_action(action: Action) -> str:
    """The text form: ``play 3-5 left``, ``play 6-6``, ``draw``, ``pass``, ``resign 2``."""
    return str(action)


def decode_action(text: str) -> Action:
    """Read the text form written by :func:`encode_action`."""
    words = text.split()
    if words == ["draw"]:
        return Draw()
    if words == ["pass"]:
        return Pass()
    if len(words) == 2 and words[0] == "resign" and words[1].isdigit():
        return Resign(int(words[1]))
    if words and words[0] == "play" and len(words) in (2, 3):
        end = words[2] if len(words) == 3 else None
        if end not in ("left", "right", None):
            raise DominoError(f"unknown end {end!r} in {text!r}")
        return Play(Tile.parse(words[1]), end)  # type: ignore[arg-type]
    raise DominoError(f"{text!r} is not an action")
