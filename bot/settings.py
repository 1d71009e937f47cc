"""Settings read from the environment and an optional ``.env`` file.

The file is parsed by ``python-dotenv`` (quotes, ``export``, ``#`` comments, a byte-order mark);
the values are checked here and gathered in one typed, frozen :class:`Settings`. The bot token is
a :class:`pydantic.SecretStr`: it never shows in a ``repr``, a traceback's locals or a log line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values
from pydantic import SecretStr

from bot.limits import Limits
from bot.workers.pools import machine_processes

DEFAULT_DATABASE_PATH = "data/domino.sqlite3"
DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_DATABASE_PATH}"
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_SHARDS = 4096
SQLITE_SCHEME = "sqlite"
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
DEFAULT_WEB_RATE = 120
DEFAULT_DISCORD_RATE = 45
POSTGRES_SCHEMES = ("postgresql", "postgres")


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True, slots=True, repr=False)
class Settings:
    """Everything the bot reads from its environment.

    ``database_url`` is the database to use; when it is left empty it is the SQLite file at
    ``database_path``. ``shard_count`` None lets Discord choose; ``shard_ids`` None means this
    process holds every shard.
    """

    discord_token: SecretStr | None
    database_path: Path | None
    dev_guild_id: int | None
    log_level: str
    render_processes: int = 0  # 0: pictures in worker threads; N: in a pool of N processes
    database_url: str = ""
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = field(default=None)
    # Computer players and hints think in this many processes (default: one per core);
    # 0: in worker threads of the bot's own process.
    ai_processes: int = field(default_factory=machine_processes)
    limits: Limits = field(default_factory=Limits)  # what one person or server may keep open
    shard_lease_seconds: float = 30.0  # a shard's lease lasts this long unless renewed
    # Bot-token requests a second the whole bot (every process) sends at most: below Discord's
    # global limit (50 unless Discord raised it for the bot).
    discord_rate: int = DEFAULT_DISCORD_RATE
    web_host: str = DEFAULT_WEB_HOST  # where `python -m bot web` listens
    web_port: int = DEFAULT_WEB_PORT
    web_base_url: str = ""  # the pages' public address ("": the bot links to no page)
    web_rate_limit: int = DEFAULT_WEB_RATE  # requests a minute per client address (0: off)
    web_forwarded: bool = False  # trust the reverse proxy's X-Forwarded-For for the address
    tournaments_per_server: int = 3  # tournaments not over that one server may have at once
    tournament_entrants: int = 256  # the most entrants of one tournament
    season_months: int = 3  # a season's length in months
    season_start: str = "2026-01"  # the first month of season 1 (the others follow it)

    def __post_init__(self) -> None:
        if isinstance(self.discord_token, str):
            object.__setattr__(self, "discord_token", SecretStr(self.discord_token))
        if not self.database_url:
            path = self.database_path or Path(DEFAULT_DATABASE_PATH)
            object.__setattr__(self, "database_url", sqlite_url(path))
        if self.database_path is None and self.database_url.startswith(f"{SQLITE_SCHEME}:"):
            object.__setattr__(self, "database_path", sqlite_path(self.database_url))

    def __repr__(self) -> str:
        """The fields, with the token hidden and the database URL's passwords redacted."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["database_url"] = redact_url(self.database_url)
        shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
        return f"Settings({shown})"

    def token(self) -> str:
        """The bot token in clear, for logging in to Discord only ("" when unset)."""
        return "" if self.discord_token is None else self.discord_token.get_secret_value()


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """``sqlite:///relative/file`` or ``sqlite:////absolute/file`` for a path."""
    return f"{SQLITE_SCHEME}:///{Path(path).as_posix()}"


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///…`` URL (three slashes: relative, four: absolute)."""
    prefix = f"{SQLITE_SCHEME}:///"
    if not url.startswith(prefix) or len(url) == len(prefix):
        raise SettingsError(
            f"a SQLite DATABASE_URL looks like sqlite:///data/domino.sqlite3, not {url!r}."
        )
    return Path(url[len(prefix) :])


# ``scheme://user:password@host``: the password runs to the last "@" of its line (it may hold
# "@", "/", ":", "?", "#" or a space when it was not percent-encoded).
_USERINFO = re.compile(
    r"(?P<head>\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@'\"]*:)(?P<password>[^\r\n'\"]*)@"
)
# What a URL's password may hold as it is (RFC 3986 userinfo): the rest is percent-encoded.
_USERINFO_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*")
# ``password=…``, ``sslpassword=…``, ``PGPASSWORD=…``, ``"passwd": "…"``, ``pwd=…``: as a URL's
# query, a libpq connection string, JSON or an environment line (the value runs on over a "#").
_PASSWORD_KEY = re.compile(
    r"(?P<key>\b[\w.\-]*(?:pass(?:word|wd)?|pwd)[\"']?\s*[=:]\s*)"
    r"(?:'[^']*'|\"[^\"]*\"|[^\s&'\",;}]+)",
    re.IGNORECASE,
)
REDACTED = "***"


def redact_secrets(text: str) -> str:
    """``text`` with every password it holds replaced by ``***``: a URL's userinfo password
    and password keys (``password``, ``passwd``, ``sslpassword``, ``pwd``, …) in a query,
    connection string or payload. Never raises."""
    text = _USERINFO.sub(lambda m: f"{m['head']}{REDACTED}@", text)
    return _PASSWORD_KEY.sub(lambda m: f"{m['key']}{REDACTED}", text)


def redact_url(url: str) -> str:
    """The URL with its passwords replaced by ``***`` (for logs and messages); never raises."""
    return redact_secrets(str(url))


def check_database_url(url: str, key: str = "DATABASE_URL") -> str:
    """Return ``url`` if it names a SQLite file or a PostgreSQL database, else explain."""
    scheme = url.partition(":")[0].lower()
    if scheme == SQLITE_SCHEME:
        sqlite_path(url)
        return url
    if scheme in POSTGRES_SCHEMES and url[len(scheme) :].startswith("://"):
        found = _USERINFO.match(url)
        if (found is not None and not _USERINFO_CHARS.fullmatch(found["password"])) or any(
            c.isspace() for c in url
        ):
            raise SettingsError(
                f"{key} holds a character a URL cannot carry as it is (a space, #, ?, @ or / "
                "in the password, say): percent-encode it (a space is %20, # is %23, ? is %3F, "
                f"@ is %40, / is %2F), in {redact_url(url)!r}."
            )
        return url
    raise SettingsError(
        f"{key} must be sqlite:///path/to/file.sqlite3 or postgresql://user:password@host/db,"
        f" not {redact_url(url)!r}."
    )


def parse_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    """The ``KEY=value`` pairs of a dotenv file (a missing file gives an empty mapping)."""
    if not Path(path).is_file():
        return {}
    return {k: v or "" for k, v in dotenv_values(path, encoding="utf-8").items()}


_SHARD_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_shard_ids(text: str, shard_count: int | None) -> tuple[int, ...]:
    """``"0,1"`` or ``"0-3"`` (or a mix: ``"0-2,5"``) as sorted distinct shard ids."""
    if shard_count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT: the total number of shards.")
    ids: set[int] = set()
    for part in text.split(","):
        match = _SHARD_RANGE.match(part)
        if match is None:
            raise SettingsError(
                f"SHARD_IDS must be shard numbers like 0,1 or a range like 0-3, not {text!r}."
            )
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            raise SettingsError(f"SHARD_IDS range {part.strip()!r} runs backwards.")
        if high >= shard_count:
            raise SettingsError(
                f"SHARD_IDS {text!r} names shard {high}, but shards are numbered 0 to"
                f" {shard_count - 1} when SHARD_COUNT is {shard_count}."
            )
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def _number(values: Mapping[str, str], key: str, low: int, high: int) -> int | None:
    raw = values.get(key, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise SettingsError(f"{key} must be a number from {low} to {high}, not {raw!r}.")
    return int(raw)


def load_settings(
    env_file: str | os.PathLike[str] | None = ".env",
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build :class:`Settings`; real environment variables win over the ``.env`` file."""
    values: dict[str, str] = dict(parse_env_file(env_file)) if env_file is not None else {}
    env = os.environ if environ is None else environ
    values.update({k: v for k, v in env.items() if k in KEYS})

    token = values.get("DISCORD_TOKEN", "").strip() or None

    path_raw = values.get("DATABASE_PATH", "").strip()
    url_raw = values.get("DATABASE_URL", "").strip()
    if url_raw:
        url = check_database_url(url_raw)
        if path_raw and url != sqlite_url(path_raw):
            raise SettingsError(
                "DATABASE_PATH and DATABASE_URL name different databases; keep only"
                " DATABASE_URL (DATABASE_PATH=file is the same as DATABASE_URL=sqlite:///file)."
            )
    else:
        url = sqlite_url(path_raw or DEFAULT_DATABASE_PATH)

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

    render_processes = _number(values, "RENDER_PROCESSES", 0, 64) or 0
    ai_processes = _number(values, "AI_PROCESSES", 0, 64)
    if ai_processes is None:
        ai_processes = machine_processes()
    shard_count = _number(values, "SHARD_COUNT", 1, MAX_SHARDS)
    shard_raw = values.get("SHARD_IDS", "").strip()
    shard_ids = parse_shard_ids(shard_raw, shard_count) if shard_raw else None
    limits = Limits(
        **{
            name: value
            for name, key, high in _LIMIT_KEYS
            if (value := _number(values, key, 0, high)) is not None
        }
    )
    lease = _number(values, "SHARD_LEASE_SECONDS", 3, 3600) or 30
    discord_rate = _number(values, "DISCORD_RATE_LIMIT", 1, 100_000) or DEFAULT_DISCORD_RATE
    web_port = _number(values, "WEB_PORT", 1, 65535) or DEFAULT_WEB_PORT
    web_rate = _number(values, "WEB_RATE_LIMIT", 0, 1_000_000)
    forwarded = values.get("WEB_FORWARDED", "").strip().lower()
    if forwarded not in ("", "0", "1", "no", "yes", "false", "true", "off", "on"):
        raise SettingsError(f"WEB_FORWARDED must be on or off, not {forwarded!r}.")

    return Settings(
        discord_token=SecretStr(token) if token else None,
        database_path=None,
        dev_guild_id=dev_guild_id,
        log_level=level,
        render_processes=render_processes,
        database_url=url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        ai_processes=ai_processes,
        limits=limits,
        shard_lease_seconds=float(lease),
        discord_rate=discord_rate,
        web_host=values.get("WEB_HOST", "").strip() or DEFAULT_WEB_HOST,
        web_port=web_port,
        web_base_url=check_base_url(values.get("WEB_BASE_URL", "").strip()),
        web_rate_limit=DEFAULT_WEB_RATE if web_rate is None else web_rate,
        web_forwarded=forwarded in ("1", "yes", "true", "on"),
        tournaments_per_server=_number(values, "TOURNAMENTS_PER_SERVER", 1, 100) or 3,
        tournament_entrants=_number(values, "TOURNAMENT_ENTRANTS", 2, 4096) or 256,
        season_months=_number(values, "SEASON_MONTHS", 1, 12) or 3,
        season_start=_season_start(values.get("SEASON_START", "").strip() or "2026-01"),
    )


def _season_start(text: str) -> str:
    """The first month of season 1, checked (``2026-01``)."""
    found = re.fullmatch(r"([0-9]{4})-([0-9]{2})", text)
    if found is None or not 1 <= int(found[2]) <= 12 or int(found[1]) < 1970:
        raise SettingsError(f"SEASON_START must be a month like 2026-01, not {text!r}.")
    return text


def check_base_url(url: str) -> str:
    """The web pages' public address without its trailing slash ("" when unset)."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise SettingsError(
            "WEB_BASE_URL must be the pages' address, like https://domino.example.org,"
            f" not {url!r}."
        )
    return url.rstrip("/")


# Limits (see bot.limits; 0 turns one off): the field, its environment key, its largest value.
_LIMIT_KEYS = (
    ("lobbies_per_user", "LOBBIES_PER_USER", 1000),
    ("matches_per_user", "MATCHES_PER_USER", 1000),
    ("tables_per_server", "TABLES_PER_SERVER", 100_000),
    ("cooldown", "NEW_TABLE_COOLDOWN", 3600),
)

KEYS = frozenset(
    {
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "RENDER_PROCESSES",
        "AI_PROCESSES",
        "SHARD_COUNT",
        "SHARD_IDS",
        "LOBBIES_PER_USER",
        "MATCHES_PER_USER",
        "TABLES_PER_SERVER",
        "NEW_TABLE_COOLDOWN",
        "SHARD_LEASE_SECONDS",
        "DISCORD_RATE_LIMIT",
        "WEB_HOST",
        "WEB_PORT",
        "WEB_BASE_URL",
        "WEB_RATE_LIMIT",
        "WEB_FORWARDED",
        "TOURNAMENTS_PER_SERVER",
        "TOURNAMENT_ENTRANTS",
        "SEASON_MONTHS",
        "SEASON_START",
    }
)
