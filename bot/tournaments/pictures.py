"""A tournament's pictures in the reader's language: the standings and a knockout bracket.

The words come from the catalogue, the numbers are written the locale's way, the names are
given by the caller (as they may be shown where the picture goes); ``render.tournament`` draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import NC_, Key, tr, trc, trn
from bot.i18n import number as num
from bot.tournaments.model import Bracket, Standing, TieBreak
from render.tournament import (
    BOX_W,
    MAX_ROWS,
    BracketMatch,
    StandingRow,
    bracket_picture,
    standings_picture,
)

CONTEXT = "tournament standings"
#: The width of a match in an individual knockout's picture: two partners' names a side.
PEOPLE_BOX_W = 380
#: The note of a line that a tie-break placed below the line above it.
TIE_BREAK_NOTES: dict[TieBreak, Key] = {
    "difference": NC_("tournament standings", "tie-break: points difference"),
    "buchholz": NC_("tournament standings", "tie-break: Buchholz"),
    "head_to_head": NC_("tournament standings", "tie-break: head-to-head"),
    "rating": NC_("tournament standings", "tie-break: rating"),
}
WITHDRAWN = NC_("tournament standings", "withdrawn")


def tie_break_note(locale: str | None, line: Standing) -> str:
    """Why ``line`` is below the line above it when a tie-break decided it, or that the
    entrant withdrew (else "")."""
    if line.withdrawn:
        return trc(locale, *WITHDRAWN)
    key = TIE_BREAK_NOTES.get(line.decided_by) if line.decided_by else None
    return trc(locale, *key) if key else ""


def standings_png(
    locale: str | None,
    title: str,
    lines: Sequence[Standing],
    names: Mapping[int, str],
    *,
    final: bool = False,
) -> bytes:
    """The standings picture: rank, name, match points, won-drawn-lost, points difference,
    Buchholz and the tie-break note of every line (the first forty); ``final`` colours the
    podium."""
    rows = []
    for i, line in enumerate(lines):
        shared = (i and lines[i - 1].rank == line.rank) or (
            i + 1 < len(lines) and lines[i + 1].rank == line.rank)
        rows.append(StandingRow(
            rank=("=" if shared else "") + num(locale, line.rank),
            name=names.get(line.entrant, "?"),
            cells=(
                num(locale, line.match_points),
                f"{line.wins}-{line.draws}-{line.losses}",
                num(locale, line.difference, signed=True),
                num(locale, line.buchholz),
            ),
            note=tie_break_note(locale, line),
            place=line.rank if final and line.rank <= 3 else 0,
        ))
    headers = (
        # Translators: short column headers of the tournament standings picture: match
        # points, won-drawn-lost, points difference (tantos for minus against), Buchholz.
        trc(locale, "tournament standings", "Pts"),
        trc(locale, "tournament standings", "W-D-L"),
        trc(locale, "tournament standings", "+/-"),
        trc(locale, "tournament standings", "Buch."),
    )
    hidden = len(lines) - min(len(rows), MAX_ROWS)
    more = trn(locale, "… and {count} more", "… and {count} more", hidden) if hidden > 0 else ""
    return standings_picture(
        title, headers, rows,
        name_header=trc(locale, "tournament standings", "Entrant"),
        note_header="",
        more=more,
    )


def bracket_png(
    locale: str | None, title: str, bracket: Bracket, names: Mapping[int, str]
) -> bytes:
    """The knockout picture: a column per round (named from the final backwards), each match
    with its two sides (an individual knockout: two partners each, or the people given a bye),
    points and who went through."""
    per_table = 4 if bracket.people else 2
    titles = [round_title(locale, left, per_table) for left in bracket.left()]
    # Translators: an empty place of a knockout bracket (its opponent goes through).
    bye = tr(locale, "bye")
    computer = tr(locale, "a computer")
    rounds = []
    for matches in bracket.rounds:
        rounds.append([
            BracketMatch(
                names=(
                    side_name(m.teams[0], names, bye, computer),
                    side_name(m.teams[1], names, bye, computer),
                ),
                points=(num(locale, m.points[0]), num(locale, m.points[1])) if m.points
                else ("", ""),
                winner=m.winning_side,
            )
            for m in matches
        ])
    return bracket_picture(title, titles, rounds, box_w=PEOPLE_BOX_W if bracket.people else BOX_W)


def round_title(locale: str | None, left: int, per_table: int = 2) -> str:
    """A round named by how many remain after it: the final, the semi-finals… (``per_table``:
    the entrants of one match, four in an individual knockout)."""
    # Translators: the rounds of a knockout bracket.
    if left == 1:
        return tr(locale, "Final")
    if left == 2:
        return tr(locale, "Semi-finals")
    if left == 3:
        return tr(locale, "Quarter-finals")
    return tr(locale, "Round of {count}", count=num(locale, per_table * 2 ** (left - 1)))


def side_name(
    side: Sequence[int | None], names: Mapping[int, str], bye: str, computer: str
) -> str:
    """A bracket side as text: its entrants' names joined by " & " (a computer seat named so);
    an empty side or place is a bye."""
    if not side or all(e is None for e in side):
        return bye if len(side) <= 1 else computer
    return " & ".join(computer if e is None else names.get(e, "?") for e in side)
