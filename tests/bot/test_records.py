"""Records, ratings and leaderboards, on each backend (a SQLite file, a PostgreSQL database)."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.records.rating import display_rating, rate
from bot.records.record import ALL, GLOBAL, computer_id, family_of
from bot.records.service import Records, VersusLevel
from bot.records.store import FORMER_PLAYERS
from bot.store import Store, migrations
from bot.tables.service import TableService
from domino import preset
from tests.bot.helpers import FakeClock
from tests.bot.test_records_support import computer, duel, hand, human, make_record

ANA, BEA, CID, DAN = 101, 102, 103, 104
GUILD, OTHER_GUILD = 1, 2


@pytest.fixture
def records(store: Store, clock: FakeClock) -> Records:
    return Records(store, clock=clock)


async def count(store: Store, table: str) -> int:
    return int(await store.db.fetchval(f"SELECT count(*) FROM {table}"))


async def dump(store: Store) -> dict[str, list[tuple[object, ...]]]:
    names = ["record_matches", "record_entries", "record_ratings", "record_stats"]
    return {
        n: sorted((tuple(r) for r in await store.db.fetchall(f"SELECT * FROM {n}")), key=repr)
        for n in names
    }


def partners_match(table_id: int = 1, *, guild_id: int | None = GUILD):
    """Ana & Cid (seats 0, 2) beat Bea & Dan: a domino by Ana, a block won by Cid."""
    return make_record(
        table_id,
        "partners",
        [human(ANA), human(BEA), human(CID), human(DAN)],
        [
            hand(1, "domino", 0, 0, [60, 0]),
            hand(2, "block", 1, 1, [0, 30]),
            hand(3, "block", 2, 0, [45, 0]),
        ],
        winner_side=0,
        guild_id=guild_id,
    )


# ------------------------------------------------------------------------------ the schema


async def test_records_migration_is_applied(store: Store) -> None:
    assert 100 in [v for v, _, _ in migrations()]
    versions = [r[0] for r in await store.db.fetchall("SELECT version FROM schema_version")]
    assert 1 in versions and 100 in versions
    for name in ("record_matches", "record_entries", "record_stats", "record_privacy"):
        assert await count(store, name) == 0


def test_families_cover_every_preset() -> None:
    from domino import PRESETS

    families = {"partnership", "two-player", "three-player", "fives"}
    assert {family_of(v) for v in PRESETS} == families
    assert family_of("all-fives", PRESETS["all-fives"]) == "fives"  # Our decision: any seats
    assert family_of("seven-seven") == "partnership" and family_of("penalty") == "two-player"
    assert len({computer_id(level) for level in ("easy", "normal", "hard", "heaviest")}) == 4
    assert all(computer_id(level) < 0 for level in ("hard", "grandmaster"))


# ----------------------------------------------------------------------------- the record


def test_record_of_a_partnership_match() -> None:
    rec = partners_match()
    assert (rec.variant, rec.family, rec.seats, rec.teams) == ("partners", "partnership", 4, True)
    assert (rec.people, rec.computers, rec.hands) == (4, 0, 3)
    assert rec.scores == (105, 30) and rec.side_ranks == (1, 2)
    assert rec.duration == 600.0
    by_id = {p.player_id: p for p in rec.participants}
    ana, bea, cid = by_id[ANA], by_id[BEA], by_id[CID]
    assert (ana.side, ana.seats, ana.result) == (0, (0,), "win")
    assert (bea.side, bea.result) == (1, "loss")
    # Hands won count for the side; a domino for the one who played his last tile.
    assert (ana.hands_won, ana.dominoes, ana.blocks_won) == (2, 1, 1)
    assert (cid.hands_won, cid.dominoes, cid.blocks_won) == (2, 0, 1)
    assert (bea.hands_won, bea.dominoes, bea.blocks_won) == (1, 0, 1)
    assert (ana.points_for, ana.points_against) == (105, 30)
    assert (bea.points_for, bea.points_against) == (30, 105)


def test_seven_seven_person_holds_a_team_and_computers_are_pseudo_players() -> None:
    rec = make_record(
        1,
        "seven-seven",
        [human(ANA), computer("hard"), human(ANA), computer("hard")],
        [hand(1, "domino", 2, 0, [150, 0])],
        winner_side=0,
    )
    assert rec.people == 1 and rec.computers == 2 and rec.seats_per_person == 2
    parts = {(p.player_id, p.side): p for p in rec.participants}
    assert parts[(ANA, 0)].seats == (0, 2) and parts[(ANA, 0)].dominoes == 1
    hard = parts[(computer_id("hard"), 1)]
    assert (hard.kind, hard.name, hard.seats, hard.result) == (
        "computer",
        "computer:hard",
        (1, 3),
        "loss",
    )


def test_penalty_points_for_are_the_opponents_penalties() -> None:
    rec = make_record(
        1,
        "penalty",
        [human(ANA), human(BEA)],
        [hand(1, "domino", 0, 0, [0, 17]), hand(2, "block", 1, 1, [9, 4])],
        winner_side=0,
        reason="hands",
    )
    ana = next(p for p in rec.participants if p.player_id == ANA)
    assert (ana.points_for, ana.points_against) == (21, 9)
    assert rec.side_ranks == (1, 2)  # fewer penalty points is better


def test_three_player_ranks_by_score_and_resignation_comes_last() -> None:
    players = [human(ANA), human(BEA), human(CID)]
    rec = make_record(1, "three", players, [hand(1, "domino", 1, 1, [10, 100, 40])], winner_side=1)
    assert rec.side_ranks == (3, 1, 2)
    resigned = make_record(
        2,
        "three",
        players,
        [hand(1, "domino", 1, 1, [10, 50, 40])],
        winner_side=1,
        reason="resign",
        resigned_seat=2,
    )
    assert resigned.side_ranks == (2, 1, 3)
    tied = make_record(3, "three", players, [hand(1, "domino", 0, 0, [100, 5, 5])], winner_side=0)
    assert tied.side_ranks == (1, 2, 2)


# ---------------------------------------------------------------------------------- ratings


def test_rating_update_for_two_teams_matches_openskill() -> None:
    model = PlackettLuce()
    new = rate(partners_match(), {}, model)
    expected = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]])
    assert new[(ANA, 0)] == pytest.approx((expected[0][0].mu, expected[0][0].sigma))
    assert new[(DAN, 1)] == pytest.approx((expected[1][1].mu, expected[1][1].sigma))
    assert new[(ANA, 0)] == new[(CID, 0)]
    assert new[(ANA, 0)][0] > 25 > new[(BEA, 1)][0]
    # An established winner gains less than a newcomer partner.
    new = rate(partners_match(), {ANA: (30.0, 2.0)}, model)
    assert new[(ANA, 0)][0] - 30.0 < new[(CID, 0)][0] - 25.0


def test_rating_update_for_three_sides() -> None:
    rec = make_record(
        1,
        "three",
        [human(ANA), human(BEA), human(CID)],
        [hand(1, "domino", 1, 1, [10, 100, 40])],
        winner_side=1,
    )
    new = rate(rec, {})
    mu = {pid: new[(pid, side)][0] for pid, side in ((ANA, 0), (BEA, 1), (CID, 2))}
    assert mu[BEA] > mu[CID] > mu[ANA]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 1, 2])
    assert mu[CID] == pytest.approx(expected[2][0].mu)


def test_drawn_match_shares_the_rank() -> None:
    rec = make_record(
        1,
        "penalty",
        [human(ANA), human(BEA)],
        [hand(1, "domino", 0, 0, [0, 12]), hand(2, "domino", 1, 1, [12, 0])],
        winner_side=None,
        draw=True,
        reason="hands",
    )
    assert rec.side_ranks == (1, 1)
    assert {p.result for p in rec.participants} == {"draw"}
    new = rate(rec, {})
    assert new[(ANA, 0)][0] == pytest.approx(25.0) == new[(BEA, 1)][0]
    assert new[(ANA, 0)][1] < 25 / 3  # but we know more about both
    # Against a stronger player a draw is a gain.
    new = rate(rec, {BEA: (35.0, 3.0)})
    assert new[(ANA, 0)][0] > 25.0 > new[(BEA, 1)][0] - 10.0


def test_computer_on_both_sides_is_left_unrated() -> None:
    rec = make_record(
        1,
        "partners",
        [human(ANA), computer("hard"), computer("hard"), computer("hard")],
        [hand(1, "domino", 0, 0, [100, 0])],
        winner_side=0,
    )
    new = rate(rec, {})
    assert new[(computer_id("hard"), 0)] is None and new[(computer_id("hard"), 1)] is None
    assert new[(ANA, 0)] is not None and new[(ANA, 0)][0] > 25


async def test_ratings_and_stats_are_stored(records: Records) -> None:
    assert await records.record_match(partners_match())
    stats = await records.stats(ANA, guild_id=GUILD)
    assert stats.ratings["partnership"].matches == 1
    assert stats.ratings["partnership"].display > 1000
    loser = await records.stats(BEA, guild_id=GUILD)
    assert loser.ratings["partnership"].display < 1000
    line = stats.overall[ALL]
    assert (line.matches, line.wins, line.losses, line.hands_won) == (1, 1, 0, 2)
    assert stats.overall["partners"].rating == stats.overall["partnership"].rating
    assert stats.server["partnership"].wins == 1


async def test_computer_players_get_a_rating(records: Records) -> None:
    for i in range(3):
        await records.record_match(
            make_record(
                i + 1,
                "draw",
                [human(ANA), computer("hard")],
                [hand(1, "domino", 1, 1, [0, 100])],
                winner_side=1,
                started_at=1000.0 + i * 1000,
            )
        )
    hard = await records.stats(computer_id("hard"))
    assert hard.kind == "computer" and hard.overall[ALL].wins == 3
    assert hard.ratings["two-player"].display > 1000
    # Our decision: the leaderboards rank people; a computer level has its figures (/domino
    # stats) but no place among them.
    for by in ("rating", "wins"):
        page = await records.leaderboard(least=1, bucket="two-player", by=by, viewer_id=ANA)
        assert [r.player_id for r in page.rows] == [ANA] and page.total == 1
        assert page.viewer_place == 1
        hard = await records.leaderboard(least=1, by=by, viewer_id=computer_id("hard"))
        assert hard.viewer_place is None


# ------------------------------------------------------------------------------ idempotence


async def test_recording_twice_changes_nothing(records: Records, store: Store) -> None:
    assert await records.record_match(partners_match())
    before = await dump(store)
    assert not await records.record_match(partners_match())
    assert await dump(store) == before
    assert await count(store, "record_matches") == 1 and await count(store, "record_entries") == 4


async def test_two_processes_recording_at_once(database_url: str, clock: FakeClock) -> None:
    """Two bot processes record the same match and other matches of the same people at once:
    each match once, every rating update kept (none computed from stale ratings)."""
    a, b = await Store.open(database_url), await Store.open(database_url)
    try:
        ra, rb = Records(a, clock=clock), Records(b, clock=clock)
        same = await asyncio.gather(
            ra.record_match(partners_match(1)), rb.record_match(partners_match(1))
        )
        assert sorted(same) == [False, True]
        others = await asyncio.gather(
            *(
                (ra if n % 2 else rb).record_match(partners_match(table_id))
                for n, table_id in enumerate(range(2, 12))
            )
        )
        assert all(others)
        rated = await ra.repo.player_ratings(ANA)
        assert rated["partnership"][2] == 11  # every one of Ana's 11 matches counted
        assert await count(a, "record_matches") == 11
    finally:
        await a.close()
        await b.close()


# ------------------------------------------------------------------------------ leaderboard


async def test_leaderboard_orders_and_pages_with_deterministic_ties(records: Records) -> None:
    # Players 1..25 beat player 900 between 1 and 7 times each: many equal win counts.
    table = 0
    wins = {k: k % 7 + 1 for k in range(1, 26)}
    for player, n in wins.items():
        for _ in range(n):
            table += 1
            await duel(records, table, player, 900, at=1000.0 + table)
    page0 = await records.leaderboard(bucket=ALL, by="wins", per_page=10, viewer_id=900)
    assert (page0.total, page0.pages, page0.page) == (26, 3, 0)
    everyone = list(page0.rows)
    for p in (1, 2):
        everyone += (await records.leaderboard(bucket=ALL, by="wins", page=p)).rows
    assert [r.place for r in everyone] == list(range(1, 27))
    ids = [r.player_id for r in everyone]
    assert ids == [*sorted(wins, key=lambda k: (-wins[k], k)), 900]  # equal wins: lower id first
    assert page0.viewer_place == 26
    assert (await records.leaderboard(by="wins", viewer_id=7)).viewer_place == ids.index(7) + 1
    # Asking past the end gives the last page.
    last = await records.leaderboard(bucket=ALL, by="wins", page=99)
    assert last.page == 2 and len(last.rows) == 6
    # By rating: best first, the loser last.
    by_rating = await records.leaderboard(least=1, bucket="two-player", by="rating", per_page=30)
    ratings = [(r.rating, r.player_id) for r in by_rating.rows]
    assert ratings == sorted(ratings, key=lambda t: (-t[0], t[1]))  # type: ignore[operator]
    assert by_rating.rows[-1].player_id == 900


async def test_equal_ratings_are_ordered_by_player_id(records: Records) -> None:
    # Four newcomers: two identical wins, two identical losses.
    await duel(records, 1, 40, 10)
    await duel(records, 2, 20, 30, at=5000.0)
    page = await records.leaderboard(least=1, bucket="two-player", by="rating", viewer_id=30)
    assert [r.player_id for r in page.rows] == [20, 40, 10, 30]
    assert page.rows[0].rating == page.rows[1].rating > 1000 > page.rows[2].rating
    assert page.rows[2].rating == page.rows[3].rating
    assert page.viewer_place == 4


async def test_rating_over_all_variants_ranks_the_default_family(records: Records) -> None:
    await records.record_match(partners_match())
    page = await records.leaderboard(least=1, by="rating")
    assert page.bucket == "partnership" and page.total == 4
    assert {r.player_id for r in page.rows[:2]} == {ANA, CID}
    with pytest.raises(ValueError):
        await records.leaderboard(least=1, bucket="chess")


async def test_variant_leaderboard_lists_only_that_variant(records: Records) -> None:
    await duel(records, 1, ANA, BEA, variant="draw")
    await duel(records, 2, CID, DAN, variant="two")
    page = await records.leaderboard(bucket="two", by="wins")
    assert [r.player_id for r in page.rows] == [CID, DAN]
    family = await records.leaderboard(bucket="two-player", by="wins")
    assert family.total == 4


# ---------------------------------------------------------------------------------- privacy


async def test_global_opt_out_keeps_server_leaderboards(records: Records) -> None:
    await duel(records, 1, ANA, BEA, guild_id=GUILD)
    await records.set_privacy(ANA, GLOBAL, True)
    glob = await records.leaderboard(scope=GLOBAL, by="wins", viewer_id=ANA)
    assert [r.player_id for r in glob.rows] == [BEA] and glob.viewer_place is None
    server = await records.leaderboard(scope=GUILD, by="wins")
    assert [r.player_id for r in server.rows] == [ANA, BEA]
    # Matches recorded after the choice stay hidden too.
    await duel(records, 2, ANA, CID, guild_id=OTHER_GUILD, at=5000.0)
    glob = await records.leaderboard(scope=GLOBAL, by="wins")
    assert ANA not in [r.player_id for r in glob.rows]
    assert ANA in [
        r.player_id for r in (await records.leaderboard(scope=OTHER_GUILD, by="wins")).rows
    ]
    assert await records.hidden_scopes(ANA) == {GLOBAL}
    # Back again.
    await records.set_privacy(ANA, GLOBAL, False)
    glob = await records.leaderboard(scope=GLOBAL, by="wins")
    assert glob.rows[0].player_id == ANA and glob.rows[0].wins == 2


async def test_server_opt_out_is_separate(records: Records) -> None:
    await duel(records, 1, ANA, BEA, guild_id=GUILD)
    await duel(records, 2, ANA, BEA, guild_id=OTHER_GUILD, at=3000.0)
    await records.set_privacy(ANA, GUILD, True)
    assert ANA not in [
        r.player_id for r in (await records.leaderboard(scope=GUILD, by="wins")).rows
    ]
    assert ANA in [
        r.player_id for r in (await records.leaderboard(scope=OTHER_GUILD, by="wins")).rows
    ]
    assert ANA in [r.player_id for r in (await records.leaderboard(scope=GLOBAL, by="wins")).rows]
    # Someone else asking for his figures sees only the scopes he did not leave.
    seen = await records.stats(ANA, guild_id=GUILD, viewer_id=BEA)
    assert seen.server == {} and seen.overall[ALL].wins == 2
    mine = await records.stats(ANA, guild_id=GUILD, viewer_id=ANA)
    assert mine.server[ALL].wins == 1
    await records.set_privacy(ANA, GLOBAL, True)
    assert (await records.stats(ANA, guild_id=GUILD, viewer_id=BEA)).empty


# ------------------------------------------------------------------------------------ stats


async def test_stats_figures_and_streaks(records: Records, clock: FakeClock) -> None:
    results = [True, True, False, True, True, True, False, True]
    for i, ana_wins in enumerate(results):
        winner, loser = (ANA, BEA) if ana_wins else (BEA, ANA)
        await duel(
            records, i + 1, winner, loser, guild_id=GUILD if i < 5 else None, at=1000.0 * (i + 1)
        )
    stats = await records.stats(ANA, guild_id=GUILD)
    line = stats.overall[ALL]
    assert (line.matches, line.wins, line.losses, line.draws) == (8, 6, 2, 0)
    assert (line.streak, line.best_streak) == (1, 3)
    assert (line.points_for, line.points_against) == (600, 200)
    assert (line.hands_won, line.dominoes, line.blocks_won) == (6, 6, 0)
    server = stats.server[ALL]
    assert (server.matches, server.wins, server.best_streak, server.streak) == (5, 4, 2, 2)
    assert set(stats.overall) == {ALL, "two-player", "draw"}
    series = stats.series["two-player"]
    assert len(series) == 8 and [t for t, _ in series] == sorted(t for t, _ in series)
    assert series[-1][1] == stats.ratings["two-player"].display
    assert display_rating(25.0, 25 / 3) == 1000


async def test_history_lists_recent_matches(records: Records) -> None:
    await records.record_match(partners_match(1))
    await duel(records, 2, BEA, ANA, guild_id=OTHER_GUILD, at=9000.0)
    items = await records.history(ANA)
    assert [i.table_id for i in items] == [2, 1]
    latest, first = items
    assert latest.result == "loss" and latest.opponents == (("P102", "human"),)
    assert latest.rating_change is not None and latest.rating_change < 0
    assert first.variant == "partners" and first.result == "win"
    assert first.partners == (("P103", "human"),)
    assert {n for n, _ in first.opponents} == {"P102", "P104"}
    assert first.scores == (105, 30) and first.hands == 3
    assert [i.table_id for i in await records.history(ANA, guild_id=GUILD)] == [1]
    assert [i.table_id for i in await records.history(ANA, limit=1, offset=1)] == [1]


# ------------------------------------------------------------------- through the table service


async def play_out(service: TableService, clock: FakeClock, table_id: int) -> None:
    t = await service.get(table_id)
    while t.status == "running":
        clock.advance(10)
        await service.tick()
        t = await service.get(table_id)
    await service.idle()


async def test_finished_matches_are_recorded_by_the_observer(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    records = Records(store, clock=clock)
    service.add_observer(records)
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="draw", options={"target": 50}, guild_id=GUILD
    )
    await service.add_computer(t.id, ANA, level="easy")
    t = await service.start(t.id, ANA)
    # Ana lets the timer play for her.
    await play_out(service, clock, t.id)
    assert await count(store, "record_matches") == 1
    stats = await records.stats(ANA, guild_id=GUILD)
    assert stats.overall[ALL].matches == 1
    easy = await records.stats(computer_id("easy"))
    assert easy.overall[ALL].matches == 1
    assert stats.overall[ALL].wins + easy.overall[ALL].wins == 1
    history = await records.history(ANA)
    assert history[0].variant == "draw" and history[0].opponents[0][1] == "computer"
    # The observer was called once; asking again records nothing more.
    assert not await records.record(t.id)


async def test_a_practice_match_is_kept_but_not_rated(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    """Our decision: practice (with the expert's hints at hand) is in the history, but changes
    no rating and no figure."""
    from bot.tables.practice import mark

    records = Records(store, clock=clock)
    service.add_observer(records)
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="draw", options={"target": 50}, guild_id=GUILD
    )
    await mark(service, t.id)
    await service.add_computer(t.id, ANA, level="easy")
    t = await service.start(t.id, ANA)
    await play_out(service, clock, t.id)
    assert await count(store, "record_matches") == 1
    stats = await records.stats(ANA, guild_id=GUILD)
    assert not stats.ratings and ALL not in stats.overall
    assert ALL not in (await records.stats(computer_id("easy"))).overall
    (item,) = await records.history(ANA)
    assert item.variant == "draw" and item.rating_change is None


async def test_catch_up_records_what_finished_unobserved(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    t = await service.create_table(
        host_id=ANA, host_name="Ana", variant="draw", options={"target": 50}
    )
    t = await service.start(t.id, ANA, fill_with_computers=True)
    await play_out(service, clock, t.id)
    cancelled = await service.create_table(host_id=BEA, host_name="Bea", variant="draw")
    await service.cancel(cancelled.id, BEA)
    records = Records(store, clock=clock)
    assert await count(store, "record_matches") == 0
    assert await records.catch_up() == 1
    assert await records.catch_up() == 0
    assert await count(store, "record_matches") == 1


@given(st.text(min_size=1, max_size=30))
def test_every_computer_level_has_an_id_between_forgotten_people_and_people(level: str) -> None:
    """Every level's id, fixed or made from its name, stays apart from people (above 0) and
    from the aliases of forgotten people (below ``FORMER_PLAYERS``)."""
    assert FORMER_PLAYERS < computer_id(level) < 0


# ---------------------------------------------------------------- results against computers


async def test_results_against_each_computer_level(records: Records) -> None:
    """Our decision: a match counts once against each computer level among the opponents;
    a computer partner does not count; the person's result is what counts (a draw apart)."""
    tid = iter(range(1, 100))

    async def duel_with(level: str, result: str, guild: int = GUILD) -> None:
        won = result == "win"
        await records.record_match(
            make_record(
                next(tid),
                "draw",
                [human(ANA), computer(level)],
                [
                    hand(1, "block", None, None, [0, 0])
                    if result == "draw"
                    else hand(
                        1, "domino", 0 if won else 1, 0 if won else 1, [100, 0] if won else [0, 100]
                    )
                ],
                winner_side=None if result == "draw" else (0 if won else 1),
                draw=result == "draw",
                guild_id=guild,
            )
        )

    for level, result in [("easy", "win"), ("easy", "loss"), ("hard", "loss"), ("expert", "draw")]:
        await duel_with(level, result)
    await duel_with("hard", "win", guild=OTHER_GUILD)
    # Three players: Ana beats an easy and a hard computer at once (one match for each level),
    # and two computers of one level on two sides count once.
    await records.record_match(
        make_record(
            next(tid),
            "three",
            [human(ANA), computer("easy"), computer("hard")],
            [hand(1, "domino", 0, 0, [100, 0, 0])],
            winner_side=0,
        )
    )
    await records.record_match(
        make_record(
            next(tid),
            "three",
            [human(ANA), computer("normal"), computer("normal")],
            [hand(1, "domino", 1, 1, [0, 100, 0])],
            winner_side=1,
        )
    )
    # A normal computer as Ana's partner against two people: not a match against computers.
    await records.record_match(
        make_record(
            next(tid),
            "partners",
            [human(ANA), human(BEA), computer("normal"), human(CID)],
            [hand(1, "domino", 0, 0, [100, 0])],
            winner_side=0,
        )
    )

    def table(found: tuple[VersusLevel, ...]) -> list[tuple[str, int, int, int]]:
        return [(v.level, v.wins, v.losses, v.draws) for v in found]

    everywhere = [("easy", 2, 1, 0), ("normal", 0, 1, 0), ("hard", 2, 1, 0), ("expert", 0, 0, 1)]
    stats = await records.stats(ANA, guild_id=GUILD)
    assert table(stats.versus) == everywhere
    assert table(stats.versus_server) == [*everywhere[:2], ("hard", 1, 1, 0), everywhere[3]]
    # Bea lost to Ana and her computer partner: a loss against a normal computer.
    assert table((await records.against_computers(BEA))[GLOBAL]) == [("normal", 0, 1, 0)]
    assert await records.against_computers(DAN) == {}
    # A computer's own figures carry no such lines.
    assert (await records.stats(computer_id("hard"))).versus == ()

    # The migration that made these lines counts the matches recorded before it alike.
    before = {
        p: await records.against_computers(p, [GLOBAL, GUILD, OTHER_GUILD]) for p in (ANA, BEA)
    }
    await rerun_versus_migration(records.store)
    after = {
        p: await records.against_computers(p, [GLOBAL, GUILD, OTHER_GUILD]) for p in (ANA, BEA)
    }
    assert after == before


async def rerun_versus_migration(store: Store) -> None:
    """Forget the results against computers, as before they were kept, and count them again
    from the recorded matches."""
    (sql,) = [s for v, _, s in migrations(store.dialect) if v == 170]
    async with store.transaction() as tx:
        await tx.db.execute("DROP TABLE record_versus")
        await tx.db.run_script(sql)


async def test_expert_matches_recorded_under_the_old_id_move_to_the_fixed_one(
    store: Store, records: Records
) -> None:
    """Matches an expert computer played before it had a fixed id still count."""
    old = -327208234
    assert computer_id("expert") == -5 and zlib.crc32(b"expert") % 1_000_000_000 + 1000 == -old
    record = make_record(
        1,
        "draw",
        [human(ANA), computer("expert")],
        [hand(1, "domino", 1, 1, [0, 100])],
        winner_side=1,
    )
    moved = tuple(
        dataclasses.replace(p, player_id=old) if p.kind == "computer" else p
        for p in record.participants
    )
    await records.record_match(dataclasses.replace(record, participants=moved))
    assert (await records.stats(old)).overall["all"].wins == 1
    (sql,) = [s for v, _, s in migrations(store.dialect) if v == 160]
    async with store.transaction() as tx:
        await tx.db.run_script(sql)
    await rerun_versus_migration(store)  # 0170 runs after 0160
    assert (await records.stats(old)).empty
    expert = await records.stats(-5)
    assert expert.overall["all"].wins == 1 and expert.name == "computer:expert"
    assert "two-player" in expert.ratings
    assert [(v.level, v.losses) for v in (await records.stats(ANA)).versus] == [("expert", 1)]


async def test_results_against_computers_follow_the_leaderboards_a_person_is_on(
    records: Records,
) -> None:
    """Someone else sees them only for the scopes whose leaderboards the person did not leave."""
    for table, guild in ((1, GUILD), (2, OTHER_GUILD)):
        await records.record_match(
            make_record(
                table,
                "draw",
                [human(ANA), computer("easy")],
                [hand(1, "domino", 0, 0, [100, 0])],
                winner_side=0,
                guild_id=guild,
            )
        )
    await records.set_privacy(ANA, GLOBAL, True)
    seen = await records.stats(ANA, guild_id=GUILD, viewer_id=BEA)
    assert seen.versus == () and [(v.level, v.wins) for v in seen.versus_server] == [("easy", 1)]
    own = await records.stats(ANA, guild_id=GUILD, viewer_id=ANA)
    assert [(v.level, v.wins) for v in own.versus] == [("easy", 2)]


_LEVELS = ("easy", "normal", "hard", "expert")
_SEATS = {"draw": 2, "three": 3, "partners": 4}
_people = itertools.count(10_000)
_tables = itertools.count(10_000)


@st.composite
def _matches(draw: st.DrawFn) -> list[tuple[str, list[str | None], int | None]]:
    """Matches of one person (seat 0): the variant, each other seat's computer level (None: a
    person), and the winning side (None: drawn)."""
    found = []
    for _ in range(draw(st.integers(1, 5))):
        variant = draw(st.sampled_from(sorted(_SEATS)))
        others = [draw(st.sampled_from((None, *_LEVELS))) for _ in range(_SEATS[variant] - 1)]
        sides = preset(variant).sides
        found.append((variant, others, draw(st.sampled_from((None, *range(sides))))))
    return found


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_matches())
async def test_results_against_computers_count_each_level_among_the_opponents_once(
    records: Records, matches: list[tuple[str, list[str | None], int | None]]
) -> None:
    """Our decision, checked on random matches against a count made seat by seat."""
    person = next(_people)
    expected: dict[str, list[int]] = {}
    for variant, others, winner in matches:
        rs = preset(variant)
        seats = [human(person)] + [
            computer(level) if level else human(next(_people)) for level in others
        ]
        points = [0] * rs.sides
        if winner is not None:
            points[winner] = 100
        record = make_record(
            next(_tables),
            variant,
            seats,
            [hand(1, "domino" if winner is not None else "block", None, winner, points)],
            winner_side=winner,
            draw=winner is None,
        )
        await records.record_match(record)
        (mine,) = [p for p in record.participants if p.player_id == person]
        against = {level for seat, level in enumerate(others, 1) if level and rs.side_of(seat) != 0}
        for level in against:
            tally = expected.setdefault(level, [0, 0, 0])
            tally[("win", "loss", "draw").index(mine.result)] += 1
    found = (await records.against_computers(person)).get(GLOBAL, ())
    assert {v.level: [v.wins, v.losses, v.draws] for v in found} == expected
    assert [v.level for v in found] == [level for level in _LEVELS if level in expected]
