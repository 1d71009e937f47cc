"""Passwords of the database never show: not in ``repr(Settings)``, a log line, a traceback or
a message, whatever form the URL gives them."""

from __future__ import annotations

import io
import logging
import string
import traceback
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.log import RedactingFormatter, redact
from bot.settings import Settings, SettingsError, load_settings, redact_secrets, redact_url
from bot.store.connection import DatabaseUnavailable, connect

SECRET = "hunter2-Secret"

#: Every way a PostgreSQL URL (or a libpq string) can carry a password.
FORMS = [
    f"postgresql://bot:{SECRET}@db.example:5432/domino",
    f"postgres://:{SECRET}@db.example/domino",
    f"postgresql://bot@db.example/domino?password={SECRET}",
    f"postgresql://bot@db.example/domino?sslmode=require&sslpassword={SECRET}",
    f"postgresql://bot@db.example/domino?PASSWORD={SECRET}&application_name=x",
    f"postgresql://bot@db.example/domino?passwd={SECRET}#frag",
    f"postgresql://bot:{SECRET}@db-a:5432,db-b:5433/domino",  # several hosts
    f"postgresql://bot:p@ss/{SECRET}@db.example/domino",  # "@" and "/" not percent-encoded
    f"postgresql://bot:{SECRET}@db.example:port/domino",  # a port that is no number
    f"postgresql://bot:{SECRET}@[::1/domino",  # a broken IPv6 host
    f"host=db.example password='{SECRET} x' dbname=domino",
    f'{{"password": "{SECRET}", "host": "db.example"}}',
    f"PGPASSWORD={SECRET}",
]
#: Passwords holding a character a URL cannot carry as it is (not percent-encoded).
RAW = [
    f"postgresql://bot:p@ss/{SECRET}@db.example/domino",
    f"postgresql://bot:{SECRET} x@db.example/domino",
    f"postgresql://bot:a b {SECRET}@db.example:5432/domino?sslmode=require",
    f"postgresql://bot:a#{SECRET}@db.example/domino",
    f"postgresql://bot:{SECRET}#x@db.example/domino",
    f"postgresql://bot:a?{SECRET}@db.example/domino",
    f"postgresql://bot:?#@ {SECRET}/@db.example/domino",
]
FORMS += [*RAW[1:], f"postgresql://bot@db.example/domino?password=ab#{SECRET}"]


@pytest.mark.parametrize("url", FORMS)
def test_every_password_form_is_redacted(url: str) -> None:
    shown = redact_url(url)
    assert SECRET not in shown and "***" in shown
    assert "db.example" in shown or "db-a" in shown or "PGPASSWORD" in shown or "[::1" in shown


def test_what_is_kept_of_a_url() -> None:
    """The user, host, port, database and other options stay: what an operator needs."""
    assert redact_url(f"postgresql://bot:{SECRET}@db:5432/domino?sslmode=require") == (
        "postgresql://bot:***@db:5432/domino?sslmode=require"
    )
    assert redact_url(f"postgresql://bot@db/domino?password={SECRET}&sslmode=require") == (
        "postgresql://bot@db/domino?password=***&sslmode=require"
    )
    for clean in ("sqlite:///data/domino.sqlite3", "postgresql://bot@db:5432/x?a=b@c"):
        assert redact_url(clean) == clean


PASSWORD_CHARS = st.text(
    alphabet=st.sampled_from(
        string.ascii_letters + string.digits + "!$%&()*+,-.:;<=>@[]^_`{|}~/ #?"
    ),
    min_size=1,
    max_size=30,
)


@given(password=PASSWORD_CHARS, host=st.sampled_from(["db", "db:5432", "[::1]:5", "a,b:7"]))
def test_any_userinfo_password_is_redacted(password: str, host: str) -> None:
    """Property: whatever characters the password holds (percent-encoded or not), the URL is
    shown as ``scheme://user:***@host/db``."""
    assert redact_url(f"postgresql://bot:{password}@{host}/domino") == (
        f"postgresql://bot:***@{host}/domino"
    )


@given(st.text(max_size=80))
def test_redaction_never_raises(text: str) -> None:
    """Property: any text at all (a URL Python's parser would refuse included) is redacted
    without an error."""
    assert isinstance(redact_url(text), str) and isinstance(redact(text), str)


@pytest.mark.parametrize("url", [f for f in FORMS if f.startswith("postgres") and f not in RAW])
def test_settings_repr_hides_the_database_password(url: str) -> None:
    settings = load_settings(None, environ={"DATABASE_URL": url, "DISCORD_TOKEN": "t0ken"})
    assert settings.database_url == url  # the driver still gets it whole
    for shown in (repr(settings), str(settings), f"{settings}", f"{[settings]}"):
        assert SECRET not in shown and "t0ken" not in shown and "database_url=" in shown
    assert settings == load_settings(None, environ={"DATABASE_URL": url, "DISCORD_TOKEN": "t0ken"})
    assert SECRET not in repr(Settings(None, None, None, "INFO", database_url=url))


def test_a_logged_traceback_is_redacted() -> None:
    """The formatted record is redacted: its message, its arguments, the exception's text
    and every line of its traceback."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(RedactingFormatter("%(levelname)s %(message)s"))
    log = logging.getLogger("tests.secrets")
    log.addHandler(handler)
    log.propagate = False
    url = FORMS[2]
    try:
        try:
            raise ConnectionError(f"cannot connect to {url}")
        except ConnectionError:
            log.exception("store %s failed", FORMS[0])
        log.error("stack", stack_info=True, extra={})
        log.warning("options %s", {"password": SECRET})
    finally:
        log.removeHandler(handler)
        log.propagate = True
    text = buffer.getvalue()
    assert "Traceback" in text and "ConnectionError: cannot connect to postgresql://" in text
    assert SECRET not in text and text.count("***") >= 3


def test_redact_secrets_is_what_the_log_uses() -> None:
    line = f"connect {FORMS[0]} and {FORMS[3]}"
    assert redact(line) == redact_secrets(line) and SECRET not in redact(line)


@pytest.mark.parametrize("url", RAW)
def test_a_password_a_url_cannot_carry_is_refused_when_settings_load(url: str) -> None:
    """Not percent-encoded, the driver would read part of the password as the host, the port,
    the query or the fragment: the settings ask for percent-encoding, naming no password."""
    with pytest.raises(SettingsError, match="percent-encode it") as refused:
        load_settings(None, environ={"DATABASE_URL": url, "DISCORD_TOKEN": "t0ken"})
    assert SECRET not in str(refused.value) and "db.example" in str(refused.value)
    encoded = "postgresql://bot:" + quote(url.split(":", 2)[2].rsplit("@", 1)[0], safe="")
    encoded += "@" + url.rsplit("@", 1)[1]
    settings = load_settings(None, environ={"DATABASE_URL": encoded, "DISCORD_TOKEN": "t"})
    assert settings.database_url == encoded


@pytest.mark.parametrize("url", [
    f"postgresql://bot:{SECRET}#x@127.0.0.1:1/domino",  # the password read as the port
    f"postgresql://bot:x/{SECRET}@127.0.0.1:1/domino",
    f"postgresql://bot:x?{SECRET}@127.0.0.1:1/domino",  # read as the query
])
async def test_the_drivers_parse_error_is_raised_redacted(url: str) -> None:
    """A URL that did not go through the settings (the driver itself refuses to read it):
    the error names no part of the password, nor does its traceback."""
    with pytest.raises(DatabaseUnavailable, match="percent-encode") as refused:
        await connect(url)
    shown = "".join(traceback.format_exception(refused.value))
    assert SECRET not in shown and "cannot read the PostgreSQL URL postgresql://bot:***@" in shown
