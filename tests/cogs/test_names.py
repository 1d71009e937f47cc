"""Names in Discord text: inert whatever a player calls himself (cogs.names)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from cogs.names import escape_name, public_name

SPECIAL = set("*_~|`[]<>\\")
ZWSP = "\u200b"
names = st.text(
    st.sampled_from(list("ab1 @:/\\*_~|`[]()<>#-.th\n")) | st.characters(exclude_characters=ZWSP),
    max_size=40,
)


def read(text: str) -> tuple[str, set[int]]:
    """What Discord shows for ``text``, and which positions of it were escaped.

    Discord's rule: a backslash before a character that is not a letter, digit or space
    shows that character as plain text.
    """
    out: list[str] = []
    escaped: set[int] = set()
    i = 0
    while i < len(text):
        c = text[i]
        after = text[i + 1] if i + 1 < len(text) else " "
        if c == "\\" and not after.isalnum() and not after.isspace():
            escaped.add(len(out))
            out.append(text[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out), escaped


@given(names)
def test_an_escaped_name_reads_as_written_and_builds_nothing(name: str) -> None:
    """Our decision: a name is text; markdown, links, mentions and emoji in it stay inert."""
    escaped = escape_name(name)
    shown, positions = read(escaped)
    assert shown.replace(ZWSP, "") == name
    for i, c in enumerate(shown):
        if c in SPECIAL:
            assert i in positions, (name, escaped)
    assert ":/" not in shown  # no autolink (https://…) and no <scheme:/…> link
    assert "@everyone" not in shown and "@here" not in shown


def test_known_tricks_are_inert() -> None:
    assert escape_name("[NITRO](https://evil.example)") == (
        "\\[NITRO\\]\\(https:\u200b//evil.example)"
    )
    assert escape_name("**bold** __u__ ||x||") == "\\*\\*bold\\*\\* \\_\\_u\\_\\_ \\|\\|x\\|\\|"
    assert escape_name("<@123456789012345678>") == "\\<@\u200b123456789012345678\\>"
    assert escape_name("Ana (Lima)") == "Ana (Lima)"


def test_public_name_is_the_global_display_name() -> None:
    member = SimpleNamespace(name="ana", global_name="Ana", display_name="Nickname")
    assert public_name(member) == "Ana"  # type: ignore[arg-type]
    plain = SimpleNamespace(name="bob", global_name=None, display_name="Bobby")
    assert public_name(plain) == "bob"  # type: ignore[arg-type]
    assert len(public_name(SimpleNamespace(name="x" * 40, global_name=None))) == 32  # type: ignore[arg-type]
