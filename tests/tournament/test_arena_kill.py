"""SIGKILLs of a real bot process at an arena's pairing instants, on SQLite and PostgreSQL: no
one loses his place, no one is seated twice, every post is made once.

The arena (one against one, five people, a start time) is run by bot processes
(``python -m tests.scale.runner``) on the fast clock of ``tests/tournament/live.py``. The fake
Discord kills the process at the first request after the arena's first tables are opened (the
thread of a table, before Discord makes it: the table, its board and its people's seats are
committed together or not at all; the other table of that instant may or may not be), then
after it posted the first seat post of a table paired again when a table ended (Discord holds
it; the bot never learnt it). Each time a new process takes the shard over and goes on from
the store. Between two processes the store is checked: nobody sits at two running tables,
each running table is some board's, each seated entrant's place points at his board.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.store import POSTGRES, SQLITE, Store
from bot.tournaments.arena_store import ArenaRepo
from bot.tournaments.store import TournamentRepo
from tests.fakediscord import FakeDiscord, RequestRecord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import until
from tests.scale.test_kill import posted
from tests.tournament.live import Kill, Live, Match, processes, slash, strikes, titles, url_of

__all__ = ["fake_discord"]

NAME = "Kill arena"
SEAT = re.compile(r"^t\.\d+\.seat\.(\d+)\.")


def thread_made(live: Live) -> Match:
    """The first thread a table asks for (its board committed with it)."""

    def match(r: RequestRecord) -> bool:
        return r.method == "POST" and r.path.endswith("/threads")

    return match


def seat_post_again(live: Live) -> Match:
    """The first seat post of a table paired after another ended (its board's round > 1)."""

    def wave(nonce: str) -> bool:
        found = SEAT.match(nonce)
        return found is not None and int(found.group(1)) > 1

    return posted(wave)


async def check_seats(store: Store, guild: int, channel: int) -> None:
    """Nobody at two running tables; each running board's entrants placed at it."""
    repo = TournamentRepo(store.db)
    event = await repo.latest(guild, channel)
    assert event is not None
    boards = await repo.boards(event.id)
    running = [b for b in boards if b.status == "playing"]
    seated = [e for b in running for e in {x for x in b.seats if x is not None}]
    assert len(seated) == len(set(seated)), boards
    places = await ArenaRepo(store.db).seats(event.id)
    for b in running:
        for e in {x for x in b.seats if x is not None}:
            assert places[e].board == (b.round, b.board), (places, b)
    tables = [b.table_id for b in boards if b.table_id is not None]
    assert len(tables) == len(set(tables))
    rows = await store.db.fetchall("SELECT id, options FROM tables")
    opened = {int(r[0]) for r in rows if json.loads(r[1] or "{}").get("tournament") == event.id}
    assert opened == set(tables), "a table without its board"
    assert opened, "no table opened yet"


@pytest.mark.parametrize("backend", [SQLITE, POSTGRES])
async def test_kills_at_an_arenas_pairing(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    fake = fake_discord
    url = url_of(backend, request, tmp_path)
    steps = [
        Kill("first tables", thread_made, before=True),
        Kill("paired again", seat_post_again),
    ]
    async with processes(fake, url, tmp_path) as watch:
        procs, store = watch.procs, watch.store
        await procs.start("bot1", "0")
        made = await slash(
            fake, fake.owner, "create", name=NAME, variant="draw", format="single", hands=1,
            system="arena", duration=90, start_in=30,
        )
        assert "open for registration" in made, made
        people = [fake.add_user(9700 + i, f"a{i}", f"Arena {i}") for i in range(5)]
        for user in people:
            assert "registered" in await slash(fake, user, "register")
        live = Live(fake, procs, store, procs.processes[-1], NAME, None)  # type: ignore[arg-type]
        for step in steps:
            wire = fake.tripwire(step.instant(live), live.kill, before=step.before, name=step.name)
            if live.current.proc.returncode is not None:
                await live.restart()
            await strikes(live, wire, f"the kill {step.name}")
            await live.current.proc.wait()
            live.events.append(f"killed {live.current.name} {step.name}")
            await check_seats(store, fake.guild_id, fake.channel_id)
        await live.restart()
        try:
            await until(lambda: titles(fake)[f"{NAME}: the podium"], "the podium")
            await until(live.ended, "the podium's mark")
        except AssertionError:
            print(procs.logs())
            raise
        await procs.close()
        counts = titles(fake)
        assert counts[f"{NAME}: the podium"] == 1
        assert counts[f"{NAME}: arena standings"] == 1
        assert counts[f"Arena: {NAME}"] == 1
        seat_posts = Counter(
            m.content for m in fake.public_messages() if "your table is ready" in (m.content or "")
        )
        assert seat_posts and max(seat_posts.values()) == 1
        repo = TournamentRepo(store.db)
        event = await repo.latest(fake.guild_id, fake.channel_id)
        assert event is not None and event.status == "finished"
        boards = await repo.boards(event.id)
        assert len(seat_posts) == len(boards)
        played = {e for b in boards for e in b.seats if e is not None}
        assert played == {e.entry for e in await repo.entries(event.id)}  # nobody lost
        assert [e.split(" ", 2)[2] for e in live.events] == [s.name for s in steps]
