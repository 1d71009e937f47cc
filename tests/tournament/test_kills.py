"""SIGKILLs of real bot processes at the instants of an event's life, in every format and
system on both backends: nothing is lost, nothing posted twice.

Each case is a small event (3 to 6 entrants, one hand a round) played to the podium by people
who check in and come to their tables through the fake Discord (``tests/tournament/live.py``),
while the fake Discord kills the bot's process at two instants in turn; each time a new
process takes the shard over and goes on from the store. "After" a request: Discord applied
it (a post exists, an answer shows) and the bot never learnt it; "before": it never happened.

- pairs, Swiss, SQLite: before the match-end post of round 1's last table (between the
  round's last move and the next check-in); after the last "you are checked in" of round 2;
- individual, Swiss, PostgreSQL: after round 1's pairings post (its tables opening); after
  the podium post;
- one against one, Swiss, SQLite: mid-hand in round 1 (a move's edit); before the standings
  post of round 1;
- one against one, Swiss with a top-4 playoff, PostgreSQL: before the last Swiss round's
  standings (the playoff's seeds are stored); after the semi-finals' standings post;
- individual, Swiss with a top-4 playoff (one table of four), SQLite: before the last Swiss
  round's standings; after the final's pairings post (its table opening);
- pairs, knockout, PostgreSQL: before the first table's seat post; before the podium post;
- one against one, knockout, SQLite: after round 1's last "you are checked in"; before the
  final's match-end post;
- individual, knockout, PostgreSQL: after round 1's first "you are at your table" (within the
  grace); after the standings post of round 1.

Every public post (announcement, check-ins, pairings with each table's place, seat posts,
standings, the podium) is checked once and equal to what the store says
(:func:`tests.tournament.live.check_posts`); whoever the bot told "you are checked in" was
paired, whoever it told "you are at your table" did not forfeit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import POSTGRES, SQLITE
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.tournament.live import (
    Kill,
    Plan,
    at_table,
    checked_in,
    kills,
    last_match_over,
    mid_hand,
    play,
    post,
    processes,
    url_of,
)

__all__ = ["fake_discord"]

CASES = [
    pytest.param(
        Plan("Duo", "pairs", "partners", 4, 9000, {"rounds": 2}),
        SQLITE,
        [
            Kill("between rounds", last_match_over(1), before=True),
            Kill("check-in", checked_in(2, 4)),
        ],
        id="pairs-swiss-sqlite",
    ),
    pytest.param(
        Plan("Solo", "individual", "partners", 5, 9100, {"rounds": 2}),
        POSTGRES,
        [Kill("tables opening", post("pairings.1")), Kill("podium", post("end"))],
        id="individual-swiss-postgres",
    ),
    pytest.param(
        Plan("Draw", "single", "draw", 4, 9200, {"rounds": 2}),
        SQLITE,
        [Kill("mid-hand", mid_hand(1)), Kill("standings", post("standings.1"), before=True)],
        id="single-swiss-sqlite",
    ),
    pytest.param(
        Plan("Top", "single", "draw", 5, 9300, {"rounds": 2, "playoff": 4}),
        POSTGRES,
        [
            Kill("seeds", post("standings.2"), before=True),
            Kill("bracket", post("standings.3")),
        ],
        id="single-playoff-postgres",
    ),
    pytest.param(
        Plan("Four", "individual", "partners", 5, 9700, {"rounds": 2, "playoff": 4}),
        SQLITE,
        [
            Kill("seeds", post("standings.2"), before=True),
            Kill("final's tables", post("pairings.3")),
        ],
        id="individual-playoff-sqlite",
    ),
    pytest.param(
        Plan("Cup", "pairs", "partners", 3, 9400, {"system": "knockout"}),
        POSTGRES,
        [
            Kill("seat post", post("seat.1.1"), before=True),
            Kill("podium", post("end"), before=True),
        ],
        id="pairs-knockout-postgres",
    ),
    pytest.param(
        Plan("Ko", "single", "draw", 3, 9500, {"system": "knockout"}),
        SQLITE,
        [Kill("check-in", checked_in(1, 3)), Kill("final", last_match_over(2), before=True)],
        id="single-knockout-sqlite",
    ),
    pytest.param(
        Plan("Ring", "individual", "partners", 6, 9600, {"system": "knockout"}),
        POSTGRES,
        [Kill("arrival", at_table(1)), Kill("bracket", post("standings.1"))],
        id="individual-knockout-postgres",
    ),
]


@pytest.mark.parametrize(("plan", "backend", "steps"), CASES)
async def test_kills_inside_an_event(
    fake_discord: FakeDiscord,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    plan: Plan,
    backend: str,
    steps: list[Kill],
) -> None:
    url = url_of(backend, request, tmp_path)
    async with processes(fake_discord, url, tmp_path) as watch:
        live = await play(fake_discord, watch.procs, watch.store, plan, kills(*steps))
    assert [e.split(" ", 2)[2] for e in live.events if e.startswith("killed")] == [
        s.name for s in steps
    ]
