"""A fake Discord (REST + gateway) for end-to-end tests of the bot with real discord.py.

    from tests.fakediscord import FakeDiscord, running_bot

    async def test_something() -> None:
        async with FakeDiscord() as fake, running_bot(fake, make_bot):
            alice = fake.add_user(1001, "alice")
            result = await fake.slash(alice, fake.channel_id, "domino new")
            assert result.embed is not None

See README.md in this folder.
"""

from .fake import DENY_ACTIONS, ApiError, FakeDiscord, RequestRecord, Tripwire, Upload
from .interactions import InteractionResult, InteractionTimeout
from .lifecycle import patch_discord, running_bot
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
)
from .plugin import fake_discord
from .ratelimits import RateLimits

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DENY_ACTIONS",
    "ApiError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionResult",
    "InteractionTimeout",
    "RateLimits",
    "RequestRecord",
    "StoredAttachment",
    "StoredMessage",
    "Tripwire",
    "Upload",
    "fake_discord",
    "patch_discord",
    "running_bot",
]
