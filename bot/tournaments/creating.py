"""Opening an event for registration, each of its options checked first."""

from __future__ import annotations

from typing import Any

from bot.errors import InvalidOptions, LimitReached, TablesElsewhere, WrongStatus
from bot.store import IntegrityError
from bot.tournaments import model
from bot.tournaments.core import Part
from bot.tournaments.store import EventRow, TournamentRepo
from domino import preset

DEFAULT_GRACE = 300  # seconds a seated person has to click in
DEFAULT_TIME_LIMIT = 45 * 60  # seconds a round may last
DEFAULT_HANDS = 4
MAX_HANDS = 12
MAX_ROUNDS = 20
MIN_TIME_LIMIT, MAX_TIME_LIMIT = 5 * 60, 4 * 3600
MIN_GRACE, MAX_GRACE = 60, 30 * 60
MAX_NAME = 80
DEFAULT_ARENA = 60 * 60  # seconds an arena lasts by default
MIN_ARENA, MAX_ARENA = 10 * 60, 6 * 3600


class Creating(Part):
    """Opens events."""

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
        checkin: bool = False,
        arena: int | None = None,
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
        if system == "arena":
            arena = DEFAULT_ARENA if arena is None else arena
            if not MIN_ARENA <= arena <= MAX_ARENA:
                raise InvalidOptions(
                    "An arena lasts {min} to {max} minutes.",
                    min=MIN_ARENA // 60,
                    max=MAX_ARENA // 60,
                )
            if playoff:
                raise InvalidOptions("An arena has no playoff: the most points win.")
            if rounds is not None:
                raise InvalidOptions("An arena has no rounds: it lasts its duration.")
            checkin = False
        elif arena is not None:
            raise InvalidOptions("Only an arena has a duration.")
        elif system not in model.SYSTEMS:
            raise InvalidOptions("A tournament is swiss, knockout or arena.")
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
        top = self.ctx.limits.entrants_per_event
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
            checkin=checkin,
            arena=arena,
        )
        async with self.store.transaction() as tx:
            repo = TournamentRepo(tx.db)
            open_now = await repo.open_events(guild_id)
            if any(e.channel_id == channel_id for e in open_now):
                raise WrongStatus("A tournament is already open in this channel.")
            if len(open_now) >= self.ctx.limits.events_per_server:
                raise LimitReached(
                    "This server already has {count} open tournaments (the most at once).",
                    count=len(open_now),
                )
            try:
                event = await repo.create(row)
            except IntegrityError:
                raise WrongStatus("A tournament is already open in this channel.") from None
            if start_at is not None and system == "arena":
                await self.ctx.set_timers(tx, event.id, ("a.begin", start_at, 1))
            elif start_at is not None:
                await self.ctx.set_timers(
                    tx,
                    event.id,
                    ("t.checkin", start_at - self.ctx.checkin_before, 1),
                    ("t.start", start_at, 1),
                )
        self.ctx.guilds[event.id] = guild_id
        self.ctx.time(event.id, await self.repo.timers(event.id))
        self.ctx.changed(event.id)
        return event
