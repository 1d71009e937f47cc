"""The limits on open tables and the cooldown on opening them (bot.limits).

The gate judges what a person holds (:class:`Held`, counted in the database by the table
service: ``tests/bot/test_limits_shared.py``)."""

from __future__ import annotations

import pytest

from bot.errors import LimitReached
from bot.limits import Gate, Held, Limits


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def refused(call: object, *args: object) -> str:
    with pytest.raises(LimitReached) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value.message


def test_three_waiting_tables_per_person() -> None:
    gate = Gate(Limits())
    gate.check_open(7, 1, Held(lobbies=2, matches=1))
    gate.check_join(Held(lobbies=2, matches=1))
    assert refused(gate.check_open, 7, 1, Held(lobbies=3)) == (
        "You are already at 3 tables waiting for players: start or leave one first."
    )
    assert refused(gate.check_join, Held(lobbies=3)).startswith("You are already at 3 tables")


def test_five_running_matches_per_person() -> None:
    gate = Gate(Limits())
    gate.check_join(Held(matches=4))
    gate.check_start([Held(matches=4), Held()])
    assert refused(gate.check_join, Held(matches=5)) == (
        "You are already playing 5 matches: finish one first."
    )
    assert refused(gate.check_open, 7, 1, Held(matches=5)).startswith("You are already playing")
    assert refused(gate.check_start, [Held(), Held(matches=5)]) == (
        "Someone at this table is already playing 5 matches: the match can start once he has "
        "finished one."
    )


def test_fifty_open_tables_per_server() -> None:
    gate = Gate(Limits())
    gate.check_open(7, 1, Held(server_tables=49))
    assert refused(gate.check_open, 7, 1, Held(server_tables=50)) == (
        "This server already has 50 open tables: wait until one finishes."
    )
    gate.check_open(7, None, Held(server_tables=50))  # outside a server: no such limit


def test_a_cooldown_between_two_tables_of_one_person() -> None:
    clock = Clock()
    gate = Gate(Limits(cooldown=10), clock)
    gate.opened(7)
    clock.now += 3.2
    assert refused(gate.check_open, 7, 1, Held()) == (
        "Please wait 7 s before you open another table."
    )
    gate.check_open(8, 1, Held())
    clock.now += 6.5
    assert refused(gate.check_open, 7, 1, Held()).startswith("Please wait 1 s")
    clock.now += 0.4
    gate.check_open(7, 1, Held())


def test_the_last_opening_counts_wherever_it_was_made() -> None:
    """Our decision: the cooldown runs from the person's last table in the database too (a
    table opened through another bot process)."""
    clock = Clock()
    gate = Gate(Limits(cooldown=10), clock)
    assert refused(gate.check_open, 7, 1, Held(last_opened=clock.now - 4)) == (
        "Please wait 6 s before you open another table."
    )
    gate.check_open(7, 1, Held(last_opened=clock.now - 10))


def test_zero_means_no_limit() -> None:
    gate = Gate(Limits(0, 0, 0, 0))
    many = Held(lobbies=60, matches=60, server_tables=600, last_opened=0.0)
    gate.opened(7)
    gate.check_open(7, 1, many)
    gate.check_join(many)
    gate.check_start([many])
    assert not gate.counts_people
