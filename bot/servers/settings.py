"""Per-server settings: the defaults of ``/domino new``, where tables may be opened, who hosts.

Stored in the database (``guild_settings``); read on every table opening (a server's row is one
indexed lookup), so several processes always agree.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Any

from bot.errors import InvalidOptions, ServiceError
from bot.i18n import N_, Ref
from bot.limits import NO_LIMITS, Gate, Limits
from bot.queue.values import COMPUTERS_AFTER_RANGE, EXPIRY_RANGE
from bot.records.board_sql import MAX_BOARD_MINIMUM
from bot.store import Store
from bot.store.table_extras import GuildSettings, GuildSettingsRepo
from bot.tables.service import DEFAULT_TURN_TIMER, MAX_TURN_TIMER, MIN_TURN_TIMER
from bot.tables.values import MAX_PING_DELAY, MIN_PING_DELAY
from bot.tournaments.store import TournamentRepo
from domino import OPTION_CHOICES, PRESETS

__all__ = [
    "DEFAULT_VARIANT",
    "FIELDS",
    "MAX_CHANNELS",
    "GuildSettings",
    "ServerSettings",
    "TableDefaults",
]

DEFAULT_VARIANT = "partners"
MAX_CHANNELS = 25
MAX_TIMEOUT_LOSS = 10
LIMITS = ("lobbies_per_member", "matches_per_member", "open_tables", "cooldown")
FIELDS = (
    "variant", "target", "turn_timer", "host_role", "channels", *LIMITS, "web", "web_name",
    "ping_delay", "board_minimum",
    "timeout_loss",
)
FIELDS += ("queue_expiry", "queue_computers_after")
MAX_LIMIT = {
    "lobbies_per_member": 20,
    "matches_per_member": 20,
    "open_tables": 500,
    "cooldown": 3600,
}


@dataclasses.dataclass(frozen=True, slots=True)
class TableDefaults:
    """What ``/domino new`` uses for options left out."""

    variant: str
    target: int | None  # None: the variant's own
    turn_timer: int


class ServerSettings:
    """Reads, checks and changes the settings of servers."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        # (server, member) -> the request (task) opening a table now, and when it was let in
        self._opening: dict[tuple[int, int], tuple[asyncio.Task[Any], float]] = {}

    async def organiser_role(self, guild_id: int) -> int | None:
        """The role whose members may create and run tournaments (None: managers only)."""
        return await TournamentRepo(self.store.db).organiser_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await TournamentRepo(self.store.db).set_organiser_role(guild_id, role_id)

    async def check_limits(self, settings: GuildSettings, user_id: int) -> None:
        """Apply the server's own limits to a member opening a table (on top of the bot's,
        which the table service applies), counted in the database over every bot process's
        tables.

        The cooldown runs from the member's last table in the database; while a request he
        was let in with is still running (its table not stored yet), his others wait too."""
        limits = Limits(
            lobbies_per_user=settings.lobbies_per_member or 0,
            matches_per_user=settings.matches_per_member or 0,
            tables_per_server=settings.open_tables or 0,
            cooldown=float(settings.cooldown or 0),
        )
        if limits == NO_LIMITS:
            return
        key = (settings.guild_id, user_id)
        task = asyncio.current_task()
        held = await self.store.limits.held(user_id, settings.guild_id)
        running = self._opening.get(key)
        if running is not None and running[0] is not task and not running[0].done():
            since = max(running[1], held.last_opened or running[1])
            held = dataclasses.replace(held, last_opened=since)
        Gate(limits, self.clock).check_open(user_id, settings.guild_id, held)
        if limits.cooldown > 0 and task is not None and (running is None or running[0].done()):
            self._opening[key] = (task, self.clock())
            task.add_done_callback(functools.partial(self._opened, key))

    def _opened(self, key: tuple[int, int], task: asyncio.Task[Any]) -> None:
        """The request is over: its table, if any, is in the database now."""
        if self._opening.get(key, (None,))[0] is task:
            del self._opening[key]

    async def get(self, guild_id: int) -> GuildSettings:
        return await GuildSettingsRepo(self.store.db).get(guild_id)

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some fields (``None`` resets one to the bot's default); checked first, so a
        bad value changes nothing."""
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise ValueError(f"unknown server settings {sorted(unknown)}")
        async with self.store.transaction() as tx:
            repo = GuildSettingsRepo(tx.db)
            new = dataclasses.replace(await repo.get(guild_id), **changes)
            check(new)
            await repo.put(new, now=self.clock())
        return new

    async def reset(self, guild_id: int) -> GuildSettings:
        """Back to the bot's defaults."""
        async with self.store.transaction() as tx:
            await GuildSettingsRepo(tx.db).drop(guild_id)
        return GuildSettings(guild_id)


def check(settings: GuildSettings) -> None:
    """Raise :class:`InvalidOptions` if ``settings`` cannot be applied."""
    if settings.variant is not None and settings.variant not in PRESETS:
        raise InvalidOptions("There is no variant {variant}.", variant=settings.variant)
    if settings.turn_timer is not None and not (
        MIN_TURN_TIMER <= settings.turn_timer <= MAX_TURN_TIMER
    ):
        raise InvalidOptions(
            "The turn timer must be between {min} and {max} seconds.",
            min=MIN_TURN_TIMER,
            max=MAX_TURN_TIMER,
        )
    if settings.ping_delay and not MIN_PING_DELAY <= settings.ping_delay <= MAX_PING_DELAY:
        raise InvalidOptions(
            "The idle ping must come after {min} to {max} seconds (0: no pings).",
            min=MIN_PING_DELAY,
            max=MAX_PING_DELAY,
        )
    if settings.board_minimum is not None and not (
        1 <= settings.board_minimum <= MAX_BOARD_MINIMUM
    ):
        raise InvalidOptions(
            "The minimum of matches on the rating boards must be between 1 and {max}.",
            max=MAX_BOARD_MINIMUM,
        )
    if settings.timeout_loss is not None and not 1 <= settings.timeout_loss <= MAX_TIMEOUT_LOSS:
        raise InvalidOptions(
            "A correspondence match can be lost after 1 to {max} time-outs in a row.",
            max=MAX_TIMEOUT_LOSS,
        )
    if settings.target is not None:
        variant = settings.variant or DEFAULT_VARIANT
        allowed = OPTION_CHOICES.get(variant, {}).get("target", ())
        if settings.target not in allowed:
            raise InvalidOptions(
                "A match of {variant} can go to {allowed} points.",
                variant=variant,
                allowed=", ".join(map(str, allowed)) or "-",
            )
    check_queue(settings)
    for name in LIMITS:
        value = getattr(settings, name)
        if value is not None and not 0 <= value <= MAX_LIMIT[name]:
            raise InvalidOptions(
                "{name} must be between 0 and {max}.", name=name, max=MAX_LIMIT[name]
            )
    if settings.channels is not None and len(settings.channels) > MAX_CHANNELS:
        raise InvalidOptions("At most {count} channels can be chosen.", count=MAX_CHANNELS)


def check_queue(settings: GuildSettings) -> None:
    """Raise :class:`InvalidOptions` if the quick match's settings are out of their ranges."""
    expiry, after = settings.queue_expiry, settings.queue_computers_after
    if expiry is not None and not EXPIRY_RANGE[0] <= expiry <= EXPIRY_RANGE[1]:
        raise InvalidOptions(
            N_("A place in the quick match's queue is kept {min} to {max} minutes."),
            min=EXPIRY_RANGE[0] // 60,
            max=EXPIRY_RANGE[1] // 60,
        )
    if after is not None and not COMPUTERS_AFTER_RANGE[0] <= after <= COMPUTERS_AFTER_RANGE[1]:
        raise InvalidOptions(
            N_("Computers fill a quick match's seats after {min} to {max} seconds."),
            min=COMPUTERS_AFTER_RANGE[0],
            max=COMPUTERS_AFTER_RANGE[1],
        )


def defaults(
    settings: GuildSettings,
    *,
    variant: str | None = None,
    target: int | None = None,
    turn_timer: int | None = None,
) -> TableDefaults:
    """The options of a new table: what the host chose, else the server's, else the bot's.

    The server's target applies only to a variant that can be played to it."""
    chosen = variant or settings.variant or DEFAULT_VARIANT
    allowed = OPTION_CHOICES.get(chosen, {}).get("target", ())
    if target is None and settings.target is not None and settings.target in allowed:
        target = settings.target
    timer = turn_timer or settings.turn_timer or DEFAULT_TURN_TIMER
    return TableDefaults(chosen, target, timer)


def check_host(
    settings: GuildSettings,
    *,
    channel_ids: tuple[int | None, ...],
    role_ids: frozenset[int],
    manager: bool,
) -> None:
    """Raise if the server does not let this member open a table here (the host role does not
    bind members who manage the server)."""
    if not settings.allows_channel(*channel_ids):
        raise ServiceError(
            "Tables can be opened only in {channels} on this server.",
            channels=[Ref("channel", c) for c in settings.channels or ()],
        )
    if settings.host_role is not None and not manager and settings.host_role not in role_ids:
        raise ServiceError(
            "Only members with the role {role} can open tables on this server.",
            role=Ref("role", settings.host_role),
        )
