"""Logging set-up for the bot process.

``LOG_LEVEL=DEBUG`` shows the bot's own debug lines. discord.py's loggers stay at INFO at
least whatever the level: at DEBUG they write every gateway event and every HTTP request in
full, with interaction tokens (which let anyone answer as the bot for 15 minutes) and the
contents of private messages such as a player's hand. As a second guard, every line is
redacted once formatted (its traceback included): interaction and webhook tokens, anything
shaped like a bot token, and passwords (a database URL's, ``password=`` keys).
"""

from __future__ import annotations

import logging
import re
from typing import TextIO

from bot.settings import redact_secrets

__all__ = [
    "FORMAT",
    "LIBRARY_FLOOR",
    "RedactTokens",
    "RedactingFormatter",
    "redact",
    "setup_logging",
]

FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
# Loggers kept at INFO at least: discord.py's payload dumps live in gateway, http and webhook.
LIBRARY_FLOOR = ("discord", "discord.gateway", "discord.http", "discord.webhook")
QUIET = {"aiosqlite": logging.WARNING, "asyncpg": logging.WARNING}

_SECRETS = re.compile(
    r"(?P<path>/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+"  # interaction/webhook tokens
    r"|(?P<key>[\"']?token[\"']?\s*[:=]\s*[\"']?)[^\"'\s,}]+"  # "token": "…" in a payload
    r"|[A-Za-z0-9_\-]{23,28}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,}"  # a bot token
)


def _redact(match: re.Match[str]) -> str:
    prefix = match["path"] or match["key"] or ""
    return f"{prefix}[redacted]"


def redact(text: str) -> str:
    """``text`` without tokens or passwords."""
    return redact_secrets(_SECRETS.sub(_redact, text))


class RedactTokens(logging.Filter):
    """Blanks tokens and passwords in a record's message (the record is changed in place)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


class RedactingFormatter(logging.Formatter):
    """Formats a record, then blanks tokens and passwords in the whole text: the message, the
    traceback of its exception and its stack."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def setup_logging(level: str = "INFO", stream: TextIO | None = None) -> None:
    """Log to ``stream`` (stderr) at ``level``; discord.py never below INFO, tokens redacted."""
    logging.basicConfig(level=level, format=FORMAT, force=True, stream=stream)
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactTokens())
        handler.setFormatter(RedactingFormatter(FORMAT))
    floor = max(logging.getLevelName(level), logging.INFO)
    for name in LIBRARY_FLOOR:
        logging.getLogger(name).setLevel(floor)
    for name, quiet in QUIET.items():
        logging.getLogger(name).setLevel(quiet)
