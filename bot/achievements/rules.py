"""Which achievements one match earns a person: pure functions of the match's public history.

Two kinds of rules:

- **moments of the match** (:func:`match_codes`), read from its public move log
  (:class:`Moments`, rebuilt from the stored actions): a capicúa, a domino with a double, a
  tranque, a block won by one pip, 25 points with one tile in All Fives, five hands in a row,
  a shut-out, a comeback, beating a computer level. A tile the turn timer played for a person
  earns him nothing, and a person whose seats a computer took over in the match (he ran out of
  time too often) earns no moment of that match.
- **thresholds** (:func:`tally_codes`): his figures over every rated match (the first win, 10
  and 100 matches, five wins in a row, every variant) reach a mark in this match.

Only public facts are read (the tiles laid, the hands' results): never a hidden tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.achievements.catalogue import LEVELS_BEATEN, VARIANTS
from bot.records.record import MatchRecord, Participant, computer_level
from bot.store import ActionRow
from bot.tables.history import TAKEOVER, TIMED_OUT
from domino import Action, HandResult, Match, Play, Resign, Ruleset, Tile, decode_action
from domino.spinner import end_count

__all__ = [
    "FIVES_PLAY",
    "STREAK",
    "Moments",
    "PlayMoment",
    "Tally",
    "block_margin",
    "is_capicua",
    "match_codes",
    "moments_of",
    "tally_codes",
]

FIVES_PLAY = 25  # points with one tile at the ends (All Fives)
HANDS_IN_A_ROW = 5
STREAK = 5  # rated matches won in a row
MATCH_MARKS = (10, 100)


@dataclass(frozen=True, slots=True)
class PlayMoment:
    """A tile laid (a hand's last, or one that scored at the ends): by ``seat`` (``own``: the
    person chose it, not the timer), on the number ``number`` of the end ``end`` (None: it
    opened the line, or it is not a hand's last), scoring ``points`` at the ends."""

    hand: int
    seat: int
    tile: Tile
    end: str | None
    number: int | None
    points: int
    own: bool
    last: bool = True  # it ended its hand



@dataclass(frozen=True, slots=True)
class Moments:
    """The public facts of a finished match that achievements read."""

    ruleset: Ruleset
    results: tuple[HandResult, ...]
    plays: tuple[PlayMoment, ...]
    taken_over: frozenset[int] = field(default_factory=frozenset)  # seats a computer took

    def last_play(self, hand: int) -> PlayMoment | None:
        """The tile that ended hand ``hand`` (None: it ended on a pass or a draw)."""
        return next((p for p in self.plays if p.hand == hand and p.last), None)


@lru_cache(maxsize=4096)
def _decode(text: str) -> Action:
    return decode_action(text)


def _where(before: Match, play: Play) -> tuple[str | None, int | None]:
    """The end the hand's last tile went to and the number it was laid on (None, None: it
    opened the line); an end left open by the player is the one it fits (the right when both
    do), as the move log says it."""
    ends = dict(before.open_ends()) if before.line else {}
    if not ends:
        return None, None
    end = play.end
    if end is None:
        fits = [name for name, n in ends.items() if n in (play.tile.a, play.tile.b)]
        end = "right" if "right" in fits else (fits[0] if fits else None)
    return end, ends.get(end) if end is not None else None


def moments_of(
    ruleset: Ruleset, seed: int, deal: dict[str, Any] | None, actions: Sequence[ActionRow]
) -> Moments:
    """The moments of a match, from its stored seed, deal and action log: each hand's last
    tile and, in games scored at the ends, every tile that scored."""
    m = Match.new(ruleset, seed, deal)
    plays: list[PlayMoment] = []
    taken: set[int] = set()
    for row in actions:
        action = _decode(row.action)
        if row.made_by == TAKEOVER:
            taken.add(row.seat)
        before = m
        m = before.apply(action) if isinstance(action, Resign) else before.apply(action, row.seat)
        if not isinstance(action, Play):
            continue
        hand = before.hand_number
        own = row.made_by not in TIMED_OUT
        if m.hand_number != hand or m.outcome is not None:  # the hand's last tile
            end, number = _where(before, action)
            points = 0
            if ruleset.end_scoring:
                final = m.hand_results[hand - 1]
                count = end_count(final.line, final.spinner, final.arms)
                points = count if count % ruleset.end_scoring == 0 else 0
            plays.append(PlayMoment(hand, row.seat, action.tile, end, number, points, own))
        elif ruleset.end_scoring:
            event = m.events[-1]
            if event.points:
                plays.append(
                    PlayMoment(
                        hand, row.seat, action.tile, event.end, None, event.points, own, False
                    )
                )
    return Moments(ruleset, m.hand_results, tuple(plays), frozenset(taken))


# ----------------------------------------------------------------------------- moments


def is_capicua(result: HandResult, last: PlayMoment) -> bool:
    """The hand's domino fitted either end: the two ends showed different numbers and the tile
    showed both (as the capicúa bonus of RULES.md; a line with a spinner has no capicúa)."""
    if result.kind != "domino" or result.spinner is not None or last.number is None:
        return False
    if not result.line or last.end not in ("left", "right"):
        return False
    other = result.line[0][0] if last.end == "right" else result.line[-1][1]
    return last.number != other and last.tile == Tile(min(last.number, other),
                                                       max(last.number, other))


def block_margin(rs: Ruleset, result: HandResult) -> int | None:
    """By how many pips the winner of a blocked hand beat the best other side (as the hand was
    scored: the sides' totals for team blocks, else the lowest player's count); None if the
    hand was not won at a block."""
    if result.kind != "block" or result.ending != "block" or result.winner_side is None:
        return None
    pips = result.pips
    mine = rs.seats_of_side(result.winner_side)
    theirs = [s for s in range(rs.seats) if rs.side_of(s) != result.winner_side]
    if not theirs:
        return None
    if rs.scoring != "penalty" and rs.blocked == "team":
        sides = [sum(pips[s] for s in rs.seats_of_side(side)) for side in range(rs.sides)]
        best_other = min(v for side, v in enumerate(sides) if side != result.winner_side)
        return best_other - sides[result.winner_side]
    return min(pips[s] for s in theirs) - min(pips[s] for s in mine)


def _hands_in_a_row(results: Iterable[HandResult], side: int) -> int:
    best = run = 0
    for r in results:
        run = run + 1 if r.winner_side == side else 0
        best = max(best, run)
    return best


def _trailed_by(results: Sequence[HandResult], side: int, sides: int) -> int:
    """The most the side was behind the leader after any hand."""
    scores = [0] * sides
    worst = 0
    for r in results:
        for s, points in enumerate(r.points):
            scores[s] += points
        worst = max(worst, max(scores) - scores[side])
    return worst


def match_codes(record: MatchRecord, moments: Moments, p: Participant) -> set[str]:
    """The moments of this match that earn ``p`` (a person) an achievement."""
    if p.kind != "human" or set(p.seats) & moments.taken_over:
        return set()
    rs = moments.ruleset
    mine = set(p.seats)
    found: set[str] = set()
    for result in moments.results:
        last = moments.last_play(result.hand_number)
        mine_out = last is not None and last.own and last.seat in mine
        if result.kind == "domino" and last is not None and mine_out:
            if result.winner_seat == last.seat and is_capicua(result, last):
                found.add("capicua")
            if result.winner_seat == last.seat and last.tile.is_double:
                found.add("double-domino")
        if result.winner_side == p.side and block_margin(rs, result) is not None:
            found.add("tranque")
            if block_margin(rs, result) == 1:
                found.add("one-pip")
    if rs.end_scoring and any(
        m.own and m.seat in mine and m.points >= FIVES_PLAY for m in moments.plays
    ):
        found.add("fives-25")
    if _hands_in_a_row(moments.results, p.side) >= HANDS_IN_A_ROW:
        found.add("five-hands")
    if p.result == "win":
        others = [s for i, s in enumerate(record.scores) if i != p.side]
        if record.reason == "target" and rs.scoring != "penalty":
            if others and all(s == 0 for s in others):
                found.add("pollona")
            target = rs.target or 0
            if target and 2 * _trailed_by(moments.results, p.side, rs.sides) >= target:
                found.add("comeback")
        for o in record.participants:
            if o.kind == "computer" and o.side != p.side:
                level = computer_level(o.name)
                if level in LEVELS_BEATEN:
                    found.add(f"beat-{level}")
    return found


# ----------------------------------------------------------------------------- thresholds


@dataclass(frozen=True, slots=True)
class Tally:
    """A person's figures over his rated matches, this one included."""

    matches: int
    wins: int
    streak: int  # rated matches won in a row up to this one
    variants: frozenset[str]  # the variants he played

    def after(self, result: str, variant: str) -> Tally:
        """The tally after one more match."""
        win = result == "win"
        return Tally(
            self.matches + 1,
            self.wins + int(win),
            self.streak + 1 if win else 0,
            self.variants | {variant},
        )


def tally_codes(before: Tally, after: Tally) -> set[str]:
    """The thresholds crossed by the match that took ``before`` to ``after``."""
    found: set[str] = set()
    if before.wins < 1 <= after.wins:
        found.add("first-win")
    for mark in MATCH_MARKS:
        if before.matches < mark <= after.matches:
            found.add(f"matches-{mark}")
    if before.streak < STREAK <= after.streak:
        found.add("streak-5")
    if not set(VARIANTS) <= before.variants and set(VARIANTS) <= after.variants:
        found.add("all-variants")
    return found
