"""LOG_LEVEL=DEBUG never writes an interaction token (or a private payload) to the log."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.log import LIBRARY_FLOOR, QUIET, RedactTokens, setup_logging
from tests.cogs.helpers import factory, open_hand
from tests.cogs.test_privacy import started_match
from tests.fakediscord import FakeDiscord, running_bot


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """The bot's logging set up as ``LOG_LEVEL=DEBUG`` would, into a buffer (restored after)."""
    root = logging.getLogger()
    names = [*LIBRARY_FLOOR, *QUIET]
    saved = root.level, root.handlers[:], {n: logging.getLogger(n).level for n in names}
    buffer = io.StringIO()
    setup_logging("DEBUG", stream=buffer)
    try:
        yield buffer
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        level, handlers, levels = saved
        root.setLevel(level)
        for handler in handlers:
            root.addHandler(handler)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)


async def test_a_debug_run_logs_no_interaction_token(
    fake_discord: FakeDiscord, tmp_path: Path, debug_log: io.StringIO
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        tid = await started_match(fake, bot, alice, bob)
        hand = await open_hand(fake, bot, bob, tid)
        logging.getLogger("bot.test").debug("the bot's own debug lines are kept")
    log = debug_log.getvalue()
    assert "the bot's own debug lines are kept" in log and "discord.gateway" in log
    tokens = [r.token for r in fake.interactions]
    assert len(tokens) >= 4
    assert [t for t in tokens if t in log] == []
    assert hand.message is not None and hand.message.text() not in log


def test_the_filter_blanks_tokens() -> None:
    record = logging.LogRecord(
        "discord.http",
        logging.DEBUG,
        __file__,
        1,
        "POST %s with %s",
        (
            "https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb246MTIz/callback",
            '{"token": "aW50ZXJhY3Rpb24", "a": 1}',
        ),
        None,
    )
    RedactTokens().filter(record)
    assert record.getMessage() == (
        "POST https://discord.com/api/v10/interactions/123/[redacted]/callback"
        ' with {"token": "[redacted]", "a": 1}'
    )
    bot_token = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "token " + bot_token, None, None)
    RedactTokens().filter(record)
    assert bot_token not in record.getMessage()
