"""On PostgreSQL, a person's page on a big server reads his own rows, whatever plan the server
keeps for a prepared statement: never every match of the server."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from bot.servers.settings import ServerSettings
from bot.store import Store
from bot.store.connection import numbered_placeholders
from bot.web.reader import Reader
from tests.conftest import PostgresDatabases

BIG = 555  # a big server
PERSON = 4242  # one public match on BIG, many elsewhere
MATCHES = 30_000

# A big server among many small ones, a person among many: the server's matches stored, then
# the planner's statistics. While they are stored, the triggers that keep the pages' figures
# look their rows up by index whatever statistics the database holds: a table last analyzed
# while nearly empty would otherwise be scanned whole for each of the 60,000 entries.
FILL = f"""
SET enable_seqscan = off;
INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, created_at, updated_at,
                    public_place)
  SELECT i, CASE WHEN i % 3 = 0 THEN {BIG} ELSE 1000 + i % 299 END, 7, 1, 'draw', 'finished',
         i, i, 1
  FROM generate_series(1, {MATCHES}) i;
INSERT INTO record_matches (table_id, guild_id, variant, family, seats, teams, people, computers,
                            hands, scores, winner_side, draw, reason, started_at, finished_at,
                            duration, recorded_at)
  SELECT i, CASE WHEN i % 3 = 0 THEN {BIG} ELSE 1000 + i % 299 END, 'draw', 'two-player', 2, 2,
         2, 0, 1, '[100,0]', 0, 0, 'target', i, i, 60, i
  FROM generate_series(1, {MATCHES}) i;
INSERT INTO record_entries (player_id, finished_at, table_id, side, family, seats, name, kind,
                            result, rank, points_for, points_against, hands_won, dominoes,
                            blocks_won, rated, mu_before, sigma_before, mu_after, sigma_after)
  SELECT CASE WHEN s = 0 AND (i = 3 OR (i % 3 <> 0 AND i % 100 = 1)) THEN {PERSON}
              ELSE 10000 + (i * 7 + s) % 600 END,
         i, i, s, 'two-player', '[0]', 'x', 'human', CASE WHEN s = 0 THEN 'win' ELSE 'loss' END,
         s + 1, 100, 0, 1, 1, 0, 1, 25, 8, 26, 7.9
  FROM generate_series(1, {MATCHES}) i, generate_series(0, 1) s;
INSERT INTO record_players (player_id, name, kind, updated_at) VALUES ({PERSON}, 'P', 'human', 0);
INSERT INTO record_stats (scope, bucket, player_id, matches, last_at)
  VALUES ({BIG}, 'all', {PERSON}, 1, 3);
INSERT INTO achievements (player_id, code, table_id, guild_id, earned_at)
  SELECT 10000 + i % 600, 'first-win', i, NULL, i FROM generate_series(1, 600) i;
RESET enable_seqscan;
ANALYZE;
"""


class Recording:
    """A real connection that notes the statements run through it."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self.seen: list[tuple[str, Sequence[Any]]] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._db, name)
        if not callable(found):  # (its dialect)
            return found

        async def run(sql: str, params: Sequence[Any] = ()) -> Any:
            self.seen.append((sql, params))
            return await found(sql, params)

        return run


def scans(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if "Scan" in node["Node Type"]:
        yield node
    for child in node.get("Plans", ()):
        yield from scans(child)


async def test_a_persons_page_on_a_big_server_reads_his_rows_not_the_servers(
    postgres_databases: PostgresDatabases,
) -> None:
    """Each statement of his page, with the plan PostgreSQL keeps for a prepared statement
    after five runs (a generic plan), reads his own rows and looks up their tables."""
    import asyncpg

    url = postgres_databases.migrated()
    store = await Store.open(url)
    try:
        await store.db.run_script(FILL)
        await ServerSettings(store).update(BIG, web=True)
    finally:
        await store.close()
    reader = Reader(url)
    opened = await reader._open()
    recording = Recording(opened.db)
    opened.db = recording
    try:
        server = await reader.server(BIG)
        assert server is not None
        page = await reader.player(server, PERSON)
    finally:
        await reader.close()
    assert page is not None and [h.table_id for h in page.history] == [3]
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET plan_cache_mode = force_generic_plan")  # what runs 6 on get
        for number, (sql, params) in enumerate(recording.seen):
            if str(PERSON) not in map(str, params):
                continue  # the server's settings
            literals = ", ".join(
                "'" + p.replace("'", "''") + "'" if isinstance(p, str) else str(p) for p in params
            )
            await conn.execute(f"PREPARE page{number} AS {numbered_placeholders(sql)}")
            (plan,) = json.loads(await conn.fetchval(
                f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE page{number}({literals})"
            ))
            read = {
                (n.get("Relation Name"), n.get("Index Name")): n["Actual Rows"] * n["Actual Loops"]
                for n in scans(plan["Plan"])
            }
            # His ~200 entries, not the server's 10,000 matches.
            assert sum(read.values()) < 1_000, (sql, read)
    finally:
        await conn.close()
