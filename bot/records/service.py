"""The records service: records finished matches and answers leaderboard, stats, history and
privacy queries.

:class:`Records` is a :class:`~bot.tables.service.TableObserver`: when the table service reports a
finished match, the match is read back from the store and recorded in one transaction —
the match, one entry per participant, openskill ratings per variant family (all-time, and the
season's: :mod:`bot.records.seasons_service`) and the summary
lines (per scope: everything and each server; per bucket: all variants, the family, the
variant) that leaderboards and ``/domino stats`` read. Recording is idempotent, and
:meth:`Records.catch_up` records whatever finished while no observer was listening. A computer
level that plays on more than one side of one match is recorded in the match but its rating
and figures are left alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from bot.achievements.rules import Moments, moments_of
from bot.achievements.service import award_match
from bot.records.board_sql import board_minimum
from bot.records.inactivity import Inactivity
from bot.records.periods import period_lines
from bot.records.periods_store import PeriodRepo
from bot.records.rating import display_ordinal, display_rating, ordinal, rate
from bot.records.record import (
    ALL,
    BUCKETS,
    DEFAULT_FAMILY,
    GLOBAL,
    SLOW_FAMILIES,
    MatchRecord,
    Participant,
    build_record,
    computer_level,
)
from bot.records.seasons import SeasonCalendar
from bot.records.seasons_service import family_of_bucket, record_season
from bot.records.seasons_store import SeasonRepo
from bot.records.store import (
    FORMER_PLAYERS,
    EntryRow,
    ForgetRepo,
    RecordsRepo,
    StatRow,
    StatsDelta,
)
from bot.store import Store
from bot.store.places import PlacesRepo
from bot.store.table_extras import DailyVeil, PracticeRepo, Readable
from bot.tables.service import TableInfo, TableObserver
from domino import Outcome, Ruleset
from domino.ai import ALL_LEVELS

__all__ = [
    "DEPARTED_GRACE",
    "LEADERBOARD_ORDERS",
    "HistoryItem",
    "LeaderRow",
    "LeaderboardPage",
    "NameSource",
    "PlayerStats",
    "Rating",
    "Records",
    "VersusLevel",
]

log = logging.getLogger(__name__)

LEADERBOARD_ORDERS = ("rating", "wins")
PER_PAGE = 10
SERIES_LIMIT = 200
DEPARTED_GRACE = 7 * 24 * 3600.0  # a server's data outlives the bot's removal this long

NameSource = Callable[[Sequence[int]], Awaitable[Mapping[int, str]]]
"""Public names (never a server nickname) of user ids; ids it cannot name are left out."""


# ---------------------------------------------------------------------------- read models


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one family."""

    family: str
    mu: float
    sigma: float
    matches: int

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard page."""

    place: int
    player_id: int
    name: str
    kind: str
    rating: int | None  # display rating (rating leaderboards)
    matches: int
    wins: int
    losses: int
    draws: int
    best_streak: int
    provisional: bool = False  # a rating still uncertain (board_sql.PROVISIONAL_SIGMA)
    left: bool = False  # the person left the global boards or the board's scope's


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a leaderboard and where it sits."""

    scope: int
    bucket: str
    by: str
    page: int  # 0-based, clamped to the pages there are
    pages: int  # at least 1
    total: int
    rows: tuple[LeaderRow, ...]
    viewer_place: int | None = None
    least: int = 1  # the fewest matches of a listed person (a rating board's minimum)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures: everything and one server, per bucket, and his ratings."""

    player_id: int
    name: str
    kind: str
    overall: dict[str, StatRow] = field(default_factory=dict)  # bucket -> line (scope global)
    server: dict[str, StatRow] = field(default_factory=dict)  # bucket -> line (one guild)
    ratings: dict[str, Rating] = field(default_factory=dict)  # family -> rating
    series: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # family -> (t, r)
    hidden: frozenset[int] = frozenset()  # the scopes whose leaderboards the player left
    versus: tuple[VersusLevel, ...] = ()  # against each computer level, everywhere
    versus_server: tuple[VersusLevel, ...] = ()  # the same, on the one server

    @property
    def empty(self) -> bool:
        return not self.overall and not self.server


@dataclass(frozen=True, slots=True)
class VersusLevel:
    """A person's results in the matches where one computer level was among his opponents."""

    level: str
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One recorded match as seen by one of its participants."""

    table_id: int
    guild_id: int | None
    variant: str
    finished_at: float
    duration: float
    hands: int
    reason: str
    result: str
    rank: int
    side: int
    scores: tuple[int, ...]
    points_for: int
    points_against: int
    partners: tuple[tuple[str, str], ...]  # (name, kind)
    opponents: tuple[tuple[str, str], ...]
    rating_change: int | None  # display points won or lost (None: unrated)
    #: The servers that showed the match (a table across servers: its places' servers; else
    #: its own server alone).
    shown_in: tuple[int, ...] = ()


def versus_levels(tallies: Mapping[str, Sequence[int]]) -> tuple[VersusLevel, ...]:
    """Wins, losses and draws per computer level (``tallies``), weakest level first."""
    order = {level: i for i, level in enumerate(ALL_LEVELS)}
    return tuple(
        VersusLevel(level, *t)
        for level, t in sorted(tallies.items(), key=lambda kv: (order.get(kv[0], 99), kv[0]))
    )


# ------------------------------------------------------------------------------- the service


class Records(TableObserver):
    """Records finished matches and answers leaderboard, stats, history and privacy queries."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        model: PlackettLuce | None = None,
        names: NameSource | None = None,
        seasons: SeasonCalendar | None = None,
    ) -> None:
        self.store = store
        self.seasons = seasons or SeasonCalendar()
        self.clock = clock
        self.model = model or PlackettLuce()
        self.names = names

    @property
    def repo(self) -> RecordsRepo:
        """The records repository on the store's own connection (each call alone)."""
        return RecordsRepo(self.store.db)

    # -- recording ---------------------------------------------------------------------------

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        await self.record(table.id)

    async def record(self, table_id: int) -> bool:
        """Record the finished match of ``table_id``; False if recorded already or not finished."""
        table = await self.store.tables.get(table_id)
        match = await self.store.matches.get(table_id)
        if table is None or match is None or match.outcome is None or match.finished_at is None:
            return False
        seats = await self.store.seats.list(table_id)
        hands = await self.store.hand_results.list(table_id)
        names = await self._public_names([s.user_id for s in seats if s.user_id is not None])
        practice = bool(await PracticeRepo(self.store.db).among([table_id]))
        record = build_record(table, seats, match, hands, names)
        moments = None
        if not practice:
            try:
                actions = await self.store.actions.list(table_id)
                moments = await asyncio.to_thread(  # a replay: off the event loop
                    moments_of, Ruleset.from_dict(match.ruleset), match.seed, match.deal, actions
                )
            except Exception:  # its moments wait for the back-fill; the record goes in
                log.exception("table %s: the match's moments could not be read", table_id)
        return await self.record_match(record, rated=not practice, moments=moments)

    async def _public_names(self, user_ids: Sequence[int]) -> dict[int, str] | None:
        """Public names of people (from the name source, else as last recorded)."""
        if self.names is None:
            return None
        wanted = sorted({u for u in user_ids if u > 0})  # a former player has no name
        try:
            found = dict(await self.names(wanted))
        except Exception:
            log.exception("the players' public names could not be read")
            found = {}
        for uid in wanted:
            if not found.get(uid):
                known = await self.repo.player_name(uid)
                found[uid] = known[0] if known is not None else ""
        return found

    async def record_match(
        self, record: MatchRecord, *, rated: bool = True, moments: Moments | None = None
    ) -> bool:
        """Write ``record`` in one transaction; False (and nothing changed) if already there.

        ``rated=False`` (a practice match, played with the expert's hints at hand): kept in the
        history, but nobody's rating or figures change. A rated match's achievements are
        awarded in the same transaction (its moments read from ``moments``)."""
        now = self.clock()
        async with self.store.transaction() as tx:
            repo = RecordsRepo(tx.db)
            await repo.lock()
            if await repo.is_recorded(record.table_id):
                return False
            record = _without_forgotten(record, await ForgetRepo(tx.db).aliases(record.table_id))
            pids = [p.player_id for p in record.participants]
            priors = await repo.ratings(pids, record.family)
            idle = Inactivity(self.store, start_sigma=self.model.rating().sigma)
            priors = await idle.priors(tx.db, priors, record.family, now)
            updates = (
                rate(record, priors, self.model)
                if rated
                else {(p.player_id, p.side): None for p in record.participants}
            )
            hidden = await repo.hidden_scopes(
                p.player_id for p in record.participants if p.kind == "human"
            )
            await repo.add_match(record, now=now)
            rated_ids = {pid for (pid, _), new in updates.items() if new is not None}
            await record_season(
                tx.db, self.seasons, record, priors, rated_ids, self.model, now=now
            )
            # (a table across servers counts on the board of each server that shows it)
            shown_in = await PlacesRepo(tx.db).guilds(record.table_id)
            servers = sorted({*shown_in, *([] if record.guild_id is None else [record.guild_id])})
            scopes = [GLOBAL, *servers]
            buckets: tuple[tuple[str, str | None], ...] = (
                (ALL, None),
                (record.family, record.family),
                (record.variant, record.family),
            )
            if record.family in SLOW_FAMILIES:  # a variant's boards are those of live matches
                buckets = buckets[:2]
            default = self.model.rating()
            for p in record.participants:
                before = priors.get(p.player_id, (default.mu, default.sigma))
                after = updates[(p.player_id, p.side)]
                await repo.add_entry(_entry(record, p, before, after))
                if is_former(p):  # only his place in the match stays: no name, no figures
                    continue
                await repo.put_player(p.player_id, p.name, p.kind, now=now)
                if after is None:
                    continue
                await repo.put_rating(p.player_id, record.family, *after, now=now)
                delta = StatsDelta(
                    win=p.result == "win",
                    loss=p.result == "loss",
                    draw=p.result == "draw",
                    hands_won=p.hands_won,
                    dominoes=p.dominoes,
                    blocks_won=p.blocks_won,
                    points_for=p.points_for,
                    points_against=p.points_against,
                )
                left = hidden.get(p.player_id, set())
                lines = [(s, b, f, s in left) for s in scopes for b, f in buckets]
                await repo.add_stats(p.player_id, lines, delta, at=record.finished_at)
                if p.kind == "human":
                    await PeriodRepo(tx.db).add(
                        p.player_id,
                        period_lines(record.finished_at, scopes, [b for b, _ in buckets]),
                        result=p.result,
                        points_for=p.points_for,
                        points_against=p.points_against,
                        at=record.finished_at,
                    )
                    await repo.add_versus(
                        p.player_id, scopes, _computers_against(record, p), p.result
                    )
                await repo.set_stat_ratings(p.player_id, record.family, ordinal(*after))
            if rated:
                await award_match(tx.db, record, moments)
        return True

    async def catch_up(self, batch: int = 500) -> int:
        """Record every finished match not recorded yet (after a crash); returns how many."""
        done = 0
        while True:
            ids = await self.repo.unrecorded_finished(batch)
            if not ids:
                return done
            progressed = False
            for table_id in ids:
                try:
                    if await self.record(table_id):
                        done += 1
                        progressed = True
                except Exception:
                    log.exception("table %s: the finished match could not be recorded", table_id)
            if not progressed:
                return done

    # -- privacy -----------------------------------------------------------------------------

    async def set_privacy(self, user_id: int, scope: int, hidden: bool) -> None:
        """Leave (``hidden``) or rejoin the leaderboards of ``scope`` (0: global, else a guild)."""
        async with self.store.transaction() as tx:
            repo = RecordsRepo(tx.db)
            await repo.lock()
            await repo.set_hidden(user_id, scope, hidden, now=self.clock())

    async def hidden_scopes(self, user_id: int) -> set[int]:
        """The scopes whose leaderboards ``user_id`` left."""
        return (await self.repo.hidden_scopes([user_id])).get(user_id, set())

    async def rename(self, user_id: int, name: str) -> None:
        """A person's public name changed (or was first seen since start): keep the latest."""
        await self.repo.rename(user_id, name, now=self.clock())

    # -- servers the bot left ------------------------------------------------------------

    async def guild_left(self, guild_id: int) -> None:
        """The bot was removed from a server: its data goes after the grace period."""
        await self.repo.guild_left(guild_id, now=self.clock())

    async def guild_back(self, guild_id: int) -> None:
        """The bot is on the server (again): keep its data."""
        await self.repo.guild_back(guild_id)

    async def known_guilds(self) -> set[int]:
        """Every server some per-server data belongs to."""
        return await self.repo.known_guilds()

    async def sweep_departed(self, grace: float = DEPARTED_GRACE) -> list[int]:
        """Drop the data of servers the bot left more than ``grace`` seconds ago."""
        dropped = await self.repo.departed_before(self.clock() - grace)
        for guild_id in dropped:
            async with self.store.transaction() as tx:
                records = RecordsRepo(tx.db)
                await records.lock()
                await records.drop_guild(guild_id)
                await PeriodRepo(tx.db).drop_guild(guild_id)
                await SeasonRepo(tx.db).drop_guild(guild_id)
        if dropped:
            log.info("dropped the data of %d server(s) the bot left", len(dropped))
        return dropped

    # -- reading -----------------------------------------------------------------------------

    async def leaderboard(
        self,
        *,
        scope: int = GLOBAL,
        bucket: str = ALL,
        by: str = "rating",
        page: int = 0,
        per_page: int = PER_PAGE,
        viewer_id: int | None = None,
        least: int | None = None,
    ) -> LeaderboardPage:
        """A page of a leaderboard. Ranking by rating over 'all' ranks the default family, and
        lists people of at least ``least`` matches there (None: the scope's minimum, see
        :func:`~bot.records.board_sql.board_minimum`), their provisional ratings marked."""
        if by not in LEADERBOARD_ORDERS:
            raise ValueError(f"by must be one of {LEADERBOARD_ORDERS}")
        if bucket not in BUCKETS:
            raise ValueError(f"unknown variant or family {bucket!r}")
        if by == "rating" and bucket == ALL:
            bucket = DEFAULT_FAMILY
        repo = self.repo
        if least is None:
            least = await board_minimum(self.store.db, scope) if by == "rating" else 1
        total = await repo.leaderboard_size(scope, bucket, by, least)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(page, 0), pages - 1)
        rows = await repo.leaderboard(
            scope, bucket, by, limit=per_page, offset=page * per_page, least=least,
            family=family_of_bucket(bucket) if by == "rating" else None,
        )
        place = None
        if viewer_id is not None:
            place = await repo.position(scope, bucket, by, viewer_id, least)
        first = page * per_page + 1
        lines = tuple(  # (the fields in order: a board's page makes 25 at each rendering)
            LeaderRow(
                first + i, player_id, name, kind,
                None if rating is None else display_ordinal(rating),
                matches, wins, losses, draws, best_streak, bool(provisional), bool(left),
            )
            for i, (
                player_id, name, kind, rating, matches, wins, losses, draws, best_streak, left,
                provisional,
            ) in enumerate(rows)
        )
        return LeaderboardPage(scope, bucket, by, page, pages, total, lines, place, least)

    async def stats(
        self,
        player_id: int,
        *,
        guild_id: int | None = None,
        viewer_id: int | None = None,
        series: bool = True,
    ) -> PlayerStats:
        """A player's figures overall and on ``guild_id``.

        Someone else (``viewer_id`` ≠ ``player_id``) sees only the scopes the player did not
        leave, and his ratings (global by nature: one per family, over every server, with their
        curves) only if he did not leave the global leaderboards.
        """
        repo = self.repo
        hidden = await self.hidden_scopes(player_id)
        left = hidden if viewer_id is not None and viewer_id != player_id else set()
        scopes = [GLOBAL] if guild_id is None else [GLOBAL, guild_id]
        scopes = [s for s in scopes if s not in left]
        lines = await repo.player_stats(player_id, scopes, BUCKETS)
        known = await repo.player_name(player_id)
        name, kind = known if known is not None else ("", "human")
        overall = {r.bucket: r for r in lines if r.scope == GLOBAL}
        server = {r.bucket: r for r in lines if r.scope != GLOBAL}
        ratings: dict[str, Rating] = {}
        curves: dict[str, list[tuple[float, float]]] = {}
        if lines and GLOBAL not in left:
            for family, (mu, sigma, n) in (await repo.player_ratings(player_id)).items():
                ratings[family] = Rating(family, mu, sigma, n)
                if series:
                    points = await repo.rating_series(player_id, family, limit=SERIES_LIMIT)
                    curves[family] = [(t, display_rating(m, s)) for t, m, s in points]
        versus = await self.against_computers(
            player_id, [s for s in scopes if s in {r.scope for r in lines}]
        )
        return PlayerStats(
            player_id,
            name,
            kind,
            overall,
            server,
            ratings,
            curves,
            frozenset(hidden),
            versus.get(GLOBAL, ()),
            versus.get(guild_id, ()) if guild_id is not None else (),
        )

    async def against_computers(
        self, player_id: int, scopes: Sequence[int] = (GLOBAL,)
    ) -> dict[int, tuple[VersusLevel, ...]]:
        """Per scope, a person's wins, losses and draws against each computer level, weakest
        level first.

        Our decision: a match counts once against each computer level among the opponents (one
        against an easy and a hard computer counts for both levels); computers that were only
        partners do not count.
        """
        found: dict[int, dict[str, list[int]]] = {}
        for scope, name, *figures in await self.repo.against_computers(player_id, scopes):
            tally = found.setdefault(scope, {}).setdefault(computer_level(name), [0, 0, 0])
            for k, n in enumerate(figures):
                tally[k] += n
        return {scope: versus_levels(levels) for scope, levels in found.items()}

    async def history(
        self,
        player_id: int,
        *,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
        readable: Readable | None = None,
        veil: DailyVeil | None = None,
    ) -> list[HistoryItem]:
        """The player's latest recorded matches, newest first (with ``guild_id``: there only;
        with ``readable``: only those of its server played where that member can look;
        ``veil``: without the daily legs it hides)."""
        repo = self.repo
        mine = await repo.recent_entries(
            player_id, limit=limit, offset=offset, guild_id=guild_id, readable=readable,
            veil=veil,
        )
        ids = [e.table_id for e in mine]
        everyone = await repo.entries_of(ids)
        summaries = await repo.matches(ids)
        places = await PlacesRepo(self.store.db).guilds_of(ids)
        items: list[HistoryItem] = []
        for e in mine:
            m = summaries.get(e.table_id)
            if m is None:
                continue
            others = [
                o
                for o in everyone
                if o.table_id == e.table_id and (o.player_id, o.side) != (e.player_id, e.side)
            ]
            partners = tuple((o.name, o.kind) for o in others if o.side == e.side)
            opponents = tuple((o.name, o.kind) for o in others if o.side != e.side)
            change = None
            if e.rated:
                change = display_rating(e.mu_after, e.sigma_after) - display_rating(
                    e.mu_before, e.sigma_before
                )
            items.append(
                HistoryItem(
                    table_id=e.table_id,
                    guild_id=m.guild_id,
                    variant=m.variant,
                    finished_at=e.finished_at,
                    duration=m.duration,
                    hands=m.hands,
                    reason=m.reason,
                    result=e.result,
                    rank=e.rank,
                    side=e.side,
                    scores=m.scores,
                    points_for=e.points_for,
                    points_against=e.points_against,
                    partners=partners,
                    opponents=opponents,
                    rating_change=change,
                    shown_in=tuple(
                        sorted({*places.get(e.table_id, ()), *([m.guild_id] if m.guild_id else [])})
                    ),
                )
            )
        return items


def user_key(user_id: int) -> str:
    """How a forgotten person's pending requests name him: a hash of his id, not the id."""
    return hashlib.sha256(f"domino-forgotten:{user_id}".encode()).hexdigest()


def is_former(p: Participant) -> bool:
    """Whether ``p`` is a person who asked to be forgotten (his alias, no name)."""
    return p.kind == "human" and p.player_id < FORMER_PLAYERS


def _without_forgotten(record: MatchRecord, aliases: Mapping[str, int]) -> MatchRecord:
    """``record`` with each person who asked to be forgotten replaced by his alias."""
    if not aliases:
        return record
    people = []
    for p in record.participants:
        alias = aliases.get(user_key(p.player_id)) if p.kind == "human" else None
        people.append(p if alias is None else dataclasses.replace(p, player_id=alias, name=""))
    return dataclasses.replace(record, participants=tuple(people))


def _entry(
    record: MatchRecord,
    p: Participant,
    before: tuple[float, float],
    after: tuple[float, float] | None,
) -> EntryRow:
    mu_after, sigma_after = after if after is not None else before
    return EntryRow(
        table_id=record.table_id,
        player_id=p.player_id,
        side=p.side,
        seats=p.seats,
        name=p.name,
        kind=p.kind,
        result=p.result,
        rank=p.rank,
        points_for=p.points_for,
        points_against=p.points_against,
        hands_won=p.hands_won,
        dominoes=p.dominoes,
        blocks_won=p.blocks_won,
        rated=after is not None,
        mu_before=before[0],
        sigma_before=before[1],
        mu_after=mu_after,
        sigma_after=sigma_after,
        family=record.family,
        finished_at=record.finished_at,
    )


def _computers_against(record: MatchRecord, p: Participant) -> list[int]:
    """The computer levels (their ids) among ``p``'s opponents, each once."""
    return sorted(
        {o.player_id for o in record.participants if o.kind == "computer" and o.side != p.side}
    )
