"""The review's words: moves, grades, a decision and its picture's alt text."""

from __future__ import annotations

from bot.i18n import N_, number, tr, trn
from bot.review import Review
from bot.review.judge import GRADES, Judged
from bot.tables.hint import Hint
from cogs.domino.practice import action_text, reason_text
from domino import Action, Draw, Pass, Play, View, decode_action

GRADE_NAMES = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}


def move_text(locale: str | None, view: View, action: Action) -> str:
    """``play 6-4 on the 4``, ``draw`` or ``pass``."""
    if isinstance(action, Play):
        return action_text(locale, view, action)
    if isinstance(action, Draw):
        return tr(locale, "draw a tile")
    assert isinstance(action, Pass)
    return tr(locale, "pass")


def grades_text(locale: str | None, counts: dict[str, int]) -> str:
    """``2 inaccuracies, 1 mistake`` (only the grades there are), or that there were none."""
    parts = []
    for name in GRADES:
        count = counts[name]
        if not count:
            continue
        if name == "inaccuracy":
            parts.append(trn(locale, "{count} inaccuracy", "{count} inaccuracies", count))
        elif name == "mistake":
            parts.append(trn(locale, "{count} mistake", "{count} mistakes", count))
        else:
            parts.append(trn(locale, "{count} blunder", "{count} blunders", count))
    return ", ".join(parts) if parts else tr(locale, "no costly move")


def summary_lines(locale: str | None, review: Review, hand: int | None) -> list[str]:
    """One line per hand (the asked hand only, when one was)."""
    lines = []
    for h in review.hands if hand is None else (hand,):
        decisions = len(review.of_hand(h))
        lines.append(
            trn(
                locale,
                "Hand {hand}: {grades} (one decision of yours)",
                "Hand {hand}: {grades} ({count} decisions of yours)",
                decisions,
                hand=h,
                grades=grades_text(locale, review.grades(h)),
            )
        )
    return lines


def decision_text(locale: str | None, rank: int, judged: Judged, view: View) -> str:
    """The costliest decision number ``rank``: where, his move, the expert's and why, the
    cost."""
    played = decode_action(judged.played)
    best = decode_action(judged.best)
    grade = judged.grade
    head = tr(
        locale,
        "**{rank}. Hand {hand}, move {move}** · {grade}: about {points} points given away",
        rank=rank,
        hand=judged.hand,
        move=judged.seq + 1,
        grade=tr(locale, GRADE_NAMES[grade]) if grade else "",
        points=number(locale, round(judged.cost)),
    )
    mine = tr(locale, "You: {move}.", move=move_text(locale, view, played))
    expert = tr(
        locale,
        "The expert: {move}, because {reason}",
        move=move_text(locale, view, best),
        reason=reason_text(locale, Hint(best, judged.reason, judged.params)),
    )
    return "\n".join([head, mine, expert])


def picture_alt(locale: str | None, judged: Judged, view: View) -> str:
    """The alt text of a decision's picture."""
    tiles = ", ".join(str(t) for t in view.hand or ())
    return tr(
        locale,
        "The table before move {move}, and your tiles: {tiles}",
        move=judged.seq + 1,
        tiles=tiles or "-",
    )[:1024]
