"""The computer player of games that score at the ends (All Fives): it weighs the points a
play scores now against what it leaves the next opponent to score, and going out.
"""

from __future__ import annotations

from domino.actions import Action, Play
from domino.spinner import Arms, arm_tiles, end_count, open_ends, place
from domino.tiles import Tile
from domino.views import Pair, View

Layout = tuple[tuple[Pair, ...], int | None, Arms]

W_THREAT = 0.6  # per point the next opponent may score right after
W_PIPS = 0.3  # per pip laid (heavy tiles cost most if the hand is lost)
W_DOUBLE = 1.0  # doubles fit one number only: lay them early
W_OUT = 1000.0  # going out ends the hand and scores the opponents' pips


def play_points(view: View, play: Play) -> tuple[int, Layout]:
    """The points ``play`` scores at the ends and the layout it leaves."""
    layout = place(view.line, view.spinner, view.arms, play.tile, play.end)
    count = end_count(*layout)
    step = view.ruleset.end_scoring
    return (count if count and count % step == 0 else 0), layout


def best_answer(layout: Layout, candidates: list[Tile], step: int) -> int:
    """The most points one of ``candidates`` scores when laid on ``layout``."""
    line, spinner, arms = layout
    best = 0
    for name, n in open_ends(line, spinner, arms):
        for tile in candidates:
            if tile.a == n or tile.b == n:
                count = end_count(*place(line, spinner, arms, tile, name))
                if count > best and count % step == 0:
                    best = count
    return best


def fives(view: View) -> Action:
    """The best legal action by points now, minus the expected answer, plus getting rid of
    heavy tiles and doubles; going out first of all."""
    legal = view.legal
    if len(legal) == 1 or not isinstance(legal[0], Play):
        return legal[0]
    values = fives_values(view)
    return max(legal, key=values.__getitem__)


def fives_values(view: View) -> dict[Action, float]:
    """Each legal play's value to :func:`fives` (the first of equal values is its choice).
    ``view`` must offer plays."""
    legal = view.legal
    assert view.hand is not None and view.seat is not None
    rs = view.ruleset
    table = {Tile(a, b) for a, b in (*view.line, *arm_tiles(view.arms))}
    unseen = [t for t in rs.tiles if t not in table and t not in view.hand]
    nxt = (view.seat + 1) % rs.seats
    share = min(1.0, view.hand_sizes[nxt] / len(unseen)) if unseen else 0.0
    out: dict[Action, float] = {}
    for action in legal:
        assert isinstance(action, Play)
        points, layout = play_points(view, action)
        value = points + W_PIPS * action.tile.pips + (W_DOUBLE if action.tile.is_double else 0)
        if len(view.hand) == 1:
            value += W_OUT
        elif unseen:
            # the answer is as likely as the next seat's share of the unseen tiles allows
            answer = best_answer(layout, unseen, rs.end_scoring)
            value -= W_THREAT * answer * min(1.0, share * 3)
        out[action] = value
    return out
