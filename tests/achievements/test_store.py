"""Achievements on each backend: awarded with the match's record (same transaction), read back,
back-filled for matches recorded before (twice, and after a run cut short: the same rows), and
deleted by forget-me."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.achievements.service import Achievements
from bot.achievements.store import AchievementRepo
from bot.privacy.forget import forget_person
from bot.records.service import Records
from bot.store import Store
from bot.tables.service import TableService
from domino import Resign
from tests.bot.helpers import FakeClock

ANA, BEA = 101, 102
GUILD = 1


async def play(
    service: TableService,
    clock: FakeClock,
    variant: str,
    *,
    level: str = "easy",
    seed: int = 0,
    practice: bool = False,
    options: dict[str, object] | None = None,
) -> int:
    """Ana against a computer of ``level``: she chooses her own moves (random legal ones)."""
    rng = random.Random(seed)
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant=variant, options=options or {}, guild_id=GUILD
    )
    if practice:
        from bot.tables.practice import mark

        await mark(service, t.id)
    await service.add_computer(t.id, ANA, level=level)
    info = await service.start(t.id, ANA)
    while info.status == "running":
        if info.turn_seat is not None and info.turn_seat.user_id == ANA:
            (view,) = [v for v in await service.views_for(t.id, ANA) if v.legal]
            action = rng.choice([a for a in view.legal if not isinstance(a, Resign)])
            await service.act(t.id, ANA, action, expected_seq=info.seq)
        else:
            clock.advance(5)
            await service.tick()
        info = await service.get(t.id)
    await service.idle()
    return t.id


async def rows(store: Store) -> list[tuple[int, str, int, float]]:
    return [
        (e.player_id, e.code, e.table_id, e.earned_at)
        for e in await AchievementRepo(store.db).all_rows()
    ]


async def test_a_recorded_match_awards_in_its_transaction_and_practice_earns_nothing(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    records = Records(store, clock=clock)
    service.add_observer(records)
    practice = await play(service, clock, "draw", practice=True, options={"target": 50})
    assert await rows(store) == []
    tables = [await play(service, clock, "draw", seed=s, options={"target": 50})
              for s in range(4)]
    found = await rows(store)
    assert found and {pid for pid, *_ in found} == {ANA}  # never a computer
    won = [e.table_id for e in await records.repo.entries_of(tables)
           if e.player_id == ANA and e.result == "win"]
    assert won, "the seeds give Ana a win"
    codes = {c: t for _, c, t, _ in found}
    assert codes["first-win"] == codes["beat-easy"] == min(won)  # her first win
    assert all(t != practice for _, _, t, _ in found)
    # Each match's moments were read with its record.
    scans = {int(r[0]) for r in await store.db.fetchall("SELECT table_id FROM achievement_scans")}
    assert scans == set(tables)
    board = await Achievements(store).board(ANA)
    assert board.latest is not None and board.holders[board.latest.code] == 1
    assert set(board.missing) | board.codes == {a for a in board.holders} | set(board.missing)


async def test_backfill_gives_the_rows_the_recording_gave_twice_and_after_a_cut(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    """Matches recorded before achievements existed: the back-fill computes from their stored
    action logs what recording them would have awarded; run again, or after a run cut short,
    it leaves the same rows."""
    records = Records(store, clock=clock)
    service.add_observer(records)
    for seed in range(6):
        await play(service, clock, "draw", seed=seed, level=("easy", "hard")[seed % 2],
                   options={"target": 50})
    live = await rows(store)
    assert live
    # As if recorded before achievements: no rows, no scans.
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")
    achievements = Achievements(store)
    first = await achievements.backfill(batch=2)
    assert first.matches_read == 6
    assert await rows(store) == live
    again = await achievements.backfill(batch=2)
    assert (again.matches_read, again.rows) == (0, 0) and await rows(store) == live
    # A run cut short (stopped inside its fourth match's transaction) and run again.
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")
    real = achievements._scan
    done: list[int] = []

    async def stopped(table_id: int) -> int:
        if len(done) == 3:
            raise KeyboardInterrupt
        done.append(table_id)
        return await real(table_id)

    achievements._scan = stopped  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        await achievements.backfill(batch=2)
    achievements._scan = real  # type: ignore[method-assign]
    scans = await store.db.fetchval("SELECT count(*) FROM achievement_scans")
    assert scans == 3
    assert (await achievements.backfill(batch=4)).matches_read == 3
    assert await rows(store) == live


async def test_forget_me_deletes_a_persons_achievements(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    records = Records(store, clock=clock)
    service.add_observer(records)
    await play(service, clock, "draw", options={"target": 50})
    await AchievementRepo(store.db).award([])
    assert await rows(store)
    await forget_person(records, ANA)
    assert await rows(store) == []
    # The back-fill does not bring them back: his matches are under his alias now.
    await store.db.execute("DELETE FROM achievement_scans")
    await Achievements(store).backfill()
    assert await rows(store) == []


async def test_an_earlier_match_keeps_the_achievement(store: Store) -> None:
    """Our decision: an achievement stays with the earliest match that earned it, whatever the
    order the recording and the back-fill wrote it in."""
    from bot.achievements.store import Earned

    repo = AchievementRepo(store.db)
    await repo.award([Earned(ANA, "capicua", 9, GUILD, 900.0)])
    await repo.award([Earned(ANA, "capicua", 5, GUILD, 500.0)])
    await repo.award([Earned(ANA, "capicua", 7, GUILD, 700.0)])
    assert await rows(store) == [(ANA, "capicua", 5, 500.0)]


async def test_a_backfill_while_matches_are_recorded(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    """The back-fill runs while the bot records matches: both take the records' writer lock
    per transaction; the rows end as one back-fill of everything gives."""
    records = Records(store, clock=clock)
    service.add_observer(records)
    for seed in range(3):
        await play(service, clock, "draw", seed=seed, options={"target": 50})
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")
    achievements = Achievements(store)
    await asyncio.gather(
        achievements.backfill(batch=1),
        play(service, clock, "draw", seed=7, level="hard", options={"target": 50}),
    )
    during = await rows(store)
    await store.db.execute("DELETE FROM achievements")
    await store.db.execute("DELETE FROM achievement_scans")
    await achievements.backfill()
    assert during == await rows(store)
