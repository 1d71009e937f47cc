""""Find a better move": the buttons and the private message of a review's exercises.

The review's answer offers **Find a better move** when it flagged a costly decision: a new
private message shows the first one (the table then and the player's own tiles, drawn as the
review's pictures are), his legal moves as buttons, **Show me**, **Previous**, **Next** and
**Done**; a try or Show me redraws the message with the verdict, the expert's move and why.
A button's id, ``review:<kind>:<table>:<owner>[:<decision>[:<move>]]``, carries everything a
click needs (the decision is its place in the match's log), so the buttons keep working across
restarts; the checks are :class:`bot.review.exercise.Exercises`'.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.i18n import END_NAMES, number, tr
from bot.review.exercise import (
    BEST,
    BETTER,
    GOOD,
    PLAYED,
    Exercise,
    Verdict,
    move_code,
    read_move,
)
from bot.tables.hint import Hint
from cogs.domino.buttons import REVIEW_COG
from cogs.domino.practice import reason_text
from cogs.review.words import GRADE_NAMES, move_text
from domino import Action, Draw, Pass, Play, View

Interaction = discord.Interaction[Any]
Style = discord.ButtonStyle
PREFIX = "review"
#: Move buttons an exercise shows at most (four rows of five; the fifth row is for the rest).
MAX_MOVES = 20

_TABLE = r"(?P<table>[0-9]{1,19})"
_OWNER = r"(?P<owner>[0-9]{1,20})"
_SEQ = r"(?P<seq>[0-9]{1,9})"
_MOVE = r"(?P<move>draw|pass|[0-9]{1,2}-[0-9]{1,2}(?:\.(?:left|right|up|down))?)"
ANY_ID = re.compile(r"review:(?s:.*)")


class ExerciseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANY_ID):
    """The common part of the exercise buttons: the id, the look, the guarded click."""

    kind: ClassVar[str] = ""
    #: The click opens a new private message (else it redraws the message clicked).
    new_message: ClassVar[bool] = False

    def __init__(self, table_id: int, owner: int, *args: object, label: str = "",
                 style: discord.ButtonStyle = Style.secondary) -> None:
        text = ":".join([PREFIX, self.kind, str(table_id), str(owner), *map(str, args)])
        if len(text) > 100 or not self.template.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        super().__init__(discord.ui.Button(label=label or None, style=style, custom_id=text))
        self.table_id = table_id
        self.owner = owner
        self.seq = int(args[0]) if args else 0

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ExerciseButton:
        return cls.read(match)

    @classmethod
    def read(cls, match: re.Match[str]) -> ExerciseButton:
        return cls(int(match["table"]), int(match["owner"]), int(match["seq"]))

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(REVIEW_COG)  # type: ignore[attr-defined]
        if cog is None:  # unloaded while the click was on its way
            return
        async with cog.guard(interaction, f"button review {self.kind}", self.table_id):
            if self.new_message:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
            await cog.exercise_click(interaction, self)


class OpenButton(ExerciseButton, template=rf"review:open:{_TABLE}:{_OWNER}:{_SEQ}"):
    """On the review's answer: the first exercise, in a new private message."""

    kind = "open"
    new_message = True


class GoButton(ExerciseButton, template=rf"review:go:{_TABLE}:{_OWNER}:{_SEQ}"):
    """Previous, Next or Try again: the exercise of that decision, in the message clicked."""

    kind = "go"


class ShowButton(ExerciseButton, template=rf"review:show:{_TABLE}:{_OWNER}:{_SEQ}"):
    """Show me: the expert's answer without a try."""

    kind = "show"


class TryButton(ExerciseButton, template=rf"review:try:{_TABLE}:{_OWNER}:{_SEQ}:{_MOVE}"):
    """One of the player's legal moves then: his try."""

    kind = "try"

    def __init__(self, table_id: int, owner: int, seq: int, move: str, **look: Any) -> None:
        super().__init__(table_id, owner, seq, move, **look)
        self.move = move

    @classmethod
    def read(cls, match: re.Match[str]) -> ExerciseButton:
        return cls(int(match["table"]), int(match["owner"]), int(match["seq"]), match["move"])

    def action(self) -> Action:
        """The move tried; ValueError for a forged one."""
        return read_move(self.move)


class DoneButton(ExerciseButton, template=rf"review:done:{_TABLE}:{_OWNER}"):
    """Done: the message says so and keeps no button."""

    kind = "done"

    @classmethod
    def read(cls, match: re.Match[str]) -> ExerciseButton:
        return cls(int(match["table"]), int(match["owner"]))


KINDS: tuple[type[ExerciseButton], ...] = (OpenButton, GoButton, ShowButton, TryButton,
                                           DoneButton)


def _unread() -> re.Pattern[str]:
    read = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", k.__discord_ui_compiled_template__.pattern) for k in KINDS
    )
    return re.compile(rf"(?!(?:{read})\Z){ANY_ID.pattern}")


class InvalidExerciseButton(ExerciseButton, template=_unread()):
    """An id of ours that no kind reads (forged, or from an incompatible version)."""

    kind = "invalid"

    def __init__(self, custom_id: str) -> None:  # kept as it came: it is not ours to build
        discord.ui.DynamicItem.__init__(self, discord.ui.Button(custom_id=custom_id))
        self.table_id = self.owner = self.seq = 0

    @classmethod
    def read(cls, match: re.Match[str]) -> ExerciseButton:
        return cls(match.string)

    async def callback(self, interaction: Interaction) -> None:
        cog = interaction.client.get_cog(REVIEW_COG)  # type: ignore[attr-defined]
        if cog is None:
            return
        await cog.reply(interaction, tr(interaction.locale.value,
                                        "This button is not valid any more."))


#: What the cog registers with ``bot.add_dynamic_items``: each id has exactly one reader.
ALL: tuple[type[ExerciseButton], ...] = (*KINDS, InvalidExerciseButton)


# -------------------------------------------------------------------------------- words


def move_label(locale: str | None, view: View, action: Action) -> str:
    """A move's button: ``6-4``, ``6-4 on the 4`` where the tile fits several ends, ``Draw``,
    ``Pass``."""
    if isinstance(action, Draw):
        return tr(locale, "Draw")
    if isinstance(action, Pass):
        return tr(locale, "Pass")
    assert isinstance(action, Play)
    same = [a for a in view.legal if isinstance(a, Play) and a.tile == action.tile]
    if len(same) < 2 or action.end is None:
        return str(action.tile)
    numbers = dict(view.open_ends)
    if view.ends is not None:
        numbers.setdefault("left", view.ends[0])
        numbers.setdefault("right", view.ends[1])
    shown = [numbers.get(a.end) for a in same if a.end is not None]
    here = numbers.get(action.end)
    place = tr(locale, "on the {number}", number=here)
    if shown.count(here) > 1:
        place = tr(locale, "{place} ({end})", place=place, end=tr(locale, END_NAMES[action.end]))
    return f"{action.tile} {place}"


def title(locale: str | None, exercise: Exercise) -> str:
    return "**" + tr(
        locale, "Find a better move · {number} of {total}",
        number=exercise.number, total=exercise.total,
    ) + "**"


def where(locale: str | None, exercise: Exercise) -> str:
    """``Table 12 · hand 1, move 7 · mistake: about 9 points given away``."""
    judged = exercise.judged
    grade = judged.grade
    return tr(
        locale,
        "Table {table_id} · hand {hand}, move {move} · {grade}: about {points} points given away",
        table_id=exercise.table_id,
        hand=judged.hand,
        move=judged.seq + 1,
        grade=tr(locale, GRADE_NAMES[grade]) if grade else "",
        points=number(locale, round(judged.cost)),
    )


def question(locale: str | None, exercise: Exercise) -> list[str]:
    """The exercise's words before a try."""
    return [
        title(locale, exercise),
        where(locale, exercise),
        tr(locale, "You played {move} here. Can you find a better move? Press it, or Show me.",
           move=move_label(locale, exercise.mine, exercise.played)),
    ]


def verdict_line(locale: str | None, exercise: Exercise, found: Verdict) -> str:
    """What the try was worth, in words."""
    tried = move_label(locale, exercise.mine, found.tried)
    points = number(locale, max(1, round(found.cost)))
    if found.outcome == BEST:
        return "✅ " + tr(locale, "Well found: {move} is the expert's move.", move=tried)
    if found.outcome == GOOD:
        return "✅ " + tr(
            locale, "Good: {move} is about as good as the expert's move.", move=tried
        )
    if found.outcome == PLAYED:
        return "❌ " + tr(
            locale,
            "{move} is what you played: it gives away about {points} points.",
            move=tried, points=points,
        )
    if found.outcome == BETTER:
        return "➖ " + tr(
            locale,
            "Better than in the match, but {move} still gives away about {points} points.",
            move=tried, points=points,
        )
    return "❌ " + tr(
        locale, "Not better: {move} gives away about {points} points.", move=tried, points=points
    )


def answer(locale: str | None, exercise: Exercise, found: Verdict | None) -> list[str]:
    """The words after a try (``found``) or Show me (None): the verdict, the expert's move and
    why, what the move played cost."""
    judged = exercise.judged
    best = exercise.best
    lines = [title(locale, exercise), where(locale, exercise)]
    if found is not None:
        lines.append(verdict_line(locale, exercise, found))
    lines.append(tr(
        locale,
        "The expert: {move}, because {reason}",
        move=move_text(locale, exercise.mine, best),
        reason=reason_text(locale, Hint(best, judged.reason, judged.params)),
    ))
    lines.append(tr(
        locale,
        "You played {move}: about {points} points below it, as the expert estimates.",
        move=move_label(locale, exercise.mine, exercise.played),
        points=number(locale, round(judged.cost)),
    ))
    return lines


def move_buttons(locale: str | None, exercise: Exercise) -> list[ExerciseButton]:
    """A button per legal move, in the engine's order (at most :data:`MAX_MOVES`, always with
    the expert's move and the one played)."""
    moves = list(exercise.moves)
    if len(moves) > MAX_MOVES:
        keep = {exercise.best, exercise.played}
        others = [a for a in moves if a not in keep][: MAX_MOVES - len(keep)]
        moves = [a for a in moves if a in keep or a in others]
    return [
        TryButton(exercise.table_id, exercise.owner, exercise.judged.seq, move_code(action),
                  label=move_label(locale, exercise.mine, action), style=Style.primary)
        for action in moves
    ]


def steps(locale: str | None, exercise: Exercise, *, answered: bool) -> list[ExerciseButton]:
    """Show me (or Try again, once answered), Previous, Next, Done."""
    t, owner, seq = exercise.table_id, exercise.owner, exercise.judged.seq
    out: list[ExerciseButton] = [
        GoButton(t, owner, seq, label=tr(locale, "Try again"))
        if answered else ShowButton(t, owner, seq, label=tr(locale, "Show me"))
    ]
    if exercise.previous is not None:
        out.append(GoButton(t, owner, exercise.previous, label="◀ " + tr(locale, "Previous")))
    if exercise.next is not None:
        out.append(GoButton(t, owner, exercise.next, label=tr(locale, "Next") + " ▶",
                            style=Style.success if answered else Style.secondary))
    out.append(DoneButton(t, owner, label=tr(locale, "Done")))
    return out


def rows(buttons: list[ExerciseButton]) -> list[discord.ui.ActionRow[Any]]:
    """``buttons`` five to a row."""
    out: list[discord.ui.ActionRow[Any]] = []
    for i in range(0, len(buttons), 5):
        out.append(discord.ui.ActionRow(*buttons[i:i + 5]))
    return out
