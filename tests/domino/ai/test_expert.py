"""The expert level: view-only, its tree search, the play model, its budget and strength;
the exact endgame search the benchmarks' seer uses."""

from __future__ import annotations

import random
import statistics
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from domino import PRESETS, Match, Play, Tile, preset
from domino.ai import choose
from domino.ai.belief import Belief
from domino.ai.expert import (
    ENDGAME_TILES,
    EXPERT_ITERATIONS,
    choose_expert,
    decisions,
    log_weight,
)
from domino.ai.hard import choose_hard, outcome_value, solve
from domino.ai.policy import rollout_move
from domino.ai.sim import Sim, mask_of
from domino.ai.tree import POOL
from tests.domino.ai.helpers import any_opener, position
from tests.domino.ai.test_players import same_view_two_deals


def test_same_view_same_choice_whatever_the_hidden_tiles() -> None:
    for rs_id in ("partners", "draw"):
        view_a, view_b = same_view_two_deals(rs_id)
        for seed in range(3):
            got = {
                choose(v, "expert", rng=random.Random(seed), samples=30) for v in (view_a, view_b)
            }
            assert len(got) == 1


def minimax(sim: Sim, side: int, penalty: bool) -> float:
    """Plain minimax without pruning: the reference for :func:`solve`."""
    if sim.turn < 0:
        assert sim.result is not None
        return outcome_value(sim.result, side, penalty)
    values = []
    for move in sim.legal():
        child = sim.copy()
        child.apply(move)
        values.append(minimax(child, side, penalty))
    mine = sim.rules.side_of[sim.turn] == side
    return max(values) if mine else min(values)


def endgame(rs_id: str, seed: int, left: int) -> Sim | None:
    """A random hand of ``rs_id`` played at random until the hands hold ``left`` tiles."""
    rng = random.Random(seed)
    match = Match.new(PRESETS[rs_id], seed)
    sim = Sim.from_match(match)
    while sim.turn >= 0 and sum(h.bit_count() for h in sim.hands) > left:
        sim.apply(rng.choice(sim.legal()))
    if sim.turn < 0 or (sim.rules.draw and len(sim.pile) > sim.rules.floor):
        return None
    return sim


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["partners", "cuban", "three", "draw", "two"]), st.integers(0, 10**6))
def test_solve_is_exact_minimax(rs_id: str, seed: int) -> None:
    sim = endgame(rs_id, seed, 7)
    if sim is None:
        return
    side = sim.rules.side_of[sim.turn]
    expected = minimax(sim.copy(), side, sim.rules.penalty)
    assert solve(sim.copy(), side, sim.rules.penalty, -1e18, 1e18, [10**9]) == expected


def test_the_play_model_favours_deals_that_explain_the_plays() -> None:
    """When every seat plays as the model says, the true deal weighs at least as much as a
    typical consistent deal (checked over many hands)."""
    above = 0
    trials = 0
    for seed in range(30):
        match = Match.new(any_opener(preset("partners")), seed)
        sim = Sim.from_match(match)
        while len(match.line) < 9 and match.turn is not None:
            sim = Sim.from_match(match)
            for e in match.events:  # the model sees the same passes the players saw
                if e.kind == "pass" and e.ends_before is not None and e.seat is not None:
                    sim.lacks[e.seat] |= (1 << e.ends_before[0]) | (1 << e.ends_before[1])
            move = rollout_move(sim)
            action = next(a for a in match.legal_actions() if _move(a) == move)
            match = match.apply(action)
        if match.turn is None or match.hand_number != 1:
            continue
        view = match.view(match.turn)
        choices = decisions(view)
        if not choices:
            continue
        truth = [mask_of(h) for h in match.hands]
        belief = Belief.from_view(view)
        rng = random.Random(seed)
        sampled = []
        for _ in range(60):
            hands, _ = belief.sample(rng)
            sampled.append(log_weight(choices, hands))
        trials += 1
        above += log_weight(choices, truth) >= statistics.median(sampled)
    assert trials >= 20
    assert above >= 0.8 * trials, (above, trials)


def _move(action: object) -> int:
    from domino.ai.sim import to_move

    return to_move(action)  # type: ignore[arg-type]


def test_decisions_skip_forced_openings_own_plays_and_plays_before_a_draw() -> None:
    match = Match.new(PRESETS["partners"], 1)  # the holder of 6-6 must open with it
    for _ in range(6):
        match = match.apply(match.legal_actions()[0])
    view = match.view(match.turn)
    plays = [e.seat for e in view.events if e.kind == "play"]
    expected = [s for s in plays[1:] if s != view.seat]  # not the forced 6-6, not its own
    assert [d.seat for d in decisions(view)] == expected
    # draw game: a seat's plays before its last draw are not judged (its hand changed)
    m = Match.new(PRESETS["draw"], 4)
    checked = 0
    while m.turn is not None and m.hand_number == 1:
        v = m.view(m.turn)
        for s in range(2):
            if s == v.seat:
                continue
            last_draw = max(
                (k for k, e in enumerate(v.events) if e.seat == s and e.kind == "draw"),
                default=-1,
            )
            after = sum(
                1 for e in v.events[last_draw + 1 :] if e.seat == s and e.kind == "play"
            )
            judged = sum(1 for d in decisions(v) if d.seat == s)
            assert judged <= after
            checked += last_draw >= 0
        m = m.apply(m.legal_actions()[0])
    assert checked


def test_expert_takes_a_sure_win() -> None:
    line = [(4, 2), (2, 1), (1, 1), (1, 0), (0, 3), (3, 1), (1, 5), (5, 0), (0, 6), (6, 1)]
    view = position("draw", "1-4 4-6", line, hand_sizes=(2, 14), pile=2)
    choice = choose(view, "expert", rng=random.Random(1), samples=20)
    assert isinstance(choice, Play) and choice.tile == Tile(1, 4)


def test_expert_respects_its_budget() -> None:
    """Counted, not timed: on a clock that moves 1 ms at each reading, a 50 ms budget lets
    the search read it at most as often as 85% of 50 ms holds (plus a few
    readings around the search), and it stops well before its iteration cap."""
    match = Match.new(any_opener(preset("partners")), 2, None)
    view = match.view(match.turn)
    readings = 0

    def clock() -> float:
        nonlocal readings
        readings += 1
        return readings * 0.001

    stats: dict[str, float] = {}
    choose_expert(view, random.Random(0), budget=0.05, stats=stats, clock=clock)
    assert readings <= round(0.05 * 0.85 / 0.001) + 3
    assert 1 <= stats["rounds"] < EXPERT_ITERATIONS


def test_expert_beats_heaviest_in_duplicate() -> None:
    """Even held to 24 iterations, over 40 deals played both ways."""
    rs = PRESETS["partners"]
    wins = losses = 0
    for seed in range(40):
        for side in (0, 1):
            match = Match.new(rs, 2000 + seed)
            count = 0
            while match.hand_number == 1 and match.outcome is None:
                seat = match.turn
                assert seat is not None
                view = match.view(seat)
                level = "expert" if rs.side_of(seat) == side else "heaviest"
                match = match.apply(choose(view, level, rng=random.Random(count), samples=24))
                count += 1
            result = match.hand_results[0]
            if result.winner_side is not None:
                wins += result.winner_side == side
                losses += result.winner_side != side
    assert wins > losses, (wins, losses)


def test_play_outs_that_read_the_deal_beat_plain_play_outs() -> None:
    """Between seats that see the simulated deal, leaving ends the next seat cannot follow
    wins more hands than the plain heuristic (checked on the same deals, seats swapped)."""
    from domino.ai.policy import seen_move

    rs = preset("partners", scoring="all")
    wins = losses = 0
    for seed in range(300):
        base = Sim.from_match(Match.new(rs, seed))
        for side in (0, 1):
            sim = base.copy()
            while sim.turn >= 0:
                mine = sim.rules.side_of[sim.turn] == side
                sim.apply(seen_move(sim) if mine else rollout_move(sim))
            assert sim.result is not None
            if sim.result.winner_side is not None:
                wins += sim.result.winner_side == side
                losses += sim.result.winner_side != side
    assert wins > 1.2 * losses, (wins, losses)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["partners", "cuban", "three", "draw"]),
    st.integers(0, 10**6),
    st.sampled_from([0.0, 25.0]),
)
def test_the_mask_search_agrees_with_the_simulator_search(
    rs_id: str, seed: int, bonus: float
) -> None:
    """Our decision: exact search on bare hand masks where nothing can be drawn and only a
    block or a domino ends the hand; it must give the simulator search's values."""
    from domino.ai.hard import _solve_sim

    sim = endgame(rs_id, seed, 12)
    if sim is None:
        return
    side = sim.rules.side_of[sim.turn]
    args = (side, sim.rules.penalty, -1e18, 1e18)
    fast = solve(sim.copy(), *args, [10**9], bonus)
    assert fast == _solve_sim(sim.copy(), *args, [10**9], bonus)


def test_a_win_bonus_counts_for_the_winner_only() -> None:
    from domino.ai.sim import SimResult

    won = SimResult("domino", 0, 0, (30, 0), (0, 10, 8, 12))
    assert outcome_value(won, 0, False, 20.0) == 50.0
    assert outcome_value(won, 1, False, 20.0) == -50.0
    tie = SimResult("block", None, None, (0, 0), (5, 5, 5, 5))
    assert outcome_value(tie, 0, False, 20.0) == 0.0


def test_the_budget_counts_the_clock_it_is_given() -> None:
    """A clock that jumps past the budget after the first deal stops the search there."""
    match = Match.new(any_opener(preset("partners")), 2, None)
    view = match.view(match.turn)
    ticks = iter([0.0] + [100.0] * 1000)
    stats: dict[str, float] = {}
    choose_expert(view, random.Random(0), budget=1.0, stats=stats, clock=lambda: next(ticks))
    assert stats["rounds"] == 1


def test_expert_stops_at_its_iteration_cap_within_a_long_budget() -> None:
    """Our decision: ``expert`` runs at most EXPERT_ITERATIONS iterations, however long it may
    think (the figures in docs/benchmarks.md were measured with that cap); a clock that never moves
    cannot stop it."""
    match = Match.new(any_opener(preset("partners")), 2, None)
    view = match.view(match.turn)
    assert len(view.legal) > 1
    stats: dict[str, float] = {}
    choose_expert(view, random.Random(0), budget=1.0, stats=stats, clock=lambda: 0.0)
    assert stats["rounds"] == EXPERT_ITERATIONS


def test_expert_solves_each_deal_once_few_tiles_are_in_the_hands() -> None:
    """Our decision: from ENDGAME_TILES tiles left in the hands (nothing to draw), ``expert``
    solves each of its pooled deals instead of growing the tree, and under a budget stops
    solving when its clock runs out."""
    rng = random.Random(5)
    match = Match.new(preset("partners"), 5, None)
    while sum(len(h) for h in match.hands) > ENDGAME_TILES or len(match.legal_actions()) < 2:
        assert match.turn is not None and match.hand_number == 1
        match = match.apply(rng.choice(match.legal_actions()))
    view = match.view(match.turn)
    stats: dict[str, float] = {}
    choose_expert(view, random.Random(0), budget=1.0, stats=stats, clock=lambda: 0.0)
    assert stats["rounds"] == POOL  # deals solved, not EXPERT_ITERATIONS tree iterations
    ticks = iter([0.0] + [100.0] * 1000)
    choose_expert(view, random.Random(0), budget=1.0, stats=stats, clock=lambda: next(ticks))
    assert stats["rounds"] == 1


def test_the_search_stops_at_its_deadline_with_a_legal_move() -> None:
    """Our decision: the search is anytime. Given the instant its answer is due (a
    ``time.monotonic`` deadline shared by every process), it stops then with the best move
    found, however large its budget; ``hard`` likewise."""
    view = position("partners", "2-5 3-4 5-6", [(5, 3)], hand_sizes=(3, 6, 6, 6))
    for late in (time.monotonic() - 1.0, time.monotonic()):
        stats: dict[str, float] = {}
        move = choose_expert(view, random.Random(1), 100.0, stats=stats, deadline=late)
        assert move in view.legal and stats["rounds"] == 1
    hard_stats: dict[str, float] = {}
    move = choose_hard(view, random.Random(1), 100.0, stats=hard_stats,
                       deadline=time.monotonic() - 1.0)
    assert move in view.legal and hard_stats["rounds"] == 1
    assert choose(view, "expert", rng=random.Random(1), budget=100.0,
                  deadline=time.monotonic() - 1.0) in view.legal
