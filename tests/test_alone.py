"""With two test processes, a test marked ``alone`` (``tests/conftest.py``) runs while no other
test runs: checked on a run of its own, in a subprocess, of tests that log when they start and
end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TESTS = '''
import os
import time

import pytest


def _log(name: str, phase: str) -> None:
    with open(os.environ["ALONE_LOG"], "a") as log:
        log.write(f"{name} {phase} {time.monotonic()} {os.environ['PYTEST_XDIST_WORKER']}\\n")


@pytest.mark.parametrize("n", range(8))
def test_beside(n: int) -> None:
    _log(f"beside{n}", "start")
    time.sleep(0.2)
    _log(f"beside{n}", "end")


@pytest.mark.alone
@pytest.mark.parametrize("n", range(2))
def test_alone(n: int) -> None:
    _log(f"alone{n}", "start")
    time.sleep(0.3)
    _log(f"alone{n}", "end")
'''

CONFTEST = "from tests.conftest import pytest_configure, pytest_runtest_protocol  # noqa: F401\n"


def test_an_alone_test_runs_with_no_other_test_beside_it(tmp_path: Path) -> None:
    (tmp_path / "test_logged.py").write_text(TESTS)
    (tmp_path / "conftest.py").write_text(CONFTEST)
    log = tmp_path / "log.txt"
    env = {**os.environ, "ALONE_LOG": str(log), "PYTHONPATH": str(ROOT)}
    for key in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_TESTRUNUID", "PYTEST_ADDOPTS"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    spans: dict[str, list[float]] = {}
    workers = set()
    for line in log.read_text().splitlines():
        name, phase, at, worker = line.split()
        spans.setdefault(name, [0.0, 0.0])[phase == "end"] = float(at)
        workers.add(worker)
    assert len(spans) == 10 and workers == {"gw0", "gw1"}
    for name, (start, end) in spans.items():
        if name.startswith("alone"):
            others = [o for o, (s, e) in spans.items() if o != name and s < end and start < e]
            assert others == [], (name, others)
