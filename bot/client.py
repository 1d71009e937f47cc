"""The Discord client: a ``commands.AutoShardedBot`` that opens the store, takes its shards'
leases, starts the table service for the tables of those shards and loads the cogs."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import pkgutil
import signal
import sys
from collections.abc import Callable, Mapping
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.i18n import commands as named_commands
from bot.i18n import translate_command_string
from bot.log import setup_logging
from bot.ratelimit import Limiter, SharedBudget
from bot.settings import Settings, redact_secrets, redact_url
from bot.store import POSTGRES, DatabaseUnavailable, Store
from bot.store.budget import BudgetRepo
from bot.tables import computer
from bot.tables.leases import ShardLeases
from bot.tables.service import TableService
from bot.traffic import Traffic
from bot.workers import pictures

log = logging.getLogger(__name__)

COGS_PACKAGE = "cogs"
#: The longest Discord rate limit discord.py waits out inside a call (its least: 30 s).
MAX_RATELIMIT_WAIT = 30.0
#: How often the log sums up the requests made to Discord (when there were any).
TRAFFIC_LOG_SECONDS = 60.0


class CommandTranslator(app_commands.Translator):
    """Slash command names, descriptions, option names and choices from the catalogues.

    English is the default; ``es-ES``, ``es-419`` and ``pt-BR`` get localizations where the
    catalogue has them. A translated name Discord would refuse is left out (and logged).
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate_command_string(string.message, locale.value, context.location.name)


def discover_extensions(package: str = COGS_PACKAGE) -> list[str]:
    """Extensions to load: ``package.EXTENSIONS`` if it declares them, else its public modules."""
    module = importlib.import_module(package)  # part of the project: missing means broken
    declared = getattr(module, "EXTENSIONS", None)
    if declared is not None:
        return [str(name) for name in declared]
    paths = getattr(module, "__path__", None)
    if paths is None:
        return []
    return sorted(
        f"{package}.{info.name}"
        for info in pkgutil.iter_modules(paths)
        if not info.name.startswith("_")
    )


def shard_space(settings: Settings) -> tuple[int, tuple[int, ...]]:
    """The shard count the tables are divided by and the shards this process is given.

    Without ``SHARD_COUNT`` one process holds everything: one shard of tables (whatever number
    of gateway shards Discord recommends)."""
    if settings.shard_count is None:
        return 1, (0,)
    return settings.shard_count, settings.shard_ids or tuple(range(settings.shard_count))


class DominoBot(commands.AutoShardedBot):
    """The bot: owns the store, the shard leases and the table service; cogs reach them as
    ``bot.service``.

    Events ``on_tables_adopted(table_ids)`` and ``on_tables_released(table_ids)`` say that this
    process took over the tables of a shard it was given, or left those of a shard it lost."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: list[str] | None = None,
        service_options: Mapping[str, Any] | None = None,
        lease_ttl: float | None = None,
    ) -> None:
        """``extensions`` overrides the discovered cogs; ``service_options`` are keyword
        arguments for :class:`TableService` (clock, seed_source, computer_delay, …);
        ``lease_ttl`` overrides ``SHARD_LEASE_SECONDS``."""
        intents = discord.Intents.default()  # no privileged intent is needed
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice here
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                shards["shard_ids"] = list(settings.shard_ids)
        self.traffic = Traffic()  # every request to Discord, counted
        # Every bot-token request waits for a slot of the bot's budget (shared by its
        # processes once the database is open), highest priority first.
        self.limiter = Limiter(settings.discord_rate)
        super().__init__(
            **shards,
            http_trace=self.limiter.trace(self.traffic.trace()),
            # A longer wait (a shared limit, e.g. thread creation) raises RateLimited: the
            # caller tries again later instead of holding its task for minutes.
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.extension_names = extensions
        self.service_options: dict[str, Any] = dict(service_options or {})
        self.store: Store | None = None
        self.service: TableService | None = None
        self.leases: ShardLeases | None = None
        self.lease_ttl = settings.shard_lease_seconds if lease_ttl is None else lease_ttl
        self.failed_extensions: dict[str, str] = {}
        self.stop_on_sigterm = False  # run_bot: SIGTERM closes cleanly (leases released)
        self.freeze_after_start = False  # run_bot: start-up's objects leave the collector
        self.stopping = False  # a SIGTERM came: errors of what it cut short are no failure
        self._closer: asyncio.Future[None] | None = None
        self._traffic_log: asyncio.Task[None] | None = None
        self._gateway: yarl.URL | None = None  # set when the shards are first launched
        self._given: list[int] = []  # the gateway shards this process is given
        self._opening: dict[int, asyncio.Task[None]] = {}  # gateway shards being connected
        self._confirming: set[asyncio.Task[None]] = set()  # interactions awaiting a lease check
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = self._leased_only(parsers["INTERACTION_CREATE"])

    # -- the gateway follows the leases ------------------------------------------------------

    def lease_of(self, gateway_shard: int) -> int:
        """The lease a gateway shard's servers need: its own with ``SHARD_COUNT``, else the one
        lease of the one-process default."""
        return gateway_shard if self.settings.shard_count is not None else 0

    def _leased(self, gateway_shard: int) -> bool:
        return self.leases is not None and self.lease_of(gateway_shard) in self.leases.held

    def _leased_only(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        """``parse`` for the interactions of servers whose lease this process surely holds; any
        other (a paused process's backlog, a shard just lost) is left to the lease's holder."""

        def parse_if_leased(data: Any) -> None:
            guild = data.get("guild_id")
            guild_id = int(guild) if guild else None
            if self.leases is None or self.leases.owns(guild_id):
                parse(data)
            elif self.leases.shard(guild_id) in self.leases.held:
                # Held but not proven (a heartbeat running late, as at start-up on a busy
                # machine): renewed in the store first, answered if it still is this process's.
                task = asyncio.get_running_loop().create_task(confirmed(data, guild_id))
                self._confirming.add(task)
                task.add_done_callback(self._confirming.discard)
            else:
                left(data, guild)

        async def confirmed(data: Any, guild_id: int | None) -> None:
            assert self.leases is not None
            if await self.leases.confirm(guild_id):
                parse(data)
            else:
                left(data, guild_id)

        def left(data: Any, guild: Any) -> None:
            log.info(
                "interaction %s of server %s left to its shard's holder", data.get("id"), guild
            )

        return parse_if_leased

    async def launch_shards(self) -> None:
        """Connect the gateway shards whose lease this process holds (the others once it gets
        their lease)."""
        if self.is_closed():
            return
        if self.shard_count is None:
            self.shard_count, url, _limits = await self.http.get_bot_gateway()
            self._gateway = yarl.URL(url)
        else:
            self._gateway = DiscordWebSocket.DEFAULT_GATEWAY
        self._connection.shard_count = self.shard_count
        self._given = list(self.shard_ids or range(self.shard_count))
        held = [s for s in self._given if self._leased(s)]
        self._connection.shard_ids = held
        for n, shard in enumerate(held):
            await self.launch_shard(self._gateway, shard, initial=n == 0)
        if len(held) < len(self._given):
            log.info(
                "gateway shard(s) %s connect once this process holds their lease",
                [s for s in self._given if s not in held],
            )

    def _open_gateway(self, shard: int) -> None:
        """Connect ``shard`` unless it is connected or being connected (the first launch
        included)."""
        if self._gateway is None or self.get_shard(shard) is not None or shard in self._opening:
            return
        if shard in self._connection.shard_ids:
            return
        self._connection.shard_ids = sorted({*self._connection.shard_ids, shard})
        task = asyncio.create_task(self.launch_shard(self._gateway, shard), name=f"shard-{shard}")
        self._opening[shard] = task
        task.add_done_callback(
            lambda done: self._opening.pop(shard) if self._opening.get(shard) is done else None
        )
        log.info("gateway shard %s: connecting (its lease is held)", shard)

    async def _close_gateway(self, shard: int) -> None:
        opening = self._opening.pop(shard, None)
        if opening is not None:
            opening.cancel()
        self._connection.shard_ids = [s for s in self._connection.shard_ids if s != shard]
        connected = self._AutoShardedClient__shards.pop(shard, None)  # type: ignore[attr-defined]
        if connected is not None:
            await connected.close()
            log.warning("gateway shard %s: disconnected (its lease is lost)", shard)

    async def _follow_leases(self) -> None:
        """Connect the gateway shards whose lease is held, leave those whose lease is not."""
        for shard in self._given:
            if self._leased(shard):
                self._open_gateway(shard)
            else:
                await self._close_gateway(shard)

    async def setup_hook(self) -> None:
        """Open the store, rebuild open tables, load the cogs, sync commands, start timers."""
        await self.tree.set_translator(CommandTranslator())  # es-ES, es-419, pt-BR commands
        if self.stop_on_sigterm:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._sigterm)
        self.store = await Store.open(self.settings.database_url)
        count, ids = shard_space(self.settings)
        if self.store.dialect == POSTGRES or self.settings.shard_count is not None:
            # other processes may share the bot's budget: booked in the database
            self.limiter.use(SharedBudget(BudgetRepo(self.store.driver), self._budget_share))
        self.leases = ShardLeases(
            self.store,
            shard_count=count,
            shard_ids=ids,
            ttl=self.lease_ttl,
            on_change=self._shards_changed,
        )
        options = {"limits": self.settings.limits, **self.service_options}
        self.service = TableService(self.store, owns=self.leases.owns, **options)
        await self.leases.refresh()
        if self.leases.waiting:
            log.info(
                "shards %s are run by another process: this one takes them over when their"
                " leases expire (at most %gs)",
                list(self.leases.waiting),
                self.lease_ttl,
            )
        tables = await self.service.load_open_tables()
        log.info(
            "store %s: %d open table(s) of shard(s) %s loaded",
            redact_url(self.settings.database_url),
            len(tables),
            sorted(self.leases.held),
        )
        await self.load_cogs()
        await self.sync_commands()
        if self.settings.render_processes:
            await asyncio.to_thread(pictures.use_processes, self.settings.render_processes)
        await pictures.warm_up()
        if self.settings.ai_processes:
            await asyncio.to_thread(computer.use_processes, self.settings.ai_processes)
        # The heartbeat first: after a long start-up its first beat renews the leases at once.
        self.leases.start()
        self.service.start_timers()
        self._traffic_log = asyncio.create_task(self._log_traffic(), name="traffic-log")
        if self.freeze_after_start:
            freeze_start_up()

    def _budget_share(self) -> float:
        """This process's part of the bot (its shards over all): the budget it keeps to alone
        while the shared one is out of reach."""
        if self.leases is None:
            return 1.0
        count, _ids = shard_space(self.settings)
        return len(self.leases.held) / count

    async def _log_traffic(self) -> None:
        seen = 0
        while True:
            await asyncio.sleep(TRAFFIC_LOG_SECONDS)
            if self.traffic.total() != seen:
                seen = self.traffic.total()
                log.info("%s", self.traffic.summary())
                log.info("%s", self.limiter.summary())

    def _sigterm(self) -> None:
        self.stopping = True
        self._closer = asyncio.ensure_future(self.close())

    async def _shards_changed(self, gained: frozenset[int], lost: frozenset[int]) -> None:
        """Leave the tables of lost shards; take over (load, time, publish) those of gained
        ones from the store."""
        assert self.service is not None
        if lost:
            await self._follow_leases()  # players of those shards no longer reach this process
            released = self.service.release_unowned()
            log.warning("shard(s) %s lost: %d table(s) left", sorted(lost), len(released))
            self.dispatch("tables_released", released)
        if gained:
            before = {t.id for t in self.service.open_tables()}
            tables = await self.service.load_open_tables()
            adopted = [t.id for t in tables if t.id not in before]
            log.info("shard(s) %s taken over: %d table(s) loaded", sorted(gained), len(adopted))
            self.dispatch("tables_adopted", adopted)
            await self._follow_leases()

    async def load_cogs(self) -> None:
        """Load every extension; one that is missing or broken is logged, not fatal."""
        names = self.extension_names
        if names is None:
            names = discover_extensions()
        for name in names:
            try:
                await self.load_extension(name)
            except commands.ExtensionError as exc:
                self.failed_extensions[name] = str(exc)
                log.error("extension %s not loaded: %s", name, exc, exc_info=exc.__cause__)
            else:
                log.info("extension %s loaded", name)

    async def sync_commands(self) -> None:
        """Sync slash commands to DEV_GUILD_ID (instant) or globally, and keep their ids (the
        messages' clickable command mentions; without them, commands are named as text)."""
        try:
            if self.settings.dev_guild_id is not None:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("%d command(s) synced to guild %s", len(synced), guild.id)
            else:
                synced = await self.tree.sync()
                log.info("%d command(s) synced globally", len(synced))
        except discord.HTTPException as exc:
            named_commands.forget()
            log.error("command sync failed: %s", exc)
        else:
            named_commands.remember((c.name, c.id) for c in synced)

    async def close(self) -> None:
        for opening in list(self._opening.values()):
            opening.cancel()
        if self._traffic_log is not None:
            self._traffic_log.cancel()
            self._traffic_log = None
            log.info("%s", self.traffic.summary())
            log.info("%s", self.limiter.summary())
        if self.service is not None:
            await self.service.aclose()
        if not hasattr(self, "_AutoShardedClient__queue"):
            # Never logged in: discord.py's sharded close posts to a queue made at login.
            self._AutoShardedClient__queue: asyncio.PriorityQueue[Any] = asyncio.PriorityQueue()
        await super().close()
        await self.limiter.aclose()
        if self.leases is not None:
            await self.leases.stop(release=True)  # after the feeds: the next holder may start
        if self.store is not None:
            await self.store.close()
            self.store = None
        if self.settings.render_processes:
            await pictures.shut_pool()
        if self.settings.ai_processes:
            await computer.shut_pool()


def freeze_start_up() -> None:
    """Collect once, then move every object made so far (modules, cogs, open tables, caches)
    out of the garbage collector's reach: a full collection during play then walks only what
    play made, so it pauses the event loop for less (measured by ``benchmarks.bot
    --gc-freeze``)."""
    gc.collect()
    gc.freeze()


def unreachable_text(exc: BaseException) -> str:
    """One line for a start that could not reach Discord (no network, DNS, an outage)."""
    if isinstance(exc, discord.HTTPException):
        reason = f"Discord answered {exc.status} {exc.text or ''}".strip()
    elif isinstance(exc, aiohttp.ClientConnectorError):
        reason = f"no connection to {exc.host}:{exc.port} ({exc.os_error.strerror or exc})"
    else:
        reason = str(exc) or type(exc).__name__
    return (
        f"Cannot reach Discord: {redact_secrets(reason).rstrip('.')}. Check the network"
        " connection (and any proxy or firewall), then start the bot again."
    )


def run_bot(settings: Settings) -> int:
    """Run until stopped; returns the process exit status."""
    setup_logging(settings.log_level)
    bot = DominoBot(settings)
    bot.stop_on_sigterm = True
    bot.freeze_after_start = True
    try:
        bot.run(settings.token(), log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN: reset the token in the developer portal and put the "
            "new one in .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired as exc:
        print(f"Discord refused a privileged intent: {exc}", file=sys.stderr)
        return 2
    except DatabaseUnavailable as exc:
        print(f"{exc}. Check DATABASE_URL in .env.", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError, TimeoutError, discord.HTTPException) as exc:
        if bot.stopping:
            return 0  # stopped (SIGTERM) while starting: what was cut short does not matter
        print(unreachable_text(exc), file=sys.stderr)
        return 1
    except asyncio.CancelledError:
        if bot.stopping:  # (a request waiting for its slot of the budget when the stop came)
            return 0
        raise
    return 0
