"""The life of a tournament: registration, check-ins, rounds, their tables, results, the end.

Everything is in the store (:mod:`bot.tournaments.store`); every timed step is a deadline of the
one clock (the table service's :class:`~bot.tables.clock.Clock`, keyed by the event's id made
negative so it never meets a table's). The rules come from the pure modules: the pairing
(:mod:`bot.tournaments.pairing`), the standings (:mod:`bot.tournaments.standings`) and the
values (:mod:`bot.tournaments.model`). Each round's tables are opened and played by the
:class:`~bot.tables.service.TableService`; this service watches them end (as a table observer,
and by reading the store again after a restart: :meth:`TournamentService.settle` is idempotent).

The steps of a round ``r``: ``checkin`` (the check-in opens, ``checkin_before`` seconds before
the start), ``start`` (the checked-in entrants are paired and the tables open), ``grace`` (a
seated person who has not clicked in: a computer plays an individual's seat, a pair or a
one-against-one player forfeits), ``limit`` (the round's time is up: each table finishes the
hand in play and is scored as it stands). When every table of the round is scored, the next
round's check-in opens, or the event ends. Discord learns of changes through listeners
(:meth:`TournamentService.listen`), which publish from the store.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.achievements.service import podium_awards
from bot.achievements.store import AchievementRepo
from bot.errors import (
    AlreadySeated,
    InvalidOptions,
    LimitReached,
    NotHost,
    NotInvited,
    NotSeated,
    TableFull,
    TableNotFound,
    TablesElsewhere,
    WrongStatus,
)
from bot.records.rating import display_ordinal, display_rating, ordinal
from bot.records.record import FAMILIES
from bot.records.store import RecordsRepo
from bot.store import DeadlineRow, IntegrityError, Store, Transaction
from bot.tables.service import (
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    TableInfo,
    TableObserver,
    TableService,
    seat_groups,
)
from bot.tournaments import model
from bot.tournaments.bracket import bracket, knockout
from bot.tournaments.bracket import seeding as bracket_seeding
from bot.tournaments.model import (
    Bracket,
    Bye,
    Entrant,
    Pairing,
    Result,
    Standing,
    TableResult,
)
from bot.tournaments.pairing import pair_swiss
from bot.tournaments.standings import standings as rank
from bot.tournaments.store import (
    BoardRow,
    CorrectionRow,
    EntryRow,
    EventRow,
    InvitationRow,
    PlaceRow,
    RoundRow,
    TimerRow,
    TournamentRepo,
)
from domino import HandResult, Outcome, Ruleset, preset

__all__ = [
    "CHECKIN_BEFORE",
    "DEFAULT_GRACE",
    "DEFAULT_HANDS",
    "DEFAULT_TIME_LIMIT",
    "INVITE_COOLDOWN",
    "EventState",
    "TourLimits",
    "TournamentService",
]

log = logging.getLogger(__name__)

CHECKIN_BEFORE = 600.0  # the check-in opens this many seconds before a round
DEFAULT_GRACE = 300  # seconds a seated person has to click in
DEFAULT_TIME_LIMIT = 45 * 60  # seconds a round may last
DEFAULT_HANDS = 4
MAX_HANDS = 12
MAX_ROUNDS = 20
MIN_TIME_LIMIT, MAX_TIME_LIMIT = 5 * 60, 4 * 3600
MIN_GRACE, MAX_GRACE = 60, 30 * 60
MAX_NAME = 80
MISSED_LIMIT = 2  # rounds missed before an entrant is withdrawn
INVITE_COOLDOWN = 60.0  # seconds between two invitations of a person in a pairs event
PUBLISH = "t.publish"  # publish the event's posts again (after Discord failed, or a moment)
KINDS = ("t.checkin", "t.start", "t.grace", "t.limit", PUBLISH)
PUBLISH_FIRST, PUBLISH_MOST = 1.0, 60.0  # seconds before publishing again after a failure
TIME_UP = "time"  # closed_reason of a table stopped by the round's time limit
FORFEIT = "forfeit"  # closed_reason of a table whose pair did not show up
RECORDS_WAIT = 600.0  # seconds the podium waits for the match records of the last tables


@dataclass(frozen=True, slots=True)
class TourLimits:
    """What a server may run: open events at once, entrants per event."""

    events_per_server: int = 3
    entrants_per_event: int = 256


@dataclass(frozen=True, slots=True)
class EventState:
    """An event as the Discord layer shows it: its rows and what they mean."""

    event: EventRow
    entries: tuple[EntryRow, ...]
    rounds: tuple[RoundRow, ...]
    boards: tuple[BoardRow, ...]
    checked_in: frozenset[int]  # users checked in for the current round
    present: frozenset[int]  # users who clicked in at their table this round
    ruleset: Ruleset

    @property
    def id(self) -> int:
        return self.event.id

    def entry(self, number: int | None) -> EntryRow | None:
        return next((e for e in self.entries if e.entry == number), None)

    def entry_of(self, user_id: int) -> EntryRow | None:
        return next((e for e in self.entries if user_id in e.members), None)

    def active(self) -> list[EntryRow]:
        return [e for e in self.entries if e.status == "active"]

    def boards_of(self, round_: int) -> list[BoardRow]:
        return [b for b in self.boards if b.round == round_]

    def round_row(self, number: int) -> RoundRow | None:
        return next((r for r in self.rounds if r.number == number), None)

    def entrants(self) -> list[Entrant]:
        """The entrants in the pure model's terms (pairs waiting for a partner left out)."""
        return [
            Entrant(
                id=e.entry,
                rating=e.rating,
                members=e.members,
                joined_round=e.joined_round,
                withdrawn=e.status == "withdrawn",
            )
            for e in self.entries
            if e.status != "invited"
        ]

    def results(self, upto: int | None = None) -> list[Result]:
        """Every scored board (of rounds up to ``upto``) in the pure model's terms."""
        out: list[Result] = []
        for b in self.boards:
            if b.status != "done" or (upto is not None and b.round > upto):
                continue
            if b.is_bye:
                entrant = b.sides[0][0]
                assert entrant is not None
                out.append(Bye(b.round, entrant))
                continue
            assert b.points is not None
            how = (b.how or "").split(";", 1)[0]
            forfeited = how.split(":", 1)[1] if how.startswith("forfeit:") else ""
            out.append(
                TableResult(
                    round=b.round,
                    sides=(tuple(b.sides[0]), tuple(b.sides[1])),
                    points=(b.points[0], b.points[1]),
                    forfeited=("0" in forfeited, "1" in forfeited),
                    absent=_absent(b),
                )
            )
        return out

    def in_playoff(self, number: int | None = None) -> bool:
        """Whether round ``number`` (default: the current one) is of a Swiss event's playoff."""
        event = self.event
        number = event.round if number is None else number
        return bool(event.playoff and event.rounds and number > event.rounds)

    def standings(self, upto: int | None = None) -> list[Standing]:
        """The standings after round ``upto`` (default: all); a playoff's rounds are the
        bracket's, not the Swiss standings'."""
        if self.event.playoff and self.event.rounds:
            upto = self.event.rounds if upto is None else min(upto, self.event.rounds)
        return rank(self.event.format, self.entrants(), self.results(upto))  # type: ignore[arg-type]

    def bracket(self, upto: int | None = None) -> Bracket | None:
        """A knockout's bracket, or a Swiss event's playoff once seeded, as far as it was
        played up to round ``upto`` (None: every round); None for neither."""
        entrants = self.entrants()
        results = [r for r in self.results() if upto is None or r.round <= upto]
        if self.event.system == "knockout" and len(entrants) >= 2:
            return bracket(
                self.event.format,  # type: ignore[arg-type]
                entrants,
                results,
                seeds=bracket_seeding(entrants),
            )
        seeds = self.event.playoff_seeds
        if self.event.system == "swiss" and seeds and len(seeds) >= 2:
            return bracket(
                self.event.format,  # type: ignore[arg-type]
                entrants,
                results,
                seeds=seeds,
                first_round=self.event.rounds + 1,
            )
        return None

    def knocked_out(self, entry: int) -> bool:
        """Whether ``entry`` is out of the knockout (or the playoff) so far: lost a table of it,
        or, people re-seated each round (individual), was not sent on by its last round."""
        tree = self.bracket()
        if tree is None or not tree.rounds:
            return False
        if tree.people:
            return entry not in {e for m in tree.rounds[-1] for e in m.advancing}
        return any(
            m.decided and entry in m.entrants and entry not in m.advancing
            for matches in tree.rounds
            for m in matches
        )

    def playoff_seeds(self) -> list[int]:
        """The playoff's entrants, best first: the stored seeds, or (before they are) the top
        places of the Swiss standings among those who have not withdrawn."""
        if self.event.playoff_seeds:
            return list(self.event.playoff_seeds)
        lines = [s.entrant for s in self.standings() if not s.withdrawn]
        return lines[: self.event.playoff]

    def places(self) -> list[tuple[int, int]]:
        """(place, entrant), best first: the standings' ranks in a Swiss event; in a knockout
        the champion, the finalist, then by the round each lost in (equal places); after a
        playoff its entrants so, then the others by the Swiss standings."""
        tree = self.bracket()
        if tree is None:
            return [(s.rank, s.entrant) for s in self.standings()]
        out = _bracket_places(tree)
        seen = {e for _, e in out}
        if self.event.system == "swiss":
            rest = [s for s in self.standings() if s.entrant not in seen]
            first = len(out) + 1
            for i, s in enumerate(rest):
                if i and s.rank != rest[i - 1].rank:
                    first = len(out) + 1
                out.append((first, s.entrant))
        return out


def _bracket_places(tree: Bracket) -> list[tuple[int, int]]:
    """(place, entrant) of a bracket's entrants, best first: the champions, then by the round
    each went out in (equal places). An individual knockout's people are placed by how many
    rounds each went through (a walkover loses where a table would have)."""
    out: list[tuple[int, int]] = [(1, e) for e in tree.champions]
    seen = set(tree.champions)
    if tree.people:
        reached = {e: 0 for e in tree.seeds}
        for matches in tree.rounds:
            for m in matches:
                for e in m.advancing:
                    reached[e] = reached.get(e, 0) + 1
        rest = sorted((e for e in tree.seeds if e not in seen), key=lambda e: -reached[e])
        for i, e in enumerate(rest):
            if i == 0 or reached[e] != reached[rest[i - 1]]:
                place = len(out) + 1
            out.append((place, e))
        return out
    for k in range(len(tree.rounds) - 1, -1, -1):
        place = len(out) + 1
        for m in tree.rounds[k]:
            for e in m.entrants:
                if e is not None and e not in seen and m.winner is not None and e != m.winner:
                    out.append((place, e))
                    seen.add(e)
    return out


def _absent(board: BoardRow) -> tuple[int, ...]:
    """Individual entrants whose seat a computer played (written in ``how`` as absent:...)."""
    how = board.how or ""
    if "absent:" not in how:
        return ()
    tail = how.split("absent:", 1)[1]
    return tuple(int(x) for x in tail.split(",") if x)


def event_ruleset(event: EventRow) -> Ruleset:
    """The ruleset of the event's tables: the variant and its options, a round of N hands or
    to N points."""
    base = preset(event.variant, **event.options)
    if event.hands is not None:
        return dataclasses.replace(base, hands=event.hands, target=None)
    if event.points is not None:
        return dataclasses.replace(base, target=event.points, hands=None)
    return base


def family_of(variant: str) -> str:
    for family, variants in FAMILIES.items():
        if variant in variants:
            return family
    return variant


Listener = Callable[[int], object]


class TournamentService(TableObserver):
    """Runs the events of the servers this process owns."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        clock: Callable[[], float] | None = None,
        limits: TourLimits | None = None,
        checkin_before: float = CHECKIN_BEFORE,
        owns: Callable[[int | None], bool] | None = None,
        turn_timer: int = 120,
    ) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock or tables.clock or time.time
        self.limits = limits or TourLimits()
        self.checkin_before = checkin_before
        self.owns = owns or tables.owns
        self.turn_timer = min(max(turn_timer, MIN_TURN_TIMER), MAX_TURN_TIMER)
        self.repo = TournamentRepo(store.db)
        self.scheduler = tables.scheduler
        self.scheduler.handlers.update(
            {
                "t.checkin": self._on_checkin,
                "t.start": self._on_start,
                "t.grace": self._on_grace,
                "t.limit": self._on_limit,
                PUBLISH: self._on_publish,
            }
        )
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._guilds: dict[int, int] = {}  # event -> server, of the events this process runs
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- listeners ---------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Be told (with the event's id) whenever an event changed."""
        self._listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, event_id: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(event_id)
            except Exception:
                log.exception("tournament listener failed for event %s", event_id)

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    # -- reading -----------------------------------------------------------------------------

    async def get(self, event_id: int) -> EventRow:
        event = await self.repo.get(event_id) if 0 < event_id < 2**62 else None
        if event is None:
            raise TableNotFound("There is no tournament {event}.", event=event_id)
        return event

    async def state(self, event_id: int) -> EventState:
        """The event with its entries, rounds and boards, as stored now."""
        event = await self.get(event_id)
        r = event.round
        return EventState(
            event=event,
            entries=tuple(await self.repo.entries(event_id)),
            rounds=tuple(await self.repo.rounds(event_id)),
            boards=tuple(await self.repo.boards(event_id)),
            checked_in=frozenset(await self.repo.checked_in(event_id, r, "checkin")),
            present=frozenset(await self.repo.checked_in(event_id, r, "present")),
            ruleset=event_ruleset(event),
        )

    async def find(self, guild_id: int, channel_id: int | None = None) -> EventRow:
        """The event a command in this channel is about: the channel's open event, else the
        server's only open one, else the channel's or server's latest."""
        events = await self.repo.open_events(guild_id)
        here = [e for e in events if e.channel_id == channel_id]
        if here:
            return here[0]
        if len(events) == 1:
            return events[0]
        if len(events) > 1:
            raise WrongStatus(
                "This server runs several tournaments: use the command in the tournament's channel."
            )
        latest = await self.repo.latest(guild_id, channel_id) or await self.repo.latest(guild_id)
        if latest is None:
            raise TableNotFound("There is no tournament on this server.")
        return latest

    async def last_finished(self, guild_id: int) -> int | None:
        """The server's event that finished last (its winners hold the server's role)."""
        return await self.repo.last_finished(guild_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        return await self.repo.organiser_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.repo.set_organiser_role(guild_id, role_id)

    async def corrections(self, event_id: int) -> list[CorrectionRow]:
        return await self.repo.corrections(event_id)

    async def posts(self, event_id: int) -> dict[str, int | None]:
        return await self.repo.posts(event_id)

    async def mark_post(self, event_id: int, key: str, message_id: int | None) -> None:
        await self.repo.mark_post(event_id, key, message_id)

    async def publish_later(self, event_id: int, delay: float | None = None) -> float:
        """Publish the event's posts again later, as a stored deadline of the one clock (a kill
        meanwhile loses nothing): after ``delay`` seconds, or (None: Discord failed) after a
        wait that doubles with each failure in a row. Returns the wait."""
        found = next((t for t in await self.repo.timers(event_id) if t.kind == PUBLISH), None)
        failures = found.seq if found is not None else 0
        if delay is None:
            delay = min(PUBLISH_MOST, PUBLISH_FIRST * 2**min(failures, 10))
            failures += 1
        row = TimerRow(event_id, PUBLISH, self.clock() + delay, failures)
        await self.repo.set_timer(row)
        event = await self.repo.get(event_id)
        if event is not None and self.owns(event.guild_id):
            self.scheduler.set(DeadlineRow(-event_id, PUBLISH, row.due_at, row.seq))
        return delay

    async def published(self, event_id: int) -> None:
        """The event's posts are up to date: no publication waits any more."""
        if any(t.kind == PUBLISH for t in await self.repo.timers(event_id)):
            await self.repo.clear_timers(event_id, (PUBLISH,))
            self.scheduler.clear(-event_id, (PUBLISH,))

    async def _on_publish(self, d: DeadlineRow) -> None:
        """Time to publish again: the listeners (the publisher) are told; its row stays until
        a publication succeeds."""
        self._changed(-d.table_id)

    async def due(self, kind: str, event_id: int, seq: int) -> float | None:
        """When the event's deadline ``kind`` for round ``seq`` falls due (None: not set)."""
        for t in await self.repo.timers(event_id):
            if t.kind == kind and t.seq == seq:
                return t.due_at
        return None

    async def unpublished(self) -> list[int]:
        """Events of this process that ended and whose end is not published yet."""
        return [e.id for e in await self.repo.ended_unpublished() if self.owns(e.guild_id)]

    async def rating_changes(self, state: EventState) -> dict[int, tuple[float, float]]:
        """Per entrant: (rating at registration, that rating plus what the event's own rated
        tables changed) in the event's variant family; a pair's is its members' mean. Matches
        its people played elsewhere meanwhile do not count."""
        table_ids = [b.table_id for b in state.boards if b.table_id is not None]
        family = family_of(state.event.variant)
        gained: dict[int, float] = {}
        for row in await RecordsRepo(self.store.db).entries_of(table_ids):
            if row.rated and row.kind == "human" and row.family == family:
                after = display_ordinal(ordinal(row.mu_after, row.sigma_after))
                change = after - display_ordinal(ordinal(row.mu_before, row.sigma_before))
                gained[row.player_id] = gained.get(row.player_id, 0.0) + change
        out: dict[int, tuple[float, float]] = {}
        for e in state.entries:
            change = sum(gained.get(u, 0.0) for u in e.members) / len(e.members)
            out[e.entry] = (e.rating, e.rating + change)
        return out

    async def podium_ready(self, state: EventState) -> bool:
        """Whether the podium may be drawn: each finished table of the event has its match
        record (the rating change reads them; the records' observer may lag behind the last
        table's end, or catch up after a restart), or ``RECORDS_WAIT`` has passed."""
        if self.clock() - state.event.updated_at >= RECORDS_WAIT:
            return True
        ids = [b.table_id for b in state.boards if b.table_id is not None]
        recorded = {r.table_id for r in await RecordsRepo(self.store.db).entries_of(ids)}
        for table_id in set(ids) - recorded:
            match = await self.store.matches.get(table_id)
            if match is not None and match.outcome is not None and match.finished_at is not None:
                return False
        return True

    async def _ratings(self, user_ids: Sequence[int], variant: str) -> dict[int, float]:
        found = await RecordsRepo(self.store.db).ratings(user_ids, family_of(variant))
        return {u: float(display_rating(mu, sigma)) for u, (mu, sigma) in found.items()}

    # -- creating ----------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        name: str,
        variant: str,
        options: dict[str, Any] | None = None,
        format: str,
        system: str = "swiss",
        rounds: int | None = None,
        hands: int | None = None,
        points: int | None = None,
        time_limit: int = DEFAULT_TIME_LIMIT,
        grace: int = DEFAULT_GRACE,
        fill: str = "mixed",
        playoff: int = 0,
        max_entrants: int | None = None,
        start_at: float | None = None,
        locale: str | None = None,
        winner_role: int | None = None,
        public_place: bool = False,
    ) -> EventRow:
        """Open an event for registration (the checks first: each bad value is refused with
        its reason and nothing is written)."""
        if not self.owns(guild_id):
            raise TablesElsewhere(
                "The bot is moving this server's tables between its processes; try again in a"
                " few seconds."
            )
        name = " ".join(name.split())
        if not 0 < len(name) <= MAX_NAME:
            raise InvalidOptions("A tournament name has 1 to {max} characters.", max=MAX_NAME)
        clean = {k: v for k, v in (options or {}).items() if v is not None}
        try:
            base = preset(variant, **clean)
        except (TypeError, ValueError) as exc:
            raise InvalidOptions.verbatim(str(exc), variant=variant) from None
        allowed = model.formats_for(base)
        if format not in allowed:
            if not allowed:
                raise InvalidOptions(
                    "{variant} has no tournament format: it is played by three people.",
                    variant=variant,
                )
            raise InvalidOptions(
                "{variant} has no {format} format; its formats: {allowed}.",
                variant=variant,
                format=format,
                allowed=list(allowed),
            )
        if system not in model.SYSTEMS:
            raise InvalidOptions("A tournament is swiss or knockout.")
        if hands is not None and points is not None:
            raise InvalidOptions("A round is a number of hands or a number of points, not both.")
        if points is None and hands is None:
            hands = DEFAULT_HANDS
        if hands is not None and not 1 <= hands <= MAX_HANDS:
            raise InvalidOptions("A round has 1 to {max} hands.", max=MAX_HANDS)
        if points is not None:
            try:
                preset(variant, **{**clean, "target": points})
            except (TypeError, ValueError) as exc:
                raise InvalidOptions.verbatim(str(exc), variant=variant) from None
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidOptions("A Swiss event has 1 to {max} rounds.", max=MAX_ROUNDS)
        if not MIN_TIME_LIMIT <= time_limit <= MAX_TIME_LIMIT:
            raise InvalidOptions(
                "A round's time limit is {min} to {max} minutes.",
                min=MIN_TIME_LIMIT // 60,
                max=MAX_TIME_LIMIT // 60,
            )
        if not MIN_GRACE <= grace <= MAX_GRACE:
            raise InvalidOptions(
                "The grace for late players is {min} to {max} minutes.",
                min=MIN_GRACE // 60,
                max=MAX_GRACE // 60,
            )
        if fill not in model.FILLS:
            raise InvalidOptions("Empty seats are filled with computers, byes, or both.")
        if format != "individual":
            fill = "bye"  # only an individual table has a seat a computer can take
        if playoff not in model.PLAYOFFS:
            raise InvalidOptions("A playoff is of the top 4 or the top 8.")
        if playoff and system != "swiss":
            raise InvalidOptions("A playoff follows Swiss rounds: a knockout has none.")
        top = self.limits.entrants_per_event
        max_entrants = top if max_entrants is None else max_entrants
        if not 2 <= max_entrants <= top:
            raise InvalidOptions("An event takes 2 to {max} entrants.", max=top)
        now = self.clock()
        if start_at is not None and start_at <= now:
            raise InvalidOptions("The start time is in the past.")
        row = EventRow(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            name=name,
            variant=variant,
            options=clean,
            format=format,
            system=system,
            rounds=rounds or 0,
            hands=hands,
            points=points,
            time_limit=time_limit,
            grace=grace,
            fill=fill,
            max_entrants=max_entrants,
            start_at=start_at,
            status="registration",
            round=0,
            locale=locale,
            winner_role=winner_role,
            paused_left=None,
            created_at=now,
            updated_at=now,
            public_place=public_place,
            playoff=playoff,
        )
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            open_now = await repo.open_events(guild_id)
            if any(e.channel_id == channel_id for e in open_now):
                raise WrongStatus("A tournament is already open in this channel.")
            if len(open_now) >= self.limits.events_per_server:
                raise LimitReached(
                    "This server already has {count} open tournaments (the most at once).",
                    count=len(open_now),
                )
            try:
                event = await repo.create(row)
            except IntegrityError:
                raise WrongStatus("A tournament is already open in this channel.") from None
            if start_at is not None:
                await self._set_timers(
                    tx,
                    event.id,
                    ("t.checkin", start_at - self.checkin_before, 1),
                    ("t.start", start_at, 1),
                )
        self._guilds[event.id] = guild_id
        self._time(event.id, await self.repo.timers(event.id))
        self._changed(event.id)
        return event

    # -- registration ------------------------------------------------------------------------

    async def register(self, event_id: int, user_id: int, name: str) -> EntryRow:
        """Enter ``user_id`` alone (a pair enters when the partner accepts: :meth:`invite`)."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            await self._check_entry(event, user_id)
            if event.format == "pairs":
                raise InvalidOptions(
                    "This is a pairs event: register with your partner"
                    " (/domino tournament register partner:@someone)."
                )
            entry = await self._enter(event, user_id, name, None)
        self._changed(event_id)
        return entry

    async def invite(
        self, event_id: int, user_id: int, name: str, partner: tuple[int, str]
    ) -> InvitationRow:
        """``user_id`` asks ``partner`` to enter a pairs event with him. Nobody is entered
        until the partner accepts; an inviter has one invitation waiting at most, sends one
        every :data:`INVITE_COOLDOWN` seconds at most (a new one replaces his waiting one)
        and never asks again someone who declined."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            await self._check_entry(event, user_id)
            if event.format != "pairs":
                raise InvalidOptions("This event is not for pairs: register alone.")
            partner_id, partner_name = partner
            if partner_id == user_id:
                raise InvalidOptions("Your partner must be someone else.")
            if await self.repo.entry_of(event_id, partner_id) is not None:
                raise AlreadySeated(
                    "{name} is already registered in this tournament.", name=partner_name
                )
            await self._check_room(event)
            asked = await self.repo.invitation(event_id, user_id, partner_id)
            if asked is not None and asked.status == "declined":
                raise NotInvited(
                    "{name} declined your invitation: you cannot ask again in this tournament.",
                    name=partner_name,
                )
            if asked is not None and asked.status == "pending":
                raise AlreadySeated(
                    "You have already invited {name}: wait for the answer.", name=partner_name
                )
            now = self.clock()
            last = await self.repo.last_invitation(event_id, user_id)
            if last is not None and now - last.created_at < INVITE_COOLDOWN:
                raise LimitReached(
                    "You can invite a partner again in {seconds} s.",
                    seconds=math.ceil(INVITE_COOLDOWN - (now - last.created_at)),
                )
            row = InvitationRow(event_id, user_id, name, partner_id, partner_name, "pending", now)
            async with self.store.transaction() as tx:
                await TournamentRepo(tx.db).invite(row)
        return row

    async def answer_partner(
        self, event_id: int, user_id: int, accept: bool, inviter: int | None = None
    ) -> EntryRow | None:
        """The invited partner accepts (the pair enters; returns its entry) or declines
        ``inviter``'s invitation (his newest waiting one if None)."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            if not event.is_open:
                raise WrongStatus("This tournament is over.")
            waiting = [
                i for i in await self.repo.pending_to(event_id, user_id)
                if inviter is None or i.inviter_id == inviter
            ]
            if not waiting:
                raise NotInvited("No pair is waiting for your answer in this tournament.")
            asked = waiting[0]
            if not accept:
                async with self.store.transaction() as tx:
                    await TournamentRepo(tx.db).answer_invitation(
                        event_id, asked.inviter_id, user_id, "declined"
                    )
                return None
            await self._check_entry(event, user_id)
            mate = await self.repo.entry_of(event_id, asked.inviter_id)
            if mate is not None:
                raise AlreadySeated(
                    "{name} is already registered in this tournament.", name=asked.inviter_name
                )
            entry = await self._enter(
                event, asked.inviter_id, asked.inviter_name, (user_id, asked.partner_name),
                answered=asked,
            )
        self._changed(event_id)
        return entry

    async def _check_entry(self, event: EventRow, user_id: int) -> None:
        """Raise why ``user_id`` may not enter ``event`` now (not why his partner may not)."""
        if event.status not in ("registration", "running", "paused"):
            raise WrongStatus("This tournament is over.")
        if event.status != "registration":
            if event.system == "knockout":
                raise WrongStatus("Registration is closed: the knockout has begun.")
            rounds_started = len(
                [r for r in await self.repo.rounds(event.id) if r.status != "checkin"]
            )
            total = event.rounds or rounds_started + 1
            if not model.late_entry_open(rounds_started, total):
                raise WrongStatus("Registration is closed: half the rounds have begun.")
        mine = await self.repo.entry_of(event.id, user_id)
        if mine is not None and mine.status != "withdrawn":
            raise AlreadySeated("You are already registered in this tournament.")
        if mine is not None:
            raise WrongStatus("You withdrew from this tournament; you cannot enter again.")

    async def _check_room(self, event: EventRow) -> None:
        if await self.repo.count_entries(event.id) >= event.max_entrants:
            raise TableFull(
                "The tournament is full ({count} entrants).", count=event.max_entrants
            )

    async def _enter(
        self,
        event: EventRow,
        user_id: int,
        name: str,
        partner: tuple[int, str] | None,
        *,
        answered: InvitationRow | None = None,
    ) -> EntryRow:
        """Write the entry (and mark the invitation it answers accepted)."""
        await self._check_room(event)
        people = [user_id] if partner is None else [user_id, partner[0]]
        ratings = await self._ratings(people, event.variant)
        rating = sum(ratings.get(u, 1000.0) for u in people) / len(people)
        joined = 1
        if event.status != "registration":
            current = event.round
            row = next((r for r in await self.repo.rounds(event.id) if r.number == current), None)
            joined = current if row is not None and row.status == "checkin" else current + 1
        entry = EntryRow(
            tournament_id=event.id,
            entry=0,
            user_id=user_id,
            name=name,
            partner_id=None if partner is None else partner[0],
            partner_name=None if partner is None else partner[1],
            status="active",
            joined_round=max(joined, 1),
            rating=rating,
            missed=0,
            created_at=self.clock(),
        )
        try:
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                entry = await repo.add_entry(entry)
                if answered is not None:
                    await repo.answer_invitation(
                        event.id, answered.inviter_id, answered.partner_id, "accepted"
                    )
        except IntegrityError:
            raise AlreadySeated("You are already registered in this tournament.") from None
        return entry

    async def withdraw(self, event_id: int, user_id: int) -> EntryRow:
        """``user_id`` (or his pair) leaves the event: not paired again; a table he sits at
        now is played to its end (the usual time-outs play for someone who left it)."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            if not event.is_open:
                raise WrongStatus("This tournament is over: there is nothing to withdraw from.")
            entry = await self.repo.entry_of(event_id, user_id)
            if entry is None:
                raise NotSeated("You are not registered in this tournament.")
            if entry.status == "withdrawn":
                raise WrongStatus("You have already withdrawn from this tournament.")
            await self.repo.withdraw_entry(event, entry)
            entry = dataclasses.replace(entry, status="withdrawn")
        self._changed(event_id)
        return entry

    async def check_in(self, event_id: int, user_id: int) -> EntryRow:
        """``user_id`` will play the round whose check-in is open."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            if event.status not in ("running", "paused"):
                raise WrongStatus("The check-in is not open.")
            row = next(
                (r for r in await self.repo.rounds(event_id) if r.number == event.round), None
            )
            if row is None or row.status != "checkin":
                raise WrongStatus("The check-in is not open.")
            entry = await self.repo.entry_of(event_id, user_id)
            if entry is None or entry.status == "withdrawn":
                raise NotSeated("You are not registered in this tournament.")
            if entry.status == "invited":
                raise NotInvited("Your partner has not confirmed your pair yet.")
            if entry.joined_round > event.round:
                raise WrongStatus(
                    "You entered late: your first round is round {round}.",
                    round=entry.joined_round,
                )
            seeds = event.playoff_seeds or []
            if event.playoff and 0 < event.rounds < event.round and entry.entry not in seeds:
                raise WrongStatus(
                    "Round {round} is the playoff of the top {count}: you are not in it.",
                    round=event.round,
                    count=event.playoff,
                )
            bracket_round = (event.system == "knockout" and event.round > 1) or (
                event.playoff and 0 < event.rounds < event.round - 1
            )
            if bracket_round and (await self.state(event_id)).knocked_out(entry.entry):
                raise WrongStatus("You are out of this knockout.")
            fresh = await self.repo.check_in(
                event_id, event.round, "checkin", user_id, self.clock()
            )
            if not fresh:
                raise AlreadySeated(
                    "You are already checked in for round {round}.", round=event.round
                )
        self._changed(event_id)
        return entry

    async def here(self, event_id: int, round_: int, user_id: int) -> BoardRow:
        """``user_id`` clicked in at his table of round ``round_``."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            if event.round != round_ or event.status not in ("running", "paused"):
                raise WrongStatus("This round is over.")
            board = next(
                (
                    b
                    for b in await self.repo.boards(event_id, round_)
                    if user_id in b.people and not b.is_bye
                ),
                None,
            )
            if board is None:
                raise NotSeated("You have no table in this round.")
            if board.status != "playing":
                raise WrongStatus("Your table of this round is over.")
            fresh = await self.repo.check_in(event_id, round_, "present", user_id, self.clock())
            if not fresh:
                raise AlreadySeated("You have already clicked in at your table.")
        self._changed(event_id)
        return board

    # -- the host ----------------------------------------------------------------------------

    def _check_host(self, event: EventRow, user_id: int, manager: bool) -> None:
        if not manager and user_id != event.host_id:
            raise NotHost(
                "Only the tournament's host or an organiser (Manage Server, or the organiser"
                " role) may do that."
            )

    async def start(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """The host starts the event: the first round's check-in opens now."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "registration":
                raise WrongStatus("This tournament has already started.")
            entries = [e for e in await self.repo.entries(event_id) if e.status == "active"]
            need = 2
            if event.format == "individual" and event.fill == "bye" and event.system == "swiss":
                need = 4
            if len(entries) < need:
                raise WrongStatus(
                    "A tournament needs at least {count} entrants to start.", count=need
                )
            await self._open_checkin(event, 1)
        self._changed(event_id)
        return await self.get(event_id)

    async def pause(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """Hold the event's clock (tables being played go on)."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "running":
                raise WrongStatus("Only a running tournament can be paused.")
            now = self.clock()
            timers = [t for t in await self.repo.timers(event_id) if t.kind != PUBLISH]
            left = [[t.kind, max(0.0, t.due_at - now), t.seq] for t in timers]
            held = [t.kind for t in timers]
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.clear_timers(event_id, held)
                await repo.update(event_id, now=now, status="paused", paused_left=left)
            self.scheduler.clear(-event_id, held)
        self._changed(event_id)
        return await self.get(event_id)

    async def resume(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        async with self._lock(event_id):
            event = await self.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status != "paused":
                raise WrongStatus("This tournament is not paused.")
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await self._set_timers(
                    tx,
                    event_id,
                    *((k, now + left, seq) for k, left, seq in event.paused_left or []),
                )
                await repo.update(event_id, now=now, status="running", paused_left=None)
            self._time(event_id, await self.repo.timers(event_id))
        await self.settle(event_id)
        self._changed(event_id)
        return await self.get(event_id)

    async def cancel(self, event_id: int, user_id: int, *, manager: bool = False) -> EventRow:
        """The host calls the event off; its running tables are cancelled."""
        async with self._lock(event_id):
            event = await self.get(event_id)
            self._check_host(event, user_id, manager)
            if not event.is_open:
                raise WrongStatus("This tournament is over.")
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.clear_timers(event_id)
                await repo.update(event_id, now=now, status="cancelled")
            self.scheduler.clear(-event_id)
            for b in await self.repo.boards(event_id, event.round):
                if b.status == "playing" and b.table_id is not None:
                    await self._stop_table(b.table_id, "cancelled")
        self._changed(event_id)
        return await self.get(event_id)

    async def correct(
        self,
        event_id: int,
        user_id: int,
        *,
        round_: int,
        board: int,
        points: tuple[int, int],
        reason: str,
        manager: bool = False,
    ) -> BoardRow:
        """The host changes a scored table's points (logged with the reason); a knockout
        round's once the next round began no more (who went through plays it)."""
        reason = " ".join(reason.split())
        async with self._lock(event_id):
            event = await self.get(event_id)
            self._check_host(event, user_id, manager)
            if event.status == "cancelled":
                raise WrongStatus("This tournament was cancelled.")
            if not reason:
                raise InvalidOptions("Say why the result is corrected.")
            if min(points) < 0 or max(points) > 100_000:
                raise InvalidOptions("Points are between 0 and 100000.")
            found = next(
                (b for b in await self.repo.boards(event_id, round_) if b.board == board), None
            )
            if found is None or found.is_bye:
                raise TableNotFound(
                    "Round {round} has no table {board}.", round=round_, board=board
                )
            if found.status != "done" or found.points is None:
                raise WrongStatus("That table is still being played.")
            bracket = event.system == "knockout" or bool(
                event.playoff and event.rounds and round_ > event.rounds
            )
            if bracket and event.round > round_:
                raise WrongStatus(
                    "Round {round} of the bracket is settled: who went through plays round"
                    " {next} already.",
                    round=round_,
                    next=round_ + 1,
                )
            now = self.clock()
            async with self.store.transaction() as tx:
                repo = TournamentRepo(tx.db)
                await repo.add_correction(
                    event_id,
                    round_,
                    board,
                    user_id,
                    reason[:300],
                    list(found.points),
                    list(points),
                    now,
                )
                await repo.set_board(event_id, round_, board, points=points, how="corrected")
            found = dataclasses.replace(found, points=points, how="corrected")
        self._changed(event_id)
        return found

    # -- the steps of a round ----------------------------------------------------------------

    async def _open_checkin(self, event: EventRow, number: int) -> None:
        """Round ``number``'s check-in opens; it starts ``checkin_before`` seconds later."""
        now = self.clock()
        rounds = event.rounds
        if number == 1 and (not rounds or event.system == "knockout"):
            active = [e for e in await self.repo.entries(event.id) if e.status == "active"]
            if event.system == "knockout" and event.format == "individual":
                rounds = model.people_rounds(len(active))
            elif event.system == "knockout":  # the bracket's rounds
                rounds = max(1, math.ceil(math.log2(max(len(active), 2))))
            else:
                rounds = model.default_rounds(len(active))
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            await repo.put_round(RoundRow(event.id, number, "checkin", None, None))
            await repo.update(event.id, now=now, status="running", round=number, rounds=rounds)
            await repo.clear_timers(event.id, ("t.checkin",))
            start = event.start_at if number == 1 and event.start_at else now + self.checkin_before
            await self._set_timers(tx, event.id, ("t.start", max(start, now), number))
        self._time(event.id, await self.repo.timers(event.id))

    async def _on_checkin(self, d: DeadlineRow) -> None:
        """The check-in of round ``d.seq`` opens (the first at the start time; a later one
        that waited for a paused event to resume)."""
        event_id = -d.table_id
        async with self._lock(event_id):
            event = await self.repo.get(event_id)
            if event is None:
                return
            if event.status == "registration" and d.seq == 1:
                entries = [e for e in await self.repo.entries(event_id) if e.status == "active"]
                if len(entries) < 2:
                    await self._finish(event, "cancelled")
                else:
                    await self._open_checkin(event, 1)
            elif event.status == "running" and event.round == d.seq - 1:
                row = next(
                    (r for r in await self.repo.rounds(event_id) if r.number == event.round), None
                )
                if row is not None and row.status == "done":
                    await self._open_checkin(event, d.seq)
            else:
                return
        self._changed(event_id)

    async def _on_start(self, d: DeadlineRow) -> None:
        event_id = -d.table_id
        async with self._lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status != "running":
                return
            if event.round == 0 and d.seq == 1:  # a start time with no check-in yet
                await self._open_checkin(event, 1)
                event = await self.get(event_id)
            if event.round != d.seq:
                return
            row = next((r for r in await self.repo.rounds(event_id) if r.number == d.seq), None)
            if row is None or row.status != "checkin":
                return
            await self._pair(event, d.seq)
        await self.settle(event_id)
        self._changed(event_id)

    async def _pair(self, event: EventRow, number: int) -> None:
        """Pair the checked-in entrants of round ``number`` and start it (tables open in
        :meth:`settle`). Entrants who did not check in miss the round."""
        state = await self.state(event.id)
        now = self.clock()
        checked = state.checked_in
        present: set[int] = set()
        missed: list[EntryRow] = []
        for e in state.active():
            if e.joined_round > number:
                continue
            if any(u in checked for u in e.members):
                present.add(e.entry)
            else:
                missed.append(e)
        pairing: Pairing | None = None
        if event.system == "swiss" and not state.in_playoff(number) and len(present) >= 2:
            pairing = pair_swiss(
                event.format,  # type: ignore[arg-type]
                state.entrants(),
                state.results(),
                number,
                event.id * 1009 + number,
                present=present,
                fill=event.fill,  # type: ignore[arg-type]
            )
            if pairing is None and event.playoff and number > 1:
                # No legal Swiss pairing remains: the playoff begins with this round.
                cut = dataclasses.replace(event, rounds=number - 1)
                seeds = dataclasses.replace(state, event=cut).playoff_seeds()
                if len(seeds) >= 2:
                    await self.repo.update(
                        event.id, now=now, rounds=number - 1, playoff_seeds=seeds
                    )
                    state = await self.state(event.id)
                    missed = []
        playoff = state.in_playoff(number) and bool(state.event.playoff_seeds)
        if event.system == "knockout" or playoff:
            missed = []  # a knockout's walkover is the whole penalty
            # Who did not check in loses his table by walkover (the bracket's rule for a
            # withdrawn entrant).
            entrants = [
                dataclasses.replace(e, withdrawn=e.withdrawn or e.id not in present)
                for e in state.entrants()
            ]
            pairing = knockout(
                event.format,  # type: ignore[arg-type]
                entrants,
                state.results(),
                number,
                seeds=state.playoff_seeds() if playoff else bracket_seeding(state.entrants()),
                first_round=state.event.rounds + 1 if playoff else 1,
            )
        rounds: dict[str, int] = {}
        if event.system == "knockout" and event.format == "individual" and pairing is not None:
            # Who did not come shrinks the field: the rounds left follow from who is in.
            rounds["rounds"] = number - 1 + model.people_rounds(len(pairing.entrants()))
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            if rounds:
                await repo.update(event.id, now=now, **rounds)
            for e in missed:
                out = e.missed + 1 >= MISSED_LIMIT
                await repo.set_entry(
                    event.id,
                    e.entry,
                    missed=e.missed + 1,
                    **({"status": "withdrawn"} if out else {}),
                )
            if pairing is None:
                await repo.put_round(RoundRow(event.id, number, "done", now, now))
            else:
                boards = self._boards(state, pairing)
                await repo.put_boards(boards)
                ends = now + event.time_limit
                await repo.put_round(RoundRow(event.id, number, "playing", now, ends))
                await self._set_timers(
                    tx, event.id, ("t.grace", now + event.grace, number), ("t.limit", ends, number)
                )
        if pairing is None:
            await self._finish(await self.get(event.id), "finished")
            return
        self._time(event.id, await self.repo.timers(event.id))

    def _boards(self, state: EventState, pairing: Pairing) -> list[BoardRow]:
        """The boards of a pairing: who sits at each seat group, then the byes."""
        ruleset = state.ruleset
        out: list[BoardRow] = []
        groups = _seat_groups(ruleset)
        for table in pairing.tables:
            seats: list[int | None] = []
            people: list[int | None] = []
            for side, position in groups:
                members = _side_people(state, table.sides[side])
                entry, user = members[position] if position < len(members) else (None, None)
                seats.append(entry)
                people.append(user)
            out.append(
                BoardRow(
                    tournament_id=state.id,
                    round=pairing.round,
                    board=table.number,
                    seats=tuple(seats),
                    sides=(tuple(table.sides[0]), tuple(table.sides[1])),
                    people=tuple(people),
                    table_id=None,
                    status="waiting",
                    last_hand=False,
                    points=None,
                    how=None,
                )
            )
        first_bye = len(pairing.tables) + 1
        for i, entrant in enumerate(pairing.byes):
            out.append(
                BoardRow(
                    tournament_id=state.id,
                    round=pairing.round,
                    board=first_bye + i,
                    seats=(),
                    sides=((entrant,),),
                    people=(),
                    table_id=None,
                    status="done",
                    last_hand=False,
                    points=(0,),
                    how="bye",
                )
            )
        return out

    async def _on_grace(self, d: DeadlineRow) -> None:
        """The grace is over: a seated person who has not clicked in is replaced by a computer
        (individual) or his side forfeits (pairs, one against one)."""
        event_id = -d.table_id
        async with self._lock(event_id):
            state = await self.state(event_id)
            event = state.event
            if event.status != "running" or event.round != d.seq:
                return
            for b in state.boards_of(d.seq):
                if b.status != "playing" or b.table_id is None:
                    continue
                acted = await self._acted(b.table_id)
                absent = [
                    i
                    for i, user in enumerate(b.people)
                    if user is not None and user not in state.present and user not in acted
                ]
                if not absent:
                    continue
                # The board's mark and the missed round are written together, once: a grace
                # run again after a kill finds the mark and counts nothing twice.
                if event.format == "individual":
                    gone = tuple(b.seats[i] for i in absent if b.seats[i] is not None)
                    how = "absent:" + ",".join(str(e) for e in gone)
                    if b.how != how:
                        async with self.store.transaction() as tx:
                            repo = TournamentRepo(tx.db)
                            await repo.set_board(event_id, d.seq, b.board, how=how)
                            await self._note_missed(repo, event_id, gone)
                    await self._take_over(dataclasses.replace(b, how=how))
                    continue
                ruleset = state.ruleset
                groups = _seat_groups(ruleset)
                sides = sorted({groups[i][0] for i in absent})
                gone = tuple(e for s in sides for e in b.sides[s] if e is not None)
                async with self.store.transaction() as tx:
                    repo = TournamentRepo(tx.db)
                    forfeited = await repo.set_board(
                        event_id,
                        d.seq,
                        b.board,
                        status="done",
                        points=(0, 0),
                        how="forfeit:" + "".join(str(s) for s in sides),
                        status_was="playing",
                    )
                    if forfeited:
                        await self._note_missed(repo, event_id, gone)
                await self._stop_table(b.table_id, FORFEIT)
        await self.settle(event_id)
        self._changed(event_id)

    async def _take_over(self, board: BoardRow) -> None:
        """A computer plays the seats of the board's absent individuals (again after a
        restart: taking a seat taken already changes nothing)."""
        absent = set(_absent(board))
        if not absent or board.table_id is None:
            return
        for entry, user in zip(board.seats, board.people, strict=True):
            if entry in absent and user is not None:
                await self.tables.take_over(board.table_id, user)

    @staticmethod
    async def _note_missed(repo: TournamentRepo, event_id: int, entries: Sequence[int]) -> None:
        """One more missed round for each of ``entries`` (withdrawn at the limit)."""
        for number in set(entries):
            entry = next((e for e in await repo.entries(event_id) if e.entry == number), None)
            if entry is None:
                continue
            out = entry.missed + 1 >= MISSED_LIMIT and entry.status == "active"
            await repo.set_entry(
                event_id,
                number,
                missed=entry.missed + 1,
                **({"status": "withdrawn"} if out else {}),
            )

    async def _acted(self, table_id: int) -> set[int]:
        """People who made a move themselves at the table."""
        info = await self.tables.get(table_id)
        rows = await self.store.actions.list(table_id)
        seats = {r.seat for r in rows if r.made_by in (None, "player")}
        return {
            s.user_id
            for s in info.seats
            if s is not None and s.user_id is not None and s.seat in seats
        }

    async def _on_limit(self, d: DeadlineRow) -> None:
        """The round's time is up: each table still playing finishes its hand in play."""
        event_id = -d.table_id
        async with self._lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status not in ("running", "paused") or event.round != d.seq:
                return
            for b in await self.repo.boards(event_id, d.seq):
                if b.status == "playing" and not b.last_hand:
                    await self.repo.set_board(event_id, d.seq, b.board, last_hand=True)
        await self.settle(event_id)
        self._changed(event_id)

    # -- settling: reading the tables back ---------------------------------------------------

    async def settle(self, event_id: int) -> None:
        """Bring the event up to date with its tables: open the current round's tables not yet
        opened, score those that ended (or whose time is up between hands), and when the round
        is complete open the next one or end the event. Safe to run at any time, again."""
        async with self._lock(event_id):
            event = await self.repo.get(event_id)
            if event is None or event.status not in ("running", "paused"):
                return
            changed = False
            state = await self.state(event_id)
            row = state.round_row(event.round)
            if row is None or row.status == "checkin":
                return
            done = row.status == "done"  # (after a kill right after the round: go on)
            if row.status == "playing":
                changed, done = await self._read_round(state, row)
            if done:
                changed |= await self._next_step(await self.get(event_id))
        if changed:
            self._changed(event_id)

    async def _next_step(self, event: EventRow) -> bool:
        """After a round is done: the event ends, the next check-in opens, or (paused) it
        waits for Resume. Returns whether anything changed."""
        if await self._over(event):
            await self._finish(event, "finished")
        elif event.status == "running":
            await self._open_checkin(event, event.round + 1)
        elif event.paused_left != (wanted := [["t.checkin", 0.0, event.round + 1]]):
            await self.repo.update(event.id, now=self.clock(), paused_left=wanted)
        else:
            return False
        return True

    async def _read_round(self, state: EventState, row: RoundRow) -> tuple[bool, bool]:
        """Open the round's waiting tables and score those that ended: (whether a board
        changed, whether every board is done: the round is then marked done and its grace and
        time limit dropped)."""
        event = state.event
        changed = False
        for b in state.boards_of(row.number):
            if b.status == "waiting":
                await self._open_board(state, b)
                changed = True
            elif b.status == "playing" and b.table_id is not None:
                await self._take_over(b)
                changed |= await self._read_board(event, b)
            elif b.status == "done" and b.table_id is not None and (b.how or "").startswith(
                "forfeit"
            ):
                await self._stop_table(b.table_id, FORFEIT)
        boards = await self.repo.boards(event.id, row.number)
        if not all(b.status == "done" for b in boards):
            return changed, False
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            await repo.put_round(dataclasses.replace(row, status="done"))
            await repo.clear_timers(event.id, ("t.grace", "t.limit"))
        self.scheduler.clear(-event.id, ("t.grace", "t.limit"))
        return True, True

    async def _over(self, event: EventRow) -> bool:
        """Whether the event ends with its current round: its last Swiss round (no playoff),
        a knockout's last round, or a playoff with its champion. The last Swiss round of an
        event with a playoff seeds the playoff (too few entrants left: the event ends)."""
        if event.system == "knockout" and event.format == "individual":
            tree = (await self.state(event.id)).bracket()
            return tree is None or tree.complete or event.round >= event.rounds
        if event.system == "knockout" or not event.playoff:
            return event.round >= event.rounds
        if event.round < event.rounds:
            return False
        state = await self.state(event.id)
        if event.round == event.rounds:
            return not await self._seed_playoff(state)
        tree = state.bracket()
        return tree is None or tree.complete

    async def _seed_playoff(self, state: EventState) -> bool:
        """Store the playoff's seeds (the Swiss standings' top places of those still in);
        False if fewer than two are left to play it."""
        seeds = state.playoff_seeds()
        if len(seeds) < 2:
            return False
        await self.repo.update(state.id, now=self.clock(), playoff_seeds=seeds)
        return True

    async def _open_board(self, state: EventState, board: BoardRow) -> None:
        event = state.event
        people: list[tuple[int, str] | None] = []
        for entry_no, user in zip(board.seats, board.people, strict=True):
            entry = state.entry(entry_no)
            if entry is None or user is None:
                people.append(None)
                continue
            name = entry.name if user == entry.user_id else entry.partner_name or ""
            people.append((user, name))

        async def within(tx: Transaction, table_id: int) -> None:
            await TournamentRepo(tx.db).set_board(
                event.id,
                board.round,
                board.board,
                table_id=table_id,
                status="playing",
                status_was="waiting",
            )

        options = dict(event.options)
        options["tournament"] = event.id
        await self.tables.open_seated(
            host_id=event.host_id,
            ruleset=state.ruleset,
            options=options,
            people=people,
            guild_id=event.guild_id,
            channel_id=event.channel_id,
            turn_timer=self.turn_timer,
            locale=event.locale,
            within=within,
            public_place=event.public_place,
        )

    async def _read_board(self, event: EventRow, board: BoardRow) -> bool:
        """Score a board whose table ended, or whose time is up between two hands."""
        assert board.table_id is not None
        info = await self.tables.get(board.table_id)
        if info.status == "running":
            if not board.last_hand or not _between_hands(info):
                return False
            await self._stop_table(board.table_id, TIME_UP)
            info = await self.tables.get(board.table_id)
        view = info.public_view()
        scores = tuple(view.scores) if view is not None else (0, 0)
        outcome = view.outcome if view is not None else None
        how = board.how if board.how and board.how.startswith("absent:") else None
        kind = "played" if info.status == "finished" else "time"
        if outcome is not None and outcome.reason == "resign" and outcome.winner_side is not None:
            kind = f"forfeit:{1 - outcome.winner_side}"
        how = kind if how is None else f"{kind};{how}"
        done = await self.repo.set_board(
            event.id,
            board.round,
            board.board,
            status="done",
            points=scores[:2],
            how=how,
            status_was="playing",
        )
        return done > 0

    async def _stop_table(self, table_id: int, reason: str) -> None:
        try:
            info = await self.tables.get(table_id)
            if info.status in ("lobby", "running"):
                await self.tables.cancel(table_id, info.host_id, force=True, reason=reason)
        except (WrongStatus, TableNotFound) as exc:
            log.info("table %s not stopped: %s", table_id, exc)
        except Exception as exc:  # a table of another process, or closed meanwhile
            if type(exc).__name__ != "TableFinished":
                raise

    async def _finish(self, event: EventRow, status: str) -> None:
        """The event ends (``finished`` or ``cancelled``); a finished one's final places are
        stored and its podium achievements awarded in the same transaction."""
        now = self.clock()
        places: list[PlaceRow] = []
        if status == "finished":
            state = await self.state(event.id)
            for place, entrant in state.places():
                entry = state.entry(entrant)
                for user in entry.members if entry is not None else ():
                    places.append(PlaceRow(event.id, user, entrant, event.guild_id, place, now))
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            await repo.clear_timers(event.id)
            await repo.update(event.id, now=now, status=status)
            await repo.put_places(places)
            await AchievementRepo(tx.db).award(podium_awards(places))
        self.scheduler.clear(-event.id)

    # -- the table observer ------------------------------------------------------------------

    async def on_match_ended(self, table: TableInfo, outcome: Outcome) -> None:
        await self._table_closed(table)

    async def on_table_cancelled(self, table: TableInfo) -> None:
        await self._table_closed(table)

    async def on_hand_ended(self, table: TableInfo, result: HandResult) -> None:
        event_id = table.table.options.get("tournament")
        if isinstance(event_id, int):
            board = await self.repo.board_of_table(table.id)
            if board is not None and board.last_hand:
                await self.settle(event_id)

    async def _table_closed(self, table: TableInfo) -> None:
        event_id = table.table.options.get("tournament")
        if isinstance(event_id, int):
            await self.settle(event_id)

    # -- the clock and recovery --------------------------------------------------------------

    async def _set_timers(
        self, tx: Transaction, event_id: int, *timers: tuple[str, float, int]
    ) -> None:
        repo = TournamentRepo(tx.db)
        for kind, due, seq in timers:
            await repo.set_timer(TimerRow(event_id, kind, due, seq))

    def _time(self, event_id: int, timers: Sequence[TimerRow]) -> None:
        """Hand the clock the event's stored deadlines."""
        guild = self._guilds.get(event_id)
        if guild is not None and not self.owns(guild):
            return
        self.scheduler.clear(-event_id)
        for t in timers:
            self.scheduler.set(DeadlineRow(-event_id, t.kind, t.due_at, t.seq))

    async def load(self) -> list[int]:
        """After a (re)start or taking a shard over: time every open event this process owns
        and settle it (tables that ended meanwhile are scored, the round goes on)."""
        loaded: list[int] = []
        timers = await self.repo.timers()
        for event in await self.repo.open_events():
            if not self.owns(event.guild_id):
                continue
            self._guilds[event.id] = event.guild_id
            self._time(event.id, [t for t in timers if t.tournament_id == event.id])
            loaded.append(event.id)
        for t in timers:  # an ended event whose last posts wait to be published again
            if t.kind == PUBLISH and t.tournament_id not in self._guilds:
                event = await self.repo.get(t.tournament_id)
                if event is not None and self.owns(event.guild_id):
                    self._guilds[event.id] = event.guild_id
                    self.scheduler.set(DeadlineRow(-event.id, t.kind, t.due_at, t.seq))
        for event_id in loaded:
            try:
                await self.settle(event_id)
            except Exception:
                log.exception("tournament %s could not be settled", event_id)
        return loaded

    def release_unowned(self) -> list[int]:
        """Stop timing the events whose server another process runs now."""
        gone = [e for e, g in self._guilds.items() if not self.owns(g)]
        for event_id in gone:
            self.scheduler.clear(-event_id)
            del self._guilds[event_id]
        return gone


def _seat_groups(ruleset: Ruleset) -> list[tuple[int, int]]:
    """Per seat group of a table: (the side it plays for, its place among its side's groups)."""
    out: list[tuple[int, int]] = []
    seen: dict[int, int] = {}
    for group in seat_groups(ruleset):
        side = ruleset.side_of(group[0])
        out.append((side, seen.get(side, 0)))
        seen[side] = seen.get(side, 0) + 1
    return out


def _side_people(
    state: EventState, side: Sequence[int | None]
) -> list[tuple[int | None, int | None]]:
    """(entry, person) for each seat of a side: a pair's two members, or each entrant's one
    person (None, None for a computer seat)."""
    out: list[tuple[int | None, int | None]] = []
    for number in side:
        entry = state.entry(number)
        if entry is None:
            out.append((None, None))
            continue
        out.extend((entry.entry, user) for user in entry.members)
    return out


def _between_hands(info: TableInfo) -> bool:
    """True if no hand is in play: the last one ended and the next has no move yet."""
    view = info.public_view()
    if view is None or view.outcome is not None:
        return True
    return bool(view.hand_results) and not any(e.kind != "start" for e in view.events)
