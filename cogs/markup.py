"""How the cogs show the bot's words in Discord: the markup the bot itself never writes.

The bot hands over message ids with parameters as data (:func:`bot.i18n.error_message`);
here words a reader types become code, channels and roles mentions, commands their clickable
mentions (:func:`slash_command`), lists comma-separated.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import NO_OPTIONS, Ref, Typed, error_message, tr
from bot.i18n.commands import Command, command_id, command_text

MENTIONS = {"channel": "<#{id}>", "role": "<@&{id}>"}

log = logging.getLogger(__name__)


def code(word: str) -> str:
    """A word the reader types (an option name, a variant id) as Discord shows code."""
    return f"`{word}`"


def slash_command(locale: str | None, path: str, *, clickable: bool = True) -> str:
    """The slash command of ``path`` (``"domino daily board"``) in a message: Discord's
    clickable mention, which each reader's client shows in his own language, once this
    process knows the command's id; else (or where mentions show as raw text: embed titles
    and footers, ``clickable=False``) its names in ``locale``'s words."""
    found = command_id(path) if clickable else None
    if found is None:
        return command_text(locale, path)
    return f"</{' '.join(path.split())}:{found}>"


def shown(locale: str | None, value: Any) -> Any:
    """A message parameter as Discord shows it."""
    if isinstance(value, Command):
        return slash_command(locale, value)
    if isinstance(value, Typed):
        return code(value)
    if isinstance(value, Ref):
        return MENTIONS[value.kind].format(id=value.id)
    if isinstance(value, list | tuple):
        if not value:
            return tr(locale, NO_OPTIONS)
        return ", ".join(str(shown(locale, item)) for item in value)
    return value


def unreachable_text(locale: str | None) -> str:
    """The answer while the database is out of reach."""
    return tr(locale, "I cannot reach my database right now. Please try again in a minute.")


def error_text(locale: str | None, error: Exception) -> str:
    """What to tell a user about ``error`` (a service error or an engine ``IllegalAction``)."""
    text, params = error_message(locale, error)
    return tr(locale, text, **{key: shown(locale, value) for key, value in params.items()})


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
