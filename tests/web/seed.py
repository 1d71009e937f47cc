"""Support for the web tests (no tests here): a database with real, replayable matches.

One match is played through the real table service on a server with pages (two people and
two computers, every move stored in the action log) and recorded; duels recorded from rows
fill a leaderboard; one server keeps its pages off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.records.service import Records
from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.tables.service import TableService
from bot.web.positions import Replay, positions
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import duel

ANA, BEA, CID = 101, 102, 103  # people; Ana plays under a server nickname at the table
GUILD, DARK = 555, 666  # a server with pages, a server without
NAMES = {ANA: "Ana Global", BEA: "Bea <b>&amp;", CID: "Cid"}
NICKNAME = "Ana Nickname"


@dataclass(frozen=True, slots=True)
class Seeded:
    """What the seed put in the database."""

    played: int  # the table id of the match played move by move (on GUILD)
    dark: int  # a match on DARK (no pages)
    running: int  # a match still being played on GUILD
    replay: Replay  # the played match's positions, from the engine


async def _names(ids: Sequence[int]) -> Mapping[int, str]:
    return {i: NAMES[i] for i in ids if i in NAMES}


async def play_match(
    service: TableService,
    records: Records,
    guild_id: int,
    *,
    finish: bool = True,
    channel_id: int = 7,
    variant: str = "partners",
    **place: object,
) -> int:
    """A match of Ana, Bea and computers in the free seats (by default partners: two
    computers), played move by move in ``channel_id`` (by default a channel everyone on the
    server can view; ``place``: where it is)."""
    table = await service.create_table(
        host_id=ANA, host_name=NICKNAME, variant=variant, guild_id=guild_id,
        channel_id=channel_id, **{"public_place": True, **place},  # type: ignore[arg-type]
    )
    await service.join(table.id, BEA, "Bea nick")
    while not (await service.get(table.id)).is_full:
        await service.add_computer(table.id, ANA, level="easy")
    await service.start(table.id, ANA)
    moves = 0
    while True:
        info = await service.get(table.id)
        if info.status != "running" or (not finish and moves >= 12):
            break
        seat = info.turn_seat
        if seat is None:
            break
        if seat.kind == "computer":
            await service.play_computer(table.id)
        else:
            action = info._match.legal_actions()[0]  # type: ignore[union-attr]
            await service.act(table.id, seat.user_id, action)  # type: ignore[arg-type]
        moves += 1
    if finish:
        assert await records.record(table.id)
    return table.id


def services(store: Store, clock: FakeClock) -> tuple[Records, TableService]:
    """The records and the table service the seed plays through (computers answer at once)."""
    records = Records(store, clock=clock, names=_names)
    service = TableService(
        store, clock=clock, seed_source=lambda: 7, computer_delay=0.0, hand_pause=0.0,
        computer_pace=None,
    )
    return records, service


async def seed(store: Store, *, duels: int = 30) -> Seeded:
    """Fill ``store`` (migrated, empty): see the module's docstring."""
    clock = FakeClock()
    settings = ServerSettings(store, clock=clock)
    await settings.update(GUILD, web=True, web_name="Domino <Club>")
    await settings.update(DARK, variant="draw")
    records, service = services(store, clock)
    try:
        played = await play_match(service, records, GUILD)
        dark = await play_match(service, records, DARK)
        running = await play_match(service, records, GUILD, finish=False)
    finally:
        await service.aclose()
    for i in range(duels):  # players 1000.. on GUILD's two-player board
        await duel(records, 90_000 + i, 1000 + i % 7, 1000 + (i * 3 + 1) % 7, guild_id=GUILD,
                   at=2_000.0 + i)
    match = await store.matches.get(played)
    assert match is not None
    replay = positions(match, await store.actions.list(played))
    return Seeded(played, dark, running, replay)
