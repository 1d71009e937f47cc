"""The tournament buttons: one ``DynamicItem`` per kind, ids
``tournament:<kind>:<event>[:<argument>]``; a click reaches the cog as a :class:`Host`."""

from __future__ import annotations

import re
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import N_, tr
from bot.tournaments.service import TournamentService
from bot.tournaments.store import EventRow
from cogs.names import escape_name

Interaction = discord.Interaction[Any]
COG_NAME = "Tournament"
PREFIX = "tournament"
_EVENT = r"(?P<event>[0-9]{1,18})"


class Host(Protocol):
    """What the buttons and the commands reach of the tournament cog."""

    events: TournamentService

    def guard(self, interaction: Interaction, what: str) -> AbstractAsyncContextManager[None]: ...

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None: ...

    async def is_manager(self, interaction: Interaction) -> bool: ...

    async def here_event(self, interaction: Interaction) -> EventRow: ...

    async def register_user(
        self, interaction: Interaction, event_id: int, partner: discord.abc.User | None
    ) -> str: ...


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tournament:.*"):
    """The common part of the tournament buttons: the id, the look, the guarded click."""

    kind: ClassVar[str] = ""

    def __init__(self, event_id: int, *args: object, label: str = "", style: Any = None) -> None:
        text = ":".join([PREFIX, self.kind, str(event_id), *(str(a) for a in args)])
        if not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        button = discord.ui.Button(
            label=label or None,
            style=style or discord.ButtonStyle.secondary,
            custom_id=text,
        )
        super().__init__(button)
        self.event_id = event_id
        self.arg = str(args[0]) if args else None

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        arg = match.groupdict().get("arg")
        return cls(int(match["event"])) if arg is None else cls(int(match["event"]), arg)

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is None:
            return
        async with cog.guard(interaction, f"button {self.kind}"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            text = await self.clicked(cog, interaction)
            await cog.reply(interaction, text)

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        raise NotImplementedError


class RegisterButton(TournamentButton, template=rf"tournament:register:{_EVENT}"):
    """Enter the event (alone; a pair registers with the command, naming the partner)."""

    kind = "register"

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        return await cog.register_user(interaction, self.event_id, None)


class WithdrawButton(TournamentButton, template=rf"tournament:withdraw:{_EVENT}"):
    kind = "withdraw"

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        await cog.events.withdraw(self.event_id, interaction.user.id)
        return left_text(interaction.locale.value, await cog.events.get(self.event_id))


def left_text(locale: str | None, event: EventRow) -> str:
    """What someone who withdrew is told (an arena's: he stops being paired)."""
    if event.system == "arena" and event.status == "running":
        return tr(
            locale,
            "You left the arena: you are not paired again (a table you sit at is played to its"
            " end). Join again at any time before the end.",
        )
    return tr(locale, "You have withdrawn from the tournament.")


class CheckInButton(TournamentButton, template=rf"tournament:checkin:{_EVENT}"):
    kind = "checkin"

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        await cog.events.check_in(self.event_id, interaction.user.id)
        return tr(interaction.locale.value, "You are checked in: you will be paired.")


class HereButton(TournamentButton, template=rf"tournament:here:{_EVENT}:(?P<arg>[0-9]{{1,4}})"):
    """Click in at one's table of a round (``arg``: the round) before the grace is over."""

    kind = "here"

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        await cog.events.here(self.event_id, int(self.arg or 0), interaction.user.id)
        return tr(interaction.locale.value, "Thank you: you are at your table.")


class PartnerButton(
    TournamentButton,
    template=rf"tournament:partner:{_EVENT}:(?P<arg>yes|no)(?::(?P<inviter>[0-9]{{1,20}}))?",
):
    """The invited partner of a pair accepts or declines (``arg``) the invitation of
    ``inviter`` (left out in older posts: his newest invitation)."""

    kind = "partner"

    def __init__(self, event_id: int, *args: object, **look: Any) -> None:
        super().__init__(event_id, *args, **look)
        self.inviter = int(str(args[1])) if len(args) > 1 else None

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        extra = () if match["inviter"] is None else (match["inviter"],)
        return cls(int(match["event"]), match["arg"], *extra)

    async def callback(self, interaction: Interaction) -> None:
        """Answer privately, and once the invited partner has answered, the invitation says
        how and loses its buttons (edited through the click itself)."""
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is None:
            return
        async with cog.guard(interaction, f"button {self.kind}"):
            await interaction.response.defer()  # nothing changes unless the answer is taken
            text = await self.clicked(cog, interaction)
            event = await cog.events.get(self.event_id)
            if self.inviter is None:  # (an invitation posted without its inviter's id)
                text_id = N_("<@{partner}> accepted.") if self.arg == "yes" else (
                    N_("<@{partner}> declined.")
                )
            elif self.arg == "yes":
                text_id = N_(
                    "<@{partner}> accepted: <@{user}> and <@{partner}> play {name} as a pair."
                )
            else:
                text_id = N_("<@{partner}> declined the invitation of <@{user}> to {name}.")
            answered = tr(
                event.locale,
                text_id,
                partner=interaction.user.id,
                user=self.inviter,
                name=escape_name(event.name),
            )
            await interaction.edit_original_response(
                content=answered, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
            await cog.reply(interaction, text)

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        locale = interaction.locale.value
        await cog.events.answer_partner(
            self.event_id, interaction.user.id, self.arg == "yes", self.inviter
        )
        if self.arg == "yes":
            return tr(locale, "Your pair is registered.")
        return tr(locale, "You declined: the pair is not registered.")


KINDS = (RegisterButton, WithdrawButton, CheckInButton, HereButton, PartnerButton)
_KNOWN = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in KINDS
)


class InvalidButton(TournamentButton, template=rf"(?!(?:{_KNOWN})$)tournament:(?s:.*)"):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    kind = "invalid"

    def __init__(self, event_id: int = 0, *args: object, **look: Any) -> None:
        discord.ui.DynamicItem.__init__(
            self, discord.ui.Button(label="?", custom_id="tournament:invalid")
        )
        self.event_id, self.arg = 0, None

    @classmethod
    def read(cls, match: re.Match[str]) -> TournamentButton:
        return cls()

    async def clicked(self, cog: Host, interaction: Interaction) -> str:
        return tr(interaction.locale.value, "This button is not valid any more.")


BUTTONS = (*KINDS, InvalidButton)


def view_of(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view
