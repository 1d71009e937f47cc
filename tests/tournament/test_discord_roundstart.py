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
    with_button,
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


def crowd(fake: FakeDiscord, first: int, count: int) -> list[Any]:
    """``count`` people, their ids from ``first``."""
    return [fake.add_user(first + i, f"u{first + i}", f"U {first + i}") for i in range(count)]


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
    fake, clock = fake_discord, FakeClock()
    people = crowd(fake, 3000, 5)
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await open_event(fake, bot, clock, people, checkin=True)
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


async def test_without_check_in_the_start_notifies_each_entrant_once(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Check-in off (the default): no check-in post, the round starts when the host starts
    the event, and each entrant is notified once, by his seat post or the bye."""
    fake, clock = fake_discord, FakeClock()
    people = crowd(fake, 3100, 5)
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        since = len(fake.requests)
        await open_event(fake, bot, clock, people)
        await step(bot, clock)
        assert not with_button(fake, "tournament:checkin:")
        counts = notifications(fake, since)
        assert {u.id: counts[u.id] for u in people} == {u.id: 1 for u in people}
        assert len(titled(fake, "Cup: pairings of round 1")) == 1


async def test_check_in_post_notifies_the_entrants_it_concerns(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Check-in on: the check-in post notifies each entrant, once, and nobody else."""
    fake, clock = fake_discord, FakeClock()
    people = crowd(fake, 3200, 4)
    stranger = fake.add_user(3300, "s", "S")
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await open_event(fake, bot, clock, people, checkin=True)
        (post,) = with_button(fake, "tournament:checkin:")
        counts = notifications(fake)
        assert {u.id: counts[u.id] for u in people} == {u.id: 1 for u in people}
        assert counts[stranger.id] == 0 and counts[fake.owner.id] == 0
        assert all(f"<@{u.id}>" in (post.content or "") for u in people)



async def test_the_seat_post_and_the_table_give_the_same_time(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """The time to press I'm here is the time the table gives before the bot plays."""
    fake, clock = fake_discord, FakeClock()
    people = crowd(fake, 3400, 4)
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await open_event(fake, bot, clock, people, grace=3)
        await step(bot, clock)
        (seat,) = with_button(fake, "tournament:here:")
        tables = [r.json for r in fake.requests
                  if r.method == "POST" and isinstance(r.json, dict)
                  and "the bot plays for you" in json.dumps(r.json.get("components") or [])]
        assert tables
        table_time = re.findall(r"<t:(\d+):R>", json.dumps(tables[0]["components"]))
        seat_time = re.findall(r"<t:(\d+):R>", seat.content or "")
        assert seat_time and seat_time == table_time
        event = await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)
        opened = (await tournament_cog(bot).events.state(event.id)).round_row(1)
        assert opened is not None and opened.started_at is not None
        # (the grace, 3 minutes, from the round's start: the step may have moved the clock on
        # while the table's thread was being made)
        assert int(seat_time[0]) == int(opened.started_at + 180)
        # The turn timer (2 minutes) does not cut the first turn short: nobody moved yet.
        (board,) = (await tournament_cog(bot).events.state(event.id)).boards_of(1)
        assert board.table_id is not None
        await step(bot, clock, 150)
        assert (await bot.svc.get(board.table_id)).seq == 0
        await step(bot, clock, 30)  # the grace: the bot plays, computers take the seats
        assert (await bot.svc.get(board.table_id)).seq > 0
        state = await tournament_cog(bot).events.state(event.id)
        assert "absent:" in (state.boards_of(1)[0].how or "")


async def test_the_pairings_wait_for_their_tables(
    fake_discord: FakeDiscord, database_url: str, monkeypatch: Any
) -> None:
    """A publication that runs after the pairing is stored but before its tables are opened
    posts nothing yet: the pairings post, once, links every table."""
    fake, clock = fake_discord, FakeClock()
    people = crowd(fake, 3400, 8)
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        cog = tournament_cog(bot)
        settling = cog.events._settling
        opened = settling._open_board
        early: list[bool] = []

        async def publish_first(state: Any, board: Any) -> None:
            early.append(await cog._publish(state.id))
            await opened(state, board)

        monkeypatch.setattr(settling, "_open_board", publish_first)
        await open_event(fake, bot, clock, people)
        await step(bot, clock)
        (pairings,) = titled(fake, "Cup: pairings of round 1")
        tables = [x for x in pairings.text().splitlines() if x.startswith("Table ")]
        assert len(tables) == 2 and all(re.search(r" · <#\d+>$", x) for x in tables), tables
        assert early and early[0] is False
