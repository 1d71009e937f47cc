"""A correspondence table across a SIGKILL between two moves days apart, through real processes.

The first process (its clock at the real time) runs a table of three days per move: the person
is told of his turn, plays, and is told of his next turn. It is killed with SIGKILL. The next
process starts with its clock 2.3 days later (past the turn's reminder, before its time-out): the
stored deadlines are the same, the reminder comes once and names the same time-out, and the
person plays, days after his last move, and is told of his next turn once. Both backends.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.tables.service import TableService
from tests.cogs.helpers import button, parse
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, Table, play, until, watching

__all__ = ["fake_discord"]

DAY = 24 * 3600
PACE = 3 * DAY


def notices(fake: FakeDiscord, thread: int, user: int) -> list[StoredMessage]:
    """Every turn notice and reminder posted in the thread for ``user`` (deleted ones too)."""
    posted = {m.id: m for m in [*fake.messages(thread), *fake.deleted_messages]}
    return sorted(
        (
            m
            for m in posted.values()
            if m.channel_id == thread
            and m.content.startswith(f"<@{user}>, ")
            and "move at table" in m.content
        ),
        key=lambda m: m.id,
    )


async def open_table(fake: FakeDiscord, observer: TableService, table: Table) -> int:
    """Open a correspondence table of three days a move for the table's person, its empty
    seats filled by computers, once the process has its commands; its thread's id."""
    user = table.user
    await fake.wait_for(lambda: fake.commands(), timeout=GUARD, what="the commands")
    result = await fake.slash(
        user, table.channel_id, "domino new", {"variant": "draw", "pace": PACE}, timeout=GUARD
    )
    lobby = result.message
    assert lobby is not None, result.text()
    table.id = parse(button(lobby, "start"))[1]  # type: ignore[index]
    started = await fake.click(user, lobby, button(lobby, "start"), timeout=GUARD)
    (confirm,) = await started.wait_for_followups(1, timeout=GUARD)
    fill = await fake.click(user, confirm, button(confirm, "fill"), timeout=GUARD)
    await fill.wait_for_edits(1, timeout=GUARD)

    async def thread_id() -> int | None:
        return (await observer.get(table.id)).table.thread_id

    await until(thread_id, "the thread")
    thread = await thread_id()
    assert thread is not None
    return thread


async def test_a_correspondence_table_keeps_its_deadlines_across_a_kill_9(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    user = fake.add_user(2001, "player", "Player")
    table = Table(user, fake.channel_id)
    start = time.time()
    async with watching(fake, database_url, tmp_path, timeout=3 * GUARD) as watch:
        procs, observer, store = watch.procs, watch.observer, watch.store
        first = await procs.start("bot1", "0,1", extra={"CLOCK_START": repr(start)})
        thread = await open_table(fake, observer, table)
        await fake.wait_for(
            lambda: notices(fake, thread, user.id), timeout=GUARD, what="the first notice"
        )
        await play(fake, observer, table, after_ack=lambda i: True)
        await fake.wait_for(
            lambda: len(notices(fake, thread, user.id)) == 2, timeout=GUARD, what="a notice"
        )
        before = {d.kind: (d.due_at, d.seq) for d in await store.deadlines.list(table.id)}
        timeout_at, seq = before["timeout"]
        assert before["remind"][0] == timeout_at - PACE / 4
        assert timeout_at > start + PACE - 60
        first.kill()
        await first.proc.wait()

        later = start + 2.3 * DAY  # after the reminder's time, before the time-out
        await procs.start("bot2", "0,1", extra={"CLOCK_START": repr(later)})
        await fake.wait_for(
            lambda: len(notices(fake, thread, user.id)) == 3, timeout=GUARD, what="the reminder"
        )
        said = [m.content for m in notices(fake, thread, user.id)]
        assert said[2] == (
            f"<@{user.id}>, a reminder: it is still your move at table {table.id}, and your "
            f"time runs out <t:{int(timeout_at)}:R>."
        )
        after = {d.kind: d for d in await store.deadlines.list(table.id)}
        assert (after["timeout"].due_at, after["timeout"].seq) == (timeout_at, seq)

        # He plays days after his last move; his next turn is told once.
        await play(fake, observer, table, after_ack=lambda i: True)
        moves = await store.actions.list(table.id)
        assert moves[-1].created_at - moves[seq - 1].created_at > 2 * DAY
        await fake.wait_for(
            lambda: len(notices(fake, thread, user.id)) == 4, timeout=GUARD, what="a notice"
        )
        kinds = [m.content.split(", ")[1].split(":")[0] for m in notices(fake, thread, user.id)]
        assert [k.startswith("it is your move") for k in kinds] == [True, True, False, True]
        assert kinds[2] == "a reminder"
    assert not fake.unknown_routes


def vacation_notices(fake: FakeDiscord, thread: int) -> list[StoredMessage]:
    """Every vacation notice posted in the thread (deleted ones too)."""
    posted = {m.id: m for m in [*fake.messages(thread), *fake.deleted_messages]}
    return [m for m in posted.values() if m.channel_id == thread and "is on vacation" in m.content]


async def test_a_vacation_notice_is_posted_once_across_a_kill_9(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    """The process is killed after the vacation is committed, at the notice's post (before
    Discord applies it): the next process moves nothing twice and posts the notice once."""
    fake = fake_discord
    user = fake.add_user(2001, "player", "Player")
    table = Table(user, fake.channel_id)
    async with watching(fake, database_url, tmp_path, timeout=3 * GUARD) as watch:
        procs, observer, store = watch.procs, watch.observer, watch.store
        first = await procs.start("bot1", "0,1")
        thread = await open_table(fake, observer, table)

        async def his_turn() -> bool:
            info = await observer.get(table.id)
            return info.turn_seat is not None and info.turn_seat.user_id == user.id

        await until(his_turn, "his turn")
        wire = fake.tripwire(
            lambda r: r.method == "POST"
            and r.path == f"/channels/{thread}/messages"
            and "is on vacation" in str((r.json or {}).get("content")),
            first.kill,
            before=True,
            name="the vacation notice",
        )
        await fake.slash(user, table.channel_id, "domino vacation", {"days": 2}, wait=False)
        await fake.wait_for(lambda: wire.fired, timeout=GUARD, what="the kill")
        await first.proc.wait()
        assert vacation_notices(fake, thread) == []
        rows = await store.db.fetchall(
            "SELECT ends_at, paused, posted FROM vacation_notices WHERE table_id = ?", (table.id,)
        )
        assert [(r[1], r[2]) for r in rows] == [(1, 0)]  # paused, not told
        ends = float(rows[0][0])
        moved = {d.kind: d.due_at for d in await store.deadlines.list(table.id)}
        assert moved["timeout"] == ends + PACE

        await procs.start("bot2", "0,1")

        async def told() -> bool:
            return bool(
                await store.db.fetchval(
                    "SELECT posted FROM vacation_notices WHERE table_id = ?", (table.id,)
                )
            )

        await until(told, "the notice marked posted")
        said = [m.content for m in vacation_notices(fake, thread)]
        assert said == [
            f"<@{user.id}> is on vacation: this table's clock is paused until <t:{int(ends)}:f>."
        ]
        after = {d.kind: d.due_at for d in await store.deadlines.list(table.id)}
        assert after["timeout"] == moved["timeout"]  # the pause is not applied twice
    assert not fake.unknown_routes
