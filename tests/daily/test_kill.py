"""SIGKILLs of a real bot process in the middle of a daily deal (both backends): between its
two legs, before the second leg's note was sent, and when its result reached Discord but the
bot never learnt it."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.daily.store import AttemptRow, DailyRepo
from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE, Store
from cogs.daily.words import nonce
from tests.fakediscord import FakeDiscord, RequestRecord, Tripwire
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, Table, Watch, play, until, watching
from tests.scale.test_kill import committed, posted

__all__ = ["fake_discord"]

WHOLE_TEST = 3 * GUARD  # seconds: against a hang (with the logs); each wait has its own
LEASE_TTL = 1.0
RESULT = "your result is"


@pytest.fixture(params=[SQLITE, POSTGRES])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


async def legs_of(store: Store, user_id: int, count: int) -> list[int]:
    """The tables of the person's daily legs, once there are ``count`` of them."""
    rows: list[int] = []

    async def enough() -> bool:
        found = await store.db.fetchall(
            "SELECT table_id FROM daily_legs WHERE user_id = ? ORDER BY leg", (user_id,)
        )
        rows[:] = [int(r["table_id"]) for r in found]
        return len(rows) >= count

    await until(enough, f"{count} daily leg(s)")
    return rows


async def play_until(fake: FakeDiscord, w: Watch, table: Table, wire: Tripwire) -> None:
    """The person plays his turns until the tripwire kills the bot (a click the kill leaves
    unanswered is dropped)."""
    game = asyncio.create_task(play(fake, w.observer, table))
    fired = asyncio.create_task(wire.fired.wait())
    done, _ = await asyncio.wait({game, fired}, return_when=asyncio.FIRST_COMPLETED)
    if fired not in done:
        fired.cancel()
        game.result()  # the play's own failure, else the leg ended before the kill
        await until(wire.fired.is_set, "the kill")
        return
    game.cancel()
    with contextlib.suppress(BaseException):
        await game


async def test_a_kill_between_the_legs_and_at_the_result_post_loses_nothing(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(2001, "alice", "Alice")
    options = {"shard_count": 1, "lease_ttl": LEASE_TTL, "env": {"AI_BUDGET": "0.01"}}
    async with watching(fake, database_url, tmp_path, timeout=WHOLE_TEST, **options) as w:
        first = await w.procs.start("first", "0")
        await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
        asked = await fake.slash(
            alice, fake.channel_id, "domino daily play", {"variant": "draw"}, timeout=GUARD
        )
        (answer,) = await asked.wait_for_followups(1, timeout=GUARD)
        thread = int(answer.text().split("<#", 1)[1].split(">", 1)[0])
        (leg0,) = await legs_of(w.store, alice.id, 1)
        # Killed at the first request after the commit that ends the first leg's match: the
        # second leg is opened by the next process.
        wire = fake.tripwire(committed(w.store, leg0, end=True), first.kill, before=True)
        await play_until(fake, w, Table(alice, thread, id=leg0), wire)
        await first.proc.wait()

        attempt = (await DailyRepo(w.store.db).unsettled())[0]
        key = AttemptRow(attempt.day, "draw", alice.id, "", None, None, None, 2, 0.0)
        leg_note = posted(lambda n: n == nonce(key, "l2"))
        # The next process opens the second leg and is killed before its note leaves.
        middle = await w.procs.start("middle", "0")
        wire = fake.tripwire(leg_note, middle.kill, before=True)
        await until(wire.fired.is_set, "the kill before the note")
        await middle.proc.wait()
        # (the first process, dying, may have sent the note too before it could mark it: the
        # next one sends it again with the same nonce, and Discord keeps one)

        second = await w.procs.start("second", "0")
        _, leg1 = await legs_of(w.store, alice.id, 2)
        notes = await fake.wait_for(
            lambda: [m for m in fake.messages(thread) if "Leg 2 of 2" in m.text()],
            timeout=GUARD, what="the second leg's note",
        )
        assert f"<@{alice.id}>" in notes[0].text()

        def result_post(r: RequestRecord) -> bool:
            return posted(lambda n: n == nonce(key, "r"))(r)

        # Killed once Discord holds the result post, before the bot learnt it.
        wire = fake.tripwire(result_post, second.kill, before=False)
        await play_until(fake, w, Table(alice, thread, id=leg1), wire)
        await second.proc.wait()

        await w.procs.start("third", "0")

        async def published() -> bool:
            found = await DailyRepo(w.store.db).attempt(attempt.day, "draw", alice.id)
            assert found is not None
            return found.published

        await until(published, "the result marked published")
        done = await DailyRepo(w.store.db).attempt(attempt.day, "draw", alice.id)
        assert done is not None
        legs = await DailyRepo(w.store.db).legs(attempt.day, "draw", alice.id)
        assert [leg.leg for leg in legs] == [0, 1] and None not in [leg.points for leg in legs]
        assert done.result == sum(leg.points or 0 for leg in legs)
        posts = [m for m in fake.messages(thread) if RESULT in m.text()]
        assert len(posts) == 1, [m.text() for m in posts]
        assert posts[0].attachments and posts[0].attachments[0].filename == "expert.gif"
        sent = [r for r in fake.requests if result_post(r)]
        assert len(sent) == 2  # posted again after the kill; Discord kept the first
        notes = [m for m in fake.messages(thread) if "Leg 2 of 2" in m.text()]
        assert len(notes) == 1, [m.text() for m in notes]
    assert not fake.unknown_routes
