"""Support for the achievements tests (no tests here): whole matches played by random legal
moves, turned into the stored rows the records and the achievements read."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.achievements.rules import Moments, moments_of
from bot.records.record import MatchRecord, build_record
from bot.store import ActionRow, HandResultRow, MatchRow, SeatRow, TableRow
from domino import Match, Resign, Ruleset, encode_action, preset

__all__ = ["Played", "play_random"]


class Played:
    """A finished random match: its ruleset, seed, action rows, record and moments."""

    def __init__(
        self, rs: Ruleset, seed: int, match: Match, actions: list[ActionRow], record: MatchRecord
    ) -> None:
        self.rs = rs
        self.seed = seed
        self.match = match
        self.actions = actions
        self.record = record

    @property
    def moments(self) -> Moments:
        return moments_of(self.rs, self.seed, None, self.actions)


def play_random(
    variant: str,
    seed: int,
    people: Sequence[int | None],
    *,
    level: str = "hard",
    table_id: int = 1,
    guild_id: int | None = 1,
    at: float = 1_000.0,
    made_by: dict[int, str] | None = None,
    **options: object,
) -> Played:
    """Play a match of ``variant`` to its end with random legal moves (from ``seed``).

    ``people[seat]`` is the user id at each seat (None: a computer of ``level``); ``made_by``
    names who made each seat's moves when not the person ("timeout", "takeover")."""
    rs = preset(variant, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    m = Match.new(rs, seed)
    rows: list[ActionRow] = []
    while m.outcome is None:
        legal = [a for a in m.legal_actions() if not isinstance(a, Resign)]
        seat = m.turn
        assert seat is not None
        action = rng.choice(legal)
        rows.append(
            ActionRow(table_id, len(rows), seat, encode_action(action), at,
                      (made_by or {}).get(seat, "player"))
        )
        m = m.apply(action)
    assert m.outcome is not None
    table = TableRow(
        id=table_id, guild_id=guild_id, channel_id=5, thread_id=None, host_id=1,
        variant=variant, options={}, status="finished", turn_timer=120, locale=None,
        message_id=None, lobby_message_id=None, created_at=at, updated_at=at + 600,
    )
    seats = [
        SeatRow(table_id, s, uid, f"P{uid}" if uid else f"Computer {level}",
                "human" if uid else "computer", None if uid else level)
        for s, uid in enumerate(people)
    ]
    match_row = MatchRow(table_id, rs.to_dict(), seed, None, at, at + 600, m.outcome.to_dict())
    hands = [HandResultRow(table_id, r.hand_number, r.to_dict()) for r in m.hand_results]
    return Played(rs, seed, m, rows, build_record(table, seats, match_row, hands))
