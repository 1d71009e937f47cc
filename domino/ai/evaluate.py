"""How good each move of a decision is, in the ``expert`` player's judgement: for reviews.

:func:`evaluate` looks at one seat's view (never more than that seat saw) and returns the
expert's choice and its estimate of every legal action, in points for the seat's side (own
side's hand points minus the others'; in ``penalty`` games the others' penalty points minus
one's own). The search is held to a number of iterations, not a time, so the estimate is a
pure function of the view and the seed.

In games scored at the ends (All Fives) the expert is :func:`~domino.ai.fives.fives`, whose
value of a play is the points it scores now minus the expected answer (its small bonuses for
heavy tiles and doubles included); a forced draw or pass is worth the same as itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domino.actions import Action, Play
from domino.ai.expert import choose_expert
from domino.ai.fives import fives_values
from domino.views import View

#: Tree-search iterations per judged decision (the expert plays with at most 3,000 within
#: 0.5 s; the benchmark ``python -m benchmarks.review`` checks this count against a 4x one).
REVIEW_ITERATIONS = 600


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The expert's choice for a view and its estimate of each legal action (points)."""

    best: Action
    values: dict[Action, float]

    def value(self, action: Action) -> float:
        """The estimate of ``action``; an action the search never tried counts as the worst
        one it tried (it judged it not worth a look)."""
        found = self.values.get(action)
        return min(self.values.values()) if found is None else found

    def cost(self, action: Action) -> float:
        """Points ``action`` gives away against the expert's choice (never below 0)."""
        if action == self.best:
            return 0.0
        return max(0.0, self.value(self.best) - self.value(action))


def evaluate(
    view: View, rng: random.Random, iterations: int = REVIEW_ITERATIONS
) -> Evaluation:
    """The expert's judgement of the decision of ``view``'s seat (which must be to move),
    after ``iterations`` tree-search iterations driven by ``rng``.

    Raises ValueError for a view with nothing to do.
    """
    legal = view.legal
    if not legal or view.seat is None:
        raise ValueError("the view's seat has no legal action (not its turn)")
    if len(legal) == 1:
        return Evaluation(legal[0], {legal[0]: 0.0})
    if view.ruleset.end_scoring:
        if not isinstance(legal[0], Play):
            return Evaluation(legal[0], dict.fromkeys(legal, 0.0))
        scored = fives_values(view)
        return Evaluation(max(legal, key=scored.__getitem__), scored)
    values: dict[Action, float] = {}
    best = choose_expert(view, rng, samples=iterations, values=values)
    return Evaluation(best, values)


__all__ = ["REVIEW_ITERATIONS", "Evaluation", "evaluate"]
