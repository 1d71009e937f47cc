"""The rule-of-thumb players: ``easy`` (random), ``heaviest`` and ``normal`` (a good human
heuristic), plus the fast heuristic the ``hard`` player uses inside its simulations.
"""

from __future__ import annotations

import random

from domino.actions import Action, Play
from domino.ai.belief import Belief
from domino.ai.sim import DOUBLES, NUM, OTHER, PIPS, Sim, bits, mask_of, pips_of
from domino.views import View

SURE = 1_000_000.0

# Weights of the normal heuristic (pips are worth 1).
W_DOUBLE = 3.0  # doubles fit one number only: lay them early
W_FOLLOW = 2.5  # per open end I can follow (own tiles showing it, counted up to 2)
W_VARIETY = 1.2  # per distinct number kept in hand
W_CONTROL = 2.0  # an open end only I still hold
W_LOCK = 9.0  # both ends are numbers the next seat lacks: he must pass (or draw)
W_LACK = 3.0  # one end the next seat lacks
W_PARTNER_LACK = 3.0  # an end my partner lacks
W_PARTNER_SHOWN = 1.5  # an end my partner showed he holds
W_LAST_LACK = 1.0  # an end the seat before me lacks (he plays after my partner)
W_BLOCK = 1.5  # per pip of expected advantage when my move blocks the hand


def easy(view: View, rng: random.Random) -> Action:
    """A random legal action."""
    return rng.choice(view.legal)


def heaviest(view: View) -> Action:
    """The heaviest legal tile (the first end listed when it fits both)."""
    best: Action = view.legal[0]
    key = -1
    for action in view.legal:
        if isinstance(action, Play) and action.tile.pips > key:
            best, key = action, action.tile.pips
    return best


def _shown(view: View, seat: int) -> int:
    """Numbers ``seat`` chose to leave open with his plays (a hint that he holds more)."""
    out = 0
    for e in view.events:
        if e.seat == seat and e.kind == "play" and e.tile is not None:
            if e.ends_before is None:
                out |= (1 << e.tile.a) | (1 << e.tile.b)
            else:
                side = e.ends_before[0] if e.end == "left" else e.ends_before[1]
                out |= 1 << e.tile.other(side)
    return out


def _numbers(mask: int) -> int:
    """How many distinct numbers the tiles of ``mask`` show."""
    return sum(1 for n in range(10) if mask & NUM[n])


def normal(view: View, belief: Belief | None = None) -> Action:
    """The heuristic player: see :func:`normal_scores`. Ties go to the first legal action."""
    if len(view.legal) == 1:
        return view.legal[0]
    scores = normal_scores(view, belief)
    best = max(range(len(view.legal)), key=lambda k: scores[k])
    return view.legal[best]


def normal_scores(view: View, belief: Belief | None = None) -> list[float]:
    """A score per legal action (higher is better) from what a careful human weighs:
    heavy tiles and doubles early, keep numbers I can follow and variety, leave ends the
    next opponent showed he lacks, avoid ends my partner lacks and prefer those he showed,
    dominate numbers nobody else holds, block only when it pays, and take a sure win.
    """
    rs = view.ruleset
    me = view.seat
    assert me is not None and view.hand is not None
    if belief is None:
        belief = Belief.from_view(view)
    seats = rs.seats
    own = mask_of(view.hand)
    unseen = belief.unseen
    nxt = (me + 1) % seats
    lack_next = belief.lacks(nxt) if nxt != me else 0
    partner = (me + 2) % seats if rs.teams and seats == 4 else -1
    lack_partner = belief.lacks(partner) if partner >= 0 else 0
    shown_partner = _shown(view, partner) if partner >= 0 else 0
    last = (me - 1) % seats
    lack_last = belief.lacks(last) if seats > 2 and last != partner else 0
    can_draw_later = rs.draw and view.pile_size > rs.draw_floor
    lock_weight = W_LOCK * (0.5 if can_draw_later else 1.0)
    lack_weight = W_LACK * (0.5 if can_draw_later else 1.0)
    ends = view.ends
    scores: list[float] = []
    for action in view.legal:
        if not isinstance(action, Play):
            scores.append(0.0)
            continue
        tile = action.tile
        i = tile.a * 10 + tile.b
        rest = own & ~(1 << i)
        if not rest:
            scores.append(SURE + tile.pips)
            continue
        if ends is None:
            left, right = tile.a, tile.b
        elif action.end == "left":
            left, right = OTHER[i * 10 + ends[0]], ends[1]
        else:
            left, right = ends[0], OTHER[i * 10 + ends[1]]
        open_mask = (1 << left) | (1 << right)
        score = float(tile.pips)
        if tile.is_double:
            score += W_DOUBLE
        for n in {left, right}:
            score += W_FOLLOW * min((rest & NUM[n]).bit_count(), 2)
            if not unseen & NUM[n] and rest & NUM[n]:
                score += W_CONTROL
        score += W_VARIETY * _numbers(rest)
        if lack_next & open_mask == open_mask:
            score += lock_weight
        elif lack_next & open_mask:
            score += lack_weight
        if partner >= 0:
            score -= W_PARTNER_LACK * (lack_partner & open_mask).bit_count()
            score += W_PARTNER_SHOWN * (shown_partner & open_mask).bit_count()
        if lack_last & open_mask:
            score += W_LAST_LACK
        score += _block_value(view, belief, rest, i, left, right)
        scores.append(score)
    return scores


def _block_value(view: View, belief: Belief, rest: int, tile: int, left: int, right: int) -> float:
    """Value of a move that surely blocks the hand (0 when it does not)."""
    rs = view.ruleset
    if rs.draw and view.pile_size > rs.draw_floor:
        return 0.0
    open_tiles = NUM[left] | NUM[right]
    if rest & open_tiles or belief.unseen & open_tiles:
        return 0.0  # someone may still hold a matching tile (sleeping tiles count as unseen)
    me = view.seat
    assert me is not None
    hidden = [PIPS[i] for i in bits(belief.unseen)]
    average = sum(hidden) / len(hidden) if hidden else 0.0
    sizes = list(view.hand_sizes)
    sizes[me] -= 1
    mine = pips_of(rest)
    lowest = sorted(hidden)

    def estimate(seat: int) -> float:
        return mine if seat == me else sizes[seat] * average

    def least(seat: int) -> float:
        return mine if seat == me else sum(lowest[: sizes[seat]])

    def most(seat: int) -> float:
        return mine if seat == me else sum(lowest[::-1][: sizes[seat]])

    side = rs.side_of(me)
    if rs.teams and rs.blocked == "team":
        ours = [s for s in range(rs.seats) if rs.side_of(s) == side]
        theirs = [s for s in range(rs.seats) if rs.side_of(s) != side]
        if sum(most(s) for s in ours) < sum(least(s) for s in theirs):
            return SURE
        gap = sum(estimate(s) for s in theirs) - sum(estimate(s) for s in ours)
    else:
        others = [s for s in range(rs.seats) if rs.side_of(s) != side]
        if all(mine < least(s) for s in others):
            return SURE
        gap = min(estimate(s) for s in others) - mine
    return W_BLOCK * gap


# -- the policy used inside simulations --------------------------------------------------


def play_score(
    move: int, hand: int, left0: int, right0: int, lack_next: int, lack_partner: int
) -> float:
    """The fast heuristic's score of play ``move`` from ``hand`` on ends ``left0``/``right0``
    (-1: empty line), given the numbers the next seat and the partner showed they lack."""
    i = move >> 2
    rest = hand ^ (1 << i)
    if not rest:
        return SURE
    end = move & 3
    if end == 1:
        left, right = OTHER[i * 10 + left0], right0
    elif end == 2:
        left, right = left0, OTHER[i * 10 + right0]
    else:
        left = i // 10
        right = i % 10
    score = PIPS[i] + (W_DOUBLE if (1 << i) & DOUBLES else 0.0)
    score += W_FOLLOW * (
        min((rest & NUM[left]).bit_count(), 2)
        + (min((rest & NUM[right]).bit_count(), 2) if right != left else 0)
    )
    open_mask = (1 << left) | (1 << right)
    hit = lack_next & open_mask
    if hit == open_mask:
        score += W_LOCK
    elif hit:
        score += W_LACK
    if lack_partner & open_mask:
        score -= W_PARTNER_LACK
    return score


def rollout_move(sim: Sim) -> int:
    """A fast version of the normal heuristic on a simulator position (own hand only)."""
    seat = sim.turn
    plays = sim.plays()
    if not plays:
        return -1 if sim.can_draw() else -2
    if len(plays) == 1:
        return plays[0]
    hand = sim.hands[seat]
    rules = sim.rules
    seats = rules.seats
    lacks = sim.lacks
    lack_next = lacks[(seat + 1) % seats]
    lack_partner = lacks[(seat + 2) % 4] if seats == 4 and rules.sides == 2 else 0
    left0 = sim.left
    right0 = sim.right
    best = plays[0]
    best_score = -1e18
    for move in plays:
        score = play_score(move, hand, left0, right0, lack_next, lack_partner)
        if score >= SURE:
            return move
        if score > best_score:
            best_score = score
            best = move
    return best


def play_out(sim: Sim) -> None:
    """Finish the hand with :func:`rollout_move` for every seat."""
    while sim.turn >= 0:
        sim.apply(rollout_move(sim))


W_SEEN_STUCK = 9.0  # the next seat holds nothing for the ends left (in this deal)
W_SEEN_PARTNER_STUCK = 5.0  # the partner holds nothing for them


def seen_move(sim: Sim) -> int:
    """:func:`rollout_move`, plus what the simulated deal shows: leave ends the next seat
    cannot follow and the partner can."""
    seat = sim.turn
    plays = sim.plays()
    if not plays:
        return -1 if sim.can_draw() else -2
    if len(plays) == 1:
        return plays[0]
    hand = sim.hands[seat]
    rules = sim.rules
    seats = rules.seats
    lacks = sim.lacks
    teams = seats == 4 and rules.sides == 2
    lack_next = lacks[(seat + 1) % seats]
    lack_partner = lacks[(seat + 2) % 4] if teams else 0
    after = sim.hands[(seat + 1) % seats]
    partner = sim.hands[(seat + 2) % 4] if teams else -1
    left0 = sim.left
    right0 = sim.right
    best = plays[0]
    best_score = -1e18
    for move in plays:
        score = play_score(move, hand, left0, right0, lack_next, lack_partner)
        if score >= SURE:
            return move
        i = move >> 2
        end = move & 3
        if end == 1:
            ends = NUM[OTHER[i * 10 + left0]] | NUM[right0]
        elif end == 2:
            ends = NUM[left0] | NUM[OTHER[i * 10 + right0]]
        else:
            ends = NUM[i // 10] | NUM[i % 10]
        if not after & ends:
            score += W_SEEN_STUCK
        if not partner & ends:
            score -= W_SEEN_PARTNER_STUCK
        if score > best_score:
            best_score = score
            best = move
    return best


def play_out_seen(sim: Sim) -> None:
    """Finish the hand with :func:`seen_move` for every seat."""
    while sim.turn >= 0:
        sim.apply(seen_move(sim))
