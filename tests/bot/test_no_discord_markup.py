"""Nothing in ``bot/`` formats Discord messages: it hands the cogs message ids and data, and
only the client (the process's start) speaks to discord.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
# The client and its command translator are the one place of bot/ that imports discord.
DISCORD_ALLOWED = {"bot/client.py"}
# The command line's own console messages (not Discord's).
CONSOLE = {"bot/__main__.py"}
# Mentions (<@user>, <@&role>, <#channel>, <t:time>), bold, code, spoilers, strikes.
MARKUP = re.compile(r"<@|<#|<t:|(?<!\*)\*\*(?!\*)|`|\|\||~~")


def sources() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(BOT.rglob("*.py"))
    ]


def docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def rules_paragraphs(tree: ast.Module) -> set[int]:
    """The strings of ``NC_("rules …", text)``: the rules' own emphasis (**Our decision:**),
    the catalogue's words shared with docs/rules.md, not markup the code adds."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "NC_"
            and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).startswith("rules ")
        ):
            found |= {id(n) for n in ast.walk(node.args[1])}
    return found


def test_only_the_client_imports_discord() -> None:
    bad = []
    for name, tree in sources():
        if name in DISCORD_ALLOWED:
            continue
        for node in ast.walk(tree):
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            bad += [f"{name}: {m}" for m in modules if m.split(".")[0] == "discord"]
    assert bad == []


def test_no_discord_markup_in_the_strings_of_bot() -> None:
    bad = []
    for name, tree in sources():
        if name in CONSOLE:
            continue
        skip = docstrings(tree) | rules_paragraphs(tree)
        bad += [
            f"{name}:{node.lineno}: {node.value[:60]!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and MARKUP.search(node.value)
        ]
    assert bad == []


def test_the_scan_finds_markup() -> None:
    """The check above is not blind: a mention, bold and code in f-strings are found, a
    masked password is not markup."""
    tree = ast.parse('x = f"<#{c}> **{name}**"\ny = f"`{option}`"\nz = ":***@"\n')
    found = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and MARKUP.search(n.value)
    ]
    assert found == ["<#", "> **", "**", "`", "`"]
    assert docstrings(ast.parse('"""With `code`."""\n')) and not docstrings(tree)
