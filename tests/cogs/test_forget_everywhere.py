"""``/domino forget-me`` with two bot services on one database (SQLite and PostgreSQL), each
running the tables of one shard: the person's tables end wherever they run, and nothing of
him is recorded again when they finish."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.settings import sqlite_url
from bot.store import SQLITE, Store
from bot.store.table_extras import RematchRepo
from tests.bot.test_records_privacy import occurrences
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    game_message,
    settings_for,
    settle,
    table_id_of,
)
from tests.cogs.test_match_end import match_end, resign
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

ALICE = 187654321098765432  # a real-looking id: no other figure of the database contains it
NEEDLES = ["alice_account", "Alicia Global"]


@pytest.fixture(params=[SQLITE, "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").create())


def shard_bot(fake: FakeDiscord, url: str, shard: int) -> TestBot:
    """The bot of one of two shards, its commands synced globally (every server has them)."""
    settings = dataclasses.replace(
        settings_for(fake, Path("unused")),
        database_url=url,
        database_path=None,
        dev_guild_id=None,
        shard_count=2,
        shard_ids=(shard,),
    )
    return TestBot(settings)


async def lobby_in(
    fake: FakeDiscord, bot: TestBot, host: FakeUser, channel: int
) -> tuple[StoredMessage, int]:
    opened = await fake.slash(host, channel, "domino new", {"variant": "draw"})
    assert opened.message is not None, opened.text()
    tid = table_id_of(opened.message)
    await fake.wait_for(
        lambda: any(t.id == tid and t.table.lobby_message_id for t in bot.svc.open_tables())
    )
    return opened.message, tid


async def join(fake: FakeDiscord, user: FakeUser, lobby: StoredMessage) -> None:
    await fake.click(user, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: f"<@{user.id}>" in lobby.text())


async def running_in(
    fake: FakeDiscord, bot: TestBot, host: FakeUser, guest: FakeUser, channel: int
) -> tuple[int, int]:
    """A running match of ``host`` and ``guest``: its table and the thread it is played in."""
    lobby, tid = await lobby_in(fake, bot, host, channel)
    await join(fake, guest, lobby)
    await fake.click(host, lobby, button(lobby, "start"))
    return tid, (await game_message(fake, bot, tid)).channel_id


async def test_forget_me_reaches_the_tables_of_another_process(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    fake = fake_discord
    servers = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    here, there = (fake.add_channel("play", guild_id=g.id).id for g in servers)
    alice = fake.add_user(ALICE, "alice_account", "Alicia Global", join_guild=False)
    bob = fake.add_user(1002, "bob", "Bob", join_guild=False)
    carol = fake.add_user(1003, "carol", "Carol", join_guild=False)
    for guild in servers:
        for user in (alice, bob, carol):
            fake._add_member(guild, user, DEFAULT_MEMBER_PERMISSIONS)
    async with (
        running_bot(fake, lambda: shard_bot(fake, database_url, 0)) as a,
        running_bot(fake, lambda: shard_bot(fake, database_url, 1)) as b,
    ):
        # On the other process's server: a finished match whose rematch Alice accepted, a
        # match she plays, a lobby of Carol's she sits at.
        finished, old_thread = await running_in(fake, b, alice, bob, there)
        await resign(fake, b, bob, old_thread)
        end = await fake.wait_for(lambda: match_end(fake, old_thread), what="the match end")
        await settle(b)
        voted = await fake.click(alice, end, button(end, "rematch"))
        await voted.wait_for_edits(1)
        playing, thread = await running_in(fake, b, alice, bob, there)
        lobby, waiting = await lobby_in(fake, b, carol, there)
        await join(fake, alice, lobby)
        # On this process's server: a match against Carol.
        local, _ = await running_in(fake, a, alice, carol, here)
        assert {t.id for t in a.svc.open_tables()} == {local}
        assert {t.id for t in b.svc.open_tables()} == {playing, waiting}
        store: Store = a.svc.store
        assert (await RematchRepo(store.db).get(finished)).accepted == {alice.id}  # type: ignore[union-attr]

        # She asks here: she is warned of both matches, wherever they run.
        asked = await fake.slash(alice, here, "domino forget-me", {})
        assert asked.message is not None
        assert "You are playing in 2 running matches: forgetting you resigns them." in (
            asked.message.text()
        )
        yes = next(c for c in asked.message.custom_ids() if ":yes:" in c)
        done = await fake.click(alice, asked.message, yes)
        await done.wait_for_edits(1)  # the other process within its poll
        assert asked.message.content == (
            "Done: your name and figures are deleted from the records."
        )
        await settle(a)
        await settle(b)

        # The other process resigned her match (Bob won it, against a former player) and
        # took her off Carol's lobby; this one resigned hers.
        assert (await b.svc.get(playing)).status == "finished"
        over = await fake.wait_for(lambda: match_end(fake, thread), what="the match end")
        assert "Bob won the match!" in over.text()
        assert (await b.svc.get(waiting)).status == "lobby"
        await fake.wait_for(lambda: f"<@{alice.id}>" not in lobby.text())
        assert (await a.svc.get(local)).status == "finished"
        history = await fake.slash(bob, there, "domino history", {})
        assert history.text().count("against a former player") == 2

        # Nothing of her is left, nor recorded again: records, ratings, stats, names, votes.
        assert await occurrences(store, NEEDLES, alice.id) == []
        assert (await RematchRepo(store.db).get(finished)).accepted == set()  # type: ignore[union-attr]
        refused = await fake.click(bob, end, button(end, "rematch"))
        assert await answer(refused) == "The rematch offer has closed."
        rows: Any = await store.db.fetchall("SELECT * FROM forget_requests")
        assert list(rows) == []
