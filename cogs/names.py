"""Player names in Discord text: which name to show where, and how to make it inert.

A server nickname belongs to the server it was set in; anything that can be read elsewhere
(global leaderboards, records, another server's history) uses the account's global display
name (:func:`public_name`). Every name put into a message, an embed or an ephemeral answer goes
through :func:`escape_name` so that it reads as plain text: no formatting, no masked or bare
link, no mention, no custom emoji or timestamp. Pictures draw the raw name.
"""

from __future__ import annotations

import re

import discord

from bot.i18n import tr
from bot.records.record import computer_level

__all__ = ["NAME_LIMIT", "display_name", "escape_name", "public_name", "table_name"]

NAME_LIMIT = 32  # Discord's longest display name

_ZWSP = "\u200b"
# Characters escape_markdown leaves alone that still build masked links, mentions, emoji and
# timestamps: escaped unless a backslash (an odd run of them) already does it; so is the
# parenthesis that opens a masked link's address.
_BRACKETS = re.compile(r"(\\*)([\[\]<>]|(?<=\])\()")


def _escape_bracket(match: re.Match[str]) -> str:
    slashes, char = match[1], match[2]
    return slashes + char if len(slashes) % 2 else f"{slashes}\\{char}"


# escape_markdown escapes an indented list marker ("  - x") with a backslash before the
# spaces, which Discord shows as a backslash: it goes right before the marker instead.
_LIST_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\(\s+)(?=-)")


def escape_name(name: str) -> str:
    """``name`` as inert Discord text (markdown, links, mentions and brackets escaped)."""
    text = name.replace(":/", f":{_ZWSP}/")  # no autolink, and escape_markdown sees no URL
    text = discord.utils.escape_mentions(text)
    text = discord.utils.escape_markdown(text)
    text = _LIST_ESCAPE.sub(lambda m: f"{m[1]}{m[2]}\\", text)
    return _BRACKETS.sub(_escape_bracket, text)


def public_name(user: discord.abc.User) -> str:
    """The account's global display name (never a server nickname), at most 32 characters."""
    name = getattr(user, "global_name", None) or user.name
    return name[:NAME_LIMIT]


def display_name(locale: str | None, name: str, kind: str, *, seat: int | None = None) -> str:
    """A player's name as people read it, in the reader's language (raw: escape it for text).

    A computer is named by what tells it apart: at a table by its seat (``seat``, from 0:
    "Computer 2"), in the records by its level (``name`` ``computer:<level>``: "Computer
    (hard)"). A person keeps his own name; one who asked to be forgotten reads "a former player".
    """
    if kind == "computer":
        if seat is not None:
            return tr(locale, "Computer {number}", number=seat + 1)
        return tr(locale, "Computer ({level})", level=tr(locale, computer_level(name)))
    return name or tr(locale, "a former player")


def table_name(user: discord.abc.User) -> str:
    """The name a player sits under at a table: his display name where he plays, at most 32
    characters."""
    return user.display_name[:NAME_LIMIT]
