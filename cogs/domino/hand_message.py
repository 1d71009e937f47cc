"""A player's private hand message: his tiles (picture and buttons), what happened since his
last turn, and his choices (a tile's end, Draw, Pass, Hint). Sent ephemerally to him alone,
and refreshed when his turn comes through the interaction token it was sent with.

My tiles is answered as an update of the public game message it is on (so that click's token
can also redraw the game message, outside the bot token's global limit); the hand goes out as an
ephemeral followup of that click and is edited by its id with the same token. Only a click made
in the hand message itself edits the hand as the click's own message.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.errors import ServiceError
from bot.i18n import END_NAMES, joined, named_ends, picture_options, tr
from bot.tables import practice
from bot.tables.service import TableInfo, TableService
from bot.workers import pictures
from cogs.colours import BLUE, GREEN, GREY
from cogs.domino import texts
from cogs.domino.alt_text import hand_alt_text
from cogs.domino.buttons import (
    BackButton,
    DominoButton,
    DrawButton,
    HintButton,
    PassButton,
    PlayButton,
)
from cogs.domino.game_message import HAND_LOG_LINES, action_rows, card
from domino import Draw, Pass, Play, Tile, View

log = logging.getLogger(__name__)

Style = discord.ButtonStyle
MAX_TILE_BUTTONS = 20  # four rows of five; the fifth row holds Draw / Pass / Left / Right
HAND_TOKEN_LIFETIME = 14 * 60  # interaction tokens last 15 minutes


def _ends_of(view: View, tile: Tile) -> list[tuple[str, int]]:
    """The ends where ``tile`` may be laid now, with the number each shows."""
    numbers = dict(view.open_ends)
    if view.ends is not None:
        numbers.setdefault("left", view.ends[0])
        numbers.setdefault("right", view.ends[1])
    return [
        (a.end, numbers[a.end])
        for a in view.legal
        if isinstance(a, Play) and a.tile == tile and a.end in numbers
    ]


def end_buttons(
    locale: str | None, info: TableInfo, acting: View, tile: Tile
) -> list[DominoButton]:
    """One button per end ``tile`` may go to, named by the number it is laid on ("on the 4"),
    the number the picture shows on that end (and the end's name where two show the same)."""
    ends = _ends_of(acting, tile)
    numbers = [number for _, number in ends]
    buttons = []
    for end, number in ends:
        text = tr(locale, "on the {number}", number=number)
        if numbers.count(number) > 1:
            text = tr(locale, "{place} ({end})", place=text, end=tr(locale, END_NAMES[end]))
        buttons.append(
            PlayButton(
                info.id, tile, end, acting.hand_number, info.seq,
                label=text, style=Style.primary, row=0,
            )
        )
    return buttons


async def hint_buttons(
    service: TableService, locale: str | None, info: TableInfo, acting: View | None
) -> list[DominoButton]:
    """The Hint button for the player to move at a practice table (none elsewhere)."""
    if acting is None or info.status != "running":
        return []
    if not await practice.offers_hints(service, info):
        return []
    return [
        HintButton(
            info.id, acting.hand_number, info.seq, label=tr(locale, "Hint"), style=Style.secondary,
            row=4,
        )
    ]


def match_over(locale: str | None, info: TableInfo, view: View | None = None) -> str:
    """``The match is over. Bob won the match!`` (who won, when the match has a result)."""
    over = tr(locale, "The match is over.")
    outcome = view.outcome if view is not None else None
    if outcome is None and info.status == "finished":
        public = info.public_view()
        outcome = public.outcome if public is not None else None
    return over if outcome is None else over + " " + texts.outcome_text(locale, info, outcome)


def acting_view(info: TableInfo, views: Sequence[View]) -> View | None:
    """The view of the user's seat that is to move now, if any."""
    for view in views:
        if view.seat is None or view.seat != info.turn or not view.legal:
            continue
        row = info.seats[view.seat]
        if row is not None and row.kind == "human":
            return view
    return None


def hand_payload(
    locale: str | None,
    info: TableInfo,
    views: Sequence[View],
    *,
    choose: Tile | None = None,
    notice: str | None = None,
    since: Sequence[str] = (),
    new_hand: bool = False,
) -> tuple[str, list[DominoButton]]:
    """The text and buttons of a player's private hand message.

    ``choose``: the tile whose end the player picks now (one button per end, Back);
    ``notice``: what his click did, said first ("You played 3-5. The hand is over.");
    ``since``: what happened since the player's last turn, one event a line;
    ``new_hand``: the message showed an earlier hand's tiles (so it says these are new).
    """
    acting = acting_view(info, views)
    shown = acting or views[0]
    seq = info.seq
    hand_no = shown.hand_number
    lines: list[str] = []
    if notice:
        lines.append(notice)
    if since:
        lines.append(tr(locale, "Since your last turn:"))
        lines.extend(f"· {line}" for line in since)
    if new_hand and info.status == "running" and shown.outcome is None:
        lines.append("**" + tr(locale, "Hand {number}: new tiles.", number=hand_no) + "**")
    if len(views) > 1:
        lines.append(
            tr(
                locale,
                "Your seats: {seats}.",
                seats=joined(locale, [str(v.seat + 1) for v in views if v.seat is not None]),
            )
        )
    buttons: list[DominoButton] = []
    t = info.id
    if info.status != "running" or shown.outcome is not None:
        lines.append(match_over(locale, info, shown))
        return "\n".join(lines), buttons
    if any(
        (row := info.seats[v.seat]) is not None and row.kind != "human"
        for v in views
        if v.seat is not None
    ):
        lines.append(tr(locale, "A computer plays for you now, after too many time-outs."))
    if acting is None:
        turn = info.turn
        waiting = texts.seat_name(info, turn, locale) if turn is not None else "?"
        lines.append(tr(locale, "Hand {number}. Waiting for {name}.", number=hand_no, name=waiting))
    elif choose is not None and acting is not None and _ends_of(acting, choose):
        lines.append(tr(locale, "Where do you lay {tile}?", tile=str(choose)))
        return "\n".join(lines), [
            *end_buttons(locale, info, acting, choose),
            BackButton(
                t, hand_no, seq, label=tr(locale, "Back"), style=Style.secondary, row=0
            ),
        ]
    else:
        if len(views) > 1 and acting.seat is not None:
            lines.append(tr(locale, "You play seat {seat} now.", seat=acting.seat + 1))
        if shown.ends is None:
            lines.append(tr(locale, "Your turn: you open the hand.", number=hand_no))
        else:
            if len(shown.open_ends) > 2:  # the spinner's up and down are open
                lines.append(
                    tr(
                        locale,
                        "Your turn (hand {number}). Open ends: {ends}.",
                        number=hand_no,
                        ends=named_ends(locale, shown.open_ends),
                    )
                )
            else:
                lines.append(
                    tr(
                        locale,
                        "Your turn (hand {number}). Open ends: {left} and {right}.",
                        number=hand_no,
                        left=shown.ends[0],
                        right=shown.ends[1],
                    )
                )
            if shown.ruleset.end_scoring:
                lines.append(
                    tr(locale, "The ends add up to {count}.", count=shown.end_count)
                )
        if any(isinstance(a, Draw) for a in shown.legal):
            lines.append(tr(locale, "No tile fits: draw one."))
        elif any(isinstance(a, Pass) for a in shown.legal):
            lines.append(tr(locale, "No tile fits and you cannot draw: pass."))
    playable = {
        tile: "ask" if len(_ends_of(acting, tile)) > 1 else "any"
        for tile in (acting.playable_tiles() if acting is not None else ())
    }
    hand = list(shown.hand or ())
    if len(hand) > MAX_TILE_BUTTONS:
        hand = [x for x in hand if x in playable] + [x for x in hand if x not in playable]
        hand = sorted(hand[:MAX_TILE_BUTTONS])
    for i, tile in enumerate(hand):
        end = playable.get(tile)
        buttons.append(
            PlayButton(
                t,
                tile,
                end or "any",
                hand_no,
                seq,
                label=str(tile),
                style=Style.primary if end else Style.secondary,
                disabled=end is None,
                row=i // 5,
            )
        )
    if acting is not None:
        if any(isinstance(a, Draw) for a in acting.legal):
            buttons.append(
                DrawButton(
                    t, hand_no, seq, label=tr(locale, "Draw"), style=Style.success, row=4
                )
            )
        if any(isinstance(a, Pass) for a in acting.legal):
            buttons.append(
                PassButton(
                    t, hand_no, seq, label=tr(locale, "Pass"), style=Style.success, row=4
                )
            )
    return "\n".join(lines), buttons


@dataclass
class _HandMessage:
    """A player's private hand message, reachable through its interaction's token."""

    interaction: discord.Interaction[Any]
    locale: str | None
    seq: int
    acting: bool  # the message offered actions (it must not keep offering them)
    hand: int = 0  # the hand whose tiles it shows (0: not known)
    since: float = field(default_factory=time.monotonic)
    #: The ephemeral followup holding the hand, when the interaction's own message is the
    #: public one (My tiles); None: the click was made in the hand message itself.
    message_id: int | None = None


class PublicMessage(Exception):
    """A hand was about to be drawn on a message others see (never done)."""


def _in_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction``'s own message is an ephemeral one (its clicker's alone)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def edit_hand(
    interaction: discord.Interaction[Any], message_id: int | None, **fields: Any
) -> None:
    """Edit a private hand message: the followup ``message_id`` sent with ``interaction``'s
    token, or (None) the ephemeral message ``interaction``'s click was made in. Refuses to edit a
    public message: after My tiles, the click's own message is the game message."""
    if message_id is not None:
        await interaction.followup.edit_message(message_id, **fields)
        return
    if not _in_private(interaction):
        raise PublicMessage(f"interaction {interaction.id}: its own message is not private")
    await interaction.edit_original_response(**fields)


async def send_hand(interaction: discord.Interaction[Any], **fields: Any) -> int:
    """Send a private hand message as an ephemeral followup of ``interaction``; its id."""
    message = await interaction.followup.send(ephemeral=True, wait=True, **fields)
    return message.id


class HandMessages:
    """The private hand messages the bot keeps fresh: one per player and table, reachable
    through the interaction it was sent with."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._hands: dict[tuple[int, int], _HandMessage] = {}
        # (table, user) -> the table's version when he last opened his tiles or clicked one
        self._seen: dict[tuple[int, int], int] = {}
        # (table, user) -> held while his message is read and sent: the later sender has read
        # the later state, so a slow redraw never overwrites a newer one
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        #: Told the table of each hand message kept (the tables another process runs are
        #: watched for moves: :class:`~bot.tables.places.TableWatch`).
        self.kept: Callable[[int], None] | None = None

    def _lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((table_id, user_id), asyncio.Lock())

    def seen_at(self, table_id: int, user_id: int) -> int | None:
        """The table's version (``seq``) when ``user_id`` last opened his tiles there or
        pressed one of them."""
        return self._seen.get((table_id, user_id))

    def holds(self, table_id: int) -> bool:
        """Whether a hand message of ``table_id`` is kept fresh here."""
        return any(k[0] == table_id for k in self._hands)

    def drop(self, table_id: int, user_id: int) -> None:
        """Stop refreshing ``user_id``'s hand message at the table."""
        self._hands.pop((table_id, user_id), None)

    def forget(self, table_id: int) -> None:
        """Drop what is kept about a closed table's private hand messages."""
        for key in [k for k in self._hands if k[0] == table_id]:
            del self._hands[key]
        for key in [k for k in self._seen if k[0] == table_id]:
            del self._seen[key]
        for key in [k for k in self._locks if k[0] == table_id and not self._locks[k].locked()]:
            del self._locks[key]

    async def state_for(self, table_id: int, user_id: int) -> tuple[TableInfo, list[View]]:
        """The table and the user's private views, taken at the same moment (an open table is
        in memory: neither call waits, so nothing can move in between)."""
        info = await self.service.get(table_id)
        views = await self.service.views_for(table_id, user_id)
        return info, views

    async def show(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
    ) -> None:
        """Send (``new``: as an ephemeral followup) or edit (the message clicked in) the user's
        private hand message for the current state. A turn's button clicked on a public message
        (a forged id) redraws nothing: that message is not his hand."""
        if not new and not _in_private(interaction):
            await self.state_for(table_id, interaction.user.id)  # (a stranger is told so)
            log.info("table %s: a hand's button on a public message; nothing redrawn", table_id)
            return
        async with self._lock(table_id, interaction.user.id):
            await self._show(interaction, table_id, new, choose, notice)

    async def _show(
        self, interaction: discord.Interaction[Any], table_id: int, new: bool,
        choose: Tile | None = None, notice: str | None = None, message_id: int | None = None,
    ) -> None:
        user_id = interaction.user.id
        locale = interaction.locale.value
        try:
            info, views = await self.state_for(table_id, user_id)
            if new:
                self._seen[(table_id, user_id)] = info.seq
        except ServiceError:
            info = await self.service.get(table_id)
            if info.status == "running":
                raise
            # The match is over (or was cancelled): say so, and who won, in place of the tiles.
            content = "\n".join(x for x in (notice, match_over(locale, info)) if x)
            self.drop(table_id, user_id)
            layout = card(GREY, discord.ui.TextDisplay(content))
            if new:
                await send_hand(interaction, view=layout)
            else:
                await edit_hand(
                    interaction, message_id, content=None, attachments=[], view=layout
                )
            return
        await self._send(
            interaction, info, views, locale, new=new, choose=choose, notice=notice,
            message_id=message_id,
        )

    async def _send(
        self,
        interaction: discord.Interaction[Any],
        info: TableInfo,
        views: Sequence[View],
        locale: str | None,
        *,
        new: bool,
        choose: Tile | None = None,
        notice: str | None = None,
        message_id: int | None = None,
    ) -> None:
        history = await self.service.history(info.id)
        seats = [v.seat for v in views if v.seat is not None]
        since = [
            texts.entry_text(locale, info, e) for e in history.since(seats, limit=HAND_LOG_LINES)
        ]
        before = self._hands.get((info.id, interaction.user.id))
        hand_no = views[0].hand_number if views else 0
        content, buttons = hand_payload(
            locale, info, views, choose=choose, notice=notice, since=since,
            new_hand=before is not None and before.hand not in (0, hand_no),
        )
        if choose is None:
            acting = acting_view(info, views)
            buttons += await hint_buttons(self.service, locale, info, acting)
        files: list[discord.File] = []
        gallery: list[discord.MediaGalleryItem] = []
        for view in views:
            png = await pictures.hand_png(view, **picture_options(locale))
            if png is not None:
                name = "hand.png" if len(views) == 1 else f"hand-seat{(view.seat or 0) + 1}.png"
                alt = hand_alt_text(view, locale)
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt))
                gallery.append(discord.MediaGalleryItem(f"attachment://{name}", description=alt))
        acting = acting_view(info, views) is not None
        items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(content)]
        if gallery:
            items.append(discord.ui.MediaGallery(*gallery))
        items.extend(action_rows(buttons))
        layout = card(GREEN if acting else BLUE, *items)
        if new:
            message_id = await send_hand(interaction, view=layout, files=files)
        else:
            await edit_hand(
                interaction, message_id, content=None, attachments=files, view=layout
            )
        self._hands[(info.id, interaction.user.id)] = _HandMessage(
            interaction, locale, info.seq, acting, hand_no, message_id=message_id
        )
        if self.kept is not None:
            self.kept(info.id)

    def claim(self, interaction: discord.Interaction[Any], table_id: int, seq: int) -> None:
        """The player's own click is about to redraw his hand message for the state at ``seq``:
        the table's refresh must not race it (and wipe its "You played ..." line)."""
        shown = self._hands.get((table_id, interaction.user.id))
        self._seen[(table_id, interaction.user.id)] = seq
        self._hands[(table_id, interaction.user.id)] = _HandMessage(
            interaction, interaction.locale.value, seq, False, shown.hand if shown else 0
        )

    async def refresh(self, info: TableInfo, *, everyone: bool = False) -> None:
        """Refresh the remembered hand messages of the player to move, and of a player whose
        message still offers actions although his turn is gone (``everyone``: all)."""
        for table_id, user_id in [k for k in self._hands if k[0] == info.id]:
            async with self._lock(table_id, user_id):
                await self._refresh_one(table_id, user_id, everyone=everyone)

    async def _refresh_one(self, table_id: int, user_id: int, *, everyone: bool) -> None:
        """Redraw one remembered message if it is behind the table as it is now (read after
        any redraw of his own click has been sent)."""
        hand = self._hands.get((table_id, user_id))
        if hand is None:
            return
        if time.monotonic() - hand.since > HAND_TOKEN_LIFETIME:
            del self._hands[(table_id, user_id)]
            return
        try:
            info = await self.service.get(table_id)
        except ServiceError:
            info = None
        if info is not None and hand.seq == info.seq:
            return
        if (
            info is not None
            and not everyone
            and not hand.acting
            and info.turn not in info.seats_of(user_id)
        ):
            return
        try:
            # (a finished match: the message says so in place of the tiles)
            await self._show(hand.interaction, table_id, False, message_id=hand.message_id)
            if (table_id, user_id) in self._hands:
                self._hands[(table_id, user_id)].since = hand.since
        except (discord.HTTPException, ServiceError, PublicMessage) as exc:
            log.debug("table %s: hand of %s not refreshed: %s", table_id, user_id, exc)
            self._hands.pop((table_id, user_id), None)
