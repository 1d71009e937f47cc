"""The buttons under a private ``/domino stats`` or ``/domino achievements`` answer: Share
(post the same screen for everyone in the channel) and, for achievements, how to earn the
others (answered privately).

An id reads ``screen:<action>:<screen>:<asker>:<whose>``: nothing is kept in memory, so the
buttons keep working across restarts; only the person who asked may press them (anyone else
is told so privately, and nothing changes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import discord

from bot.i18n import tr

Interaction = discord.Interaction[Any]
Screen = Literal["stats", "achv"]
#: The cog that answers each screen.
COGS: dict[str, str] = {"stats": "Records", "achv": "Achievements"}


class Answers(Protocol):
    """What a screen's cog does for these buttons."""

    async def share(self, interaction: Interaction, screen: str, user: discord.abc.User) -> None:
        """Post the screen of ``user`` publicly (its own checks apply)."""
        ...

    async def more(self, interaction: Interaction, user: discord.abc.User) -> None:
        """The achievements ``user`` has not earned yet, what each asks, privately."""
        ...


class ScreenButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"screen:(?P<action>share|more):(?P<screen>stats|achv)"
    r":(?P<asker>[0-9]{1,20}):(?P<whose>[0-9]{1,20})",
):
    """Share, or How to earn the others, under a private stats or achievements answer."""

    def __init__(
        self,
        action: Literal["share", "more"],
        screen: str,
        asker: int,
        whose: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                style=style,
                custom_id=f"screen:{action}:{screen}:{asker}:{whose}",
            )
        )
        self.action, self.screen, self.asker, self.whose = action, screen, asker, whose

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ScreenButton:
        action: Any = match["action"]
        return cls(action, match["screen"], int(match["asker"]), int(match["whose"]))

    async def callback(self, interaction: Interaction) -> None:
        locale = interaction.locale.value
        if interaction.user.id != self.asker:
            await interaction.response.send_message(
                tr(locale, "Only the person who asked for this can use its buttons."),
                ephemeral=True,
            )
            return
        cog: Answers | None = interaction.client.get_cog(COGS[self.screen])  # type: ignore[attr-defined]
        if cog is None:
            await interaction.response.send_message(
                tr(locale, "Sorry, something went wrong on my side. Please try again."),
                ephemeral=True,
            )
            return
        user = await person(interaction, self.whose)
        if self.action == "more":
            await cog.more(interaction, user)
        else:
            await cog.share(interaction, self.screen, user)


async def person(interaction: Interaction, user_id: int) -> discord.abc.User:
    """The person ``user_id``: as this server knows him if he is a member, else as Discord
    does."""
    if interaction.user.id == user_id:
        return interaction.user
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    if member is not None:
        return member
    found = interaction.client.get_user(user_id)
    return found if found is not None else await interaction.client.fetch_user(user_id)


def screen_card(
    colour: discord.Colour,
    items: list[discord.ui.Item[Any]],
    picture: str,
    alt: str,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.LayoutView:
    """A screen as one container: ``items``, the attached ``picture`` at full width (its
    alt text ``alt``), then ``buttons`` in a row."""
    gallery = discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{picture}", description=alt)
    )
    row = [discord.ui.ActionRow(*buttons)] if buttons else []
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, gallery, *row, accent_colour=colour))
    return layout


def share_buttons(
    locale: str | None, screen: str, asker: int, whose: int, *, more: bool = False
) -> list[ScreenButton]:
    """Share (and, with ``more``, How to earn the others) for a private answer."""
    items = [
        ScreenButton(
            "share", screen, asker, whose, label=tr(locale, "Share"),
            style=discord.ButtonStyle.primary,
        )
    ]
    if more:
        items.append(
            ScreenButton("more", screen, asker, whose, label=tr(locale, "How to earn the others"))
        )
    return items
