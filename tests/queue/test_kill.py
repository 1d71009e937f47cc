"""SIGKILLs of a real bot process while people wait in the quick match's queue (both
backends): right after a person's place is committed (before he got his answer), and right
after the commit that seats two people (before their table's thread or mention). After each
restart the places are kept, nobody is seated twice and the waiting ones are seated."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.store import Store
from tests.fakediscord import FakeDiscord, RequestRecord
from tests.queue.conftest import database_url, fake_discord
from tests.scale.cluster import GUARD, until, watching

__all__ = ["database_url", "fake_discord"]

WHOLE_TEST = 3 * GUARD
LEASE_TTL = 1.0
MENTION = "Quick match: your table is ready"


def stored(store: Store, sql: str, params: tuple[object, ...]) -> Callable[
    [RequestRecord], Awaitable[bool]
]:
    """Any request once ``sql`` finds a row: the first one after that commit."""

    async def match(r: RequestRecord) -> bool:
        return await store.db.fetchone(sql, params) is not None

    return match


async def waiting(store: Store) -> list[int]:
    rows = await store.db.fetchall("SELECT user_id FROM queue_entries ORDER BY user_id")
    return [int(r["user_id"]) for r in rows]


async def test_a_kill_while_people_wait_keeps_their_places_and_seats_them_once(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(2001, "alice", "Alice")
    bob = fake.add_user(2002, "bob", "Bob")
    carol = fake.add_user(2003, "carol", "Carol")
    options = {"shard_count": 1, "lease_ttl": LEASE_TTL, "env": {"AI_BUDGET": "0.01"}}
    async with watching(fake, database_url, tmp_path, timeout=WHOLE_TEST, **options) as w:
        first = await w.procs.start("first", "0")
        await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
        await w.store.db.execute(
            "INSERT INTO guild_settings (guild_id, queue_computers_after, updated_at)"
            " VALUES (?, ?, ?)",
            (fake.guild_id, 5, 0.0),
        )
        asked = await fake.slash(
            alice, fake.channel_id, "domino play", {"variant": "draw", "computers": False},
            timeout=GUARD,
        )
        await asked.wait_for_followups(1, timeout=GUARD)
        # Bob's place is committed; the process dies before it answers him.
        wire = fake.tripwire(
            stored(w.store, "SELECT 1 FROM queue_entries WHERE user_id = ?", (bob.id,)),
            first.kill, before=True,
        )
        await fake.slash(
            bob, fake.channel_id, "domino play", {"variant": "partners"}, timeout=GUARD,
            wait=False,
        )
        await until(wire.fired.is_set, "the kill after Bob's place")
        await first.proc.wait()
        assert await waiting(w.store) == [alice.id, bob.id]

        second = await w.procs.start("second", "0")
        assert await waiting(w.store) in ([alice.id, bob.id], [alice.id])
        # Carol's place fills Alice's table: killed right after the commit that seats them.
        wire = fake.tripwire(
            stored(w.store, "SELECT 1 FROM queue_tables WHERE people LIKE ?", (f"%{carol.id}%",)),
            second.kill, before=True,
        )
        await fake.slash(
            carol, fake.channel_id, "domino play", {"variant": "draw"}, timeout=GUARD,
            wait=False,
        )
        await until(wire.fired.is_set, "the kill after the seating")
        await second.proc.wait()

        await w.procs.start("third", "0")

        async def all_seated() -> bool:
            return not await waiting(w.store) and len(await tables(w.store)) == 2

        await until(all_seated, "everyone seated")

        async def announced() -> bool:
            rows = await w.store.db.fetchall("SELECT announced FROM queue_tables")
            return all(int(r["announced"]) for r in rows)

        await until(announced, "both tables announced")
        found = await tables(w.store)
        people = sorted(p for t in found for p in t[1])
        assert people == [alice.id, bob.id, carol.id]  # each seated once
        for table_id, seated in found:
            info = await w.observer.get(table_id)
            assert info.status == "running"
            humans = sorted(s.user_id for s in info.seats if s is not None and s.kind == "human")
            assert humans == sorted(seated)
            if bob.id in seated:
                assert info.ruleset.id == "partners" and len(humans) == 1  # computers filled
            else:
                assert info.ruleset.id == "draw"
            mentions = [
                m for m in fake.messages(info.table.thread_id) if MENTION in m.text()
            ]
            assert len(mentions) == 1, [m.text() for m in mentions]
    assert not fake.unknown_routes


async def tables(store: Store) -> list[tuple[int, list[int]]]:
    import json

    rows = await store.db.fetchall("SELECT table_id, people FROM queue_tables ORDER BY table_id")
    return [(int(r["table_id"]), [int(p) for p in json.loads(r["people"])]) for r in rows]
