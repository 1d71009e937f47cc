"""``/domino replay``: an animated picture of a finished match, or of one of its hands.

A match of yours, or one played on this server in a channel you can view now, chosen by
autocomplete. What is drawn (one hand of a long match) is decided and refused before the
command answers; the picture is then rebuilt from the stored action log off the event loop,
or read from the replays' cache (:mod:`bot.tables.replay`). A mixin of the dominoes cog; it needs
the cog's ``service`` and ``guard``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import weakref
from contextlib import nullcontext
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.daily import service as daily
from bot.errors import InvalidOptions, StaleAction, TableNotFound
from bot.i18n import tr
from bot.i18n.commands import Command
from bot.store.table_extras import FinishedMatch, FinishedRepo
from bot.tables import replay
from cogs.domino import buttons, texts
from cogs.domino.alt_text import replay_alt_text
from cogs.names import escape_name, public_name
from cogs.places import readable

Interaction = discord.Interaction[Any]
REPLAY_PICTURE = "replay.gif"


def replay_names(
    locale: str | None, match: FinishedMatch, viewer: discord.abc.User, guild_id: int | None
) -> list[str]:
    """The name of each seat of ``match`` as ``viewer`` may read it in ``guild_id`` (raw).

    On the server where it was played, seats read as at the table. A match of another server
    names no one else there (as ``/domino history`` does): the viewer under his global name,
    computers by seat, other people by number.
    """
    names: list[str] = []
    for row in match.seats:
        if match.guild_id == guild_id or row.user_id is None:
            names.append(texts.picture_name(locale, row))
        elif row.user_id == viewer.id:
            names.append(public_name(viewer))
        else:
            names.append(tr(locale, "Player {number}", number=row.seat + 1))
    return names


def leaves_unnamed(match: FinishedMatch, viewer_id: int, guild_id: int | None) -> bool:
    """Whether :func:`replay_names` leaves someone of ``match`` unnamed in ``guild_id``."""
    if match.guild_id == guild_id:
        return False
    return any(row.user_id not in (None, viewer_id) for row in match.seats)


def match_title(locale: str | None, match: FinishedMatch, names: list[str]) -> str:
    """``Table 12 · Draw · Alice, Bob · 2026-11-23``, with ``names`` as given."""
    day = dt.datetime.fromtimestamp(match.finished_at, dt.UTC).strftime("%Y-%m-%d")
    return tr(
        locale,
        "Table {id} · {variant} · {players} · {day}",
        id=match.table_id,
        variant=texts.variant_name(locale, match.variant),
        players=", ".join(dict.fromkeys(names)) or "-",
        day=day,
    )


def match_label(locale: str | None, match: FinishedMatch, names: list[str]) -> str:
    """The autocomplete choice of a match (plain names, at most 100 characters)."""
    label = match_title(locale, match, names)
    return label if len(label) <= 100 else label[:99] + "…"


def _public_locale(interaction: Interaction, share: bool) -> str | None:
    """The language a replay is written in: the server's when shared, else the asker's."""
    locale = interaction.locale.value
    server = interaction.guild_locale.value if interaction.guild_locale else None
    return (server or locale) if share else locale


def _message(
    public: str | None, match: FinishedMatch, wanted: replay.Plan, names: list[str],
    shown: replay.Replay, interaction: Interaction, share: bool,
) -> tuple[str, discord.File, discord.ui.View | None]:
    """The replay's words, picture and, for one hand of several, Previous and Next hand."""
    description = replay_alt_text(names, shown.moves, public, wanted.hand)
    file = discord.File(io.BytesIO(shown.gif), filename=REPLAY_PICTURE, description=description)
    title = match_title(public, match, [escape_name(n) for n in names])
    if wanted.hand is not None:
        title = tr(public, "{match} · hand {hand}", match=title, hand=wanted.hand)
    content = tr(public, "Replay: {title} ({moves} moves)", title=title, moves=shown.moves)
    if wanted.shortened:
        content += "\n-# " + tr(
            public,
            "A long match: its first hand is shown. Pick another with the hand option"
            " (1 to {count}).",
            count=len(wanted.hands),
        )
    if leaves_unnamed(match, interaction.user.id, interaction.guild_id):
        content += "\n-# " + tr(public, "Players of matches on other servers are not named.")
    return content, file, page_buttons(public, wanted, interaction.user.id, share)


def page_buttons(locale: str | None, wanted: replay.Plan, owner: int, share: bool
                 ) -> discord.ui.View | None:
    """Previous and Next hand under the replay of one hand of a match of several (None
    otherwise); a button with nowhere to go is disabled."""
    hand, hands = wanted.hand, wanted.hands
    if hand is None or len(hands) < 2:
        return None
    before = [h for h in hands if h < hand]
    after = [h for h in hands if h > hand]
    back = buttons.ReplayPageButton(
        wanted.table_id, hand, before[-1] if before else 0, owner, share,
        label=tr(locale, "◀ Previous hand"), disabled=not before,
    )
    forward = buttons.ReplayPageButton(
        wanted.table_id, hand, after[0] if after else 999, owner, share,
        label=tr(locale, "Next hand ▶"), disabled=not after,
    )
    return buttons.make_view([back, forward])


class ReplayMixin:
    """``/domino replay`` and its Previous/Next hand buttons."""

    service: Any
    guard: Any
    _replays: replay.Replays | None = None
    #: One page turn at a time per replay message (the later click sees the page it made).
    _page_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @app_commands.command(
        name="replay", description=locale_str("Watch a finished match again, move by move")
    )
    @app_commands.describe(
        table=locale_str("The match (yours, or one played on this server)"),
        hand=locale_str("Only this hand (left out: the whole match, or a long one's first)"),
        share=locale_str("Post it for everyone here (only you see it if left out)"),
    )
    async def replay_command(
        self,
        interaction: Interaction,
        table: int,
        hand: app_commands.Range[int, 1, 999] | None = None,
        share: bool = False,
    ) -> None:
        """Send the animated replay."""
        async with self.guard(interaction, "/domino replay", table):
            repo = FinishedRepo(self.service.store.db)
            found = await repo.visible(
                interaction.user.id, readable(interaction), table_id=table, limit=1,
                veil=self._veil(interaction),
            )
            if not found:
                raise TableNotFound("No match was played at table {table_id}.", table_id=table)
            match = found[0]
            here = interaction.channel
            parent = here.parent_id if isinstance(here, discord.Thread) else None
            if share and not match.may_share_in(interaction.channel_id, parent):
                raise InvalidOptions(
                    "Table {table_id} was played where not everyone here can look: it can only"
                    " be shown to you (leave share out).",
                    table_id=table,
                )
            # What to draw is decided, and refused, before anything is public.
            wanted = await replay.plan(self.service.store, table, hand)
            public = _public_locale(interaction, share)
            names = replay_names(public, match, interaction.user, interaction.guild_id)
            labels = replay.labels_for(public)
            replays = self.replays()
            shown = await asyncio.to_thread(replays.cached, wanted, names, labels)
            with replays.admit(interaction.user.id) if shown is None else nullcontext():
                await interaction.response.defer(ephemeral=not share, thinking=True)
                if shown is None:
                    shown = await replays.draw(wanted, names, labels)
            content, file, view = _message(public, match, wanted, names, shown, interaction,
                                           share)
            await interaction.followup.send(
                content,
                file=file,
                view=view or discord.utils.MISSING,
                ephemeral=not share,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def replay_page(self, interaction: Interaction, page: buttons.ReplayPageButton
                          ) -> None:
        """Previous or Next hand clicked on a replay (the click is deferred already): the
        message shows that hand's replay, drawn within the same limits as the command's."""
        if interaction.user.id != page.owner:
            raise InvalidOptions(
                "Only the person who asked for this replay turns its pages; ask for your own"
                " with {command}.",
                command=Command("domino replay"),
            )
        message = interaction.message
        lock = self._page_locks.setdefault(message.id if message else 0, asyncio.Lock())
        async with lock:
            current = await interaction.original_response()
            ids = {getattr(c, "custom_id", None) for row in current.components
                   for c in getattr(row, "children", [row])}
            if page.custom_id not in ids:
                raise StaleAction(
                    "This replay shows another hand now: use the buttons it shows."
                )
            repo = FinishedRepo(self.service.store.db)
            found = await repo.visible(
                interaction.user.id, readable(interaction), table_id=page.table_id, limit=1,
                veil=self._veil(interaction),
            )
            if not found:
                raise TableNotFound(
                    "No match was played at table {table_id}.", table_id=page.table_id
                )
            match = found[0]
            wanted = await replay.plan(self.service.store, page.table_id, page.to)
            public = _public_locale(interaction, page.share)
            names = replay_names(public, match, interaction.user, interaction.guild_id)
            labels = replay.labels_for(public)
            replays = self.replays()
            shown = await asyncio.to_thread(replays.cached, wanted, names, labels)
            # A page turn: the cooldown is for asking for replays, not for reading one.
            slot = (replays.admit(interaction.user.id, turning=True) if shown is None
                    else nullcontext())
            with slot:
                if shown is None:
                    shown = await replays.draw(wanted, names, labels)
            content, file, view = _message(public, match, wanted, names, shown, interaction,
                                           page.share)
            await interaction.edit_original_response(
                content=content, attachments=[file], view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    def _veil(self, interaction: Interaction) -> daily.DailyVeil:
        """The daily legs hidden from the asker now."""
        return daily.veil(interaction.user.id, self.service.clock())

    def replays(self) -> replay.Replays:
        """This process's replays: their cache, how many draw at once, the cooldowns."""
        if self._replays is None:
            self._replays = replay.Replays(self.service.store)
        return self._replays

    @replay_command.autocomplete("table")
    async def _replay_choices(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        locale = interaction.locale.value
        repo = FinishedRepo(self.service.store.db)
        matches = await repo.visible(
            interaction.user.id, readable(interaction), limit=100, veil=self._veil(interaction)
        )
        wanted = current.strip().casefold()
        out = []
        for match in matches:
            names = replay_names(locale, match, interaction.user, interaction.guild_id)
            label = match_label(locale, match, names)
            if wanted and wanted not in label.casefold():
                continue
            out.append(Choice(name=label, value=match.table_id))
        return out[:25]
