"""A tournament's words shared by its posts and its web page: the names of a knockout's
rounds, in the reader's language."""

from __future__ import annotations

from bot.i18n import number as num
from bot.i18n import tr


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
