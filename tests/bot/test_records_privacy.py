"""Forgetting a person and dropping a departed server's data, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from bot.privacy.forget import Forgetting, forget_person
from bot.records.boards import PeriodBoards
from bot.records.seasons_service import TOURNAMENT, Seasons
from bot.records.service import Records
from bot.records.store import FORMER_PLAYERS
from bot.store import POSTGRES, Store
from bot.tables.service import TableService
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, duel, hand, human, make_record

ALICE = 187654321098765432  # a real-looking id: no other figure of the database contains it
BOB = 1002


async def columns(store: Store) -> list[tuple[str, str]]:
    """Every (table, column) of the database."""
    db = store.db
    if store.dialect == POSTGRES:
        rows = await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        return [(str(r[0]), str(r[1])) for r in rows]
    found = []
    for (table,) in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for column in await db.fetchall(f"PRAGMA table_info({table})"):
            found.append((str(table), str(column[1])))
    return found


async def occurrences(store: Store, names: Sequence[str], number: int) -> list[str]:
    """Every table.column holding one of ``names`` or ``number`` (a value or inside a text)."""
    found = []
    for table, column in await columns(store):
        for (value,) in await store.db.fetchall(f'SELECT "{column}" FROM "{table}"'):
            text = isinstance(value, str) and (
                str(number) in value or any(n in value for n in names)
            )
            if value == number or text:
                found.append(f"{table}.{column}: {value!r}")
    return found


async def test_forgetting_removes_every_trace_and_keeps_the_others_figures(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    records = Records(store, clock=clock)
    service.add_observer(records)
    info = await service.create_table(host_id=ALICE, host_name="Alicia", variant="draw")
    await service.join(info.id, BOB, "Bob")
    await service.start(info.id, ALICE)
    await service.resign(info.id, ALICE)
    await service.idle()
    assert await records.record(info.id) is False  # the observer recorded it
    challenge = await service.create_table(
        host_id=BOB, host_name="Bob", variant="draw", invited=[ALICE]
    )
    await service.decline(challenge.id, ALICE)
    await records.record_match(  # and a match against a computer
        make_record(
            99,
            "draw",
            [human(ALICE, "Alicia"), computer("hard")],
            [hand(1, "domino", 0, 0, [100, 0])],
            winner_side=0,
        )
    )
    assert (await records.stats(ALICE)).versus
    await records.set_privacy(ALICE, 0, True)
    assert await occurrences(store, ["Alicia"], ALICE)
    bob = await records.stats(BOB)

    await forget_person(records, ALICE)

    assert await occurrences(store, ["Alicia"], ALICE) == []
    assert await records.stats(BOB) == bob
    (item,) = await records.history(BOB)
    assert item.result == "win" and item.opponents == (("", "human"),)
    assert (await records.stats(ALICE)).empty


async def test_a_match_that_finishes_after_forget_me_never_records_him(
    store: Store, service: TableService, clock: FakeClock
) -> None:
    """His match runs on a process that has not ended his part yet (or is down): it finishes
    meanwhile, and is recorded with a former player; the process then removes him."""
    records = Records(store, clock=clock)
    service.add_observer(records)
    info = await service.create_table(host_id=ALICE, host_name="Alicia", variant="draw")
    await service.join(info.id, BOB, "Bob")
    await service.start(info.id, ALICE)
    bob = await records.stats(BOB)

    # asked on another process: nothing here ended her match yet
    await forget_person(records, ALICE)
    await service.resign(info.id, BOB)  # the match finishes first
    await service.idle()
    assert not await records.record(info.id)  # the observer recorded it already

    record_tables = [f for f in await occurrences(store, ["Alicia"], ALICE) if "record" in f]
    assert record_tables == []  # no entry, rating, figure or name of hers
    rows = await store.db.fetchall("SELECT player_id, name FROM record_entries")
    former = [r[0] for r in rows if r[0] != BOB]
    assert len(former) == 1 and former[0] < FORMER_PLAYERS
    for table in ("record_players", "record_ratings", "record_stats"):
        ids = {r[0] for r in await store.db.fetchall(f"SELECT player_id FROM {table}")}
        assert ids == {BOB}, table
    (item,) = await records.history(BOB)
    assert item.result == "loss" and item.opponents == (("", "human"),)
    assert (await records.stats(BOB)).overall != bob.overall

    # The process running the table gets to it: she leaves it, the request goes.
    assert await occurrences(store, ["Alicia"], ALICE)  # her seat, until then
    assert await Forgetting(records, service).apply_pending() == 1
    assert await occurrences(store, ["Alicia"], ALICE) == []
    assert await store.db.fetchall("SELECT * FROM forget_requests") == []


async def test_a_departed_servers_data_goes_after_the_grace_period(
    store: Store, clock: FakeClock
) -> None:
    records = Records(store, clock=clock)
    await duel(records, 1, ALICE, BOB, guild_id=77)
    await duel(records, 2, ALICE, BOB, guild_id=78)
    for table, guild in ((3, 77), (4, 78)):
        await records.record_match(
            make_record(
                table,
                "draw",
                [human(ALICE), computer("easy")],
                [hand(1, "domino", 0, 0, [100, 0])],
                winner_side=0,
                guild_id=guild,
            )
        )
    await records.set_privacy(ALICE, 77, True)
    assert await records.known_guilds() == {77, 78}
    await records.guild_left(77)
    await records.guild_left(78)
    await records.guild_back(78)
    clock.advance(6 * 24 * 3600)
    assert await records.sweep_departed() == []
    clock.advance(2 * 24 * 3600)
    assert await records.sweep_departed() == [77]
    assert await records.known_guilds() == {78}
    assert await records.hidden_scopes(ALICE) == set()
    assert (await records.stats(ALICE, guild_id=78)).server
    assert set(await records.against_computers(ALICE, [0, 77, 78])) == {0, 78}


async def test_forgetting_removes_who_chose_a_servers_settings(
    store: Store, clock: FakeClock
) -> None:
    """The board channel and the winner roles he chose stay (the server's settings), but his
    id goes from them."""
    await PeriodBoards(store, clock=clock).set_channel(77, 7700, by=ALICE)
    seasons = Seasons(store, clock=clock)
    await seasons.set_champion_role(77, 7701, by=ALICE)
    await seasons.set_champion_role(77, 7702, by=ALICE, kind=TOURNAMENT)
    assert await occurrences(store, [], ALICE)
    await forget_person(Records(store, clock=clock), ALICE)
    assert await occurrences(store, [], ALICE) == []
    assert (await PeriodBoards(store, clock=clock).channel(77)) is not None
    role = await seasons.champion_role(77, TOURNAMENT)
    assert role is not None and role.role_id == 7702
