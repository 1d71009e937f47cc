"""The steps of a round: its check-in opens, the checked-in entrants are paired and the boards
written, a computer takes an absent individual's seats, a table is stopped; and the event's end."""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Sequence

from bot.achievements.service import podium_awards
from bot.achievements.store import AchievementRepo
from bot.errors import TableNotFound, WrongStatus
from bot.tournaments import model
from bot.tournaments.bracket import knockout
from bot.tournaments.bracket import seeding as bracket_seeding
from bot.tournaments.core import EventState, Part, absentees, seat_group_sides
from bot.tournaments.model import Pairing
from bot.tournaments.pairing import pair_swiss
from bot.tournaments.store import BoardRow, EntryRow, EventRow, PlaceRow, RoundRow, TournamentRepo

log = logging.getLogger(__name__)

MISSED_LIMIT = 2  # rounds missed before an entrant is withdrawn


class Rounds(Part):
    """Moves an event from one step to the next."""

    async def open_checkin(self, event: EventRow, number: int) -> None:
        """Round ``number``'s check-in opens; it starts ``checkin_before`` seconds later (an
        event without check-in: at once, or round 1 at its start time)."""
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
            wait = self.ctx.checkin_before if event.checkin else 0.0
            start = event.start_at if number == 1 and event.start_at else now + wait
            await self.ctx.set_timers(tx, event.id, ("t.start", max(start, now), number))
        self.ctx.time(event.id, await self.repo.timers(event.id))

    async def pair(self, event: EventRow, number: int) -> None:
        """Pair the checked-in entrants of round ``number`` (every entrant, in an event without
        check-in) and start it (tables open in :meth:`settle`). Entrants who did not check in
        miss the round."""
        state = await self.ctx.state(event.id)
        now = self.clock()
        checked = state.checked_in
        present: set[int] = set()
        missed: list[EntryRow] = []
        for e in state.active():
            if e.joined_round > number:
                continue
            if not event.checkin or any(u in checked for u in e.members):
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
                    state = await self.ctx.state(event.id)
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
                await self.ctx.set_timers(
                    tx, event.id, ("t.grace", now + event.grace, number), ("t.limit", ends, number)
                )
        if pairing is None:
            await self.finish(await self.ctx.get(event.id), "finished")
            return
        self.ctx.time(event.id, await self.repo.timers(event.id))

    def _boards(self, state: EventState, pairing: Pairing) -> list[BoardRow]:
        """The boards of a pairing: who sits at each seat group, then the byes."""
        ruleset = state.ruleset
        out: list[BoardRow] = []
        groups = seat_group_sides(ruleset)
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

    async def take_over(self, board: BoardRow) -> None:
        """A computer plays the seats of the board's absent individuals (again after a
        restart: taking a seat taken already changes nothing)."""
        absent = set(absentees(board))
        if not absent or board.table_id is None:
            return
        for entry, user in zip(board.seats, board.people, strict=True):
            if entry in absent and user is not None:
                await self.tables.take_over(board.table_id, user)


    async def stop_table(self, table_id: int, reason: str) -> None:
        try:
            info = await self.tables.get(table_id)
            if info.status in ("lobby", "running"):
                await self.tables.cancel(table_id, info.host_id, force=True, reason=reason)
        except (WrongStatus, TableNotFound) as exc:
            log.info("table %s not stopped: %s", table_id, exc)
        except Exception as exc:  # a table of another process, or closed meanwhile
            if type(exc).__name__ != "TableFinished":
                raise

    async def finish(self, event: EventRow, status: str) -> None:
        """The event ends (``finished`` or ``cancelled``); a finished one's final places are
        stored and its podium achievements awarded in the same transaction."""
        now = self.clock()
        places: list[PlaceRow] = []
        if status == "finished":
            state = await self.ctx.state(event.id)
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
