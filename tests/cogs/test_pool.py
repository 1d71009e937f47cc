"""Tables across servers (the open pool) through the fake Discord, on SQLite and PostgreSQL.

Two servers, each with its own table channel: a table opened with a place in each is shown in
both, each person plays through his own server's message, both messages are kept in step,
nothing of one server (nicknames, channel names) reaches the other, and the match counts on
both servers' boards and the global one. A server that leaves the pool, removes the bot or
deletes its channel loses its place; the table goes on in the other, a computer playing for
the people who played from there.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.settings import Settings
from bot.store.places import PlaceRow
from bot.tables.core import make_ruleset
from bot.tables.places import TablePlaces
from cogs.domino.across import open_across
from tests.cogs.helpers import (
    LOADED_WAIT,
    OpenedHand,
    TestBot,
    button,
    human_to_move,
    play_turn,
    play_until_over,
    settle,
)
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot

A_NICK, B_NICK = "AliceOnlyInA", "BobOnlyInB"
B_CHANNEL = "b-secret-room"


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Where the bot stores: a SQLite file, or a database of a real PostgreSQL server."""
    if request.param == "sqlite":
        return {"database_path": tmp_path / "bot.db"}
    return {"database_path": None, "database_url": request.getfixturevalue("postgres_databases")
            .create()}


class World:
    """Server A (the fake's own, channel ``tables``) and server B (channel ``b-secret-room``);
    Alice plays from A, Bob from B, Dave is a member of B who does not play."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.alice = fake.add_user(1001, "alice", "Alice")
        self.bob = fake.add_user(1002, "bob", "Bob", join_guild=False)
        self.dave = fake.add_user(1004, "dave", "Dave", join_guild=False)
        self.b_owner = fake.add_user(1003, "bowner", "Bea", join_guild=False)
        self.b = fake.add_guild("Server B", owner=self.b_owner)
        self.b_channel = fake.add_channel(B_CHANNEL, guild_id=self.b.id)
        fake.join(self.alice, fake.guild_id, nick=A_NICK)
        fake.join(self.bob, self.b.id, nick=B_NICK)
        fake.join(self.dave, self.b.id)


def settings(fake: FakeDiscord, database: dict[str, Any]) -> Settings:
    # (commands synced globally: they are used in both servers)
    return Settings(
        discord_token=fake.token, dev_guild_id=None, log_level="INFO", ai_processes=0,
        **database,
    )


@pytest.fixture
async def world(fake_discord: FakeDiscord, database: dict[str, Any]) -> AsyncIterator[
    tuple[World, TestBot]
]:
    here = World(fake_discord)
    async with running_bot(fake_discord, lambda: TestBot(settings(fake_discord, database))) as bot:
        yield here, bot


async def seat_alice_and_bob(world: World, bot: TestBot) -> int:
    """Alice (server A) and Bob (server B) at a two-player table shown in both servers, as
    the queue opens it: names are the accounts' global names."""
    fake = world.fake
    alice, bob = await bot.fetch_user(world.alice.id), await bot.fetch_user(world.bob.id)
    info = await open_across(
        bot.svc,
        bot.cog.presenter,
        ruleset=make_ruleset("two", {"target": 50}),
        options={},
        seated=[(alice, fake.guild_id), (bob, world.b.id)],
        channels={fake.guild_id: fake.channel_id, world.b.id: world.b_channel.id},
        turn_timer=60,
    )
    assert info.status == "running" and info.table.guild_id == fake.guild_id
    return info.id


async def until(check: Callable[[], Awaitable[Any]], what: str) -> Any:
    """Wait until ``check()`` (read from the store) holds; its value."""
    try:
        async with asyncio.timeout(LOADED_WAIT):
            while not (found := await check()):
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"waited in vain for {what}") from None
    return found


async def places(bot: TestBot, table_id: int) -> list[PlaceRow]:
    return await TablePlaces(bot.svc).of_table(table_id)


async def place_message(fake: FakeDiscord, bot: TestBot, table_id: int, guild_id: int) -> Any:
    async def posted() -> int | None:
        for p in await places(bot, table_id):
            if p.guild_id == guild_id and p.message_id is not None:
                return p.message_id
        return None

    return fake.message(await until(posted, "a place's message"))


async def open_hands(world: World, bot: TestBot, table_id: int) -> dict[int, OpenedHand]:
    """Each player presses My tiles on his own server's game message (its hand: the click's
    ephemeral followup)."""
    fake = world.fake
    hands = {}
    for user, guild in ((world.alice, fake.guild_id), (world.bob, world.b.id)):
        message = await place_message(fake, bot, table_id, guild)
        result = await fake.click(user, message, button(message, "tiles"))
        (hand,) = await result.wait_for_followups(1)
        assert hand.ephemeral
        hands[user.id] = OpenedHand(result)
    return hands


def guild_of(fake: FakeDiscord, channel_id: int) -> int | None:
    channel = fake.channels.get(channel_id)
    return None if channel is None else channel.guild_id


def texts_in(fake: FakeDiscord, guild_id: int) -> str:
    """Everything the bot said publicly in a server (every version of every message)."""
    out = []
    for m in fake.public_messages():
        if m.guild_id == guild_id or guild_of(fake, m.channel_id) == guild_id:
            out.extend(v.text() for v in [*getattr(m, "history", []), m])
    return "\n".join(out)


def _requests_in(fake: FakeDiscord, guild_id: int) -> int:
    """The bot-token requests on messages of the server's channels and threads."""
    parts = [r.path.split("/") for r in fake.requests]
    return sum(
        1 for p in parts
        if len(p) > 3 and p[1] == "channels" and p[3] == "messages"
        and guild_of(fake, int(p[2])) == guild_id
    )


async def test_a_table_across_two_servers_is_played_to_the_end_in_both(
    world: tuple[World, TestBot],
) -> None:
    here, bot = world
    fake = here.fake
    tid = await seat_alice_and_bob(here, bot)
    rows = await places(bot, tid)
    assert [(p.place, p.guild_id, p.people) for p in rows] == [
        (0, fake.guild_id, (here.alice.id,)),
        (1, here.b.id, (here.bob.id,)),
    ]
    a_message = await place_message(fake, bot, tid, fake.guild_id)
    b_message = await place_message(fake, bot, tid, here.b.id)
    # Each server shows the table in a thread of its own table channel.
    assert fake.channels[a_message.channel_id].parent_id == fake.channel_id
    assert fake.channels[b_message.channel_id].parent_id == here.b_channel.id
    hands = await open_hands(here, bot, tid)
    await play_until_over(fake, bot, tid, [here.alice, here.bob], hands=hands)
    await settle(bot)
    info = await bot.svc.get(tid)
    assert info.status == "finished"

    async def both_ended() -> bool:
        return all(p.match_announced for p in await places(bot, tid))

    await until(both_ended, "the end posted in both servers")
    a_message = await place_message(fake, bot, tid, fake.guild_id)
    b_message = await place_message(fake, bot, tid, here.b.id)
    # The two servers' messages are kept in step: the same words and buttons at the end.
    assert a_message.text() == b_message.text()
    assert [b["custom_id"] for b in a_message.buttons()] == [
        b["custom_id"] for b in b_message.buttons()
    ]
    for guild, game in ((fake.guild_id, a_message), (here.b.id, b_message)):
        said = texts_in(fake, guild)
        assert "Alice" in said and "Bob" in said
        # Only global names: no nickname of either server, no channel name of B.
        assert A_NICK not in said and B_NICK not in said and B_CHANNEL not in said
        ends = [
            m for m in fake.public_messages()
            if guild_of(fake, m.channel_id) == guild and "won the match" in m.text()
            and m.id != game.id
        ]
        assert len(ends) == 1, [m.text() for m in ends]
    # Each place costs its own requests (bot token): about the same in both servers.
    spent = {g: _requests_in(fake, g) for g in (fake.guild_id, here.b.id)}
    print(f"requests per place (posts, edits, deletes): {spent}")
    a_spent, b_spent = spent[fake.guild_id], spent[here.b.id]
    assert b_spent and abs(a_spent - b_spent) <= max(3, a_spent // 5), spent
    # The match counts on both servers' boards and on the global one.
    assert bot.store is not None
    rows = await bot.store.db.fetchall(
        "SELECT DISTINCT scope FROM record_stats WHERE player_id IN (?, ?)",
        (here.alice.id, here.bob.id),
    )
    assert {r["scope"] for r in rows} == {0, fake.guild_id, here.b.id}


async def test_a_stranger_clicking_in_the_other_server_changes_nothing(
    world: tuple[World, TestBot],
) -> None:
    here, bot = world
    fake = here.fake
    tid = await seat_alice_and_bob(here, bot)
    b_message = await place_message(fake, bot, tid, here.b.id)
    seq = (await bot.svc.get(tid)).seq
    clicked = await fake.click(here.dave, b_message, button(b_message, "tiles"))
    (answer,) = await clicked.wait_for_followups(1)
    assert answer.ephemeral and "not" in answer.text().lower(), answer.text()
    resign = await fake.click(here.dave, b_message, button(b_message, "resign"))
    await settle(bot)
    assert all(not m.custom_ids() or m.ephemeral for m in resign.followups)
    info = await bot.svc.get(tid)
    assert info.status == "running" and info.seq == seq


async def _plays_on_without_b(
    here: World, bot: TestBot, tid: int, b_message: StoredMessage
) -> None:
    """B's place is gone and the table plays on in A: a computer plays Bob's seat."""
    fake = here.fake

    async def dropped() -> bool:
        return [p.guild_id for p in await places(bot, tid)] == [fake.guild_id]

    await until(dropped, "B's place dropped")

    async def taken_over() -> bool:
        info = await bot.svc.get(tid)
        return any(s is not None and s.user_id == here.bob.id and s.kind == "computer"
                   for s in info.seats)

    await until(taken_over, "Bob's seat played for")
    await settle(bot)  # (an edit of B's message on its way as the place went may land)
    edits = fake.message(b_message.id).edit_count
    hands: dict[int, OpenedHand] = {}
    a_message = await place_message(fake, bot, tid, fake.guild_id)
    tiles = await fake.click(here.alice, a_message, button(a_message, "tiles"))
    await tiles.wait_for_followups(1)
    hands[here.alice.id] = OpenedHand(tiles)
    await play_until_over(fake, bot, tid, [here.alice], hands=hands)
    await settle(bot)
    assert (await bot.svc.get(tid)).status == "finished"
    assert fake.message(b_message.id).edit_count == edits  # B is not written to any more
    said = texts_in(fake, fake.guild_id)
    # The other server is told once that a computer plays for the person it cannot reach.
    assert said.count("Bob can no longer be reached from their server") == 1


async def _two_turns(here: World, bot: TestBot, tid: int) -> None:
    hands = await open_hands(here, bot, tid)
    by_id = {u.id: u for u in (here.alice, here.bob)}
    for _ in range(2):
        who = await here.fake.wait_for(lambda: human_to_move(bot, tid), timeout=LOADED_WAIT)
        assert who != "over"
        await play_turn(here.fake, bot, tid, by_id[int(who)], hands)


async def test_a_server_leaving_the_pool_mid_match_loses_its_place(
    world: tuple[World, TestBot],
) -> None:
    here, bot = world
    fake = here.fake
    joined = await fake.slash(
        here.b_owner, here.b_channel.id, "domino server-settings", {"open_pool": "on"},
        guild_id=here.b.id,
    )
    assert "Open pool" in joined.text() and "other servers" in joined.text(), joined.text()
    refused = await fake.slash(
        here.dave, here.b_channel.id, "domino server-settings", {"open_pool": "off"},
        guild_id=here.b.id,
    )
    assert "manage the server" in refused.text()
    tid = await seat_alice_and_bob(here, bot)
    b_message = await place_message(fake, bot, tid, here.b.id)
    await _two_turns(here, bot, tid)
    left = await fake.slash(
        here.b_owner, here.b_channel.id, "domino server-settings", {"open_pool": "off"},
        guild_id=here.b.id,
    )
    assert "Open pool" in left.text()
    await _plays_on_without_b(here, bot, tid, b_message)


@pytest.mark.parametrize("gone", ["channel deleted", "bot removed"])
async def test_a_deleted_channel_or_a_server_removing_the_bot_loses_its_place(
    world: tuple[World, TestBot], gone: str
) -> None:
    here, bot = world
    fake = here.fake
    tid = await seat_alice_and_bob(here, bot)
    b_message = await place_message(fake, bot, tid, here.b.id)
    await _two_turns(here, bot, tid)
    if gone == "channel deleted":
        await fake.remove_channel(here.b_channel.id)
    else:
        await fake.remove_bot(here.b.id)
    await _plays_on_without_b(here, bot, tid, b_message)


async def test_a_person_opts_out_of_the_pool_and_forget_me_deletes_it(
    world: tuple[World, TestBot],
) -> None:
    here, bot = world
    fake = here.fake
    shown = await fake.slash(here.alice, fake.channel_id, "domino pool")
    assert "yes" in shown.text() and "not in the open pool" in shown.text()
    out = await fake.slash(here.alice, fake.channel_id, "domino pool", {"join": "off"})
    assert "opted out" in out.text()
    assert bot.store is not None
    count = "SELECT count(*) FROM pool_opt_outs WHERE user_id = ?"
    assert await bot.store.db.fetchval(count, (here.alice.id,)) == 1
    from tests.cogs.helpers import forget_me

    await forget_me(fake, here.alice)
    assert await bot.store.db.fetchval(count, (here.alice.id,)) == 0


async def test_a_table_no_server_shows_any_more_is_cancelled(
    world: tuple[World, TestBot],
) -> None:
    here, bot = world
    fake = here.fake
    tid = await seat_alice_and_bob(here, bot)
    await place_message(fake, bot, tid, here.b.id)
    await fake.remove_channel(here.b_channel.id)
    await fake.remove_channel(fake.channel_id)

    async def cancelled() -> bool:
        return (await bot.svc.get(tid)).status == "cancelled"

    await until(cancelled, "the table cancelled")
    assert await places(bot, tid) == []


async def test_each_server_mentions_its_own_people_and_lists_the_match_in_its_history(
    world: tuple[World, TestBot],
) -> None:
    """Each place's messages mention only the people who play from its server (the others are
    named by their global names, never mentioned); the match is in ``/domino history`` in
    both servers, with its players' global names."""
    here, bot = world
    fake = here.fake
    tid = await seat_alice_and_bob(here, bot)
    hands = await open_hands(here, bot, tid)
    await play_until_over(fake, bot, tid, [here.alice, here.bob], hands=hands)
    await settle(bot)

    async def both_ended() -> bool:
        return all(p.match_announced for p in await places(bot, tid))

    await until(both_ended, "the end posted in both servers")
    for guild, own, other, other_name in (
        (fake.guild_id, here.alice, here.bob, "Bob"),
        (here.b.id, here.bob, here.alice, "Alice"),
    ):
        said = texts_in(fake, guild)
        assert f"<@{own.id}>" in said
        assert f"<@{other.id}>" not in said and f"<@!{other.id}>" not in said
        first = next(
            v.text() for m in fake.public_messages()
            if guild_of(fake, m.channel_id) == guild
            for v in [*getattr(m, "history", []), m]
            if "the match begins" in v.text()
        )
        assert f"<@{own.id}>" in first and other_name in first, first
        ends = [m.text() for m in fake.public_messages()
                if guild_of(fake, m.channel_id) == guild and "won the match" in m.text()]
        assert ends and all(other_name in t and f"<@{other.id}>" not in t for t in ends), ends
    assert bot.store is not None

    async def recorded() -> bool:
        return bool(await bot.store.db.fetchval(  # type: ignore[union-attr]
            "SELECT count(*) FROM record_matches WHERE table_id = ?", (tid,)
        ))

    await until(recorded, "the match recorded")
    # In B (the server that does not own the table): Bob's own history, and Bob's as Dave (a
    # member of B) sees it, list the match with Alice's global name.
    for asker, options in ((here.bob, {}), (here.dave, {"user": here.bob})):
        shown = await fake.slash(
            asker, here.b_channel.id, "domino history", options, guild_id=here.b.id
        )
        text = shown.text()
        assert "No recorded matches" not in text, text
        assert "against Alice" in text and A_NICK not in text, text
        assert "not named" not in text, text
    # In A, Alice's history names Bob by his global name.
    mine = await fake.slash(here.alice, fake.channel_id, "domino history", {})
    assert "against Bob" in mine.text() and B_NICK not in mine.text(), mine.text()
