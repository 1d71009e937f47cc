"""Session fixtures shared by the test folders: a throw-away PostgreSQL server.

The store, service and records tests run against both backends through the parametrised
``database_url`` fixture (``tests/bot/conftest.py``). Without PostgreSQL's programs the
PostgreSQL half is skipped (the reason is one line of the summary); under ``CI=true`` it fails.
"""

from __future__ import annotations

import asyncio
import fcntl
import itertools
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pg import PostgresServer, find_bindir

SHARED = "domino_test"  # migrated once per session, emptied before each test
NO_POSTGRES = (
    "PostgreSQL 15+ server programs (initdb, pg_ctl) not found: the PostgreSQL half of the store"
    " tests is skipped (apt-get install postgresql-15, or set PG_BINDIR)"
)
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _no_command_ids_of_an_earlier_test() -> Iterator[None]:
    """Each test starts with no command ids known (a bot of an earlier test synced its own)."""
    from bot.i18n import commands

    commands.forget()
    yield
    commands.forget()


@pytest.fixture(autouse=True)
def _no_logging_into_closed_captures() -> None:
    """Drop root log handlers left writing to an earlier test's closed output capture (code
    under test may set logging up on the ``sys.stderr`` of its own test)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        stream = getattr(handler, "stream", None)
        if isinstance(handler, logging.StreamHandler) and getattr(stream, "closed", False):
            root.removeHandler(handler)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "alone: the test runs with no other test at the same time, whatever the number of"
        " test processes (it measures what the machine's other work would disturb)",
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With several test processes (``-n``), a test marked ``alone`` waits for the test
    running in every other process to end, and none starts until it has ended.

    Two locks shared by the run's processes: every test holds the room (shared, the
    ``alone`` test alone), and passes through the gate to enter it (an ``alone`` test holds
    the gate while it waits for the room and while it runs, so that no test enters
    meanwhile)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        yield
        return
    base = Path(tempfile.gettempdir()) / f"domino-tests-{run}"
    alone = item.get_closest_marker("alone") is not None
    with open(f"{base}.gate", "a") as gate, open(f"{base}.room", "a") as room:
        fcntl.flock(gate, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(room, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


def pytest_report_header(config: pytest.Config) -> str:
    bindir = find_bindir()
    return f"postgresql: {bindir}" if bindir else f"postgresql: {NO_POSTGRES}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line for the whole skipped PostgreSQL half (not one per test)."""
    skipped = [
        r
        for r in terminalreporter.stats.get("skipped", [])
        if isinstance(r.longrepr, tuple) and NO_POSTGRES in str(r.longrepr[2])
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} tests skipped: {NO_POSTGRES}", yellow=True)


async def _admin(url: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def _empty(url: str) -> None:
    """Delete every row but the schema's version and restart the id sequences (a few ms)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch(
            "SELECT quote_ident(tablename) FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename <> 'schema_version'"
        )
        sequences = await conn.fetch(
            "SELECT quote_ident(sequencename) FROM pg_sequences WHERE schemaname = 'public'"
        )
        script = ["SET session_replication_role = replica"]  # no foreign-key order needed
        script += [f"DELETE FROM {r[0]}" for r in tables]
        script += [f"ALTER SEQUENCE {r[0]} RESTART" for r in sequences]
        async with conn.transaction():
            await conn.execute("; ".join(script))
    finally:
        await conn.close()


def _run_in_a_thread(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a coroutine to the end on its own loop (the caller's loop may be running)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session, with the migrated template database."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(NO_POSTGRES.replace("is skipped", "cannot run under CI"))
        pytest.skip(NO_POSTGRES)
    server = PostgresServer(bindir)
    try:
        server.start()
    except Exception as exc:
        server.stop()
        detail = getattr(exc, "stderr", "") or server.log_tail()
        pytest.fail(f"the test PostgreSQL server did not start: {exc}\n{detail}")

    async def prepare() -> None:
        from bot.store import Store

        await _admin(server.url(), f"CREATE DATABASE {SHARED}")
        store = await Store.open(server.url(SHARED))
        await store.close()

    try:
        _run_in_a_thread(prepare)
        yield server
    finally:
        server.stop()


class PostgresDatabases:
    """The session's migrated database, emptied for each test; fresh empty ones on demand."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.made: list[str] = []

    def migrated(self) -> str:
        """The shared migrated database, with no rows left by an earlier test."""
        url = self.server.url(SHARED)
        _run_in_a_thread(lambda: _empty(url))
        return url

    def create(self) -> str:
        """A new database with nothing in it (dropped after the test)."""
        name = f"test_{os.getpid()}_{next(_names)}"
        _run_in_a_thread(
            lambda: _admin(self.server.url(), f"CREATE DATABASE {name} TEMPLATE template0")
        )
        self.made.append(name)
        return self.server.url(name)

    def drop_all(self) -> None:
        names, self.made = self.made, []
        if names:
            drops = [f"DROP DATABASE IF EXISTS {n} WITH (FORCE)" for n in names]
            _run_in_a_thread(lambda: _admin(self.server.url(), *drops))


@pytest.fixture
def postgres_databases(postgres_server: PostgresServer) -> Iterator[PostgresDatabases]:
    """Databases for one test (sync: callable from async fixtures via getfixturevalue)."""
    made = PostgresDatabases(postgres_server)
    yield made
    made.drop_all()
