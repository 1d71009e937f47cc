"""Replays of stored matches: the public view after every move, rebuilt from the action log.

The ``matches`` row (ruleset, seed, deal) and the ``actions`` log define a match; replaying
them through the engine gives the table as everyone saw it after each move. Only public
views are kept, so a replay never shows a hidden tile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.errors import ServiceError, TableNotFound
from bot.store import ActionRow, MatchRow, SeatRow, Store
from domino import DominoError, Match, Ruleset, View, decode_action


@dataclass(frozen=True, slots=True)
class Frame:
    """One move of a stored match: its hand, who made it, and the table after it."""

    hand: int
    seat: int
    action: str
    view: View


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A table's match as stored: every move replayed, and the seats' recorded names."""

    table_id: int
    frames: tuple[Frame, ...]
    seats: tuple[SeatRow, ...]

    @property
    def hands(self) -> tuple[int, ...]:
        """The hands that saw at least one move, in order."""
        return tuple(dict.fromkeys(f.hand for f in self.frames))

    def select(self, hand: int | None = None) -> tuple[Frame, ...]:
        """The moves of ``hand`` (every move of the match when None); refused when none."""
        if not self.frames:
            raise ServiceError("Table {table_id} has no moves to replay yet.",
                               table_id=self.table_id)
        if hand is None:
            return self.frames
        if hand not in self.hands:
            raise ServiceError(
                "Hand {hand} has no moves to replay; this match has hands {hands}.",
                hand=hand, hands=", ".join(map(str, self.hands)) or "-",
            )
        return tuple(f for f in self.frames if f.hand == hand)


def rebuild(match: MatchRow, actions: Sequence[ActionRow]) -> tuple[Frame, ...]:
    """Replay ``actions`` from the match's ruleset, seed and deal: one frame per move."""
    try:
        m = Match.new(Ruleset.from_dict(match.ruleset), match.seed, match.deal)
    except (DominoError, KeyError, TypeError, ValueError) as exc:
        raise ServiceError("The match of table {table_id} cannot be rebuilt: {error}",
                           table_id=match.table_id, error=str(exc)) from exc
    frames = []
    for expected, row in enumerate(sorted(actions, key=lambda r: r.seq)):
        if row.seq != expected:
            raise ServiceError("Move {seq} of table {table_id} is missing from the log.",
                               seq=expected, table_id=match.table_id)
        hand = m.hand_number
        try:
            m = m.apply(decode_action(row.action), row.seat)
        except DominoError as exc:
            raise ServiceError("Move {seq} of table {table_id} does not replay: {error}",
                               seq=row.seq, table_id=match.table_id, error=str(exc)) from exc
        frames.append(Frame(hand, row.seat, row.action, m.public_view()))
    return tuple(frames)


async def load(store: Store, table_id: int) -> StoredMatch:
    """The stored match of ``table_id``, every move replayed."""
    match = await store.matches.get(table_id)
    if match is None:
        raise TableNotFound("No match was played at table {table_id}.", table_id=table_id)
    actions = await store.actions.list(table_id)
    seats = await store.seats.list(table_id)
    return StoredMatch(table_id, rebuild(match, actions), tuple(seats))


def replay_gif(stored: StoredMatch, names: Sequence[str], *, hand: int | None = None,
               labels: Mapping[str, str] | None = None) -> bytes:
    """The animated replay (GIF) of one hand or of the whole match, one frame per move.

    CPU-bound (about a second a hand): run it off the event loop.
    """
    from render.replay import ReplayTooLarge, render_replay

    frames = stored.select(hand)
    try:
        return render_replay([f.view for f in frames], names, labels=labels)
    except ReplayTooLarge as exc:
        raise ServiceError("This match is too long for one picture; replay one hand of it.",
                           ) from exc
