"""A match's public history, rebuilt from its stored action log: what the move log shows.

Every entry is public: who played which tile on which end, passed, drew (a run of draws is
one entry), resigned, whether the turn timer moved for him, and each hand's result. Drawn
tiles are never named. The log also says after which actions a computer took over a person's
seats (he ran out of time too often).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.store import ActionRow
from domino import Draw, HandResult, Match, Pass, Play, Resign, Ruleset, Tile, decode_action
from domino.spinner import end_count

__all__ = ["TAKEOVER", "TIMED_OUT", "Entry", "History"]

#: ``made_by`` of an action the turn timer made for a person; ``TAKEOVER``: the one after which
#: a computer plays his seats for the rest of the match.
TAKEOVER = "takeover"
TIMED_OUT = ("timeout", TAKEOVER)

Kind = Literal["start", "play", "draw", "pass", "resign", "hand"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the move log.

    ``first``..``last`` are the numbers of the actions it covers (a start tile covers none:
    ``last`` is then the action before it). ``number`` is the end a tile was laid on (None:
    it opened the line), ``count`` the tiles drawn in a run of draws, ``result`` the hand's
    result for a ``hand`` entry.
    """

    kind: Kind
    hand: int
    seat: int | None
    first: int
    last: int
    tile: Tile | None = None
    end: str | None = None
    number: int | None = None
    count: int = 0
    timed_out: bool = False
    forced: bool = False  # the only possible move, made by the bot (forced moves)
    result: HandResult | None = None
    points: int = 0  # what a play scored at the ends (All Fives)


class History:
    """The entries of one match, extended action by action from the store's rows."""

    def __init__(self, ruleset: Ruleset, seed: int | str, deal: dict[str, object] | None) -> None:
        self.match = Match.new(ruleset, seed, deal)
        self.seq = 0  # actions read so far
        self.entries: list[Entry] = []
        self.takeovers: list[tuple[int, int]] = []  # (action number, seat) of each take-over
        self._start()

    def extend(self, rows: Iterable[ActionRow]) -> None:
        """Read the next actions (rows already read are skipped)."""
        for row in rows:
            if row.seq < self.seq:
                continue
            if row.seq != self.seq:
                raise ValueError(f"action {row.seq} read before action {self.seq}")
            self._read(row)

    def since(self, seats: Sequence[int], *, limit: int | None = None) -> list[Entry]:
        """The entries after the last action of any of ``seats`` (everything if none acted)."""
        start = 0
        for i, entry in enumerate(self.entries):
            if entry.seat in seats and entry.kind in ("play", "draw", "pass"):
                start = i + 1
        found = self.entries[start:]
        return found[-limit:] if limit else found

    def of_hand(self, seq: int, hand: int, limit: int) -> list[Entry]:
        """The last ``limit`` entries of hand ``hand`` in the first ``seq`` actions, after the
        previous hand's result (no tile of an earlier hand: it may be in a hand again)."""
        found = [
            e
            for e in self.entries
            if e.last < seq and (e.hand == hand or (e.kind == "hand" and e.hand == hand - 1))
        ]
        return found[-limit:]

    def timed_out(self, seq: int, hand: int) -> frozenset[int]:
        """The seats whose latest turn in hand ``hand``, after ``seq`` actions, the timer
        played."""
        latest: dict[int, bool] = {}
        for e in self.entries:
            if e.last < seq and e.hand == hand and e.seat is not None and e.kind != "resign":
                latest[e.seat] = e.timed_out
        return frozenset(seat for seat, timed in latest.items() if timed)

    # -- reading one action --------------------------------------------------------------

    def _start(self) -> None:
        """The start tile a hand may begin with (laid by nobody)."""
        events = self.match.events
        if events and events[0].kind == "start":
            self.entries.append(
                Entry("start", self.match.hand_number, None, self.seq, self.seq - 1,
                      tile=events[0].tile)
            )

    def _read(self, row: ActionRow) -> None:
        action = decode_action(row.action)
        before = self.match
        if isinstance(action, Resign):
            after = before.apply(action)
        else:
            after = before.apply(action, row.seat)
        seq, hand = row.seq, before.hand_number
        timed_out = row.made_by in TIMED_OUT
        if row.made_by == TAKEOVER:
            self.takeovers.append((row.seq, row.seat))
        forced = row.made_by == "forced"
        ended = len(after.hand_results) > len(before.hand_results)
        last = self.entries[-1] if self.entries else None
        if isinstance(action, Resign):
            # (a loss on time: its time-outs in a row)
            self.entries.append(Entry("resign", hand, action.seat, seq, seq,
                                      count=action.timeouts, timed_out=action.timeouts > 0))
        elif isinstance(action, Draw):
            if last is not None and last.kind == "draw" and last.seat == row.seat \
                    and last.last == seq - 1:
                self.entries[-1] = dataclasses.replace(
                    last, last=seq, count=last.count + 1, timed_out=last.timed_out or timed_out,
                    forced=last.forced or forced,
                )
            else:
                self.entries.append(Entry("draw", hand, row.seat, seq, seq, count=1,
                                          timed_out=timed_out, forced=forced))
        elif isinstance(action, Pass):
            self.entries.append(Entry("pass", hand, row.seat, seq, seq, timed_out=timed_out,
                                      forced=forced))
        elif isinstance(action, Play):
            end, number = _where(before, after, action, ended)
            self.entries.append(Entry("play", hand, row.seat, seq, seq, tile=action.tile,
                                      end=end, number=number, timed_out=timed_out,
                                      forced=forced, points=_end_points(after, ended)))
        self.match = after
        self.seq = seq + 1
        if ended:
            self.entries.append(Entry("hand", hand, None, seq, seq,
                                      result=after.hand_results[-1]))
            if after.outcome is None:
                self._start()


def _end_points(after: Match, ended: bool) -> int:
    """What the play that led to ``after`` scored at the ends (games scored at the ends)."""
    step = after.ruleset.end_scoring
    if not step:
        return 0
    if not ended:
        return after.events[-1].points if after.events else 0
    final = after.hand_results[-1]  # the hand ended on it: count its final ends
    count = end_count(final.line, final.spinner, final.arms)
    return count if count % step == 0 else 0


def _where(before: Match, after: Match, play: Play, ended: bool) -> tuple[str | None, int | None]:
    """The end a tile went to and the number it was laid on (None, None: it opened the line)."""
    ends = dict(before.open_ends()) if before.line else {}
    if not ends:
        return None, None
    end: str | None = play.end
    if end is None and not ended and after.events and after.events[-1].kind == "play":
        end = after.events[-1].end
    if end is None:  # the hand ended on it: the one end it fits (the right when both do)
        fits = [name for name, n in ends.items() if n in (play.tile.a, play.tile.b)]
        end = "right" if "right" in fits else (fits[0] if fits else None)
    return end, ends.get(end) if end is not None else None
