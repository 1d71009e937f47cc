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
from typing import Any

import pytest

from bot.settings import sqlite_url
from bot.store import POSTGRES, SQLITE
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import watching
from tests.tournament.live import (
    LEASE_TTL,
    Disruption,
    fast_env,
    kill_at,
    mid_play,
    move_at,
    play_event,
    table_result,
)

__all__ = ["fake_discord"]

WHOLE_TEST = 240.0  # seconds: a hang fails with the processes' logs


def url_of(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == SQLITE:
        return sqlite_url(tmp_path / "bot.sqlite3")
    return str(request.getfixturevalue("postgres_databases").migrated())


async def run(fake: FakeDiscord, url: str, tmp_path: Path, fmt: str, how: Disruption) -> None:
    options: dict[str, Any] = {
        "shard_count": 1,
        "lease_ttl": LEASE_TTL,
        "env": fast_env(),
    }
    async with watching(fake, url, tmp_path, timeout=WHOLE_TEST, **options) as watch:
        await play_event(fake, watch.procs, watch.store, fmt, how)


@pytest.mark.parametrize(("fmt", "backend"), [("individual", SQLITE), ("pairs", POSTGRES)])
async def test_a_kill_in_the_middle_of_a_round(
    fake_discord: FakeDiscord,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    fmt: str,
    backend: str,
) -> None:
    how = kill_at(table_result if fmt == "pairs" else mid_play)
    await run(fake_discord, url_of(backend, request, tmp_path), tmp_path, fmt, how)


async def test_the_shard_moves_to_another_process_mid_event(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = url_of(POSTGRES, request, tmp_path)
    await run(fake_discord, url, tmp_path, "individual", move_at(mid_play))
