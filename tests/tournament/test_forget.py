"""Forgetting a person (``forget_person``) on each backend: his entries are withdrawn where the
event is open, and his id and name leave every tournament table (read from the schema)."""

from __future__ import annotations

from bot.privacy.forget import forget_person
from bot.records.service import Records
from bot.store import Store
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import play_round

GUILD, HOST = 10, 987_654  # the host corrects a result, and is forgotten too
ZED = 424_242  # an entrant of both events, who is forgotten


async def single(events: TournamentService, channel: int, rounds: int) -> int:
    event = await events.create(
        guild_id=GUILD, channel_id=channel, host_id=HOST, name=f"Cup {channel}",
        checkin=True,
        variant="draw",
        format="single", rounds=rounds, hands=1,
    )
    for u in (ZED, 151, 152, 153):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    return event.id


async def holding(store: Store, value: int, name: str) -> list[tuple[str, tuple[object, ...]]]:
    """The rows of every tournament table holding ``value`` or ``name``."""
    if store.dialect == "sqlite":
        query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tournament%'"
    else:
        query = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                 " AND tablename LIKE 'tournament%'")
    tables = [str(r[0]) for r in await store.db.fetchall(query)]
    assert len(tables) >= 9, tables
    found = []
    for table in tables:
        for row in await store.db.fetchall(f'SELECT * FROM "{table}"'):
            values = tuple(row)
            if any(v == value or (isinstance(v, str) and (str(value) in v or name in v))
                   for v in values):
                found.append((table, values))
    return found


async def test_forget_withdraws_open_entries_and_anonymises_every_event(
    store: Store, events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    over = await single(events, 21, rounds=1)
    await play_round(events, tables, clock, over)
    await events.correct(over, HOST, round_=1, board=1, points=(10, 0), reason="typo")
    running = await single(events, 22, rounds=2)
    await play_round(events, tables, clock, running)
    assert (await events.state(over)).event.status == "finished"
    pairs = await events.create(
        guild_id=GUILD, channel_id=23, host_id=HOST, name="Pairs", checkin=True, variant="partners",
        format="pairs",
    )
    await events.invite(pairs.id, ZED, "P424242", (161, "P161"))  # his invitations, both ways
    await events.invite(pairs.id, 162, "P162", (ZED, "P424242"))
    assert await holding(store, ZED, "P424242") and await holding(store, HOST, "\0")

    await forget_person(Records(store, clock=clock), ZED)
    await forget_person(Records(store, clock=clock), HOST)
    assert await holding(store, ZED, "P424242") == []
    assert await holding(store, HOST, "\0") == []
    for event_id, status in ((over, "active"), (running, "withdrawn")):
        state = await events.state(event_id)
        (gone,) = [e for e in state.entries if e.name == ""]
        assert gone.status == status and gone.user_id < 0
        assert state.entry_of(ZED) is None and len(state.standings()) == 4
    # The running event goes on without him: round 2 pairs the three others.
    await play_round(events, tables, clock, running)
    state = await events.state(running)
    assert state.event.status == "finished"
    (gone,) = [e for e in state.entries if e.name == ""]
    assert all(gone.entry not in b.seats for b in state.boards_of(2))
