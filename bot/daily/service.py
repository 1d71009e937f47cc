"""The daily deal: one deal a day per variant, the same for everyone, played against experts.

Each UTC day has one deal per variant of :data:`VARIANTS`. Its seed is drawn at random by the
day's first attempt and stored (``daily_deals``), so nobody can work it out ahead. A person
makes one attempt per day and variant; the attempt keeps the day it started on, whenever it
ends. An attempt is one or more *legs*, each a stored table of the table service (so a kill
mid-deal resumes it like any table): ``partners`` is one leg, the person and an expert partner
against two experts; ``draw`` and ``all-fives`` are two legs of the same deal, the person
holding one seat's tiles and then the other's (duplicate style, so the luck of the deal
cancels). A leg's points are the person's side's score minus the best other side's over the
hand; the attempt's result is their sum. Daily tables are practice tables (not rated, no
pings) without the Hint.

The service is a table observer: a leg's table that ends makes it :meth:`DailyService.settle`
the attempt (score the leg, open the next leg or finish). ``settle`` is idempotent and runs
again at every start (:meth:`DailyService.load`), so a kill between two steps loses nothing:
each leg's table is opened in the transaction that writes its leg row.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.daily.store import AttemptRow, DailyRepo, LegRow
from bot.errors import InvalidOptions, ServiceError
from bot.i18n import N_, Ref
from bot.store import IntegrityError, Store, Transaction
from bot.store.table_extras import DailyVeil, PracticeRepo
from bot.tables import computer
from bot.tables.service import TableInfo, TableObserver, TableService, seat_groups
from domino import Match, Outcome, Ruleset, encode_action, preset

log = logging.getLogger(__name__)

__all__ = [
    "LEGS",
    "LEVEL",
    "RESIGNED_LEG",
    "VARIANTS",
    "AlreadyPlayed",
    "Board",
    "DailyService",
    "day_of",
    "deal_of",
    "leg_points",
    "next_day_at",
    "ruleset_of",
    "streak_of",
    "veil",
]

#: The variants with a daily deal, the first the default.
VARIANTS: tuple[str, ...] = ("partners", "draw", "all-fives")
#: Legs of an attempt: the same deal from each seat of a two-player game.
LEGS: dict[str, int] = {"partners": 1, "draw": 2, "all-fives": 2}
#: The computers' level.
LEVEL = "expert"
#: The points of a leg the person resigned (our decision: a hand lost heavily).
RESIGNED_LEG = -100
#: Days of attempts read to count a streak (a longer streak shows as this many).
STREAK_DAYS = 366


PLAYED = N_(
    "You have played today's deal of this variant already. The next one comes at midnight "
    "UTC, in {hours} h {minutes} min."
)

PLAYING = N_("You are playing today's deal of this variant in {thread}: finish it there.")


class AlreadyPlayed(ServiceError):
    """The person has made today's attempt at this deal."""

    code = "daily_played"


def day_of(instant: float) -> str:
    """The UTC day of a Unix time, as ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(instant, dt.UTC).date().isoformat()


def veil(viewer: int, now: float) -> DailyVeil:
    """The daily legs hidden from ``viewer`` at ``now`` (in replays, histories and reviews):
    those of a deal he has not finished, today's or one whose attempt of his is still open."""
    return DailyVeil(viewer, day_of(now))


def next_day_at(instant: float) -> float:
    """The Unix time of the next UTC midnight after ``instant``."""
    day = dt.datetime.fromtimestamp(instant, dt.UTC).date() + dt.timedelta(days=1)
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


def ruleset_of(variant: str) -> Ruleset:
    """The variant's rules for one hand (the match ends with it)."""
    return replace(preset(variant), target=None, hands=1)


def deal_of(variant: str, seed: int, leg: int) -> dict[str, Any]:
    """The deal of leg ``leg``: the seed's first hand, each seat holding the tiles the seat
    ``leg`` places after it was dealt (the undealt tiles in the same order)."""
    rules = ruleset_of(variant)
    first = Match.new(rules, seed)
    hands = first.hands
    rest = first.pile if rules.draw else first.sleeping
    seats = rules.seats
    return {
        "hands": [[str(t) for t in hands[(s + leg) % seats]] for s in range(seats)],
        "pile": [str(t) for t in rest],
    }


def leg_points(scores: Sequence[int], outcome: Outcome | None) -> int:
    """The person's (seat 0's side) points minus the best other side's; a leg he resigned
    counts :data:`RESIGNED_LEG`."""
    if outcome is not None and outcome.gave_up:
        return RESIGNED_LEG
    return int(scores[0]) - max(int(s) for s in scores[1:])


def streak_of(days: Sequence[str], today: str) -> int:
    """Days in a row with an attempt, up to ``today`` (or up to yesterday while today has
    none yet); ``days`` newest first, each once."""
    days = [day for day in days if day <= today]
    wanted = dt.date.fromisoformat(today)
    if days and days[0] != today:
        wanted -= dt.timedelta(days=1)
    count = 0
    for day in days:
        if dt.date.fromisoformat(day) != wanted:
            break
        count += 1
        wanted -= dt.timedelta(days=1)
    return count


@dataclass(frozen=True, slots=True)
class Board:
    """A day's board of a variant, of one server (``guild_id``) or of all (None).

    ``rows`` (rank, attempt) are filled only for a viewer who finished his attempt that day
    (no spoilers); ``players`` counts the finished attempts either way."""

    day: str
    variant: str
    guild_id: int | None
    players: int
    mine: AttemptRow | None
    rows: tuple[tuple[int, AttemptRow], ...]

    @property
    def shown(self) -> bool:
        return self.mine is not None and self.mine.finished


@dataclass(frozen=True, slots=True)
class ExpertPlay:
    """The expert's own play of a day's deal: every seat an expert, the first leg's deal."""

    day: str
    variant: str
    ruleset: Ruleset
    seed: int
    deal: dict[str, Any]
    moves: tuple[tuple[int, str], ...]  # (seat, encoded action)

    def match(self) -> Match:
        """The finished match."""
        return Match.replay(self.ruleset, self.seed, [m for _, m in self.moves], self.deal)


Key = tuple[str, str, int]


class DailyService(TableObserver):
    """Starts attempts, scores their legs, keeps the boards and streaks."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        expert_budget: float | None = None,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        legs: dict[str, int] | None = None,
    ) -> None:
        """``expert_budget``: seconds of search per move of the expert's own play (None: the
        expert's default); ``seed_source`` draws a new day's seed."""
        self.store = store
        self.tables = tables
        self.expert_budget = expert_budget
        self.seed_source = seed_source
        self.leg_counts = dict(legs or LEGS)
        self._locks: weakref.WeakValueDictionary[Key, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._expert_locks: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._listeners: list[Callable[[AttemptRow], Awaitable[None] | None]] = []

    @property
    def repo(self) -> DailyRepo:
        return DailyRepo(self.store.db)

    def clock(self) -> float:
        return self.tables.clock()

    def listen(self, listener: Callable[[AttemptRow], Awaitable[None] | None]) -> None:
        """Be told of an attempt that finished (or whose next leg opened)."""
        self._listeners.append(listener)

    def unlisten(self, listener: Callable[[AttemptRow], Awaitable[None] | None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def _tell(self, attempt: AttemptRow) -> None:
        for listener in list(self._listeners):
            try:
                answer = listener(attempt)
                if answer is not None:
                    await answer
            except Exception:
                log.exception("daily listener failed")

    def _lock(self, key: Key) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    # -- starting ----------------------------------------------------------------------------

    @staticmethod
    def check_variant(variant: str) -> None:
        if variant not in VARIANTS:
            raise InvalidOptions(
                "The daily deal is played in: {allowed}.", allowed=", ".join(VARIANTS)
            )

    async def check(self, variant: str, user_id: int, now: float | None = None) -> None:
        """Refuse (:class:`AlreadyPlayed`, :class:`InvalidOptions`) an attempt that may not
        start; changes nothing."""
        self.check_variant(variant)
        now = self.clock() if now is None else now
        day = day_of(now)
        found = await self.repo.attempt(day, variant, user_id)
        if found is not None and not found.finished and found.channel_id is not None:
            raise AlreadyPlayed(PLAYING, thread=Ref("channel", found.channel_id))
        if found is not None:
            raise AlreadyPlayed(PLAYED, **_left(now))

    async def start(
        self,
        *,
        variant: str,
        user_id: int,
        name: str,
        seat_name: str,
        guild_id: int | None,
        channel_id: int | None,
        locale: str | None = None,
    ) -> tuple[AttemptRow, TableInfo]:
        """Start ``user_id``'s attempt at today's deal of ``variant`` in ``channel_id`` (a
        private thread): its first leg's table runs at once. ``name`` is his global name (the
        boards), ``seat_name`` his name at the table."""
        now = self.clock()
        await self.check(variant, user_id, now)
        day = day_of(now)
        seed = await self.repo.seed(day, variant, self.seed_source())
        attempt = AttemptRow(
            day=day,
            variant=variant,
            user_id=user_id,
            name=name,
            guild_id=guild_id,
            channel_id=channel_id,
            locale=locale,
            legs=self.leg_counts.get(variant, 1),
            started_at=now,
        )

        async def first(tx: Transaction, table_id: int) -> None:
            await DailyRepo(tx.db).add(attempt)

        try:
            info = await self._open_leg(attempt, seed, 0, seat_name, first)
        except IntegrityError:
            raise AlreadyPlayed(PLAYED, **_left(now)) from None
        return attempt, info

    async def _open_leg(
        self,
        attempt: AttemptRow,
        seed: int,
        leg: int,
        seat_name: str,
        before: Callable[[Transaction, int], Awaitable[None]] | None = None,
    ) -> TableInfo:
        rules = ruleset_of(attempt.variant)
        people: list[tuple[int, str] | None] = [None] * len(seat_groups(rules))
        people[0] = (attempt.user_id, seat_name)  # the first group holds seat 0

        async def within(tx: Transaction, table_id: int) -> None:
            if before is not None:
                await before(tx, table_id)
            await DailyRepo(tx.db).add_leg(table_id, attempt, leg)
            await PracticeRepo(tx.db).add(table_id)

        return await self.tables.open_seated(
            host_id=attempt.user_id,
            ruleset=rules,
            options={"daily": attempt.day},
            people=people,
            guild_id=attempt.guild_id,
            channel_id=attempt.channel_id,
            locale=attempt.locale,
            within=within,
            seed=seed,
            deal=deal_of(attempt.variant, seed, leg),
            level=LEVEL,
        )

    # -- the legs ----------------------------------------------------------------------------

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        await self._settle_table(table)

    async def on_table_cancelled(self, table: TableInfo) -> None:
        await self._settle_table(table)

    async def _settle_table(self, table: TableInfo) -> None:
        if "daily" not in table.table.options:
            return
        key = await self.repo.leg_of(table.id)
        if key is not None:
            await self.settle(key)

    async def settle(self, key: Key) -> AttemptRow | None:
        """Bring the attempt ``key`` (day, variant, user) up to date with its tables: score
        each leg whose match ended, then open the next leg or finish the attempt. Idempotent;
        None if there is no such attempt (or it was dropped: its first table never ran)."""
        async with self._lock(key):
            attempt = await self.repo.attempt(*key)
            if attempt is None or attempt.finished:
                return attempt
            legs = await self.repo.legs(*key)
            for leg in legs:
                if leg.points is not None:
                    continue
                info = await self.tables.get(leg.table_id)
                if info.status == "cancelled" and leg.leg == 0 and info.seq == 0:
                    await self._drop(attempt)
                    return None
                if info.status == "cancelled":
                    points = RESIGNED_LEG
                elif info.status == "finished":
                    view = info.public_view()
                    assert view is not None
                    points = leg_points(view.scores, view.outcome)
                else:
                    return attempt  # still being played
                await self.repo.score_leg(leg.table_id, points)
            legs = await self.repo.legs(*key)
            if len(legs) < attempt.legs:
                if not self.tables.owns(attempt.guild_id):
                    return attempt
                seed = await self.repo.seed(attempt.day, attempt.variant, self.seed_source())
                seat_name = await self._seat_name(legs[-1])
                with contextlib.suppress(IntegrityError):  # another process opened it
                    await self._open_leg(attempt, seed, len(legs), seat_name)
                await self._tell(attempt)
                return attempt
            result = sum(int(leg.points or 0) for leg in legs)
            await self.repo.finish(*key, result=result, now=self.clock())
            finished = await self.repo.attempt(*key)
        if finished is not None:
            await self._tell(finished)
        return finished

    async def _seat_name(self, leg: LegRow) -> str:
        info = await self.tables.get(leg.table_id)
        row = info.seats[0] if info.seats else None
        return row.name if row is not None else ""

    async def _drop(self, attempt: AttemptRow) -> None:
        async with self.store.transaction() as tx:
            await DailyRepo(tx.db).drop(attempt.day, attempt.variant, attempt.user_id)
        log.info("daily %s %s: an attempt whose table never ran was dropped", attempt.day,
                 attempt.variant)

    async def load(self) -> list[AttemptRow]:
        """After a start: settle every attempt this process runs; the finished attempts whose
        result was not published yet."""
        done: list[AttemptRow] = []
        for attempt in await self.repo.unsettled():
            if not self.tables.owns(attempt.guild_id):
                continue
            try:
                found = await self.settle((attempt.day, attempt.variant, attempt.user_id))
            except ServiceError as exc:
                log.warning("daily attempt %s %s not settled: %s", attempt.day,
                            attempt.variant, exc)
                continue
            if found is not None and found.finished and not found.published:
                done.append(found)
        return done

    async def unnoted(self) -> list[AttemptRow]:
        """The attempts this process runs whose leg in play was opened without its note."""
        return [a for a in await self.repo.unnoted() if self.tables.owns(a.guild_id)]

    async def noted(self, leg: LegRow) -> None:
        """The note opening ``leg`` was posted (or given up)."""
        await self.repo.noted(leg.table_id)

    async def published(self, attempt: AttemptRow) -> None:
        """The attempt's result was posted."""
        await self.repo.published(attempt.day, attempt.variant, attempt.user_id)

    async def attempt(self, day: str, variant: str, user_id: int) -> AttemptRow | None:
        return await self.repo.attempt(day, variant, user_id)

    async def legs(self, attempt: AttemptRow) -> list[LegRow]:
        return await self.repo.legs(attempt.day, attempt.variant, attempt.user_id)

    # -- the expert's own play ---------------------------------------------------------------

    async def expert_play(self, day: str, variant: str) -> ExpertPlay:
        """The expert's own play of the day's deal (every seat an expert), computed once (in
        the computers' process pool) and kept."""
        self.check_variant(variant)
        rules = ruleset_of(variant)
        lock = self._expert_locks.get((day, variant))
        if lock is None:
            lock = self._expert_locks[(day, variant)] = asyncio.Lock()
        async with lock:
            seed = await self.repo.seed(day, variant, self.seed_source())
            deal = deal_of(variant, seed, 0)
            moves = await self.repo.expert(day, variant)
            if moves is None:
                moves = await self._play_expert(rules, seed, deal, f"daily/{day}/{variant}")
                await self.repo.set_expert(day, variant, moves)
                moves = await self.repo.expert(day, variant) or moves
        return ExpertPlay(day, variant, rules, seed, deal, tuple(moves))

    async def _play_expert(
        self, rules: Ruleset, seed: int, deal: dict[str, Any], tag: str
    ) -> list[tuple[int, str]]:
        match = Match.new(rules, seed, deal)
        moves: list[tuple[int, str]] = []
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            view = match.view(seat)
            if len(view.legal) == 1:
                action = view.legal[0]
            else:
                action = await computer.compute(
                    view, LEVEL, rng=computer.rng_for(tag, len(moves)), budget=self.expert_budget
                )
            match = match.apply(action, seat)
            moves.append((seat, encode_action(action)))
        return moves

    # -- boards and streaks ------------------------------------------------------------------

    async def board(
        self, variant: str, guild_id: int | None, viewer_id: int, day: str | None = None
    ) -> Board:
        """The day's board (today's by default) as ``viewer_id`` may see it."""
        self.check_variant(variant)
        day = day or day_of(self.clock())
        rows = await self.repo.board(day, variant, guild_id)
        mine = await self.repo.attempt(day, variant, viewer_id)
        ranked: list[tuple[int, AttemptRow]] = []
        if mine is not None and mine.finished:
            for i, row in enumerate(rows):
                rank = ranked[-1][0] if ranked and ranked[-1][1].result == row.result else i + 1
                ranked.append((rank, row))
        return Board(day, variant, guild_id, len(rows), mine, tuple(ranked))

    async def streak(self, user_id: int) -> int:
        """Days in a row ``user_id`` played a daily deal (any variant), up to today."""
        days = await self.repo.days_of(user_id, STREAK_DAYS)
        return streak_of(days, day_of(self.clock()))


def _left(now: float) -> dict[str, int]:
    seconds = max(0, int(next_day_at(now) - now))
    return {"hours": seconds // 3600, "minutes": seconds % 3600 // 60}
