"""``python -m benchmarks.records``: leaderboard and stats queries on a big records store.

Fills a fresh store (the real migrations) with ``--players`` people and ``--matches`` recorded
matches spread over ``--guilds`` servers of Zipf-like sizes, then times, through
:class:`bot.records.service.Records` and aiosqlite exactly as the cogs call them:

- a leaderboard page (count, page, the viewer's place) by rating and by wins, global and for
  the biggest and a middling server, first and deep pages, every bucket;
- ``/domino stats`` (every summary line, the results against each computer level, the ratings
  and the rating curves for the picture), also of the person with the most matches;
  ``/domino history`` (ten latest matches with everyone in them), the picture itself;
- a period's board (this week, this month, last week: count, page, places, the viewer's
  place), global and for the biggest and a middling server, first and deep pages;
- recording one more match into the full store.

The filling writes rows directly (``executemany`` in big transactions; summary lines by
``GROUP BY``, secondary indexes built afterwards): match results and rating curves are random
but shaped like real ones; only the query plans and sizes matter here. The filled store is
kept in ``--cache`` under a name made of the filling's version, the sizes and the seed, and
reused by the next run with the same ones (the migrations of a newer checkout applied to it);
``--fresh`` fills it again. Target: every query under 50 ms (median); each query's median,
p99, worst and CPU time are printed with the machine's load.

With ``--database-url postgresql://…`` (an empty database) or ``temp`` (a throw-away server)
the same records are copied there with ``python -m bot copy-db``'s code (COPY), analysed, and
every query is timed on both databases in the same run: SQLite, PostgreSQL and their ratio.
``kept`` is a server whose cluster is kept in ``--cache`` beside the SQLite store: copied once,
reused by the next runs.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import datetime as dt
import itertools
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from bot.records.boards import PeriodBoards
from bot.records.periods import period_of
from bot.records.record import (
    ALL,
    FAMILIES,
    GLOBAL,
    MatchRecord,
    Participant,
    computer_id,
    family_of,
)
from bot.records.seasons import SeasonCalendar
from bot.records.seasons_service import Seasons
from bot.records.seasons_store import SeasonRepo
from bot.records.service import Records
from bot.settings import POSTGRES_SCHEMES, redact_url, sqlite_url
from bot.store import SQLITE, Store
from bot.store.schema import migrations
from domino import preset
from render.stats import rating_chart

TARGET_MS = 50.0
GENERATOR = 3  # the filling's version: a kept store of another version is filled again
DEFAULT_CACHE = Path("/var/tmp/domino-records-bench")
COPIED = "copied"  # in a kept PostgreSQL cluster's folder: the copy is complete
MIGRATIONS = Path(__file__).resolve().parent.parent / "bot" / "migrations" / "sqlite"
BASE_ID = 100_000_000_000_000_000  # snowflake-sized user ids
VARIANT_WEIGHTS = {
    "partners": 30,
    "spanish": 10,
    "venezuelan": 6,
    "brazilian": 5,
    "cuban": 5,
    "seven-seven": 3,
    "draw": 16,
    "two": 8,
    "penalty": 7,
    "three": 10,
}
LEVELS = ("easy", "normal", "hard")
YEAR = 365 * 86_400.0
STAGE = (
    "table_id, player_id, side, seats, kind, result, rank, points_for, points_against,"
    " hands_won, dominoes, blocks_won, mu_before, sigma_before, mu_after, sigma_after, family,"
    " finished_at, guild_id, variant"
)


# ---------------------------------------------------------------------------------- filling


def _zipf_weights(n: int, s: float) -> list[float]:
    return [1.0 / (k**s) for k in range(1, n + 1)]


def _cumulative(weights: list[float]) -> list[float]:
    return list(itertools.accumulate(weights))


def fill(path: Path, players: int, matches: int, guilds: int, seed: int) -> dict[str, Any]:
    """Write the synthetic records into the (migrated) database at ``path``."""
    rng = random.Random(seed)
    phases: dict[str, float] = {}
    clock = [time.perf_counter()]

    def lap(name: str) -> None:
        now = time.perf_counter()
        phases[name] = phases.get(name, 0.0) + now - clock[0]
        clock[0] = now

    conn = sqlite3.connect(path, isolation_level=None)
    # A bulk load: no rollback journal, no WAL (the file goes back to WAL at the end).
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA threads = 2")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -2000000")
    conn.execute("PRAGMA temp_store = MEMORY")
    indexes = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        " AND (tbl_name LIKE 'record_%' OR tbl_name LIKE 'season_%')"
    ).fetchall()
    for name, _ in indexes:
        conn.execute(f"DROP INDEX {name}")
    # The triggers on the records' tables (the boards' sizes, the pages' stamps) fire once a
    # row; their tables are filled in bulk at the end instead (:func:`_fill_kept`).
    triggers = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
        " AND (tbl_name LIKE 'record_%' OR tbl_name LIKE 'season_%')"
    ).fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER {name}")

    guild_ids = [900_000_000_000_000_000 + g for g in range(guilds)]
    guild_cum = _cumulative(_zipf_weights(guilds, 1.1))
    members: list[list[int]] = [[] for _ in range(guilds)]
    member_cum: list[list[float]] = [[] for _ in range(guilds)]
    skill: dict[int, float] = {}
    conn.execute("BEGIN")
    names: list[tuple[int, str, str, float]] = []
    for i in range(players):
        pid = BASE_ID + i * 7919
        g = bisect.bisect(guild_cum, rng.random() * guild_cum[-1])
        members[g].append(pid)
        skill[pid] = rng.gauss(25.0, 4.0)
        names.append((pid, f"player{i}", "human", 0.0))
    for level in LEVELS:
        skill[computer_id(level)] = {"easy": 18.0, "normal": 24.0, "hard": 31.0}[level]
        names.append((computer_id(level), f"computer:{level}", "computer", 0.0))
    conn.executemany(
        "INSERT INTO record_players (player_id, name, kind, updated_at) VALUES (?, ?, ?, ?)", names
    )
    for g in range(guilds):
        if not members[g]:  # every server has someone
            members[g].append(names[rng.randrange(players)][0])
        member_cum[g] = _cumulative([rng.paretovariate(1.3) for _ in members[g]])
    conn.execute("COMMIT")

    variants = list(VARIANT_WEIGHTS)
    variant_cum = _cumulative(list(VARIANT_WEIGHTS.values()))
    shapes = {v: preset(v) for v in variants}
    ratings: dict[tuple[int, str], list[float]] = {}
    t0 = time.time() - YEAR
    match_rows: list[tuple[Any, ...]] = []
    entry_rows: list[tuple[Any, ...]] = []
    all_pids = [pid for pid, _, kind, _ in names if kind == "human"]
    # Entries go to an unindexed staging table first: appending is cheap, and it keeps each
    # match's server and variant for the summary lines.
    conn.execute(f"CREATE TEMP TABLE stage ({STAGE})")

    def flush() -> None:
        lap("generate")
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO record_matches (table_id, guild_id, variant, family, seats, teams,"
            " people, computers, hands, scores, winner_side, draw, reason, started_at,"
            " finished_at, duration, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            match_rows,
        )
        conn.executemany(
            f"INSERT INTO stage ({STAGE}) VALUES ({', '.join('?' * STAGE.count(',') + '?')})",
            entry_rows,
        )
        conn.execute("COMMIT")
        match_rows.clear()
        entry_rows.clear()
        lap("insert")

    for m in range(matches):
        table_id = m + 1
        variant = variants[bisect.bisect(variant_cum, rng.random() * variant_cum[-1])]
        rs = shapes[variant]
        family = family_of(variant)
        g = bisect.bisect(guild_cum, rng.random() * guild_cum[-1])
        pool, cum = members[g], member_cum[g]
        per_side = 2 if rs.teams and rs.people == rs.seats else 1
        slots = rs.sides * per_side
        chosen: list[int] = []
        tries = 0
        while len(chosen) < slots:
            tries += 1
            if tries > 20 or rng.random() < 0.08:  # a visitor from another server
                pid = all_pids[rng.randrange(len(all_pids))]
            else:
                pid = pool[min(bisect.bisect(cum, rng.random() * cum[-1]), len(pool) - 1)]
            if pid not in chosen:
                chosen.append(pid)
        computers = 0
        if rng.random() < 0.25:  # the last side is played by computers
            level = LEVELS[rng.randrange(3)]
            chosen[-per_side:] = [computer_id(level)] * per_side
            computers = per_side * (rs.seats // (rs.sides * per_side))
        sides = [
            list(dict.fromkeys(chosen[s * per_side : (s + 1) * per_side])) for s in range(rs.sides)
        ]
        strength = [sum(skill[p] for p in side) / len(side) + rng.gauss(0, 6) for side in sides]
        order = sorted(range(rs.sides), key=lambda s: -strength[s])
        draw = variant == "penalty" and rng.random() < 0.04
        ranks = [1] * rs.sides if draw else [order.index(s) + 1 for s in range(rs.sides)]
        winner = None if draw else order[0]
        target = rs.target or 0
        hands = rng.randint(4, 14)
        scores = [rng.randint(0, max(target - 1, 20)) for _ in range(rs.sides)]
        if winner is not None:
            scores[winner] = target + rng.randint(0, 40)
        finished = t0 + YEAR * (m + rng.random()) / matches
        duration = rng.uniform(300, 2400)
        match_rows.append(
            (
                table_id,
                guild_ids[g],
                variant,
                family,
                rs.seats,
                int(rs.teams),
                slots - (per_side if computers else 0),
                computers,
                hands,
                json.dumps(scores),
                winner,
                int(draw),
                "target",
                finished - duration,
                finished,
                duration,
                finished,
            )
        )
        for s, side in enumerate(sides):
            result = "draw" if draw else ("win" if s == winner else "loss")
            won = hands // 2 + (2 if result == "win" else -1)
            for pid in side:
                key = (pid, family)
                r = ratings.get(key)
                if r is None:
                    r = ratings[key] = [25.0, 25.0 / 3, 0.0]
                mu, sigma = r[0], r[1]
                step = sigma * sigma / 40.0
                r[0] = mu + (step if result == "win" else -step if result == "loss" else 0.0)
                r[0] += (skill[pid] - r[0]) * 0.02
                r[1] = max(1.2, sigma * 0.97)
                r[2] += 1
                entry_rows.append(
                    (
                        table_id,
                        pid,
                        s,
                        "[]",
                        "human" if pid > 0 else "computer",
                        result,
                        ranks[s],
                        scores[s],
                        sum(scores) - scores[s],
                        max(won, 0),
                        rng.randint(0, max(won, 0)),
                        rng.randint(0, 1),
                        mu,
                        sigma,
                        r[0],
                        r[1],
                        family,
                        finished,
                        guild_ids[g],
                        variant,
                    )
                )
        if len(match_rows) >= 100_000:
            flush()
    flush()

    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO record_ratings (player_id, family, mu, sigma, matches, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        ((pid, fam, mu, sg, int(n), t0 + YEAR) for (pid, fam), (mu, sg, n) in ratings.items()),
    )
    conn.execute("COMMIT")
    ratings.clear()
    lap("insert")
    conn.execute("BEGIN")
    entry_columns = STAGE.rsplit(", guild_id", 1)[0]
    conn.execute(
        f"INSERT INTO record_entries ({entry_columns}, name, rated)"
        f" SELECT {entry_columns}, '', 1 FROM stage"
        " ORDER BY player_id, finished_at, table_id, side"
    )
    conn.execute("COMMIT")
    lap("insert")
    # The summary lines (scope x bucket): per server, variant and player first, then roll up.
    conn.execute("BEGIN")
    conn.execute(
        "CREATE TEMP TABLE fine AS SELECT guild_id, variant, family, player_id,"
        " count(*) AS matches, sum(result = 'win') AS wins, sum(result = 'loss') AS losses,"
        " sum(result = 'draw') AS draws, sum(hands_won) AS hands_won,"
        " sum(dominoes) AS dominoes, sum(blocks_won) AS blocks_won,"
        " sum(points_for) AS points_for, sum(points_against) AS points_against,"
        " max(finished_at) AS last_at FROM stage GROUP BY guild_id, variant, player_id"
    )
    # Each person's results against each computer level, everywhere and per server.
    conn.execute("CREATE INDEX temp.stage_table ON stage (table_id)")
    conn.execute(
        "CREATE TEMP TABLE versus AS SELECT DISTINCT e.table_id, e.guild_id, e.player_id,"
        " e.result, o.player_id AS computer_id FROM stage e JOIN stage o"
        " ON o.table_id = e.table_id AND o.side <> e.side"
        " WHERE e.kind = 'human' AND o.kind = 'computer'"
    )
    for scope in ("0", "guild_id"):
        terms = (
            "guild_id, player_id, computer_id" if scope == "guild_id" else "player_id, computer_id"
        )
        conn.execute(
            "INSERT INTO record_versus (scope, player_id, computer_id, wins, losses, draws)"
            f" SELECT {scope}, player_id, computer_id, sum(result = 'win'), sum(result = 'loss'),"
            f" sum(result = 'draw') FROM versus GROUP BY {terms}"
        )
    conn.execute("DROP TABLE versus")
    conn.execute("COMMIT")
    lap("summaries")
    conn.execute("BEGIN")
    fill_periods(conn)
    conn.execute("COMMIT")
    lap("periods and seasons")
    conn.execute("BEGIN")
    conn.execute("DROP TABLE stage")
    sums = (
        "sum(matches), sum(wins), sum(losses), sum(draws), sum(hands_won), sum(dominoes),"
        " sum(blocks_won), sum(points_for), sum(points_against), max(last_at)"
    )
    columns = (
        "scope, bucket, player_id, family, matches, wins, losses, draws, hands_won, dominoes,"
        " blocks_won, points_for, points_against, last_at"
    )
    for scope in ("0", "guild_id"):
        for bucket, family in (("'all'", "NULL"), ("family", "family"), ("variant", "family")):
            terms = ", ".join(t for t in (scope, bucket, "player_id") if t[0].isalpha())
            conn.execute(
                f"INSERT INTO record_stats ({columns})"
                f" SELECT {scope}, {bucket}, player_id, {family}, {sums}"
                f" FROM fine GROUP BY {terms}"
            )
    conn.execute("DROP TABLE fine")
    conn.execute(
        "UPDATE record_stats SET best_streak = min(wins, 1 + abs(random()) % 9),"
        " streak = abs(random()) % (1 + min(wins, 1 + abs(random()) % 9))"
    )
    conn.execute(
        "UPDATE record_stats SET rating = (SELECT r.mu - 3 * r.sigma FROM record_ratings r"
        " WHERE r.player_id = record_stats.player_id AND r.family = record_stats.family)"
        " WHERE family IS NOT NULL"
    )
    # A season's rating: the all-time one, moved by an amount of its own per person and season
    # (the same on each of his lines of the season).
    conn.execute(
        "UPDATE season_lines SET rating = (SELECT r.mu - 3 * r.sigma FROM record_ratings r"
        " WHERE r.player_id = season_lines.player_id AND r.family = season_lines.family)"
        " - ((player_id / 7919 + 31 * CAST(substr(season, 8, 4) AS INTEGER)"
        " + CAST(substr(season, 13, 2) AS INTEGER)) % 500) / 100.0"
    )
    conn.execute(
        "INSERT INTO season_ratings (season, family, player_id, mu, sigma, updated_at)"
        " SELECT s.season, s.family, s.player_id, s.rating + 3 * r.sigma, r.sigma, s.last_at"
        " FROM season_lines s JOIN record_ratings r ON r.player_id = s.player_id"
        " AND r.family = s.family WHERE s.scope = 0"
    )
    # Some people left a leaderboard: 2 % the global ones, 1 % their server's.
    opt_outs = [(pid, GLOBAL, 0.0) for pid in rng.sample(all_pids, players // 50)]
    for g in range(guilds):
        for pid in members[g]:
            if rng.random() < 0.01:
                opt_outs.append((pid, guild_ids[g], 0.0))
    conn.executemany(
        "INSERT OR IGNORE INTO record_privacy (user_id, scope, created_at) VALUES (?, ?, ?)",
        opt_outs,
    )
    # Their lines carry the choice (before the indexes, which hold it).
    for table in ("record_stats", "record_periods", "season_lines"):
        conn.execute(
            f"UPDATE {table} SET hidden = 1"
            " WHERE (player_id, scope) IN (SELECT user_id, scope FROM record_privacy)"
        )
    conn.execute("COMMIT")
    lap("summaries")
    _fill_kept(conn)
    for _, sql in (*indexes, *triggers):
        conn.execute(sql)
    lap("summaries")
    conn.execute("PRAGMA analysis_limit = 1000")  # sampled statistics: the same plans, sooner
    conn.execute("ANALYZE")
    conn.execute("PRAGMA journal_mode = WAL")
    lap("indexes")
    counts = {
        t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in (
            "record_matches",
            "record_entries",
            "record_stats",
            "record_ratings",
            "record_versus",
            "record_periods",
            "season_lines",
        )
    }
    sizes = sorted(((len(members[g]), guild_ids[g]) for g in range(guilds)), reverse=True)
    busiest = conn.execute(
        "SELECT player_id, matches FROM record_stats WHERE scope = 0 AND bucket = 'all'"
        " AND player_id > 0 ORDER BY matches DESC LIMIT 1"
    ).fetchone()
    conn.close()
    return {
        "counts": counts,
        "busiest": (int(busiest[0]), int(busiest[1])),
        "big_guild": sizes[0][1],
        "big_guild_players": sizes[0][0],
        "mid_guild": sizes[len(sizes) // 2][1],
        "mid_guild_players": sizes[len(sizes) // 2][0],
        "players": all_pids,
        "phases": phases,
        "members": {guild_ids[g]: members[g] for g in range(guilds)},
    }


def _fill_kept(conn: sqlite3.Connection) -> None:
    """What the records' triggers keep, in bulk: each board's size (migration 0821) and each
    server's stamp of the pages (migration 0941: one a recorded match) and each person's figures
    on each server's pages (migration 0943), each rating board's short lines (0944), each
    season board's length (0947) and each week's and month's (0948)."""
    conn.execute("BEGIN")
    conn.execute("DELETE FROM record_board_sizes")
    conn.execute(
        "INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle, idle_rated)"
        " SELECT scope, bucket, sum(hidden = 0), sum(hidden = 0 AND rating IS NOT NULL),"
        " sum(hidden = 2), sum(hidden = 2 AND rating IS NOT NULL) FROM record_stats"
        " WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket"
    )
    conn.execute(
        "INSERT INTO web_boards (guild_id, stamp) SELECT guild_id, count(*) FROM record_matches"
        " WHERE guild_id IS NOT NULL GROUP BY guild_id"
        " ON CONFLICT (guild_id) DO UPDATE SET stamp = web_boards.stamp + excluded.stamp"
    )
    for table in BACKFILLED:
        conn.execute(f"DELETE FROM {table}")
    for version in (943, 944, 945, 946, 947, 948):
        for statement in backfill(SQLITE, version).split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("COMMIT")


#: The tables migrations 0943 (a person's figures on a server's pages), 0944 (the rating
#: boards' short lines), 0945 and 0946 (a person's kept curves and latest matches), 0947 and
#: 0948 (the season's, week's and month's boards' lengths) fill from the records already
#: written.
BACKFILLED = (
    "web_player_lines", "web_player_ratings", "web_player_versus", "record_board_short",
    "web_player_curve", "web_player_recent", "season_board_sizes", "period_board_sizes",
)


def backfill(dialect: str, version: int) -> str:
    """A migration's statements that count what the records already written hold."""
    sql = next(text for v, _, text in migrations(dialect) if v == version)
    return sql.split("-- backfill:begin")[1].split("-- backfill:end")[0]


_SUMS = (
    "count(*) AS matches, sum(result = 'win') AS wins, sum(result = 'loss') AS losses,"
    " sum(result = 'draw') AS draws, sum(points_for) AS pf, sum(points_against) AS pa,"
    " max(finished_at) AS last_at"
)
_PERIOD_KEYS = (
    "'week:' || date(finished_at, 'unixepoch', '-6 days', 'weekday 1')",
    "'month:' || strftime('%Y-%m', finished_at, 'unixepoch')",
)


def fill_periods(conn: sqlite3.Connection) -> None:
    """The week's, month's and season's lines from the staged entries: what recording the
    matches one by one writes (the migration's back-fill gives the same week and month lines),
    grouped per server, variant and person first, then rolled up to each scope and bucket."""
    calendar = SeasonCalendar()
    conn.execute(
        "CREATE TEMP TABLE human AS SELECT player_id, guild_id, variant, family, result,"
        " points_for, points_against, finished_at FROM stage"
        " WHERE kind = 'human' AND player_id > 0"
    )
    columns = (
        "period, scope, bucket, player_id, matches, wins, losses, draws, points_for,"
        " points_against, diff, last_at"
    )
    sums = (
        "sum(matches), sum(wins), sum(losses), sum(draws), sum(pf), sum(pa), sum(pf) - sum(pa),"
        " max(last_at)"
    )
    for key in _PERIOD_KEYS:
        conn.execute(
            f"CREATE TEMP TABLE pfine AS SELECT {key} AS period, guild_id, variant, family,"
            f" player_id, {_SUMS} FROM human GROUP BY period, guild_id, variant, player_id"
        )
        for scope in ("0", "guild_id"):
            for bucket in ("'all'", "family", "variant"):
                terms = ", ".join(
                    t for t in ("period", scope, bucket, "player_id") if t[0].isalpha()
                )
                conn.execute(
                    f"INSERT INTO record_periods ({columns}) SELECT period, {scope}, {bucket},"
                    f" player_id, {sums} FROM pfine GROUP BY {terms}"
                )
        if key.startswith("'month:'"):  # a season is whole months: its lines are theirs
            _fill_seasons(conn, calendar)
        conn.execute("DROP TABLE pfine")
    conn.execute("DROP TABLE human")


def _fill_seasons(conn: sqlite3.Connection, calendar: SeasonCalendar) -> None:
    """The seasons' lines (rating set later) from the months' (``pfine``)."""
    months = [str(r[0]) for r in conn.execute("SELECT DISTINCT period FROM pfine")]
    conn.execute("CREATE TEMP TABLE month_season (period TEXT PRIMARY KEY, season TEXT)")
    conn.executemany(
        "INSERT INTO month_season VALUES (?, ?)",
        [
            (m, calendar.season_of(dt.datetime.strptime(m, "month:%Y-%m").replace(
                tzinfo=dt.UTC).timestamp()).key)
            for m in months
        ],
    )
    conn.execute(
        "CREATE TEMP TABLE sfine AS SELECT s.season, p.guild_id, p.family, p.player_id,"
        " sum(p.matches) AS matches, sum(p.wins) AS wins, sum(p.losses) AS losses,"
        " sum(p.draws) AS draws, max(p.last_at) AS last_at FROM pfine p"
        " JOIN month_season s ON s.period = p.period"
        " GROUP BY s.season, p.guild_id, p.family, p.player_id"
    )
    columns = "season, scope, family, player_id, matches, wins, losses, draws, rating, last_at"
    conn.execute(
        f"INSERT INTO season_lines ({columns}) SELECT season, 0, family, player_id,"
        " sum(matches), sum(wins), sum(losses), sum(draws), 0.0, max(last_at) FROM sfine"
        " GROUP BY season, family, player_id"
    )
    conn.execute(
        f"INSERT INTO season_lines ({columns}) SELECT season, guild_id, family, player_id,"
        " matches, wins, losses, draws, 0.0, last_at FROM sfine"
    )
    conn.execute("DROP TABLE sfine")
    conn.execute("DROP TABLE month_season")


# --------------------------------------------------------------------------------- querying


async def timed(
    repeat: int, make: Callable[[int], Awaitable[Any]]
) -> tuple[float, float, float, float]:
    """(median, p99, max, median CPU) in ms of ``repeat`` calls of ``make(i)``: wall time, and
    the CPU time of this process (SQLite's work included; a PostgreSQL server's not)."""
    times: list[float] = []
    cpu: list[float] = []
    for i in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        await make(i)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    return (
        statistics.median(times),
        times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)],
        times[-1],
        statistics.median(cpu),
    )


async def measure(path: Path | str, info: dict[str, Any], repeat: int, seed: int) -> Results:
    """Time every query ``repeat`` times on the filled store at ``path`` (or database URL).

    A kept store keeps what the timing wrote (a few matches recorded); a past season's final
    places are ranked again each time."""
    rng = random.Random(seed)
    store = await Store.open(path)
    first_table = 1 + int(await store.db.fetchval("SELECT max(table_id) FROM record_matches"))
    for table in ("season_finals", "season_finals_done"):
        await store.db.execute(f"DELETE FROM {table}")
    records = Records(store)
    players: list[int] = info["players"]
    results: Results = []
    buckets = [ALL, *FAMILIES, "partners", "draw", "three"]
    scopes = [
        ("global", GLOBAL, players),
        ("biggest server", info["big_guild"], info["members"][info["big_guild"]]),
        ("middling server", info["mid_guild"], info["members"][info["mid_guild"]]),
    ]

    def board(scope: int, people: list[int], by: str, deep: bool) -> Callable[[int], Any]:
        def call(i: int) -> Awaitable[Any]:
            return records.leaderboard(
                scope=scope,
                bucket=buckets[i % len(buckets)],
                by=by,
                page=rng.randrange(1, 1000) if deep else 0,
                viewer_id=people[rng.randrange(len(people))],
            )

        return call

    def stats(guild: int | None, people: list[int]) -> Callable[[int], Any]:
        def call(i: int) -> Awaitable[Any]:
            return records.stats(people[rng.randrange(len(people))], guild_id=guild, viewer_id=0)

        return call

    def history(guild: int | None, people: list[int]) -> Callable[[int], Any]:
        def call(i: int) -> Awaitable[Any]:
            return records.history(people[rng.randrange(len(people))], guild_id=guild)

        return call

    boards = PeriodBoards(store)
    last_week = period_of("week", time.time()).previous()

    def period_board(
        scope: int, people: list[int], period: Any, deep: bool
    ) -> Callable[[int], Any]:
        def call(i: int) -> Awaitable[Any]:
            return boards.board(
                scope=scope,
                bucket=buckets[i % len(buckets)],
                period=period,
                page=rng.randrange(1, 200) if deep else 0,
                viewer_id=people[rng.randrange(len(people))],
            )

        return call

    seasons = Seasons(store)
    last_season = seasons.calendar.previous(seasons.current())

    def season_board(
        scope: int, people: list[int], period: Any, deep: bool
    ) -> Callable[[int], Any]:
        def call(i: int) -> Awaitable[Any]:
            return seasons.board(
                scope=scope,
                bucket=buckets[i % len(buckets)],
                period=period,
                page=rng.randrange(1, 200) if deep else 0,
                viewer_id=people[rng.randrange(len(people))],
            )

        return call

    async def season_line(i: int) -> Any:
        """What /domino stats adds: the current season's places and the best past finish."""
        pid = players[rng.randrange(len(players))]
        return await seasons.standing(pid), await seasons.best_finish(pid)

    async def picture(i: int) -> bytes:
        found = await records.stats(players[rng.randrange(len(players))])
        return await asyncio.to_thread(rating_chart, found.series, title="stats")

    try:
        for label, scope, people in scopes:
            for by, deep in (("rating", False), ("wins", False), ("rating", True)):
                page = "a random page" if deep else "page 1"
                name = f"leaderboard, {label}, by {by}, {page}"
                results.append((name, await timed(repeat, board(scope, people, by, deep))))
        for label, scope, people in scopes:
            for period, deep in (("week", False), ("month", False), ("month", True)):
                page = "a random page" if deep else "page 1"
                name = f"this {period}'s board, {label}, {page}"
                call = period_board(scope, people, period, deep)
                results.append((name, await timed(repeat, call)))
            name = f"last week's board (the post), {label}"
            call = period_board(scope, people, last_week, False)
            results.append((name, await timed(repeat, call)))
        for label, scope, people in scopes:
            for period, deep in ((None, False), (None, True), (last_season, False)):
                page = "a random page" if deep else "page 1"
                which = "this season's" if period is None else "last season's (the post)"
                call = season_board(scope, people, period, deep)
                results.append((f"{which} board, {label}, {page}", await timed(repeat, call)))
        past = [
            (str(r[0]), str(r[1]))
            for r in await store.db.fetchall(
                "SELECT DISTINCT season, family FROM season_lines WHERE season < ?"
                " ORDER BY season, family",
                (seasons.current().key,),
            )
        ]

        async def rank(i: int) -> None:
            async with store.transaction() as tx:
                await SeasonRepo(tx.db).rank_finals(*past[i])

        name = f"a past season's final places, ranked once ({len(past)} boards)"
        results.append((name, await timed(len(past), rank)))
        results.append(("stats: the season line and best finish", await timed(repeat, season_line)))
        for label, scope, people in scopes[:2]:
            guild = None if scope == GLOBAL else scope
            name = f"stats + rating curves, {label}"
            results.append((name, await timed(repeat, stats(guild, people))))
            name = f"history (10 latest), {label}"
            results.append((name, await timed(repeat, history(guild, people))))
        busiest, played = info["busiest"]
        name = f"stats, the busiest person ({played:,} matches)"
        results.append((name, await timed(repeat, stats(info["big_guild"], [busiest]))))
        hard = [computer_id("hard")]
        results.append(("stats, computer:hard (busiest)", await timed(repeat, stats(None, hard))))
        results.append(("history, computer:hard", await timed(repeat, history(None, hard))))
        results.append(("stats + picture (thread)", await timed(repeat, picture)))
        results.append(
            (
                "record a match into the full store",
                await timed(repeat, lambda i: record_one(records, first_table + i, info, rng)),
            )
        )
    finally:
        await store.close()
    return results


class Explaining:
    """A statement runner that runs each read through the wrapped one, timed, and keeps its
    plan: SQLite's query plan, or PostgreSQL's with the actual times (EXPLAIN ANALYZE)."""

    def __init__(self, db: Any, postgres: bool) -> None:
        self._db = db
        self._postgres = postgres
        self.seen: list[tuple[str, float, list[str]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    async def _plan(self, sql: str, params: Any, run: Callable[[], Awaitable[Any]]) -> Any:
        start = time.perf_counter()
        found = await run()
        ms = (time.perf_counter() - start) * 1000
        how = "EXPLAIN (ANALYZE, BUFFERS) " if self._postgres else "EXPLAIN QUERY PLAN "
        rows = await self._db.fetchall(how + sql, params)
        plan = [str(r[0]) if self._postgres else str(r[-1]) for r in rows]
        self.seen.append((sql, ms, plan))
        return found

    async def fetchall(self, sql: str, params: Any = ()) -> Any:
        return await self._plan(sql, params, lambda: self._db.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        return await self._plan(sql, params, lambda: self._db.fetchone(sql, params))

    async def fetchval(self, sql: str, params: Any = ()) -> Any:
        return await self._plan(sql, params, lambda: self._db.fetchval(sql, params))


async def explain(path: Path | str, info: dict[str, Any], seed: int) -> str:
    """Each statement of the boards' slowest calls, its time and its plan."""
    rng = random.Random(seed)
    store = await Store.open(path)
    postgres = store.dialect == "postgres"
    spy = Explaining(store.db, postgres)
    store.db = spy
    players: list[int] = info["players"]
    seasons, boards = Seasons(store), PeriodBoards(store)
    calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        (
            "leaderboard, global, by rating, page 500",
            lambda: Records(store).leaderboard(scope=GLOBAL, page=500, viewer_id=players[7]),
        ),
        (
            "this month's board, global, page 150",
            lambda: boards.board(scope=GLOBAL, period="month", page=150, viewer_id=players[7]),
        ),
        (
            "this season's board, global, page 150",
            lambda: seasons.board(scope=GLOBAL, page=150, viewer_id=players[7]),
        ),
        (
            "stats: the season line and best finish",
            lambda: seasons.standing(players[rng.randrange(len(players))]),
        ),
    ]
    out: list[str] = []
    try:
        for name, call in calls:
            spy.seen.clear()
            await call()
            out.append(f"== {name} ({store.dialect})")
            for sql, ms, plan in spy.seen:
                out.append(f"-- {ms:.2f} ms: {sql}")
                out += [f"   {line}" for line in plan]
    finally:
        await store.close()
    return "\n".join(out)


async def record_one(records: Records, i: int, info: dict[str, Any], rng: random.Random) -> bool:

    people = info["members"][info["big_guild"]]
    four = rng.sample(people, 4) if len(people) >= 4 else rng.sample(info["players"], 4)
    now = time.time()
    parts = tuple(
        Participant(
            pid,
            f"p{pid}",
            "human",
            k % 2,
            (k,),
            "win" if k % 2 == 0 else "loss",
            1 + k % 2,
            100,
            40,
            3,
            1,
            1,
        )
        for k, pid in enumerate(four)
    )
    rec = MatchRecord(
        table_id=i,
        guild_id=info["big_guild"],
        variant="partners",
        family="partnership",
        seats=4,
        teams=True,
        people=4,
        computers=0,
        hands=6,
        scores=(100, 40),
        winner_side=0,
        draw=False,
        reason="target",
        started_at=now - 900,
        finished_at=now,
        side_ranks=(1, 2),
        participants=parts,
    )
    return await records.record_match(rec)


# ----------------------------------------------------------------------------------- report


Results = list[tuple[str, tuple[float, float, float, float]]]


def report(results: Results, repeat: int, title: str = "query") -> str:
    width = max(len(name) for name, _ in results)
    lines = [
        f"{title:<{width}}  {'median':>8}  {'p99':>8}  {'max':>8}  {'CPU':>8}"
        f"   (ms, {repeat} runs; CPU: this process's, median)"
    ]
    for name, (med, p99, top, cpu) in results:
        mark = "ok" if med < TARGET_MS else "SLOW"
        lines.append(f"{name:<{width}}  {med:8.2f}  {p99:8.2f}  {top:8.2f}  {cpu:8.2f}   {mark}")
    return "\n".join(lines)


def compare(sqlite: Results, postgres: Results) -> str:
    """Medians side by side, and PostgreSQL's time as a multiple of SQLite's."""
    width = max(len(name) for name, _ in sqlite)
    lines = [f"{'median, ms':<{width}}  {'SQLite':>8}  {'Postgres':>8}  {'ratio':>6}"]
    for (name, (a, *_)), (_, (b, *_)) in zip(sqlite, postgres, strict=True):
        mark = "ok" if max(a, b) < TARGET_MS else "SLOW"
        lines.append(f"{name:<{width}}  {a:8.2f}  {b:8.2f}  {b / max(a, 1e-6):5.1f}x  {mark}")
    return "\n".join(lines)


async def copy_to(path: Path, url: str) -> float:
    """Copy the filled SQLite file into the empty database at ``url``; the seconds it took."""
    from bot.tools.copydb import copy_database

    start = time.perf_counter()
    store = await Store.open(url)  # migrated, empty: its secondary indexes wait for the rows
    try:
        indexes = await store.db.fetchall(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            " AND (tablename LIKE 'record_%' OR tablename LIKE 'season_%')"
            " AND indexname NOT IN (SELECT conname FROM pg_constraint)"
        )
        for name, _ in indexes:
            await store.db.execute(f"DROP INDEX {name}")
    finally:
        await store.close()
    await copy_database(sqlite_url(path), url, say=lambda line: None)  # ends with VACUUM ANALYZE
    store = await Store.open(url)
    try:
        for _, sql in indexes:
            await store.db.execute(sql)
        await store.db.execute("ANALYZE")
    finally:
        await store.close()
    return time.perf_counter() - start


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.records", description=__doc__)
    parser.add_argument("--players", type=int, default=100_000, help="people (100,000)")
    parser.add_argument("--matches", type=int, default=1_000_000, help="matches (1,000,000)")
    parser.add_argument("--guilds", type=int, default=300, help="servers (300)")
    parser.add_argument("--repeat", type=int, default=100, help="runs of each query (100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"where the filled stores are kept and reused ({DEFAULT_CACHE})",
    )
    parser.add_argument("--fresh", action="store_true", help="fill again, even if kept")
    parser.add_argument(
        "--explain", action="store_true", help="also print the boards' statements and plans"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="also time the queries on PostgreSQL: an empty database (postgresql://…), temp (a"
        " throw-away server, filled by copy at each run) or kept (a server whose cluster is"
        " kept in --cache, filled by copy once)",
    )
    args = parser.parse_args(argv)
    url = args.database_url
    if url and url not in ("temp", "kept") and not url.startswith(POSTGRES_SCHEMES):
        print("--database-url must be a postgresql:// URL, temp or kept", file=sys.stderr)
        return 2
    args.copied = None
    if url == "kept":
        kept = args.cache / f"{cache_key(args)}.pg"
        if args.fresh or not (kept / COPIED).exists():
            shutil.rmtree(kept, ignore_errors=True)  # nothing, or a copy cut short
        args.copied = kept / COPIED
        with kept_postgres(kept) as args.database_url:
            return run(args)
    if url:
        from benchmarks.bot import postgres_url

        with postgres_url(url) as args.database_url:
            return run(args)
    return run(args)


@contextlib.contextmanager
def kept_postgres(root: Path) -> Iterator[str]:
    """A PostgreSQL server on the cluster kept in ``root`` (made there if missing)."""
    from tests.pg import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL 15+ programs (initdb, pg_ctl) for --database-url kept")
    with PostgresServer(bindir, root=root) as server:
        yield server.url()


def cache_key(args: argparse.Namespace) -> str:
    """The kept store's name: the filling's version, sizes and seed."""
    return (
        f"records-v{GENERATOR}-{args.players}p-{args.matches}m-{args.guilds}g-seed{args.seed}"
    )


def filled(args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """The kept store for ``args`` (filled now if missing, or with ``--fresh``) and what the
    queries need to know of it. A newer checkout's migrations are applied to a kept store."""
    args.cache.mkdir(parents=True, exist_ok=True)
    key = cache_key(args)
    path, about = args.cache / f"{key}.sqlite3", args.cache / f"{key}.json"
    if args.fresh or not about.exists():
        about.unlink(missing_ok=True)
        part = path.with_suffix(".part")
        for old in (path, part, *(Path(f"{p}{x}") for p in (path, part) for x in ("-wal", "-shm"))):
            old.unlink(missing_ok=True)
        start = time.perf_counter()
        asyncio.run(_migrate(part))
        info = fill(part, args.players, args.matches, args.guilds, args.seed)
        info["seconds"] = time.perf_counter() - start
        part.rename(path)
        about.write_text(json.dumps(info))
        built = "filled"
    else:
        info = json.loads(about.read_text())
        info["members"] = {int(k): v for k, v in info["members"].items()}
        built = "kept from an earlier run (--fresh fills again); it was filled"
    asyncio.run(_migrate(path))
    counts = info["counts"]
    print(
        f"{built} in {info['seconds']:.0f} s: {args.players:,} players,"
        f" {counts['record_matches']:,} matches, {counts['record_entries']:,} entries,"
        f" {counts['record_stats']:,} summary lines, {counts['record_periods']:,} week and month"
        f" lines, {counts['season_lines']:,} season lines, {args.guilds} servers (biggest"
        f" {info['big_guild_players']:,} players, middling {info['mid_guild_players']:,});"
        f" {path.stat().st_size / 2**20:,.0f} MiB, {path}"
    )
    print("  " + ", ".join(f"{k} {v:.0f} s" for k, v in info["phases"].items()))
    return path, info


def run(args: argparse.Namespace) -> int:
    """Fill (or reuse the kept store), time on SQLite, and with ``args.database_url`` copy
    (or reuse a kept copy) and time on PostgreSQL."""
    print(f"load average at the start: {load()}")
    path, info = filled(args)
    print(f"load average: {load()}")
    if args.explain:
        print(asyncio.run(explain(path, info, args.seed)))
    results = asyncio.run(measure(path, info, args.repeat, args.seed))
    print(report(results, args.repeat, "SQLite"))
    print(f"load average: {load()}", flush=True)
    if args.database_url:
        where = redact_url(args.database_url)
        if args.copied is not None and args.copied.exists():
            print(f"the copy kept in {args.copied.parent} ({where})")
            asyncio.run(_migrate(args.database_url))
        else:
            seconds = asyncio.run(copy_to(path, args.database_url))
            print(f"copied to {where} and analysed in {seconds:.0f} s")
            if args.copied is not None:
                args.copied.write_text(f"{seconds:.0f} s\n")
        print(f"load average: {load()}", flush=True)
        if args.explain:
            print(asyncio.run(explain(args.database_url, info, args.seed)))
        on_pg = asyncio.run(measure(args.database_url, info, args.repeat, args.seed))
        print(report(on_pg, args.repeat, "PostgreSQL"))
        print(f"load average: {load()}")
        print(compare(results, on_pg))
        results = results + on_pg
    slow = sorted({name for name, (med, *_) in results if med >= TARGET_MS})
    if slow:
        print(f"over {TARGET_MS:.0f} ms: {', '.join(slow)}")
    return 0


async def _migrate(path: Path | str) -> None:
    store = await Store.open(path)
    await store.close()


if __name__ == "__main__":
    raise SystemExit(main())
