"""Inference about hidden tiles: sampled deals agree with everything a seat observed."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from domino import PRESETS, Match, Tile, preset
from domino.ai import belief as belief_module
from domino.ai import choose
from domino.ai.belief import Belief
from domino.ai.sim import BIT, NUM, bits
from tests.domino.ai.helpers import any_opener, play, tiles

NO_3_OR_5 = "0-0 0-1 0-2 0-4 0-6 1-1 1-2"


def passed_on_3_5() -> Match:
    """Partners: seat 0 opens 3-5, seat 1 (no 3, no 5) passes, seat 2 and 3 play."""
    hands = [
        tiles("3-5 6-6 2-2 4-4 1-6 3-6 5-6"),
        tiles(NO_3_OR_5),
        tiles("3-3 1-3 2-3 3-4 1-4 2-4 2-6"),
        tiles("5-5 0-3 0-5 1-5 2-5 4-5 4-6"),
    ]
    match = Match.new(any_opener(preset("partners")), "pass", {"hands": hands, "opener": 0})
    match = play(match, "3-5", "pass", "3-3 left", "5-5 right")
    assert match.turn == 0
    return match


def test_pass_on_3_and_5_is_never_dealt_a_3_or_5(monkeypatch: pytest.MonkeyPatch) -> None:
    match = passed_on_3_5()
    view = match.view(0)
    belief = Belief.from_view(view)
    assert belief.lacks(1) & ((1 << 3) | (1 << 5)) == (1 << 3) | (1 << 5)
    rng = random.Random(5)
    for _ in range(300):
        hands, _pile = belief.sample(rng)
        assert not hands[1] & (NUM[3] | NUM[5])
        assert [h.bit_count() for h in hands] == [0, 7, 6, 6]
    # and the deals hard actually simulates obey it too
    seen: list[list[int]] = []
    original = belief_module.Belief.sample_weighted

    def spy(
        self: Belief, rng: random.Random, tries: int = 30
    ) -> tuple[list[int], list[int], float]:
        deal = original(self, rng, tries)
        seen.append(deal[0])
        return deal

    monkeypatch.setattr(belief_module.Belief, "sample_weighted", spy)
    choose(view, "hard", rng=random.Random(1), samples=50)
    assert len(seen) == 50
    assert all(not hands[1] & (NUM[3] | NUM[5]) for hands in seen)


def test_drawn_tiles_after_a_draw_are_unconstrained() -> None:
    """Draw game: a seat that drew on (a, b) and later drew again may hold a or b now."""
    rs = PRESETS["draw"]
    for seed in range(200):
        match = Match.new(rs, seed)
        rng = random.Random(seed)
        while match.outcome is None and match.hand_number == 1:
            match = match.apply(rng.choice(match.legal_actions()))
            seat = match.turn
            if seat is None or match.hand_number != 1:
                break
            events = match.view(seat).events
            other = 1 - seat
            draws = [e for e in events if e.seat == other and e.kind == "draw"]
            if len({e.ends_before for e in draws}) >= 2:
                belief = Belief.from_view(match.view(seat))
                # the constraints are not all the same: older slots carry more numbers
                forbids = {f for s, f, _ in belief.groups if s == other}
                if len(forbids) >= 2:
                    return
    pytest.fail("no position with draws at two different ends found")


def holds_consistently(belief: Belief, seat: int, hidden: int) -> bool:
    """Whether ``hidden`` can be spread over ``seat``'s slots (a small bipartite matching)."""
    slots = [f for s, f, n in belief.groups if s == seat for _ in range(n)]
    tiles = bits(hidden)
    if len(tiles) != len(slots):
        return False
    owner: dict[int, int] = {}

    def place(t: int, seen: set[int]) -> bool:
        for k, forbid in enumerate(slots):
            if forbid & (1 << t) or k in seen:
                continue
            seen.add(k)
            if k not in owner or place(owner[k], seen):
                owner[k] = t
                return True
        return False

    return all(place(t, set()) for t in tiles)


@pytest.mark.parametrize("rs_id", list(PRESETS))
def test_the_true_deal_is_always_possible(rs_id: str) -> None:
    """Soundness: the real hidden hands always satisfy the inferred constraints."""
    rs = PRESETS[rs_id]
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        match = Match.new(rs, seed)
        while match.outcome is None and match.hand_number <= 2:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            belief = Belief.from_view(view)
            assert belief.consistent, (rs_id, seed)
            for other, held in enumerate(match.hands):
                if other != seat:
                    mask = sum(BIT[t] for t in held)
                    assert holds_consistently(belief, other, mask), (rs_id, seed, other)
                    numbers = 0
                    for t in held:
                        numbers |= (1 << t.a) | (1 << t.b)
                    assert not belief.lacks(other) & numbers
            checked += 1
            match = match.apply(rng.choice(match.legal_actions()))
    assert checked > 100


def test_forced_opening_rules_out_higher_doubles() -> None:
    """Cuban: the highest double dealt opens, so nobody holds a higher one."""
    rs = PRESETS["cuban"]
    for seed in range(50):
        match = Match.new(rs, seed)
        opener = match.turn
        match = match.apply(match.legal_actions()[0])
        first = match.view(0).events[0].tile
        assert first is not None and first.is_double
        if first.a == 9:
            continue
        seat = match.turn
        assert seat is not None and seat != opener
        belief = Belief.from_view(match.view(seat))
        higher = sum(BIT[Tile(n, n)] for n in range(first.a + 1, 10)) & belief.unseen
        assert higher, "some higher doubles sleep"
        for s in range(4):
            if s != seat:
                assert not belief.possible(s) & higher
        return
    pytest.fail("no cuban deal opened below 9-9")


def test_sampled_deals_fill_every_hidden_place() -> None:
    rs = PRESETS["cuban"]
    match = Match.new(rs, 4)
    seat = match.turn
    assert seat is not None
    belief = Belief.from_view(match.view(seat))
    hands, pile = belief.sample(random.Random(0))
    assert pile == []  # cuban has no pile; its 15 sleeping tiles are the rest
    dealt = sum(hands)
    assert dealt & belief.unseen == dealt
    assert dealt.bit_count() == 30
    assert belief.unseen.bit_count() == 45


def test_weighted_deals_count_every_consistent_deal_the_same() -> None:
    """Filling one constrained hand after another favours some deals; the weight undoes it.

    Seat 1 holds none of tiles a, b and seat 2 not tile c (say they passed on those numbers);
    seat 3 holds anything. Every split of the six tiles that obeys that must come up
    equally often once the deals are weighed.
    """
    six = [0, 1, 2, 3, 4, 5]  # tile indices 0-0 .. 0-5
    unseen = sum(1 << i for i in six)
    groups = [(1, (1 << 0) | (1 << 1), 2), (2, 1 << 2, 2), (3, 0, 2)]
    belief = Belief(0, 4, 0, unseen, groups, 0, 0)
    consistent = []
    for one in itertools.combinations(six, 2):
        for two in itertools.combinations([i for i in six if i not in one], 2):
            three = tuple(i for i in six if i not in one and i not in two)
            if 0 not in one and 1 not in one and 2 not in two:
                consistent.append((one, two, three))
    key = {deal: k for k, deal in enumerate(consistent)}
    weighted = [0.0] * len(consistent)
    plain = [0.0] * len(consistent)
    rng = random.Random(3)
    for _ in range(30_000):
        hands, pile, log_weight = belief.sample_weighted(rng)
        assert pile == []
        deal = tuple(tuple(bits(hands[s])) for s in (1, 2, 3))
        weighted[key[deal]] += math.exp(log_weight)
        plain[key[deal]] += 1.0

    def distance_from_uniform(counts: list[float]) -> float:
        total = sum(counts)
        return sum(abs(c / total - 1 / len(counts)) for c in counts) / 2

    assert distance_from_uniform(plain) > 0.1  # the unweighted deals are biased
    assert distance_from_uniform(weighted) < 0.03


def test_a_belief_knowing_every_hand_deals_only_the_true_one() -> None:
    match = passed_on_3_5()
    held = [sum(BIT[t] for t in hand) for hand in match.hands]
    belief = Belief.from_view(match.view(0))
    knowing = belief.knowing(held)
    rng = random.Random(2)
    for _ in range(20):
        hands, pile, _ = knowing.sample_weighted(rng)
        assert pile == []
        assert [hands[s] for s in (1, 2, 3)] == held[1:]
    assert belief.groups == Belief.from_view(match.view(0)).groups  # left as it was
