"""A post that Discord stored but whose answer never reached the bot.

The connection broke, or Discord answered 503 after it had stored the message: the feed has
not moved its mark, so it posts again with the same nonce, and Discord (``enforce_nonce``)
answers with the message it already has. Nothing is doubled and nothing waits long: discord.py
does not retry a 503 itself (it retries 500, 502 and 504 after 1, 3, 5, 7 and 9 s, 25 s a
call, which is what made such a test take minutes), and the feed tries again after half a
second. The same with a real SIGKILL of the bot's process: ``tests/scale/test_kill.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.cogs.helpers import factory, human_to_move, play_until_over, settle
from tests.cogs.test_table_layer import results_posted, two_humans
from tests.fakediscord import FakeDiscord, RequestRecord, running_bot


def post_with(nonce: Callable[[str], bool]) -> Callable[[RequestRecord], bool]:
    def match(r: RequestRecord) -> bool:
        body = r.json if isinstance(r.json, dict) else {}
        return r.method == "POST" and nonce(str(body.get("nonce") or ""))

    return match


def times_posted(fake: FakeDiscord, nonce: str) -> list[int]:
    """The indexes in ``fake.requests`` of the posts carrying ``nonce``."""
    return [
        i
        for i, r in enumerate(fake.requests)
        if r.method == "POST" and isinstance(r.json, dict) and r.json.get("nonce") == nonce
    ]


async def test_a_post_whose_answer_was_lost_is_not_doubled(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot, target=50)
        place = game.channel_id
        # Discord stores hand 2's table message, and the answer is lost (hand 1's result is
        # said on its own game message: no post).
        lost = [
            fake.tripwire(post_with(lambda n: n == f"g.{tid}.2"), lambda: None, before=False),
        ]

        def hand_two_on_show(turns: int) -> bool:
            info = bot.svc.open_tables()[0]
            view = info.public_view()
            return view is not None and view.hand_number == 2 and info.table.message_id != game.id

        await play_until_over(fake, bot, tid, [alice, bob], stop=hand_two_on_show)
        await settle(bot)
        assert all(wire.fired.is_set() for wire in lost)
        assert results_posted(fake, place) == [1]
        assert times_posted(fake, f"h.{tid}.1") == []
        second = f"g.{tid}.2"  # hand 2's table message: one, posted twice
        assert [k for (_, k) in fake.nonces if k.startswith(second)] == [second]
        assert len(times_posted(fake, second)) == 2
        # The table goes on with working buttons on the one message of hand 2.
        info = bot.svc.open_tables()[0]
        assert info.table.message_id == fake.nonces[(place, second)]
        assert human_to_move(bot, tid) in (alice.id, bob.id)
        await play_until_over(fake, bot, tid, [alice, bob], stop=lambda turns: turns == 2)
        assert results_posted(fake, place)[:1] == [1]


async def test_a_thread_whose_answer_was_lost_is_the_tables(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord made the table's thread (from the lobby message) but the answer was lost: the
    next try is told the message has a thread already, and the table plays in that thread, not
    in the channel beside an empty one."""
    fake = fake_discord
    fake.add_user(1001, "alice", "Alice")
    fake.add_user(1002, "bob", "Bob")

    def thread_post(r: RequestRecord) -> bool:
        return r.method == "POST" and r.path.endswith("/threads")

    lost = fake.tripwire(thread_post, lambda: None, before=False)
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid, game = await two_humans(fake, bot, target=50)
        await settle(bot)
        assert lost.fired.is_set()
        (thread,) = fake.threads(fake.channel_id)
        info = await bot.svc.get(tid)
        assert thread.id == info.table.lobby_message_id == info.table.thread_id
        assert game.channel_id == thread.id
        assert not [m for m in fake.messages(fake.channel_id) if m.id != thread.id]
