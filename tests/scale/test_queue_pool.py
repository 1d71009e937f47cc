"""The quick match across servers run by two real bot processes (``python -m tests.scale.runner``)
against the fake Discord, on a SQLite file shared by both and on PostgreSQL: server A is held
by one process, server B by the other, both in the open pool.

People of A and of B run ``/domino play``: whichever process got the second join seats them
together at once, each server shows the table in its own channel, each person is mentioned
once in his own server's thread and plays through his own server's message to the end, and
nothing but the accounts' global names passes between the servers.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import discord

from bot.servers.pool import OpenPool
from bot.store import Store
from bot.store.places import PlaceRow, PlacesRepo
from tests.cogs.test_pool import texts_in
from tests.fakediscord import FakeDiscord, FakeUser, RequestRecord
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, POLL, BotProcess, Table, Watch, play_turn, until, watching

__all__ = ["fake_discord"]

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value

WHOLE_TEST = 3 * GUARD
MENTION = "Quick match: your table is ready"


@dataclasses.dataclass
class Servers:
    """Server A (shard 0 of 2) and server B (shard 1), each with its table channel and its
    people, who wear a server nickname that must never reach the other server."""

    guilds: list[int]
    channels: list[int]
    people: list[list[FakeUser]]
    nicks: list[str]


def two_servers(fake: FakeDiscord, per_server: int = 2) -> Servers:
    guilds = [fake.add_guild(f"Server {n}", shard=(n, 2)).id for n in (0, 1)]
    channels = [fake.add_channel(f"tables-{n}", guild_id=g).id for n, g in enumerate(guilds)]
    people: list[list[FakeUser]] = [[], []]
    nicks = []
    for n, guild in enumerate(guilds):
        for k in range(per_server):
            user = fake.add_user(
                4000 + 10 * n + k, f"p{n}{k}", f"Global{n}{k}", join_guild=False
            )
            nick = f"NickOnly{n}{k}"
            fake.join(user, guild, nick=nick)
            people[n].append(user)
            nicks.append(nick)
    return Servers(guilds, channels, people, nicks)


async def pool_on(store: Store, servers: Servers) -> None:
    for guild in servers.guilds:
        await OpenPool(store).set_joined(guild, True, by=None)


async def play(fake: FakeDiscord, user: FakeUser, channel_id: int, guild_id: int) -> str:
    """``/domino play variant:draw``: the private answer's words."""
    result = await fake.slash(
        user, channel_id, "domino play", {"variant": "draw", "computers": False},
        guild_id=guild_id, timeout=GUARD,
    )
    (answer,) = await result.wait_for_followups(1, timeout=GUARD)
    assert answer.ephemeral
    return answer.text()


async def queue_tables(store: Store) -> list[tuple[int, list[int], bool]]:
    rows = await store.db.fetchall(
        "SELECT table_id, people, announced FROM queue_tables ORDER BY table_id"
    )
    return [
        (int(r["table_id"]), [int(p) for p in json.loads(r["people"])], bool(r["announced"]))
        for r in rows
    ]


async def waiting(store: Store) -> list[int]:
    rows = await store.db.fetchall("SELECT user_id FROM queue_entries ORDER BY user_id")
    return [int(r["user_id"]) for r in rows]


def where(place: PlaceRow) -> int:
    return place.thread_id or place.channel_id


def check_mentions(fake: FakeDiscord, table_id: int, places: list[PlaceRow]) -> None:
    """Each place's people are mentioned once, in their own server's thread, and nobody of
    another server is."""
    everyone = {p for place in places for p in place.people}
    for place in places:
        notes = [m for m in fake.messages(where(place)) if MENTION in m.text()]
        assert len(notes) == 1, (table_id, place.guild_id, [m.text() for m in notes])
        for person in everyone:
            assert (f"<@{person}>" in notes[0].text()) == (person in place.people), notes[0].text()


def check_names(fake: FakeDiscord, servers: Servers) -> None:
    """Only the global names: no server nickname is written in either server."""
    for guild in servers.guilds:
        text = texts_in(fake, guild)
        for nick in servers.nicks:
            assert nick not in text, (guild, nick)


async def play_to_the_end(
    fake: FakeDiscord, w: Watch, table_id: int, people: list[FakeUser]
) -> None:
    """Each person plays his turns by clicking in his own server's game message (his clicks
    reach his own server's process) until the match is over."""
    tables = {u.id: Table(u, 0, id=table_id) for u in people}
    while True:
        info = await w.observer.get(table_id)
        if info.status != "running":
            break
        seat = info.turn_seat
        if seat is not None and seat.kind == "human" and seat.user_id in tables:
            rows = await PlacesRepo(w.store.db).of_table(table_id)
            place = next(r for r in rows if seat.user_id in r.people)
            shown = dataclasses.replace(
                info, table=dataclasses.replace(info.table, message_id=place.message_id)
            )
            await play_turn(fake, shown, tables[seat.user_id])
        await asyncio.sleep(POLL)
    assert info.status == "finished", info.status
    for table in tables.values():
        assert table.acked, f"{table.user.name} never played"


async def test_two_processes_seat_the_pool_at_once_and_show_each_server_its_table(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    fake = fake_discord
    servers = two_servers(fake)
    (a1, a2), (b1, b2) = servers.people
    (ga, gb), (ca, cb) = servers.guilds, servers.channels
    async with watching(
        fake, database_url, tmp_path, timeout=WHOLE_TEST, shard_count=2, lease_ttl=1.0
    ) as w:
        await pool_on(w.store, servers)
        await w.procs.start("a", "0")
        await w.procs.start("b", "1")
        await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
        boss = fake.add_user(4099, "boss", "Boss", join_guild=False)
        fake.join(boss, ga, permissions=MANAGER)
        asked = await fake.slash(boss, ca, "domino play-post", {}, guild_id=ga, timeout=GUARD)
        await asked.wait_for_followups(1, timeout=GUARD)
        (post,) = [m for m in fake.messages(ca) if "Play now" in m.text()]
        # A's person waits (A's process answers); B's person joins through B's process,
        # which seats them both at once: B owns the table.
        assert "quick-match queue" in await play(fake, a1, ca, ga)
        answers = {b1.id: await play(fake, b1, cb, gb)}
        # The other way round: B's person waits, A's joins through A's process. B's join
        # reaches A's Play now post, which A's process edits.
        assert "quick-match queue" in await play(fake, b2, cb, gb)
        await until(
            lambda: "Open pool: 0 waiting here, 1 across servers." in fake.message(post.id).text(),
            "A's Play now post showing B's person",
        )
        answers[a2.id] = await play(fake, a2, ca, ga)
        # Four changes of the pool: A's post is edited at most once each (not per process,
        # not per server).
        path = f"/channels/{ca}/messages/{post.id}"
        assert sum(1 for r in fake.requests if r.method == "PATCH" and r.path == path) <= 4
        for text in answers.values():
            assert text.startswith("You are seated"), text
        assert await waiting(w.store) == []

        async def announced() -> bool:
            found = await queue_tables(w.store)
            return len(found) == 2 and all(t[2] for t in found)

        await until(announced, "both tables announced")
        (first, _, _), (second, _, _) = await queue_tables(w.store)
        for table_id, owner, people in ((first, gb, (b1, a1)), (second, ga, (a2, b2))):
            info = await w.observer.get(table_id)
            assert info.table.guild_id == owner and info.status == "running"
            rows = await PlacesRepo(w.store.db).of_table(table_id)
            assert [(r.guild_id, r.people) for r in rows] == [
                (owner, (people[0].id,)), (ga if owner == gb else gb, (people[1].id,)),
            ]
            # Each server shows the table in its own table channel (a thread of it where the
            # owner's process holds that server).
            for row in rows:
                channel = ca if row.guild_id == ga else cb
                assert row.channel_id == channel
                assert row.thread_id is None or fake.channels[row.thread_id].parent_id == channel
            await until(lambda t=table_id: _published(w.store, t), "both places' messages")
            rows = await PlacesRepo(w.store.db).of_table(table_id)
            check_mentions(fake, table_id, rows)
            # The seated answer points to the person's own server's thread.
            for row in rows:
                for person in row.people:
                    if person in answers:
                        assert f"<#{where(row)}>" in answers[person], answers[person]
        await play_to_the_end(fake, w, first, [a1, b1])

        async def ended() -> bool:
            rows = await PlacesRepo(w.store.db).of_table(first)
            return len(rows) == 2 and all(r.match_announced for r in rows)

        await until(ended, "the end posted in both servers")
        rows = await PlacesRepo(w.store.db).of_table(first)
        assert len({fake.message(r.message_id).text() for r in rows if r.message_id}) == 1
        check_mentions(fake, first, rows)  # still once each
        check_names(fake, servers)
        for guild in servers.guilds:
            text = texts_in(fake, guild)
            assert "Global00" in text and "Global10" in text
    assert not fake.unknown_routes


async def _published(store: Store, table_id: int) -> bool:
    rows = await PlacesRepo(store.db).of_table(table_id)
    return len(rows) == 2 and all(r.message_id is not None for r in rows)


def committed(store: Store, sql: str, params: tuple[object, ...]) -> Any:
    """A request to a channel or an interaction's webhook once ``sql`` finds a row: the first
    one the process makes after that commit."""

    async def match(r: RequestRecord) -> bool:
        if not r.path.startswith(("/webhooks/", "/channels/")):
            return False
        return await store.db.fetchone(sql, params) is not None

    return match


async def join_killed(
    fake: FakeDiscord,
    w: Watch,
    victim: BotProcess,
    who: tuple[FakeUser, int, int],
    row: tuple[str, tuple[object, ...]],
) -> None:
    """``who`` (person, channel, server) runs ``/domino play``; ``victim`` is SIGKILLed at its
    first request after ``row`` is committed (before that request is answered)."""
    user, channel_id, guild_id = who
    wire = fake.tripwire(committed(w.store, *row), victim.kill, before=True, name=row[0])
    await fake.slash(
        user, channel_id, "domino play", {"variant": "draw", "computers": False},
        guild_id=guild_id, timeout=GUARD, wait=False,
    )
    await until(wire.fired.is_set, f"the kill after {row[0]}")
    await victim.proc.wait()
    assert victim.proc.returncode == -9


def game_messages(fake: FakeDiscord, place: PlaceRow) -> list[int]:
    """The first hand's game messages of a place (its thread, else its channel)."""
    return [
        m.id for m in fake.messages(where(place))
        if m.text().startswith("**") and " · hand 1**" in m.text().splitlines()[0]
    ]


async def test_a_kill_of_either_process_loses_no_pool_place_and_seats_everyone_once(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    """SIGKILL of A's process right after a pool place is committed (before its answer), then
    of B's process right after the commit that seats a table across both servers (before its
    threads, messages or mentions): after the restarts the place is kept, both people are
    seated once, and each place's game message and mention are posted once."""
    fake = fake_discord
    servers = two_servers(fake, per_server=1)
    ((alice,), (bob,)) = servers.people
    (ga, gb), (ca, cb) = servers.guilds, servers.channels
    async with watching(
        fake, database_url, tmp_path, timeout=WHOLE_TEST, shard_count=2, lease_ttl=1.0
    ) as w:
        await pool_on(w.store, servers)
        a = await w.procs.start("a", "0")
        await w.procs.start("b", "1")
        await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
        await join_killed(
            fake, w, a, (alice, ca, ga),
            ("SELECT 1 FROM queue_entries WHERE user_id = ?", (alice.id,)),
        )
        assert await waiting(w.store) == [alice.id]
        await w.procs.start("a2", "0")
        assert await waiting(w.store) == [alice.id]  # kept, and nobody to sit with yet

        b = w.procs.processes[1]
        await join_killed(
            fake, w, b, (bob, cb, gb),
            ("SELECT 1 FROM queue_tables WHERE people LIKE ?", (f"%{bob.id}%",)),
        )
        assert await waiting(w.store) == []
        ((table_id, people, announced),) = await queue_tables(w.store)
        assert sorted(people) == sorted([alice.id, bob.id]) and not announced
        await w.procs.start("b2", "1")

        async def done() -> bool:
            found = await queue_tables(w.store)
            return all(t[2] for t in found) and await _published(w.store, table_id)

        await until(done, "the table announced and shown in both servers")
        assert await waiting(w.store) == []
        assert [t[0] for t in await queue_tables(w.store)] == [table_id]  # seated once
        info = await w.observer.get(table_id)
        assert info.status == "running" and info.table.guild_id == gb
        assert sorted(s.user_id for s in info.seats if s is not None) == sorted(people)
        rows = await PlacesRepo(w.store.db).of_table(table_id)
        assert [(r.guild_id, r.people) for r in rows] == [(gb, (bob.id,)), (ga, (alice.id,))]
        check_mentions(fake, table_id, rows)
        for row in rows:
            assert game_messages(fake, row) == [row.message_id], row
        check_names(fake, servers)
    assert not fake.unknown_routes
