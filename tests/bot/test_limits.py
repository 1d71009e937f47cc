"""The limits on open tables and the cooldown on opening them (bot.limits)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.errors import LimitReached
from bot.limits import Gate, Held, Limits


@dataclass(frozen=True)
class Row:
    guild_id: int | None


@dataclass(frozen=True)
class Table:
    status: str
    people: tuple[int, ...]
    guild: int | None = 1

    @property
    def table(self) -> Row:
        return Row(self.guild)

    def is_seated(self, user_id: int) -> bool:
        return user_id in self.people


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def opening(gate: Gate, user: int, guild: int, tables: list[Table]) -> None:
    gate.check_open(user, guild, Held.count(user, guild, tables))


def joining(gate: Gate, user: int, tables: list[Table]) -> None:
    gate.check_join(Held.count(user, None, tables))


def starting(gate: Gate, people: list[int], tables: list[Table]) -> None:
    gate.check_start([Held.count(p, None, tables) for p in people])


def refused(call: object, *args: object) -> str:
    with pytest.raises(LimitReached) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value.message


def test_three_waiting_tables_per_person() -> None:
    gate = Gate(Limits())
    tables = [Table("lobby", (7,)), Table("lobby", (7, 8)), Table("running", (7,))]
    opening(gate, 7, 1, tables[:2])
    joining(gate, 7, tables[:2])
    tables.append(Table("lobby", (9, 7)))
    assert refused(opening, gate, 7, 1, tables) == (
        "You are already at 3 tables waiting for players: start or leave one first."
    )
    assert refused(joining, gate, 7, tables).startswith("You are already at 3 tables")
    opening(gate, 8, 1, tables)  # someone else may


def test_five_running_matches_per_person() -> None:
    gate = Gate(Limits())
    tables = [Table("running", (7, 8)) for _ in range(4)]
    joining(gate, 7, tables)
    starting(gate, [7, 9], tables)
    tables.append(Table("running", (7,)))
    assert refused(joining, gate, 7, tables) == (
        "You are already playing 5 matches: finish one first."
    )
    assert refused(starting, gate, [9, 7], tables) == (
        "Someone at this table is already playing 5 matches: the match can start once he has "
        "finished one."
    )
    starting(gate, [8, 9], tables)  # 4 for him


def test_fifty_open_tables_per_server() -> None:
    gate = Gate(Limits())
    tables = [Table("lobby" if i % 2 else "running", (1000 + i,)) for i in range(49)]
    tables.append(Table("lobby", (5,), guild=2))  # another server's
    opening(gate, 7, 1, tables)
    tables.append(Table("running", (6,)))
    assert refused(opening, gate, 7, 1, tables) == (
        "This server already has 50 open tables: wait until one finishes."
    )
    opening(gate, 7, 2, tables)


def test_a_cooldown_between_two_tables_of_one_person() -> None:
    clock = Clock()
    gate = Gate(Limits(cooldown=10), clock)
    gate.opened(7)
    clock.now += 3.2
    assert refused(opening, gate, 7, 1, []) == ("Please wait 7 s before you open another table.")
    opening(gate, 8, 1, [])
    clock.now += 6.5
    assert refused(opening, gate, 7, 1, []).startswith("Please wait 1 s")
    clock.now += 0.4
    opening(gate, 7, 1, [])


def test_zero_means_no_limit() -> None:
    gate = Gate(Limits(0, 0, 0, 0))
    many = [Table(s, (7,)) for s in ("lobby", "running") for _ in range(60)]
    gate.opened(7)
    opening(gate, 7, 1, many)
    joining(gate, 7, many)
    starting(gate, [7], many)


def test_the_last_opening_counts_wherever_it_was_made() -> None:
    """Our decision: the cooldown runs from the person's last table in the database too (a
    table opened through another bot process)."""
    clock = Clock()
    gate = Gate(Limits(cooldown=10), clock)
    assert refused(gate.check_open, 7, 1, Held(last_opened=clock.now - 4)) == (
        "Please wait 6 s before you open another table."
    )
    gate.check_open(7, 1, Held(last_opened=clock.now - 10))
