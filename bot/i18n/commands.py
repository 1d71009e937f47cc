"""The slash commands a message names: their names in the reader's language and, once this
process has synced its command tree, their ids (for Discord's clickable command mentions,
which each client shows in its own language).

A message names a command by its English path (``"domino daily board"``) as a
:class:`Command` parameter; the cogs show it (:func:`cogs.markup.slash_command`), the web pages
write it as text (:func:`command_text`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import COMMAND_NAME, lookup, valid_name

#: Top-level command name -> its id, from this process's latest sync of the command tree.
_ids: dict[str, int] = {}


class Command(str):
    """A slash command by its full English path (``"domino daily board"``), in a message's
    parameters: shown as the command's mention where the ids are known."""


def remember(commands: Iterable[tuple[str, int]]) -> None:
    """Keep the ids of the top-level commands (name, id) the command tree's sync returned."""
    _ids.clear()
    _ids.update({name: int(command_id) for name, command_id in commands})


def forget() -> None:
    """Forget the ids (a failed sync: commands are then named as text)."""
    _ids.clear()


def command_id(path: str) -> int | None:
    """The id of the top-level command of ``path``, None while it is not known."""
    top = path.split()[0] if path.split() else ""
    return _ids.get(top)


def command_text(locale: str | None, path: str) -> str:
    """``/domino daily board`` with each name as ``locale``'s Discord shows it
    (``/domino diaria clasificacion``)."""
    names = []
    for part in path.split():
        name = lookup(locale, part, COMMAND_NAME)
        names.append(name if name is not None and valid_name(name) else part)
    return "/" + " ".join(names)
