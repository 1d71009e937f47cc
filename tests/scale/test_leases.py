"""Shard leases on both backends: one holder at a time, expiry, release, takeover of tables."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import shard_space
from bot.errors import TablesElsewhere
from bot.settings import Settings, load_settings, sqlite_url
from bot.store import POSTGRES, SQLITE, Store
from bot.store.leases import LeaseConflict, LeaseRepo
from bot.tables.leases import ShardLeases, shard_of
from bot.tables.service import TableService
from domino import Draw, Pass, Play
from tests.scale.cluster import until

TTL = 0.4
A_TTL = 60.0  # outlives every check of A's lease on a busy machine; its end is made at once


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(database_url)
    yield s
    await s.close()


def guild_of(shard: int, count: int = 2) -> int:
    """A guild id Discord routes to ``shard`` (``(id >> 22) % count``)."""
    return ((1_000_000 + shard) << 22) | 12345


def test_a_table_belongs_to_its_guilds_shard() -> None:
    """Discord's rule: shard = (guild_id >> 22) % shard_count; DMs go to shard 0."""
    assert shard_of(guild_of(1), 2) == 1 and shard_of(guild_of(0), 2) == 0
    assert shard_of(175928847299117063, 4) == (175928847299117063 >> 22) % 4
    assert shard_of(None, 8) == 0


def test_shard_settings() -> None:
    """Our decision: without SHARD_COUNT one process holds one shard of tables (all of them);
    SHARD_COUNT alone gives this process every shard."""
    one = load_settings(None, environ={})
    assert shard_space(one) == (1, (0,)) and one.shard_lease_seconds == 30
    some = load_settings(
        None, environ={"SHARD_COUNT": "4", "SHARD_IDS": "1-2", "SHARD_LEASE_SECONDS": "10"}
    )
    assert shard_space(some) == (4, (1, 2)) and some.shard_lease_seconds == 10
    every = Settings(None, None, None, "INFO", shard_count=3)
    assert shard_space(every) == (3, (0, 1, 2))


async def test_one_holder_at_a_time_until_expiry(store: Store) -> None:
    repo = LeaseRepo(store.driver)
    a = await repo.claim(0, 2, "a", TTL)
    assert a is not None and a.owner == "a" and a.epoch == 1
    assert await repo.claim(0, 2, "b", TTL) is None  # a's lease is live
    renewed = await repo.claim(0, 2, "a", TTL)
    assert renewed is not None and renewed.epoch == 1 and renewed.expires_at >= a.expires_at
    await asyncio.sleep(TTL * 1.5)
    b = await repo.claim(0, 2, "b", TTL)
    assert b is not None and b.owner == "b" and b.epoch == 2 and b.acquired_at >= a.expires_at
    assert await repo.claim(0, 2, "a", TTL) is None  # a lost it for good
    await repo.release("b", [0])
    again = await repo.claim(0, 2, "a", TTL)  # released: no wait
    assert again is not None and again.epoch == 3


async def test_racing_processes_take_a_shard_once(store: Store, database_url: str) -> None:
    """Five processes (five connections) claim the same shard at the same instant."""
    others = [await Store.open(database_url) for _ in range(4)]
    try:
        stores = [store, *others]
        rows = await asyncio.gather(
            *(LeaseRepo(s.driver).claim(1, 2, f"p{n}", 5.0) for n, s in enumerate(stores)),
            return_exceptions=True,
        )
    finally:
        for s in others:
            await s.close()
    won = [r for r in rows if r is not None and not isinstance(r, BaseException)]
    assert len(won) == 1, rows


async def test_a_different_shard_count_is_refused(store: Store) -> None:
    repo = LeaseRepo(store.driver)
    assert await repo.claim(0, 2, "a", 5.0) is not None
    with pytest.raises(LeaseConflict, match="SHARD_COUNT"):
        await repo.claim(3, 4, "c", 5.0)


async def test_a_lease_renewed_after_it_lapsed_is_taken_again(store: Store) -> None:
    """A renewal that comes after the lease could no longer be proven (the heartbeat late
    under load) reports the shard as gained: what was skipped meanwhile, as not surely this
    process's, is loaded again from the store."""
    leases = ShardLeases(store, shard_count=1, shard_ids=[0], ttl=A_TTL)
    assert await leases.refresh() == (frozenset({0}), frozenset())
    assert await leases.refresh() == (frozenset(), frozenset())  # renewed in time
    leases._valid_until = dict.fromkeys(leases.held, 0.0)  # as if the heartbeat ran late
    assert not leases.owns(None) and leases.held == {0}
    assert await leases.refresh() == (frozenset({0}), frozenset())
    assert leases.owns(None)
    await leases.stop()


async def test_a_lapsed_lease_is_confirmed_in_the_store_before_a_click_is_left(
    store: Store,
) -> None:
    """Our decision: a click on a server whose lease this process holds but cannot prove (its
    heartbeat late, as during a start-up on a busy machine) is not left to another holder
    that does not exist: the lease is renewed in the store first, and the click answered if it
    still is this process's. A lease another process holds is never confirmed."""
    leases = ShardLeases(store, shard_count=2, shard_ids=[0], ttl=A_TTL, owner="a")
    await leases.refresh()
    guild = next(n << 22 for n in range(1, 9) if shard_of(n << 22, 2) == 0)
    other = next(n << 22 for n in range(1, 9) if shard_of(n << 22, 2) == 1)
    leases._valid_until = dict.fromkeys(leases.held, 0.0)  # as if the heartbeat ran late
    assert not leases.owns(guild)
    assert await leases.confirm(guild)
    assert not await leases.confirm(other)  # not given to this process
    # What was skipped while unproven is still loaded again at the next renewal.
    assert await leases.refresh() == (frozenset({0}), frozenset())
    b = ShardLeases(store, shard_count=2, shard_ids=[0], ttl=A_TTL, owner="b")
    b.held = {0}  # b believes it holds shard 0 (a paused process's backlog); a does
    assert not await b.confirm(guild)
    await leases.stop()


async def test_the_next_holder_takes_the_tables_over(store: Store, database_url: str) -> None:
    """Process A runs shard 1 and dies (no release); B, given shard 1, cannot act on its table
    while A's lease lives, then takes it over: the table, its deadlines, its next move."""
    gained: list[frozenset[int]] = []

    async def on_change(g: frozenset[int], lost: frozenset[int]) -> None:
        gained.append(g)

    a_leases = ShardLeases(store, shard_count=2, shard_ids=[1], ttl=A_TTL, owner="a")
    a = TableService(store, owns=a_leases.owns, computer_delay=0.0, hand_pause=0.0)
    assert await a_leases.refresh() == (frozenset({1}), frozenset())
    guild = guild_of(1)
    t = await a.create_table(host_id=1, host_name="Ann", variant="draw", guild_id=guild)
    t = await a.join(t.id, 2, "Ben")
    t = await a.start(t.id, 1)
    assert await store.deadlines.list(t.id)  # the turn's deadlines are stored

    store_b = await Store.open(database_url)
    try:
        b_leases = ShardLeases(
            store_b, shard_count=2, shard_ids=[0, 1], ttl=TTL, owner="b", on_change=on_change
        )
        b = TableService(store_b, owns=b_leases.owns, computer_delay=0.0, hand_pause=0.0)
        assert await b_leases.refresh() == (frozenset({0}), frozenset())
        assert await b.load_open_tables() == []
        with pytest.raises(TablesElsewhere):
            await b.act(t.id, 1, Pass())
        with pytest.raises(TablesElsewhere):
            await b.create_table(host_id=3, host_name="Cy", variant="draw", guild_id=guild)
        assert (await b.get(t.id)).seq == t.seq  # reading is fine, anywhere
        assert b.open_tables() == []  # ... and keeps nothing

        # A dies: its lease runs out (its end moved to now, as time would); B's heartbeat takes
        # shard 1 and its tables over.
        b_leases.start()
        now = await LeaseRepo(store.driver).now()
        await store.db.execute("UPDATE shard_leases SET expires_at = ? WHERE owner = 'a'", (now,))
        await until(lambda: frozenset({1}) in gained, "B's heartbeat taking shard 1")
        assert b_leases.owns(guild)
        tables = await b.load_open_tables()
        assert [x.id for x in tables] == [t.id]
        kinds = {d.kind for d in b.scheduler.pending(t.id)}
        assert kinds == {"remind", "timeout"}  # the stored deadlines run on B's clock now
        info = tables[0]
        user = info.turn_seat.user_id  # type: ignore[union-attr]
        view = (await b.views_for(t.id, user))[0]
        action = next(a for a in view.legal if isinstance(a, (Play, Draw, Pass)))
        done = await b.act(t.id, user, action, expected_seq=info.seq)
        assert done.seq == info.seq
        # A, paused rather than dead, wakes up: its renewal fails; it leaves the table.
        assert await a_leases.refresh() == (frozenset(), frozenset({1}))
        assert a.release_unowned() == [t.id] and a.scheduler.pending() == []
        await b_leases.stop()
        await b.aclose()
    finally:
        await store_b.close()
        await a.aclose()
