"""Stable custom ids for every button of the dominoes cog, and the one DynamicItem reading them.

Format: ``domino:<kind>:<table id>[:<arg>...]``. Buttons outlive restarts: discord.py matches
any clicked custom id against :data:`TEMPLATE` and hands it to the cog, which needs no state
from the message (the table id, and where it matters the action's sequence number, are in the
id; a button from an older state carries an older ``seq`` and is refused as stale).

Kinds and arguments:

- lobby: ``join``, ``leave``, ``ai:<level>``, ``start``, ``fill`` (start with computers),
  ``cancel``
- challenge: ``accept:<ids>``, ``decline:<ids>`` (``ids``: invited user ids joined by ``.``)
- game message: ``tiles:<seq>`` (My tiles), ``resign``; resign confirmation: ``resignok``
- a player's hand (ephemeral): ``play:<tile>:<end>:<hand>:<seq>`` with ``end`` one of
  ``any`` (only one way to lay it), ``ask`` (fits several ends: choose next), ``left``,
  ``right``, and on All Fives' spinner ``up``, ``down``; ``draw:<hand>:<seq>``,
  ``pass:<hand>:<seq>``, ``back:<hand>:<seq>``
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

PREFIX = "domino"
TEMPLATE = re.compile(
    r"domino:(?P<kind>[a-z]{1,12}):(?P<table>[0-9]{1,19})(?P<args>(?::[A-Za-z0-9.\-]{1,60}){0,6})"
)
COG_NAME = "Domino"


def custom_id(kind: str, table_id: int, *args: object) -> str:
    """The custom id of a button (at most 100 characters)."""
    text = ":".join([PREFIX, kind, str(table_id), *(str(a) for a in args)])
    if len(text) > 100 or not TEMPLATE.fullmatch(text):
        raise ValueError(f"bad custom id {text!r}")
    return text


def parse(text: str) -> tuple[str, int, tuple[str, ...]] | None:
    """``(kind, table_id, args)`` of a custom id, or None if it is not ours."""
    match = TEMPLATE.fullmatch(text)
    if match is None:
        return None
    args = tuple(a for a in match["args"].split(":") if a)
    return match["kind"], int(match["table"]), args


class ButtonHandler(Protocol):
    """What handles the clicks (the dominoes cog)."""

    async def on_button(
        self, interaction: discord.Interaction[Any], kind: str, table_id: int, args: tuple[str, ...]
    ) -> None: ...


class DominoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Any button of the cog; clicks go to :meth:`DominoCog.on_button`."""

    def __init__(
        self,
        kind: str,
        table_id: int,
        *args: object,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                style=style,
                disabled=disabled,
                custom_id=custom_id(kind, table_id, *args),
            ),
            row=row,
        )
        self.kind = kind
        self.table_id = table_id
        self.args = tuple(str(a) for a in args)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DominoButton:
        args = tuple(a for a in match["args"].split(":") if a)
        return cls(match["kind"], int(match["table"]), *args)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: ButtonHandler | None = interaction.client.get_cog(COG_NAME)
        if cog is None:  # unloaded while the click was on its way
            return
        await cog.on_button(interaction, self.kind, self.table_id, self.args)


def make_view(buttons: list[DominoButton]) -> discord.ui.View:
    """A view holding ``buttons`` (fully dynamic: nothing is kept in memory per message)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
