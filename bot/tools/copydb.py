"""``python -m bot copy-db --from URL --to URL``: copy every row between two databases.

Typically from the SQLite file to PostgreSQL when a bot outgrows one machine (or back). Both
databases are brought to the current schema first; the target must hold no rows. Tables are
copied parents first, in batches (PostgreSQL receives them with ``COPY``); tables the database
fills itself by triggers are left to the target's triggers. Then the copy is
checked: the same number of rows in every table, and every stored match replayed from the
target's seed and action log to the same action log, hand results and outcome as the source's.
Stop the bot while copying: rows written meanwhile would be missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.settings import SettingsError, check_database_url, sqlite_path, sqlite_url
from bot.store import POSTGRES, DatabaseUnavailable, Store
from bot.store.schema import COUNTERS, KEPT_BY_TRIGGERS, TableShape, describe, parents_first
from domino import Match, Ruleset

BATCH = 5000
PROGRESS_EVERY = 500_000  # rows between two progress lines of a big table

Say = Callable[[str], None]


class CopyError(RuntimeError):
    """The copy cannot start or did not check out; the message says why."""


@dataclass
class CopyReport:
    """What was copied and checked."""

    rows: dict[str, int] = field(default_factory=dict)
    matches_replayed: int = 0
    seconds: float = 0.0


def _normal(value: Any) -> Any:
    """JSON-shaped data as stored (tuples become lists) for comparisons."""
    return json.loads(json.dumps(value))


async def _count(store: Store, table: str) -> int:
    return int(await store.db.fetchval(f"SELECT count(*) FROM {table}"))


def _converter(target: TableShape) -> Callable[[Any], tuple[Any, ...]]:
    """Row → tuple for the target, floats where its columns are floating point."""
    floats = [i for i, c in enumerate(target.columns) if c in target.float_columns]

    def convert(row: Any) -> tuple[Any, ...]:
        values = list(row)
        for i in floats:
            if values[i] is not None:
                values[i] = float(values[i])
        return tuple(values)

    return convert


async def _check_shapes(source: Store, target: Store) -> dict[str, TableShape]:
    src, dst = await describe(source.driver), await describe(target.driver)
    if set(src) != set(dst):
        only_source, only_target = sorted(set(src) - set(dst)), sorted(set(dst) - set(src))
        raise CopyError(
            f"the databases have different tables: only in the source {only_source},"
            f" only in the target {only_target}"
        )
    for name, shape in src.items():
        if set(shape.columns) != set(dst[name].columns):
            raise CopyError(f"table {name} has different columns in the two databases")
    filled = {name: n for name in dst if (n := await _count(target, name))}
    if filled:
        listed = ", ".join(f"{name} ({n})" for name, n in sorted(filled.items()))
        raise CopyError(
            f"the target database is not empty: {listed}. copy-db only fills an empty database."
        )
    return dst


async def _copy_table(source: Store, target: Store, shape: TableShape, say: Say) -> int:
    columns = ", ".join(shape.columns)
    order = ", ".join(shape.columns[:1])  # deterministic batches
    convert = _converter(shape)
    copied = 0
    async for rows in source.driver.stream(
        f"SELECT {columns} FROM {shape.name} ORDER BY {order}", BATCH
    ):
        await target.driver.insert_rows(shape.name, shape.columns, [convert(r) for r in rows])
        copied += len(rows)
        if copied % PROGRESS_EVERY < len(rows):
            say(f"{shape.name}: {copied} rows so far")
    if shape.identity and target.dialect == POSTGRES:
        await target.db.execute(
            f"SELECT setval(pg_get_serial_sequence('{shape.name}', '{shape.identity}'),"
            f" coalesce((SELECT max({shape.identity}) FROM {shape.name}), 0) + 1, false)"
        )
    return copied


async def _replay_all(source: Store, target: Store) -> int:
    """Replay every match of the target; it must agree with the source's stored match."""
    ids = [int(r[0]) for r in await target.db.fetchall("SELECT table_id FROM matches")]
    for table_id in sorted(ids):
        theirs, ours = await source.matches.get(table_id), await target.matches.get(table_id)
        if theirs != ours or ours is None:
            raise CopyError(f"match {table_id} differs between the two databases")
        log = [a.action for a in await target.actions.list(table_id)]
        if log != [a.action for a in await source.actions.list(table_id)]:
            raise CopyError(f"match {table_id}: the action logs differ")
        try:
            match = Match.replay(Ruleset.from_dict(ours.ruleset), ours.seed, log, ours.deal)
        except Exception as exc:  # a log the engine refuses
            raise CopyError(f"match {table_id} does not replay: {exc}") from exc
        stored = [h.result for h in await target.hand_results.list(table_id)]
        if stored != _normal([h.to_dict() for h in match.hand_results]):
            raise CopyError(f"match {table_id}: the hand results do not match its replay")
        if ours.outcome is not None and (
            match.outcome is None or _normal(match.outcome.to_dict()) != ours.outcome
        ):
            raise CopyError(f"match {table_id}: the outcome does not match its replay")
    return len(ids)


async def _verify(source: Store, target: Store, shapes: dict[str, TableShape]) -> int:
    for name in shapes:
        if name in COUNTERS:
            continue
        if (n := await _count(target, name)) != (m := await _count(source, name)):
            raise CopyError(f"table {name}: {m} rows in the source, {n} in the target")
    return await _replay_all(source, target)


async def verify_copy(source_url: str, target_url: str) -> int:
    """Check a copy: equal row counts, every match replays the same; the matches replayed."""
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            return await _verify(source, target, await describe(target.driver))
        finally:
            await target.close()
    finally:
        await source.close()


async def copy_database(source_url: str, target_url: str, say: Say = print) -> CopyReport:
    """Copy every row of ``source_url`` into the empty ``target_url`` and check the copy."""
    if source_url == target_url:
        raise CopyError("--from and --to name the same database")
    source_file = sqlite_path(source_url) if source_url.startswith("sqlite:") else None
    if source_file is not None and not source_file.is_file():
        raise CopyError(f"there is no database at {source_file}")
    started = time.perf_counter()
    report = CopyReport()
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            shapes = await _check_shapes(source, target)
            for name in parents_first(shapes):
                if name in KEPT_BY_TRIGGERS or name in COUNTERS:
                    continue  # filled by the target's triggers as the rows they count arrive
                report.rows[name] = await _copy_table(source, target, shapes[name], say)
                say(f"{name}: {report.rows[name]} rows")
            report.matches_replayed = await _verify(source, target, shapes)
            if target.dialect == POSTGRES:  # fresh statistics and visibility map
                say("VACUUM ANALYZE …")
                await target.db.execute("VACUUM ANALYZE")
        finally:
            await target.close()
    finally:
        await source.close()
    report.seconds = time.perf_counter() - started
    say(
        f"Copied {sum(report.rows.values())} rows in {len(report.rows)} tables in"
        f" {report.seconds:.1f} s; counts agree and {report.matches_replayed} matches replay"
        " the same."
    )
    return report


def database_argument(text: str) -> str:
    """A ``--from``/``--to`` value: a database URL or a SQLite file path."""
    if "://" not in text:
        return sqlite_url(text)
    try:
        return check_database_url(text, "the database URL")
    except SettingsError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def copy_db_main(source: str, target: str, say: Say = print) -> int:
    """The command: 0 when copied and checked, 1 with one line saying why not."""
    import asyncpg

    try:
        asyncio.run(copy_database(source, target, say))
    except CopyError as exc:
        say(f"copy-db failed: {exc}")
        return 1
    except DatabaseUnavailable as exc:
        say(f"copy-db failed: {exc}")
        return 1
    except (OSError, sqlite3.Error, asyncpg.PostgresError) as exc:  # lost on the way
        say(f"copy-db failed: {type(exc).__name__}: {exc}")
        return 1
    return 0
