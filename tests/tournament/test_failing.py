"""Through the fake Discord: Discord failing at each tournament post's instant, and bad input.

Each post of a one-round event meets another failure the moment it is made: an HTTP 500, a
403 (Missing Permissions, then Missing Access), a 504 gateway timeout, an answer lost after
Discord applied the post (the bot never learns it was made: a timeout), a request lost before
Discord saw it. Every post arrives later exactly once (its nonce makes a second try of an
applied post answer with the first message), and the people's clicks meanwhile get their
usual answers. Bad input (what the issue lists) gets a clear answer and changes nothing: no
row, no public message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.settings import sqlite_url
from tests.cogs.helpers import FakeClock, TestBot
from tests.fakediscord import FakeDiscord, RequestRecord, running_bot
from tests.scale.test_kill import posted
from tests.tournament.helpers import bot_at
from tests.tournament.test_discord import (
    check_in_all,
    click_in,
    public,
    register_pair,
    step,
    tournament_cog,
    with_button,
)

pytest_plugins = ["tests.fakediscord.plugin"]

MESSAGES = r"^/channels/\d+/messages$"
EMBED_LINKS = 1 << 14


def post_of(key: str) -> Callable[[RequestRecord], bool]:
    """The post of the tournament's ``key`` (its nonce ends so)."""
    return posted(lambda n: n.startswith("t.") and n.endswith(f".{key}"))


def titles(fake: FakeDiscord) -> Counter[str]:
    return Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)


async def until(bot: TestBot, clock: FakeClock, done: Callable[[], object]) -> None:
    """Let the clock run (a publication's retry is a deadline of it) until ``done()``."""
    for _ in range(200):
        if done():
            return
        await step(bot, clock, 30)
    raise AssertionError("never came")


async def test_every_post_arrives_once_when_discord_fails(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(8000 + i, f"f{i}", f"Failing {i}") for i in range(4)]
    fake.fail("POST", MESSAGES, status=500, when=post_of("announce"))
    fake.fail("POST", MESSAGES, status=403, code=50013, when=post_of("checkin.1"))
    lost_answer = fake.tripwire(post_of("pairings.1"), lambda: None, before=False, name="lost")
    fake.fail("POST", MESSAGES, status=504, message="Gateway Timeout", when=post_of("seat.1.1"))
    lost_request = fake.tripwire(post_of("standings.1"), lambda: None, before=True, name="gone")
    fake.fail(
        "POST", MESSAGES, status=403, code=50001, message="Missing Access", when=post_of("end")
    )
    url = sqlite_url(tmp_path / "db.sqlite3")
    async with running_bot(fake, bot_at(fake, url, clock=clock)) as bot:
        made = await fake.slash(
            host,
            fake.channel_id,
            "domino tournament create",
            {"name": "Storm",
            "checkin": True,
            "variant": "draw", "format": "single", "rounds": 1, "hands": 1},
        )
        assert "open for registration" in made.text()
        await until(bot, clock, lambda: titles(fake)["Tournament: Storm"])
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        started = await fake.slash(host, fake.channel_id, "domino tournament start", {})
        assert "check-in is open" in started.text()
        await until(bot, clock, lambda: [m for m in public(fake) if "check in now" in m.text()])
        await check_in_all(fake, bot, people, 1)
        await step(bot, clock, 600)
        await until(bot, clock, lambda: len(with_button(fake, "tournament:here:")) == 2)
        assert lost_answer.fired.is_set()
        # Whether or not the pairings post is known to the bot, a player finds his table.
        shown = await fake.slash(people[0], fake.channel_id, "domino tournament pairings", {})
        assert shown.ephemeral and "Failing 0" in shown.text()
        await click_in(fake, bot, 1, set())
        event_id = (await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id
        await until(bot, clock, lambda: titles(fake)["Storm: the podium"])
        assert lost_request.fired.is_set()
        assert (await tournament_cog(bot).events.state(event_id)).event.status == "finished"
        await step(bot, clock, 120)  # anything posted twice would come now
    counted = titles(fake)
    for title in (
        "Tournament: Storm",
        "Storm: pairings of round 1",
        "Storm: standings after round 1",
        "Storm: the podium",
    ):
        assert counted[title] == 1, counted
    assert len([m for m in public(fake) if "check in now" in m.text()]) == 1
    seats = Counter(
        m.content for m in public(fake) if (m.content or "").startswith("Round 1, table")
    )
    assert len(seats) == 2 and set(seats.values()) == {1}, seats
    failed = Counter(r.status for r in fake.requests if r.method == "POST" and r.status >= 400)
    assert {500, 403, 504, 499} <= set(failed), failed


async def snapshot(bot: TestBot, fake: FakeDiscord) -> tuple[object, ...]:
    """What bad input must not change: the server's events, their entries, the public posts."""
    repo = tournament_cog(bot).events.repo
    events = await repo.open_events(fake.guild_id)
    entries = [await repo.entries(e.id) for e in events]
    return len(public(fake)), events, entries


async def test_bad_input_gets_a_clear_answer_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(8100 + i, f"b{i}", f"Bad {i}") for i in range(6)]
    channels = [fake.channel_id, *(fake.add_channel(f"room{i}").id for i in range(3))]
    no_embeds = fake.add_channel("no-embeds")
    fake.set_channel_overwrite(no_embeds.id, fake.bot_user.id, deny=EMBED_LINKS)
    url = sqlite_url(tmp_path / "db.sqlite3")

    async def refused(
        user: Any, command: str, options: dict[str, Any], answer: str, channel: int | None = None
    ) -> None:
        before = await snapshot(bot, fake)
        result = await fake.slash(user, channel or fake.channel_id, command, options)
        await step(bot, clock)
        assert result.ephemeral and answer in result.text(), result.text()
        assert await snapshot(bot, fake) == before, command

    create = "domino tournament create"
    register = "domino tournament register"
    pairs = {"name": "Pairs",
    "checkin": True, "variant": "partners", "format": "pairs", "max_entrants": 2}
    async with running_bot(fake, bot_at(fake, url, clock=clock)) as bot:
        await refused(host, "domino tournament withdraw", {}, "no tournament", channels[0])
        await refused(host, create, pairs, "missing a permission", no_embeds.id)
        for channel in channels[:3]:
            made = await fake.slash(host, channel, create, {**pairs, "name": f"E{channel}"})
            assert "open for registration" in made.text()
        await step(bot, clock)
        await refused(host, create, {**pairs, "name": "Fourth"}, "3 open tournaments", channels[3])
        await refused(host, create, {**pairs, "name": "Twice"}, "already open in this channel")
        await refused(people[0], register, {"partner": people[0]}, "someone else")
        await refused(people[0], register, {}, "your pair with </domino tournament register:")
        await refused(people[0], register, {"partner": fake.bot_user}, "A bot cannot")
        # A partner who declines: no entry, and he is not asked by the same person again.
        before = await snapshot(bot, fake)
        await register_pair(fake, people[0], people[1], accept=False)
        after = await snapshot(bot, fake)
        assert after[1:] == before[1:] and after[0] == before[0] + 1  # the invitation stays
        await refused(people[0], register, {"partner": people[1]}, "declined your invitation")
        await register_pair(fake, people[1], people[0])
        await refused(people[2], register, {"partner": people[0]}, "already registered")
        await refused(people[0], register, {"partner": people[2]}, "already registered")
        await register_pair(fake, people[2], people[3])
        await refused(people[4], register, {"partner": people[5]}, "full")
        await refused(people[4], "domino tournament withdraw", {}, "not registered")
        await refused(people[4], "domino tournament start", {}, "Only the tournament's host")
