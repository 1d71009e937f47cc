"""Through the fake Discord: events played to the podium, every public message checked; the
two whole events on a SQLite file and on a real PostgreSQL server."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import Any

from bot.tournaments.service import PUBLISH
from cogs.tournaments.cog import THREAD_WAIT
from tests.cogs.helpers import FakeClock, TestBot, factory, settings_for, settle
from tests.cogs.test_web_setting import VIEW, links_of
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.tournament.helpers import bot_at

pytest_plugins = ["tests.fakediscord.plugin"]

TURN = 120.0


def tournament_cog(bot: TestBot) -> Any:
    cog = bot.get_cog("Tournament")
    assert cog is not None
    return cog


async def step(bot: TestBot, clock: FakeClock, seconds: float = 0.0) -> None:
    """Move the fake clock, run what is due, and let every message be published (also what
    waits a moment: a table's thread being made, the last tables' records)."""
    clock.advance(seconds)
    for _ in range(50):
        await bot.svc.tick()
        await settle(bot)
        await tournament_cog(bot).idle()
        due = bot.svc.scheduler.next_due()
        if due is not None and due > clock():  # a publication asked to come back in a moment
            timers = await tournament_cog(bot).events.repo.timers()
            if any(t.kind == PUBLISH and t.due_at <= clock() + THREAD_WAIT for t in timers):
                clock.advance(due - clock())
                continue
        if due is None or due > clock():
            return


def public(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.public_messages() if not m.ephemeral]


def titled(fake: FakeDiscord, start: str) -> list[StoredMessage]:
    return [m for m in public(fake) if m.embeds and m.embeds[0].get("title", "").startswith(start)]


def with_button(fake: FakeDiscord, prefix: str) -> list[StoredMessage]:
    return [m for m in public(fake) if any(c.startswith(prefix) for c in m.custom_ids())]


def button_of(message: StoredMessage, prefix: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix))


async def play_out(
    fake: FakeDiscord, bot: TestBot, clock: FakeClock, event_id: int, number: int
) -> None:
    """Let round ``number`` run: the people let their turns time out until computers play."""
    events = tournament_cog(bot).events
    for _ in range(300):
        state = await events.state(event_id)
        row = state.round_row(number)
        if row is not None and row.status == "done":
            return
        await step(bot, clock, TURN)
    raise AssertionError(f"round {number} never ended")


async def check_in_all(fake: FakeDiscord, bot: TestBot, people: list[Any], number: int) -> None:
    (post,) = [
        m for m in with_button(fake, "tournament:checkin:") if f"Round {number} " in m.text()
    ]
    for user in people:
        result = await fake.click(user, post, button_of(post, "tournament:checkin:"))
        await result.wait_for_followups(1)
        assert "checked in" in result.followups[0].text(), result.followups[0].text()


async def click_in(fake: FakeDiscord, bot: TestBot, number: int, absent: set[int]) -> None:
    """Everyone seated in round ``number`` but ``absent`` presses I'm here in his thread."""
    for post in with_button(fake, "tournament:here:"):
        cid = button_of(post, "tournament:here:")
        if not cid.endswith(f":{number}"):
            continue
        for user in fake.users.values():
            if f"<@{user.id}>" in (post.content or "") and user.id not in absent:
                result = await fake.click(user, post, cid)
                await result.wait_for_followups(1)


async def test_individual_event_to_the_podium(fake_discord: FakeDiscord, database_url: str) -> None:
    """Nine people, individual Swiss of three rounds: a no-show at a table (a computer plays
    his seat), a late entrant (half-point bye), a withdrawal and a restart of the bot in the
    middle of a round; pairings, standings and the podium are each posted exactly once."""
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(2000 + i, f"player{i}", f"Player {i}") for i in range(9)]
    late = fake.add_user(2100, "late", "Late Comer")
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        result = await fake.slash(
            host,
            fake.channel_id,
            "domino tournament create",
            {
                "name": "Friday *night*",
                "checkin": True,
                "variant": "partners",
                "format": "individual",
                "rounds": 3,
                "hands": 1,
            },
        )
        assert result.ephemeral and "open for registration" in result.text()
        await step(bot, clock)
        (announce,) = titled(fake, "Tournament: Friday \\*night\\*")
        for user in people[:5]:
            click = await fake.click(user, announce, button_of(announce, "tournament:register:"))
            await click.wait_for_followups(1)
            assert "registered" in click.followups[0].text()
        for user in people[5:]:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        again = await fake.slash(people[0], fake.channel_id, "domino tournament register", {})
        assert "already registered" in again.text()
        stranger = await fake.slash(people[1], fake.channel_id, "domino tournament start", {})
        assert "Only the tournament's host" in stranger.text()
        start = await fake.slash(host, fake.channel_id, "domino tournament start", {})
        assert "check-in is open" in start.text()
        await step(bot, clock)
        await step(bot, clock)
        await check_in_all(fake, bot, people, 1)
        stranger_user = fake.add_user(2999, "stranger", "Stranger")
        (post,) = with_button(fake, "tournament:checkin:")
        nope = await fake.click(stranger_user, post, button_of(post, "tournament:checkin:"))
        await nope.wait_for_followups(1)
        assert "not registered" in nope.followups[0].text()
        await step(bot, clock, 600)  # the round starts: pairings, tables, threads
        await step(bot, clock)
        assert len(titled(fake, "Friday \\*night\\*: pairings of round 1")) == 1
        event_id = (await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id
        state = await tournament_cog(bot).events.state(event_id)
        # The default fill: nine people play two tables and one has a bye.
        boards = state.boards_of(1)
        assert [b.is_bye for b in boards] == [False, False, True]
        assert not [u for b in boards if not b.is_bye for u in b.people if u is None]
        no_show = boards[0].people[0]
        assert no_show is not None
        await click_in(fake, bot, 1, {no_show})
        await step(bot, clock, 300)  # the grace: a computer plays the no-show's seat
        state = await tournament_cog(bot).events.state(event_id)
        # ... the event's one computer seat
        assert [b.how for b in state.boards_of(1) if "absent:" in (b.how or "")] == [
            f"absent:{state.entry_of(no_show).entry}"  # type: ignore[union-attr]
        ]
        await play_out(fake, bot, clock, event_id, 1)
        assert len(titled(fake, "Friday \\*night\\*: standings after round 1")) == 1
        # A withdrawal and a late entrant while round 2's check-in is open.
        left = await fake.slash(people[7], fake.channel_id, "domino tournament withdraw", {})
        assert "withdrawn" in left.text()
        joined = await fake.slash(late, fake.channel_id, "domino tournament register", {})
        assert "half-point bye" in joined.text()
        await check_in_all(fake, bot, [*people[:7], late], 2)
        await step(bot, clock, 600)
        await click_in(fake, bot, 2, set())
    # The bot stops in the middle of round 2 and comes back: nothing is lost or doubled.
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await step(bot, clock)
        await play_out(fake, bot, clock, event_id, 2)
        await check_in_all(fake, bot, [*people[:7], late], 3)
        await step(bot, clock, 600)
        await click_in(fake, bot, 3, set())
        await play_out(fake, bot, clock, event_id, 3)
        await step(bot, clock)
        state = await tournament_cog(bot).events.state(event_id)
        assert state.event.status == "finished"
    titles = Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)
    for number in (1, 2, 3):
        assert titles[f"Friday \\*night\\*: pairings of round {number}"] == 1
        assert titles[f"Friday \\*night\\*: standings after round {number}"] == 1
    assert titles["Friday \\*night\\*: the podium"] == 1
    (podium,) = titled(fake, "Friday \\*night\\*: the podium")
    assert not podium.attachments and "rating" in podium.text()
    assert len(with_button(fake, "tournament:checkin:")) == 3
    assert not with_button(fake, "domino:rematch:")  # an event's table offers no rematch


async def register_pair(
    fake: FakeDiscord, first: Any, second: Any, accept: bool = True, *, timeout: float = 5.0
) -> None:
    """``first`` registers with ``second`` as his partner, who accepts (or declines); each
    answer waited for up to ``timeout`` seconds."""
    answer = await fake.slash(
        first, fake.channel_id, "domino tournament register", {"partner": second},
        timeout=timeout,
    )
    assert "asked to confirm" in answer.text(), answer.text()
    *_, ask = [
        m for m in with_button(fake, "tournament:partner:") if f"<@{second.id}>," in m.text()
    ]
    choice = "yes" if accept else "no"
    cid = next(c for c in ask.custom_ids() if c.split(":")[3] == choice)
    click = await fake.click(second, ask, cid, timeout=timeout)
    await click.wait_for_followups(1, timeout=timeout)
    said = click.followups[0].text()
    assert said == (
        "Your pair is registered." if accept else "You declined: the pair is not registered."
    )
    # The answered invitation says how it was answered and offers no buttons any more.
    answered = fake.message(ask.id)
    assert not answered.custom_ids(), answered.custom_ids()
    verb = "accepted" if accept else "declined"
    assert answered.text().startswith(f"<@{second.id}> {verb}"), answered.text()


async def test_pairs_event_to_the_podium(fake_discord: FakeDiscord, database_url: str) -> None:
    """Ten pairs, Swiss of three rounds: partners confirm, a pair whose member does not come
    to the table forfeits, one pair withdraws, one enters late, the bot restarts mid-round;
    every pairing, standings and podium post is made once."""
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(3000 + i, f"p{i}", f"Pair player {i}") for i in range(22)]
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        made = await fake.slash(
            host,
            fake.channel_id,
            "domino tournament create",
            {
                "name": "Pairs",
                "checkin": True,
                "variant": "partners",
                "format": "pairs",
                "rounds": 3,
                "hands": 1,
            },
        )
        assert "open for registration" in made.text()
        twice = await fake.slash(
            host,
            fake.channel_id,
            "domino tournament create",
            {
                "name": "Second",
                "checkin": True,
                "variant": "partners",
                "format": "pairs",
            },
        )
        assert "already open in this channel" in twice.text()
        for i in range(0, 20, 2):
            await register_pair(fake, people[i], people[i + 1])
        taken = await fake.slash(
            people[20], fake.channel_id, "domino tournament register", {"partner": people[0]}
        )
        assert "already registered" in taken.text()
        alone = await fake.slash(people[20], fake.channel_id, "domino tournament register", {})
        register = fake.find_command("domino", fake.guild_id)["id"]
        assert f"register your pair with </domino tournament register:{register}>" in (
            alone.text()
        ), alone.text()
        # (answered invitations offer no buttons: a stranger's click on a waiting one is
        # refused in test_a_pairs_invitation_blocks_nobody_and_cannot_be_used_to_ping)
        assert not with_button(fake, "tournament:partner:")
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        event_id = (await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id
        await check_in_all(fake, bot, people[:20:2], 1)
        await step(bot, clock, 600)
        await click_in(fake, bot, 1, {people[1].id})  # pair 1's second member never comes
        await step(bot, clock, 300)
        state = await tournament_cog(bot).events.state(event_id)
        assert any((b.how or "").startswith("forfeit") for b in state.boards_of(1))
        await play_out(fake, bot, clock, event_id, 1)
        gone = await fake.slash(people[4], fake.channel_id, "domino tournament withdraw", {})
        assert "withdrawn" in gone.text()
        await register_pair(fake, people[20], people[21])
        await check_in_all(fake, bot, [p for p in people[:22:2] if p is not people[4]], 2)
        await step(bot, clock, 600)
        await click_in(fake, bot, 2, set())
    async with running_bot(fake, bot_at(fake, database_url, clock=clock)) as bot:
        await step(bot, clock)
        await play_out(fake, bot, clock, event_id, 2)
        await check_in_all(fake, bot, [p for p in people[:22:2] if p is not people[4]], 3)
        await step(bot, clock, 600)
        await click_in(fake, bot, 3, set())
        await play_out(fake, bot, clock, event_id, 3)
        await step(bot, clock)
        state = await tournament_cog(bot).events.state(event_id)
        assert state.event.status == "finished"
        after = await fake.slash(people[0], fake.channel_id, "domino tournament withdraw", {})
        assert "over" in after.text()
    titles = Counter(m.embeds[0].get("title", "") for m in public(fake) if m.embeds)
    for number in (1, 2, 3):
        assert titles[f"Pairs: pairings of round {number}"] == 1
        assert titles[f"Pairs: standings after round {number}"] == 1
    assert titles["Pairs: the podium"] == 1
    # Each pairing links its table's thread; the standings say the tie-breaks in words; the
    # announcement says the event is over and who won (no "Starts when the host presses Start").
    (paired,) = titled(fake, "Pairs: pairings of round 1")
    tables = [x for x in paired.text().splitlines() if x.startswith("Table ")]
    assert tables and all(re.search(r" · <#\d+>$", x) for x in tables), tables
    (standings,) = titled(fake, "Pairs: standings after round 1")
    assert "opponents' match points" in standings.text()
    assert "Level on match points, the better points difference goes first" in standings.text()
    assert not standings.attachments
    (announced,) = titled(fake, "Tournament: Pairs")
    assert "The tournament is over. Winner: " in announced.text(), announced.text()
    assert "Starts when" not in announced.text()


async def test_a_pairs_invitation_blocks_nobody_and_cannot_be_used_to_ping(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Naming someone as partner invites him: he is pinged once and may still enter with
    someone else. An inviter has one invitation waiting at most and sends one a minute at
    most (a new one replaces his waiting one, whose buttons then do nothing); he cannot ask
    again someone waiting for his answer or who declined him."""
    fake = fake_discord
    clock = FakeClock()
    names = ["Ann", "Bea", "Cid", "Dan", "Eve", "Fay"]
    ann, bea, cid, dan, eve, fay = (
        fake.add_user(3500 + i, n.lower(), n) for i, n in enumerate(names)
    )
    register = "domino tournament register"

    def pings(user: Any) -> list[StoredMessage]:
        """The invitations that asked ``user`` (answered ones included)."""
        return [
            m for m in fake.public_messages()
            if f"<@{user.id}>, " in (*m.history, m)[0].text() and "registers with you" in (
                (*m.history, m)[0].text()
            )
        ]

    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        made = await fake.slash(fake.owner, fake.channel_id, "domino tournament create", {
            "name": "Pairs", "checkin": True, "variant": "partners", "format": "pairs",
        })
        assert "open for registration" in made.text()
        asked = await fake.slash(ann, fake.channel_id, register, {"partner": bea})
        assert asked.text() == "Your partner is asked to confirm your pair."
        assert len(pings(bea)) == 1
        again = await fake.slash(ann, fake.channel_id, register, {"partner": bea})
        assert again.text() == "You have already invited Bea: wait for the answer."
        soon = await fake.slash(ann, fake.channel_id, register, {"partner": cid})
        assert soon.text() == "You can invite a partner again in 60 s."
        assert len(pings(bea)) == 1 and not pings(cid)
        # Bea is not held by Ann's invitation: she enters with Cid.
        await register_pair(fake, bea, cid)
        (ann_asks,) = pings(bea)
        late = await fake.click(bea, ann_asks, button_of(ann_asks, "tournament:partner:"))
        await late.wait_for_followups(1)
        assert "already registered" in late.followups[0].text()
        # A stranger's click is refused privately and changes nothing.
        before = (ann_asks.text(), ann_asks.custom_ids(), ann_asks.edit_count)
        stranger = await fake.click(eve, ann_asks, button_of(ann_asks, "tournament:partner:"))
        await stranger.wait_for_followups(1)
        assert stranger.followups[0].ephemeral
        assert "No pair is waiting" in stranger.followups[0].text()
        after = fake.message(ann_asks.id)
        assert (after.text(), after.custom_ids(), after.edit_count) == before
        # A minute later Ann asks Dan, who declines; she may not ask him again.
        clock.advance(60)
        await register_pair(fake, ann, dan, accept=False)
        clock.advance(60)
        refused = await fake.slash(ann, fake.channel_id, register, {"partner": dan})
        assert refused.text() == (
            "Dan declined your invitation: you cannot ask again in this tournament."
        )
        assert len(pings(dan)) == 1
        # Ann asks Eve, then Fay: Eve's invitation is replaced, its buttons do nothing.
        await fake.slash(ann, fake.channel_id, register, {"partner": eve})
        clock.advance(60)
        blocked = await fake.slash(ann, fake.channel_id, register, {"partner": cid})
        assert "already registered" in blocked.text()
        await register_pair(fake, ann, fay)
        (to_eve,) = pings(eve)
        yes = next(c for c in to_eve.custom_ids() if c.split(":")[3] == "yes")
        stale = await fake.click(eve, to_eve, yes)
        await stale.wait_for_followups(1)
        assert "No pair is waiting" in stale.followups[0].text()
        events = tournament_cog(bot).events
        event = await events.find(fake.guild_id, fake.channel_id)
        pairs = {(e.user_id, e.partner_id) for e in await events.repo.entries(event.id)}
        assert pairs == {(bea.id, cid.id), (ann.id, fay.id)}


def test_an_id_no_kind_reads_is_answered_as_invalid() -> None:
    from cogs.tournaments.buttons import BUTTONS, InvalidButton

    for cid, kind in [
        ("tournament:here:1:2", "HereButton"),
        ("tournament:partner:3:no", "PartnerButton"),
        ("tournament:here:1:x", "InvalidButton"),
        ("tournament:nothing", "InvalidButton"),
    ]:
        found = [b for b in BUTTONS if b.__discord_ui_compiled_template__.fullmatch(cid)]
        assert [b.__name__ for b in found] == [kind]
    assert InvalidButton.kind == "invalid"


async def test_who_may_run_tournaments(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Manage Server, or the role chosen in /domino server-settings; anyone else is told so and
    nothing is created. A variant without the format is refused with the formats it has."""
    fake = fake_discord
    alice = fake.add_user(5001, "alice", "Alice")
    options = {"name": "Cup", "checkin": True, "variant": "draw", "format": "single"}
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        refused = await fake.slash(alice, fake.channel_id, "domino tournament create", options)
        assert "Only members with Manage Server" in refused.text()
        role = fake.guild.personal_roles[alice.id]
        shown = await fake.slash(
            fake.owner, fake.channel_id, "domino server-settings", {"tournament_role": role}
        )
        assert f"<@&{role}>" in shown.text()
        wrong = await fake.slash(
            alice, fake.channel_id, "domino tournament create", {**options, "format": "pairs"}
        )
        assert "has no pairs format" in wrong.text()
        made = await fake.slash(alice, fake.channel_id, "domino tournament create", options)
        assert "open for registration" in made.text()
        events = tournament_cog(bot).events
        assert len(await events.repo.open_events(fake.guild_id)) == 1


async def test_posts_link_to_the_event_page_where_the_server_has_pages(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Our decision: with web pages on, the announcement, pairings, standings and podium each
    carry a link button to the event's page; with pages off, none does, nor with pages on
    for an event of a channel @everyone cannot view."""
    fake = fake_discord
    fake.set_everyone_permissions(DEFAULT_MEMBER_PERMISSIONS)  # a new server's: View Channels
    staff = fake.add_channel("staff")
    fake.set_channel_overwrite(staff.id, fake.guild.everyone.id, deny=VIEW)
    for user in (fake.owner.id, fake.bot_user.id):
        fake.set_channel_overwrite(staff.id, user, allow=VIEW)
    clock = FakeClock()
    host = fake.owner
    people = [fake.add_user(6000 + i, f"k{i}", f"Knock {i}") for i in range(2)]
    base = "https://domino.example.org"
    settings = dataclasses.replace(settings_for(fake, tmp_path / "db.sqlite3"), web_base_url=base)
    options = {"name": "Cup", "checkin": True, "variant": "draw", "format": "single", "hands": 1}
    async with running_bot(fake, lambda: TestBot(settings, clock=clock)) as bot:
        await fake.slash(host, fake.channel_id, "domino server-settings", {"web": "on"})
        made = await fake.slash(
            host, fake.channel_id, "domino tournament create", {**options, "system": "knockout"}
        )
        assert "open for registration" in made.text(), made.text()
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text()
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        await step(bot, clock)
        event_id = (await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id
        page = f"{base}/s/{fake.guild_id}/t/{event_id}"
        await check_in_all(fake, bot, people, 1)
        await step(bot, clock, 600)
        await click_in(fake, bot, 1, set())
        await play_out(fake, bot, clock, event_id, 1)
        await step(bot, clock)
        assert (await tournament_cog(bot).events.state(event_id)).event.status == "finished"
        for title in ("Tournament: Cup", "Cup: pairings of round 1", "Cup: the podium"):
            (post,) = titled(fake, title)
            assert links_of(post) == [page], title
        standings = titled(fake, "Cup: standings after round")
        assert standings and all(links_of(post) == [page] for post in standings)
        assert not [m for m in with_button(fake, "tournament:checkin:") if links_of(m)]

        # Pages off; then pages on, but an event of the staff channel: no link either way.
        for web, channel, name in (("off", fake.channel_id, "Plate"), ("on", staff.id, "Staff")):
            await fake.slash(host, fake.channel_id, "domino server-settings", {"web": web})
            made = await fake.slash(
                host, channel, "domino tournament create", {**options, "name": name}
            )
            assert "open for registration" in made.text(), made.text()
            await step(bot, clock)
            (announce,) = titled(fake, f"Tournament: {name}")
            assert links_of(announce) == [] and announce.custom_ids()
