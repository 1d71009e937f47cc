"""``/domino play`` through the real discord.py path and the fake Discord, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

import discord
import pytest

from bot.errors import InvalidOptions
from tests.cogs.helpers import FakeClock, answer, forget_me, play_until_over
from tests.fakediscord import FakeDiscord, FakeUser, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.queue.helpers import QueueBot, idle, leave_id, play, queue_factory, said

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


class Room(NamedTuple):
    """The fake Discord, three members of its server, the bot's clock and the running bot."""

    fake: FakeDiscord
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    clock: FakeClock
    bot: QueueBot


@pytest.fixture
def limits() -> dict[str, Any]:
    """The bot's limits (a test parametrizes it to change them)."""
    return {}


@pytest.fixture
async def room(
    fake_discord: FakeDiscord, database_url: str, pictures_on: Any, limits: dict[str, Any]
) -> AsyncIterator[Room]:
    """Alice, Bob and Carol on the fake's server and the quick match's bot, running."""
    fake = fake_discord
    people = [fake.add_user(1001 + n, name.lower(), name) for n, name in
              enumerate(("Alice", "Bob", "Carol"))]
    clock = FakeClock()
    async with running_bot(fake, queue_factory(fake, database_url, clock, **limits)) as bot:
        yield Room(fake, *people, clock, bot)


def tables_of(bot: QueueBot) -> list[Any]:
    return [t for t in bot.svc.open_tables() if t.table.options.get("queue")]


async def test_two_people_queue_are_seated_together_and_play_to_the_end(room: Room) -> None:
    fake, alice, bob, _carol, _clock, bot = room
    first = said(await play(fake, alice, "draw"))
    text = first.text()
    assert "in the quick-match queue for **Draw game (two players)**" in text, text
    assert "Waiting on this server: 1 (Draw game (two players): 1)" in text, text
    assert leave_id(first) == f"queue:leave:{alice.id}"
    assert not tables_of(bot)
    # Bob queues for any variant: the table of the variant Alice waits for fills at once.
    second = said(await play(fake, bob))
    await idle(bot)
    (info,) = tables_of(bot)
    assert info.ruleset.id == "draw" and info.status == "running"
    assert {s.user_id for s in info.seats if s is not None} == {alice.id, bob.id}
    assert all(s is not None and s.kind == "human" for s in info.seats)
    thread = info.table.thread_id
    assert thread and f"<#{thread}>" in second.text(), second.text()
    assert second.text().startswith("You are seated")
    # Alice's own answer was edited to say where her table is.
    edited = await fake.wait_for(
        lambda: "You are seated" in fake.message(first.id).text() and fake.message(first.id)
    )
    assert f"<#{thread}>" in edited.text() and not edited.custom_ids()
    # The table's thread mentions both, once.
    notes = [m for m in fake.messages(thread) if "Quick match: your table is ready" in m.text()]
    assert len(notes) == 1
    assert f"<@{alice.id}>" in notes[0].text() and f"<@{bob.id}>" in notes[0].text()
    # Nobody waits any more; asking again queues afresh.
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {}
    await play_until_over(fake, bot, info.id, [alice, bob])
    await idle(bot)
    assert (await bot.svc.get(info.id)).status == "finished"


async def test_computers_fill_the_seats_after_the_wait_unless_refused(room: Room) -> None:
    fake, alice, bob, _carol, clock, bot = room
    mine = said(await play(fake, alice, "partners"))
    refused = said(await play(fake, bob, "three", computers=False))
    assert "You wait for people only" in refused.text()
    clock.advance(59)
    await idle(bot)
    assert not tables_of(bot)
    clock.advance(2)  # the server's default wait (60 s) is over
    await fake.wait_for(lambda: tables_of(bot), what="the computers' fill")
    await idle(bot)
    (info,) = tables_of(bot)
    assert info.ruleset.id == "partners"
    kinds = [s.kind for s in info.seats if s is not None]
    assert kinds.count("human") == 1 and kinds.count("computer") == 3
    edited = await fake.wait_for(
        lambda: "You are seated" in fake.message(mine.id).text() and fake.message(mine.id)
    )
    assert f"<#{info.table.thread_id}>" in edited.text()
    # Bob refused computers: he still waits, alone.
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {"three": 1}


async def test_leave_a_strangers_click_and_bad_input_change_nothing(room: Room) -> None:
    fake, alice, bob, _carol, clock, bot = room
    queue = bot.queue_cog.queue
    mine = said(await play(fake, alice, "partners"))
    # Asked again: he is told he is queued, with his Leave button; nothing changes.
    again = said(await play(fake, alice, "draw"))
    assert "You are already in the quick-match queue for **Partners (Latin)**" in again.text()
    assert leave_id(again) == f"queue:leave:{alice.id}"
    assert await queue.counts(fake.guild_id) == {"partners": 1}
    # An unknown variant (Discord offers only the choices; the service checks again).
    with pytest.raises(InvalidOptions) as refused:
        await queue.join(user_id=bob.id, guild_id=fake.guild_id, channel_id=fake.channel_id,
                         variant="chess", name="Bob")
    assert str(refused.value).startswith("There is no quick match of chess. Choose one of")
    assert await queue.counts(fake.guild_id) == {"partners": 1}
    # A stranger cannot press Alice's Leave button (he sees it only if she shared it).
    fake.message(mine.id).ephemeral_user_id = bob.id
    stranger = await fake.click(bob, mine, leave_id(mine))
    text = await answer(stranger)
    assert "This is not your place in the queue" in text, text
    fake.message(mine.id).ephemeral_user_id = alice.id
    assert await queue.counts(fake.guild_id) == {"partners": 1}
    # She leaves: the answer says so and loses its button; nobody waits.
    left = await fake.click(alice, mine, leave_id(mine))
    assert left.type == 7  # the answer itself updated
    assert fake.message(mine.id).text() == "You left the quick-match queue."
    assert await queue.counts(fake.guild_id) == {}
    clock.advance(3600)
    await idle(bot)
    assert not tables_of(bot)


@pytest.mark.parametrize("limits", [{"matches_per_user": 1}])
async def test_a_person_at_his_limit_of_matches_is_refused(room: Room) -> None:
    fake, alice, bob, _carol, _clock, bot = room
    said(await play(fake, alice, "draw", computers=False))
    said(await play(fake, bob, "draw"))
    await idle(bot)
    assert len(tables_of(bot)) == 1
    refused = await play(fake, alice, "partners")
    text = said(refused).text()
    assert "You are already playing 1 matches" in text, text
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {}


async def test_a_place_expires_with_a_quiet_note(room: Room) -> None:
    fake, alice, bob, _carol, clock, bot = room
    queue = bot.queue_cog.queue
    # A member who does not manage the server may read the waits, not change them.
    refused = await fake.slash(alice, fake.channel_id, "domino play-settings", {"expiry": 2})
    (text,) = [m.text() for m in [refused.message or refused.followups[0]]]
    assert "Only members who can manage the server" in text, text
    boss = fake.add_user(1009, "boss", "Boss", permissions=MANAGER)
    changed = await fake.slash(boss, fake.channel_id, "domino play-settings", {"expiry": 2})
    text = await answer(changed)
    assert text.startswith("Quick match settings saved.") and "kept 2 min" in text, text
    mine = said(await play(fake, alice, "partners", computers=False))
    assert "Your place is kept until" in mine.text()
    said(await play(fake, bob, "three", computers=False))
    clock.advance(121)
    await fake.wait_for(
        lambda: "expired" in fake.message(mine.id).text(), what="Alice's note"
    )
    await idle(bot)
    assert "Your place in the quick-match queue for Partners (Latin) expired" in (
        fake.message(mine.id).text()
    )
    assert not fake.message(mine.id).custom_ids()
    assert await queue.counts(fake.guild_id) == {}
    assert not await queue.repo.expired()  # the notes are sent: none owed
    assert not tables_of(bot)


async def test_the_play_now_post_seats_people_and_shows_who_waits_edited_sparingly(
    room: Room,
) -> None:
    fake, alice, bob, carol, _clock, bot = room
    boss = fake.add_user(1009, "boss", "Boss", permissions=MANAGER)
    cog = bot.queue_cog
    refused = await fake.slash(alice, fake.channel_id, "domino play-post", {})
    assert "Only members who can manage the server" in await answer(refused)
    asked = await fake.slash(boss, fake.channel_id, "domino play-post", {})
    assert "The Play now post is in" in await answer(asked)
    (post,) = [m for m in fake.messages() if "Play now" in m.text()]
    assert "Waiting now: nobody" in post.text()
    # Alice presses Play now (any variant): the post shows her waiting.
    joined = await fake.click(alice, post, "queue:join:any")
    (mine,) = await joined.wait_for_followups(1)
    assert "quick-match queue for **any variant**" in mine.text(), mine.text()
    await fake.wait_for(lambda: "any variant: 1" in fake.message(post.id).text())
    # From now on at most one edit per long interval: two more joins, no edit.
    edits = cog.post_edits
    cog.post_every = 3600.0
    cog._last_edit[fake.guild_id] = asyncio.get_running_loop().time()
    picked = await fake.select(carol, post, "queue:pick", ["three"])
    await picked.wait_for_followups(1)
    # Bob picks the draw game: Alice (any) and Bob are seated at once.
    picked = await fake.select(bob, post, "queue:pick", ["draw"])
    (seated,) = await picked.wait_for_followups(1)
    assert seated.text().startswith("You are seated"), seated.text()
    (info,) = await fake.wait_for(lambda: tables_of(bot))
    assert info.ruleset.id == "draw"
    assert cog.post_edits == edits  # the changes wait for the next edit
    assert "any variant: 1" in fake.message(post.id).text()
    cog.post_every = 0.0
    cog._last_edit.clear()
    cog._post_tasks.pop(fake.guild_id).cancel()  # (its wait is shortened: edit now)
    cog._post_soon(fake.guild_id)
    await idle(bot)
    await fake.wait_for(lambda: "Three players: 1" in fake.message(post.id).text())
    assert cog.post_edits == edits + 1


async def test_forget_me_gives_up_the_place(room: Room) -> None:
    fake, alice, bob, _carol, _clock, bot = room
    said(await play(fake, alice, "draw"))
    said(await play(fake, bob, "draw"))  # seated together
    await idle(bot)
    said(await play(fake, alice, "partners", computers=False))
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {"partners": 1}
    await forget_me(fake, alice)
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {}
    assert await bot.queue_cog.queue.status(alice.id) is None
    (table,) = await bot.queue_cog.queue.repo.tables()
    assert table.people == (bob.id,)
    kept = await bot.store.db.fetchval("SELECT places FROM queue_tables")
    assert str(alice.id) not in kept and str(bob.id) in kept


async def test_an_expired_place_whose_answer_is_too_old_gets_a_silent_direct_message(
    room: Room,
) -> None:
    fake, alice, _bob, _carol, clock, bot = room
    mine = said(await play(fake, alice, "partners", computers=False))
    clock.advance(15 * 60 + 1)  # the default expiry: Discord no longer edits the answer
    (note,) = await fake.wait_for(lambda: fake.dm_messages(alice), what="the note")
    await idle(bot)
    assert note.text().startswith(
        "Your place in the quick-match queue for Partners (Latin) expired"
    )
    assert note.flags & 4096  # sent without a notification
    assert "expired" not in fake.message(mine.id).text()
    assert not await bot.queue_cog.queue.repo.expired()
    assert await bot.queue_cog.queue.counts(fake.guild_id) == {}


async def test_a_table_the_bot_may_not_post_in_gives_its_people_their_places_back(
    room: Room,
) -> None:
    """Our decision (docs/queue.md): a quick-match table cancelled because the bot may not post
    in its channel gives each person his place back at the front, told privately why; who
    queued in that very channel is told why and loses his place (his table would open there
    again)."""
    fake, alice, bob, carol, clock, bot = room
    closed = fake.add_channel("closed")
    queue = bot.queue_cog.queue
    fake.deny(closed.id, "send_messages")
    fake.deny(closed.id, "create_thread")
    mine = said(await play(fake, alice, "draw", channel_id=closed.id, computers=False))
    # Bob fills Alice's table, which opens where she queued: the bot may not post there.
    bobs = said(await play(fake, bob, "draw", computers=False))
    await idle(bot)
    assert not tables_of(bot)
    text = bobs.text()
    assert text.startswith("Your quick-match table could not open"), text
    assert "You keep your place at the front of the queue." in text, text
    assert leave_id(bobs) == f"queue:leave:{bob.id}"
    edited = await fake.wait_for(
        lambda: "could not open" in fake.message(mine.id).text() and fake.message(mine.id)
    )
    assert f"<#{closed.id}>" in edited.text() and "your place was given up" in edited.text()
    assert not edited.custom_ids()
    status = await queue.status(bob.id)
    assert status is not None and await queue.status(alice.id) is None
    assert status.entry.joined_at <= clock()  # his wait counts: at the front
    assert not await queue.repo.expired()  # both told: nothing owed
    # Carol joins: she sits with Bob at once, in the channel she queued in.
    seated = said(await play(fake, carol, "draw"))
    assert seated.text().startswith("You are seated"), seated.text()
    await idle(bot)
    (info,) = tables_of(bot)
    assert {s.user_id for s in info.seats if s is not None} == {bob.id, carol.id}
    assert fake.channels[info.table.thread_id].parent_id == fake.channel_id
