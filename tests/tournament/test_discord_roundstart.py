"""Through the fake Discord: who is notified at a round start, and by how many messages."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from tests.cogs.helpers import FakeClock
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.helpers import bot_at
from tests.tournament.test_discord import (
    button_of,
    check_in_all,
    step,
    titled,
    tournament_cog,
)

pytest_plugins = ["tests.fakediscord.plugin"]

MENTION = re.compile(r"<@!?(\d+)>")


def notified(body: Any) -> set[int]:
    """The users a message body notifies: mentioned, and let through by its allowed mentions
    (Discord's default, without them, lets every mention through)."""
    if not isinstance(body, dict):
        return set()
    mentioned = {int(u) for u in MENTION.findall(json.dumps(body.get("content") or ""))}
    mentioned |= {int(u) for u in MENTION.findall(json.dumps(body.get("components") or []))}
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


def notifications(fake: FakeDiscord, since: int = 0) -> Counter[int]:
    """How many messages sent since request ``since`` notified each user."""
    out: Counter[int] = Counter()
    for r in fake.requests[since:]:
        if r.method == "POST" and r.path.endswith("/messages"):
            out.update(notified(r.json))
    return out


async def open_event(fake: FakeDiscord, bot: Any, clock: FakeClock, people: list[Any],
                     **options: Any) -> None:
    """Create an individual Swiss event, register ``people`` and start it."""
    await fake.slash(
        fake.owner,
        fake.channel_id,
        "domino tournament create",
        {"name": "Cup", "variant": "partners", "format": "individual", "rounds": 2,
         "hands": 1, **options},
    )
    await step(bot, clock)
    (announce,) = titled(fake, "Tournament: Cup")
    for user in people:
        click = await fake.click(user, announce, button_of(announce, "tournament:register:"))
        await click.wait_for_followups(1)
    await fake.slash(fake.owner, fake.channel_id, "domino tournament start", {})
    await step(bot, clock)
    await step(bot, clock)


async def test_one_notification_per_person_at_a_round_start(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Five people: four at a table, one with a bye. At the round's start each is notified by
    one message: the seat post of his table (the one with I'm here), or the pairings post for
    the bye."""
    fake = fake_discord
    clock = FakeClock()
    people = [fake.add_user(3000 + i, f"p{i}", f"P {i}") for i in range(5)]
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await open_event(fake, bot, clock, people)
        await check_in_all(fake, bot, people, 1)
        since = len(fake.requests)
        await step(bot, clock, 600)
        await step(bot, clock)
        counts = notifications(fake, since)
        assert {u.id: counts[u.id] for u in people} == {u.id: 1 for u in people}
        event = await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)
        state = await tournament_cog(bot).events.state(event.id)
        (bye,) = [b for b in state.boards_of(1) if b.is_bye]
        (pairings,) = titled(fake, "Cup: pairings of round 1")
        entry = state.entry(bye.sides[0][0])
        assert entry is not None and f"<@{entry.user_id}>" in (pairings.content or "")
