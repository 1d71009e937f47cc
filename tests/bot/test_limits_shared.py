"""The limits count what a person holds in the shared database, across bot processes.

Two table services, each with its own store (its own connections) on one database, each
running the servers of one shard, stand for two bot processes; on PostgreSQL they are two
processes' worth of concurrent transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.errors import LimitReached
from bot.limits import Limits
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock, make_service

SHARD_GUILDS = ({100, 101}, {200, 201})  # the servers of each process's shard


@contextlib.asynccontextmanager
async def services(
    url: str, clock: FakeClock, limits: Limits, owns: tuple[set[int] | None, ...] = (None, None)
) -> AsyncIterator[list[TableService]]:
    """One service per entry of ``owns`` (the servers it runs; None: every one), each with a
    store of its own on the database at ``url``."""
    stores = [await Store.open(url) for _ in owns]
    made = [
        make_service(
            store,
            clock,
            limits=limits,
            owns=lambda guild_id, mine=mine: mine is None or guild_id in mine,
        )
        for store, mine in zip(stores, owns, strict=True)
    ]
    try:
        yield made
    finally:
        for service, store in zip(made, stores, strict=True):
            await service.aclose()
            await store.close()


@pytest.fixture
async def two(database_url: str, clock: FakeClock) -> AsyncIterator[list[TableService]]:
    async with services(database_url, clock, Limits(cooldown=0.0), SHARD_GUILDS) as made:
        yield made


async def _lobby(service: TableService, host: int, guild: int) -> int:
    info = await service.create_table(
        host_id=host, host_name=f"P{host}", variant="partners", guild_id=guild
    )
    return info.id


def _refused(caught: pytest.ExceptionInfo[LimitReached]) -> str:
    return caught.value.message


async def test_three_waiting_tables_per_person_over_both_processes(
    two: list[TableService],
) -> None:
    a, b = two
    await _lobby(a, 7, 100)
    await _lobby(b, 7, 200)
    other = await _lobby(b, 8, 201)
    await b.join(other, 7, "P7")
    for service, guild in ((a, 101), (b, 200)):
        with pytest.raises(LimitReached) as caught:
            await _lobby(service, 7, guild)
        assert _refused(caught) == (
            "You are already at 3 tables waiting for players: start or leave one first."
        )
    fourth = await _lobby(a, 9, 100)
    with pytest.raises(LimitReached):
        await a.join(fourth, 7, "P7")
    await b.leave(other, 7)  # one freed in the other process: he may sit here now
    await a.join(fourth, 7, "P7")


async def test_five_running_matches_per_person_over_both_processes(
    two: list[TableService],
) -> None:
    a, b = two
    for n in range(4):
        service, guild = (a, 100) if n % 2 else (b, 200)
        table = await _lobby(service, 7, guild)
        await service.start(table, 7, fill_with_computers=True)
    waiting = await _lobby(b, 8, 201)
    await b.join(waiting, 7, "P7")  # four matches: he may still sit down
    fifth = await _lobby(a, 7, 101)
    await a.start(fifth, 7, fill_with_computers=True)
    with pytest.raises(LimitReached) as caught:
        await _lobby(a, 7, 100)
    assert _refused(caught) == "You are already playing 5 matches: finish one first."
    with pytest.raises(LimitReached) as caught:
        await b.start(waiting, 8, fill_with_computers=True)  # in the other process
    assert _refused(caught).startswith("Someone at this table is already playing 5 matches")
    await a.resign(fifth, 7)
    await b.start(waiting, 8, fill_with_computers=True)


async def test_cooldown_runs_from_a_table_opened_in_the_other_process(
    database_url: str, clock: FakeClock
) -> None:
    async with services(database_url, clock, Limits(cooldown=10.0)) as (a, b):
        await _lobby(a, 7, 100)
        clock.advance(4)
        with pytest.raises(LimitReached) as caught:
            await _lobby(b, 7, 200)
        assert _refused(caught) == "Please wait 6 s before you open another table."
        clock.advance(6)
        await _lobby(b, 7, 200)


async def test_racing_openings_in_two_processes_stay_within_the_limit(
    two: list[TableService],
) -> None:
    """Ten lobbies asked for at once, five through each process: three open."""
    a, b = two
    results = await asyncio.gather(
        *(_lobby(s, 7, g) for _ in range(5) for s, g in ((a, 100), (b, 200))),
        return_exceptions=True,
    )
    opened = [r for r in results if isinstance(r, int)]
    assert len(opened) == 3
    assert all(isinstance(r, LimitReached) for r in results if not isinstance(r, int))
    held = await a.store.limits.held(7)
    assert (held.lobbies, held.matches) == (3, 0)


async def test_server_tables_are_counted_in_the_database(
    database_url: str, clock: FakeClock
) -> None:
    """A server's tables, whichever process opened them (a shard moves between processes)."""
    async with services(database_url, clock, Limits(tables_per_server=3, cooldown=0)) as (a, b):
        await _lobby(a, 1, 100)
        await _lobby(a, 2, 100)
        await _lobby(b, 3, 100)
        with pytest.raises(LimitReached) as caught:
            await _lobby(b, 4, 100)
        assert _refused(caught) == (
            "This server already has 3 open tables: wait until one finishes."
        )
        await _lobby(a, 4, 101)


async def test_a_servers_own_limits_count_the_other_processes_tables(
    two: list[TableService], clock: FakeClock
) -> None:
    a, b = two
    settings = ServerSettings(b.store, clock=clock)
    await settings.update(200, lobbies_per_member=1)
    await _lobby(a, 7, 100)  # his lobby on a server of the other process
    with pytest.raises(LimitReached) as caught:
        await settings.check_limits(await settings.get(200), 7)
    assert _refused(caught) == (
        "You are already at 1 tables waiting for players: start or leave one first."
    )
    await settings.check_limits(await settings.get(200), 8)
