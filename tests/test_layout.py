"""The layout holds: the layers import only downwards and no module imports itself in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domino", "render", "bot", "cogs")
#: What each layer may import from the project (besides itself).
ALLOWED = {
    "domino": set(),
    "render": {"domino"},
    "bot": {"domino", "render"},
    "cogs": {"bot", "domino", "render"},
}
FORBIDDEN_IN_ENGINE = ("discord", "PIL", "aiosqlite", "asyncpg")
#: The dominoes cog from the bottom up: a module imports none of a higher row. Words and the
#: command mixins; the buttons (they reach the cog only through ``buttons.Host``); the
#: messages and the replay (its page buttons); their publication; the observer; what commands
#: and clicks share; the commands.
DOMINO_ROWS = (
    ("texts", "alt_text", "choices", "practice", "server_settings", "rules_pages"),
    ("correspondence", "pool", "across"),
    ("buttons",),
    ("lobby", "game_message", "hand_message", "replay"),
    ("feed", "matchend"),
    ("places_feed",),
    ("presenter",),
    ("host",),
    ("commands",),
)

#: The other cogs' packages from the bottom up: buttons and words; the screens and posts; the
#: commands (they reach their cog through a protocol); the cog.
COG_ROWS = {
    "cogs.tournaments": (("buttons",), ("posts",), ("arena",), ("commands",), ("cog",)),
    "cogs.records": (
        ("buttons", "words", "said_of", "prizes", "share"),
        ("leaderboard", "stats", "history", "privacy", "forget", "boards", "achievements"),
        ("commands",),
        ("cog",),
    ),
    "cogs.daily": (("words",), ("cog",)),
    "cogs.review": (("words",), ("exercise",), ("cog",)),
    "cogs.queue": (("words",), ("buttons",), ("cog",)),
}

#: The web companion from the bottom up: addresses, words and its own queries; the
#: replay's positions; the reader (what may be shown); the aiohttp application.
WEB_ROWS = (
    ("links", "words", "queries", "kept", "ratelimit"),
    ("positions",),
    ("reader",),
    ("live", "warm", "pages"),
    ("player",),
    ("app",),
)


#: ``bot/`` from the bottom up, a floor per package, root module or (where a package spans two
#: floors) module, the longest name deciding: a module imports nothing of a higher floor. The
#: shared vocabulary (typed errors, the limits' values that settings read and the store counts),
#: the catalogue and the work off the event loop; the settings; logging and the store; the tables
#: (their service, clock, computer players, hints, replays); what records, reviews and deals the
#: tables' matches, and the tournaments' rows; achievements (awarded from records and podium
#: finishes); the recording of a match, which awards its achievements in its transaction;
#: tournaments; what spans them all (a server's settings, forget-me); the application and the
#: web companion; the commands beside.
BOT_FLOORS = (
    ("bot", "bot.errors", "bot.limits", "bot.traffic", "bot.i18n", "bot.workers", "bot.migrations"),
    ("bot.settings",),
    ("bot.log", "bot.store"),
    ("bot.tables", "bot.ratelimit"),
    ("bot.records", "bot.review", "bot.daily", "bot.tournaments.store"),
    ("bot.achievements",),
    ("bot.records.service",),
    ("bot.tournaments",),
    ("bot.queue", "bot.servers.pool"),  # (the pool: whom the queue seats across servers)
    ("bot.servers", "bot.privacy"),
    ("bot.client", "bot.web"),
    ("bot.tools", "bot.locales", "bot.__main__"),
)
#: The arrows that run up a floor, each named (none today; a new one fails the test).
BOT_UPWARD: set[str] = set()
#: What ``bot/``'s root holds: the application (client, settings, log, ``__main__``) and the
#: vocabulary every floor shares (typed errors, the limits' values, the count of requests to
#: Discord).
BOT_ROOT = {"__init__", "__main__", "client", "settings", "log", "errors", "limits", "traffic"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Project modules imported by a module (TYPE_CHECKING imports count too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            # ``from pkg import sub`` imports the module pkg.sub; ``from mod import name`` mod.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(name, path, known) for name, path in found.items()}


def test_layers_import_only_downwards() -> None:
    bad = []
    for name, targets in graph().items():
        layer = name.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if other != layer and other not in ALLOWED[layer]:
                bad.append(f"{name} -> {target}")
    assert bad == []


def upward_imports(package: str, rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """The imports of ``package``'s modules that go up its rows (every module needs a row)."""
    row = {f"{package}.{m}": i for i, names in enumerate(rows) for m in names}
    edges = graph()
    placed = {name for name in edges if name.startswith(f"{package}.")}
    assert placed == set(row), f"a module of {package} has no row"
    return [
        f"{name} -> {target}"
        for name in placed
        for target in edges[name]
        if target in row and row[target] > row[name]
    ]


def test_the_dominoes_cog_imports_only_downwards() -> None:
    assert upward_imports("cogs.domino", DOMINO_ROWS) == []


@pytest.mark.parametrize("package", sorted(COG_ROWS))
def test_each_cog_package_imports_only_downwards(package: str) -> None:
    assert upward_imports(package, COG_ROWS[package]) == []


def test_the_web_companion_imports_only_downwards() -> None:
    assert upward_imports("bot.web", WEB_ROWS) == []


def test_the_engine_imports_no_discord_picture_or_database_library() -> None:
    for path in (ROOT / "domino").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            for n in names:
                assert n.split(".")[0] not in FORBIDDEN_IN_ENGINE, f"{path}: imports {n}"


def test_no_import_circle() -> None:
    """Depth-first search for a cycle among the project's modules (packages' own
    ``__init__`` re-exports included)."""
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt.startswith(node + "."):
                continue  # a package importing its own submodules is not a circle
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert cycles == []


def bot_floor(name: str) -> int:
    """The floor of a module of ``bot`` (the floor of the longest package holding it)."""
    best = None
    for i, row in enumerate(BOT_FLOORS):
        for key in row:
            if (name == key or (key != "bot" and name.startswith(key + "."))) and (
                best is None or len(key) > len(best[1])
            ):
                best = (i, key)
    assert best is not None, f"{name} has no floor in BOT_FLOORS"
    return best[0]


def test_bot_imports_no_higher_floor() -> None:
    edges = graph()
    up = sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        if name == "bot" or name.startswith("bot.")
        for target in targets
        if target.startswith("bot.") and bot_floor(target) > bot_floor(name)
    )
    assert set(up) - BOT_UPWARD == set(), "an import runs up bot's floors"
    assert BOT_UPWARD - set(up) == set(), "an allowed upward arrow is gone: drop it from BOT_UPWARD"


def test_the_bot_root_holds_the_application_and_little_else() -> None:
    held = {p.stem for p in (ROOT / "bot").glob("*.py")}
    assert held == BOT_ROOT


def test_no_module_of_bot_or_the_cogs_is_over_900_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for package in ("bot", "cogs")
        for path in (ROOT / package).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 900
    }
    assert long == {}
