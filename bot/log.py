"""Logging set-up for the bot process."""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def setup_logging(level: str = "INFO") -> None:
    """Log to stderr at ``level``, keeping discord.py's HTTP chatter quiet."""
    logging.basicConfig(level=level, format=FORMAT, force=True)
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("aiosqlite").setLevel(logging.WARNING)
