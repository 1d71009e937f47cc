"""A table across servers run by real bot processes (``python -m tests.scale.runner``): the
process that owns the table's own server publishes to every place, also the places of servers
another process owns, and applies the clicks that reach the other process (forwarded through
the store); and a SIGKILL between publishing to the two places leaves each place's
game message posted once. On a SQLite file and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

from bot.store import Store
from bot.store.places import PlacesRepo
from bot.tables.core import make_ruleset
from bot.tables.places import Place
from bot.tables.service import TableService
from tests.cogs.helpers import button, parse
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import (
    GUARD,
    POLL,
    Table,
    cluster,
    enabled_choice,
    play_turn,
    until,
    watching,
)
from tests.scale.test_kill import posted

__all__ = ["fake_discord"]

FIRST_GAME = "Domino for two · hand 1"


async def _play_in_both(fake: FakeDiscord, url: str, tid: int, people: dict[int, Table]) -> None:
    """Each person plays his turns by clicking in his own server's message (his clicks reach
    the process of his own server) until Bob's moves were acknowledged twice."""
    store = await Store.open(url)
    observer = TableService(store, owns=lambda guild_id: False)  # reads, never runs a table
    bob = max(people)
    try:
        while len(people[bob].acked) < 2:
            info = await observer.get(tid)
            assert info.status == "running"
            seat = info.turn_seat
            if seat is not None and seat.kind == "human" and seat.user_id in people:
                rows = await PlacesRepo(store.db).of_table(tid)
                place = next(r for r in rows if seat.user_id in r.people)
                shown = dataclasses.replace(
                    info, table=dataclasses.replace(info.table, message_id=place.message_id)
                )
                await play_turn(fake, shown, people[seat.user_id])
            await asyncio.sleep(POLL)
        forwarded = await store.db.fetchval(
            "SELECT count(*) FROM table_requests WHERE user_id = ? AND answered_at IS NOT NULL"
            " AND error IS NULL",
            (bob,),
        )
        assert forwarded >= 2  # Bob's moves came through B's process
        assert not people[bob].refused, people[bob].refused
        # Both servers' messages come to show the same state.
        # (each place mentions its own person and names the other: the same once named)
        rows = await PlacesRepo(store.db).of_table(tid)
        names = {u: t.user.global_name for u, t in people.items()}
        await until(
            lambda: len({
                re.sub(r"<@(\d+)>", lambda m: str(names[int(m.group(1))]),
                       fake.message(r.message_id).text())
                for r in rows if r.message_id
            }) == 1,
            "both places in step",
        )
        # Bob resigns from B's message: forwarded too; the end is posted in both servers.
        place = next(r for r in rows if bob in r.people)
        message = fake.message(place.message_id)
        resign = await fake.click(people[bob].user, message, button(message, "resign"))
        (confirm,) = await resign.wait_for_followups(1, timeout=GUARD)
        done = await fake.click(people[bob].user, confirm, button(confirm, "resignok"))
        await done.wait_for_edits(1, timeout=GUARD)

        async def ended() -> bool:
            marks = await PlacesRepo(store.db).of_table(tid)
            return len(marks) == 2 and all(m.match_announced for m in marks)

        await until(ended, "the match end posted in both servers")
        assert (await observer.get(tid)).status == "finished"
    finally:
        await store.close()


async def _open(url: str, fake: FakeDiscord) -> tuple[int, list[int], dict[int, Table]]:
    """Server A (shard 0) and server B (shard 1), Alice in A, Bob in B, and a table across
    both opened in the store as the queue opens it: (table, [A's channel, B's], the people)."""
    guilds = [fake.add_guild(f"Server {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [fake.add_channel("tables", guild_id=g.id).id for g in guilds]
    alice = fake.add_user(3001, "alice", "Alice", guild_id=guilds[0].id)
    bob = fake.add_user(3002, "bob", "Bob", guild_id=guilds[1].id)
    store = await Store.open(url)
    try:
        info = await TableService(store).open_seated(
            host_id=alice.id,
            ruleset=make_ruleset("two", {"target": 50}),
            options={},
            people=[(alice.id, "Alice"), (bob.id, "Bob")],
            guild_id=guilds[0].id,
            channel_id=channels[0],
            places=[Place(guilds[1].id, channels[1], (bob.id,))],
        )
    finally:
        await store.close()
    return info.id, channels, {
        alice.id: Table(alice, channels[0], id=info.id),
        bob.id: Table(bob, channels[1], id=info.id),
    }


def _games(fake: FakeDiscord, channel_id: int) -> list[int]:
    """The first hand's game messages in ``channel_id`` (or its threads)."""
    inside = {channel_id, *(t.id for t in fake.threads(channel_id))}
    return [
        m.id for m in fake.public_messages()
        if m.channel_id in inside and m.text().startswith(f"**{FIRST_GAME}**")
    ]


async def _published(url: str, table_id: int) -> bool:
    store = await Store.open(url)
    try:
        rows = await PlacesRepo(store.db).of_table(table_id)
    finally:
        await store.close()
    return len(rows) == 2 and all(r.message_id is not None for r in rows)


async def test_the_owner_process_publishes_to_every_place(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    fake = fake_discord
    tid, channels, people = await _open(database_url, fake)
    async with cluster(fake, database_url, tmp_path, shard_count=2, lease_ttl=1.0) as procs:
        try:
            async with asyncio.timeout(3 * GUARD):
                # B's process runs, holds B's shard and Bob's clicks, but not the table.
                await procs.start("b", "1")
                assert _games(fake, channels[0]) == _games(fake, channels[1]) == []
                await procs.start("a", "0")  # the process of the table's own server
                await until(lambda: _published(database_url, tid), "both places published")
                await until(lambda: len(_games(fake, channels[1])) == 1, "B's game message")
                assert len(_games(fake, channels[0])) == 1
                # Bob's clicks in B's message reach B's process, which has the table's own
                # process apply them.
                await _play_in_both(fake, database_url, tid, people)
        except BaseException:
            print(procs.logs())
            raise
    assert not fake.unknown_routes


def _offers(fake: FakeDiscord, hand_id: int, seq: int) -> str | None:
    """The first choice the hand message ``hand_id`` offers for the table's state ``seq``."""
    choice = enabled_choice(fake.message(hand_id))
    parsed = parse(choice) if choice is not None else None
    return choice if parsed is not None and int(parsed[2][-1]) == seq else None


async def _play_from(fake: FakeDiscord, table: Table, hand_id: int, choice: str) -> None:
    """The person plays ``choice`` in his hand message (and its left end when asked)."""
    hand = fake.message(hand_id)
    click = await fake.click(table.user, hand, choice, timeout=GUARD)
    parsed = parse(choice)
    assert parsed is not None
    if parsed[0] == "play" and parsed[2][1] == "ask":
        await click.wait_for_edits(1, timeout=GUARD)
        hand = fake.message(hand_id)
        left = next(c for c in hand.custom_ids() if (p := parse(c)) and "left" in p[2])
        click = await fake.click(table.user, hand, left, timeout=GUARD)
    await click.wait_for_edits(1, timeout=GUARD)
    assert not click.followups, [m.text() for m in click.followups]


async def test_the_hand_of_a_person_of_the_other_process_is_redrawn_on_his_turn(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    """Bob's clicks reach B's process, which holds his hand message's token: when Alice
    (whose process runs the table) has moved, B redraws Bob's hand for his turn, and he plays
    on from it without pressing My tiles again."""
    fake = fake_discord
    tid, _, people = await _open(database_url, fake)
    alice, bob = people[min(people)], people[max(people)]
    async with watching(
        fake, database_url, tmp_path, timeout=3 * GUARD, shard_count=2, lease_ttl=1.0
    ) as w:
        await w.procs.start("b", "1")
        await w.procs.start("a", "0")
        await until(lambda: _published(database_url, tid), "both places published")
        rows = await PlacesRepo(w.store.db).of_table(tid)
        messages = {u: r.message_id for r in rows for u in r.people}
        game = fake.message(messages[bob.user.id])
        tiles = await fake.click(bob.user, game, button(game, "tiles"), timeout=GUARD)
        await tiles.wait_for_followups(1, timeout=GUARD)
        hand_id = tiles.followups[0].id  # Bob's hand: never opened again
        after_alice = 0  # Bob's moves played from a hand redrawn after a move of Alice's
        alice_moved = False
        while after_alice < 2:
            info = await w.observer.get(tid)
            assert info.status == "running"
            seat = info.turn_seat
            assert seat is not None and seat.kind == "human"
            if seat.user_id == alice.user.id:
                shown = dataclasses.replace(
                    info,
                    table=dataclasses.replace(info.table, message_id=messages[alice.user.id]),
                )
                alice_moved = await play_turn(fake, shown, alice) or alice_moved
                continue
            seq = info.seq
            choice = await _wait_for_offer(fake, hand_id, seq)
            await _play_from(fake, bob, hand_id, choice)
            if alice_moved:
                after_alice += 1
        assert not alice.refused, alice.refused
        # The hand was never drawn into a public message: every game message shows no tile
        # button of a hand.
        for message_id in messages.values():
            kinds = {p[0] for c in fake.message(message_id).custom_ids() if (p := parse(c))}
            assert not kinds & {"play", "draw", "pass"}, kinds
    assert not fake.unknown_routes


async def _wait_for_offer(fake: FakeDiscord, hand_id: int, seq: int) -> str:
    found: list[str] = []

    def offered() -> bool:
        choice = _offers(fake, hand_id, seq)
        if choice is not None:
            found.append(choice)
        return choice is not None

    await until(offered, "Bob's hand redrawn for his turn")
    return found[-1]


async def test_a_kill_between_the_two_places_posts_each_once(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    fake = fake_discord
    tid, channels, _ = await _open(database_url, fake)
    first_place = {channels[0]}

    def in_first_place(record: object) -> bool:
        path = getattr(record, "path", "")
        return any(
            path.startswith(f"/channels/{c}/") for c in first_place | {
                t.id for t in fake.threads(channels[0])
            }
        )

    async with cluster(fake, database_url, tmp_path, shard_count=2, lease_ttl=1.0) as procs:
        try:
            async with asyncio.timeout(3 * GUARD):
                first = await procs.start("a1", "0", wait=False)
                game = posted(lambda n: n == f"g.{tid}.1")
                wire = fake.tripwire(
                    lambda r: game(r) and in_first_place(r), first.kill, before=False,
                    name="the first place's game message",
                )
                await until(wire.fired.is_set, "the first place's post")
                async with asyncio.timeout(GUARD):
                    await first.proc.wait()
                assert first.proc.returncode == -9
                # Discord holds the first place's message; the second place has none yet.
                assert len(_games(fake, channels[0])) == 1
                assert _games(fake, channels[1]) == []
                await procs.start("a2", "0")
                await until(lambda: _published(database_url, tid), "both places published")
                await until(lambda: len(_games(fake, channels[1])) == 1, "B's game message")
                await procs.close()
                assert len(_games(fake, channels[0])) == 1  # the nonce: not posted again
                assert len(_games(fake, channels[1])) == 1
        except BaseException:
            print(procs.logs())
            raise
