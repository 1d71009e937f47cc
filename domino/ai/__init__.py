"""Computer players. Pure standard library.

A computer player receives one seat's :class:`~domino.views.View` (never the match, so it
cannot see hidden tiles) and returns one of ``view.legal``::

    from domino.ai import choose
    action = choose(match.view(seat), "hard", rng=random.Random(1), budget=0.3)

Levels (:data:`LEVELS` are the ones offered to players):

- ``easy``: a random legal action.
- ``normal``: a careful human's rules of thumb: lay heavy tiles and doubles early, keep
  numbers it can follow and a variety of numbers, leave ends the next opponent showed he
  lacks (he passed or drew on them), avoid ends its partner lacks and favour those he showed,
  dominate numbers nobody else holds, block the hand only when that pays, and in draw games
  weigh that a stuck opponent draws rather than passes while the pile lasts.
- ``hard``: infers what each other seat can hold from every pass, draw and play (and from a
  forced opening), deals the unseen tiles many times consistently with that (hand sizes, the
  pile, cuban's sleeping tiles), plays every candidate move in each deal and finishes the hand
  with the normal heuristic, and picks the move with the best average result (own side's hand
  points minus the opponents'; in ``penalty`` fewest own penalty points), stopping when the
  time budget per decision (default 0.3 s) is nearly spent.
- ``expert``: an information-set tree search: one tree over the public course of the hand,
  where each seat chooses from what it could see, grown over consistent deals drawn as often
  as they explain the other seats' earlier plays under a model of their play fitted to how
  real players chose (partner signals included), finished by play-outs where every simulated
  seat also reads the simulated deal (leaves ends the next seat cannot follow, keeps ends its
  partner can); at most 3,000 iterations within a budget of 0.5 s per decision. Once twelve
  tiles or fewer are in the hands, it solves each weighed deal by alpha-beta instead.
- ``heaviest`` (not offered): lays the heaviest legal tile; the benchmark's baseline.

In games scored at the ends (All Fives) every level but ``easy`` and ``heaviest`` plays
:func:`domino.ai.fives.fives`: the points a play scores now, minus what the next opponent may
answer with, plus laying heavy tiles and doubles, and going out first of all.

Modules: :mod:`domino.ai.sim` (a fast bitmask simulator of one hand, checked against the
engine), :mod:`domino.ai.belief` (inference and consistent deals), :mod:`domino.ai.policy`
(easy, heaviest, normal), :mod:`domino.ai.hard` (the search over deals),
:mod:`domino.ai.tree` (the tree search) and :mod:`domino.ai.expert` (the play model).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from time import perf_counter

from domino.actions import Action
from domino.ai.expert import EXPERT_BUDGET, choose_expert
from domino.ai.fives import fives
from domino.ai.hard import choose_hard
from domino.ai.policy import easy, heaviest, normal
from domino.views import View

LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
ALL_LEVELS: tuple[str, ...] = (*LEVELS, "heaviest")
DEFAULT_BUDGET = 0.3


def choose(
    view: View,
    level: str = "normal",
    *,
    rng: random.Random | None = None,
    budget: float | None = None,
    samples: int | None = None,
    clock: Callable[[], float] | None = None,
    deadline: float | None = None,
) -> Action:
    """One of ``view.legal`` for the seat of ``view``, chosen by the player ``level``.

    ``rng`` drives every random choice (a fresh generator when None). ``budget`` is the
    most time, in seconds, ``hard`` (default 0.3) or ``expert`` (default 0.5) spends;
    ``samples`` instead fixes how many deals (``expert``: iterations) they simulate, which
    makes the choice a pure function of ``view`` and ``rng``. ``clock`` reads the seconds the
    budget counts (wall time by default; e.g. ``time.process_time`` counts only this
    process's CPU time). ``deadline``, an instant of :func:`time.monotonic` (shared by every
    process of the machine), stops ``hard`` and ``expert`` then at the latest, with the best
    move found so far.
    Raises ValueError for an unknown level or a view with nothing to do.
    """
    if level not in ALL_LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(ALL_LEVELS)}")
    if not view.legal or view.seat is None:
        raise ValueError("the view's seat has no legal action (not its turn)")
    if len(view.legal) == 1:
        return view.legal[0]
    if view.ruleset.end_scoring and level not in ("easy", "heaviest"):
        return fives(view)  # games scored at the ends: weigh the points of each play
    if rng is None:
        rng = random.Random()
    if level == "easy":
        return easy(view, rng)
    if level == "heaviest":
        return heaviest(view)
    if level == "normal":
        return normal(view)
    clock = clock or perf_counter
    if level == "expert":
        budget = EXPERT_BUDGET if budget is None else budget
        return choose_expert(view, rng, budget, samples, clock=clock, deadline=deadline)
    budget = DEFAULT_BUDGET if budget is None else budget
    return choose_hard(view, rng, budget, samples, clock=clock, deadline=deadline)


__all__ = ["ALL_LEVELS", "DEFAULT_BUDGET", "EXPERT_BUDGET", "LEVELS", "choose"]
