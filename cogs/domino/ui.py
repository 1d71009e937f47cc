"""Embeds, texts and buttons of the dominoes messages, built from table snapshots and views.

Pure functions (no Discord calls): the lobby, the challenge, the public game message, a
player's private hand. Public builders only read :class:`~bot.tables.service.TableInfo` and the
public view; only :func:`hand_message` sees a seat's own tiles, and it is sent ephemerally.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import END_NAMES, N_, named_ends, tr
from bot.tables.service import TableInfo, TableService
from cogs.domino import practice, texts
from cogs.domino.buttons import (
    AcceptButton,
    AddComputerButton,
    BackButton,
    CancelButton,
    DeclineButton,
    DominoButton,
    DrawButton,
    HintButton,
    JoinButton,
    LeaveButton,
    PassButton,
    PlayButton,
    ResignButton,
    StartButton,
    TilesButton,
)
from domino import Draw, Outcome, Pass, Play, Tile, View

GREEN = discord.Colour.from_rgb(46, 125, 50)
BLUE = discord.Colour.from_rgb(21, 101, 192)
GREY = discord.Colour.from_rgb(96, 125, 139)
RED = discord.Colour.from_rgb(198, 40, 40)
GOLD = discord.Colour.from_rgb(249, 168, 37)

TABLE_PICTURE = "table.png"
MAX_TILE_BUTTONS = 20  # four rows of five; the fifth row holds Draw / Pass / Left / Right
Style = discord.ButtonStyle


def _seat_row_text(locale: str | None, info: TableInfo, seat: int) -> str:
    row = info.seats[seat]
    if row is None:
        return tr(locale, "*empty*")
    if row.kind == "computer":
        level = texts.LEVEL_NAMES.get(row.ai_level or "", row.ai_level or "")
        return tr(locale, "{name} (computer, {level})", name=texts.seat_name(info, seat, locale),
                  level=tr(locale, level))
    if row.user_id is not None:
        return f"<@{row.user_id}>"
    return row.name


def seats_text(locale: str | None, info: TableInfo) -> str:
    """One line per seat (or per team in seven-seven), with the team where there are teams."""
    ruleset = info.ruleset
    lines: list[str] = []
    for group in info.groups:
        who = _seat_row_text(locale, info, group[0])
        seats = " & ".join(str(s + 1) for s in group)
        if len(group) > 1:
            lines.append(
                tr(
                    locale,
                    "Team {team} (seats {seats}): {who}",
                    team=ruleset.side_of(group[0]) + 1,
                    seats=seats,
                    who=who,
                )
            )
        elif ruleset.teams:
            lines.append(
                tr(
                    locale,
                    "Seat {seat} · team {team}: {who}",
                    seat=seats,
                    team=ruleset.side_of(group[0]) + 1,
                    who=who,
                )
            )
        else:
            lines.append(tr(locale, "Seat {seat}: {who}", seat=seats, who=who))
    return "\n".join(lines)


# ------------------------------------------------------------------------------ lobby


def lobby_embed(locale: str | None, info: TableInfo) -> discord.Embed:
    """The lobby: variant, options, seats, and what happens next."""
    name = texts.variant_name(locale, info.ruleset.id)
    embed = discord.Embed(
        title=tr(locale, "{variant} · table {id}", variant=name, id=info.id),
        description=texts.describe_options(locale, info),
        colour=BLUE,
    )
    embed.add_field(name=tr(locale, "Seats"), value=seats_text(locale, info), inline=False)
    if info.status == "lobby" and info.expires_at is not None:
        embed.add_field(
            name=tr(locale, "Closes"), value=f"<t:{int(info.expires_at)}:R>", inline=False
        )
    if info.status == "lobby":
        embed.add_field(
            name=tr(locale, "Computer players"), value=texts.level_lines(locale), inline=False
        )
    if info.status == "lobby":
        embed.set_footer(
            text=tr(
                locale,
                "Join a seat. The host starts when the seats are full, or fills empty seats "
                "with computer players.",
            )
        )
    return embed


def lobby_buttons(locale: str | None, info: TableInfo) -> list[DominoButton]:
    """Join, Leave, Start, Cancel, and one Add computer button per level."""
    t = info.id
    buttons = [
        JoinButton(t, label=tr(locale, "Join"), style=Style.success, row=0),
        LeaveButton(t, label=tr(locale, "Leave"), style=Style.secondary, row=0),
        StartButton(t, label=tr(locale, "Start"), style=Style.primary, row=0),
        CancelButton(t, label=tr(locale, "Cancel"), style=Style.danger, row=0),
    ]
    for level, text in texts.LEVEL_NAMES.items():
        buttons.append(
            AddComputerButton(
                t,
                level,
                label=tr(locale, "Add computer: {level}", level=tr(locale, text)),
                style=Style.secondary,
                row=1,
            )
        )
    return buttons


def closed_lobby_embed(
    locale: str | None, info: TableInfo, where: str | None = None
) -> discord.Embed:
    """The lobby once the match started (``where``: a mention of its place) or was cancelled."""
    embed = lobby_embed(locale, info)
    embed.set_footer(text=None)
    if info.status == "cancelled":
        embed.colour = GREY
        reason = info.table.closed_reason
        if reason == "expired" and info.is_challenge:
            embed.description = tr(locale, "Nobody answered in time: this challenge has expired.")
        elif reason == "expired":
            embed.description = tr(
                locale, "Nobody started the match in time: this table has closed."
            )
        elif reason == "declined":
            embed.description = tr(locale, "This challenge was declined.")
        else:
            embed.description = tr(locale, "This table was cancelled.")
    elif where:
        embed.colour = GREEN
        embed.description = tr(locale, "The match is on in {place}.", place=where)
    else:
        embed.colour = GREEN
        embed.description = tr(locale, "The match has started.")
    return embed


# -------------------------------------------------------------------------- challenge


def challenge_embed(locale: str | None, info: TableInfo, invited: Sequence[int]) -> discord.Embed:
    """A challenge: who is invited, who accepted."""
    embed = lobby_embed(locale, info)
    embed.title = tr(
        locale,
        "Challenge: {variant} · table {id}",
        variant=texts.variant_name(locale, info.ruleset.id),
        id=info.id,
    )
    waiting = [u for u in invited if not info.is_seated(u)]
    accepted = [u for u in invited if info.is_seated(u)]
    if accepted:
        embed.add_field(name=tr(locale, "Accepted"), value=" ".join(f"<@{u}>" for u in accepted))
    if waiting:
        embed.add_field(name=tr(locale, "Waiting for"), value=" ".join(f"<@{u}>" for u in waiting))
    if info.status == "lobby":
        embed.set_footer(
            text=tr(
                locale,
                "The match starts when everyone invited has accepted; computer players fill "
                "the other seats.",
            )
        )
    return embed


def challenge_buttons(
    locale: str | None, info: TableInfo, invited: Sequence[int]
) -> list[DominoButton]:
    """Accept and Decline (the invited ids ride along in the custom id)."""
    ids = ".".join(str(u) for u in invited)
    return [
        AcceptButton(info.id, ids, label=tr(locale, "Accept"), style=Style.success),
        DeclineButton(info.id, ids, label=tr(locale, "Decline"), style=Style.danger),
    ]


# ------------------------------------------------------------------------- game message


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
    who = f"<@{row.user_id}>" if row.user_id is not None else row.name
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


# ------------------------------------------------------------------------- private hand


def _playable(view: View) -> dict[Tile, str]:
    """Tiles that can be laid now -> ``any`` (one way) or ``ask`` (fits both ends)."""
    ends: dict[Tile, list[str | None]] = {}
    for action in view.legal:
        if isinstance(action, Play):
            ends.setdefault(action.tile, []).append(action.end)
    return {tile: ("ask" if len(e) > 1 else "any") for tile, e in ends.items()}


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
    if not await practice.is_practice(service, info.id):
        return []
    return [
        HintButton(
            info.id, acting.hand_number, info.seq, label=tr(locale, "Hint"), style=Style.secondary,
            row=4,
        )
    ]


def acting_view(info: TableInfo, views: Sequence[View]) -> View | None:
    """The view of the user's seat that is to move now, if any."""
    for view in views:
        if view.seat is None or view.seat != info.turn or not view.legal:
            continue
        row = info.seats[view.seat]
        if row is not None and row.kind == "human":
            return view
    return None


def hand_message(
    locale: str | None,
    info: TableInfo,
    views: Sequence[View],
    *,
    choose: Tile | None = None,
    notice: str | None = None,
    since: Sequence[str] = (),
) -> tuple[str, list[DominoButton]]:
    """The text and buttons of a player's private hand message.

    ``choose``: the tile whose end the player picks now (one button per end, Back);
    ``since``: what happened since the player's last turn, one event a line.
    """
    acting = acting_view(info, views)
    shown = acting or views[0]
    seq = info.seq
    hand_no = shown.hand_number
    lines: list[str] = []
    if since:
        lines.append(tr(locale, "Since your last turn:"))
        lines.extend(f"· {line}" for line in since)
    if notice:
        lines.append(notice)
    if len(views) > 1:
        lines.append(
            tr(
                locale,
                "Your seats: {seats}.",
                seats=" & ".join(str(v.seat + 1) for v in views if v.seat is not None),
            )
        )
    buttons: list[DominoButton] = []
    t = info.id
    if info.status != "running" or shown.outcome is not None:
        lines.append(tr(locale, "The match is over."))
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
    playable = _playable(acting) if acting is not None else {}
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
