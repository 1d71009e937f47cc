"""Support for the records tests (no tests here): stored rows of finished matches, by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.records.record import MatchRecord, build_record
from bot.records.service import Records
from bot.store import HandResultRow, MatchRow, SeatRow, TableRow
from domino import preset

Seat = tuple[int | None, str, str | None]  # (user id or None for a computer, name, ai level)


def human(user_id: int, name: str | None = None) -> Seat:
    return (user_id, name or f"P{user_id}", None)


def computer(level: str = "hard") -> Seat:
    return (None, f"Computer {level}", level)


def hand(
    number: int,
    kind: str,
    winner_seat: int | None,
    winner_side: int | None,
    points: Sequence[int],
) -> dict[str, Any]:
    return {
        "hand_number": number,
        "kind": kind,
        "winner_seat": winner_seat,
        "winner_side": winner_side,
        "points": list(points),
        "pips": [],
        "opener": 0,
        "last_player": None,
    }


def make_record(
    table_id: int,
    variant: str,
    seats: Sequence[Seat],
    hands: Sequence[dict[str, Any]],
    *,
    winner_side: int | None,
    draw: bool = False,
    reason: str = "target",
    resigned_seat: int | None = None,
    guild_id: int | None = 1,
    started_at: float = 1_000.0,
    finished_at: float | None = None,
) -> MatchRecord:
    """A finished match's record, made from rows as the store would hold them."""
    rs = preset(variant)
    finished = started_at + 600.0 if finished_at is None else finished_at
    table = TableRow(
        id=table_id,
        guild_id=guild_id,
        channel_id=5,
        thread_id=None,
        host_id=seats[0][0] or 0,
        variant=variant,
        options={},
        status="finished",
        turn_timer=120,
        locale=None,
        message_id=None,
        lobby_message_id=None,
        created_at=started_at,
        updated_at=finished,
    )
    seat_rows = [
        SeatRow(table_id, i, uid, name, "human" if uid is not None else "computer", level)
        for i, (uid, name, level) in enumerate(seats)
    ]
    match = MatchRow(
        table_id=table_id,
        ruleset=rs.to_dict(),
        seed=1,
        deal=None,
        started_at=started_at,
        finished_at=finished,
        outcome={
            "winner_side": winner_side,
            "draw": draw,
            "reason": reason,
            "resigned_seat": resigned_seat,
        },
    )
    hand_rows = [HandResultRow(table_id, h["hand_number"], h) for h in hands]
    return build_record(table, seat_rows, match, hand_rows)


async def duel(
    records: Records,
    table_id: int,
    winner: int,
    loser: int,
    *,
    guild_id: int | None = 1,
    at: float = 1_000.0,
    variant: str = "draw",
) -> None:
    """Record a one-hand two-player match that ``winner`` won by domino, 100 to 0."""
    await records.record_match(
        make_record(
            table_id,
            variant,
            [human(winner), human(loser)],
            [hand(1, "domino", 0, 0, [100, 0])],
            winner_side=0,
            guild_id=guild_id,
            started_at=at,
            finished_at=at + 60,
        )
    )
