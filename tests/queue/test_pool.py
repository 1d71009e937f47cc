"""The quick match across servers (the open pool) through the fake Discord, on both backends.

People queuing with ``/domino play`` in servers that joined the open pool are matched together
whatever their server; the table is shown in each server's table channel under global names
only. A server not in the pool keeps its people to itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.queue.values import POOL
from bot.servers.pool import OpenPool
from bot.settings import Settings
from tests.cogs.helpers import FakeClock, answer, play_until_over
from tests.cogs.test_pool import (
    A_NICK,
    B_CHANNEL,
    B_NICK,
    World,
    open_hands,
    place_message,
    places,
    texts_in,
    until,
)
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS
from tests.queue.helpers import QueueBot, idle, said

MANAGER = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


def factory(fake: FakeDiscord, url: str, clock: FakeClock) -> Any:
    # (commands synced globally: they are used in both servers)
    settings = Settings(
        discord_token=fake.token, database_path=None, database_url=url, dev_guild_id=None,
        log_level="INFO", ai_processes=0,
    )
    return lambda: QueueBot(settings, clock=clock)


async def play(
    fake: FakeDiscord, user: Any, channel_id: int, guild_id: int, variant: str = "draw"
) -> InteractionResult:
    result = await fake.slash(
        user, channel_id, "domino play", {"variant": variant, "computers": variant == "draw"},
        guild_id=guild_id,
    )
    await result.wait_for_followups(1)
    return result


def tables_of(bot: QueueBot) -> list[Any]:
    return [t for t in bot.svc.open_tables() if t.table.options.get("queue")]


async def test_people_of_two_servers_in_the_pool_are_seated_together_and_shown_in_both(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    fake = fake_discord
    here = World(fake)
    clock = FakeClock()
    async with running_bot(fake, factory(fake, database_url, clock)) as bot:
        assert bot.store is not None
        joined = await fake.slash(
            here.b_owner, here.b_channel.id, "domino server-settings", {"open_pool": "on"},
            guild_id=here.b.id,
        )
        assert "Open pool" in joined.text(), joined.text()
        await OpenPool(bot.store).set_joined(fake.guild_id, True, by=None)
        first = said(await play(fake, here.alice, fake.channel_id, fake.guild_id))
        assert "quick-match queue" in first.text(), first.text()
        assert (await bot.queue_cog.queue.status(here.alice.id)).entry.scope == POOL
        second = said(await play(fake, here.bob, here.b_channel.id, here.b.id))
        await idle(bot)
        (info,) = tables_of(bot)
        assert info.status == "running" and info.table.guild_id == fake.guild_id
        assert {s.user_id for s in info.seats if s is not None} == {here.alice.id, here.bob.id}
        rows = await places(bot, info.id)
        assert [(p.guild_id, p.people) for p in rows] == [
            (fake.guild_id, (here.alice.id,)), (here.b.id, (here.bob.id,)),
        ]
        a_message = await place_message(fake, bot, info.id, fake.guild_id)
        b_message = await place_message(fake, bot, info.id, here.b.id)
        assert fake.channels[a_message.channel_id].parent_id == fake.channel_id
        assert fake.channels[b_message.channel_id].parent_id == here.b_channel.id
        # Each server's person is mentioned once, in his own server's thread.
        for thread, mine, other in (
            (a_message.channel_id, here.alice.id, here.bob.id),
            (b_message.channel_id, here.bob.id, here.alice.id),
        ):
            notes = await fake.wait_for(lambda thread=thread: [
                m for m in fake.messages(thread) if "your table is ready" in m.text()
            ], what="the mention")
            assert len(notes) == 1 and f"<@{mine}>" in notes[0].text(), notes[0].text()
            assert f"<@{other}>" not in notes[0].text()
        # Bob is told where he sees his table: his own server's thread.
        assert second.text().startswith("You are seated"), second.text()
        assert f"<#{b_message.channel_id}>" in second.text(), second.text()
        hands = await open_hands(here, bot, info.id)
        await play_until_over(fake, bot, info.id, [here.alice, here.bob], hands=hands)
        await idle(bot)
        assert (await bot.svc.get(info.id)).status == "finished"

        async def both_ended() -> bool:
            return all(p.match_announced for p in await places(bot, info.id))

        await until(both_ended, "the end posted in both servers")
        a_message = await place_message(fake, bot, info.id, fake.guild_id)
        b_message = await place_message(fake, bot, info.id, here.b.id)
        assert a_message.text() == b_message.text()  # kept in step
        for guild in (fake.guild_id, here.b.id):
            text = texts_in(fake, guild)
            assert "Alice" in text and "Bob" in text
            assert A_NICK not in text and B_NICK not in text and B_CHANNEL not in text


async def test_a_server_not_in_the_pool_keeps_its_people_to_itself(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    fake = fake_discord
    here = World(fake)
    clock = FakeClock()
    async with running_bot(fake, factory(fake, database_url, clock)) as bot:
        assert bot.store is not None
        await OpenPool(bot.store).set_joined(fake.guild_id, True, by=None)  # B is not in it
        said(await play(fake, here.alice, fake.channel_id, fake.guild_id))
        waiting = said(await play(fake, here.bob, here.b_channel.id, here.b.id))
        await idle(bot)
        assert not tables_of(bot)
        assert "quick-match queue" in waiting.text(), waiting.text()
        queue = bot.queue_cog.queue
        assert (await queue.status(here.alice.id)).entry.scope == POOL
        assert (await queue.status(here.bob.id)).entry.scope == here.b.id


async def test_a_join_seats_at_once_on_the_process_of_the_joiners_server(
    fake_discord: FakeDiscord, database_url: str, monkeypatch: Any
) -> None:
    """Our decision (docs/queue.md): every process seats the pool for its own servers' people,
    so a join seats its table at once whichever process handles it. Alice's server A moves to
    another process while she waits (this process runs B only now); Bob's join in B seats them
    both at once, the table owned by B and shown in A."""
    fake = fake_discord
    here = World(fake)
    clock = FakeClock()
    async with running_bot(fake, factory(fake, database_url, clock)) as bot:
        assert bot.store is not None
        for guild in (fake.guild_id, here.b.id):
            await OpenPool(bot.store).set_joined(guild, True, by=None)
        said(await play(fake, here.alice, fake.channel_id, fake.guild_id))
        queue = bot.queue_cog.queue
        runs = queue.tables.owns
        monkeypatch.setattr(queue.tables, "owns", lambda g: g != fake.guild_id and runs(g))
        said(await play(fake, here.bob, here.b_channel.id, here.b.id))
        await idle(bot)
        (info,) = tables_of(bot)
        assert info.table.guild_id == here.b.id
        rows = await places(bot, info.id)
        assert [(p.guild_id, p.people) for p in rows] == [
            (here.b.id, (here.bob.id,)), (fake.guild_id, (here.alice.id,)),
        ]
        assert await queue.status(here.alice.id) is None


def post_edits(fake: FakeDiscord, post: Any) -> int:
    """The bot's edits of a message (Discord requests)."""
    path = f"/channels/{post.channel_id}/messages/{post.id}"
    return sum(1 for r in fake.requests if r.method == "PATCH" and r.path == path)


async def test_a_pool_servers_play_now_post_shows_the_pool_too_edited_once_per_interval(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """The Play now post of a server in the open pool shows its own people and the pool's
    (every server's): a join in another server reaches it, and however many join meanwhile it
    is edited at most once per interval (one request)."""
    fake = fake_discord
    here = World(fake)
    clock = FakeClock()
    a_boss = fake.add_user(1011, "aboss", "ABoss", permissions=MANAGER)
    b_boss = fake.add_user(1012, "bboss", "BBoss", join_guild=False)
    fake.join(b_boss, here.b.id, permissions=MANAGER)
    async with running_bot(fake, factory(fake, database_url, clock)) as bot:
        assert bot.store is not None
        cog = bot.queue_cog
        for guild in (fake.guild_id, here.b.id):
            await OpenPool(bot.store).set_joined(guild, True, by=None)
        posts = {}
        for boss, channel, guild in (
            (a_boss, fake.channel_id, fake.guild_id), (b_boss, here.b_channel.id, here.b.id),
        ):
            asked = await fake.slash(boss, channel, "domino play-post", {}, guild_id=guild)
            assert "The Play now post is in" in await answer(asked)
            (posts[guild],) = [m for m in fake.messages(channel) if "Play now" in m.text()]
        a_post, b_post = posts[fake.guild_id], posts[here.b.id]
        assert "Open pool: 0 waiting here, 0 across servers." in a_post.text(), a_post.text()
        # Bob joins in B: A's post (no one of A waits) shows him across servers.
        said(await play(fake, here.bob, here.b_channel.id, here.b.id, "partners"))
        await fake.wait_for(
            lambda: "Open pool: 0 waiting here, 1 across servers." in fake.message(a_post.id).text()
        )
        await fake.wait_for(
            lambda: "Open pool: 1 waiting here, 1 across servers." in fake.message(b_post.id).text()
        )
        await idle(bot)
        # From now on one edit per long interval: two more joins cost no request meanwhile.
        before = post_edits(fake, a_post), post_edits(fake, b_post)
        cog.post_every = 3600.0
        now = asyncio.get_running_loop().time()
        cog._last_edit.update({fake.guild_id: now, here.b.id: now})
        said(await play(fake, here.dave, here.b_channel.id, here.b.id, "partners"))
        said(await play(fake, here.alice, fake.channel_id, fake.guild_id, "partners"))
        assert (post_edits(fake, a_post), post_edits(fake, b_post)) == before
        cog.post_every = 0.0
        cog._last_edit.clear()
        for guild in (fake.guild_id, here.b.id):
            cog._post_tasks.pop(guild).cancel()  # (its wait is shortened: edit now)
            cog._post_soon(guild)
        await idle(bot)
        assert "Open pool: 1 waiting here, 3 across servers." in fake.message(a_post.id).text()
        assert "Open pool: 2 waiting here, 3 across servers." in fake.message(b_post.id).text()
        assert (post_edits(fake, a_post), post_edits(fake, b_post)) == (before[0] + 1,
                                                                        before[1] + 1)
        # Nothing changed: a look at the pool sends nothing.
        await cog._look_at_pool()
        for guild in (fake.guild_id, here.b.id):
            cog._post_soon(guild)
        await idle(bot)
        assert (post_edits(fake, a_post), post_edits(fake, b_post)) == (before[0] + 1,
                                                                        before[1] + 1)
