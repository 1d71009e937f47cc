"""The record of one finished match: who played on which side, and how each fared.

Pure data built from the table service's stored rows; :mod:`bot.records.rating` rates it,
:mod:`bot.records.store` writes and reads it, :mod:`bot.records.service` ties them together.

Participants: each person with all his seats (seven-seven: two), and each computer level on a
side as the pseudo-player ``computer:<level>`` (a negative player id). A seat a computer took
over after time-outs still belongs to its person.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import HandResultRow, MatchRow, SeatRow, TableRow
from bot.tables.values import is_correspondence
from domino import Outcome, Ruleset

__all__ = [
    "ALL",
    "BUCKETS",
    "COMPUTER_IDS",
    "CORRESPONDENCE",
    "DEFAULT_FAMILY",
    "FAMILIES",
    "GLOBAL",
    "LIVE",
    "SLOW_FAMILIES",
    "MatchRecord",
    "Participant",
    "build_record",
    "computer_id",
    "computer_level",
    "family_of",
    "speed_family",
    "speed_of",
]

GLOBAL = 0  # the scope of everything; other scopes are guild ids
ALL = "all"  # the bucket of every variant together
FAMILIES: dict[str, tuple[str, ...]] = {
    "partnership": ("partners", "spanish", "venezuelan", "brazilian", "cuban", "seven-seven"),
    "two-player": ("draw", "two", "penalty"),
    "three-player": ("three",),
    "fives": ("all-fives",),  # scored at the ends: a skill of its own, whatever the seats
}
DEFAULT_FAMILY = "partnership"
#: The speeds, rated apart (as Lichess rates its speeds): live tables (seconds per move) and
#: correspondence tables (hours or days). A correspondence match is rated in its family's
#: correspondence family, ``correspondence-<family>``, whose board is a bucket of its own.
LIVE, CORRESPONDENCE = "live", "correspondence"
SLOW_FAMILIES: dict[str, str] = {f"{CORRESPONDENCE}-{f}": f for f in FAMILIES}
BUCKETS: tuple[str, ...] = (
    ALL, *FAMILIES, *(v for vs in FAMILIES.values() for v in vs), *SLOW_FAMILIES
)
# Fixed player ids of the computer levels; a level not listed gets one from its name (when a level
# joins the list, a migration moves what it played before to its fixed id).
COMPUTER_IDS = {"easy": -1, "normal": -2, "hard": -3, "heaviest": -4, "expert": -5}
COMPUTER_PREFIX = "computer:"


def family_of(variant: str, ruleset: Ruleset | None = None) -> str:
    """The rating family of a variant (unknown variants: by their shape)."""
    for family, variants in FAMILIES.items():
        if variant in variants:
            return family
    if ruleset is not None:
        if ruleset.teams:
            return "partnership"
        if ruleset.seats == 3:
            return "three-player"
    return "two-player"


def speed_family(family: str, speed: str) -> str:
    """The family a match of ``speed`` is rated in: a live match in its variant's family, a
    correspondence match in that family's correspondence family."""
    return family if speed == LIVE else f"{CORRESPONDENCE}-{family}"


def speed_of(turn_timer: int) -> str:
    """The speed of a table of ``turn_timer`` seconds per move."""
    return CORRESPONDENCE if is_correspondence(turn_timer) else LIVE


def computer_id(level: str) -> int:
    """The (negative) player id of the pseudo-player ``computer:<level>``."""
    known = COMPUTER_IDS.get(level)
    if known is not None:
        return known
    return -(1000 + zlib.crc32(level.encode()) % 1_000_000_000)


def computer_level(name: str) -> str:
    """The level of a computer's recorded name ``computer:<level>``."""
    return name.removeprefix(COMPUTER_PREFIX)


@dataclass(frozen=True, slots=True)
class Participant:
    """A person (with all his seats) or a computer level on one side of a match."""

    player_id: int
    name: str  # display name of a person; "computer:<level>" for a computer
    kind: str  # "human" | "computer"
    side: int
    seats: tuple[int, ...]
    result: str  # "win" | "loss" | "draw"
    rank: int  # 1 = best; equal ranks are ties
    points_for: int
    points_against: int
    hands_won: int
    dominoes: int
    blocks_won: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A recorded match: as built from the table's rows (with its participants and the sides'
    ranks), or as read back from the records (without them)."""

    table_id: int
    guild_id: int | None
    variant: str
    family: str
    seats: int
    teams: bool
    people: int
    computers: int
    hands: int
    scores: tuple[int, ...]
    winner_side: int | None
    draw: bool
    reason: str
    started_at: float
    finished_at: float
    side_ranks: tuple[int, ...] = ()
    participants: tuple[Participant, ...] = ()
    seats_per_person: int = 1  # seven-seven: 2 (one person, or one computer, holds a team)

    @property
    def duration(self) -> float:
        return max(0.0, self.finished_at - self.started_at)


def _side_ranks(rs: Ruleset, scores: Sequence[int], outcome: Outcome) -> tuple[int, ...]:
    resigned = None if outcome.resigned_seat is None else rs.side_of(outcome.resigned_seat)
    sign = 1 if rs.scoring == "penalty" else -1

    def key(side: int) -> tuple[int, int, int]:
        return (int(side != outcome.winner_side), int(side == resigned), sign * scores[side])

    keys = sorted({key(s) for s in range(rs.sides)})
    return tuple(keys.index(key(s)) + 1 for s in range(rs.sides))


def build_record(
    table: TableRow,
    seats: Sequence[SeatRow],
    match: MatchRow,
    hands: Sequence[HandResultRow],
    names: Mapping[int, str] | None = None,
) -> MatchRecord:
    """The record of a finished match from its stored rows (raises ValueError if unfinished).

    With ``names``, people are recorded under those names (an unnamed person under ""), not
    the seat's name, which may be a server nickname.
    """
    if match.outcome is None or match.finished_at is None:
        raise ValueError(f"the match of table {table.id} has not finished")
    rs = Ruleset.from_dict(match.ruleset)
    outcome = Outcome(
        winner_side=match.outcome.get("winner_side"),
        draw=bool(match.outcome.get("draw")),
        reason=match.outcome.get("reason", "target"),
        resigned_seat=match.outcome.get("resigned_seat"),
        timeouts=int(match.outcome.get("timeouts") or 0),
    )
    results = [h.result for h in sorted(hands, key=lambda h: h.hand_number)]
    scores = [0] * rs.sides
    for r in results:
        for side, points in enumerate(r["points"]):
            scores[side] += points
    ranks = _side_ranks(rs, scores, outcome)

    groups: dict[tuple[int, int], dict[str, Any]] = {}
    for s in sorted(seats, key=lambda s: s.seat):
        side = rs.side_of(s.seat)
        if s.user_id is not None:
            pid, kind = s.user_id, "human"
            name = s.name if names is None else names.get(s.user_id, "")
        else:
            level = s.ai_level or "normal"
            pid, kind, name = computer_id(level), "computer", f"computer:{level}"
        group = groups.setdefault((pid, side), {"name": name, "kind": kind, "seats": []})
        group["seats"].append(s.seat)

    penalty = rs.scoring == "penalty"
    participants: list[Participant] = []
    for (pid, side), group in groups.items():
        own = tuple(group["seats"])
        won = [r for r in results if r.get("winner_side") == side]
        mine = sum(r["points"][side] for r in results)
        theirs = sum(sum(r["points"]) - r["points"][side] for r in results)
        if outcome.draw:
            result = "draw" if ranks[side] == 1 else "loss"
        else:
            result = "win" if side == outcome.winner_side else "loss"
        participants.append(
            Participant(
                player_id=pid,
                name=group["name"],
                kind=group["kind"],
                side=side,
                seats=own,
                result=result,
                rank=ranks[side],
                points_for=theirs if penalty else mine,
                points_against=mine if penalty else theirs,
                hands_won=len(won),
                dominoes=sum(
                    1 for r in results if r.get("kind") == "domino" and r.get("winner_seat") in own
                ),
                blocks_won=sum(1 for r in won if r.get("kind") == "block"),
            )
        )
    people = {s.user_id for s in seats if s.user_id is not None}
    return MatchRecord(
        table_id=table.id,
        guild_id=table.guild_id,
        variant=rs.id,
        family=speed_family(family_of(rs.id, rs), speed_of(table.turn_timer)),
        seats=rs.seats,
        teams=rs.teams,
        people=len(people),
        computers=sum(1 for s in seats if s.user_id is None),
        hands=len(results),
        scores=tuple(scores),
        winner_side=outcome.winner_side,
        draw=outcome.draw,
        reason=outcome.reason,
        started_at=match.started_at,
        finished_at=match.finished_at,
        side_ranks=ranks,
        participants=tuple(participants),
        seats_per_person=max(1, rs.seats // max(1, rs.people)),
    )
