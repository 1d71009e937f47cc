"""Entering an event (alone, or as a pair by invitation), withdrawing, checking in for a round
and clicking in at one's table."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from bot.errors import (
    AlreadySeated,
    InvalidOptions,
    LimitReached,
    NotInvited,
    NotSeated,
    TableFull,
    WrongStatus,
)
from bot.i18n.commands import Command
from bot.records.rating import display_rating
from bot.records.store import RecordsRepo
from bot.store import IntegrityError
from bot.tournaments import model
from bot.tournaments.core import Part, family_of
from bot.tournaments.store import BoardRow, EntryRow, EventRow, InvitationRow, TournamentRepo

INVITE_COOLDOWN = 60.0  # seconds between two invitations of a person in a pairs event


class Registration(Part):
    """The entrants' own steps."""

    async def register(self, event_id: int, user_id: int, name: str) -> EntryRow:
        """Enter ``user_id`` alone (a pair enters when the partner accepts: :meth:`invite`)."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            await self._check_entry(event, user_id)
            if event.format == "pairs":
                raise InvalidOptions(
                    "This is a pairs event: register your pair with {command}, naming your"
                    " partner.",
                    command=Command("domino tournament register"),
                )
            entry = await self._enter(event, user_id, name, None)
        self.ctx.changed(event_id)
        return entry

    async def invite(
        self, event_id: int, user_id: int, name: str, partner: tuple[int, str]
    ) -> InvitationRow:
        """``user_id`` asks ``partner`` to enter a pairs event with him. Nobody is entered
        until the partner accepts; an inviter has one invitation waiting at most, sends one
        every :data:`INVITE_COOLDOWN` seconds at most (a new one replaces his waiting one)
        and never asks again someone who declined."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
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
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
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
        self.ctx.changed(event_id)
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
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
            if not event.is_open:
                raise WrongStatus("This tournament is over: there is nothing to withdraw from.")
            entry = await self.repo.entry_of(event_id, user_id)
            if entry is None:
                raise NotSeated("You are not registered in this tournament.")
            if entry.status == "withdrawn":
                raise WrongStatus("You have already withdrawn from this tournament.")
            await self.repo.withdraw_entry(event, entry)
            entry = dataclasses.replace(entry, status="withdrawn")
        self.ctx.changed(event_id)
        return entry

    async def check_in(self, event_id: int, user_id: int) -> EntryRow:
        """``user_id`` will play the round whose check-in is open."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
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
            if bracket_round and (await self.ctx.state(event_id)).knocked_out(entry.entry):
                raise WrongStatus("You are out of this knockout.")
            fresh = await self.repo.check_in(
                event_id, event.round, "checkin", user_id, self.clock()
            )
            if not fresh:
                raise AlreadySeated(
                    "You are already checked in for round {round}.", round=event.round
                )
        self.ctx.changed(event_id)
        return entry

    async def here(self, event_id: int, round_: int, user_id: int) -> BoardRow:
        """``user_id`` clicked in at his table of round ``round_``."""
        async with self.ctx.lock(event_id):
            event = await self.ctx.get(event_id)
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
        self.ctx.changed(event_id)
        return board

    async def _ratings(self, user_ids: Sequence[int], variant: str) -> dict[int, float]:
        found = await RecordsRepo(self.store.db).ratings(user_ids, family_of(variant))
        return {u: float(display_rating(mu, sigma)) for u, (mu, sigma) in found.items()}
