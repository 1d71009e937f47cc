"""The quick match through the fake Discord: a test bot, joining, the people's answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.limits import Limits
from bot.settings import Settings
from tests.cogs.helpers import FakeClock, TestBot, settle
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage


class QueueBot(TestBot):
    """The test bot, its "Play now" post edited without the wait between two edits."""

    __test__ = False

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        self.queue_options = {"post_every": 0.0}

    @property
    def queue_cog(self) -> Any:
        cog = self.get_cog("Queue")
        assert cog is not None
        return cog


def queue_settings(fake: FakeDiscord, url: str, **limits: Any) -> Settings:
    """The test bot's settings on the database ``url`` (SQLite or PostgreSQL)."""
    return Settings(
        discord_token=fake.token,
        database_path=None,
        database_url=url,
        dev_guild_id=fake.guild_id,
        log_level="INFO",
        limits=Limits(**{"cooldown": 0.0, **limits}),
        ai_processes=0,
    )


def queue_factory(
    fake: FakeDiscord, url: str, clock: FakeClock, **limits: Any
) -> Callable[[], QueueBot]:
    return lambda: QueueBot(queue_settings(fake, url, **limits), clock=clock)


async def idle(bot: QueueBot) -> None:
    await settle(bot)
    await bot.queue_cog.idle()
    await settle(bot)


async def play(
    fake: FakeDiscord, user: Any, variant: str | None = None, channel_id: int | None = None,
    **options: Any,
) -> InteractionResult:
    """``/domino play`` (its private answer arrives as the deferred answer's followup)."""
    if variant is not None:
        options["variant"] = variant
    result = await fake.slash(user, channel_id or fake.channel_id, "domino play", options)
    await result.wait_for_followups(1)
    return result


def said(result: InteractionResult) -> StoredMessage:
    (message, *_) = result.followups
    assert message.ephemeral
    return message


def leave_id(message: StoredMessage) -> str:
    (found,) = [c for c in message.custom_ids() if c.startswith("queue:leave:")]
    return found
