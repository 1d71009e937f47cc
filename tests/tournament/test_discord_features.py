"""Through the fake Discord: a Swiss event's playoff to the podium, and tournament posts that
Discord refuses, tried again at stored deadlines of the one clock."""

from __future__ import annotations

import contextlib
from collections import Counter
from pathlib import Path

import pytest

from bot.i18n import number as i18n_number
from bot.tournaments.service import PUBLISH
from cogs.tournaments.posts import knockout_lines
from tests.cogs.helpers import FakeClock, factory
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.test_discord import (
    button_of,
    check_in_all,
    click_in,
    play_out,
    public,
    step,
    titled,
    tournament_cog,
    with_button,
)

pytest_plugins = ["tests.fakediscord.plugin"]


async def test_swiss_event_with_a_top_four_playoff_to_the_podium(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Five players, two Swiss rounds, then the top four play a knockout: the announcement says
    so, the outsider may not check in for it, its pairings say it is the playoff, the picture
    after each of its rounds is the bracket, the standings command shows its matches, and the
    podium follows it; every post is made once."""
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(7000 + i, f"s{i}", f"Swiss {i}") for i in range(5)]
    options = {
        "name": "Cup",
        "checkin": True,
        "variant": "draw", "format": "single", "rounds": 2, "hands": 1,
        "playoff": 4,
    }
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        events = tournament_cog(bot).events
        made = await fake.slash(host, fake.channel_id, "domino tournament create", options)
        assert "open for registration" in made.text(), made.text()
        await step(bot, clock)
        (announce,) = titled(fake, "Tournament: Cup")
        assert "Playoff: the top 4 of the Swiss standings play a knockout." in announce.text()
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        await step(bot, clock)
        event_id = (await events.find(fake.guild_id, fake.channel_id)).id
        for number in (1, 2):
            await check_in_all(fake, bot, people, number)
            await step(bot, clock, 600)
            await click_in(fake, bot, number, set())
            await play_out(fake, bot, clock, event_id, number)
        state = await events.state(event_id)
        seeds = state.event.playoff_seeds
        assert seeds is not None and len(seeds) == 4 and state.in_playoff()
        ids = {e.entry: e.user_id for e in state.entries}
        (outsider,) = [u for u in people if u.id not in {ids[s] for s in seeds}]
        (post,) = [m for m in with_button(fake, "tournament:checkin:") if "Round 3 " in m.text()]
        refused = await fake.click(outsider, post, button_of(post, "tournament:checkin:"))
        await refused.wait_for_followups(1)
        assert "playoff of the top 4: you are not in it" in refused.followups[0].text()
        playing = [u for u in people if u is not outsider]
        for number in (3, 4):
            if number == 4:  # the semi-finals' losers are out
                tree = (await events.state(event_id)).bracket()
                assert tree is not None
                out = {ids[e] for m in tree.rounds[0] for e in m.entrants if e != m.winner}
                (post,) = [
                    m for m in with_button(fake, "tournament:checkin:") if "Round 4 " in m.text()
                ]
                for user in [u for u in playing if u.id in out]:
                    told = await fake.click(user, post, button_of(post, "tournament:checkin:"))
                    await told.wait_for_followups(1)
                    assert told.followups[0].text() == "You are out of this knockout."
                playing = [u for u in playing if u.id not in out]
            await check_in_all(fake, bot, playing, number)
            await step(bot, clock, 600)
            await click_in(fake, bot, number, set())
            (pairings,) = titled(fake, f"Cup: pairings of round {number}")
            assert "Playoff of the top 4: the winners go through." in pairings.text()
            assert f"<@{outsider.id}>" not in (pairings.content or "")
            await play_out(fake, bot, clock, event_id, number)
            await step(bot, clock)
            state = await events.state(event_id)
            (after,) = titled(fake, f"Cup: standings after round {number}")
            # the playoff in words, as far as it went
            assert not after.attachments
            assert "\n".join(knockout_lines(state, number)) in after.text()
            if number == 3:
                shown = await fake.slash(
                    people[0], fake.channel_id, "domino tournament standings", {}
                )
                assert "Playoff\nSemi-finals: " in shown.text(), shown.text()
                assert shown.text().count("Semi-finals: ") == 2
        assert state.event.status == "finished"
        tree = state.bracket()
        assert tree is not None and tree.champion is not None
        changes = await events.rating_changes(state)
        before, after_rating = changes[tree.champion]
    titles = Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)
    for number in (1, 2, 3, 4):
        assert titles[f"Cup: pairings of round {number}"] == 1
        assert titles[f"Cup: standings after round {number}"] == 1
    assert titles["Cup: the podium"] == 1
    (podium,) = titled(fake, "Cup: the podium")
    champion = state.entry(tree.champion)
    assert champion is not None
    assert f"🥇 {champion.name}" in podium.text()
    assert f"1. {champion.name}: " in podium.text()
    said = f"{i18n_number(None, round(before))} → {i18n_number(None, round(after_rating))} ("
    assert "rating in " in podium.text() and said in podium.text()
    assert f"<@{champion.user_id}>" in (podium.content or "")


@pytest.mark.parametrize("restart", [False, True])
async def test_posts_discord_refuses_are_tried_again_at_stored_deadlines(
    fake_discord: FakeDiscord, tmp_path: Path, restart: bool
) -> None:
    """Discord refuses the announcement: the next try is a stored deadline of the one clock
    (1 s, then 2 s after a second refusal); nothing is posted before it falls due, the post is
    made once when it does (also by the next process when the bot stops while it waits), and
    a restart afterwards posts nothing again."""
    fake = fake_discord
    clock = FakeClock()
    db = tmp_path / "db.sqlite3"
    options = {"name": "Cup", "checkin": True, "variant": "draw", "format": "single"}
    fake.deny(fake.channel_id, "send_messages")
    async with contextlib.AsyncExitStack() as stack:
        bot = await stack.enter_async_context(running_bot(fake, factory(fake, db, clock=clock)))
        events = tournament_cog(bot).events
        made = await fake.slash(fake.owner, fake.channel_id, "domino tournament create", options)
        assert "open for registration" in made.text(), made.text()
        await step(bot, clock)
        event_id = (await events.find(fake.guild_id, fake.channel_id)).id

        async def waiting() -> list[tuple[float, int]]:
            return [
                (t.due_at - clock(), t.seq)
                for t in await events.repo.timers(event_id)
                if t.kind == PUBLISH
            ]

        assert await waiting() == [(1.0, 1)]
        await step(bot, clock, 1)  # refused again: the wait doubles
        assert await waiting() == [(2.0, 2)]
        assert not titled(fake, "Tournament: Cup")
        fake.allow(fake.channel_id)
        if restart:  # the bot stops while the post waits; the next one loads the deadline
            await stack.aclose()
            bot = await stack.enter_async_context(
                running_bot(fake, factory(fake, db, clock=clock))
            )
            events = tournament_cog(bot).events
        else:
            await step(bot, clock, 1)
            assert not titled(fake, "Tournament: Cup")  # not before its deadline
        await step(bot, clock, 2)
        assert len(titled(fake, "Tournament: Cup")) == 1
        assert await waiting() == []
    async with running_bot(fake, factory(fake, db, clock=clock)) as bot:
        await step(bot, clock, 5)
        assert len(titled(fake, "Tournament: Cup")) == 1
