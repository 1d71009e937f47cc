"""Through the fake Discord: individual knockouts (8 and 6 people) and an individual Swiss
event's top-4 playoff, played to the podium; every post checked, the bracket pictures compared
byte for byte."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cogs.tournaments.posts import knockout_lines
from tests.cogs.helpers import FakeClock
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.helpers import bot_at
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


def said(state: Any, upto: int | None = None) -> str:
    """The knockout in words, as the standings post after round ``upto`` should say it (who is
    still in, who went out when; no match points), from the stored results."""
    return "\n".join(knockout_lines(state, upto))


async def create(fake: FakeDiscord, bot: Any, clock: FakeClock, options: dict[str, Any]) -> None:
    made = await fake.slash(fake.owner, fake.channel_id, "domino tournament create", options)
    assert "open for registration" in made.text(), made.text()
    await step(bot, clock)


async def register_and_start(fake: FakeDiscord, bot: Any, clock: FakeClock,
                             people: list[Any]) -> int:
    """Everyone registers, the host presses Start; returns the event's id."""
    for user in people:
        answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
        assert "registered" in answer.text()
    await fake.slash(fake.owner, fake.channel_id, "domino tournament start", {})
    await step(bot, clock)
    await step(bot, clock)
    return int((await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id)


@pytest.mark.parametrize("people_count", [8, 6])
async def test_individual_knockout_to_the_podium(
    fake_discord: FakeDiscord, database_url: str, people_count: int
) -> None:
    """An individual knockout: the announcement says how it is played; round 1 seats 1+8
    against 4+5 and 2+7 against 3+6 (six people: seeds 1 and 2 have byes, 3+6 against 4+5);
    a stranger may not check in; the bot restarts in the middle of the final; after each round
    the bracket picture; the podium names the final's winning side as joint champions and
    mentions both; every post is made once."""
    fake = fake_discord
    clock = FakeClock()
    people = [fake.add_user(8000 + i, f"k{i}", f"Knock {i}") for i in range(people_count)]
    options = {
        "name": "Knock",
        "checkin": True,
        "variant": "partners", "format": "individual", "system": "knockout",
        "hands": 1,
    }
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        events = tournament_cog(bot).events
        await create(fake, bot, clock, options)
        (announce,) = titled(fake, "Tournament: Knock")
        assert "both people of a table's winning side go through" in announce.text()
        event_id = await register_and_start(fake, bot, clock, people)
        await check_in_all(fake, bot, people, 1)
        stranger = fake.add_user(8999, "stranger", "Stranger")
        (post,) = with_button(fake, "tournament:checkin:")
        nope = await fake.click(stranger, post, button_of(post, "tournament:checkin:"))
        await nope.wait_for_followups(1)
        assert "not registered" in nope.followups[0].text()
        await step(bot, clock, 600)
        await click_in(fake, bot, 1, set())
        state = await events.state(event_id)
        assert state.event.rounds == 2
        seed = {e.entry: e.user_id for e in state.entries}  # entry i is the i-th registered
        by_user = {u.id: u for u in people}
        (pairings,) = titled(fake, "Knock: pairings of round 1")
        text = pairings.text()
        assert "Both people of each table's winning side go through." in text

        def name(entry: int) -> str:
            found = state.entry(entry)
            assert found is not None
            return found.name

        tables = [b for b in state.boards_of(1) if not b.is_bye]
        if people_count == 8:
            assert [b.sides for b in tables] == [((1, 8), (4, 5)), ((2, 7), (3, 6))]
        else:
            assert [b.sides for b in tables] == [((3, 6), (4, 5))]
            assert [b.sides[0] for b in state.boards_of(1) if b.is_bye] == [(1,), (2,)]
            assert f"Bye: {name(1)}" in text and f"Bye: {name(2)}" in text
        assert f"Table 1: {name(tables[0].sides[0][0])} and {name(tables[0].sides[0][1])}" in text
        await play_out(fake, bot, clock, event_id, 1)
        await step(bot, clock)
        state = await events.state(event_id)
        (after,) = titled(fake, "Knock: standings after round 1")
        assert not after.attachments and said(state, 1) in after.text()
        assert "match points" not in after.text() and "Buchholz" not in after.text()
        shown = await fake.slash(people[0], fake.channel_id, "domino tournament pairings",
                                 {"round": 1})
        assert "Table 1: " in shown.text()
        shown = await fake.slash(people[0], fake.channel_id, "domino tournament standings", {})
        table = tables[0].sides
        assert (
            f"Bracket\nSemi-finals: {name(table[0][0])} and {name(table[0][1])} "
        ) in shown.text(), shown.text()
        assert shown.text().count("Semi-finals: ") == len(tables)
        tree = state.bracket()
        assert tree is not None
        through = [e for m in tree.rounds[0] for e in m.advancing]
        assert len(through) == 4  # no computer, nobody absent: both winners of each table
        await check_in_all(fake, bot, [by_user[seed[e]] for e in through], 2)
        losers = [by_user[seed[e]] for e in seed if e not in through]
        (post,) = [m for m in with_button(fake, "tournament:checkin:") if "Round 2 " in m.text()]
        out = await fake.click(losers[0], post, button_of(post, "tournament:checkin:"))
        await out.wait_for_followups(1)
        assert "You are out of this knockout." in out.followups[0].text()
        await step(bot, clock, 600)
        state = await events.state(event_id)
        (final,) = state.boards_of(2)
        assert sorted(e for e in final.seats if e is not None) == sorted(through)
        for side in final.sides:  # the two who won a table together are split
            assert not any(set(side) <= set(m.advancing) for m in tree.rounds[0])
        await click_in(fake, bot, 2, set())
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        events = tournament_cog(bot).events
        await step(bot, clock)
        await play_out(fake, bot, clock, event_id, 2)
        await step(bot, clock)
        state = await events.state(event_id)
        assert state.event.status == "finished"
    tree = state.bracket()
    assert tree is not None and len(tree.champions) == 2
    titles = Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)
    for number in (1, 2):
        assert titles[f"Knock: pairings of round {number}"] == 1
        assert titles[f"Knock: standings after round {number}"] == 1
    assert titles["Knock: the podium"] == 1
    (podium,) = titled(fake, "Knock: the podium")
    for champion in tree.champions:
        assert f"🥇 {name(champion)}" in podium.text()
        assert f"1. {name(champion)} · rating " in podium.text()
        assert f"<@{seed[champion]}>" in (podium.content or "")
    # Two champions share first place; the final's losers share third.
    assert podium.text().count("🥇") == 2 and podium.text().count("🥉") == 2
    assert not podium.attachments
    (after,) = titled(fake, "Knock: standings after round 2")
    assert said(state, 2) in after.text() and "🏆 Champions: " in after.text()


async def test_individual_swiss_with_a_top_four_playoff(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """Six people, two individual Swiss rounds, then the top four play one table, the final:
    its pairings say it is the playoff, the two outsiders may not check in, the picture is the
    bracket, and the podium's first place is the final's winning side."""
    fake = fake_discord
    clock = FakeClock()
    people = [fake.add_user(8100 + i, f"s{i}", f"Swiss {i}") for i in range(6)]
    options = {
        "name": "Night",
        "checkin": True,
        "variant": "partners", "format": "individual", "rounds": 2,
        "hands": 1, "playoff": 4,
    }
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        events = tournament_cog(bot).events
        await create(fake, bot, clock, options)
        event_id = await register_and_start(fake, bot, clock, people)
        for number in (1, 2):
            await check_in_all(fake, bot, people, number)
            await step(bot, clock, 600)
            await click_in(fake, bot, number, set())
            await play_out(fake, bot, clock, event_id, number)
        state = await events.state(event_id)
        seeds = state.event.playoff_seeds
        assert seeds is not None and len(seeds) == 4 and state.in_playoff()
        ids = {e.entry: e.user_id for e in state.entries}
        outsiders = [u for u in people if u.id not in {ids[s] for s in seeds}]
        (post,) = [m for m in with_button(fake, "tournament:checkin:") if "Round 3 " in m.text()]
        refused = await fake.click(outsiders[0], post, button_of(post, "tournament:checkin:"))
        await refused.wait_for_followups(1)
        assert "playoff of the top 4: you are not in it" in refused.followups[0].text()
        playing = [u for u in people if u not in outsiders]
        await check_in_all(fake, bot, playing, 3)
        await step(bot, clock, 600)
        await click_in(fake, bot, 3, set())
        (pairings,) = titled(fake, "Night: pairings of round 3")
        assert "Playoff of the top 4" in pairings.text()
        (final,) = (await events.state(event_id)).boards_of(3)
        assert sorted(e for e in final.seats if e is not None) == sorted(seeds)
        assert final.sides[0][0] == seeds[0]  # the best seed's couple sits first
        await play_out(fake, bot, clock, event_id, 3)
        await step(bot, clock)
        state = await events.state(event_id)
        assert state.event.status == "finished"
    tree = state.bracket()
    assert tree is not None and tree.complete and len(tree.champions) == 2
    (after,) = titled(fake, "Night: standings after round 3")
    assert said(state, 3) in after.text() and "🏆 Champions: " in after.text()
    places = state.places()
    assert {e for p, e in places if p == 1} == set(tree.champions)
    assert [p for p, _ in places][:4] == [1, 1, 3, 3]
    (podium,) = titled(fake, "Night: the podium")
    assert podium.text().count("🥇") == 2
    titles = Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)
    assert titles["Night: the podium"] == 1
    assert all(titles[f"Night: pairings of round {n}"] == 1 for n in (1, 2, 3))
