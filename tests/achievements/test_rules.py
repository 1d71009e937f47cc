"""The rules of each achievement: hand-made hands, the engine's own capicúa, a seeded
simulation that reaches every one, and the thresholds on hand-made figures."""

from __future__ import annotations

import dataclasses
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.achievements.catalogue import ACHIEVEMENTS, CODES, PODIUM, VARIANTS
from bot.achievements.rules import (
    Moments,
    PlayMoment,
    Tally,
    block_margin,
    is_capicua,
    match_codes,
    tally_codes,
)
from bot.records.record import MatchRecord, Participant
from domino import PRESETS, HandResult, Tile, preset
from tests.achievements.sim import play_random

ANA, BEA = 101, 102


def person(side: int, seats: tuple[int, ...], result: str, pid: int = ANA) -> Participant:
    return Participant(pid, f"P{pid}", "human", side, seats, result, 1, 0, 0, 0, 0, 0)


def machine(side: int, seats: tuple[int, ...], level: str) -> Participant:
    return Participant(-5, f"computer:{level}", "computer", side, seats, "loss", 2, 0, 0, 0, 0, 0)


def record(
    variant: str,
    scores: tuple[int, ...],
    people: tuple[Participant, ...],
    *,
    reason: str = "target",
) -> MatchRecord:
    rs = preset(variant)
    return MatchRecord(
        table_id=1, guild_id=1, variant=variant, family="x", seats=rs.seats, teams=rs.teams,
        people=1, computers=1, hands=1, scores=scores, winner_side=0, draw=False, reason=reason,
        started_at=0.0, finished_at=60.0, participants=people,
    )


def result(
    number: int,
    kind: str,
    winner_seat: int | None,
    winner_side: int | None,
    points: tuple[int, ...],
    *,
    pips: tuple[int, ...] = (),
    line: tuple[tuple[int, int], ...] = (),
    ending: str | None = None,
    spinner: int | None = None,
) -> HandResult:
    return HandResult(
        number, kind, winner_seat, winner_side, points, pips, 0, winner_seat, line,  # type: ignore[arg-type]
        ending=ending or ("domino" if kind == "domino" else "block"),  # type: ignore[arg-type]
        spinner=spinner,
    )


def play(hand: int, seat: int, tile: str, end: str | None, number: int | None, *,
         points: int = 0, own: bool = True) -> PlayMoment:
    return PlayMoment(hand, seat, Tile.parse(tile), end, number, points, own)


TWO = preset("draw")
ANA_WINS = (person(0, (0,), "win"), machine(1, (1,), "hard"))


def codes(rec: MatchRecord, moments: Moments, who: Participant | None = None) -> set[str]:
    return match_codes(rec, moments, who or rec.participants[0])


# ----------------------------------------------------------------------- hand-made moments


def test_capicua_is_a_domino_with_a_tile_that_fits_either_end() -> None:
    """RULES.md: "Capicúa: going out with a tile that fits either end … Our decision: only when
    the two ends show different numbers." Ana's last tile 2-5 went on the right end (a 5)
    while the left end showed 2."""
    line = ((2, 3), (3, 5), (5, 2))
    moments = Moments(TWO, (result(1, "domino", 0, 0, (40, 0), line=line),),
                      (play(1, 0, "2-5", "right", 5),))
    rec = record("draw", (40, 0), ANA_WINS)
    assert {"capicua"} <= codes(rec, moments)
    # The same domino on a line whose other end does not show the tile's other number.
    other = Moments(TWO, (result(1, "domino", 0, 0, (40, 0), line=((4, 3), (3, 5), (5, 2))),),
                    (play(1, 0, "2-5", "right", 5),))
    assert "capicua" not in codes(rec, other)
    # Ends showing the same number: no capicúa (our decision), here with the double 5-5.
    same = Moments(TWO, (result(1, "domino", 0, 0, (40, 0), line=((5, 3), (3, 5), (5, 5))),),
                   (play(1, 0, "5-5", "right", 5),))
    assert codes(rec, same) & {"capicua"} == set()
    assert "double-domino" in codes(rec, same)


def test_a_domino_the_timer_played_or_a_computer_seat_earns_nothing() -> None:
    line = ((2, 3), (3, 5), (5, 2))
    hands = (result(1, "domino", 0, 0, (40, 0), line=line),)
    rec = record("draw", (40, 0), ANA_WINS)
    timer = Moments(TWO, hands, (play(1, 0, "2-5", "right", 5, own=False),))
    assert not codes(rec, timer) & {"capicua", "double-domino"}
    taken = Moments(TWO, hands, (play(1, 0, "2-5", "right", 5),), frozenset({0}))
    assert codes(rec, taken) == set()  # his seat was played by a computer: nothing at all
    assert codes(rec, Moments(TWO, hands, (play(1, 0, "2-5", "right", 5),)),
                 rec.participants[1]) == set()


def test_tranque_and_one_pip() -> None:
    """A blocked hand won by Ana (fewest pips); by one pip it is "by one pip" too. Team
    blocks compare the sides' totals, as the hand was scored (domino/scoring.py)."""
    rec = record("draw", (30, 0), ANA_WINS)
    won = Moments(TWO, (result(1, "block", 0, 0, (30, 0), pips=(8, 9)),), ())
    assert codes(rec, won) >= {"tranque", "one-pip"}
    wide = Moments(TWO, (result(1, "block", 0, 0, (30, 0), pips=(4, 9)),), ())
    assert "tranque" in codes(rec, wide) and "one-pip" not in codes(rec, wide)
    lost = Moments(TWO, (result(1, "block", 1, 1, (0, 30), pips=(9, 4)),), ())
    assert not codes(rec, lost) & {"tranque", "one-pip"}
    closed = Moments(TWO, (result(1, "block", 0, 0, (30, 0), pips=(8, 9), ending="closed"),), ())
    assert not codes(rec, closed) & {"tranque", "one-pip"}
    partners = preset("partners")
    team = result(1, "block", 0, 0, (21, 0), pips=(10, 2, 1, 10))
    assert block_margin(partners, team) == 1  # 11 against 12
    assert block_margin(preset("cuban"), dataclasses.replace(team, pips=(3, 2, 9, 9))) == -1


def test_twenty_five_at_the_ends_is_all_fives_only() -> None:
    fives = preset("all-fives")
    rec = record("all-fives", (100, 40), ANA_WINS)
    hands = (result(1, "domino", 0, 0, (100, 40)),)
    assert "fives-25" in codes(rec, Moments(fives, hands, (play(1, 0, "5-5", "up", 5, points=25),)))
    assert "fives-25" not in codes(
        rec, Moments(fives, hands, (play(1, 0, "5-5", "up", 5, points=20),))
    )
    assert "fives-25" not in codes(
        rec, Moments(fives, hands, (play(1, 1, "5-5", "up", 5, points=30),))
    )


def test_five_hands_in_a_row_shut_out_and_comeback() -> None:
    hands = tuple(result(i, "domino", 0, 0, (20, 0)) for i in range(1, 6))
    rec = record("draw", (100, 0), ANA_WINS)
    found = codes(rec, Moments(TWO, hands, ()))
    assert {"five-hands", "pollona"} <= found
    broken = (*hands[:2], result(3, "domino", 1, 1, (0, 5)), *hands[2:])
    rec = record("draw", (100, 5), ANA_WINS)
    assert not codes(rec, Moments(TWO, broken, ())) & {"five-hands", "pollona"}
    # Behind 0-50 (half the target of 100), then won.
    back = (result(1, "domino", 1, 1, (0, 50)), result(2, "domino", 0, 0, (100, 0)))
    rec = record("draw", (100, 50), ANA_WINS)
    assert "comeback" in codes(rec, Moments(TWO, back, ()))
    near = (result(1, "domino", 1, 1, (0, 45)), result(2, "domino", 0, 0, (100, 0)))
    assert "comeback" not in codes(rec, Moments(TWO, near, ()))
    # A shut-out by resignation is no shut-out.
    resigned = record("draw", (20, 0), ANA_WINS, reason="resign")
    assert "pollona" not in codes(resigned, Moments(TWO, hands[:1], ()))


def test_beating_a_computer_level() -> None:
    for level in ("easy", "normal", "hard", "expert"):
        rec = record("draw", (100, 0), (person(0, (0,), "win"), machine(1, (1,), level)))
        assert f"beat-{level}" in codes(rec, Moments(TWO, (), ()))
        lost = record("draw", (0, 100), (person(0, (0,), "loss"), machine(1, (1,), level)))
        assert f"beat-{level}" not in codes(lost, Moments(TWO, (), ()))
    # A computer partner is not beaten.
    partners = preset("partners")
    rec = record("partners", (100, 0), (person(0, (0,), "win"), machine(0, (2,), "expert")))
    assert "beat-expert" not in codes(rec, Moments(partners, (), ()))


# ------------------------------------------------------------------------------ thresholds


def test_thresholds_are_earned_by_the_match_that_reaches_them() -> None:
    empty = Tally(0, 0, 0, frozenset())
    assert tally_codes(empty, empty.after("win", "draw")) == {"first-win"}
    assert tally_codes(empty, empty.after("loss", "draw")) == set()
    nine = Tally(9, 0, 0, frozenset({"draw"}))
    assert tally_codes(nine, nine.after("loss", "draw")) == {"matches-10"}
    four = Tally(50, 30, 4, frozenset({"draw"}))
    assert "streak-5" in tally_codes(four, four.after("win", "draw"))
    assert "streak-5" not in tally_codes(four, four.after("draw", "draw"))
    almost = Tally(99, 30, 0, frozenset(VARIANTS) - {"penalty"})
    assert tally_codes(almost, almost.after("loss", "penalty")) == {"matches-100", "all-variants"}
    assert "all-variants" not in tally_codes(almost, almost.after("loss", "draw"))


@given(st.lists(st.tuples(st.sampled_from(["win", "loss", "draw"]), st.sampled_from(VARIANTS)),
                max_size=150))
@settings(max_examples=60, deadline=None)
def test_each_threshold_is_crossed_at_most_once_and_exactly_when_reached(
    matches: list[tuple[str, str]],
) -> None:
    tally = Tally(0, 0, 0, frozenset())
    crossed: list[str] = []
    for outcome, variant in matches:
        after = tally.after(outcome, variant)
        crossed += sorted(tally_codes(tally, after))
        tally = after
    assert crossed.count("first-win") == int(tally.wins >= 1)
    assert crossed.count("matches-100") == int(len(matches) >= 100)
    assert crossed.count("all-variants") == int(set(VARIANTS) <= tally.variants)
    runs = [len(list(g)) for k, g in itertools.groupby(o for o, _ in matches) if k == "win"]
    assert crossed.count("streak-5") == sum(1 for r in runs if r >= 5)


# ------------------------------------------------------------------- real (random) matches


@given(st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_capicua_agrees_with_the_engines_capicua_bonus(seed: int) -> None:
    """With the Latin bonuses on, the engine scores a capicúa (RULES.md) while the side is
    more than 25 points from the target: the achievement reads the same moments from the
    public move log."""
    played = play_random("partners", seed, [ANA, None, BEA, None], bonuses=True, target=200)
    moments = played.moments
    scores = [0, 0]
    for r in played.match.hand_results:
        last = moments.last_play(r.hand_number)
        assert last is not None or r.kind != "domino"
        if r.winner_side is not None and 200 - scores[r.winner_side] > 25:
            bonus = any(b.name == "capicua" for b in r.bonuses)
            assert bonus == (r.kind == "domino" and last is not None and is_capicua(r, last))
        scores = [a + b for a, b in zip(scores, r.points, strict=True)]


def test_every_achievement_is_reached_in_a_seeded_simulation() -> None:
    """Random legal play of every variant (a person and a computer of each level) reaches
    every moment; many matches of the person reach every threshold."""
    reached: set[str] = set()
    levels = itertools.cycle(("easy", "normal", "hard", "expert"))
    tally = Tally(0, 0, 0, frozenset())
    moments_codes = {a.code for a in ACHIEVEMENTS} - {
        "first-win", "matches-10", "matches-100", "streak-5", "all-variants", PODIUM
    }
    for n, (seed, variant) in enumerate(itertools.product(range(200), PRESETS)):
        rs = PRESETS[variant]
        people = [ANA if s % 2 == 0 else None for s in range(rs.seats)]
        if rs.seats == 3:
            people = [ANA, None, None]
        played = play_random(variant, seed, people, level=next(levels), table_id=n + 1)
        me = next(p for p in played.record.participants if p.kind == "human")
        reached |= match_codes(played.record, played.moments, me)
        after = tally.after(me.result, variant)
        reached |= tally_codes(tally, after)
        tally = after
        if reached >= moments_codes and tally.matches >= 100:
            break
    assert reached == set(CODES) - {PODIUM}, set(CODES) - reached  # a podium: a tournament


@given(st.integers(0, 10_000), st.sampled_from(sorted(PRESETS)))
@settings(max_examples=40, deadline=None)
def test_the_moments_are_what_the_move_log_shows(seed: int, variant: str) -> None:
    """The moments read from the action log are the move log's (``bot.tables.history``):
    the tile that ended each hand where it went, and every tile that scored at the ends."""
    from bot.tables.history import History

    rs = PRESETS[variant]
    played = play_random(variant, seed, [ANA, *[None] * (rs.seats - 1)],
                         made_by={1: "timeout"})
    history = History(rs, seed, None)
    history.extend(played.actions)
    moments = played.moments
    entries = [e for e in history.entries if e.kind == "play"]
    results = [e.result for e in history.entries if e.kind == "hand"]
    assert moments.results == tuple(results)
    for r in results:
        last = [e for e in entries if e.hand == r.hand_number][-1:]
        mine = moments.last_play(r.hand_number)
        if mine is None:  # the hand did not end on a tile (a pass, a draw: no domino)
            assert r.kind != "domino"
            continue
        (e,) = last
        assert (mine.seat, mine.tile, mine.end, mine.number, mine.own) == (
            e.seat, e.tile, e.end, e.number, not e.timed_out
        )
    scored = [(e.hand, e.seat, e.tile, e.points) for e in entries if e.points]
    assert [(p.hand, p.seat, p.tile, p.points) for p in moments.plays if p.points] == scored
