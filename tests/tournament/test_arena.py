"""The arena's rules (bot/tournaments/arena.py): Lichess's arena score with streaks, and the
pairing of whoever waits (docs/tournaments.md, Arena)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import arena
from bot.tournaments.arena import REPEAT_WAIT, Waiting, game_points, on_fire, pair, standings
from bot.tournaments.model import DRAW, LOSS, WIN, Entrant, TableResult

outcome = st.sampled_from([WIN, DRAW, LOSS])


def reference_points(games: list[int]) -> list[int]:
    """Lichess's words, applied one game at a time: "If you win two games consecutively you
    will start a double point streak... The following games will continue to be worth double
    points until you fail to win a game.\""""
    out, streak, wins = [], False, 0
    for mp in games:
        out.append(mp * 2 if streak else mp)
        if mp == WIN:
            wins += 1
            if wins >= 2:
                streak = True
        else:
            wins, streak = 0, False
    return out


def test_lichess_example_two_wins_then_a_draw_is_six() -> None:
    # Lichess: "two wins followed by a draw will be worth 6 points: 2 + 2 + (2 x 1)".
    assert game_points([WIN, WIN, DRAW]) == [2, 2, 2]
    assert sum(game_points([WIN, WIN, DRAW])) == 6


def test_a_streak_doubles_until_a_game_is_not_won() -> None:
    assert game_points([WIN, WIN, WIN, WIN, LOSS, WIN]) == [2, 2, 4, 4, 0, 2]
    assert game_points([WIN, WIN, DRAW, WIN]) == [2, 2, 2, 2]  # a draw ends the streak
    assert on_fire([WIN, WIN]) and not on_fire([WIN, WIN, DRAW]) and not on_fire([WIN])


@given(st.lists(outcome, max_size=30))
def test_streak_scoring_matches_the_rule(games: list[int]) -> None:
    points = game_points(games)
    assert points == reference_points(games)
    for i, (mp, p) in enumerate(zip(games, points, strict=True)):
        doubled = i >= 2 and games[i - 1] == WIN and games[i - 2] == WIN
        assert p == (mp * 2 if doubled else mp)
    # A loss never scores, a win scores at least a draw's worth.
    assert all(p == 0 for mp, p in zip(games, points, strict=True) if mp == LOSS)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 3)), max_size=20))
def test_standings_sum_each_entrants_games(games: list[tuple[int, int, int]]) -> None:
    people = [Entrant(i + 1, 1000.0 + 10 * i, (i + 1,)) for i in range(6)]
    results = []
    for n, (a, b, pts) in enumerate(games):
        if a == b:
            continue
        results.append(TableResult(n + 1, ((a + 1,), (b + 1,)), (pts, 3 - pts)))
    lines = standings(people, results)
    assert sorted(line.entrant for line in lines) == [1, 2, 3, 4, 5, 6]
    for line in lines:
        mine = [
            r.match_points(r.side_of(line.entrant))
            for r in results
            if line.entrant in r.entrants()
        ]
        assert list(line.sheet) == game_points(mine)
        assert line.score == sum(line.sheet)
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True)
    assert lines[0].rank == 1


def test_individual_partners_each_keep_their_own_streak() -> None:
    # Our decision: in an individual arena each person scores his side's result with his own
    # streak.
    people = [Entrant(i, 1000.0, (i,)) for i in range(1, 6)]
    results = [
        TableResult(1, ((1, 2), (3, 4)), (10, 0)),
        TableResult(2, ((1, 3), (2, 5)), (10, 0)),
        TableResult(3, ((1, 4), (3, 5)), (10, 0)),
    ]
    by = {line.entrant: line for line in standings(people, results)}
    assert by[1].sheet == (2, 2, 4) and by[1].fire
    assert by[3].sheet == (0, 2, 0)
    assert by[2].sheet == (2, 0)


# --------------------------------------------------------------------------------- pairing


def waiting_sets(size: int) -> st.SearchStrategy[list[Waiting]]:
    def build(data: list[tuple[int, int, float, int]]) -> list[Waiting]:
        out = []
        for i, (score, rating, waited, last) in enumerate(data):
            lasts = frozenset({last + 1}) if last < len(data) and last != i else frozenset()
            out.append(Waiting(i + 1, score, 1000.0 + rating, 100.0 - waited, lasts))
        return out

    return st.lists(
        st.tuples(
            st.integers(0, 12), st.integers(0, 400), st.floats(0, 60), st.integers(0, size)
        ),
        min_size=0,
        max_size=size,
    ).map(build)


@settings(max_examples=150, deadline=None)
@given(waiting_sets(60), st.sampled_from(["single", "pairs"]))
def test_pairing_seats_nobody_twice_and_no_fresh_repeat(people: list[Waiting], fmt: str) -> None:
    now = 100.0
    found = pair(fmt, people, now)  # type: ignore[arg-type]
    seated = [e for t in found.tables for side in t for e in side]
    assert len(seated) == len(set(seated)), "nobody twice at once"
    by = {w.entrant: w for w in people}
    assert set(seated) <= set(by)
    for (a,), (b,) in found.tables:
        wa, wb = by[a], by[b]
        if a in wb.last or b in wa.last:  # a repeat only after both waited for someone else
            assert now - wa.since >= REPEAT_WAIT and now - wb.since >= REPEAT_WAIT


@settings(max_examples=100, deadline=None)
@given(waiting_sets(8))
def test_pairing_is_the_most_tables_of_nearest_scores(people: list[Waiting]) -> None:
    """Against every way of pairing them (up to eight wait): as many tables as possible, and
    among those the least total squared gap of scores."""
    now = 100.0
    found = pair("single", people, now)
    by = {w.entrant: w for w in people}

    def gap(tables: list[tuple[int, int]]) -> int:
        return sum((by[a].score - by[b].score) ** 2 for a, b in tables)

    best: tuple[int, int] | None = None
    ids = [w.entrant for w in people]
    for k in range(len(ids) // 2, -1, -1):
        for chosen in itertools.combinations(ids, 2 * k):
            for tables in _matchings(list(chosen)):
                if all(arena.may_meet(by[a], by[b], now) for a, b in tables):
                    cand = (-k, gap(tables))
                    best = cand if best is None or cand < best else best
        if best is not None:
            break
    got = [(a, b) for (a,), (b,) in found.tables]
    assert best is not None
    assert (-len(got), gap(got)) == best


def _matchings(ids: list[int]) -> list[list[tuple[int, int]]]:
    if not ids:
        return [[]]
    first, rest = ids[0], ids[1:]
    out = []
    for i, other in enumerate(rest):
        for m in _matchings(rest[:i] + rest[i + 1 :]):
            out.append([(first, other), *m])
    return out


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.floats(0, 60)), max_size=24), st.randoms())
def test_individual_tables_are_four_people_with_no_fresh_repeat(
    data: list[tuple[int, float]], rnd: object
) -> None:
    now = 100.0
    ids = list(range(1, len(data) + 1))
    # Last tables of four among them: opponents and partners.
    last: dict[int, tuple[frozenset[int], int | None]] = {}
    for k in range(0, len(ids) - 3, 4):
        a, b, c, d = ids[k : k + 4]
        for me, mate, them in ((a, b, (c, d)), (b, a, (c, d)), (c, d, (a, b)), (d, c, (a, b))):
            last[me] = (frozenset(them), mate)
    people = [
        Waiting(i, s, 1000.0, now - w, *last.get(i, (frozenset(), None)))
        for i, (s, w) in zip(ids, data, strict=True)
    ]
    found = pair("individual", people, now)
    seated = [e for t in found.tables for side in t for e in side]
    assert len(seated) == len(set(seated))
    by = {w.entrant: w for w in people}
    for s0, s1 in found.tables:
        assert len(s0) == 2 and len(s1) == 2
        for x in s0:
            for y in s1:
                assert arena.may_meet(by[x], by[y], now)  # type: ignore[index]
        for side in (s0, s1):
            x, y = side
            if by[x].partner == y:  # type: ignore[index]
                assert arena.patient(by[x], now) and arena.patient(by[y], now)  # type: ignore[index]


def test_the_only_two_waiting_who_just_met_wait_for_someone_else() -> None:
    # Our decision: never the same opponent twice in a row; when only those two wait, they
    # wait REPEAT_WAIT for someone else, then meet again.
    a = Waiting(1, 4, 1000.0, 100.0, frozenset({2}))
    b = Waiting(2, 2, 1000.0, 100.0, frozenset({1}))
    first = pair("single", [a, b], 100.0)
    assert first.tables == () and first.again_at == 100.0 + REPEAT_WAIT
    c = Waiting(3, 0, 1000.0, 105.0)
    assert pair("single", [a, b, c], 105.0).tables in ((((1,), (3,)),), (((2,), (3,)),))
    assert pair("single", [a, b], 100.0 + REPEAT_WAIT).tables == (((1,), (2,)),)


def test_near_scores_meet() -> None:
    people = [Waiting(i, s, 1000.0, 0.0) for i, s in enumerate([10, 0, 9, 1, 5, 4], start=1)]
    tables = {frozenset((a, b)) for (a,), (b,) in pair("single", people, 1.0).tables}
    assert tables == {frozenset({1, 3}), frozenset({2, 4}), frozenset({5, 6})}


def test_eight_people_back_from_two_tables_sit_at_once() -> None:
    """Our decision (docs/tournaments.md, Arena: individual): when a legal seating exists it is
    found. Two tables of four just ended: each person may partner a former opponent, so two
    new tables mix them (3+157 against 35+107, 144+172 against 194+171)."""
    def back(table: tuple[int, int, int, int], scores: tuple[int, ...]) -> list[Waiting]:
        a, b, c, d = table
        seats = ((a, b, (c, d)), (b, a, (c, d)), (c, d, (a, b)), (d, c, (a, b)))
        return [
            Waiting(me, s, 1000.0, 100.0, frozenset(them), mate)
            for (me, mate, them), s in zip(seats, scores, strict=True)
        ]

    people = back((3, 144, 157, 172), (2, 2, 4, 4)) + back((35, 194, 107, 171), (4, 2, 2, 4))
    found = pair("individual", people, 100.0)
    assert len(found.tables) == 2
    by = {w.entrant: w for w in people}
    for s0, s1 in found.tables:
        assert all(arena.may_meet(by[x], by[y], 100.0) for x in s0 for y in s1)  # type: ignore[index]
        for x, y in (s0, s1):
            assert by[x].partner != y  # type: ignore[index]
