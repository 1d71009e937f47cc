"""Through the fake Discord, on a SQLite file and on a real PostgreSQL server: an arena created,
people join, tables play to their end and their players are paired again at once, someone
leaves mid-event, the end time stops new pairings while the last table finishes, the podium is
posted once, and the live standings post is edited at most once a minute (docs/tournaments.md,
Arena)."""

from __future__ import annotations

import itertools
from typing import Any

from bot.tournaments.arena_rounds import STANDINGS_EVERY
from tests.cogs.helpers import FakeClock
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.helpers import bot_at
from tests.tournament.test_discord import (
    button_of,
    public,
    step,
    titled,
    tournament_cog,
)

pytest_plugins = ["tests.fakediscord.plugin"]


async def finish_tables(bot: Any, clock: FakeClock, event_id: int, boards: set[tuple[int, int]]
                        ) -> None:
    """Computers take the seats of the given boards' people and play them to the end."""
    events = tournament_cog(bot).events
    for b in await events.repo.boards(event_id):
        if (b.round, b.board) in boards and b.table_id is not None:
            for user in {u for u in b.people if u is not None}:
                await bot.svc.take_over(b.table_id, user)
    for _ in range(200):
        await step(bot, clock, 1.0)
        done = {(b.round, b.board) for b in await events.repo.boards(event_id)
                if b.status == "done"}
        if boards <= done:
            return
    raise AssertionError(f"boards {boards} never ended")


async def test_arena_to_the_podium(fake_discord: FakeDiscord, database_url: str) -> None:
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    ann, bea, cid, dan = (fake.add_user(3000 + i, n.lower(), n) for i, n in
                          enumerate(["Ann", "Bea", "Cid", "Dan"]))
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        events = tournament_cog(bot).events
        bad = await fake.slash(host, fake.channel_id, "domino tournament create", {
            "name": "Blitz", "variant": "draw", "format": "single", "system": "swiss",
            "duration": 30,
        })
        assert "Only an arena has a duration" in bad.text()
        result = await fake.slash(host, fake.channel_id, "domino tournament create", {
            "name": "Blitz", "variant": "draw", "format": "single", "hands": 1,
            "system": "arena", "duration": 10,
        })
        assert "open for registration" in result.text(), result.text()
        await step(bot, clock)
        (announce,) = titled(fake, "Arena: Blitz")
        assert "It lasts 10 minutes" in announce.embeds[0]["description"]
        for user in (ann, bea, cid):
            click = await fake.click(user, announce, button_of(announce, "tournament:register:"))
            await click.wait_for_followups(1)
            assert "registered" in click.followups[0].text()
        began = clock()
        start = await fake.slash(host, fake.channel_id, "domino tournament start", {})
        assert not start.text().startswith("⚠"), start.text()
        await step(bot, clock)
        event = (await events.repo.open_events())[0]
        assert event.system == "arena" and event.arena_ends_at == began + 600
        boards = await events.repo.boards(event.id)
        assert len(boards) == 1 and boards[0].status == "playing"  # three wait: one table
        (standings,) = titled(fake, "Blitz: arena standings")
        seated = {u for u in boards[0].people if u is not None}
        seat_posts = [m for m in public(fake) if "your table is ready" in (m.content or "")]
        assert len(seat_posts) == 1
        assert all(f"<@{u}>" in seat_posts[0].content for u in seated)

        # Dan joins late with the command: he and the one waiting sit at once.
        joined = await fake.slash(dan, fake.channel_id, "domino tournament register", {})
        assert "paired as soon as a table is free" in joined.text(), joined.text()
        await step(bot, clock)
        boards = await events.repo.boards(event.id)
        assert len([b for b in boards if b.status == "playing"]) == 2
        people_at = [u for b in boards for u in b.people if u is not None]
        assert len(people_at) == len(set(people_at)) == 4  # nobody twice at once

        # The first table ends: its two are paired again at once, with each other's
        # opponents (never the same opponent twice in a row) once the second ends too.
        first = boards[0]
        clock.advance(61)
        await finish_tables(bot, clock, event.id, {(first.round, first.board)})
        state = await events.state(event.id)
        assert len(state.boards) == 2, "the only two waiting just met: they wait for someone else"
        second = boards[1]
        await finish_tables(bot, clock, event.id, {(second.round, second.board)})
        state = await events.state(event.id)
        new = [b for b in state.boards if b.status == "playing"]
        assert len(new) == 2
        old_pairs = {frozenset(b.people) for b in boards}
        assert all(frozenset(b.people) not in old_pairs for b in new)

        tables = await fake.slash(ann, fake.channel_id, "domino tournament pairings", {})
        shown = tables.embeds[0]
        assert shown["title"] == "Blitz: arena tables"
        assert shown["description"].count(" against ") == 2  # the two tables being played
        assert len(shown["fields"][0]["value"].splitlines()) == 2  # the two results so far

        # Someone leaves mid-event: his table is played to its end, he is not paired again.
        leaver = fake.users[new[0].people[0]]  # type: ignore[index]
        (announce,) = titled(fake, "Arena: Blitz")
        left = await fake.click(leaver, announce, button_of(announce, "tournament:withdraw:"))
        await left.wait_for_followups(1)
        assert "You left the arena" in left.followups[0].text()
        assert (await events.repo.boards(event.id))[-2].status == "playing"

        # The end time: no new table; the running ones finish, then the podium, once.
        clock.advance(600)
        await step(bot, clock)
        before = len(await events.repo.boards(event.id))
        await finish_tables(bot, clock, event.id, {(b.round, b.board) for b in new})
        boards = await events.repo.boards(event.id)
        assert len(boards) == before  # nobody paired after the end
        assert all(b.status == "done" for b in boards)
        assert all(leaver.id not in b.people for b in boards if b.round > new[0].round)
        for _ in range(5):
            await step(bot, clock, STANDINGS_EVERY)
        event = await events.get(event.id)
        assert event.status == "finished"
        podium = titled(fake, "Blitz: the podium")
        assert len(podium) == 1
        # The places are the arena's (points with streaks, then performance), stored once.
        lines = (await events.state(event.id)).arena_lines()
        places = await events.repo.final_places(event.id)
        assert {p.entry: p.place for p in places} == {line.entrant: line.rank for line in lines}
        top = lines[0]
        assert top.score > 0
        assert "1. " in podium[0].embeds[0]["description"]
        assert f": {top.score} points" in podium[0].embeds[0]["description"]
        assert len(titled(fake, "Blitz: arena standings")) == 1  # one post, edited
        standings = titled(fake, "Blitz: arena standings")[0]
        assert standings.edit_count >= 1
        text = standings.embeds[0]["description"]
        assert "Ann" in text and "Dan" in text


async def test_standings_post_is_edited_at_most_once_a_minute(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Changes a few seconds apart: the post shows them by one edit when the minute is up (the
    clock's stored deadline), never two edits within a minute."""
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(3100 + i, f"p{i}", f"P{i}") for i in range(6)]
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await fake.slash(host, fake.channel_id, "domino tournament create", {
            "name": "Quick", "variant": "draw", "format": "single", "hands": 1,
            "system": "arena", "duration": 30,
        })
        await step(bot, clock)
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        (standings,) = titled(fake, "Quick: arena standings")
        seen: list[tuple[float, int]] = [(clock(), standings.edit_count)]
        for user in people:  # a change every 10 seconds
            await fake.slash(user, fake.channel_id, "domino tournament register", {})
            await step(bot, clock, 10.0)
            (standings,) = titled(fake, "Quick: arena standings")
            seen.append((clock(), standings.edit_count))
        await step(bot, clock, STANDINGS_EVERY)
        (standings,) = titled(fake, "Quick: arena standings")
        seen.append((clock(), standings.edit_count))
        assert seen[-1][1] >= 1, seen  # the changes were shown
        edits = [t for (t, n), (_, m) in zip(seen[1:], seen, strict=False) if n > m]
        assert all(n - m <= 1 for (_, n), (_, m) in zip(seen[1:], seen, strict=False)), seen
        assert all(b - a >= STANDINGS_EVERY for a, b in itertools.pairwise(edits)), seen
        assert "P5" in standings.embeds[0]["description"]
