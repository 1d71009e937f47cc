"""The quick match's components, ids ``queue:<kind>[:<argument>]``: Leave (on a person's own
answer: ``queue:leave:<user>``), Play now and the variant menu (on a server's post)."""

from __future__ import annotations

import re
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import tr
from bot.queue.values import ANY, VARIANTS
from cogs.queue.words import variant_label

Interaction = discord.Interaction[Any]
COG_NAME = "Queue"
_VARIANT = "(?P<variant>" + "|".join(re.escape(v) for v in (ANY, *VARIANTS)) + ")"


class Host(Protocol):
    """What the components reach of the queue's cog."""

    def guard(self, interaction: Interaction, what: str) -> AbstractAsyncContextManager[None]: ...

    async def join(self, interaction: Interaction, variant: str, computers: bool) -> None: ...

    async def leave(self, interaction: Interaction, owner: int) -> None: ...


def _host(interaction: Interaction) -> Host | None:
    return interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined,no-any-return]


class LeaveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"queue:leave:(?P<user>[0-9]{1,20})"
):
    """Give up one's place (only its owner may)."""

    kind: ClassVar[str] = "leave"

    def __init__(self, user_id: int, label: str = "Leave") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.danger, custom_id=f"queue:leave:{user_id}"
        ))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaveButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: Interaction) -> None:
        host = _host(interaction)
        if host is None:
            return
        async with host.guard(interaction, "button queue:leave"):
            await host.leave(interaction, self.user_id)


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"queue:join:{_VARIANT}"
):
    """Join the queue of a variant (the post's: any variant)."""

    kind: ClassVar[str] = "join"

    def __init__(self, variant: str = ANY, label: str = "Play now") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.success, custom_id=f"queue:join:{variant}"
        ))
        self.variant = variant

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        return cls(match["variant"])

    async def callback(self, interaction: Interaction) -> None:
        host = _host(interaction)
        if host is None:
            return
        async with host.guard(interaction, "button queue:join"):
            await host.join(interaction, self.variant, True)


class VariantMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"queue:pick"):
    """Join the queue of the variant picked."""

    kind: ClassVar[str] = "pick"

    def __init__(self, locale: str | None = None) -> None:
        options = [
            discord.SelectOption(label=variant_label(locale, v)[:100], value=v)
            for v in (ANY, *VARIANTS)
        ]
        super().__init__(discord.ui.Select(
            custom_id="queue:pick",
            placeholder=tr(locale, "Pick a variant")[:150],
            options=options,
        ))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VariantMenu:
        return cls()

    async def callback(self, interaction: Interaction) -> None:
        host = _host(interaction)
        if host is None:
            return
        async with host.guard(interaction, "menu queue:pick"):
            values = (interaction.data or {}).get("values") or [ANY]  # type: ignore[union-attr]
            await host.join(interaction, str(values[0]), True)


ALL = (LeaveButton, PlayButton, VariantMenu)


def leave_view(locale: str | None, user_id: int) -> discord.ui.View:
    """The Leave button under a person's answer."""
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(user_id, tr(locale, "Leave the queue")[:80]))
    return view


def post_view(locale: str | None) -> discord.ui.View:
    """Play now and the variant menu under a server's post."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(ANY, tr(locale, "Play now")[:80]))
    view.add_item(VariantMenu(locale))
    return view
