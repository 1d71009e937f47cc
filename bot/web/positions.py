"""The in-browser replay's data: every position of a finished match, from its action log.

Each hand starts with the deal (move 0) and has one position after each move. Only public
views are read (:func:`bot.tables.replay.rebuild`), so no position holds a hidden tile: what
each seat holds is a count. At a hand's last move the position shows the hand's final line and
result (the engine has already dealt the next hand by then).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import joined, tr, trn
from bot.store import ActionRow, MatchRow
from bot.tables.replay import rebuild
from domino import Match, Ruleset, View

__all__ = ["Position", "Replay", "clamp", "describe", "positions", "sentences", "to_json"]

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Position:
    """The table as everyone saw it at one move of one hand."""

    hand: int
    move: int  # 0: the deal
    moves: int  # the hand's number of moves
    seat: int | None  # who moved (None at the deal)
    action: str | None  # "play 3-5 left", "pass", "draw", "resign 2"
    line: tuple[Pair, ...]
    spinner: int | None
    arms: tuple[tuple[Pair, ...], tuple[Pair, ...]]
    sizes: tuple[int, ...]  # tiles each seat holds
    pile: int
    scores: tuple[int, ...]  # per side, after this move
    last: int | None  # index in ``line`` of the tile just laid
    result: dict[str, Any] | None  # the hand's result, at its last move
    turn: int | None = None  # the seat to play next (None once the hand is over)


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished match's positions, its rules and the table as it was left."""

    ruleset: Ruleset
    positions: tuple[Position, ...]
    final: View


def _position(hand: int, move: int, view: View, seat: int | None, action: str | None) -> Position:
    return Position(
        hand,
        move,
        0,
        seat,
        action,
        view.line,
        view.spinner,
        view.arms,
        view.hand_sizes,
        view.pile_size,
        view.scores,
        view.last_index,
        None,
        view.turn if view.outcome is None else None,
    )


def positions(match: MatchRow, actions: Sequence[ActionRow]) -> Replay:
    """Every position of the match, hand by hand (the deal, then one per move)."""
    frames = rebuild(match, actions)
    ruleset = Ruleset.from_dict(match.ruleset)
    start = Match.new(ruleset, match.seed, match.deal).public_view()
    found: list[Position] = [_position(start.hand_number, 0, start, None, None)]
    before = start
    for frame in frames:
        view = frame.view
        move = found[-1].move + 1
        if len(view.hand_results) > len(before.hand_results):  # the move ended the hand
            result = view.hand_results[-1]
            sizes = list(before.hand_sizes)
            if frame.action.startswith("play"):
                sizes[frame.seat] -= 1
            last = None
            if frame.action.startswith("play") and result.spinner is None:
                last = 0 if frame.action.endswith("left") else len(result.line) - 1
            found.append(
                Position(
                    frame.hand,
                    move,
                    0,
                    frame.seat,
                    frame.action,
                    result.line,
                    result.spinner,
                    result.arms,
                    tuple(sizes),
                    before.pile_size,
                    view.scores,
                    last,
                    result.to_dict(),
                )
            )
            if view.outcome is None:
                found.append(_position(view.hand_number, 0, view, None, None))
        else:
            found.append(_position(frame.hand, move, view, frame.seat, frame.action))
        before = view
    counts: dict[int, int] = {}
    for p in found:
        counts[p.hand] = max(counts.get(p.hand, 0), p.move)
    moves = tuple(dataclasses.replace(p, moves=counts[p.hand]) for p in found)
    return Replay(ruleset, moves, before)


def clamp(found: Sequence[Position], hand: int | None, move: int | None) -> int:
    """The index of the position nearest to ``hand`` and ``move`` (the match's last one when
    neither is given, a hand's deal when only the hand is)."""
    if hand is None and move is None:
        return len(found) - 1
    hands = sorted({p.hand for p in found})
    if hand is None:
        hand = hands[0]
    hand = min(max(hand, hands[0]), hands[-1])
    if hand not in hands:  # a gap (no moves in that hand): the next one that has moves
        hand = next(h for h in hands if h > hand)
    first = next(i for i, p in enumerate(found) if p.hand == hand)
    moves = found[first].moves
    return first + min(max(move or 0, 0), moves)


def _tiles(pairs: Sequence[Pair]) -> str:
    return " ".join(f"{a}-{b}" for a, b in pairs)


def describe(
    locale: str,
    p: Position,
    ruleset: Ruleset,
    seat_names: Sequence[str],
    said: dict[str, Any] | None = None,
) -> str:
    """The position in words: what a screen reader says, and the board's label (``said``: its
    :func:`sentences`, when already made)."""
    said = said or sentences(locale, p, ruleset, seat_names)
    return " ".join([said["where"], said["act"], *said["table"], *said["status"]])


def sentences(
    locale: str, p: Position, ruleset: Ruleset, seat_names: Sequence[str]
) -> dict[str, Any]:
    """The position's sentences: where it is (``where``), what the move did and how the hand
    ended (``act``), the tiles on the table (``table``) and the counts, the seat to play and
    the score (``status``)."""
    sides = side_names(locale, ruleset, seat_names)
    where = tr(
        locale, "Hand {hand}, move {move} of {moves}.", hand=p.hand, move=p.move, moves=p.moves
    )
    if p.seat is None:
        act = [tr(locale, "The tiles are dealt.")]
    else:
        name = seat_names[p.seat]
        words = (p.action or "").split()
        if words[:1] == ["play"]:
            act = [tr(locale, "{name} played {tile}.", name=name, tile=words[1])]
        elif words[:1] == ["draw"]:
            act = [tr(locale, "{name} drew a tile.", name=name)]
        elif words[:1] == ["resign"] and words[2:3] == ["time"]:
            act = [
                trn(
                    locale,
                    "{name} lost on time: {count} time-out in a row.",
                    "{name} lost on time: {count} time-outs in a row.",
                    int(words[3]),
                    name=name,
                )
            ]
        elif words[:1] == ["resign"]:
            act = [tr(locale, "{name} resigned.", name=name)]
        else:
            act = [tr(locale, "{name} passed.", name=name)]
    if p.result is not None:
        side = p.result.get("winner_side")
        if side is None:
            act.append(tr(locale, "Hand over: nobody scores."))
        else:
            act.append(
                tr(
                    locale,
                    "Hand over: {side} scores {points}.",
                    side=sides[side],
                    points=p.result["points"][side],
                )
            )
    if p.line:
        table = [tr(locale, "Line: {tiles}.", tiles=_tiles(p.line))]
    else:
        table = [tr(locale, "The table is empty.")]
    if p.arms[0] or p.arms[1]:
        table.append(tr(locale, "Up: {tiles}.", tiles=_tiles(p.arms[0]) or "-"))
        table.append(tr(locale, "Down: {tiles}.", tiles=_tiles(p.arms[1]) or "-"))
    held = ", ".join(f"{seat_names[s]} {n}" for s, n in enumerate(p.sizes))
    status = [tr(locale, "Tiles in hand: {counts}.", counts=held)]
    if p.pile:
        status.append(tr(locale, "Pile: {count}.", count=p.pile))
    if p.turn is not None and 0 <= p.turn < len(seat_names):
        status.append(tr(locale, "{name} to play.", name=seat_names[p.turn]))
    score = ", ".join(f"{sides[s]} {n}" for s, n in enumerate(p.scores))
    status.append(tr(locale, "Score: {scores}.", scores=score))
    return {"where": where, "act": " ".join(act), "table": table, "status": status}


def side_names(locale: str | None, ruleset: Ruleset, seat_names: Sequence[str]) -> list[str]:
    """Each side's name: its seats' names joined with the language's "and" (a person holding
    two seats, once)."""
    sides: list[list[str]] = [[] for _ in range(ruleset.sides)]
    for seat, name in enumerate(seat_names):
        names = sides[ruleset.side_of(seat)]
        if name not in names:
            names.append(name)
    return [joined(locale, n) for n in sides]


def to_json(
    locale: str, ruleset: Ruleset, found: Sequence[Position], seat_names: Sequence[str]
) -> dict[str, Any]:
    """What the page's script draws: the seats, the sides and every position."""
    return {
        "seats": list(seat_names),
        "sides": side_names(locale, ruleset, seat_names),
        "teams": ruleset.teams,
        "positions": [position_json(locale, p, ruleset, seat_names) for p in found],
    }


def position_json(
    locale: str, p: Position, ruleset: Ruleset, seat_names: Sequence[str]
) -> dict[str, Any]:
    """One position as the page's script reads it: only what everyone at the table saw."""
    said = sentences(locale, p, ruleset, seat_names)
    return {
        "hand": p.hand,
        "move": p.move,
        "moves": p.moves,
        "seat": p.seat,
        "line": [list(t) for t in p.line],
        "spinner": p.spinner,
        "arms": [[list(t) for t in arm] for arm in p.arms],
        "sizes": list(p.sizes),
        "pile": p.pile,
        "scores": list(p.scores),
        "last": p.last,
        "end": p.result is not None,
        "turn": p.turn,
        "act": said["act"],
        "status": said["status"],
        "text": describe(locale, p, ruleset, seat_names, said),
    }
