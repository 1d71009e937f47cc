"""The public game message of a running hand (picture, what just happened, My tiles and
Resign), and the posts of a hand's result and of the match's end, each one container of
Discord's components v2 layout. Public: built only from the
:class:`~bot.tables.service.TableInfo` and the public view (no hidden tile)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import number, picture_options, tr
from bot.tables.service import TableInfo
from bot.workers import pictures
from cogs.colours import BLUE, GOLD, GREEN, GREY
from cogs.domino import texts
from cogs.domino.buttons import DominoButton, ResignButton, TilesButton
from domino import HandResult, Outcome, View
from render.moves import LastMove

Style = discord.ButtonStyle
TABLE_PICTURE = "table.png"
LOG_LINES = 4  # events the game message lists (the latest in bold)
HAND_LOG_LINES = 8  # events a hand message lists (since the player's last turn)


@dataclasses.dataclass(frozen=True, slots=True)
class Picture:
    """A table picture (None: pictures are off) and its alt text."""

    png: bytes | None
    alt: str

    def file(self, name: str) -> discord.File:
        assert self.png is not None
        return discord.File(io.BytesIO(self.png), filename=name, description=self.alt)

    def gallery(self, name: str) -> discord.ui.MediaGallery[Any]:
        """The picture at the message's full width, its alt text as the item's description."""
        return discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{name}", description=self.alt)
        )


def card(colour: discord.Colour, *items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    """One container with the accent ``colour`` holding ``items``: a whole message."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, accent_colour=colour))
    return layout


def action_rows(buttons: Sequence[DominoButton]) -> list[discord.ui.ActionRow[Any]]:
    """The buttons in rows as each asks (``row``), at most five a row, in order."""
    rows: list[discord.ui.ActionRow[Any]] = []
    last: int | None = None
    for button in buttons:
        if not rows or button.row != last or len(rows[-1].children) >= 5:
            rows.append(discord.ui.ActionRow())
            last = button.row
        rows[-1].add_item(button)
    return rows


def layout_texts(layout: discord.ui.LayoutView) -> list[str]:
    """What the text displays of a layout say, in order."""
    return [i.content for i in layout.walk_children() if isinstance(i, discord.ui.TextDisplay)]


async def table_png(
    info: TableInfo, view: View, last: Sequence[LastMove | None] | None = None
) -> bytes | None:
    """The table picture of the public ``view``; ``last``: each seat's latest move, when known."""
    locale = info.table.locale
    options = picture_options(locale)
    if last is not None:
        options["last"] = list(last)
    return await pictures.table_png(view, texts.picture_names(info, locale), **options)


def _turn_text(locale: str | None, info: TableInfo) -> str:
    turn = info.turn
    if turn is None:
        return tr(locale, "Nobody: the match is over.")
    row = info.seats[turn]
    if row is None:
        return "?"
    if row.kind == "computer":
        name = texts.seat_name(info, turn, locale)
        return "▶ " + tr(locale, "{name} (computer) is thinking…", name=name)
    who = (
        texts.mention(info, row.user_id, locale)
        if row.user_id is not None
        else texts.seat_name(info, turn, locale)
    )
    if info.ruleset.people < info.ruleset.seats:
        who = tr(locale, "{who} (seat {seat})", who=who, seat=turn + 1)
    deadline = info.deadline
    if deadline is None:
        return f"▶ {who}"
    if info.correspondence:  # what happens then is the server's time-out rule
        return "▶ " + tr(
            locale, "{who}: your move; your time runs out {when}.", who=who,
            when=f"<t:{int(deadline)}:R>",
        )
    return "▶ " + tr(
        locale,
        "{who}: the bot plays for you {when} if you don't.",
        who=who,
        when=f"<t:{int(deadline)}:R>",
    )


def scores_line(locale: str | None, info: TableInfo, scores: Sequence[int]) -> str:
    """The score of every side on one line: "Team 1 (Ann & Bob): **31** · Team 2 (…): **12**"
    (a colon between name and figure, so "Computer 4" never reads as "Computer 4 31")."""
    target = info.ruleset.target
    parts = [
        tr(locale, "{side}: **{score}**", side=texts.side_label(locale, info, side),
           score=number(locale, score))
        for side, score in enumerate(scores)
    ]
    line = " · ".join(parts)
    if target is not None:
        line = tr(locale, "{scores} (to {target})", scores=line, target=number(locale, target))
    return line


def log_text(lines: Sequence[str], fallback: str) -> str:
    """The move log: one event a line, oldest first, the latest (what just happened) in bold."""
    if not lines:
        return fallback
    *older, latest = lines
    return "\n".join([*(f"· {line}" for line in older), f"**{latest}**"])


def heading(locale: str | None, info: TableInfo, hand_number: int) -> str:
    """ "Partners (Latin) · hand 2 of 4": the message's first line."""
    name = texts.variant_name(locale, info.ruleset.id)
    if info.ruleset.hands is not None:
        hand = tr(locale, "hand {number} of {total}", number=hand_number, total=info.ruleset.hands)
    else:
        hand = tr(locale, "hand {number}", number=hand_number)
    return tr(locale, "{variant} · {hand}", variant=name, hand=hand)


def footer_text(locale: str | None, info: TableInfo, view: View) -> str:
    """ "Table 12 · pile: 4 · face down: 2", in Discord's small print."""
    footer = [tr(locale, "Table {id}", id=info.id)]
    if info.ruleset.draw and view.outcome is None:
        footer.append(tr(locale, "pile: {count}", count=view.pile_size))
    if view.sleeping:
        footer.append(tr(locale, "face down: {count}", count=view.sleeping))
    return "-# " + " · ".join(footer)


def game_layout(
    locale: str | None,
    info: TableInfo,
    view: View,
    *,
    log: Sequence[str] = (),
    picture: Picture | None = None,
    finished_hand: bool = False,
    greeting: str | None = None,
    watch: discord.ui.Button[Any] | None = None,
    result: Sequence[str] = (),
) -> discord.ui.LayoutView:
    """The public game message in one container: the heading, what just happened and the last
    moves, the table picture at full width, whose turn with My tiles beside it, Resign beside the
    table's number. ``finished_hand``: the hand that just ended (its final position);
    ``greeting``: a first line (the players' mentions when the match begins); ``watch``: the
    link to the table's live web page, while it runs; ``result``: the lines of the hand's result
    (:func:`hand_result_lines`), said under the title of a hand's or the match's end."""
    over = view.outcome is not None or info.status != "running"
    hand_number = view.hand_number
    if view.outcome is not None:
        first = texts.outcome_text(locale, info, view.outcome)
        colour = GOLD
    elif finished_hand and view.previous is not None:
        first = texts.hand_result_title(locale, info, view.previous)
        hand_number = view.previous.hand_number
        colour = BLUE
    elif view.previous is not None and not any(e.kind != "start" for e in view.events):
        first = tr(locale, "Hand {number} begins.", number=view.hand_number)
        colour = GREEN
    else:
        first = tr(locale, "The match begins.")
        colour = GREY if over else GREEN
    lines = [f"**{heading(locale, info, hand_number)}**"]
    if greeting:
        lines.append(greeting)
    if view.outcome is not None or finished_hand:
        lines.append(f"**{first}**")
        lines.extend(result)
        lines.append(log_text(list(log)[-(LOG_LINES - 1):], "") if log else "")
    else:
        lines.append(log_text(log, first))
    if picture is None or picture.png is None:
        lines.append(scores_line(locale, info, view.scores))
    items: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay("\n".join(line for line in lines if line))
    ]
    if picture is not None and picture.png is not None:
        items.append(picture.gallery(TABLE_PICTURE))
    running = not over and not finished_hand
    if running:
        items.append(
            discord.ui.Section(
                _turn_text(locale, info),
                accessory=TilesButton(
                    info.id, info.seq, label=tr(locale, "My tiles"), style=Style.primary
                ),
            )
        )
        items.append(
            discord.ui.Section(
                footer_text(locale, info, view),
                accessory=ResignButton(info.id, label=tr(locale, "Resign"), style=Style.danger),
            )
        )
        if watch is not None:
            items.append(discord.ui.ActionRow(watch))
    else:
        items.append(discord.ui.TextDisplay(footer_text(locale, info, view)))
    return card(colour, *items)


def hand_result_lines(
    locale: str | None, info: TableInfo, result: HandResult, scores: Sequence[int]
) -> list[str]:
    """A finished hand's result under its title: pips left, points, the score after it."""
    _, body = texts.hand_result_text(locale, info, result)
    return [body, tr(locale, "Score: {scores}", scores=scores_line(locale, info, scores))]


def hand_end_layout(
    locale: str | None,
    info: TableInfo,
    result: HandResult,
    scores: Sequence[int],
    picture: Picture | None = None,
) -> discord.ui.LayoutView:
    """The announcement of a finished hand that no game message could show: how it ended, pips
    left, points, the score (and the final position)."""
    title = texts.hand_result_title(locale, info, result)
    lines = [f"**{title}**", *hand_result_lines(locale, info, result, scores)]
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay("\n".join(lines))]
    if picture is not None and picture.png is not None:
        items.append(picture.gallery(f"hand-{result.hand_number}.png"))
    return card(BLUE, *items)


def match_end_layout(
    locale: str | None,
    info: TableInfo,
    outcome: Outcome,
    scores: Sequence[int],
    *,
    mentions: str = "",
    ratings: Sequence[str] = (),
    rematch: tuple[str, DominoButton | None] | None = None,
    link: discord.ui.Button[Any] | None = None,
    review: DominoButton | None = None,
    achievements: Sequence[str] = (),
    details: DominoButton | None = None,
) -> discord.ui.LayoutView:
    """The announcement of the match's result: who won (first), the final score, the rating
    changes, the achievements the match earned (with ``details``, the button that tells them
    privately, beside them), the rematch offer (its words, and its button while it is open),
    ``review``, the button of a player's private review, and ``link``, a button to the
    match's web page."""
    title = tr(locale, "Match over")
    lines = [f"**{title}**", texts.outcome_text(locale, info, outcome)]
    if mentions:
        lines.append(mentions)
    lines.append(tr(locale, "Final score: {scores}", scores=scores_line(locale, info, scores)))
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay("\n".join(lines))]
    if ratings:
        items.append(
            discord.ui.TextDisplay("\n".join(["**" + tr(locale, "Ratings") + "**", *ratings]))
        )
    if achievements and details is not None:
        items.append(discord.ui.Section("\n".join(achievements), accessory=details))
    elif achievements:
        heading = "**" + tr(locale, "Achievements") + "**"
        items.append(discord.ui.TextDisplay("\n".join([heading, *achievements])))
    if review is not None:
        words = tr(locale, "Review: the expert goes over your own moves (only you see it).")
        items.append(discord.ui.Section(words, accessory=review))
    if rematch is not None:
        words, button = rematch
        if button is not None:
            items.append(discord.ui.Section(words, accessory=button))
        else:
            items.append(discord.ui.TextDisplay(words))
    if link is not None:
        items.append(discord.ui.ActionRow(link))
    return card(GOLD, *items)


def notice_layout(colour: discord.Colour, text: str) -> discord.ui.LayoutView:
    """A message that only says one thing (a cancelled table)."""
    return card(colour, discord.ui.TextDisplay(text))
