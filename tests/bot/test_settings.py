"""Settings: the .env file (python-dotenv), checks with clear messages, the secret token."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import (
    DEFAULT_DATABASE_PATH,
    DEFAULT_DATABASE_URL,
    KEYS,
    Settings,
    SettingsError,
    load_settings,
    parse_env_file,
    redact_url,
)

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIz.secret-token.value"


def test_env_file_parsing(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n\nDISCORD_TOKEN=abc.def\nexport DATABASE_PATH='x y/z.db'\n"
        'LOG_LEVEL="debug"\nDEV_GUILD_ID=123 # my server\n',
        encoding="utf-8",
    )
    assert parse_env_file(env) == {
        "DISCORD_TOKEN": "abc.def",
        "DATABASE_PATH": "x y/z.db",
        "LOG_LEVEL": "debug",
        "DEV_GUILD_ID": "123",
    }
    s = load_settings(env, environ={})
    assert s == Settings("abc.def", Path("x y/z.db"), 123, "DEBUG")
    assert s.database_url == "sqlite:///x y/z.db"


def test_quoted_value_with_a_comment_loses_its_quotes(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=\"abc\" # my bot\nLOG_LEVEL='warning'  # quiet\n")
    s = load_settings(env, environ={})
    assert s.token() == "abc" and s.log_level == "WARNING"


def test_a_byte_order_mark_does_not_hide_the_first_key(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes("\ufeffDISCORD_TOKEN=abc\r\nDEV_GUILD_ID=42\r\n".encode())
    s = load_settings(env, environ={})
    assert s.token() == "abc" and s.dev_guild_id == 42


def test_defaults_and_environment_wins(tmp_path: Path) -> None:
    s = load_settings(tmp_path / "missing.env", environ={})
    assert s == Settings(None, Path(DEFAULT_DATABASE_PATH), None, "INFO")
    assert s.database_url == DEFAULT_DATABASE_URL == "sqlite:///data/domino.sqlite3"
    assert s.shard_count is None and s.shard_ids is None and s.token() == ""
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\n", encoding="utf-8")
    assert load_settings(env, environ={"DISCORD_TOKEN": "from-env"}).token() == "from-env"
    assert load_settings(None, environ={"RENDER_PROCESSES": "2"}).render_processes == 2
    assert load_settings(None, environ={"AI_PROCESSES": "2"}).ai_processes == 2
    assert load_settings(None, environ={"AI_PROCESSES": "0"}).ai_processes == 0  # threads


def test_computers_think_in_a_pool_sized_for_the_machine_by_default() -> None:
    """Our decision: by default computer players and hints think in one process per core."""
    cores = len(os.sched_getaffinity(0))
    assert load_settings(None, environ={}).ai_processes == cores
    assert Settings(None, None, None, "INFO").ai_processes == cores


def test_the_token_never_shows(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s = load_settings(None, environ={"DISCORD_TOKEN": TOKEN})
    assert TOKEN not in repr(s) and TOKEN not in str(s) and TOKEN not in f"{s!r}{s.discord_token}"
    assert s.token() == TOKEN
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("test").info("settings: %s", s)
    assert TOKEN not in caplog.text
    assert TOKEN not in repr(Settings(TOKEN, None, None, "INFO"))


def test_database_url_and_its_older_synonym() -> None:
    pg = "postgresql://bot:pw@db.example:5432/domino"
    s = load_settings(None, environ={"DATABASE_URL": pg})
    assert s.database_url == pg and s.database_path is None
    s = load_settings(None, environ={"DATABASE_URL": "sqlite:////srv/bot/domino.sqlite3"})
    assert s.database_path == Path("/srv/bot/domino.sqlite3")
    s = load_settings(None, environ={"DATABASE_PATH": "/srv/bot/domino.sqlite3"})
    assert s.database_url == "sqlite:////srv/bot/domino.sqlite3"
    both = {"DATABASE_PATH": "a.sqlite3", "DATABASE_URL": "sqlite:///a.sqlite3"}
    assert load_settings(None, environ=both).database_path == Path("a.sqlite3")
    assert redact_url(pg) == "postgresql://bot:***@db.example:5432/domino"
    assert redact_url("sqlite:///x.db") == "sqlite:///x.db"


def test_shards() -> None:
    s = load_settings(None, environ={"SHARD_COUNT": "4", "SHARD_IDS": "0-2"})
    assert s.shard_count == 4 and s.shard_ids == (0, 1, 2)
    s = load_settings(None, environ={"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1 "})
    assert s.shard_ids == (1, 3)
    s = load_settings(None, environ={"SHARD_COUNT": "2"})
    assert s.shard_count == 2 and s.shard_ids is None  # this process holds every shard


@pytest.mark.parametrize(
    ("environ", "key"),
    [
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"RENDER_PROCESSES": "many"}, "RENDER_PROCESSES"),
        ({"RENDER_PROCESSES": "65"}, "RENDER_PROCESSES"),
        ({"AI_PROCESSES": "two"}, "AI_PROCESSES"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL"),
        ({"DATABASE_URL": "sqlite:///"}, "DATABASE_URL"),
        ({"DATABASE_URL": "sqlite:///a", "DATABASE_PATH": "b"}, "DATABASE_PATH"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "one"}, "SHARD_IDS"),
    ],
)
def test_bad_settings_are_explained(environ: dict[str, str], key: str) -> None:
    with pytest.raises(SettingsError, match=key):
        load_settings(None, environ=environ)


def test_a_bad_url_message_hides_its_password() -> None:
    with pytest.raises(SettingsError) as exc:
        load_settings(None, environ={"DATABASE_URL": "mysql://u:hunter2@h/db"})
    assert "hunter2" not in str(exc.value) and "***" in str(exc.value)


def test_bad_setting_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SHARD_IDS", "0")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("Bad setting: SHARD_IDS needs SHARD_COUNT") and TOKEN not in out + err


def test_env_example_documents_every_key() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    keys = parse_env_file(ROOT / ".env.example")
    assert set(keys) == KEYS
    assert keys["DISCORD_TOKEN"] == ""
    for key in keys:  # a comment right above each key (or above its group)
        before = text.split(f"\n{key}=")[0].rstrip().splitlines()[-1]
        assert before.startswith("#") or "=" in before, key
    assert load_settings(ROOT / ".env.example", environ={}).database_url == DEFAULT_DATABASE_URL
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{key}`" in readme for key in keys)
