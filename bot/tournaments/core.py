"""What the parts of the tournament service share: the constants, an event's state as the
Discord layer reads it, and the context (the store, the clock, the locks, the listeners)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.errors import TableNotFound
from bot.records.record import FAMILIES
from bot.store import DeadlineRow, Store, Transaction
from bot.tables.clock import Clock
from bot.tables.service import TableService, seat_groups
from bot.tournaments.arena import ArenaLine
from bot.tournaments.arena import standings as arena_standings
from bot.tournaments.bracket import bracket
from bot.tournaments.bracket import seeding as bracket_seeding
from bot.tournaments.model import Bracket, Bye, Entrant, Result, Standing, TableResult
from bot.tournaments.standings import standings as rank
from bot.tournaments.store import BoardRow, EntryRow, EventRow, RoundRow, TimerRow, TournamentRepo
from domino import Ruleset, preset

log = logging.getLogger(__name__)

CHECKIN_BEFORE = 600.0  # the check-in opens this many seconds before a round
PUBLISH = "t.publish"  # publish the event's posts again (after Discord failed, or a moment)
KINDS = ("t.checkin", "t.start", "t.grace", "t.limit", PUBLISH)
TIME_UP = "time"  # closed_reason of a table stopped by the round's time limit
FORFEIT = "forfeit"  # closed_reason of a table whose pair did not show up


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
                    absent=absentees(b),
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
        bracket's, not the Swiss standings'. An arena's: its score in the match points' place."""
        if self.event.system == "arena":
            return [arena_standing(line) for line in self.arena_lines()]
        if self.event.playoff and self.event.rounds:
            upto = self.event.rounds if upto is None else min(upto, self.event.rounds)
        return rank(self.event.format, self.entrants(), self.results(upto))  # type: ignore[arg-type]

    def arena_lines(self) -> list[ArenaLine]:
        """An arena's standings: score (with streaks), performance, rating."""
        tables = [r for r in self.results() if isinstance(r, TableResult)]
        return arena_standings(self.entrants(), tables)

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

    def called(self, number: int) -> list[int]:
        """The people round ``number``'s check-in concerns: the members of the active entries
        that may play it (entered by then, in the playoff when it is one, not knocked out)."""
        event = self.event
        seeds = set(self.playoff_seeds()) if self.in_playoff(number) else None
        bracket_round = (event.system == "knockout" and number > 1) or (
            bool(event.playoff) and 0 < event.rounds < number - 1
        )
        return sorted(
            u
            for e in self.active()
            if e.joined_round <= number
            and (seeds is None or e.entry in seeds)
            and not (bracket_round and self.knocked_out(e.entry))
            for u in e.members
            if u > 0
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


def arena_standing(line: ArenaLine) -> Standing:
    """An arena's line as a standings line (its score in the match points' place)."""
    return Standing(
        rank=line.rank,
        entrant=line.entrant,
        match_points=line.score,
        played=line.games,
        wins=line.wins,
        draws=line.draws,
        losses=line.losses,
        byes=0,
        points_for=0,
        points_against=0,
        buchholz=line.performance,
        rating=line.rating,
        withdrawn=line.withdrawn,
    )


def absentees(board: BoardRow) -> tuple[int, ...]:
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


def seat_group_sides(ruleset: Ruleset) -> list[tuple[int, int]]:
    """Per seat group of a table: (the side it plays for, its place among its side's groups)."""
    out: list[tuple[int, int]] = []
    seen: dict[int, int] = {}
    for group in seat_groups(ruleset):
        side = ruleset.side_of(group[0])
        out.append((side, seen.get(side, 0)))
        seen[side] = seen.get(side, 0) + 1
    return out


Listener = Callable[[int], object]


@dataclass(frozen=True, slots=True)
class Context:
    """The state every part of the tournament service works on, and the internals they share."""

    store: Store
    tables: TableService
    clock: Callable[[], float]
    limits: TourLimits
    checkin_before: float
    owns: Callable[[int | None], bool]
    turn_timer: int
    repo: TournamentRepo
    scheduler: Clock
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    listeners: list[Listener] = field(default_factory=list)
    guilds: dict[int, int] = field(default_factory=dict)  # event -> server, of the events run here

    def changed(self, event_id: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(event_id)
            except Exception:
                log.exception("tournament listener failed for event %s", event_id)

    def lock(self, event_id: int) -> asyncio.Lock:
        return self.locks.setdefault(event_id, asyncio.Lock())

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

    async def set_timers(
        self, tx: Transaction, event_id: int, *timers: tuple[str, float, int]
    ) -> None:
        repo = TournamentRepo(tx.db)
        for kind, due, seq in timers:
            await repo.set_timer(TimerRow(event_id, kind, due, seq))

    def time(self, event_id: int, timers: Sequence[TimerRow]) -> None:
        """Hand the clock the event's stored deadlines."""
        guild = self.guilds.get(event_id)
        if guild is not None and not self.owns(guild):
            return
        self.scheduler.clear(-event_id)
        for t in timers:
            self.scheduler.set(DeadlineRow(-event_id, t.kind, t.due_at, t.seq))


class Part:
    """A part of the tournament service: it works on the shared :class:`Context`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.repo = ctx.repo
        self.tables = ctx.tables
        self.scheduler = ctx.scheduler
        self.clock = ctx.clock
        self.owns = ctx.owns

    async def open_board_table(
        self,
        state: EventState,
        board: BoardRow,
        within: Callable[[Transaction, int], Awaitable[None]],
    ) -> None:
        """Open a board's table for its entrants (each person under his entry's name), with
        ``within`` writing the board's rows in the table's own transaction."""
        event = state.event
        people: list[tuple[int, str] | None] = []
        for entry_no, user in zip(board.seats, board.people, strict=True):
            entry = state.entry(entry_no)
            if entry is None or user is None:
                people.append(None)
                continue
            people.append((user, entry.name if user == entry.user_id else entry.partner_name or ""))
        options = dict(event.options)
        options["tournament"] = event.id
        await self.tables.open_seated(
            host_id=event.host_id,
            ruleset=state.ruleset,
            options=options,
            people=people,
            guild_id=event.guild_id,
            channel_id=event.channel_id,
            turn_timer=self.ctx.turn_timer,
            first_turn=event.grace,
            locale=event.locale,
            within=within,
            public_place=event.public_place,
        )
