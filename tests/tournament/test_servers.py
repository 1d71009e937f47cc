"""Two servers run events at the same time through one bot (the fake Discord): no cross-talk.

Four people belong to both servers under a different nickname in each. Each server's event is
played to the podium at the same time as the other's; every post of an event is in its own
server's channel or its tables' threads there, shows the names of that server only, and the
pairings, standings and podium are posted once per server.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bot.settings import sqlite_url
from tests.cogs.helpers import FakeClock
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.tournament.helpers import bot_at
from tests.tournament.test_discord import (
    button_of,
    click_in,
    play_out,
    public,
    step,
    tournament_cog,
    with_button,
)

pytest_plugins = ["tests.fakediscord.plugin"]


async def check_in(fake: FakeDiscord, channel: int, people: list[Any], number: int) -> None:
    (post,) = [
        m
        for m in with_button(fake, "tournament:checkin:")
        if m.channel_id == channel and f"Round {number} " in m.text()
    ]
    for user in people:
        result = await fake.click(user, post, button_of(post, "tournament:checkin:"))
        await result.wait_for_followups(1)
        assert "checked in" in result.followups[0].text()


async def test_two_servers_run_events_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    second = fake.add_guild("Second server")
    places = {"Alpha": fake.channel_id, "Beta": fake.add_channel("events", guild_id=second.id).id}
    guilds = {"Alpha": fake.guild_id, "Beta": second.id}
    people = [fake.add_user(8200 + i, f"both{i}", f"Global {i}") for i in range(4)]
    for i, user in enumerate(people):
        fake.guild.members[user.id].nick = f"Alpha nick {i}"
        fake.join(user, second.id, nick=f"Beta nick {i}")
    url = sqlite_url(tmp_path / "db.sqlite3")
    async with running_bot(fake, bot_at(fake, url, clock=clock, everywhere=True)) as bot:
        events: dict[str, int] = {}
        for name, channel in places.items():
            made = await fake.slash(
                host,
                channel,
                "domino tournament create",
                {"name": name,
                "checkin": True,
                "variant": "draw", "format": "single", "rounds": 1, "hands": 1},
                guild_id=guilds[name],
            )
            assert "open for registration" in made.text(), made.text()
            for user in people:
                answer = await fake.slash(
                    user, channel, "domino tournament register", {}, guild_id=guilds[name]
                )
                assert "registered" in answer.text(), answer.text()
            events[name] = (await tournament_cog(bot).events.find(guilds[name], channel)).id
        for name, channel in places.items():
            started = await fake.slash(
                host, channel, "domino tournament start", {}, guild_id=guilds[name]
            )
            assert "check-in is open" in started.text()
        await step(bot, clock)
        for channel in places.values():
            await check_in(fake, channel, people, 1)
        await step(bot, clock, 600)
        await click_in(fake, bot, 1, set())
        for event_id in events.values():
            await play_out(fake, bot, clock, event_id, 1)
        await step(bot, clock)
        for event_id in events.values():
            assert (await tournament_cog(bot).events.state(event_id)).event.status == "finished"
        shown = await fake.slash(
            people[0], places["Beta"], "domino tournament standings", {}, guild_id=second.id
        )
        assert "Beta nick" in shown.text() and "Alpha" not in shown.text()
    check_posts(fake, places)


def check_posts(fake: FakeDiscord, places: dict[str, int]) -> None:
    """Each event's posts in its own server's channel and threads, with that server's names."""

    def home(message: StoredMessage) -> int:
        channel = fake.channels[message.channel_id]
        return channel.parent_id or channel.id

    for name, channel in places.items():
        other = next(n for n in places if n != name)
        mine = [m for m in public(fake) if home(m) == channel]
        titles = Counter(m.embeds[0].get("title", "") for m in mine if m.embeds)
        assert titles[f"{name}: pairings of round 1"] == 1, titles
        assert titles[f"{name}: standings after round 1"] == 1, titles
        assert titles[f"{name}: the podium"] == 1, titles
        assert titles[f"Tournament: {name}"] == 1, titles
        text = "\n".join(m.text() for m in mine)
        assert f"{name} nick 0" in text
        assert other not in text, f"{other} shows in {name}'s server"
        assert "Global " not in text  # a server shows its own nicknames
    everywhere = [home(m) for m in public(fake)]
    assert set(everywhere) <= set(places.values())
