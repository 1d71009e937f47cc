"""A SIGKILL of a real bot process at a tournament post's instant: nothing lost, nothing doubled.

The bot runs as an OS process (``python -m tests.scale.runner``) against the fake Discord, its
clock fast (see ``tests/tournament/live.py``). The fake Discord kills it right after it
applied the first round's pairings post (the tables of the round are open, the bot never learnt
the post was made); the next process finishes the event from the store, posting the pairings
again with the same nonce, which Discord answers with the first message. The pairings,
standings and podium are each posted exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from bot.settings import sqlite_url
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import cluster
from tests.scale.test_kill import posted
from tests.tournament.live import GRACE, LEASE_TTL, Crowd, fast_env, titles

__all__ = ["fake_discord"]


async def test_kill_in_the_middle_of_a_round(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    url = sqlite_url(tmp_path / "bot.sqlite3")
    host = fake.owner
    people = [fake.add_user(4000 + i, f"k{i}", f"Killer test {i}") for i in range(4)]
    async with cluster(
        fake, url, tmp_path, shard_count=1, lease_ttl=LEASE_TTL, env=fast_env()
    ) as procs:
        first = await procs.start("bot1", "0")
        made = await fake.slash(
            host,
            fake.channel_id,
            "domino tournament create",
            {
                "name": "Kill",
                "variant": "partners",
                "format": "individual",
                "rounds": 2,
                "hands": 1,
                "grace": GRACE,
            },
        )
        assert "open for registration" in made.text(), procs.logs()
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        wire = fake.tripwire(
            posted(lambda n: n.endswith(".pairings.1")), first.kill, before=False, name="kill"
        )
        clicks = asyncio.create_task(Crowd(fake, people).run())
        try:
            started = await fake.slash(host, fake.channel_id, "domino tournament start", {})
            assert "check-in is open" in started.text()
            await asyncio.wait_for(wire.fired.wait(), 60)
            await first.proc.wait()
            assert titles(fake)["Kill: pairings of round 1"] == 1  # Discord holds it
            await procs.start("bot2", "0")
            await fake.wait_for(lambda: titles(fake)["Kill: the podium"], timeout=120)
            await asyncio.sleep(1.0)  # anything posted twice would come now
        finally:
            clicks.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await clicks
    counted = titles(fake)
    for number in (1, 2):
        assert counted[f"Kill: pairings of round {number}"] == 1, counted
        assert counted[f"Kill: standings after round {number}"] == 1, counted
    assert counted["Kill: the podium"] == 1, counted
    checkins = [m for m in fake.public_messages() if m.content and "check in now" in m.content]
    assert len(checkins) == 2
