"""A throw-away PostgreSQL server for the tests and benchmarks: ``initdb`` + ``pg_ctl``.

The server lives in a temporary folder, listens on a free local port and is stopped (and its
folder removed) at the end. ``initdb`` refuses to run as root: as root, the server runs as the
``postgres`` system user. :func:`find_bindir` says where the programs are, or None.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

SERVER_USER = "postgres"  # the system account the server runs as when we are root
SUPERUSER = "postgres"  # the database superuser initdb creates
CANDIDATE_BINDIRS = ("/usr/lib/postgresql/{v}/bin", "/usr/pgsql-{v}/bin", "/opt/postgresql{v}/bin")


def find_bindir() -> Path | None:
    """The folder of ``initdb``/``pg_ctl`` of PostgreSQL 15 or newer, or None."""
    found: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        found.append(Path(os.environ["PG_BINDIR"]))
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True
            ).stdout.strip()
            found.append(Path(out))
        except (OSError, subprocess.CalledProcessError):
            pass
    for version in range(20, 14, -1):
        found += [Path(p.format(v=version)) for p in CANDIDATE_BINDIRS]
    on_path = shutil.which("initdb")
    if on_path:
        found.append(Path(on_path).parent)
    for bindir in found:
        if (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file():
            return bindir
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One running PostgreSQL cluster; :meth:`url` names a database on it."""

    def __init__(self, bindir: Path, *, durable: bool = False, root: Path | None = None) -> None:
        self.bindir = bindir
        self.durable = durable  # False: no fsync (tests); True: PostgreSQL's defaults
        self.port = _free_port()
        # A given folder is kept: its cluster is reused by the next server started on it.
        self.kept = root is not None
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)
        self.root = root or Path(tempfile.mkdtemp(prefix="domino-pg-"))
        self.data = self.root / "data"
        self._as_other_user = os.geteuid() == 0
        self._started = False

    def _run(self, args: Sequence[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        command = [str(a) for a in args]
        if self._as_other_user:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        return subprocess.run(  # type: ignore[call-overload]
            command, capture_output=True, text=True, check=True, cwd=self.root, **kwargs
        )

    def start(self) -> PostgresServer:
        """initdb (trust authentication, no fsync: a test server; not again in a kept folder
        that has a cluster) and start; wait until ready."""
        if self._as_other_user:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o700)
        if not (self.data / "PG_VERSION").exists():
            self._run(
                [
                    self.bindir / "initdb",
                    "-D",
                    self.data,
                    "-U",
                    SUPERUSER,
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
            " -c max_connections=200 -c shared_buffers=128MB"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            [
                self.bindir / "pg_ctl",
                "-D",
                self.data,
                "-o",
                options,
                "-l",
                self.root / "log",
                "-w",
                "-t",
                "600" if self.kept else "60",
                "start",
            ]
        )
        self._started = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join((self.root / "log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server and remove its folder (a kept folder: a clean shutdown, kept)."""
        if self._started:
            mode = "fast" if self.kept else "immediate"
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run([self.bindir / "pg_ctl", "-D", self.data, "-m", mode, "stop"])
            self._started = False
        if not self.kept:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
