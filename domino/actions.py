"""The actions a seat can take, and their text form for storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domino.errors import DominoError
from domino.tiles import Tile

End = Literal["left", "right", "up", "down"]
ENDS = ("left", "right", "up", "down")


class Play:
    """Lay ``tile`` at ``end`` ("left"/"right", or a spinner's "up"/"down"); ``None`` when
    only one end fits.

    Plays are interned (``Play(t, "left") is Play(t, "left")``) and immutable.
    """

    __slots__ = ("end", "tile")
    tile: Tile
    end: End | None

    def __new__(cls, tile: Tile | str, end: End | None = None) -> Play:
        if not isinstance(tile, Tile):
            tile = Tile.parse(tile)
        key = (tile, end)
        play = _PLAYS.get(key)
        if play is None:
            if end is not None and end not in ENDS:
                raise DominoError(f"end must be left, right, up or down, not {end!r}")
            play = object.__new__(cls)
            object.__setattr__(play, "tile", tile)
            object.__setattr__(play, "end", end)
            _PLAYS[key] = play
        return play

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, End | None]]:
        return (Play, (self.tile, self.end))

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return hash((self.tile, self.end))

    def __repr__(self) -> str:
        return f"Play({self.tile}, {self.end!r})"

    def __str__(self) -> str:
        return f"play {self.tile}" + (f" {self.end}" if self.end else "")


_PLAYS: dict[tuple[Tile, str | None], Play] = {}


class _Singleton:
    __slots__ = ()
    _instance: _Singleton | None = None

    def __new__(cls) -> _Singleton:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (type(self), ())

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Draw(_Singleton):
    """Take one tile from the pile."""

    __slots__ = ()
    _instance = None

    def __str__(self) -> str:
        return "draw"


class Pass(_Singleton):
    """Pass the turn (only when the rules leave nothing else)."""

    __slots__ = ()
    _instance = None

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """``seat`` gives up: its side loses the match. Allowed at any time. ``timeouts``: the
    side lost on time, at this many time-outs in a row (0: the person resigned)."""

    seat: int
    timeouts: int = 0

    def __str__(self) -> str:
        if self.timeouts:
            return f"resign {self.seat} time {self.timeouts}"
        return f"resign {self.seat}"


Action = Play | Draw | Pass | Resign


def encode_action(action: Action) -> str:
    """The text form: ``play 3-5 left``, ``play 6-6``, ``draw``, ``pass``, ``resign 2``,
    ``resign 2 time 3`` (lost on time at the third time-out in a row)."""
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
    if len(words) == 4 and words[0] == "resign" and words[2] == "time" and (
        words[1].isdigit() and words[3].isdigit() and int(words[3]) > 0
    ):
        return Resign(int(words[1]), int(words[3]))
    if words and words[0] == "play" and len(words) in (2, 3):
        end = words[2] if len(words) == 3 else None
        if end is not None and end not in ENDS:
            raise DominoError(f"unknown end {end!r} in {text!r}")
        return Play(Tile.parse(words[1]), end)  # type: ignore[arg-type]
    raise DominoError(f"{text!r} is not an action")
