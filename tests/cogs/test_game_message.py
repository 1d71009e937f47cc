"""The game message through the real bot and the fake Discord: the move log (nothing a burst
of computer moves merged is lost), "since your last turn" in the private hand, end buttons
named by their numbers, alt text on every picture, and turn pings (posted, deleted once the
player moved, again at half time, none for who turned them off)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

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
    play_until_over,
    settle,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage, running_bot
from tests.fakediscord.models import DEFAULT_MEMBER_PERMISSIONS

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
            who = await fake.wait_for(lambda: human_to_move(bot, tid))
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
    fake: FakeDiscord, bot: object, alice: object, bob: object, *, turn_timer: int = TIMER
) -> tuple[int, StoredMessage]:
    result, tid = await new_table(fake, bot, alice, variant="draw", turn_timer=turn_timer)  # type: ignore[arg-type]
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


def _ping_posts(fake: FakeDiscord, user: int | None = None) -> list[object]:
    """Every ping Discord was asked to post (of ``user``, or anyone's)."""
    said = PING if user is None else f"<@{user}>, {PING}"
    return [r for r in fake.requests if r.method == "POST" and said in str(r.json)]


async def _idle(bot: object, clock: FakeClock, seconds: float) -> None:
    """Let ``seconds`` pass on the bot's clock and run what fell due."""
    clock.advance(seconds)
    await bot.svc.tick()  # type: ignore[attr-defined]
    await settle(bot)  # type: ignore[arg-type]


async def test_an_idle_player_is_pinged_once_after_the_idle_time(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Nobody is pinged as his turn begins; after 25 s idle on his turn (the bot's default)
    he is pinged once (no second ping at half time); the ping goes once he moved, and the next
    player, who moves at once, is never pinged."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        tid, game = await _two_players(fake, bot, alice, bob, turn_timer=2 * TIMER)
        place = game.channel_id
        first = human_to_move(bot, tid)
        assert isinstance(first, int)
        assert not _ping_posts(fake)
        await _idle(bot, clock, 24)
        assert not _ping_posts(fake)
        await _idle(bot, clock, 1)
        (ping,) = _pings(fake, place)
        assert ping.content.startswith(f"<@{first}>, {PING}")
        await _idle(bot, clock, 10)  # half time passes: no second ping
        assert len(_ping_posts(fake)) == 1 and _pings(fake, place) == [ping]

        hands: dict[int, InteractionResult] = {}
        users = {alice.id: alice, bob.id: bob}
        await play_turn(fake, bot, tid, users[first], hands)
        await settle(bot)
        assert fake.message(ping.id).deleted
        second = human_to_move(bot, tid)
        assert isinstance(second, int) and second != first
        await _idle(bot, clock, 5)
        await play_turn(fake, bot, tid, users[second], hands)
        await settle(bot)
        assert len(_ping_posts(fake)) == 1 and not _pings(fake, place)


async def test_a_partners_match_played_promptly_pings_nobody(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Four people who each move within a few seconds get no ping at all, not even the host
    who pressed Start and opens."""
    fake = fake_discord
    people = [fake.add_user(1001 + i, f"p{i}", f"P{i}") for i in range(4)]
    users = {u.id: u for u in people}
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        result, tid = await new_table(fake, bot, people[0], variant="partners")
        lobby = result.message
        assert lobby is not None
        for user in people[1:]:
            await fake.click(user, lobby, button(lobby, "join"))
            await fake.wait_for(lambda u=user: f"<@{u.id}>" in lobby.text())
        await fake.click(people[0], lobby, button(lobby, "start"))
        await game_message(fake, bot, tid)
        hands: dict[int, InteractionResult] = {}
        for _ in range(12):
            who = human_to_move(bot, tid)
            if not isinstance(who, int):
                break
            await _idle(bot, clock, 6)
            await play_turn(fake, bot, tid, users[who], hands)
            await settle(bot)
        assert not _ping_posts(fake)


async def test_the_servers_idle_ping_setting(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A server's idle ping time applies to its matches; 0 turns pings off there; and a person
    who opened his tiles during his turn is at the table: he is not pinged."""
    fake = fake_discord
    manager = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
    alice = fake.add_user(1001, "alice", "Alice", permissions=manager)
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", clock=clock)) as bot:
        bad = await fake.slash(alice, fake.channel_id, "domino server-settings", {"idle_ping": 5})
        assert "10 to 120 seconds" in bad.text(), bad.text()
        set_ = await fake.slash(alice, fake.channel_id, "domino server-settings", {"idle_ping": 12})
        assert "after 12 seconds idle on a turn" in set_.text(), set_.text()
        tid, _ = await _two_players(fake, bot, alice, bob, turn_timer=2 * TIMER)
        first = human_to_move(bot, tid)
        assert isinstance(first, int)
        await _idle(bot, clock, 11)
        assert not _ping_posts(fake)
        await _idle(bot, clock, 1)
        assert len(_ping_posts(fake, first)) == 1
        users = {alice.id: alice, bob.id: bob}
        hands: dict[int, InteractionResult] = {}
        await play_turn(fake, bot, tid, users[first], hands)
        await settle(bot)
        second = human_to_move(bot, tid)
        assert isinstance(second, int)
        await _idle(bot, clock, 2)
        hands[second] = await open_hand(fake, bot, users[second], tid)  # he looks at his tiles
        await _idle(bot, clock, 20)
        assert not _ping_posts(fake, second)
        await bot.svc.cancel(tid, alice.id, force=True)
        await settle(bot)

        off = await fake.slash(alice, fake.channel_id, "domino server-settings", {"idle_ping": 0})
        assert "Idle ping" in off.text() and "after 12 seconds" not in off.text()
        before = len(_ping_posts(fake))
        await _two_players(fake, bot, alice, bob, turn_timer=2 * TIMER)
        await _idle(bot, clock, TIMER - 1)
        assert len(_ping_posts(fake)) == before


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

        # Bob turns them on again: idle on his next turn, he is pinged.
        on = await fake.slash(bob, fake.channel_id, "domino settings", {"turn_pings": "on"})
        assert "Turn pings: **on**" in on.content
        if human_to_move(bot, tid) != bob.id:
            await play_turn(fake, bot, tid, alice, hands)
        await _idle(bot, clock, TIMER / 2)
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


async def test_a_new_hands_message_shows_the_new_hand(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Hand 2's game message shows hand 2 from its first version (an empty table and who
    opens); hand 1's final position stays on hand 1's message alone."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        assert result.message is not None
        first = await start_with_computers(fake, bot, alice, result.message)

        def second_posted() -> bool:
            info = next((t for t in bot.svc.open_tables() if t.id == tid), None)
            return info is None or info.table.message_id not in (None, first.id)

        await play_until_over(fake, bot, tid, [alice], stop=lambda _: second_posted())
        await settle(bot)
        second = await game_message(fake, bot, tid)
        assert second.id != first.id
        opening = (*second.history, second)[0]
        (picture,) = [a for a in opening.attachments if a.filename == "table.png"]
        alt = picture.description or ""
        # (on a busy machine the first moves of hand 2 may come before its message is posted:
        # the message shows hand 2 as it is then, never hand 1's end)
        assert alt.startswith("Table picture. Hand 2."), alt
        assert "Pips left" not in alt, alt
        final = fake.message(first.id)
        (ended,) = [a for a in final.attachments if a.filename == "table.png"]
        assert (ended.description or "").startswith("Table picture. Hand 1."), ended.description


async def test_the_idle_ping_survives_a_restart_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The idle ping is a stored deadline: a bot stopped before it fell due pings after its
    restart, and a bot restarted after the ping does not ping again."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    clock = FakeClock()
    make = factory(fake, tmp_path / "db.sqlite3", clock=clock)
    async with running_bot(fake, make) as bot:
        tid, _ = await _two_players(fake, bot, alice, bob, turn_timer=2 * TIMER)
        first = human_to_move(bot, tid)
        assert isinstance(first, int)
        await _idle(bot, clock, 10)
        assert not _ping_posts(fake)
    async with running_bot(fake, make) as bot:
        await settle(bot)
        await _idle(bot, clock, 20)
        assert len(_ping_posts(fake, first)) == 1
    async with running_bot(fake, make) as bot:
        await settle(bot)
        await _idle(bot, clock, 5)
        assert len(_ping_posts(fake)) == 1
        assert human_to_move(bot, tid) == first


async def test_the_first_message_does_not_notify_who_pressed_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The match's first message mentions both players, but Discord is told to notify only the
    one who did not just press Start."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        await _two_players(fake, bot, alice, bob)
        (post,) = [
            r for r in fake.requests
            if r.method == "POST" and "the match begins!" in str(r.json)
        ]
        text = str(post.json)
        assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text
        allowed = post.json["allowed_mentions"]
        assert "users" not in allowed.get("parse", []), allowed
        assert [int(u) for u in allowed["users"]] == [bob.id], allowed
