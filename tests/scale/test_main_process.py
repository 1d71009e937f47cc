"""``python -m bot`` as the operator runs it, against the fake Discord (or no Discord at all):
a wrong token, no network or an unreachable database is one clear line and a non-zero exit;
no password of the database reaches the output, at start-up or in an error."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord
from tests.scale.cluster import GUARD, ROOT

__all__ = ["fake_discord"]

SECRET = "hunter2-Secret"


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def python_m_bot(
    folder: Path, discord_url: str, *, until: str | None = None, **env: str
) -> tuple[int, str]:
    """Run ``python -m bot`` (its REST and gateway at ``discord_url``); with ``until``, stop it
    (SIGTERM) once its standard error shows that text. Returns the exit status and stderr."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")
    }
    environ.update(PYTHONPATH=str(ROOT), FAKE_DISCORD_URL=discord_url, LOG_LEVEL="INFO", **env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.scale.main",
        "--env-file",
        str(folder / "none.env"),
        cwd=folder,
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stderr is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(GUARD):  # a hang; a busy machine starts it slowly
            async for raw in proc.stderr:
                lines.append(raw.decode(errors="replace"))
                if until is not None and until in lines[-1]:
                    proc.send_signal(signal.SIGTERM)
            await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return int(proc.returncode or 0), "".join(lines)


def errors_of(stderr: str) -> list[str]:
    """The lines that are not a log record (what the bot printed for the operator)."""
    return [line for line in stderr.splitlines() if line and not line[:4].isdigit()]


async def test_no_network_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    code, err = await python_m_bot(
        tmp_path, f"http://127.0.0.1:{closed_port()}", DISCORD_TOKEN="some-token"
    )
    assert code == 1, err
    assert "Traceback" not in err and len(err.splitlines()) <= 3, err
    (line,) = errors_of(err)
    assert line.startswith("Cannot reach Discord: no connection to 127.0.0.1:")
    assert line.endswith(
        "Check the network connection (and any proxy or firewall), then start the bot again."
    )


async def test_a_wrong_token_is_one_line_and_a_non_zero_exit(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    code, err = await python_m_bot(tmp_path, fake_discord.url, DISCORD_TOKEN="not-the-token")
    assert code == 2 and "Traceback" not in err, err
    assert errors_of(err) == [
        "Discord refused DISCORD_TOKEN: reset the token in the developer portal and put the new"
        " one in .env."
    ]
    assert not fake_discord.identify_payloads  # it never reached the gateway


async def test_an_unreachable_database_hides_its_passwords(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    url = (
        f"postgresql://bot:{SECRET}1@127.0.0.1:{closed_port()}/domino"
        f"?sslpassword={SECRET}2&password={SECRET}3"
    )
    code, err = await python_m_bot(
        tmp_path, fake_discord.url, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=url
    )
    assert code == 2 and "Traceback" not in err, err
    assert SECRET not in err
    (line,) = errors_of(err)
    assert line.startswith("cannot open the PostgreSQL database postgresql://bot:***@127.0.0.1:")
    assert "?sslpassword=***&password=***" in line


async def test_the_start_up_log_hides_the_password(
    fake_discord: FakeDiscord, tmp_path: Path, postgres_databases: Any
) -> None:
    """A real start on PostgreSQL with ``?password=`` in DATABASE_URL (the test server trusts
    local connections, so any password logs in), stopped once the store is open."""
    url = f"{postgres_databases.migrated()}?password={SECRET}"
    code, err = await python_m_bot(
        tmp_path,
        fake_discord.url,
        until="open table(s) of shard(s)",
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=url,
    )
    assert "open table(s) of shard(s)" in err and "?password=***" in err, err
    assert SECRET not in err and code == 0, err


@pytest.mark.parametrize("token", ["", "   "])
async def test_no_token_is_still_one_line(tmp_path: Path, token: str) -> None:
    code, err = await python_m_bot(tmp_path, "http://127.0.0.1:9", DISCORD_TOKEN=token)
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("DISCORD_TOKEN is not set")
