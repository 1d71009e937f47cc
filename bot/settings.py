"""Settings read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_PATH = "data/domino.sqlite3"
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    discord_token: str | None
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    render_processes: int = 0  # 0: pictures in worker threads; N: in a pool of N processes


def parse_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    """Read ``KEY=value`` lines; ``#`` comments, blank lines, ``export`` and quotes allowed.

    A missing file gives an empty mapping.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def load_settings(
    env_file: str | os.PathLike[str] | None = ".env",
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build :class:`Settings`; real environment variables win over the ``.env`` file."""
    values: dict[str, str] = dict(parse_env_file(env_file)) if env_file is not None else {}
    env = os.environ if environ is None else environ
    values.update({k: v for k, v in env.items() if k in _KEYS})

    token = values.get("DISCORD_TOKEN", "").strip() or None

    database_path = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)

    guild_raw = values.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (digits only), not {guild_raw!r}; "
                "leave it empty to sync commands globally."
            )
        dev_guild_id = int(guild_raw)

    level = (values.get("LOG_LEVEL", "").strip() or DEFAULT_LOG_LEVEL).upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")

    processes_raw = values.get("RENDER_PROCESSES", "").strip() or "0"
    if not processes_raw.isdigit() or int(processes_raw) > 64:
        raise SettingsError(
            f"RENDER_PROCESSES must be a number from 0 to 64, not {processes_raw!r}."
        )

    return Settings(
        discord_token=token,
        database_path=database_path,
        dev_guild_id=dev_guild_id,
        log_level=level,
        render_processes=int(processes_raw),
    )


_KEYS = frozenset(
    {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "RENDER_PROCESSES"}
)
