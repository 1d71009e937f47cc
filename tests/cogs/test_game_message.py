"""The game message through the real bot and the fake Discord: the move log (nothing a burst
of computer moves merged is lost), "since your last turn" in the private hand, end buttons
named by their numbers, alt text on every picture, and turn pings (posted, deleted once the
player moved, again at half time, none for who turned them off)."""

from __future__ import annotations

import re
from pathlib import Path

from domino import Draw, Pass, Play, Resign, decode_action
from tests.cogs.helpers import (
    FakeClock,
    button,
    factory,
    game_message,
    human_to_move,
    is_game_message,
    match_states,
    new_table,
    open_hand,
    play_turn,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage, running_bot

TIMER = 30
PING = "it is your turn!"


def _expected(names: list[str], seat: int, action: object, opening: bool) -> str:
    """The words the log uses for one action of a burst (what the player must be able to read)."""
    if isinstance(action, Play) and opening:
        return f"{names[seat]} opened with {action.tile}."
    if isinstance(action, Play):
        return f"{names[seat]} played {action.tile} on the "
    if isinstance(action, Pass):
        return f"{names[seat]} passed."
    if isinstance(action, Draw):
        return f"{names[seat]} drew"
    assert isinstance(action, Resign)
    return f"{names[seat]} resigned."


def _in_order(text: str, parts: list[str]) -> bool:
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _all_versions(fake: FakeDiscord) -> list[StoredMessage]:
    every = [*fake.public_messages(), *fake.ephemeral_messages(), *fake.deleted_messages]
    return [v for m in every for v in (*m.history, m)]


async def test_the_move_log_keeps_every_event_of_a_burst(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Alice against three computers that move at once: each burst of their moves is merged
    into few edits of the game message, and still every one of them is in its log, in order;
    Alice's hand message starts with what happened since her last turn."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="partners")
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        hands: dict[int, InteractionResult] = {}
        bursts = 0
        for _ in range(12):
            who = await fake.wait_for(lambda: human_to_move(bot, tid), timeout=20)
            if who == "over":
                break
            await settle(bot)
            rows = await bot.svc.store.actions.list(tid)
            states, names = await match_states(bot, tid)
            mine = [r.seq for r in rows if r.seat == 0]
            since = rows[mine[-1] + 1 :] if mine else rows
            hand = states[-1].hand_number
            burst = [r for r in since if states[r.seq].hand_number == hand]
            if since and len(burst) == len(since) and len(burst) <= 8:
                expected = [
                    _expected(names, r.seat, decode_action(r.action), not states[r.seq].line)
                    for r in burst
                ]
                game = await game_message(fake, bot, tid)
                assert _in_order(game.text(), expected), (expected, game.text())
                if alice.id in hands and hands[alice.id].message is not None:
                    private = hands[alice.id].message
                    assert private is not None
                    assert private.text().startswith("Since your last turn:"), private.text()
                    assert _in_order(private.text(), expected), (expected, private.text())
                bursts += len(burst) >= 3
            await play_turn(fake, bot, tid, alice, hands)
        assert bursts >= 2, "no burst of three computer moves came up"

        # No internal move numbers on any game message; the log's lines are the latest 4 at most
        # (3 earlier ones, and what just happened in bold).
        games = [m for m in fake.public_messages() if is_game_message(m)]
        assert games
        for version in (v for m in games for v in (*m.history, m)):
            assert not re.search(r"\bmove \d+", version.text()), version.text()
            assert version.text().count("\n· ") <= 3, version.text()

        # Every picture sent, public or private, has alt text.
        attachments = [a for v in _all_versions(fake) for a in v.attachments]
        assert any(a.filename == "table.png" for a in attachments)
        assert any(a.filename == "hand.png" for a in attachments)
        for attachment in attachments:
            assert attachment.description, attachment.filename
        table_alt = next(a for a in attachments if a.filename == "table.png").description
        assert table_alt is not None and "Scores:" in table_alt
        hand_alt = next(a for a in attachments if a.filename == "hand.png").description
        assert hand_alt is not None and hand_alt.startswith("Your tiles:")


async def _two_players(
    fake: FakeDiscord, bot: object, alice: object, bob: object
) -> tuple[int, StoredMessage]:
    result, tid = await new_table(fake, bot, alice, variant="draw", turn_timer=TIMER)  # type: ignore[arg-type]
    lobby = result.message
    assert lobby is not None
    await fake.click(bob, lobby, button(lobby, "join"))
    await fake.wait_for(lambda: "<@1002>" in lobby.text())
    await fake.click(alice, lobby, button(lobby, "start"))
    game = await game_message(fake, bot, tid)  # type: ignore[arg-type]
    await settle(bot)  # type: ignore[arg-type]
    return tid, game


def _pings(fake: FakeDiscord, place: int) -> list[StoredMessage]:
    return [m for m in fake.messages(place) if PING in m.content]


async def test_turn_ping_posted_deleted_and_repeated_at_half_time(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await _two_players(fake, bot, alice, bob)
        place = game.channel_id
        first = human_to_move(bot, tid)
        assert isinstance(first, int)
        # The turn begins: one short ping in the table's thread.
        (ping,) = _pings(fake, place)
        assert ping.content.startswith(f"<@{first}>, {PING}")

        # Half time: the same ping again (a new mention), and still only one on show.
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        await settle(bot)
        (again,) = _pings(fake, place)
        assert again.id != ping.id and fake.message(ping.id).deleted
        assert again.content == ping.content

        # He moves: his ping goes; the other player's turn begins with his own ping.
        hands: dict[int, InteractionResult] = {}
        users = {alice.id: alice, bob.id: bob}
        await play_turn(fake, bot, tid, users[first], hands)
        await settle(bot)
        assert fake.message(again.id).deleted
        now = human_to_move(bot, tid)
        assert isinstance(now, int)
        (next_ping,) = _pings(fake, place)
        assert next_ping.content.startswith(f"<@{now}>, {PING}")


async def test_pings_only_when_someone_is_really_waiting(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Our decision: a person who was pinged less than a minute ago is at the table: his next
    turn's start pings nobody (the half-time ping still comes); a practice table pings never."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await _two_players(fake, bot, alice, bob)
        place = game.channel_id
        users = {alice.id: alice, bob.id: bob}
        hands: dict[int, InteractionResult] = {}
        first = human_to_move(bot, tid)
        assert isinstance(first, int) and len(_pings(fake, place)) == 1
        # Both move within seconds: the first player's turn comes back, nobody is pinged.
        for _ in range(2):
            who = human_to_move(bot, tid)
            assert isinstance(who, int)
            clock.advance(5)
            await play_turn(fake, bot, tid, users[who], hands)
            await settle(bot)
        posted = [m for m in fake.requests if m.method == "POST" and PING in str(m.json)]
        assert human_to_move(bot, tid) == first and not _pings(fake, place)
        assert len(posted) == 2  # the first player's, the second player's
        # Half time: he is late now, so he is pinged.
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        await settle(bot)
        (late,) = _pings(fake, place)
        assert late.content.startswith(f"<@{first}>, {PING}")

        # Practice: the player is there; never a ping, even at half time.
        carol = fake.add_user(1003, "carol", "Carol")
        alone = await fake.slash(carol, fake.channel_id, "domino practice", {"variant": "draw"})
        assert alone.message is not None
        await settle(bot)
        practice = next(t for t in bot.svc.open_tables() if t.host_id == carol.id)
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        await settle(bot)
        where = practice.table.thread_id or fake.channel_id
        if human_to_move(bot, practice.id) == carol.id:
            assert not [m for m in fake.messages(where) if f"<@{carol.id}>, {PING}" in m.content]
        said = f"<@{carol.id}>, {PING}"
        assert not [r for r in fake.requests if r.method == "POST" and said in str(r.json)]


async def test_no_pings_for_a_player_who_turned_them_off(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        for user in (alice, bob):
            off = await fake.slash(user, fake.channel_id, "domino settings", {"turn_pings": "off"})
            assert off.ephemeral and "Turn pings: **off**" in off.content, off.content
            assert off.content.startswith("Saved.")
        shown = await fake.slash(alice, fake.channel_id, "domino settings", {})
        assert shown.ephemeral and "Turn pings: **off**" in shown.content
        assert not (await bot.svc.player_settings(alice.id)).turn_pings

        tid, game = await _two_players(fake, bot, alice, bob)
        place = game.channel_id
        clock.advance(TIMER / 2)
        await bot.svc.tick()
        await settle(bot)
        hands: dict[int, InteractionResult] = {}
        users = {alice.id: alice, bob.id: bob}
        for _ in range(3):
            who = human_to_move(bot, tid)
            assert isinstance(who, int)
            await play_turn(fake, bot, tid, users[who], hands)
            await settle(bot)
        assert not [m for m in fake.messages(place) if PING in m.content]
        assert not [m for m in fake.deleted_messages if PING in m.content]

        # Bob turns them on again: his next turn pings him.
        on = await fake.slash(bob, fake.channel_id, "domino settings", {"turn_pings": "on"})
        assert "Turn pings: **on**" in on.content
        if human_to_move(bot, tid) != bob.id:
            await play_turn(fake, bot, tid, alice, hands)
        await settle(bot)
        (ping,) = _pings(fake, place)
        assert ping.content.startswith(f"<@{bob.id}>, {PING}")


async def test_a_timed_out_turn_is_in_the_log(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The turn timer's move is told as such in the log (read from the stored action log, so
    a restart would tell it too)."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await _two_players(fake, bot, alice, bob)
        clock.advance(TIMER)
        await bot.svc.tick()
        await settle(bot)
        rows = await bot.svc.store.actions.list(tid)
        assert [r.made_by for r in rows] == ["timeout"]
        text = fake.message(game.id).text()
        assert "(time ran out: the bot played)" in text
        hand = await open_hand(fake, bot, bob if rows[0].seat == 0 else alice, tid)
        assert hand.message is not None
        assert hand.message.text().startswith("Since your last turn:")
