"""The levels: legal play in every preset, view-only, sanity of the heuristics, strength."""

from __future__ import annotations

import dataclasses
import inspect
import random
import time
from typing import Any

import pytest

from domino import PRESETS, Match, Play, Tile, View, preset
from domino.ai import ALL_LEVELS, LEVELS, choose
from domino.ai.hard import choose_hard
from domino.ai.policy import heaviest, normal
from tests.domino.ai.helpers import any_opener, play, play_match, position, tiles

BUDGET = 0.02


def chooser(level: str) -> Any:
    def pick(view: View, rng: random.Random) -> Any:
        return choose(view, level, rng=rng, budget=BUDGET)

    return pick


def test_levels() -> None:
    assert LEVELS == ("easy", "normal", "hard", "expert")
    assert set(LEVELS) < set(ALL_LEVELS)
    with pytest.raises(ValueError, match="unknown level"):
        choose(Match.new(PRESETS["draw"], 1).view(0), "grandmaster")


@pytest.mark.parametrize("rs_id", list(PRESETS))
@pytest.mark.parametrize("level", ALL_LEVELS)
def test_complete_matches_with_legal_moves_only(rs_id: str, level: str) -> None:
    rs = PRESETS[rs_id]
    if level in ("hard", "expert") and rs.target is not None:
        rs = dataclasses.replace(rs, target=50)  # fewer hands: these are the slow ones
    match = play_match(rs, 11, chooser(level))
    assert match.outcome is not None


@pytest.mark.parametrize("rs_id", list(PRESETS))
def test_mixed_table(rs_id: str) -> None:
    """Every level at one table, as when computers fill empty seats."""
    rs = dataclasses.replace(PRESETS[rs_id], target=50) if PRESETS[rs_id].target else PRESETS[rs_id]
    levels = ["hard", "easy", "expert", "normal", "heaviest"]

    def pick(view: View, rng: random.Random) -> Any:
        assert view.seat is not None
        return choose(view, levels[view.seat % len(levels)], rng=rng, budget=BUDGET)

    assert play_match(rs, 7, pick).outcome is not None


# -- the computer sees a view, never the match ------------------------------------------


def test_choose_takes_a_view_and_a_view_holds_no_hidden_tile() -> None:
    signature = inspect.signature(choose)
    assert list(signature.parameters)[:2] == ["view", "level"]
    assert signature.parameters["view"].annotation in (View, "View")
    match = Match.new(PRESETS["cuban"], 3)
    match = match.apply(match.legal_actions()[0])
    view = match.view(match.turn)
    reachable: list[Any] = []

    def walk(obj: Any) -> None:
        assert not isinstance(obj, Match)
        if isinstance(obj, Tile):
            reachable.append(obj)
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                if f.name != "ruleset":  # the rules list the whole set, not who holds what
                    walk(getattr(obj, f.name))
        elif isinstance(obj, (tuple, list)):
            for item in obj:
                walk(item)
        elif isinstance(obj, Play):
            walk(obj.tile)

    walk(view)
    visible = set(view.hand or ()) | view.played_tiles()
    assert set(reachable) <= visible


def same_view_two_deals(rs_id: str) -> tuple[View, View]:
    """Two different deals that give seat 0 the same view after the first round."""
    if rs_id == "partners":
        rs = any_opener(preset("partners"))
        mine = tiles("6-6 6-5 6-4 5-5 1-2 0-3 2-2")
        a = [
            mine,
            tiles("6-1 0-0 0-1 0-2 1-1 1-3 1-4"),
            tiles("6-2 2-3 2-4 2-5 3-3 3-4 3-5"),
            tiles("6-3 0-4 0-5 0-6 1-5 4-4 4-5"),
        ]
        # swap hidden tiles between seats 1, 2 and 3 (not the ones they lay)
        b = [
            mine,
            tiles("6-1 0-4 0-5 2-4 1-1 1-3 3-5"),
            tiles("6-2 2-3 0-1 2-5 3-3 3-4 1-4"),
            tiles("6-3 0-0 0-2 0-6 1-5 4-4 4-5"),
        ]
        moves = ("6-6", "6-1 left", "6-2 right", "1-5 left")
        matches = [play(Match.new(rs, 1, {"hands": h, "opener": 0}), *moves) for h in (a, b)]
    else:  # draw: seat 1 opens with 6-6; the pile differs in order and content
        rs = PRESETS["draw"]
        mine = tiles("6-5 6-4 0-0 0-1 1-2 2-3 3-4")
        a_other = tiles("6-6 0-2 0-3 0-4 0-5 0-6 1-1")
        b_other = tiles("6-6 1-3 1-4 1-5 1-6 2-2 2-4")
        used = {Tile.parse(t) for t in mine + a_other + b_other}
        rest = [str(t) for t in rs.tiles if t not in used]
        a_pile = tiles("1-3 1-4 1-5 1-6 2-2 2-4") + rest
        b_pile = list(reversed(tiles("0-2 0-3 0-4 0-5 0-6 1-1") + rest))
        matches = [
            Match.new(rs, 1, {"hands": [mine, other], "pile": pile})
            for other, pile in ((a_other, a_pile), (b_other, b_pile))
        ]
        matches = [m.apply(Play(Tile(6, 6), None)) for m in matches]
    assert matches[0].hands != matches[1].hands or matches[0].pile != matches[1].pile
    assert matches[0].turn == matches[1].turn == 0
    return matches[0].view(0), matches[1].view(0)


@pytest.mark.parametrize("rs_id", ["partners", "draw"])
def test_same_view_same_choice_whatever_the_hidden_tiles(rs_id: str) -> None:
    view_a, view_b = same_view_two_deals(rs_id)
    assert view_a == view_b
    assert len(view_a.legal) > 1
    for seed in range(3):
        got = {
            choose(view, "hard", rng=random.Random(seed), samples=40) for view in (view_a, view_b)
        }
        assert len(got) == 1


# -- heuristics -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "line", "best"),
    [
        ("1-2 5-6", [(2, 4), (4, 5)], "5-6"),
        ("0-1 0-6", [(0, 0)], "0-6"),
        ("1-3 4-6", [(3, 2), (2, 4)], "4-6"),
    ],
)
def test_normal_plays_the_heaviest_when_all_else_is_equal(
    hand: str, line: list[tuple[int, int]], best: str
) -> None:
    for rs_id in ("partners", "draw"):
        view = position(rs_id, hand, line, pile=0 if rs_id == "partners" else 6)
        action = normal(view)
        assert isinstance(action, Play) and action.tile == Tile.parse(best)
        assert heaviest(view) == action


def test_normal_takes_a_sure_win() -> None:
    # Draw game, nothing left to draw: laying 1-4 on the 4 closes the line on 1 at both
    # ends with every 1 laid, and seat 0 keeps 4-6 (10 pips) while the opponent must hold
    # more. The heavier 4-6 would keep the hand going.
    line = [(4, 2), (2, 1), (1, 1), (1, 0), (0, 3), (3, 1), (1, 5), (5, 0), (0, 6), (6, 1)]
    view = position("draw", "1-4 4-6", line, hand_sizes=(2, 14), pile=2)
    assert heaviest(view) == Play(Tile(4, 6), "left")
    assert normal(view) == Play(Tile(1, 4), "left")
    # hard may prefer keeping the line open on 4 (it holds 4-6) to domino for more points
    choice = choose(view, "hard", rng=random.Random(1), samples=20)
    assert isinstance(choice, Play) and choice.tile == Tile(1, 4)
    # the last tile is always laid
    last = position("partners", "2-5", [(5, 3)], hand_sizes=(1, 6, 6, 6))
    assert normal(last) == Play(Tile(2, 5), "left")


def test_normal_leaves_ends_the_next_opponent_lacks() -> None:
    """After seat 1 passed on (3, 5), normal keeps a 3 or a 5 open rather than a 6."""
    from tests.domino.ai.test_belief import passed_on_3_5

    view = passed_on_3_5().view(0)
    # legal: 3-6 on the 3 (leaves 6-5) or 5-6 on the 5 (leaves 3-6); both open a 6, so
    # both keep one lacked end; normal must not pass on that knowledge for the heavier tile
    action = normal(view)
    assert isinstance(action, Play)
    assert action.tile in (Tile(3, 6), Tile(5, 6))


# -- budget and strength ----------------------------------------------------------------


def test_hard_respects_its_budget() -> None:
    match = Match.new(any_opener(preset("partners")), 2, None)
    view = match.view(match.turn)
    start = time.perf_counter()
    choose_hard(view, random.Random(0), budget=0.05)
    assert time.perf_counter() - start < 0.05 + 0.1  # generous: CI machines are noisy


def duplicate(rs_id: str, deals: int, samples: int) -> tuple[int, int, float]:
    """Hard (fixed samples) against heaviest, each deal played with both seatings."""
    rs = PRESETS[rs_id]
    wins = losses = 0
    net = 0.0
    for seed in range(deals):
        for side_hard in (0, 1):
            match = Match.new(rs, 1000 + seed)
            count = 0
            while match.hand_number == 1 and match.outcome is None:
                seat = match.turn
                assert seat is not None
                view = match.view(seat)
                rng = random.Random(count)
                if rs.side_of(seat) == side_hard:
                    action = choose(view, "hard", rng=rng, samples=samples)
                else:
                    action = choose(view, "heaviest", rng=rng)
                match = match.apply(action)
                count += 1
            result = match.hand_results[0]
            net += result.points[side_hard] - result.points[1 - side_hard]
            if result.winner_side is not None:
                wins += result.winner_side == side_hard
                losses += result.winner_side != side_hard
    return wins, losses, net / (2 * deals)


def test_hard_beats_heaviest_in_duplicate() -> None:
    wins, losses, net = duplicate("partners", 10, 12)
    assert wins > losses and net > 0, (wins, losses, net)
