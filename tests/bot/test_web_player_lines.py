"""A person's figures on a server's web pages, kept by the database as it records matches
(migration 0943: ``web_player_lines``, ``web_player_ratings``, ``web_player_versus``; 0945:
his rating curves, ``web_player_curve``; 0946: his latest matches, ``web_player_recent``),
are exactly what counting his entries in the server's public matches gives, after any series
of matches (public or not, rated or not, against people or computers), forget-me and leaving
or rejoining boards, on both backends; the migrations count the matches recorded before them
alike."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

from aiohttp.test_utils import make_mocked_request
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.privacy.forget import forget_person
from bot.records.record import GLOBAL
from bot.records.service import PlayerStats, Records
from bot.store import Store
from bot.store.schema import migrations
from bot.store.table_extras import Readable
from bot.web.app import create_app
from bot.web.player import player_response
from bot.web.queries import RecentMatch, WebRepo, WebServer
from bot.web.reader import (
    CURVE_LATEST,
    HISTORY,
    PlayerPage,
    Reader,
    curve_texts,
    kept_figures,
    public_stats,
    thinned,
)
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, hand, human, make_record

GUILDS = (71, 72)
PEOPLE = range(1, 6)
LEVELS = ("easy", "hard")
_tables = itertools.count(1)
#: One clock for every example (they share the test's database): matches are recorded in the
#: order they finish, as the bot records them.
_CLOCK = FakeClock()

_match = st.tuples(
    st.just("match"),
    st.sampled_from(PEOPLE),
    # the other sides: a person or a computer level each
    st.lists(st.sampled_from([*PEOPLE, *LEVELS]), min_size=1, max_size=3),
    st.sampled_from(GUILDS),
    st.booleans(),  # played in a public place
    st.sampled_from(("draw", "two")),  # (three people or computers: "three")
    st.booleans(),  # rated
    st.integers(0, 3),  # the winning side (past the last: a draw)
)
_forget = st.tuples(st.just("forget"), st.sampled_from(PEOPLE))
_privacy = st.tuples(
    st.just("privacy"), st.sampled_from(PEOPLE), st.sampled_from((GLOBAL, *GUILDS)), st.booleans()
)
_steps = st.lists(st.one_of(_match, _match, _match, _match, _forget, _privacy), max_size=20)


async def _table(store: Store, table_id: int, guild: int, public: bool) -> None:
    """The table's row, opened in a place the server's @everyone could view or not."""
    await store.db.execute(
        "INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, created_at,"
        " updated_at, public_place) VALUES (?, ?, 5, 1, 'draw', 'finished', 0, 0, ?)",
        (table_id, guild, int(public)),
    )


async def _apply(store: Store, clock: FakeClock, steps: list[tuple[Any, ...]]) -> None:
    """The steps, through the real writers."""
    records = Records(store, clock=clock)
    for step in steps:
        if step[0] == "match":
            _, person, others, guild, public, variant, rated, winner = step
            seats = [human(person)]
            for other in others:
                if other in seats or other == person:
                    continue
                seats.append(computer(other) if isinstance(other, str) else human(other))
            if len(seats) > 3:
                seats = seats[:3]
            if len(seats) == 3:
                variant = "three"
            if len(seats) < 2:
                continue
            table_id = next(_tables)
            clock.advance(60)
            await _table(store, table_id, guild, public)
            points = [100 if s == winner else 0 for s in range(len(seats))]
            draw = winner >= len(seats)
            record = make_record(
                table_id, variant, seats,
                [hand(1, "domino", None if draw else winner, None if draw else winner, points)],
                winner_side=None if draw else winner, draw=draw, guild_id=guild,
                started_at=clock.now - 600, finished_at=clock.now,
            )
            await records.record_match(record, rated=rated)
        elif step[0] == "forget":
            await forget_person(records, step[1])
        else:
            await records.set_privacy(step[1], step[2], step[3])


async def _check(store: Store) -> None:
    """For every person and server: the kept figures are the counted ones, and a person
    with no public match there (or forgotten) has no kept row."""
    web = WebRepo(store.db)
    for guild in GUILDS:
        for person in PEOPLE:
            entries = await web.public_entries(guild, person)
            versus = await web.public_versus(guild, person)
            counted = public_stats(guild, person, "P", entries, versus)
            kept, recent, curves = await kept_figures(web, guild, person, "P")
            assert kept == dataclasses.replace(counted, series={}), (guild, person)
            assert curves == curve_texts(counted.series), (guild, person)
            assert list(recent) == await _counted_recent(store, guild, person), (guild, person)
            if entries:  # his page, from the kept figures and from the counted ones
                assert _page(guild, kept, recent, curves) == _page(
                    guild, counted, await _counted_recent(store, guild, person),
                    curve_texts(counted.series),
                ), (guild, person)


def _page(
    guild: int, stats: PlayerStats, recent: Sequence[RecentMatch], curves: dict[str, str]
) -> bytes:
    """The player page's HTML of ``stats``, ``recent`` and ``curves``, in Spanish."""
    request = make_mocked_request("GET", f"/s/{guild}/p/{stats.player_id}?lang=es", app=_APP)
    found = PlayerPage(WebServer(guild, "S"), stats, tuple(recent), (), curves)
    body = player_response(request, found).body
    assert isinstance(body, bytes)
    return body


_APP = create_app(Reader("sqlite:///unused.sqlite3"))


async def _counted_recent(store: Store, guild: int, person: int) -> list[RecentMatch]:
    """A person's latest public matches of a server, counted from his entries (one match
    twice if he took two sides: the later side first)."""
    history = await Records(store).history(
        person, limit=HISTORY, readable=Readable.public(guild)
    )
    history.sort(key=lambda h: (h.finished_at, h.table_id, h.side), reverse=True)
    return [
        RecentMatch(h.table_id, h.variant, h.result, h.points_for, h.points_against,
                    h.finished_at)
        for h in history
    ]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=_steps)
@example(
    steps=[
        ("match", 1, [2], GUILDS[0], True, "draw", True, 0),
        ("match", 1, ["easy", "easy", 3], GUILDS[0], True, "draw", True, 2),
        ("match", 1, [2], GUILDS[0], False, "two", True, 0),
        ("match", 1, ["hard"], GUILDS[0], True, "two", True, 0),
        ("match", 2, [1], GUILDS[0], True, "draw", False, 5),
        ("match", 1, [3], GUILDS[0], True, "draw", True, 0),
        ("privacy", 1, GUILDS[0], True),
        ("forget", 2),
        ("match", 2, [1], GUILDS[1], True, "draw", True, 1),
    ]
)
async def test_the_kept_figures_are_the_counted_ones_after_any_writes(
    store: Store, steps: list[tuple[Any, ...]]
) -> None:
    await _apply(store, _CLOCK, steps)
    await _check(store)


async def test_the_migration_counts_the_matches_recorded_before_it(store: Store) -> None:
    steps: list[tuple[Any, ...]] = [
        ("match", 1, [2], GUILDS[0], True, "draw", True, 0),
        ("match", 1, ["easy", 3], GUILDS[0], True, "draw", True, 0),
        ("match", 1, [3], GUILDS[0], True, "draw", True, 1),
        ("match", 1, [2], GUILDS[0], True, "draw", True, 0),
        ("match", 1, [2], GUILDS[0], True, "draw", True, 0),
        ("match", 3, ["hard"], GUILDS[1], True, "two", True, 2),
        ("match", 3, [1], GUILDS[1], False, "two", True, 0),
    ]
    await _apply(store, _CLOCK, steps)
    before = {t: await _rows(store, t) for t in _KEPT}
    assert before["web_player_lines"]
    async with store.transaction() as tx:
        for table in _KEPT:
            await tx.db.execute(f"DELETE FROM {table}")
        for version in (943, 945, 946):
            sql = next(s for v, _, s in migrations(store.dialect) if v == version)
            backfill = sql.split("-- backfill:begin")[1].split("-- backfill:end")[0]
            for statement in backfill.split(";"):
                if statement.strip():
                    await tx.db.execute(statement)
    after = {t: await _rows(store, t) for t in _KEPT}
    assert after == before
    await _check(store)


async def _rows(store: Store, table: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in await store.db.fetchall(f"SELECT * FROM {table}"))


_KEPT = (
    "web_player_lines", "web_player_ratings", "web_player_versus", "web_player_curve",
    "web_player_recent",
)


async def test_a_long_history_keeps_a_thinned_curve_of_its_whole_shape(store: Store) -> None:
    """Our decision (docs/web.md): a person's rating curve on his page keeps the first point,
    his 24 latest, and earlier ones thinned (every 2nd, then every 4th, ...), so that a
    history of hundreds of matches stays a chart of its whole shape in a bounded number of
    points; the kept curve is the counted one after each match, on both backends, and so is
    the list of his latest matches (the database keeps his 20 latest)."""
    guild, person, rated = GUILDS[0], 1, 700
    checked = {1, 24, 25, 49, 97, 200, 383, 384, rated}
    for n in range(1, rated + 1):
        await _table(store, 10_000 + n, guild, True)
        await store.db.execute(
            "INSERT INTO record_matches (table_id, guild_id, variant, family, seats, teams,"
            " people, computers, hands, scores, winner_side, draw, reason, started_at,"
            " finished_at, duration, recorded_at) VALUES (?, ?, 'draw', 'two-player', 2, 2, 1,"
            " 1, 1, '[100,0]', 0, 0, 'target', ?, ?, 60, ?)",
            (10_000 + n, guild, n, n * 60.0, n),
        )
        await store.db.execute(
            "INSERT INTO record_entries (player_id, finished_at, table_id, side, family, seats,"
            " name, kind, result, rank, points_for, points_against, hands_won, dominoes,"
            " blocks_won, rated, mu_before, sigma_before, mu_after, sigma_after) VALUES"
            " (?, ?, ?, 0, 'two-player', '[0]', 'P', 'human', 'win', 1, 100, 0, 1, 1, 0, 1,"
            " 25, 8, ?, ?)",
            (person, n * 60.0, 10_000 + n, 25 + (n % 37) / 3, 8 - n / rated),
        )
        if n in checked:
            web = WebRepo(store.db)
            _, recent, kept = await kept_figures(web, guild, person, "P")
            counted = public_stats(
                guild, person, "P", await web.public_entries(guild, person), []
            )
            assert kept == curve_texts(counted.series), n
            (text,) = kept.values()
            curve = [tuple(map(float, p.split(","))) for p in text.split(" ")]
            times = [t for t, _ in curve]
            latest = range(max(1, n - CURVE_LATEST + 1), n + 1)
            assert times[0] == 60.0 and times[-len(latest):] == [k * 60.0 for k in latest]
            assert len(curve) <= _most(n)
            assert list(recent) == await _counted_recent(store, guild, person)
    assert len(curve) < 100
    # his 20 latest matches are kept, no more
    kept = await store.db.fetchval("SELECT count(*) FROM web_player_recent")
    assert kept == 20


@given(st.integers(1, 5000))
def test_a_thinned_curve_drops_a_point_for_good_and_stays_short(n: int) -> None:
    """A point the curve no longer keeps never comes back as it grows (what the database's
    trigger can keep), the latest 24 and the first are always kept, and a curve of n points
    keeps about 24 + 12 log2(n / 24)."""
    now = set(thinned(range(1, n + 1)))
    after = set(thinned(range(1, n + 2)))
    assert after <= now | {n + 1}
    assert {1, *range(max(1, n - CURVE_LATEST + 1), n + 1)} <= now
    assert len(now) <= _most(n)


def _most(n: int) -> int:
    """The most points a thinned curve of ``n`` keeps: the latest, half as many more each
    time the history doubles, and the first."""
    return CURVE_LATEST + CURVE_LATEST // 2 * (n // CURVE_LATEST).bit_length() + 1
