"""Limits on open tables and the cooldown on opening them, end to end through the fake Discord.

Our decision: one person sits at 3 tables waiting for players at most and plays 5 matches at
once at most; a server has 50 open tables at most; one person opens one table or challenge
every 10 seconds at most; a host has one open challenge per invitee. Each refusal is one
ephemeral sentence that names the limit (``bot.settings`` reads other values).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cogs.helpers import (
    FakeClock,
    TestBot,
    answer,
    button,
    new_table,
    settings_for,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, running_bot


def limited(fake: FakeDiscord, db: Path, clock: FakeClock | None = None, **limits: Any) -> Any:
    return lambda: TestBot(settings_for(fake, db, **limits), clock=clock)


async def refusal(fake: FakeDiscord, user: Any, command: str, options: dict[str, Any]) -> str:
    result = await fake.slash(user, fake.channel_id, command, options)
    assert result.ephemeral, result.text()
    return await answer(result)


async def test_three_waiting_tables_per_person(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, limited(fake, tmp_path / "db.sqlite3")) as bot:
        for _ in range(2):
            await new_table(fake, bot, alice, variant="draw")
        result, _tid = await new_table(fake, bot, bob, variant="draw")
        assert result.message is not None
        await fake.click(alice, result.message, button(result.message, "join"))
        await fake.wait_for(lambda: "<@1001>" in result.message.text())
        expected = "You are already at 3 tables waiting for players: start or leave one first."
        assert await refusal(fake, alice, "domino new", {"variant": "draw"}) == expected
        other, _ = await new_table(fake, bot, bob, variant="draw")
        assert other.message is not None
        join = await fake.click(alice, other.message, button(other.message, "join"))
        assert await answer(join) == expected
        assert len(bot.svc.tables_of(alice.id)) == 3


async def test_running_matches_per_person(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(
        fake, limited(fake, tmp_path / "db.sqlite3", matches_per_user=1)
    ) as bot:
        lobby, _ = await new_table(fake, bot, bob, variant="draw")
        assert lobby.message is not None
        await start_with_computers(fake, bot, bob, lobby.message)
        # Bob plays one match: he may not sit at another table, nor start one with him.
        other, tid = await new_table(fake, bot, alice, variant="draw")
        assert other.message is not None
        join = await fake.click(bob, other.message, button(other.message, "join"))
        assert await answer(join) == "You are already playing 1 matches: finish one first."
        assert await refusal(fake, bob, "domino new", {"variant": "draw"}) == (
            "You are already playing 1 matches: finish one first."
        )
        assert (await bot.svc.get(tid)).seats_of(bob.id) == ()


async def test_open_tables_per_server(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    users = [fake.add_user(1001 + i, f"u{i}", f"U{i}") for i in range(3)]
    async with running_bot(
        fake, limited(fake, tmp_path / "db.sqlite3", tables_per_server=2)
    ) as bot:
        await new_table(fake, bot, users[0], variant="draw")
        await new_table(fake, bot, users[1], variant="draw")
        assert await refusal(fake, users[2], "domino new", {"variant": "draw"}) == (
            "This server already has 2 open tables: wait until one finishes."
        )
        assert len(bot.svc.open_tables()) == 2


async def test_a_cooldown_on_new_tables_and_challenges(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(
        fake, limited(fake, tmp_path / "db.sqlite3", clock, cooldown=10.0)
    ) as bot:
        _result, tid = await new_table(fake, bot, alice, variant="draw")
        await fake.slash(alice, fake.channel_id, "domino cancel", {})
        await fake.wait_for(lambda: bot.svc.open_tables() == [])
        clock.advance(4)
        challenge = {"variant": "draw", "player": bob}
        assert await refusal(fake, alice, "domino challenge", challenge) == (
            "Please wait 6 s before you open another table."
        )
        assert await refusal(fake, alice, "domino new", {"variant": "draw"}) == (
            "Please wait 6 s before you open another table."
        )
        await new_table(fake, bot, bob, variant="draw")  # others may
        clock.advance(6)
        done = await fake.slash(alice, fake.channel_id, "domino challenge", challenge)
        assert not done.ephemeral
        assert tid not in {t.id for t in bot.svc.open_tables()}


async def test_one_open_challenge_per_host_and_invitee(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    cid = fake.add_user(1003, "cid", "Cid")
    async with running_bot(fake, limited(fake, tmp_path / "db.sqlite3")) as bot:
        first = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": bob}
        )
        assert not first.ephemeral
        again = {"variant": "partners", "player": cid, "player2": bob}
        assert await refusal(fake, alice, "domino challenge", again) == (
            "You have already challenged someone you name here: wait for the answer, or cancel"
            " that challenge first."
        )
        other = await fake.slash(
            alice, fake.channel_id, "domino challenge", {"variant": "draw", "player": cid}
        )
        assert not other.ephemeral
        assert len(bot.svc.open_tables()) == 2


async def test_a_deleted_message_finds_its_table_by_id(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, limited(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        assert result.message is not None
        assert bot.svc.core.by_message == {result.message.id: tid}
        game = await start_with_computers(fake, bot, alice, result.message)
        await fake.wait_for(lambda: game.id in bot.svc.core.by_message)
        assert (await bot.svc.table_by_message(game.id)).id == tid  # type: ignore[union-attr]
        await bot.svc.resign(tid, alice.id)
        await fake.wait_for(lambda: bot.svc.open_tables() == [])
        assert bot.svc.core.by_message == {}
