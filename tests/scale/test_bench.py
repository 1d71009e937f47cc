"""``python -m benchmarks.bot --database-url … --bot-processes 1,2`` runs (a tiny run)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bot import main


def test_bot_processes_share_one_postgresql(
    postgres_databases: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_databases.migrated()
    argv = ["--database-url", url, "--bot-processes", "1,2", "--tables", "4"]
    assert main([*argv, "--think", "0", "--seconds", "0.5", "--no-render"]) == 0
    out = capsys.readouterr().out
    assert "1 bot process(es)" in out and "2 bot process(es)" in out and "== SQLite" in out
    assert out.count(" actions/s (") == 3
    assert "actions/s against 1 process on PostgreSQL: 2:" in out
