"""Privacy of names, histories and figures across servers, end to end through the fake Discord."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from bot.records.service import Records
from bot.store import Store
from tests.bot.test_records_privacy import occurrences
from tests.bot.test_records_support import duel, human, make_record
from tests.cogs.helpers import (
    FakeClock,
    TestBot,
    answer,
    button,
    factory,
    new_table,
    settings_for,
)
from tests.cogs.test_records import records_of
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS, FakeUser


def two_servers(fake: FakeDiscord) -> tuple[int, int]:
    """A second server (with a channel) where Alice and Bob are members too."""
    other = fake.add_guild("Other server")
    channel = fake.add_channel("general", guild_id=other.id)
    for uid in (1001, 1002):
        fake._add_member(other, fake.user(uid), DEFAULT_MEMBER_PERMISSIONS)
    return other.id, channel.id


def global_bot(fake: FakeDiscord, db: Path) -> TestBot:
    """The bot with its commands synced globally (so both servers have them)."""
    return TestBot(dataclasses.replace(settings_for(fake, db), dev_guild_id=None))


async def started_match(fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser) -> int:
    """A real two-player match in ``fake.channel``: ``guest`` joins, ``host`` starts it."""
    result, tid = await new_table(fake, bot, host, variant="draw")
    lobby = result.message
    assert lobby is not None
    await fake.click(guest, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{guest.id}>" in lobby.text())
    await fake.click(host, lobby, button(lobby, "start"))
    await fake.wait_for(lambda: any(t.status == "running" for t in bot.svc.open_tables()))
    return tid


async def resigned_match(fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser) -> int:
    """A real two-player match in ``fake.channel`` that ``host`` resigns."""
    tid = await started_match(fake, bot, host, guest)
    asked = await fake.slash(host, fake.channel_id, "domino leave", {})
    assert asked.message is not None  # "Resign? …" with a confirmation button
    await fake.click(host, asked.message, button(asked.message, "resignok"))
    await fake.wait_for(lambda: bot.svc.open_tables() == [])
    await bot.svc.idle()
    return tid


def texts(messages: list[StoredMessage]) -> str:
    return "\n".join(v.text() for m in messages for v in [*m.history, m])


async def test_a_server_nickname_never_reaches_another_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    fake.guild.members[alice.id].nick = "SecretNick"
    fake.guild.members[bob.id].nick = "BobbyHere"
    _other, elsewhere = two_servers(fake)
    async with running_bot(fake, lambda: global_bot(fake, tmp_path / "db.sqlite3")) as bot:
        # A real match on the first server: Alice against Bob, Alice resigns.
        tid = await resigned_match(fake, bot, alice, bob)
        records = records_of(bot)
        assert not await records.record(tid)  # recorded already

        # The other server: the global leaderboard names both by their global names.
        board = await fake.slash(
            bob, elsewhere, "domino leaderboard", {"scope": "global", "by": "wins"}
        )
        assert board.message is not None
        assert "Bob" in board.message.text() and "Alice" in board.message.text()
        # Alice's history there is hers alone, and the match of the first server is anonymous.
        mine = await fake.slash(alice, elsewhere, "domino history", {})
        assert mine.ephemeral and mine.message is not None
        line = mine.message.embeds[0]["description"]
        assert "**Win**" not in line and "**Loss**" in line and "against" not in line
        assert "Players of matches on other servers are not named." in line
        # Someone else's history shows only what was played on the server he asks on.
        theirs = await fake.slash(bob, elsewhere, "domino history", {"user": alice})
        assert "No recorded matches to show for" in await answer(theirs)

        everything_there = texts(fake.messages(elsewhere, ephemeral=None))
        assert "SecretNick" not in everything_there and "BobbyHere" not in everything_there

        # On the first server, her own history names Bob by his global name too.
        here = await fake.slash(alice, fake.channel_id, "domino history", {})
        assert here.ephemeral and here.message is not None
        assert "against Bob" in here.message.text()
        assert "BobbyHere" not in here.message.text()
        # Nothing stored for the records holds a nickname.
        store = bot.svc.store
        rows = await store.db.fetchall(
            "SELECT name FROM record_entries UNION ALL SELECT name FROM record_players"
        )
        assert {r[0] for r in rows} == {"Alice", "Bob"}


async def test_a_masked_link_name_stays_inert(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    mallory = fake.add_user(1003, "mallory", "[NITRO](https://e.ex) **b** <@1>")
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, lambda: global_bot(fake, tmp_path / "db.sqlite3")) as bot:
        await resigned_match(fake, bot, mallory, alice)

        board = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"by": "wins"})
        assert board.message is not None
        text = board.message.embeds[0]["description"]
        assert "\\[NITRO\\]\\(https:\u200b//e.ex) \\*\\*b\\*\\* \\<@1\\>" in text
        history = await fake.slash(alice, fake.channel_id, "domino history", {})
        assert history.message is not None
        assert "against \\[NITRO\\]\\(https:\u200b//" in history.message.text()


async def test_leaving_the_global_boards_hides_the_global_rating_in_stats(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        await duel(records, 1, 1001, 1002, guild_id=fake.guild_id)
        await duel(records, 2, 1001, 1003, guild_id=999)  # on another server
        before = await fake.slash(bob, fake.channel_id, "domino stats", {"user": alice})
        (shown,) = await before.wait_for_followups(1)
        assert "(2 rated matches)" in shown.text() and "Everywhere" in shown.text()

        choices = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        assert choices.message is not None
        leave = next(c for c in choices.message.custom_ids() if c.endswith(":0:1"))
        await fake.click(alice, choices.message, leave)

        after = await fake.slash(bob, fake.channel_id, "domino stats", {"user": alice})
        (shown,) = await after.wait_for_followups(1)
        text = shown.text()
        assert "On this server" in text and "Matches: 1 · wins 1" in text
        assert "Everywhere" not in text and "Ratings" not in text and "rated matches" not in text
        # Her own figures, rating included, now come for her eyes only.
        own = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (mine,) = await own.wait_for_followups(1)
        assert mine.ephemeral and "(2 rated matches)" in mine.text()


async def test_a_leaderboard_button_of_another_server_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        await duel(records, 1, 5001, 5002, guild_id=999)  # a server Alice is not on
        result = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"by": "wins"})
        message = result.message
        assert message is not None
        # A client that sends a Next button of its own making: for a server Alice is not on,
        # with a page number no leaderboard has (more digits than a page may carry), for a
        # board that does not exist.
        for forged in (
            "records:lb:n:1001:999:all:wins:0",
            "records:lb:n:1001:0:all:wins:99999999999999999999",
            "records:lb:n:1001:0:nothing:wins:0",
        ):
            # (a board of one page shows no Previous/Next: the forged client adds its own)
            message.components = [
                {"type": 1, "components": [{"type": 2, "style": 2, "label": "Next",
                                            "custom_id": forged}]}
            ]
            click = await fake.click(alice, message, forged)
            assert await answer(click) == "This button is not valid any more."
            await bot.cog.idle()
            assert "P5001" not in texts(fake.messages(ephemeral=None))


ALICE_ID = 187654321098765432  # a real-looking id: no other figure of the database contains it


async def test_forget_me_removes_a_player_from_every_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(ALICE_ID, "alice_account", "Alicia Global")
    fake.guild.members[alice.id].nick = "Ali Nick"
    bob = fake.add_user(1002, "bob", "Bob")
    cid = fake.add_user(1003, "cid", "Cid")
    needles = ["alice_account", "Alicia Global", "Ali Nick"]
    async with running_bot(fake, lambda: global_bot(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        await resigned_match(fake, bot, alice, bob)  # Bob wins against Alice
        await resigned_match(fake, bot, bob, alice)  # and Alice against Bob
        choices = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        assert choices.message is not None
        await fake.click(alice, choices.message, choices.message.custom_ids()[1])
        # Alice now hosts a lobby Cid joined, and Cid challenges her (and Bob).
        lobby, lobby_id = await new_table(fake, bot, alice, variant="draw")
        assert lobby.message is not None
        await fake.click(cid, lobby.message, button(lobby.message, "join"))
        challenge = {"variant": "three", "player": alice, "player2": bob}
        assert not (await fake.slash(cid, fake.channel_id, "domino challenge", challenge)).ephemeral
        assert await occurrences(bot.svc.store, needles, alice.id)
        bob_before = await records.stats(bob.id)
        bob_history = await records.history(bob.id)

        asked = await fake.slash(alice, fake.channel_id, "domino forget-me", {})
        assert asked.ephemeral and asked.message is not None
        text = asked.message.text()
        assert "This cannot be undone." in text and "cancelled if you host them" in text
        assert "running match" not in text
        no = next(c for c in asked.message.custom_ids() if ":no:" in c)
        await fake.click(alice, asked.message, no)
        assert asked.message.content == "Nothing was deleted."
        assert await occurrences(bot.svc.store, needles, alice.id)

        asked = await fake.slash(alice, fake.channel_id, "domino forget-me", {})
        assert asked.message is not None
        yes = next(c for c in asked.message.custom_ids() if ":yes:" in c)
        done = await fake.click(alice, asked.message, yes)
        await done.wait_for_edits(1)
        assert asked.message.content == "Done: your name and figures are deleted from the records."
        await bot.svc.idle()

        assert await occurrences(bot.svc.store, needles, alice.id) == []
        assert (await bot.svc.get(lobby_id)).status == "cancelled"
        assert bot.svc.open_tables() == []  # the challenge is declined
        # Bob's figures and history did not change; Alice is "a former player" there.
        assert await records.stats(bob.id) == bob_before
        after = await records.history(bob.id)
        assert [(i.table_id, i.result, i.rating_change) for i in after] == [
            (i.table_id, i.result, i.rating_change) for i in bob_history
        ]
        mine = await fake.slash(bob, fake.channel_id, "domino history", {})
        assert mine.message is not None
        assert mine.message.text().count("against a former player") == 2
        gone = await fake.slash(bob, fake.channel_id, "domino stats", {"user": alice})
        assert "No recorded matches to show for" in await answer(gone)


async def test_forget_me_asks_before_resigning_a_running_match(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(ALICE_ID, "alice_account", "Alicia Global")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, lambda: global_bot(fake, tmp_path / "db.sqlite3")) as bot:
        asked = await fake.slash(alice, fake.channel_id, "domino forget-me", {})
        assert asked.message is not None and "running match" not in asked.message.text()
        # She sits down at a match after she was asked: the old button asks again.
        result, tid = await new_table(fake, bot, bob, variant="draw")
        assert result.message is not None
        await fake.click(alice, result.message, button(result.message, "join"))
        await fake.wait_for(lambda: f"<@{alice.id}>" in result.message.text())
        await fake.click(bob, result.message, button(result.message, "start"))
        await fake.wait_for(lambda: any(t.status == "running" for t in bot.svc.open_tables()))
        yes = next(c for c in asked.message.custom_ids() if ":yes:" in c)
        again = await fake.click(alice, asked.message, yes)
        assert again.type == 7
        assert "You are playing in a running match: forgetting you resigns it." in (
            asked.message.text()
        )
        assert (await bot.svc.get(tid)).status == "running"
        resign = next(c for c in asked.message.custom_ids() if ":yes:" in c)
        assert asked.message.buttons()[0]["label"] == "Resign and forget me"
        done = await fake.click(alice, asked.message, resign)
        await done.wait_for_edits(1)
        await bot.svc.idle()
        assert (await bot.svc.get(tid)).status == "finished"
        assert await occurrences(bot.svc.store, ["alice_account", "Alicia Global"], alice.id) == []
        history = await fake.slash(bob, fake.channel_id, "domino history", {})
        assert history.message is not None
        line = history.message.text()
        assert "✅ **Win**" in line and "against a former player" in line


async def test_a_server_that_removes_the_bot_loses_its_tables_now_and_its_data_later(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        records.clock = clock
        guild = fake.guild_id
        await duel(records, 1, 1001, 1002, guild_id=guild)
        await records.set_privacy(1001, guild, True)
        _lobby, tid = await new_table(fake, bot, alice, variant="draw")

        await fake.dispatch("GUILD_DELETE", {"id": str(guild)})
        await fake.wait_for(lambda: bot.svc.open_tables() == [])
        assert (await bot.svc.get(tid)).status == "cancelled"

        # Within the grace period (the bot may be invited back) the data stays.
        clock.advance(6 * 24 * 3600)
        assert await records.sweep_departed() == []
        assert (await records.stats(1001, guild_id=guild)).server
        clock.advance(2 * 24 * 3600)
        assert await records.sweep_departed() == [guild]
        alice_now = await records.stats(1001, guild_id=guild)
        assert not alice_now.server and alice_now.overall  # the global figures stay
        assert await records.hidden_scopes(1001) == set()
        rows = await bot.svc.store.db.fetchall(
            "SELECT count(*) FROM record_stats WHERE scope = ?", (guild,)
        )
        assert rows[0][0] == 0


async def test_a_server_that_invites_the_bot_back_keeps_its_data(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "db.sqlite3") as store:
        clock = FakeClock()
        records = Records(store, clock=clock)
        await duel(records, 1, 1001, 1002, guild_id=77)
        await records.guild_left(77)
        await records.guild_back(77)
        clock.advance(30 * 24 * 3600)
        assert await records.sweep_departed() == []
        assert (await records.stats(1001, guild_id=77)).server


async def test_a_name_recorded_before_is_replaced_by_the_public_name_when_seen(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        # Recorded under a server nickname (as older versions did), then Alice comes by.
        await records.record_match(
            make_record(1, "draw", [human(1001, "OldNick"), human(1002)], [], winner_side=0)
        )
        options = {"scope": "global", "by": "wins"}
        again = await fake.slash(alice, fake.channel_id, "domino leaderboard", options)
        assert again.message is not None
        assert "Alice" in again.message.text() and "OldNick" not in again.message.text()


async def test_a_server_that_removed_the_bot_while_it_was_away_counts_as_left(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    async with await Store.open(db) as store:
        records = Records(store)
        await duel(records, 1, 1001, 1002, guild_id=fake.guild_id)
        await duel(records, 2, 1001, 1002, guild_id=999)  # the bot is no longer there
    async with running_bot(fake, factory(fake, db)) as bot:
        records = records_of(bot)
        await fake.wait_for(lambda: bot.is_ready())
        departed = await bot.svc.store.db.fetchall("SELECT guild_id FROM departed_guilds")
        for _ in range(100):
            if departed:
                break
            await asyncio.sleep(0.01)
            departed = await bot.svc.store.db.fetchall("SELECT guild_id FROM departed_guilds")
        assert [r[0] for r in departed] == [999]
        clock = FakeClock()
        records.clock = clock
        clock.advance(8 * 24 * 3600)
        assert await records.sweep_departed() == [999]
        assert (await records.stats(1001, guild_id=fake.guild_id)).server
