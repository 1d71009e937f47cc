"""A knockout's losers may not check in for its next round (a knockout, and a Swiss event's
playoff), on both backends."""

from __future__ import annotations

import pytest

from bot.errors import WrongStatus
from bot.tables.service import TableService
from bot.tournaments.service import TournamentService
from tests.bot.helpers import FakeClock
from tests.tournament.helpers import KNOCKED_OUT, play_round
from tests.tournament.test_features import started_playoff
from tests.tournament.test_service import CHANNEL, GUILD, HOST


async def test_a_knockouts_loser_is_told_he_is_out(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Our decision: the check-in of a knockout's round is refused to whoever lost a table of
    it (he would never be paired); the winners and the byes check in."""
    event = await events.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="Cup", checkin=True, variant="draw",
        format="single", system="knockout", hands=1,
    )
    for u in range(100, 103):
        await events.register(event.id, u, f"P{u}")
    await events.start(event.id, HOST)
    await play_round(events, tables, clock, event.id)
    state = await events.state(event.id)
    tree = state.bracket()
    assert tree is not None
    (lost,) = {e for m in tree.rounds[0] for e in m.entrants if e not in (None, m.winner)}
    loser = state.entry(lost)
    assert loser is not None
    with pytest.raises(WrongStatus, match=KNOCKED_OUT):
        await events.check_in(event.id, loser.user_id)
    for e in state.active():
        if e.entry != lost:
            await events.check_in(event.id, e.user_id)
    assert {e.user_id for e in state.active()} - {loser.user_id} == set(
        (await events.state(event.id)).checked_in
    )


async def test_a_playoffs_semi_final_loser_is_told_he_is_out(
    events: TournamentService, tables: TableService, clock: FakeClock
) -> None:
    """Our decision: the same in a Swiss event's playoff, from its second round on."""
    event = await started_playoff(events, 4, rounds=1)
    await play_round(events, tables, clock, event.id)
    await play_round(events, tables, clock, event.id)  # the semi-finals
    state = await events.state(event.id)
    tree = state.bracket()
    assert tree is not None
    losers = {e for m in tree.rounds[0] for e in m.entrants if e not in (None, m.winner)}
    assert len(losers) == 2
    for entry in losers:
        row = state.entry(entry)
        assert row is not None
        with pytest.raises(WrongStatus, match=KNOCKED_OUT):
            await events.check_in(event.id, row.user_id)
