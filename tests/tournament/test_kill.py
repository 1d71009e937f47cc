"""A SIGKILL of a real bot process in the middle of a round: nothing is lost, nothing doubled.

The bot runs as an OS process (``python -m tests.scale.runner``) against the fake Discord, its
clock 300 times faster than real time (the 10-minute check-in lasts 2 s, the 5-minute grace
1 s, a turn timer 0.4 s). The fake Discord kills it right after it applied the first round's
pairings post (the tables of the round are open, the bot never learnt the post was made);
the next process finishes the event from the store. The pairings, standings and podium are
each posted exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from pathlib import Path

from bot.settings import sqlite_url
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import cluster
from tests.scale.test_kill import posted

__all__ = ["fake_discord"]


def _titles(fake: FakeDiscord) -> Counter[str]:
    return Counter(
        m.embeds[0].get("title", "") for m in fake.public_messages() if m.embeds and not m.ephemeral
    )


async def _clicker(fake: FakeDiscord, people: list[object]) -> None:
    """The people check in to every round and click in at their tables as soon as asked."""
    done: set[tuple[int, str, int]] = set()
    while True:
        for message in list(fake.public_messages()):
            for cid in message.custom_ids():
                if not cid.startswith(("tournament:checkin:", "tournament:here:")):
                    continue
                for user in people:
                    uid = user.id  # type: ignore[attr-defined]
                    if cid.startswith("tournament:here:") and f"<@{uid}>" not in message.content:
                        continue
                    if (message.id, cid, uid) in done:
                        continue
                    done.add((message.id, cid, uid))
                    with contextlib.suppress(Exception):
                        await fake.click(user, message, cid, wait=False)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)


async def test_kill_in_the_middle_of_a_round(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    url = sqlite_url(tmp_path / "bot.sqlite3")
    host = fake.owner
    people = [fake.add_user(4000 + i, f"k{i}", f"Killer test {i}") for i in range(4)]
    async with cluster(
        fake, url, tmp_path, shard_count=1, lease_ttl=1.0, env={"TIME_SCALE": "300"}
    ) as procs:
        first = await procs.start("bot1", "0")
        made = await fake.slash(host, fake.channel_id, "domino tournament create", {
            "name": "Kill", "variant": "partners", "format": "individual", "rounds": 2,
            "hands": 1,
        })
        assert "open for registration" in made.text(), procs.logs()
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        wire = fake.tripwire(
            posted(lambda n: n == "t.1.pairings.1"), first.kill, before=False, name="pairings"
        )
        clicks = asyncio.create_task(_clicker(fake, people))
        try:
            started = await fake.slash(host, fake.channel_id, "domino tournament start", {})
            assert "check-in is open" in started.text()
            await asyncio.wait_for(wire.fired.wait(), 60)
            await first.proc.wait()
            assert _titles(fake)["Kill: pairings of round 1"] == 1  # Discord holds it
            await procs.start("bot2", "0")

            def finished() -> bool:
                return _titles(fake)["Kill: the podium"] >= 1

            await fake.wait_for(finished, timeout=120)
            await asyncio.sleep(1.0)  # anything posted twice would come now
        finally:
            clicks.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await clicks
    titles = _titles(fake)
    for number in (1, 2):
        assert titles[f"Kill: pairings of round {number}"] == 1, titles
        assert titles[f"Kill: standings after round {number}"] == 1, titles
    assert titles["Kill: the podium"] == 1, titles
    checkins: list[StoredMessage] = [
        m for m in fake.public_messages() if m.content and "check in now" in m.content
    ]
    assert len(checkins) == 2
