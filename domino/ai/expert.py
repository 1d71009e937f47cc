"""The ``expert`` player: determinised search with a play model and an exact endgame.

Like ``hard`` it deals the hidden tiles many times consistently with every pass, draw, play
and forced opening (:class:`~domino.ai.belief.Belief`), tries every candidate move in each
deal and keeps the move with the best average outcome. On top of that:

- **Play-outs that use the deal.** Each simulated seat also leaves ends the next seat holds
  nothing for in that deal, and avoids ends its partner holds nothing for
  (:func:`~domino.ai.policy.seen_move`): the simulated hands end as they would between
  players who read each other well, which values moves better.

- **A play model weighs each deal.** Every earlier play of another seat (partner included)
  is scored under the deal by the rule-of-thumb heuristic the players use (:func:`play_score`);
  the deal's weight is how likely that seat's actual choices were under a softmax of those
  scores. Deals where the partner or an opponent would have played very differently count
  little: this reads partner signals (he opened with or kept feeding a number: he holds
  more of it) and an opponent's reluctance to play a number.
- **Searched endgame.** Once :data:`ENDGAME_TILES` or fewer tiles are left in the hands and
  nothing can be drawn (in partners, from the fifth round on), each deal is searched by
  alpha-beta with both sides playing their best instead of played out: exactly when the
  search fits in :data:`~domino.ai.hard.NODE_LIMIT` positions, else the lines it could not
  open are finished by the heuristic.
- **A cap and a time budget.** It stops after :data:`EXPERT_DEALS` deals, when the budget is
  nearly spent, or earlier once one move is best beyond doubt over the (weighted) deals seen
  so far.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from time import perf_counter

from domino.actions import Action, Play
from domino.ai.hard import search
from domino.ai.policy import play_out_seen, play_score
from domino.ai.sim import bits, to_move
from domino.match import NUM
from domino.views import View

EXPERT_BUDGET = 0.5
ENDGAME_TILES = 12  # search each deal once the hands hold this many tiles or fewer in all
# At most this many deals per decision: against ISMCTS, 400 to 500 deals played better than
# 1,500 or the 2,000 a 0.5 s budget affords (see the README's duels).
EXPERT_DEALS = 400
TEMPERATURE = 8.0  # of the play model's softmax, in score points (sharper measured worse)
BUDGET_SHARE = 0.85  # of the budget spent searching (the rest is margin)


class _Decision:
    """One earlier choice of another seat, as the play model reads it."""

    __slots__ = ("chosen", "ends", "lack_next", "lack_partner", "later", "seat")

    def __init__(
        self,
        seat: int,
        ends: tuple[int, int] | None,
        chosen: int,
        later: int,
        lack_next: int,
        lack_partner: int,
    ) -> None:
        self.seat = seat
        self.ends = ends
        self.chosen = chosen  # simulator move actually made
        self.later = later  # tiles this seat laid from this decision on (this one included)
        self.lack_next = lack_next
        self.lack_partner = lack_partner


def decisions(view: View) -> list[_Decision]:
    """The other seats' earlier plays the play model can judge.

    A seat's hand at a play is its hidden hand now plus the tiles it laid since; that holds
    while it drew nothing since, so plays followed by a draw of the same seat are left out.
    A forced opening is no choice and is left out too.
    """
    rs = view.ruleset
    me = view.seat
    seats = rs.seats
    teams = seats == 4 and rs.teams
    lacks = [0] * seats
    out: list[_Decision] = []
    plays: list[tuple[int, int, tuple[int, int] | None, int, int]] = []
    first_play = True
    for e in view.events:
        s = e.seat
        if s is None:
            continue
        if e.kind in ("pass", "draw"):
            if e.ends_before is not None:
                a, b = e.ends_before
                lacks[s] |= (1 << a) | (1 << b)
            if e.kind == "draw":
                plays = [p for p in plays if p[0] != s]  # its hand changed since
            continue
        if e.kind != "play" or e.tile is None:
            continue
        move = to_move(Play(e.tile, e.end))  # type: ignore[arg-type]
        forced = first_play and _opening_forced(view)
        first_play = False
        if s == me or forced:
            continue
        lack_next = lacks[(s + 1) % seats]
        lack_partner = lacks[(s + 2) % 4] if teams else 0
        plays.append((s, move, e.ends_before, lack_next, lack_partner))
    # the tiles each seat laid from each kept play on
    for idx, (s, move, ends, lack_next, lack_partner) in enumerate(plays):
        later = 0
        for s2, move2, *_ in plays[idx:]:
            if s2 == s:
                later |= 1 << (move2 >> 2)
        out.append(_Decision(s, ends, move, later, lack_next, lack_partner))
    return out


def _opening_forced(view: View) -> bool:
    rs = view.ruleset
    rule = rs.first_hand if view.hand_number == 1 else rs.next_hand
    return rule in ("double-six", "highest-double", "heaviest") and not rs.start_tile


def log_weight(choices: list[_Decision], hands: list[int]) -> float:
    """Log-likelihood of the seats' actual plays if their hands were ``hands``."""
    total = 0.0
    for d in choices:
        hand = hands[d.seat] | d.later
        ends = d.ends
        if ends is None:
            options = [i * 4 for i in bits(hand)]
            left0 = right0 = -1
        else:
            left0, right0 = ends
            options = _plays(hand, left0, right0)
        if len(options) < 2:
            continue
        best = -1e18
        scores = []
        chosen = 0.0
        for move in options:
            sc = play_score(move, hand, left0, right0, d.lack_next, d.lack_partner)
            scores.append(sc)
            if sc > best:
                best = sc
            if move == d.chosen:
                chosen = sc
        z = 0.0
        for sc in scores:
            z += math.exp((sc - best) / TEMPERATURE)
        total += (chosen - best) / TEMPERATURE - math.log(z)
    return total


def _plays(hand: int, left: int, right: int) -> list[int]:
    if left == right:
        return [i * 4 + 2 for i in bits(hand & NUM[left])]
    nl = NUM[left]
    nr = NUM[right]
    out = []
    for i in bits(hand & (nl | nr)):
        bit = 1 << i
        if bit & nl:
            out.append(i * 4 + 1)
        if bit & nr:
            out.append(i * 4 + 2)
    return out


def choose_expert(
    view: View,
    rng: random.Random,
    budget: float = EXPERT_BUDGET,
    samples: int | None = None,
    stats: dict[str, float] | None = None,
    clock: Callable[[], float] = perf_counter,
) -> Action:
    """The legal action with the best average outcome over consistent deals, each weighed
    by the play model, with alpha-beta search once :data:`ENDGAME_TILES` or fewer are in hands."""
    choices = decisions(view)

    def weigh(hands: list[int]) -> float:
        return log_weight(choices, hands)

    return search(
        view, rng, budget, samples, stats,
        share=BUDGET_SHARE, weigh=weigh if choices else None, endgame=ENDGAME_TILES,
        finish=play_out_seen, clock=clock, most=EXPERT_DEALS,
    )


__all__ = ["EXPERT_BUDGET", "choose_expert", "decisions", "log_weight"]
