"""Lobbies: join, leave, computers, start (full or with empty seats), cancel, seven-seven."""

from __future__ import annotations

from pathlib import Path

import discord

from tests.cogs.helpers import (
    answer,
    button,
    factory,
    game_message,
    new_table,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import DEFAULT_MEMBER_PERMISSIONS, FakeDiscord, running_bot


async def test_join_leave_computers_and_start_with_empty_seats(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    carol = fake.add_user(1003, "carol", "Carol")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="partners", target=100)
        lobby = result.message
        # A compact lobby: one container, one row of four buttons, one "Add computer" menu
        # whose levels each say what they do.
        assert lobby is not None and lobby.v2 and lobby.title().startswith("Partners (Latin) · ")
        assert "Seat 1 · team 1: <@1001>" in lobby.text()
        assert set(lobby.custom_ids()) == {
            f"domino:{k}:{tid}" for k in ("join", "leave", "start", "cancel", "addai")
        }
        rows = [c for c in lobby.all_components() if c["type"] == 1]
        assert [len(r["components"]) for r in rows] == [4, 1]
        menu = lobby.component(f"domino:addai:{tid}")
        assert menu is not None and menu["type"] == 3
        options = {o["value"]: o for o in menu["options"]}
        assert list(options) == ["easy", "normal", "hard", "expert"]
        assert options["easy"]["description"] == "plays any tile that fits, at random"
        assert options["expert"]["description"].startswith("reads its partner's signals")

        join = await fake.click(bob, lobby, button(lobby, "join"))
        assert join.type == 6
        await fake.wait_for(lambda: "Seat 2 · team 2: <@1002>" in lobby.text())
        again = await fake.click(bob, lobby, button(lobby, "join"))
        assert await answer(again) == "You already have a seat at this table."

        leave = await fake.click(bob, lobby, button(lobby, "leave"))
        assert leave.type == 6
        await fake.wait_for(lambda: "<@1002>" not in lobby.text())
        stranger_leave = await fake.click(carol, lobby, button(lobby, "leave"))
        assert await answer(stranger_leave) == "You are not seated at this table."

        not_host = await fake.select(carol, lobby, f"domino:addai:{tid}", ["hard"])
        assert await answer(not_host) == "Only the host of the table can do that."
        await fake.select(alice, lobby, f"domino:addai:{tid}", ["hard"])
        await fake.wait_for(lambda: "Computer 2 · hard" in lobby.text())
        await fake.click(carol, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "Seat 3 · team 1: <@1003>" in lobby.text())

        not_host_start = await fake.click(carol, lobby, button(lobby, "start"))
        assert await answer(not_host_start) == "Only the host of the table can do that."
        start = await fake.click(alice, lobby, button(lobby, "start"))
        (confirm,) = await start.wait_for_followups(1)
        assert confirm.ephemeral and confirm.ephemeral_user_id == alice.id
        assert confirm.content.startswith("One seat is empty. Fill it with a computer player")
        assert (await bot.svc.get(tid)).status == "lobby"  # nothing started yet
        fill = await fake.click(alice, confirm, button(confirm, "fill"))
        await fill.wait_for_edits(1)
        assert confirm.content == "The match has started." and confirm.custom_ids() == []

        game = await game_message(fake, bot, tid)
        info = await bot.svc.get(tid)
        assert info.status == "running"
        assert [s.kind if s else None for s in info.seats] == [
            "human", "computer", "human", "computer"
        ]
        await settle(bot)
        assert lobby.custom_ids() == []  # the lobby closed
        assert f"<#{game.channel_id}>" in lobby.text()


async def test_start_when_full_and_cancel_permissions(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    manage = discord.Permissions(DEFAULT_MEMBER_PERMISSIONS)
    manage.manage_guild = True
    mod = fake.add_user(1009, "mod", "Mod", permissions=manage)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        # The host cancels with the lobby's Cancel button; a stranger may not.
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        refused = await fake.click(bob, lobby, button(lobby, "cancel"))
        assert await answer(refused) == "Only the host of the table can do that."
        await fake.click(alice, lobby, button(lobby, "cancel"))
        await fake.wait_for(lambda: "This table was cancelled." in lobby.text())
        assert lobby.custom_ids() == []
        late = await fake.slash(bob, fake.channel_id, "domino cancel")
        assert late.ephemeral and late.content == "There is no table to cancel here."

        # Full table: Start needs no confirmation; a member with Manage Server may cancel.
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        start = await fake.click(alice, lobby, button(lobby, "start"))
        assert start.type == 6
        game = await game_message(fake, bot, tid)
        thread = game.channel_id
        busy = await fake.slash(bob, thread, "domino new", {"variant": "two"})
        assert busy.ephemeral and busy.content == "A match is already running here."
        refused_cmd = await fake.slash(bob, thread, "domino cancel")
        assert refused_cmd.content == "Only the host of the table can do that."
        done = await fake.slash(mod, thread, "domino cancel")
        assert done.ephemeral and done.content == f"Table {tid} was cancelled."
        await settle(bot)
        assert (await bot.svc.get(tid)).status == "cancelled"
        assert fake.message(game.id).custom_ids() == []
        assert "was cancelled" in fake.message(game.id).text()


async def test_seven_seven_one_person_takes_a_team(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="seven-seven", target=50)
        lobby = result.message
        assert lobby is not None
        assert "Team 1 (seats 1 and 3): <@1001>" in lobby.text()
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "Team 2 (seats 2 and 4): <@1002>" in lobby.text())
        info = await bot.svc.get(tid)
        assert [s.user_id if s else None for s in info.seats] == [1001, 1002, 1001, 1002]
        assert info.is_full
        await fake.click(alice, lobby, button(lobby, "start"))
        await game_message(fake, bot, tid)
        # Each person acts for whichever of his two seats is to play.
        turns = await play_until_over(fake, bot, tid, [alice, bob])
        info = await bot.svc.get(tid)
        assert info.status == "finished" and turns == info.seq


async def test_the_lobby_says_how_the_match_ended(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Once the match is over, the lobby card no longer says it is on: it says how it ended,
    with a link to the thread it was played in."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        lobby = result.message
        assert lobby is not None
        await start_with_computers(fake, bot, alice, lobby)
        await settle(bot)
        info = await bot.svc.get(tid)
        thread = info.table.thread_id
        assert thread and f"The match is on in <#{thread}>." in lobby.text(), lobby.text()
        await bot.svc.resign(tid, alice.id)
        await settle(bot)
        text = lobby.text()
        assert "The match is on" not in text, text
        assert "The match is over. Alice resigned." in text and "won the match!" in text, text
        assert f"It was played in <#{thread}>." in text, text
