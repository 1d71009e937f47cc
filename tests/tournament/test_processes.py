"""Whole events through real bot processes: a SIGKILL in the middle of a round, and the shard
moving to another process mid-event, lose nothing and post nothing twice.

A 9-person individual event and a 10-pair event of three Swiss rounds, each with a no-show,
a late entrant and a withdrawal, played to the podium by people who click through the fake
Discord (see ``tests/tournament/live.py``). In round 2, once everyone came to his table, the
pairs event's process is killed right after Discord applied the first table's hand result
post (the bot never learnt it was made: the next process posts it again with the same nonce
and Discord answers with the first message), the individual event's at a move's edit of a
table's message; a new process goes on from the store. A shard moving: a second process waits
for the shard's lease; the first is stopped (SIGSTOP) at that instant past its lease, the
second takes the shard over, and the first, woken, posts nothing more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import POSTGRES, SQLITE
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.tournament.live import (
    kill_at,
    mid_play,
    move_at,
    play_event,
    processes,
    table_result,
    url_of,
)

__all__ = ["fake_discord"]


@pytest.mark.parametrize(("fmt", "backend"), [("individual", SQLITE), ("pairs", POSTGRES)])
async def test_a_kill_in_the_middle_of_a_round(
    fake_discord: FakeDiscord,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    fmt: str,
    backend: str,
) -> None:
    how = kill_at(table_result if fmt == "pairs" else mid_play)
    url = url_of(backend, request, tmp_path)
    async with processes(fake_discord, url, tmp_path) as watch:
        await play_event(fake_discord, watch.procs, watch.store, fmt, how)


async def test_the_shard_moves_to_another_process_mid_event(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = url_of(POSTGRES, request, tmp_path)
    async with processes(fake_discord, url, tmp_path) as watch:
        await play_event(fake_discord, watch.procs, watch.store, "individual", move_at(mid_play))
