"""The records buttons: one ``DynamicItem`` per kind, ids ``records:<kind>:...``."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

Interaction = discord.Interaction[Any]
COG_NAME = "Records"


#: Any id of this cog, however long or malformed (a click on one its message no longer has is
#: answered as stale; one no kind reads, as not valid).
TEMPLATE = re.compile(r"records:(?s:.*)")
_ID = r"[0-9]{1,20}"  # a Discord id: a person, a server (0: everywhere)


class RecordsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """The common part of this cog's buttons: the id (each kind reads its own, every number
    bounded), the look, and the click, which goes to :meth:`RecordsCog.on_button`."""

    kind: ClassVar[str] = ""

    def __init__(
        self,
        *args: object,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        text = ":".join(["records", self.kind, *(str(a) for a in args)])
        if len(text) > 100 or not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        super().__init__(
            discord.ui.Button(label=label or None, style=style, disabled=disabled, custom_id=text)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RecordsButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        """The button an id of this kind stands for."""
        raise NotImplementedError

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)
        if cog is None:  # unloaded while the click was on its way
            return
        await cog.on_button(interaction, self)  # type: ignore[attr-defined]


class LeaderboardButton(
    RecordsButton,
    template=rf"records:lb:(?P<direction>[pn]):(?P<owner>{_ID}):(?P<scope>{_ID})"
    r":(?P<bucket>[a-z0-9\-]{1,30}):(?P<by>[a-z]{1,12}):(?P<page>[0-9]{1,9})",
):
    """Previous (``p``) or Next (``n``): the page of a leaderboard it leads to."""

    kind = "lb"

    def __init__(
        self, direction: str, owner: int, scope: int, bucket: str, by: str, page: int, **look: Any
    ) -> None:
        super().__init__(direction, owner, scope, bucket, by, page, **look)
        self.owner, self.scope, self.bucket, self.by, self.page = owner, scope, bucket, by, page

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(
            match["direction"],
            int(match["owner"]),
            int(match["scope"]),
            match["bucket"],
            match["by"],
            int(match["page"]),
        )


class PeriodButton(
    RecordsButton,
    template=rf"records:pb:(?P<direction>[pn]):(?P<owner>{_ID}):(?P<scope>{_ID})"
    r":(?P<bucket>[a-z0-9\-]{1,30}):(?P<period>(?:week|month|season):[0-9\-]{7,10})"
    r":(?P<page>[0-9]{1,9})",
):
    """Previous (``p``) or Next (``n``) on a week's, month's or season's board: the period
    (its key) and the page it leads to."""

    kind = "pb"

    def __init__(
        self, direction: str, owner: int, scope: int, bucket: str, period: str, page: int,
        **look: Any,
    ) -> None:
        super().__init__(direction, owner, scope, bucket, period, page, **look)
        self.owner, self.scope, self.bucket, self.period, self.page = (
            owner, scope, bucket, period, page
        )

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(
            match["direction"],
            int(match["owner"]),
            int(match["scope"]),
            match["bucket"],
            match["period"],
            int(match["page"]),
        )


class PrivacyButton(
    RecordsButton, template=rf"records:privacy:(?P<owner>{_ID}):(?P<scope>{_ID}):(?P<hide>[01])"
):
    """Leave (``hide``) or join again the leaderboards of a scope."""

    kind = "privacy"

    def __init__(self, owner: int, scope: int, hide: bool, **look: Any) -> None:
        super().__init__(owner, scope, int(hide), **look)
        self.owner, self.scope, self.hide = owner, scope, hide

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(int(match["owner"]), int(match["scope"]), match["hide"] == "1")


class ForgetButton(
    RecordsButton,
    template=rf"records:forget:(?P<owner>{_ID}):(?P<choice>yes|no):(?P<running>[0-9]{{1,9}})",
):
    """Forget me (``yes``, announcing how many running matches it resigns) or Cancel."""

    kind = "forget"

    def __init__(self, owner: int, choice: str, running: int, **look: Any) -> None:
        super().__init__(owner, choice, running, **look)
        self.owner, self.choice, self.running = owner, choice, running

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(int(match["owner"]), match["choice"], int(match["running"]))


_KINDS: tuple[type[RecordsButton], ...] = (
    LeaderboardButton,
    PeriodButton,
    PrivacyButton,
    ForgetButton,
)
_READ = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in _KINDS
)


class UnreadButton(RecordsButton, template=rf"(?!(?:{_READ})\Z){TEMPLATE.pattern}"):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    def __init__(self, custom_id: str) -> None:  # kept as it came: it is not ours to build
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(custom_id=custom_id))

    @classmethod
    def read(cls, match: re.Match[str]) -> RecordsButton:
        return cls(match.string)


#: What the cog registers: each id of ours has exactly one reader.
BUTTONS: tuple[type[RecordsButton], ...] = (*_KINDS, UnreadButton)


def _view(buttons: list[RecordsButton]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view
