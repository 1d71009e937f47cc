"""The daily deal's words and pictures: results, the board, the expert's replay."""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile

import discord

from bot.daily.service import AttemptRow, Board, ExpertPlay
from bot.i18n import number, tr, trn
from bot.store import ActionRow, MatchRow
from bot.tables import replay
from cogs.colours import BLUE
from cogs.domino import texts
from cogs.markup import slash_command
from cogs.names import escape_name

log = logging.getLogger(__name__)

BOARD_LINES = 20


def nonce(attempt: AttemptRow, kind: str) -> str:
    """A post's nonce (at most 25 characters), the same for the same post after a crash."""
    key = f"{kind}/{attempt.day}/{attempt.variant}/{attempt.user_id}"
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def points_text(locale: str | None, points: int) -> str:
    return number(locale, points, signed=True)


def result_text(
    locale: str | None,
    attempt: AttemptRow,
    legs: list[int],
    streak: int,
    expert: int | None,
    *,
    replay: bool = False,
) -> str:
    """The attempt's result post: the points, each leg's, the streak, how the expert did
    (``replay``: its play is attached)."""
    assert attempt.result is not None
    lines = [
        tr(
            locale,
            "**Daily deal of {day} · {variant}**: your result is **{points}** points.",
            day=attempt.day,
            variant=texts.variant_name(locale, attempt.variant),
            points=points_text(locale, attempt.result),
        )
    ]
    if len(legs) > 1:
        lines.append(
            tr(
                locale,
                "From your first seat {first}, from the other seat {second}.",
                first=points_text(locale, legs[0]),
                second=points_text(locale, legs[1]),
            )
        )
    lines.append(
        trn(locale, "Your streak: {count} day in a row.", "Your streak: {count} days in a row.",
            streak)
    )
    if expert is not None:
        lines.append(expert_text(locale, legs[0] if legs else attempt.result, expert))
        if replay:
            lines.append(tr(locale, "Its play of the deal is in the replay below."))
    lines.append(tr(locale, "See how the others did: {command}.",
                    command=slash_command(locale, "domino daily board")))
    return "\n".join(lines)


def expert_text(locale: str | None, mine: int, expert: int) -> str:
    """Who did better from the same seat and tiles, the person (``mine``: his first leg's
    points) or the expert, in words, with both scores."""
    said = {
        "mine": points_text(locale, mine),
        "expert": points_text(locale, expert),
    }
    if mine > expert:
        return trn(
            locale,
            "You beat the expert by {count} point: with the same tiles you scored {mine}, "
            "the expert {expert}.",
            "You beat the expert by {count} points: with the same tiles you scored {mine}, "
            "the expert {expert}.",
            mine - expert,
            **said,
        )
    if mine < expert:
        return trn(
            locale,
            "The expert did {count} point better: with the same tiles it scored {expert}, "
            "you {mine}.",
            "The expert did {count} points better: with the same tiles it scored {expert}, "
            "you {mine}.",
            expert - mine,
            **said,
        )
    return tr(locale, "You matched the expert: with the same tiles you both scored {mine}.",
              **said)


def expert_alt_text(locale: str | None, play: ExpertPlay) -> str:
    """The alt text of the expert's replay: what it shows and how it ended for seat 0."""
    return tr(
        locale,
        "Replay of the expert's own play of the {variant} deal of {day}, every seat an "
        "expert, from your first seat's tiles: {count} moves, {points} for your seat's side.",
        variant=texts.variant_name(locale, play.variant),
        day=play.day,
        count=number(locale, len(play.moves)),
        points=points_text(locale, expert_points(play)),
    )[:1024]


def board_embed(locale: str | None, board: Board, streak: int) -> discord.Embed:
    """The board as the viewer may see it (results only once he finished that day's deal)."""
    scope = tr(locale, "this server") if board.guild_id is not None else tr(locale, "everyone")
    title = tr(
        locale,
        "Daily deal of {day} · {variant} · {scope}",
        day=board.day,
        variant=texts.variant_name(locale, board.variant),
        scope=scope,
    )
    if not board.shown:
        description = tr(
            locale,
            "No spoilers: the results show once you have played today's deal ({command}).",
            command=slash_command(locale, "domino daily play"),
        )
        description += "\n" + (
            trn(
                locale,
                "{count} player has finished it so far.",
                "{count} players have finished it so far.",
                board.players,
            )
            if board.players
            else tr(locale, "Nobody has finished it yet.")
        )
    elif not board.rows:
        description = tr(locale, "Nobody has finished today's deal yet.")
    else:
        lines = []
        mine = board.mine
        for rank, row in board.rows[:BOARD_LINES]:
            name = escape_name(row.name) if row.name else tr(locale, "a former player")
            line = f"{rank}. {name}: **{points_text(locale, row.result or 0)}**"
            if mine is not None and row.user_id == mine.user_id:
                line = "▶ " + line
            lines.append(line)
        mine_rank = next(
            (r for r, row in board.rows if mine is not None and row.user_id == mine.user_id),
            None,
        )
        if mine_rank is not None and mine_rank > BOARD_LINES:
            lines.append(tr(locale, "You: {rank}.", rank=mine_rank))
        description = "\n".join(lines)
    embed = discord.Embed(title=title[:256], description=description[:4000], colour=BLUE)
    embed.set_footer(
        text=trn(locale, "Your streak: {count} day in a row.",
                 "Your streak: {count} days in a row.", streak)
    )
    return embed


def expert_points(play: ExpertPlay) -> int:
    """The expert's score from seat 0 in its own play of the deal."""
    from bot.daily.service import leg_points

    match = play.match()
    return leg_points(match.scores, match.outcome)


def draw_expert(play: ExpertPlay, locale: str | None) -> bytes | None:
    """The expert's own play of the deal as an animated GIF (None: it could not be drawn)."""
    row = MatchRow(0, play.ruleset.to_dict(), play.seed, play.deal, 0.0, None, None)
    actions = [ActionRow(0, i, seat, action, 0.0) for i, (seat, action) in enumerate(play.moves)]
    names = [tr(locale, "Expert {seat}", seat=s + 1) for s in range(play.ruleset.seats)]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "expert.gif")
        drawn = replay.draw_file(
            row, actions, None, names, replay.labels_for(locale), path, most=10_000
        )
        if not isinstance(drawn, int):
            log.warning("the expert's play of %s %s not drawn: %s", play.day, play.variant,
                        drawn.message)
            return None
        with open(path, "rb") as gif:
            return gif.read()
