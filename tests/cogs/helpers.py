"""Helpers for the end-to-end tests of the dominoes cog against the fake Discord."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.client import DominoBot
from bot.service import TableInfo, TableService
from bot.settings import Settings
from cogs.domino.cog import DominoCog
from cogs.domino.ids import parse
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage

COMPUTER_DELAY = 0.0
HAND_PAUSE = 0.01


class FakeClock:
    """A clock the test moves by hand (starts at the real time)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class TestBot(DominoBot):
    """The real bot, with quick computers, a tiny pause between hands and a fixed shuffle."""

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int = 11,
        clock: Callable[[], float] | None = None,
        computer_delay: float = COMPUTER_DELAY,
        hand_pause: float = HAND_PAUSE,
    ) -> None:
        super().__init__(settings)
        seeds = itertools.count(seed)
        self._tuning: dict[str, Any] = {
            "seed_source": lambda: next(seeds),
            "computer_delay": computer_delay,
            "hand_pause": hand_pause,
            "ai_level": "easy",
        }
        if clock is not None:
            self._tuning["clock"] = clock

    async def setup_hook(self) -> None:
        await super().setup_hook()
        for key, value in self._tuning.items():
            setattr(self.service, key, value)

    @property
    def svc(self) -> TableService:
        assert self.service is not None
        return self.service

    @property
    def cog(self) -> DominoCog:
        cog = self.get_cog("Domino")
        assert isinstance(cog, DominoCog)
        return cog


def settings_for(fake: FakeDiscord, db: Path) -> Settings:
    return Settings(
        discord_token=fake.token, database_path=db, dev_guild_id=fake.guild_id, log_level="INFO"
    )


def factory(fake: FakeDiscord, db: Path, **kwargs: Any) -> Callable[[], TestBot]:
    return lambda: TestBot(settings_for(fake, db), **kwargs)


def button(message: StoredMessage, kind: str) -> str:
    """The custom id of the first ``domino:<kind>:`` component of ``message``."""
    for cid in message.custom_ids():
        parsed = parse(cid)
        if parsed and parsed[0] == kind:
            return cid
    raise LookupError(f"no {kind!r} button on message {message.id}: {message.custom_ids()}")


def table_id_of(message: StoredMessage) -> int:
    for cid in message.custom_ids():
        parsed = parse(cid)
        if parsed:
            return parsed[1]
    raise LookupError(f"no domino button on message {message.id}")


def enabled(message: StoredMessage) -> list[str]:
    """Custom ids of the enabled buttons of ``message``."""
    return [b["custom_id"] for b in message.buttons() if not b.get("disabled")]


async def settle(bot: TestBot) -> None:
    """Wait until the bot has no Discord work queued for any table."""
    await bot.cog.presenter.idle()


async def table(bot: TestBot, table_id: int) -> TableInfo:
    return await bot.svc.get(table_id)


async def new_table(
    fake: FakeDiscord, bot: TestBot, host: Any, **options: Any
) -> tuple[InteractionResult, int]:
    """``/domino new`` by ``host``; returns the result and the table id."""
    result = await fake.slash(host, fake.channel_id, "domino new", options)
    assert result.message is not None, result.text()
    tid = table_id_of(result.message)
    await fake.wait_for(lambda: bot.svc.open_tables() and _lobby_set(bot, tid))
    return result, tid


def _lobby_set(bot: TestBot, tid: int) -> bool:
    return any(t.id == tid and t.table.lobby_message_id for t in bot.svc.open_tables())


async def game_message(fake: FakeDiscord, bot: TestBot, table_id: int) -> StoredMessage:
    """The current public game message of the table (waits until it is posted)."""

    def current() -> int | None:
        for t in bot.svc.open_tables():
            if t.id == table_id:
                return t.table.message_id
        return None

    mid = await fake.wait_for(current, what=f"the game message of table {table_id}")
    return fake.message(mid)


async def start_with_computers(
    fake: FakeDiscord, bot: TestBot, host: Any, lobby: StoredMessage
) -> StoredMessage:
    """Host presses Start, then "Start with computer players"; returns the game message."""
    tid = table_id_of(lobby)
    start = await fake.click(host, lobby, button(lobby, "start"))
    (confirm,) = await start.wait_for_followups(1)
    assert confirm.ephemeral
    fill = await fake.click(host, confirm, button(confirm, "fill"))
    await fill.wait_for_edits(1)
    return await game_message(fake, bot, tid)


async def open_hand(
    fake: FakeDiscord, bot: TestBot, user: Any, table_id: int
) -> InteractionResult:
    """``user`` presses My tiles on the current game message; returns the interaction."""
    await settle(bot)
    game = await game_message(fake, bot, table_id)
    result = await fake.click(user, game, button(game, "tiles"))
    await result.wait_for_followups(1)
    return result


def hand_choice(message: StoredMessage) -> str:
    """The first enabled action button of a hand message (a tile, Left, Draw or Pass)."""
    for cid in enabled(message):
        kind = parse(cid)
        if kind and kind[0] in ("play", "draw", "pass"):
            return cid
    raise LookupError(f"nothing to press on {message.id}: {message.custom_ids()}")
