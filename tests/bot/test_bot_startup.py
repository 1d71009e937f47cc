"""Settings, the command line, the offline demo and the client's extension loading."""

from __future__ import annotations

import gc
import io
import logging
import os
import subprocess
import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bot.__main__ import NO_TOKEN, main
from bot.client import DominoBot, discover_extensions
from bot.settings import Settings
from bot.tools import demo
from bot.tools.demo import run_demo
from domino import View
from tests.scale.cluster import GUARD

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------- command line


def test_no_token_prints_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == NO_TOKEN + "\n"


def test_no_token_as_a_real_process(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert proc.returncode == 2
    assert proc.stdout == "" and proc.stderr.strip() == NO_TOKEN
    assert "Traceback" not in proc.stderr


def test_readme_says_the_python_needed_next_to_the_first_commands() -> None:
    """The version pyproject.toml requires is said before the first commands' explanation."""
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert required == ">=3.11"
    readme = (ROOT / "README.md").read_text()
    first_commands = readme.index("python3 -m venv")
    said = readme.find("Python 3.11 or newer")
    assert said >= 0 and abs(said - first_commands) < 400, readme[:600]


# ------------------------------------------------------------------------------------ demo


async def test_demo_plays_a_match_and_draws_every_move(tmp_path: Path) -> None:
    seen: list[tuple[View, list[str]]] = []

    def fake_render(view: View, names: list[str]) -> bytes:
        seen.append((view, names))
        return b"\x89PNG fake"

    out = tmp_path / "demo"
    result = await run_demo("partners", out, seed=5, renderer=fake_render)
    assert result.outcome is not None and result.moves > 20 and result.hands
    assert len(seen) == result.moves + 1 == len(result.pictures)
    assert all(p.read_bytes() == b"\x89PNG fake" for p in result.pictures)
    # Pictures only ever get the public view: no hidden tile.
    assert all(view.seat is None and view.hand is None for view, _ in seen)
    assert seen[0][1] == ["Computer 1", "Computer 2", "Computer 3", "Computer 4"]
    assert not (out / "demo.sqlite3").exists()  # the throw-away database is gone


async def test_demo_is_reproducible_with_a_seed(tmp_path: Path) -> None:
    a = await run_demo("draw", tmp_path / "a", seed=9, renderer=None)
    b = await run_demo("draw", tmp_path / "b", seed=9, renderer=None)
    assert a.hands == b.hands and a.outcome == b.outcome and a.moves == b.moves


def test_demo_command_prints_the_result(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "--variant",
            "three",
            "--seed",
            "4",
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("Hand 1:") for line in lines)
    assert any(line.startswith(("Winner:", "Draw")) for line in lines)


async def test_demo_speaks_the_language_it_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its lines and its pictures' words come from the catalogue, as the bot's do."""
    seen: list[dict[str, object]] = []

    def fake_render(view: View, names: list[str], **options: object) -> bytes:
        seen.append(options)
        return b"\x89PNG fake"

    echo = io.StringIO()
    result = await run_demo(
        "two", tmp_path, seed=3, renderer=fake_render, echo=echo, locale="pt-BR"
    )
    assert result.outcome is not None
    assert seen and all(options == {} for options in seen)  # a renderer given is used as is
    seen.clear()
    lines = echo.getvalue().splitlines()
    assert lines[0].startswith("Mão 1: ") and "pontos na mão" in lines[0]
    assert lines[-2].startswith(("Vencedor: ", "Empate: ")) and "placar final" in lines[-2]
    assert "Computador 1" in echo.getvalue() and "Computer" not in echo.getvalue()
    assert lines[-1] == f"{len(result.pictures)} imagens salvas em {tmp_path}/"

    monkeypatch.setattr(demo, "load_renderer", lambda: fake_render)
    await run_demo("two", tmp_path / "es", seed=3, locale="es-ES")
    labels = seen[0]["labels"]
    assert isinstance(labels, dict) and labels["hand"] == "Mano {number}"


@pytest.mark.parametrize(
    ("variant", "seed"), [("all-fives", 3), ("all-fives", 13), ("partners", 5)]
)
async def test_demo_hand_lines_give_each_side_what_it_scored(
    tmp_path: Path, variant: str, seed: int
) -> None:
    """Each hand line's "+N" are the points each side added: in All Fives the side that did
    not domino may have scored at the ends, even more than the winner (seed 3, hand 1: the
    winner 5, the other side 30)."""
    echo = io.StringIO()
    result = await run_demo(variant, tmp_path, seed=seed, renderer=None, echo=echo)
    lines = echo.getvalue().splitlines()[: len(result.hands)]
    names = demo.seat_names(result.table)
    for hand, line in zip(result.hands, lines, strict=True):
        said = line.split("; ")[2]
        expected = [
            f"{demo.side_name(result.table.ruleset, names, side)} +{points}"
            for side, points in enumerate(hand.points)
            if points
        ]
        assert said == (", ".join(expected) or "nobody scores"), line
    if variant == "all-fives" and seed == 3:
        assert lines[0] == (
            "Hand 1: domino by Computer 1; pips left 0-6; Computer 1 +5, Computer 2 +30; "
            "score 5-30"
        )


def test_demo_rejects_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--variant", "chess"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- client


async def test_a_missing_extension_is_logged_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings("x", tmp_path / "db.sqlite3", None, "INFO")
    bot = DominoBot(settings, extensions=["cogs.does_not_exist"])
    with caplog.at_level(logging.ERROR, logger="bot.client"):
        await bot.load_cogs()
    assert "cogs.does_not_exist" in bot.failed_extensions
    assert any("cogs.does_not_exist" in r.getMessage() for r in caplog.records)


def test_extensions_are_discovered_from_the_cogs_package() -> None:
    names = discover_extensions()
    assert all(n.startswith("cogs.") and not n.split(".")[-1].startswith("_") for n in names)
    with pytest.raises(ModuleNotFoundError):
        discover_extensions("no_such_package_here")


async def test_setup_hook_builds_the_service_with_options(tmp_path: Path) -> None:
    """Start-up without Discord: store opened, open tables loaded, options passed through."""
    from bot.store import Store
    from bot.tables.service import TableService

    db = tmp_path / "data" / "bot.sqlite3"
    store = await Store.open(db)
    early = TableService(store)
    t = await early.create_table(host_id=1, host_name="Ana", variant="draw")
    await store.close()

    from bot.tables import computer

    settings = Settings("x", db, None, "INFO")
    bot = DominoBot(settings, extensions=[], service_options={"computer_delay": 0.25})
    bot.tree.sync = _no_sync  # type: ignore[method-assign]
    await bot.setup_hook()
    try:
        assert bot.service is not None and bot.service.computer_delay == 0.25
        assert [info.id for info in bot.service.open_tables()] == [t.id]
        # By default computers and hints think in a process pool, one process per core.
        pool = computer._offload.executor
        assert isinstance(pool, ProcessPoolExecutor)
        assert pool._max_workers == len(os.sched_getaffinity(0))
        assert pool.submit(os.getpid).result() != os.getpid()
    finally:
        await bot.close()
    assert bot.store is None and computer._offload.executor is None


async def test_the_bot_run_for_real_freezes_what_start_up_made(tmp_path: Path) -> None:
    """Our decision (measured by ``benchmarks.bot --gc-freeze``): once started, the bot's
    objects leave the collector's reach, so full collections during play stay short."""
    settings = Settings("x", tmp_path / "bot.sqlite3", None, "INFO")
    bot = DominoBot(settings, extensions=[])
    bot.tree.sync = _no_sync  # type: ignore[method-assign]
    bot.freeze_after_start = True  # as run_bot sets it
    gc.unfreeze()
    await bot.setup_hook()
    try:
        assert gc.get_freeze_count() > 0
        walked = [o for g in range(3) for o in gc.get_objects(generation=g)]
        assert bot.service is not None and all(o is not bot.service for o in walked)
    finally:
        gc.unfreeze()
        await bot.close()


async def test_process_pools_start_with_the_bot_and_stop_with_it(tmp_path: Path) -> None:
    """With pools configured, pictures and decisions run in processes from start-up; closing
    the bot returns once those processes have exited."""
    from bot.tables import computer
    from bot.workers import pictures

    settings = Settings(
        "x", tmp_path / "bot.sqlite3", None, "INFO", render_processes=1, ai_processes=1
    )
    bot = DominoBot(settings, extensions=[])
    bot.tree.sync = _no_sync  # type: ignore[method-assign]
    await bot.setup_hook()
    try:
        pools = [computer._offload.executor, pictures._offload.executor]
        workers = [pool.submit(os.getpid).result() for pool in pools if pool is not None]
        assert len(workers) == 2 and os.getpid() not in workers
    finally:
        await bot.close()
    assert computer._offload.executor is None and pictures._offload.executor is None
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def _no_sync(*args, **kwargs) -> list:
    return []
