"""Every button of the dominoes cog: one :class:`discord.ui.DynamicItem` per kind.

A button's custom id is ``domino:<kind>:<table id>[:<arg>...]`` and carries all a click needs:
the table and, where it matters, the state the button was made for (``seq``, the table's action
count: a button from an older state is refused as stale). Nothing is kept in memory per
message, so buttons keep working across restarts. Each class's ``template`` reads exactly the
ids of its kind, every number bounded (a forged id with a huge table number reaches the service
as a number it answers "There is no table N." to); ids must stay byte-for-byte the same, since
messages already posted carry them. An id of ours that no kind reads gets "This button is not
valid any more."

A click is handled by the class's :meth:`~DominoButton.clicked`, with the dominoes cog as its
:class:`Host` (the table service, the error guard, opening a started game, private hands).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol

import discord

from bot.errors import (
    AlreadySeated,
    NotInvited,
    NotSeated,
    SeatsEmpty,
    ServiceError,
    StaleAction,
    TableFinished,
    WrongStatus,
)
from bot.i18n import tr, trn
from bot.tables.service import TableInfo, TableService
from cogs.domino import practice, texts
from cogs.domino.rules_pages import RulesSelect
from cogs.names import table_name
from cogs.records.achievements import earned_lines, shown_at_match_end
from domino import Draw, Pass, Play, Tile

Interaction = discord.Interaction[Any]
Style = discord.ButtonStyle

COG_NAME = "Domino"
REVIEW_COG = "Review"
PREFIX = "domino"

_TABLE = r"(?P<table>[0-9]{1,19})"
_HAND = r"(?P<hand>[0-9]{1,9})"
_SEQ = r"(?P<seq>[0-9]{1,9})"
#: Any id of ours, however long or malformed (what :class:`InvalidButton` answers when no kind
#: reads it).
ANY_ID = re.compile(r"domino:(?s:.*)")
_TABLE_PART = re.compile(r"domino:[^:]*:([0-9]{1,19})(?::.*)?", re.DOTALL)


class BadButton(Exception):
    """A custom id that does not make sense (forged or from an incompatible version)."""


class Host(Protocol):
    """What a click needs of the dominoes cog."""

    service: TableService

    def guard(
        self, interaction: Interaction, what: str, table_id: int | None
    ) -> AbstractAsyncContextManager[None]:
        """Errors inside become short ephemeral answers."""
        ...

    async def reply(self, interaction: Interaction, text: str, **kwargs: Any) -> None: ...

    async def start(self, info: TableInfo, user_id: int, *, fill: bool) -> TableInfo: ...

    async def opened(self, interaction: Interaction, info: TableInfo) -> bool: ...

    async def show_hand(
        self,
        interaction: Interaction,
        table_id: int,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
    ) -> None: ...

    def claim_hand(self, interaction: Interaction, table_id: int, seq: int) -> None: ...

    async def rematch(self, interaction: Interaction, table_id: int) -> None: ...

    async def replay_page(self, interaction: Interaction, page: ReplayPageButton) -> None: ...


async def guarded(
    interaction: Interaction,
    what: str,
    table_id: int,
    body: Callable[[Host], Awaitable[None]],
    *,
    new_message: bool = False,
) -> None:
    """Defer ``interaction`` and run ``body`` with the cog inside its error guard (a new
    ephemeral message is thought about when ``new_message``, else the message clicked is)."""
    host: Host | None = interaction.client.get_cog(COG_NAME)  # type: ignore[assignment]
    if host is None:  # unloaded while the click was on its way
        return
    async with host.guard(interaction, what, table_id):
        if new_message:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        try:
            await body(host)
        except ValueError as exc:  # an argument the engine refuses (a forged id)
            raise BadButton(str(exc)) from exc


class DominoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANY_ID):
    """The common part of every button: its id, its look, and the guarded click."""

    kind: ClassVar[str] = ""
    #: The click opens a fresh ephemeral message (else it edits the message clicked).
    new_message: ClassVar[bool] = False

    def __init__(
        self,
        table_id: int,
        *args: object,
        label: str = "",
        style: discord.ButtonStyle = Style.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        text = ":".join([PREFIX, self.kind, str(table_id), *(str(a) for a in args)])
        if len(text) > 100 or not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        button = discord.ui.Button(label=label or None, style=style, disabled=disabled,
                                   custom_id=text)
        super().__init__(button, row=row)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DominoButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        """The button an id of this kind stands for (the template bounds every number)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        await guarded(
            interaction,
            f"button {self.kind}",
            self.table_id,
            lambda host: self.clicked(host, interaction),
            new_message=self.new_message,
        )

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        """What the click does (the interaction is deferred already)."""
        raise BadButton(self.kind)


def make_view(buttons: list[DominoButton]) -> discord.ui.View:
    """A view holding ``buttons`` (fully dynamic: nothing is kept in memory per message)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


# ------------------------------------------------------------------------------ lobby


class JoinButton(DominoButton, template=rf"domino:join:{_TABLE}"):
    """Take a seat at a lobby (at a challenge only the invited may)."""

    kind = "join"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.service.join(self.table_id, interaction.user.id, table_name(interaction.user))


class LeaveButton(DominoButton, template=rf"domino:leave:{_TABLE}"):
    """Give up one's seat at a lobby."""

    kind = "leave"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.service.leave(self.table_id, interaction.user.id)


class AddComputerButton(DominoButton, template=rf"domino:ai:{_TABLE}:(?P<level>[a-z]{{1,12}})"):
    """Seat a computer player of one level (the host only)."""

    kind = "ai"

    def __init__(self, table_id: int, level: str, **look: Any) -> None:
        super().__init__(table_id, level, **look)
        self.level = level

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(int(match["table"]), match["level"])

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.service.add_computer(self.table_id, interaction.user.id, level=self.level)


class AddComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"domino:addai:{_TABLE}"
):
    """The lobby's one "Add computer" menu: the host picks a level, each said with what it
    does (the host only)."""

    def __init__(
        self,
        table_id: int,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{PREFIX}:addai:{table_id}",
            placeholder=placeholder or None,
            options=options or [discord.SelectOption(label="-")],
        )
        super().__init__(select, row=row)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AddComputerSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]

        async def add(host: Host) -> None:
            await host.service.add_computer(
                self.table_id, interaction.user.id, level=str(values[0])
            )

        await guarded(interaction, "select addai", self.table_id, add)


class StartButton(DominoButton, template=rf"domino:start:{_TABLE}"):
    """The host starts the match; with empty seats he is asked whether computers fill them."""

    kind = "start"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        locale = interaction.locale.value
        try:
            info = await host.start(
                await host.service.get(self.table_id), interaction.user.id, fill=False
            )
        except SeatsEmpty as exc:
            button = FillButton(
                self.table_id,
                label=tr(locale, "Start with computer players"),
                style=Style.primary,
            )
            await interaction.followup.send(
                trn(
                    locale,
                    "One seat is empty. Fill it with a computer player and start?",
                    "{count} seats are empty. Fill them with computer players and start?",
                    int(exc.params.get("empty", 0)),
                ),
                view=make_view([button]),
                ephemeral=True,
            )
            return
        await host.opened(interaction, info)


class FillButton(DominoButton, template=rf"domino:fill:{_TABLE}"):
    """Start with computer players in the empty seats."""

    kind = "fill"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        info = await host.start(
            await host.service.get(self.table_id), interaction.user.id, fill=True
        )
        if await host.opened(interaction, info):
            await interaction.edit_original_response(
                content=tr(interaction.locale.value, "The match has started."), view=None
            )


class CancelButton(DominoButton, template=rf"domino:cancel:{_TABLE}"):
    """Cancel the table (its host, or anyone with Manage Server)."""

    kind = "cancel"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        manager = bool(interaction.permissions.manage_guild)
        await host.service.cancel(self.table_id, interaction.user.id, force=manager)


# -------------------------------------------------------------------------- challenge

#: The invited users' ids joined by ``.``: a copy for the eye; the store's list decides.
_INVITED = r"(?::(?P<invited>[0-9.]{1,60}))?"


class _ChallengeButton(DominoButton, template=ANY_ID):
    """A button of a challenge; its id carries the invited users' ids (``invited``)."""

    def __init__(self, table_id: int, invited: str = "", **look: Any) -> None:
        super().__init__(table_id, *([invited] if invited else []), **look)

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(int(match["table"]), match["invited"] or "")


class AcceptButton(_ChallengeButton, template=rf"domino:accept:{_TABLE}{_INVITED}"):
    """An invited player accepts; the last acceptance starts the match. A start that is
    refused gives the acceptance back (the reason is answered), so accepting again retries."""

    kind = "accept"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        user = interaction.user
        if not (await host.service.get(self.table_id)).is_challenge:
            raise NotInvited("This challenge is not for you.")  # a forged id: no open seat
        joined = True
        try:
            info = await host.service.join(self.table_id, user.id, table_name(user))
        except AlreadySeated:
            info = await host.service.get(self.table_id)
            if not all(info.is_seated(u) for u in info.invited):
                raise
            joined = False  # seated, but the match did not start: try again
        if not all(info.is_seated(u) for u in info.invited):
            return
        try:
            info = await host.start(info, info.host_id, fill=True)
        except WrongStatus:
            return  # another acceptance started it a moment ago
        except Exception:
            if joined:
                with contextlib.suppress(ServiceError):
                    await host.service.leave(self.table_id, user.id)
            raise
        await host.opened(interaction, info)


class DeclineButton(_ChallengeButton, template=rf"domino:decline:{_TABLE}{_INVITED}"):
    """An invited player declines (the host withdraws)."""

    kind = "decline"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        user = interaction.user
        info = await host.service.decline(self.table_id, user.id)
        public = info.table.locale
        text = (
            tr(public, "{user} withdrew the challenge.", user=user.mention)
            if user.id == info.host_id
            else tr(public, "{user} declined the challenge.", user=user.mention)
        )
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())


# ----------------------------------------------------------------------- game message


class TilesButton(DominoButton, template=rf"domino:tiles:{_TABLE}(?::{_SEQ})?"):
    """My tiles: the clicker's private hand message (``seq``: the state the message shows).

    Answered as an update of the game message it is on (nothing changes there), so the click's
    token can redraw that public message for 15 minutes; the hand goes out as an ephemeral
    followup, edited by its id (:mod:`cogs.domino.hand_message`)."""

    kind = "tiles"

    def __init__(self, table_id: int, seq: int | None = None, **look: Any) -> None:
        super().__init__(table_id, *([] if seq is None else [seq]), **look)

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(int(match["table"]), None if match["seq"] is None else int(match["seq"]))

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        info = await host.service.get(self.table_id)
        if info.status == "running":
            message = interaction.message
            current = info.table.message_id
            if message is not None and current is not None and message.id != current:
                await host.reply(
                    interaction,
                    tr(
                        interaction.locale.value,
                        "This message is out of date: use the latest game message.",
                    ),
                )
                return
        await host.show_hand(interaction, self.table_id, new=True)


class ResignButton(DominoButton, template=rf"domino:resign:{_TABLE}"):
    """Resign: asks for a confirmation first."""

    kind = "resign"
    new_message = True

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        info = await host.service.get(self.table_id)
        if info.status == "lobby":
            raise WrongStatus("The match has not started yet.")
        if info.status != "running":
            raise TableFinished("This table is closed.")
        if not info.is_seated(interaction.user.id):
            raise NotSeated("You are not seated at this table.")
        text, view = confirm_resign(interaction.locale.value, self.table_id)
        await interaction.followup.send(text, view=view, ephemeral=True)


class ConfirmResignButton(DominoButton, template=rf"domino:resignok:{_TABLE}"):
    """The confirmation: the clicker's side loses the match."""

    kind = "resignok"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.service.resign(self.table_id, interaction.user.id)
        await interaction.edit_original_response(
            content=tr(interaction.locale.value, "You resigned."), view=None
        )


class KeepPlayingButton(DominoButton, template=rf"domino:keepplaying:{_TABLE}"):
    """The resignation's cancel: nothing changes, the question goes."""

    kind = "keepplaying"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        info = await host.service.get(self.table_id)
        if not info.is_seated(interaction.user.id):
            raise NotSeated("You are not seated at this table.")
        locale = interaction.locale.value
        if info.status != "running":
            words = tr(locale, "The match is over.")
        else:
            words = tr(locale, "You keep playing.")
        await interaction.edit_original_response(content=words, view=None)


def confirm_resign(locale: str | None, table_id: int) -> tuple[str, discord.ui.View]:
    """The ephemeral question that confirms a resignation: Resign, or Keep playing."""
    buttons: list[DominoButton] = [
        ConfirmResignButton(table_id, label=tr(locale, "Resign"), style=Style.danger),
        KeepPlayingButton(table_id, label=tr(locale, "Keep playing"), style=Style.secondary),
    ]
    return tr(locale, "Resign? Your side loses the match."), make_view(buttons)


class RematchButton(DominoButton, template=rf"domino:rematch:{_TABLE}"):
    """On the match-end post: accept a rematch with the same seats and options."""

    kind = "rematch"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.rematch(interaction, self.table_id)


class ReviewButton(DominoButton, template=rf"domino:review:{_TABLE}"):
    """On the match-end post: the clicker's own review of the match, answered privately (by
    the review cog, when it is loaded)."""

    kind = "review"
    new_message = True

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        reviewer = interaction.client.get_cog(REVIEW_COG)  # type: ignore[attr-defined]
        if reviewer is None:
            raise ServiceError("Reviews are not available right now.")
        await reviewer.answer(interaction, self.table_id, None)


class AchievementsButton(DominoButton, template=rf"domino:achv:{_TABLE}"):
    """On the match-end post: who earned which achievement in the match and what it is for,
    answered privately to whoever asks (the post says it in one line)."""

    kind = "achv"
    new_message = True

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        locale = interaction.locale.value
        lines = earned_lines(locale, await shown_at_match_end(host.service.store, self.table_id))
        text = "\n".join(lines) or tr(locale, "No achievements were earned in this match.")
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


# ----------------------------------------------------------------------------- replay


class ReplayPageButton(
    DominoButton,
    template=rf"domino:replay:{_TABLE}:(?P<shown>[0-9]{{1,3}}):(?P<to>[0-9]{{1,3}})"
    r":(?P<owner>[0-9]{1,20}):(?P<share>[01])",
):
    """Previous or Next hand on a replay: the hand the message shows, the one to show, who
    asked for it (only he turns the pages) and whether it was shared."""

    kind = "replay"

    def __init__(self, table_id: int, shown: int, to: int, owner: int, share: bool,
                 **look: Any) -> None:
        super().__init__(table_id, shown, to, owner, int(share), **look)
        self.shown, self.to, self.owner, self.share = shown, to, owner, share

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(int(match["table"]), int(match["shown"]), int(match["to"]),
                   int(match["owner"]), match["share"] == "1")

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.replay_page(interaction, self)


# ---------------------------------------------------------------------- private hand


class _TurnButton(DominoButton, template=ANY_ID):
    """A button of a player's hand message made at one state: ``hand`` and ``seq``."""

    def __init__(self, table_id: int, hand: int, seq: int, **look: Any) -> None:
        super().__init__(table_id, hand, seq, **look)
        self.hand = hand
        self.seq = seq

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]))


class PlayButton(
    DominoButton,
    template=rf"domino:play:{_TABLE}:(?P<tile>[0-9]-[0-9])"
    rf":(?P<end>any|ask|left|right|up|down):{_HAND}:{_SEQ}",
):
    """Lay a tile: ``end`` is where (``any``: the only way; ``ask``: fits several ends, so the
    next message asks which)."""

    kind = "play"

    def __init__(
        self, table_id: int, tile: Tile, end: str, hand: int, seq: int, **look: Any
    ) -> None:
        super().__init__(table_id, tile, end, hand, seq, **look)
        self.tile, self.end, self.hand, self.seq = tile, end, hand, seq

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(
            int(match["table"]),
            Tile.parse(match["tile"]),
            match["end"],
            int(match["hand"]),
            int(match["seq"]),
        )

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        if self.end == "ask":
            info = await host.service.get(self.table_id)
            if info.seq != self.seq:
                await stale(host, interaction, self.table_id)
                return
            await host.show_hand(interaction, self.table_id, new=False, choose=self.tile)
            return
        action = Play(self.tile, None if self.end == "any" else self.end)  # type: ignore[arg-type]
        await act(host, interaction, self.table_id, action, self.seq)


class DrawButton(_TurnButton, template=rf"domino:draw:{_TABLE}:{_HAND}:{_SEQ}"):
    """Draw a tile from the pile."""

    kind = "draw"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await act(host, interaction, self.table_id, Draw(), self.seq)


class PassButton(_TurnButton, template=rf"domino:pass:{_TABLE}:{_HAND}:{_SEQ}"):
    """Pass (nothing fits and nothing can be drawn)."""

    kind = "pass"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await act(host, interaction, self.table_id, Pass(), self.seq)


class BackButton(_TurnButton, template=rf"domino:back:{_TABLE}:{_HAND}:{_SEQ}"):
    """Back from choosing an end to the whole hand."""

    kind = "back"

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        await host.show_hand(interaction, self.table_id, new=False)


class HintButton(DominoButton, template=rf"domino:hint:{_TABLE}(?::{_HAND}:{_SEQ})?"):
    """Practice tables only: what the strongest computer player would play, and why, said in
    the hand message it was pressed in."""

    kind = "hint"

    def __init__(self, table_id: int, hand: int = 0, seq: int = 0, **look: Any) -> None:
        super().__init__(table_id, hand, seq, **look)
        self.hand = hand
        self.seq = seq

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        if match["seq"] is None:
            return cls(int(match["table"]))
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]))

    async def clicked(self, host: Host, interaction: Interaction) -> None:
        locale = interaction.locale.value
        text = await practice.hint_answer(
            host.service, locale, self.table_id, interaction.user.id, self.seq
        )
        await host.show_hand(interaction, self.table_id, new=False, notice=f"💡 {text}")


# ------------------------------------------------------------------------- a turn's action


async def stale(host: Host, interaction: Interaction, table_id: int) -> None:
    """Say the button is out of date and show the hand as it is now."""
    await host.reply(interaction, tr(interaction.locale.value, texts.STALE))
    with contextlib.suppress(ServiceError):
        await host.show_hand(interaction, table_id, new=False)


async def act(
    host: Host, interaction: Interaction, table_id: int, action: Play | Draw | Pass, seq: int
) -> None:
    """Play the clicker's move (made for the state ``seq``), then redraw his hand message."""
    locale = interaction.locale.value
    try:
        result = await host.service.act(table_id, interaction.user.id, action, expected_seq=seq)
    except StaleAction:
        await stale(host, interaction, table_id)
        return
    host.claim_hand(interaction, table_id, result.seq + 1)
    if isinstance(action, Play):
        notice = tr(locale, "You played {tile}.", tile=str(action.tile))
    elif isinstance(action, Draw):
        notice = tr(locale, "You drew a tile.")
    else:
        notice = tr(locale, "You passed.")
    if result.hand_result is not None:
        notice += " " + tr(locale, "The hand is over.")
    await host.show_hand(interaction, table_id, new=False, notice=notice)


#: Every kind, each with its own template.
KINDS: tuple[type[DominoButton], ...] = (
    JoinButton,
    LeaveButton,
    AddComputerButton,
    StartButton,
    FillButton,
    CancelButton,
    AcceptButton,
    DeclineButton,
    TilesButton,
    ResignButton,
    ConfirmResignButton,
    KeepPlayingButton,
    RematchButton,
    ReviewButton,
    AchievementsButton,
    ReplayPageButton,
    PlayButton,
    DrawButton,
    PassButton,
    BackButton,
    HintButton,
)


def _unread(kinds: tuple[type[discord.ui.DynamicItem[Any]], ...]) -> re.Pattern[str]:
    """Any id of ours that none of ``kinds`` reads (so that a click has one reader only)."""
    read = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in kinds
    )
    return re.compile(rf"(?!(?:{read})\Z){ANY_ID.pattern}")


class InvalidButton(DominoButton, template=_unread((*KINDS, AddComputerSelect, RulesSelect))):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    kind = "invalid"

    def __init__(self, custom_id: str) -> None:  # kept as it came: it is not ours to build
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(custom_id=custom_id))
        table = _TABLE_PART.fullmatch(custom_id)
        self.table_id = int(table[1]) if table else 0  # 0: no table number to read

    @classmethod
    def read(cls, match: re.Match[str]) -> DominoButton:
        return cls(match.string)

    async def callback(self, interaction: Interaction) -> None:
        host: Host | None = interaction.client.get_cog(COG_NAME)  # type: ignore[assignment]
        if host is None:
            return
        async with host.guard(interaction, "button", self.table_id or None):
            raise BadButton(self.custom_id)


#: What the cog registers with ``bot.add_dynamic_items``: each id has exactly one reader.
ALL: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    *KINDS, AddComputerSelect, RulesSelect, InvalidButton
)
