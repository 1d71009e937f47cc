"""One test per rule and decision of RULES.md, each quoting it, on constructed deals."""

from __future__ import annotations

import itertools

import pytest

from domino import (
    DominoError,
    Draw,
    HandResult,
    IllegalAction,
    Match,
    Pass,
    Play,
    Resign,
    Tile,
    decode_action,
    encode_action,
    preset,
    tile_set,
)
from tests.domino.helpers import (
    REST_PLAYER_TIE,
    REST_SEAT1_LOWEST,
    REST_TEAM0_LOW,
    REST_TEAM_TIE,
    REST_TIE_INSIDE,
    blocked_four,
    find_hand,
    last_result,
    play_all,
    tiles,
)

# --------------------------------------------------------------------------- common ground


def test_tile_worth_and_sets() -> None:
    """"A tile a-b is worth a+b pips. A double-six set has 28 tiles (0-0 … 6-6); a
    double-nine set 55 (0-0 … 9-9).\""""
    assert Tile.parse("3-5").pips == 8
    assert len(tile_set(6)) == 28
    assert len(tile_set(9)) == 55
    assert tile_set(6)[0] == Tile(0, 0) and tile_set(6)[-1] == Tile(6, 6)


def test_play_passes_to_next_seat() -> None:
    """"Seats are numbered in turn order; play passes to the next seat.\""""
    m = Match.new(preset("partners"), 1)
    first = m.turn
    assert first is not None
    m = m.apply(m.legal_actions()[0])
    assert m.turn == (first + 1) % 4


def test_partners_sit_apart() -> None:
    """"In 4-seat partnership games seats 0 and 2 are one team, 1 and 3 the other.\""""
    rs = preset("spanish")
    assert [rs.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rs.seats_of_side(0) == (0, 2)


def test_later_tiles_must_match_an_open_end() -> None:
    """"Every later tile must match one open end.\""""
    m = Match.new(preset("venezuelan"), 1, {"hands": _hands_4("4-2", "6-6"), "opener": 0})
    m = m.apply(Play(Tile(2, 4)))
    with pytest.raises(IllegalAction, match="6-6 does not match 2 or 4"):
        m.apply(Play(Tile(6, 6)))


def test_tile_fitting_both_ends_needs_a_choice() -> None:
    """"A tile that fits both ends (with different numbers) needs the player to choose
    the end.\""""
    m = _fits_both()
    assert {a.end for a in m.legal_actions() if a == Play(Tile(2, 5), a.end)} == {"left", "right"}
    with pytest.raises(IllegalAction, match="fits both ends"):
        m.apply(Play(Tile(2, 5)))
    assert m.apply(Play(Tile(2, 5), "left")).ends == (5, 5)
    assert m.apply(Play(Tile(2, 5), "right")).ends == (2, 2)


def test_equal_ends_one_move() -> None:
    """Only "a tile that fits both ends (with different numbers)" needs a choice: with the
    same number at both ends the tile is one move (listed once; "left" is its mirror)."""
    m = Match.new(preset("venezuelan"), 1, {"hands": _hands_4("3-3", "3-5"), "opener": 0})
    m = m.apply(Play(Tile(3, 3)))
    assert [a for a in m.legal_actions() if a.tile == Tile(3, 5)] == [Play(Tile(3, 5), "right")]
    left, right = m.apply(Play(Tile(3, 5), "left")), m.apply(Play(Tile(3, 5), "right"))
    assert sorted(left.ends) == sorted(right.ends) == [3, 5]


def test_doubles_are_ordinary_tiles() -> None:
    """"Doubles are laid crosswise in pictures only; they are ordinary tiles for the rules
    (no spinner in these variants).\""""
    m = Match.new(preset("venezuelan"), 1, {"hands": _hands_4("3-3", "3-5"), "opener": 0})
    m = m.apply(Play(Tile(3, 3)))
    assert m.ends == (3, 3)
    m = m.apply(Play(Tile(3, 5)))
    assert m.ends in ((3, 5), (5, 3))
    assert len(m.line) == 2  # still a line with two ends, no third arm


def test_domino_ends_the_hand() -> None:
    """"A hand ends by domino (a player plays his last tile).\""""
    _before, result, _ = find_hand("venezuelan", lambda r, m: r.kind == "domino")
    assert result.kind == "domino"
    assert result.pips[result.winner_seat] == 0


def test_block_when_number_exhausted_at_both_ends() -> None:
    """"For no-draw games this is exactly: both ends show the same number and all tiles of
    that number are on the table, or every seat has passed in a row." Decision: the hand
    ends as soon as nobody can play (the passes would change nothing)."""
    m = blocked_four(preset("venezuelan"), REST_TEAM0_LOW)
    result = last_result(m)
    assert result.kind == "block"
    assert result.last_player == 1
    assert result.line[0][0] == 0 and result.line[-1][1] == 0
    assert m.hand_number == 2


def test_block_when_every_seat_passes() -> None:
    """"...or every seat has passed in a row": in cuban the missing tiles sleep, so after
    9-9 nobody holding a 9 means a block at once."""
    m = _cuban_block({0: "9-9 0-0 0-1 0-2 1-1 1-2 1-3 2-2 2-3 3-3"})
    assert last_result(m).kind == "block"


def test_match_is_a_sequence_of_hands() -> None:
    """"A match is a sequence of hands until the end condition (target score, or a fixed
    number of hands).\""""
    m = Match.new(preset("venezuelan", target=50), 3)
    import random

    rng = random.Random(3)
    while m.turn is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    assert m.outcome is not None and m.outcome.reason == "target"
    assert max(m.scores) >= 50
    assert len(m.hand_results) == m.hand_number


def test_previous_winner_after_domino() -> None:
    """"The previous hand's winner: the player who dominoed.\""""
    rs = preset("partners", next_hand="winner")
    _, result, after = find_hand(rs, lambda r, m: r.kind == "domino")
    assert after.hand_number == 2
    assert after.turn == result.winner_seat
    assert len(after.legal_actions()) == 7  # any tile


def test_previous_winner_after_block_is_lowest_on_winning_side() -> None:
    """"After a block, the player with the fewest pips on the winning side (on a tie inside
    that side, the one who comes first after the blocker).\""""
    rs = preset("partners", next_hand="winner")
    m = blocked_four(rs, REST_TEAM0_LOW)  # team 0 wins; seat 0 has 15, seat 2 has 30
    assert last_result(m).winner_seat == 0 and m.turn == 0
    tie = blocked_four(rs, REST_TIE_INSIDE)  # seats 0 and 2 both hold 28; seat 1 blocked
    assert last_result(tie).pips[0] == last_result(tie).pips[2]
    assert last_result(tie).winner_seat == 2 and tie.turn == 2


def test_tie_hand_previous_opener_opens_again() -> None:
    """"After a hand nobody won (a tie), the previous opener opens again.\""""
    rs = preset("partners", next_hand="winner")
    m = blocked_four(rs, REST_TEAM_TIE)
    assert last_result(m).winner_side is None
    assert m.turn == 0 == last_result(m).opener


def test_seeded_shuffle_replays_exactly() -> None:
    """"The shuffle of every hand comes from a seeded random generator, so a hand can be
    replayed exactly from (rules, seed, actions).\""""
    a = Match.new(preset("cuban"), "seed-7")
    b = Match.new(preset("cuban"), "seed-7")
    assert a.hands == b.hands and a.sleeping == b.sleeping
    assert Match.new(preset("cuban"), "seed-8").hands != a.hands


# --------------------------------------------------------------------------- partners


def test_partners_deal() -> None:
    """partners: "4, teams, 7 each, 28 dealt"; pile "none"."""
    m = Match.new(preset("partners"), 1)
    assert [len(h) for h in m.hands] == [7, 7, 7, 7]
    assert m.pile_size == 0 and not m.sleeping


def test_partners_double_six_opens() -> None:
    """partners first_hand = "double-six" (holder of 6-6 opens with it; default)."""
    m = Match.new(preset("partners"), 11)
    holder = next(s for s, h in enumerate(m.hands) if Tile(6, 6) in h)
    assert m.turn == holder
    assert m.legal_actions() == [Play(Tile(6, 6), None)]
    other = next(t for t in m.hands[holder] if t != Tile(6, 6))
    with pytest.raises(IllegalAction, match="must open with 6-6"):
        m.apply(Play(other))


def test_partners_random_first_hand() -> None:
    """partners first_hand = "random" (random seat, any tile)."""
    rs = preset("partners", first_hand="random")
    openers = {Match.new(rs, s).turn for s in range(40)}
    assert openers == {0, 1, 2, 3}
    m = Match.new(rs, 5)
    assert len(m.legal_actions()) == 7


def test_partners_next_hand_rotates() -> None:
    """partners next_hand = "rotate" (seat after the previous opener; default)."""
    m = blocked_four(preset("partners"), REST_TEAM0_LOW)
    assert last_result(m).opener == 0
    assert m.turn == 1 and m.opener == 1
    assert len(m.legal_actions()) == 7  # any tile


def test_partners_next_hand_winner() -> None:
    """partners next_hand = "winner" (previous hand's winner, any tile)."""
    m = blocked_four(preset("partners", next_hand="winner"), REST_SEAT1_LOWEST)
    # team block: team 0 (61) beats team 1 (65); seat 2 (30) is lowest of team 0
    assert last_result(m).winner_side == 0
    assert m.turn == last_result(m).winner_seat == 2


def test_partners_unable_to_play_passes() -> None:
    """partners unable to play: "pass"."""
    others = [str(t) for t in tile_set(6) if "6" not in str(t)]
    sixes = ["0-6", "1-6", "2-6", "3-6", "4-6", "5-6"]
    hands = [["6-6", *others[:6]], others[6:13], [*sixes[:3], *others[13:17]],
             [*sixes[3:], *others[17:21]]]
    m = Match.new(preset("venezuelan"), 1, {"hands": hands, "opener": 0})
    m = m.apply(Play(Tile(6, 6)))
    assert m.turn == 1 and m.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="no drawing"):
        m.apply(Draw())
    assert m.apply(Pass()).turn == 2


def test_partners_domino_scores_opponents() -> None:
    """partners scoring = "opponents" (default: winners score all pips left in the losing
    team's hands)."""
    _, r, _ = find_hand("partners", lambda r, m: r.kind == "domino")
    losers = [s for s in range(4) if s % 2 != r.winner_side]
    assert r.points[r.winner_side] == sum(r.pips[s] for s in losers)
    assert r.points[1 - r.winner_side] == 0


def test_partners_domino_scores_all() -> None:
    """partners scoring = "all" (pips left in all hands, partner included)."""
    m = blocked_four(preset("partners", scoring="all"), REST_TEAM0_LOW)
    assert last_result(m).points == (126, 0)


def test_partners_block_team() -> None:
    """partners blocked = "team" (default: team with fewest pips wins); points as in
    scoring."""
    m = blocked_four(preset("partners"), REST_TEAM0_LOW)
    r = last_result(m)
    assert r.pips == (15, 31, 30, 50)
    assert r.winner_side == 0 and r.points == (81, 0)
    assert m.scores == (81, 0)


def test_partners_block_individual() -> None:
    """partners blocked = "individual" (team of the single player with fewest pips wins)."""
    team = blocked_four(preset("partners"), REST_SEAT1_LOWEST)
    assert last_result(team).winner_side == 0  # 61 against 65
    ind = blocked_four(preset("partners", blocked="individual"), REST_SEAT1_LOWEST)
    r = last_result(ind)
    assert r.winner_side == 1 and r.winner_seat == 1
    assert r.points == (0, 61)


def test_partners_block_tie_nobody_scores() -> None:
    """partners "Decision: tie = nobody scores"."""
    r = last_result(blocked_four(preset("partners"), REST_TEAM_TIE))
    assert r.winner_side is None and r.points == (0, 0)
    r2 = last_result(blocked_four(preset("partners", blocked="individual"), REST_PLAYER_TIE))
    assert r2.winner_side is None and r2.points == (0, 0)


def test_partners_targets() -> None:
    """partners: option target ∈ {50, 100, 150, 200}, default 100."""
    assert preset("partners").target == 100
    for t in (50, 100, 150, 200):
        assert preset("partners", target=t).target == t
    with pytest.raises(ValueError, match="50, 100, 150, 200"):
        preset("partners", target=75)


def test_unknown_variant_option_value() -> None:
    """An unknown id, option or value raises ValueError naming what is allowed."""
    with pytest.raises(ValueError, match="partners, spanish"):
        preset("mexican-train")
    with pytest.raises(ValueError, match="options are"):
        preset("cuban", scoring="all")
    with pytest.raises(ValueError, match="opponents, all"):
        preset("partners", scoring="double")


# --------------------------------------------------------------------------- spanish & co


def test_spanish_opener_random_then_next_seat_any_tile() -> None:
    """spanish: "first hand random seat; then the seat after the previous opener; any
    tile"."""
    rs = preset("spanish")
    assert {Match.new(rs, s).turn for s in range(40)} == {0, 1, 2, 3}
    m = blocked_four(rs, REST_TEAM0_LOW)
    assert m.turn == 1 and len(m.legal_actions()) == 7


def test_spanish_domino_scores_all_pips() -> None:
    """spanish domino scores: "all pips left, partner's included"."""
    _, r, _ = find_hand("spanish", lambda r, m: r.kind == "domino")
    assert r.points[r.winner_side] == sum(r.pips)


def test_spanish_block_fewest_team_wins_all() -> None:
    """spanish block: "team with fewest pips wins all pips left. Decision: tie = nobody
    scores"; target 150."""
    r = last_result(blocked_four(preset("spanish"), REST_TEAM0_LOW))
    assert r.winner_side == 0 and r.points == (126, 0)
    tie = last_result(blocked_four(preset("spanish"), REST_TEAM_TIE))
    assert tie.points == (0, 0)
    assert preset("spanish").target == 150


def test_venezuelan_opponents_only() -> None:
    """venezuelan: "opponents' pips only"; block "team with fewest pips wins opponents'
    pips. Decision: tie = nobody scores"; target 100."""
    _, r, _ = find_hand("venezuelan", lambda r, m: r.kind == "domino")
    assert r.points[r.winner_side] == sum(p for s, p in enumerate(r.pips) if s % 2 != r.winner_side)
    b = last_result(blocked_four(preset("venezuelan"), REST_TEAM0_LOW))
    assert b.points == (81, 0)
    assert last_result(blocked_four(preset("venezuelan"), REST_TEAM_TIE)).points == (0, 0)
    assert preset("venezuelan").target == 100
    assert {Match.new(preset("venezuelan"), s).turn for s in range(40)} == {0, 1, 2, 3}


def test_brazilian_double_six_then_rotate() -> None:
    """brazilian: "first hand: holder of 6-6 opens with it; later hands: the seat after the
    previous opener, any tile"; target 50."""
    m = Match.new(preset("brazilian"), 4)
    assert m.legal_actions() == [Play(Tile(6, 6), None)]
    after = blocked_four(preset("brazilian", target=100), REST_TEAM0_LOW)
    assert after.turn == 1 and len(after.legal_actions()) == 7
    assert preset("brazilian").target == 50


def test_brazilian_block_fewer_wins_opponents() -> None:
    """brazilian block: "team with fewer pips wins, scoring the other team's pips"."""
    assert last_result(blocked_four(preset("brazilian"), REST_TEAM0_LOW)).points == (81, 0)


def test_brazilian_block_tie_blocking_team_loses() -> None:
    """brazilian: "tie: the team of the player who made the blocking move loses"."""
    r = last_result(blocked_four(preset("brazilian"), REST_TEAM_TIE))
    assert r.last_player == 1  # seat 1 (team 1) laid the blocking tile
    assert r.winner_side == 0 and r.points == (63, 0)


# --------------------------------------------------------------------------- cuban


def _cuban_block(fixed: dict[int, str], target: int = 100) -> Match:
    """A cuban first hand where seat 0 opens 9-9 and nobody else holds a 9: a block."""
    everything = [str(t) for t in tile_set(9)]
    fixed = dict(fixed)
    if "9-9" not in fixed.get(0, ""):
        fixed[0] = "9-9 " + fixed.get(0, "")
    used = {t for h in fixed.values() for t in tiles(h)}
    nines = [t for t in everything if "9" in t and t not in used]
    free = [t for t in everything if t not in used and "9" not in t]
    hands = []
    for s in range(4):
        hand = tiles(fixed.get(s, ""))
        while len(hand) < 10:
            hand.append(free.pop(0))
        hands.append(hand)
    rest = nines + free
    assert len(rest) == 15
    m = Match.new(preset("cuban", target=target), "cuban", {"hands": hands, "pile": rest})
    assert m.legal_actions() == [Play(Tile(9, 9), None)]
    return m.apply(Play(Tile(9, 9)))


def test_cuban_deal_and_sleeping_tiles() -> None:
    """cuban: "4, teams, double-nine set, 10 each"; "15 tiles stay face down, unused"."""
    m = Match.new(preset("cuban"), 2)
    assert [len(h) for h in m.hands] == [10] * 4
    assert len(m.sleeping) == 15 and m.pile_size == 0
    assert m.public_view().sleeping == 15
    assert m.legal_actions()[0] != Draw()


def test_cuban_highest_double_opens() -> None:
    """cuban: "first hand: holder of the highest double dealt opens with it"."""
    m = Match.new(preset("cuban"), 9)
    doubles = [(t, s) for s, h in enumerate(m.hands) for t in h if t.is_double]
    best, holder = max(doubles)
    assert m.turn == holder and m.legal_actions() == [Play(best, None)]


def test_cuban_block_single_lowest_player() -> None:
    """cuban block: "the team of the single player with fewest pips wins, scoring
    opponents' unplayed pips"."""
    m = _cuban_block({1: "0-0 0-1 0-2 0-3 1-1 1-2 1-3 2-2 2-3 0-4"})
    r = last_result(m)
    assert r.pips[1] == min(r.pips)
    assert r.winner_side == 1 and r.winner_seat == 1
    assert r.points == (0, r.pips[0] + r.pips[2])


def test_cuban_block_tie_across_teams_nobody_scores() -> None:
    """cuban: "Decision: tie between players of both teams = nobody scores"."""

    def tie_across(r: HandResult, m: Match) -> bool:
        low = min(r.pips)
        return r.kind == "block" and len({s % 2 for s in range(4) if r.pips[s] == low}) == 2

    _, r, after = find_hand("cuban", tie_across, 20000)
    assert r.winner_side is None and r.points == (0, 0)
    assert after.turn == r.opener  # nobody won: the previous opener opens again


def test_cuban_next_hand_winner_or_previous_opener() -> None:
    """cuban: "later hands: previous hand's winner (on a tie, the previous opener), any
    tile"."""
    won = _cuban_block({1: "0-0 0-1 0-2 0-3 1-1 1-2 1-3 2-2 2-3 0-4"}, target=500)
    assert won.turn == 1 and len(won.legal_actions()) == 10


# --------------------------------------------------------------------------- seven-seven


def test_seven_seven_is_a_four_seat_spanish_game_for_two_people() -> None:
    """seven-seven: "2 people, each plays both seats of one team of a 4-seat spanish
    game"; as spanish otherwise; 150."""
    rs, sp = preset("seven-seven"), preset("spanish")
    assert rs.people == 2 and rs.seats == 4 and rs.teams
    fields = ("hand_size", "scoring", "blocked", "first_hand", "next_hand", "target")
    assert all(getattr(rs, f) == getattr(sp, f) for f in fields)
    r = last_result(blocked_four(rs, REST_TEAM0_LOW))
    assert r.points == (126, 0)


# --------------------------------------------------------------------------- three

THREE_PLAYED = {0: "6-6 0-5 0-2 0-4", 1: "0-6 0-1 0-3", 2: "5-6 1-2 3-4"}
THREE_MOVES = [("6-6", None), ("0-6", "left"), ("5-6", "right"), ("0-5", "right"),
               ("0-1", "right"), ("1-2", "right"), ("0-2", "right"), ("0-3", "right"),
               ("3-4", "right"), ("0-4", "right")]


def _three_block(rest: dict[int, str]) -> Match:
    hands = [tiles(THREE_PLAYED[s]) + tiles(rest[s]) for s in range(3)]
    return play_all(Match.new(preset("three"), "three", {"hands": hands}), THREE_MOVES)


def test_three_deal() -> None:
    """three: "3, no teams, 27 tiles (no 0-0), 9 each"; pile none."""
    m = Match.new(preset("three"), 1)
    assert [len(h) for h in m.hands] == [9, 9, 9]
    assert all(Tile(0, 0) not in h for h in m.hands)
    assert m.pile_size == 0 and not m.sleeping and len(m.scores) == 3


def test_three_double_six_then_rotate() -> None:
    """three: "first hand: holder of 6-6 opens with it; then the seat after the previous
    opener"."""
    m = Match.new(preset("three"), 1)
    assert m.legal_actions() == [Play(Tile(6, 6), None)]
    after = _three_block({0: "1-1 1-3 1-4 1-5 1-6", 1: "2-2 2-3 2-4 2-5 2-6 3-3",
                          2: "3-5 3-6 4-4 4-5 4-6 5-5"})
    assert after.turn == 1 and len(after.legal_actions()) == 9


def test_three_domino_scores_both_opponents() -> None:
    """three domino scores: "the sum of both opponents' pips"."""
    _, r, _ = find_hand("three", lambda r, m: r.kind == "domino")
    assert r.points[r.winner_seat] == sum(r.pips)  # own pips are 0
    assert sum(r.points) == r.points[r.winner_seat]


def test_three_block_sum_of_differences() -> None:
    """three block: "the player with fewest pips scores the sum of the differences between
    each opponent's pips and his own"."""
    m = _three_block({0: "1-1 1-3 1-4 1-5 1-6", 1: "2-2 2-3 2-4 2-5 2-6 3-3",
                      2: "3-5 3-6 4-4 4-5 4-6 5-5"})
    r = last_result(m)
    assert r.kind == "block" and r.pips == (24, 36, 54)
    assert r.winner_seat == 0 and r.points == ((36 - 24) + (54 - 24), 0, 0)


def test_three_block_tie_for_fewest_nobody_scores() -> None:
    """three: "Decision: tie for fewest = nobody scores"."""
    m = _three_block({0: "1-1 2-4 4-5 4-6 5-5", 1: "1-3 2-2 2-3 2-5 2-6 3-6",
                      2: "1-4 1-5 1-6 3-3 3-5 4-4"})
    r = last_result(m)
    assert r.pips[0] == r.pips[1] == min(r.pips)
    assert r.winner_side is None and r.points == (0, 0, 0)


# --------------------------------------------------------------------------- draw


def test_draw_deal_and_pile() -> None:
    """draw: "2, 7 each"; pile "14"."""
    m = Match.new(preset("draw"), 1)
    assert [len(h) for h in m.hands] == [7, 7] and m.pile_size == 14


def test_draw_highest_double_opens_every_hand() -> None:
    """draw: "every hand: holder of the highest double opens with it"."""
    import random

    m = Match.new(preset("draw"), 5)
    rng = random.Random(5)
    for _ in range(3):
        doubles = [(t, s) for s, h in enumerate(m.hands) for t in h if t.is_double]
        if doubles:
            best, holder = max(doubles)
            assert m.turn == holder and m.legal_actions() == [Play(best, None)]
        number = m.hand_number
        while m.turn is not None and m.hand_number == number:
            m = m.apply(rng.choice(m.legal_actions()))


def test_draw_heaviest_tile_when_no_double() -> None:
    """draw: "if no double is dealt, the holder of the heaviest tile (most pips, then higher
    end) opens with it"."""
    hands = [tiles("0-1 0-2 0-3 0-4 1-2 1-3 3-6"), tiles("0-5 0-6 1-4 1-5 1-6 2-3 4-5")]
    rest = [str(t) for t in tile_set(6) if str(t) not in hands[0] + hands[1]]
    m = Match.new(preset("draw"), 1, {"hands": hands, "pile": rest})
    # 3-6 and 4-5 both have 9 pips: 3-6 has the higher end
    assert m.turn == 0 and m.legal_actions() == [Play(Tile(3, 6), None)]


def test_draw_draws_until_a_tile_fits() -> None:
    """draw: "draw one at a time until a tile fits, then it may be played"."""
    hands = [tiles("6-6 0-0 0-1 0-2 1-1 1-2 2-2"), tiles("0-3 0-4 1-3 1-4 2-3 2-4 3-3")]
    rest = tiles("3-4 4-4 0-5 5-6 0-6 1-5 1-6 2-5 2-6 3-5 3-6 4-5 4-6 5-5")
    m = Match.new(preset("draw"), 1, {"hands": hands, "pile": rest})
    m = m.apply(Play(Tile(6, 6)))
    assert m.turn == 1 and m.legal_actions() == [Draw()]
    with pytest.raises(IllegalAction, match="cannot pass while you can draw"):
        m.apply(Pass())
    for _ in range(3):  # 3-4, 4-4, 0-5 do not fit 6
        m = m.apply(Draw())
        assert m.turn == 1
    m = m.apply(Draw())  # 5-6 fits
    assert m.legal_actions() == [Play(Tile(5, 6), "right")]
    with pytest.raises(IllegalAction, match="cannot draw while you can play"):
        m.apply(Draw())
    assert m.pile_size == 10 and len(m.hands[1]) == 11


def test_draw_no_drawing_at_two_or_fewer() -> None:
    """draw: "drawing is not allowed while the pile has 2 or fewer tiles: then pass"."""
    others = [str(t) for t in tile_set(6) if "6" not in str(t)]
    hands = [["6-6", "0-6", "1-6", "2-6", "3-6", *others[:2]], others[2:9]]
    pile = [*others[9:21], "4-6", "5-6"]
    m = Match.new(preset("draw"), 1, {"hands": hands, "pile": pile})
    m = m.apply(Play(Tile(6, 6)))
    for _ in range(12):
        assert m.legal_actions() == [Draw()]
        m = m.apply(Draw())
    assert m.turn == 1 and m.pile_size == 2
    assert m.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="too small"):
        m.apply(Draw())
    assert m.apply(Pass()).turn == 0


def test_draw_domino_and_block_scoring() -> None:
    """draw: domino scores "opponent's pips"; block: "lower pip count wins the difference;
    equal = nobody scores"."""
    _, r, _ = find_hand("draw", lambda r, m: r.kind == "domino")
    assert r.points[r.winner_seat] == r.pips[1 - r.winner_seat]
    _, b, _ = find_hand("draw", lambda r, m: r.kind == "block" and r.pips[0] != r.pips[1])
    low = min(range(2), key=lambda s: b.pips[s])
    assert b.winner_seat == low and b.points[low] == abs(b.pips[0] - b.pips[1])
    _, t, _ = find_hand("draw", lambda r, m: r.kind == "block" and r.pips[0] == r.pips[1], 20000)
    assert t.winner_side is None and t.points == (0, 0)


def test_draw_block_needs_small_pile() -> None:
    """A block in a draw game: "nobody can play and nobody can draw"."""
    before, _b, after = find_hand("draw", lambda r, m: r.kind == "block")
    last = after.actions[len(before.actions)]
    assert before.pile_size - (1 if last == Draw() else 0) <= 2


# --------------------------------------------------------------------------- two


def test_two_first_hand_highest_double_then_alternate() -> None:
    """two: "first hand: highest double (then heaviest tile, as draw); later hands:
    alternate"."""
    import random

    m = Match.new(preset("two"), 3)
    doubles = [(t, s) for s, h in enumerate(m.hands) for t in h if t.is_double]
    best, holder = max(doubles)
    assert m.turn == holder and m.legal_actions() == [Play(best, None)]
    rng = random.Random(1)
    openers = [m.opener]
    while m.turn is not None and m.hand_number < 4:
        number = m.hand_number
        m = m.apply(rng.choice(m.legal_actions()))
        if m.hand_number != number and m.turn is not None:
            openers.append(m.opener)
    assert all(b == 1 - a for a, b in itertools.pairwise(openers))


def test_two_draw_until_fits_pass_when_empty() -> None:
    """two: "draw until a tile fits; pass when the pile is empty"."""
    import random

    passes = 0
    for seed in range(40):
        m = Match.new(preset("two"), seed)
        rng = random.Random(seed)
        while m.turn is not None:
            legal = m.legal_actions()
            if legal == [Draw()]:
                assert m.pile_size > 0
            if legal == [Pass()]:
                assert m.pile_size == 0
                passes += 1
            m = m.apply(rng.choice(legal))
    assert passes > 0


def test_two_closer_opponent_takes_pile() -> None:
    """two: "when the line is closed, the closer's opponent takes the rest of the pile into
    his hand; then the player with fewer pips scores the difference. Decision: equal =
    nobody scores"."""
    before, r, _ = find_hand("two", lambda r, m: r.kind == "block" and m.pile_size > 0)
    closer = r.last_player
    assert closer is not None
    taker = 1 - closer
    pile_pips = sum(t.pips for t in before.pile)
    assert r.pips[taker] == sum(t.pips for t in before.hands[taker]) + pile_pips
    low = min(range(2), key=lambda s: r.pips[s])
    assert r.pips[0] != r.pips[1]
    assert r.winner_seat == low and r.points[low] == abs(r.pips[0] - r.pips[1])
    _, tie, _ = find_hand("two", lambda r, m: r.kind == "block" and r.pips[0] == r.pips[1],
                          20000)
    assert tie.points == (0, 0) and tie.winner_side is None


# --------------------------------------------------------------------------- penalty


def test_penalty_start_tile() -> None:
    """penalty: "a random non-double tile from the pile is laid as the start tile"; pile
    "14, minus the start tile"."""
    for seed in range(20):
        m = Match.new(preset("penalty"), seed)
        assert len(m.line) == 1
        start = Tile(*m.line[0])
        assert not start.is_double
        assert m.pile_size == 13
        assert all(start not in h for h in m.hands)
        assert m.public_view().events[0].kind == "start"


def test_penalty_first_mover_alternates() -> None:
    """penalty: "seat 0 moves first in hand 1, and the first mover alternates every
    hand"."""
    import random

    m = Match.new(preset("penalty"), 8)
    rng = random.Random(8)
    movers = []
    while m.turn is not None:
        if not m.events or len(m.events) == 1:
            movers.append((m.hand_number, m.opener))
        m = m.apply(rng.choice(m.legal_actions()))
    firsts = dict(movers)
    assert firsts == {1: 0, 2: 1, 3: 0, 4: 1}


def test_penalty_at_most_three_draws() -> None:
    """penalty: "passing is not allowed while a tile fits; otherwise draw until one fits,
    at most 3 tiles a turn and never below 2 tiles left in the pile; still nothing:
    pass"."""
    hands = [tiles("0-0 0-1 0-2 1-1 1-2 2-2 0-3"), tiles("4-4 4-5 5-5 4-6 5-6 6-6 3-3")]
    rest = tiles("1-3 2-3 1-4 2-4 0-4 3-4 0-5 1-5 2-5 3-5 0-6 1-6 2-6 3-6")
    m = Match.new(preset("penalty"), 1, {"hands": hands, "pile": rest, "start": "1-3"})
    assert m.ends == (1, 3) and m.turn == 0
    with pytest.raises(IllegalAction, match="cannot pass while you can play"):
        m.apply(Pass())
    m = m.apply(Play(Tile(0, 3), "right"))  # ends 1, 0
    assert m.turn == 1 and m.legal_actions() == [Draw()]
    m = m.apply(Draw()).apply(Draw())  # 2-3, 1-4: 1-4 fits
    assert any(isinstance(a, Play) for a in m.legal_actions())
    m = m.apply(Play(Tile(1, 4), "left"))  # ends 4, 0
    m = m.apply(Play(Tile(0, 2), "right"))  # seat 0: ends 4, 2
    # seat 1 holds 2-3 (fits 2); play it, then seat 0 must find a 3 or 4
    m = m.apply(Play(Tile(2, 3), "right"))  # ends 4, 3
    assert m.turn == 0 and m.legal_actions() == [Draw()]
    m = m.apply(Draw())  # 2-4 fits the 4: the drawing stops there
    assert Play(Tile(2, 4), "left") in m.legal_actions()
    with pytest.raises(IllegalAction, match="cannot draw while you can play"):
        m.apply(Draw())


def test_penalty_draw_limit_then_pass() -> None:
    """penalty: at most 3 tiles a turn; "still nothing: pass"."""
    hands = [tiles("0-0 0-1 0-2 1-1 1-2 2-2 4-4"), tiles("3-3 3-4 4-5 4-6 5-5 5-6 6-6")]
    rest = tiles("0-3 0-4 1-5 2-5 0-5 2-6 1-6 1-3 2-3 1-4 2-4 3-5 3-6 0-6")
    m = Match.new(preset("penalty"), 1, {"hands": hands, "pile": rest, "start": "0-3"})
    m = m.apply(Play(Tile(0, 0), "left"))  # ends 0, 3
    m = m.apply(Play(Tile(3, 3), "right"))  # ends 0, 3
    m = m.apply(Play(Tile(0, 1), "left"))  # ends 1, 3
    m = m.apply(Play(Tile(3, 4), "right"))  # ends 1, 4
    m = m.apply(Play(Tile(1, 1), "left"))  # seat 0: ends 1, 4
    m = m.apply(Play(Tile(4, 5), "right"))  # seat 1: ends 1, 5
    m = m.apply(Play(Tile(1, 2), "left"))  # seat 0: ends 2, 5
    m = m.apply(Play(Tile(5, 5), "right"))  # seat 1: ends 2, 5
    m = m.apply(Play(Tile(0, 2), "left"))  # seat 0: ends 0, 5
    m = m.apply(Play(Tile(5, 6), "right"))  # seat 1: ends 0, 6
    # seat 0 holds 2-2 and 4-4: draws 0-3? no: pile order 0-4 first (fits 0)
    assert m.turn == 0 and m.legal_actions() == [Draw()]
    m = m.apply(Draw())  # 0-4 fits
    m = m.apply(Play(Tile(0, 4), "left"))  # ends 4, 6
    m = m.apply(Play(Tile(4, 6), "left"))  # seat 1: ends 6, 6
    assert m.turn == 0 and m.legal_actions() == [Draw()]
    m = m.apply(Draw()).apply(Draw()).apply(Draw())  # 1-5, 2-5, 0-5: none fits 6
    assert m.turn == 0 and m.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="at most 3"):
        m.apply(Draw())
    assert m.apply(Pass()).turn == 1


def test_penalty_scoring_domino_plus_five() -> None:
    """penalty: "each player gets the pips left in his own hand; if the hand ended by
    domino, the loser gets 5 more"."""
    _, r, _ = find_hand("penalty", lambda r, m: r.kind == "domino")
    loser = 1 - r.winner_seat
    assert r.points[loser] == r.pips[loser] + 5
    assert r.points[r.winner_seat] == 0


def test_penalty_stuck_at_two_ends_the_hand() -> None:
    """penalty: "the hand also ends as soon as the pile is down to 2 and the player to move
    cannot play; penalties as for domino, without the extra 5"."""
    _before, r, _ = find_hand("penalty", lambda r, m: r.kind == "block")
    assert r.kind == "block"
    assert r.points == r.pips


def test_penalty_four_hands_fewest_wins_or_draw() -> None:
    """penalty match end: "exactly 4 hands; fewest total penalty points wins; equal =
    draw"."""
    import random

    outcomes = []
    for seed in range(60):
        m = Match.new(preset("penalty"), seed)
        rng = random.Random(seed)
        while m.turn is not None:
            m = m.apply(rng.choice(m.legal_actions()))
        assert m.hand_number == 4 and len(m.hand_results) == 4
        o = m.outcome
        assert o is not None and o.reason == "hands"
        if m.scores[0] == m.scores[1]:
            assert o.draw and o.winner_side is None
        else:
            assert o.winner_side == min(range(2), key=lambda s: m.scores[s])
        outcomes.append(o.draw)
    with pytest.raises(ValueError):
        preset("penalty", target=100)


# --------------------------------------------------------------------------- match end


def test_target_ends_the_match() -> None:
    """match end: target score (partners "option target", others as listed)."""
    expected = {"partners": 100, "spanish": 150, "venezuelan": 100, "brazilian": 50,
                "cuban": 100, "seven-seven": 150, "three": 100, "draw": 100, "two": 100}
    for pid, target in expected.items():
        assert preset(pid).target == target
    m = blocked_four(preset("venezuelan", target=50), REST_TEAM0_LOW)
    assert m.outcome is not None and m.outcome.winner_side == 0 and m.turn is None
    with pytest.raises(IllegalAction, match="over"):
        m.apply(Pass())


def test_resign_loses_the_match() -> None:
    """/domino leave: "resign: your team loses the match"."""
    m = Match.new(preset("partners"), 1).apply(Resign(2))
    assert m.outcome is not None and m.outcome.winner_side == 1
    assert m.outcome.reason == "resign" and m.turn is None
    assert Match.replay(m.ruleset, m.seed, m.actions) == m


def test_a_loss_on_time_is_no_resignation() -> None:
    """Our decision (docs/commands.md, "Correspondence tables"): at the server's N-th time-out
    in a row the side loses on time; its outcome says so (reason ``time`` and the count),
    is stored and read back, and survives a replay of the log."""
    m = Match.new(preset("partners"), 1).apply(Resign(2, 3))
    outcome = m.outcome
    assert outcome is not None and outcome.winner_side == 1 and m.turn is None
    assert outcome.reason == "time" and outcome.timeouts == 3 and outcome.resigned_seat == 2
    assert outcome.gave_up
    assert outcome.to_dict()["timeouts"] == 3
    assert encode_action(Resign(2, 3)) == "resign 2 time 3"
    assert decode_action("resign 2 time 3") == Resign(2, 3)
    assert decode_action("resign 2") == Resign(2)
    for bad in ("resign 2 time 0", "resign 2 time", "resign 2 time x", "resign 2 late 3"):
        with pytest.raises(DominoError):
            decode_action(bad)
    assert Match.replay(m.ruleset, m.seed, m.actions) == m
    resigned = Match.new(preset("partners"), 1).apply(Resign(2)).outcome
    assert resigned is not None and "timeouts" not in resigned.to_dict()


# --------------------------------------------------------------------------- helpers


def _hands_4(first: str, second: str) -> list[list[str]]:
    """Four hands: seat 0 holds ``first``, seat 1 ``second`` (``x`` suffix: alternative deal)."""
    pool = [str(t) for t in tile_set(6)]
    a = Tile.parse(first)
    b = Tile.parse(second.rstrip("x"))
    rest = [t for t in pool if Tile.parse(t) not in (a, b)]
    if second.endswith("x"):
        rest.sort(key=lambda t: (Tile.parse(t).a != 2, t))  # seat 1 gets 2s to fit both ends
    hands = [[str(a), *rest[0:6]], [str(b), *rest[6:12]], rest[12:19], rest[19:26]]
    return hands


def _fits_both() -> Match:
    """Ends 2 and 5 with seat 2 to play and holding 2-5."""
    pool = [str(t) for t in tile_set(6) if str(t) not in ("2-3", "3-5", "2-5")]
    hands = [["3-5", *pool[0:6]], ["2-3", *pool[6:12]], ["2-5", *pool[12:18]], pool[18:25]]
    m = Match.new(preset("venezuelan"), 1, {"hands": hands, "opener": 0})
    m = m.apply(Play(Tile(3, 5)))  # ends 3, 5
    m = m.apply(Play(Tile(2, 3), "left"))  # ends 2, 5
    assert m.turn == 2 and m.ends == (2, 5)
    return m
