"""The public game message of a running hand (embed, picture, My tiles and Resign), and the
posts of a hand's result and of the match's end. Public: built only from the
:class:`~bot.tables.service.TableInfo` and the public view (no hidden tile)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import pictures
from bot.i18n import N_, picture_options, tr
from bot.tables.service import TableInfo
from cogs.colours import BLUE, GOLD, GREEN, GREY
from cogs.domino import texts
from cogs.domino.buttons import DominoButton, ResignButton, TilesButton
from domino import Outcome, View
from render.moves import LastMove

Style = discord.ButtonStyle
TABLE_PICTURE = "table.png"
LOG_LINES = 8  # events the game message lists (and a hand message, since the last turn)


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
        return tr(locale, "{name} (computer) is thinking…", name=name)
    who = f"<@{row.user_id}>" if row.user_id is not None else texts.seat_name(info, turn, locale)
    if info.ruleset.people < info.ruleset.seats:
        who = tr(locale, "{who} (seat {seat})", who=who, seat=turn + 1)
    deadline = info.deadline
    if deadline is None:
        return who
    return tr(
        locale,
        "{who}: the bot plays for you {when} if you don't.",
        who=who,
        when=f"<t:{int(deadline)}:R>",
    )


def _players_text(locale: str | None, info: TableInfo, view: View) -> str:
    lines = []
    for seat, count in enumerate(view.hand_sizes):
        marker = "▶ " if seat == view.turn else ""
        template = N_("{marker}{seat}. {name}: 1 tile") if count == 1 else (
            N_("{marker}{seat}. {name}: {count} tiles")
        )
        lines.append(
            tr(
                locale,
                template,
                marker=marker,
                seat=seat + 1,
                name=texts.seat_name(info, seat, locale),
                count=count,
            )
        )
    return "\n".join(lines)


def log_text(lines: Sequence[str], fallback: str) -> str:
    """The move log: one event a line, oldest first, the latest in bold."""
    if not lines:
        return fallback
    *older, latest = lines
    return "\n".join([*(f"· {line}" for line in older), f"· **{latest}**"])


def game_embed(
    locale: str | None,
    info: TableInfo,
    view: View,
    *,
    log: Sequence[str] = (),
    picture: bool = True,
    finished_hand: bool = False,
) -> discord.Embed:
    """The public embed: variant and hand, the move log, scores, players, whose turn."""
    ruleset = info.ruleset
    name = texts.variant_name(locale, ruleset.id)
    if ruleset.hands is not None:
        hand = tr(locale, "hand {number} of {total}", number=view.hand_number, total=ruleset.hands)
    else:
        hand = tr(locale, "hand {number}", number=view.hand_number)
    over = view.outcome is not None or info.status != "running"
    if view.outcome is not None:
        first = texts.outcome_text(locale, info, view.outcome)
    elif view.previous is not None and not any(e.kind != "start" for e in view.events):
        first = tr(locale, "Hand {number} begins.", number=view.hand_number)
    else:
        first = tr(locale, "The match begins.")
    description = log_text(log, first)
    if view.outcome is not None and log:
        description = f"**{first}**\n{description}"
    if finished_hand and view.previous is not None and view.outcome is None:
        title, body = texts.hand_result_text(locale, info, view.previous)
        description = f"**{title}**\n{body}\n\n{log_text(log, '')}".strip()
        hand = tr(locale, "hand {number}", number=view.previous.hand_number)
    embed = discord.Embed(
        title=tr(locale, "{variant} · {hand}", variant=name, hand=hand),
        description=description,
        colour=GOLD if view.outcome is not None else (GREY if over else GREEN),
    )
    embed.add_field(
        name=tr(locale, "Score"), value=texts.scores_text(locale, info, view.scores), inline=True
    )
    embed.add_field(
        name=tr(locale, "Players"), value=_players_text(locale, info, view), inline=True
    )
    if not over and not finished_hand:
        embed.add_field(name=tr(locale, "Turn"), value=_turn_text(locale, info), inline=False)
    footer = [tr(locale, "Table {id}", id=info.id)]
    if ruleset.draw:
        footer.append(tr(locale, "pile: {count}", count=view.pile_size))
    if view.sleeping:
        footer.append(tr(locale, "face down: {count}", count=view.sleeping))
    embed.set_footer(text=" · ".join(footer))
    if picture:
        embed.set_image(url=f"attachment://{TABLE_PICTURE}")
    return embed


def game_buttons(locale: str | None, info: TableInfo) -> list[DominoButton]:
    """My tiles and Resign (none once the match is over)."""
    if info.status != "running":
        return []
    return [
        TilesButton(info.id, info.seq, label=tr(locale, "My tiles"), style=Style.primary),
        ResignButton(info.id, label=tr(locale, "Resign"), style=Style.danger),
    ]


def hand_end_embed(
    locale: str | None, info: TableInfo, title: str, body: str, scores: tuple[int, ...]
) -> discord.Embed:
    """The announcement of a finished hand."""
    embed = discord.Embed(title=title, description=body, colour=BLUE)
    embed.add_field(name=tr(locale, "Score"), value=texts.scores_text(locale, info, scores))
    return embed


def match_end_embed(
    locale: str | None, info: TableInfo, outcome: Outcome, scores: tuple[int, ...]
) -> discord.Embed:
    """The announcement of the match's result."""
    embed = discord.Embed(
        title=tr(locale, "Match over"),
        description=texts.outcome_text(locale, info, outcome),
        colour=GOLD,
    )
    embed.add_field(name=tr(locale, "Final score"), value=texts.scores_text(locale, info, scores))
    return embed
