"""What a test gets back after it sends an interaction to the bot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .models import JSON, PATIENCE, FakeUser, StoredAttachment, StoredMessage

if TYPE_CHECKING:
    from .fake import FakeDiscord

T = TypeVar("T")

# Interaction types
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback (response) types
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

RESPONSE_NAMES = {
    CHANNEL_MESSAGE: "CHANNEL_MESSAGE_WITH_SOURCE",
    DEFERRED_CHANNEL_MESSAGE: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    DEFERRED_UPDATE_MESSAGE: "DEFERRED_UPDATE_MESSAGE",
    UPDATE_MESSAGE: "UPDATE_MESSAGE",
    AUTOCOMPLETE_RESULT: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    MODAL: "MODAL",
}


class InteractionTimeout(AssertionError):
    """The bot did not do what the test waited for in time."""


@dataclass(eq=False)
class InteractionResult:
    """One interaction sent to the bot, and everything the bot did with its token.

    ``type``/``content``/``embeds``/``components``/``attachments``/``ephemeral`` describe the
    *initial* response (a snapshot taken right after it); ``message`` is the live message behind
    ``@original`` (later edits show up there), ``followups`` the messages sent with the token and
    ``edits`` the payloads of ``PATCH .../messages/@original``.
    """

    fake: FakeDiscord
    id: int
    token: str
    kind: int  # interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: JSON  # the INTERACTION_CREATE data that was dispatched
    source_message_id: int | None = None  # message holding the clicked component
    name: str | None = None  # command path or custom_id, for messages
    response_type: int | None = None
    response_data: JSON | None = None  # the raw "data" of the callback
    original_id: int | None = None
    initial: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    edits: list[JSON] = field(default_factory=list)
    modal: JSON | None = None
    choices: list[JSON] | None = None
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    expired: bool = False  # token older than 15 minutes: see ``expire()``

    def expire(self) -> None:
        """Make the token invalid, as Discord does after 15 minutes: the callback answers 404
        10062 and webhook calls (followups, ``@original`` edits) 401 50027."""
        self.expired = True

    def __repr__(self) -> str:
        rtype = RESPONSE_NAMES.get(self.response_type or 0, self.response_type)
        return f"<InteractionResult {self.name!r} id={self.id} response={rtype}>"

    # ---- the initial response ------------------------------------------------------------
    @property
    def type(self) -> int | None:
        """The callback type of the initial response (4, 5, 6, 7, 8 or 9), None if none yet."""
        return self.response_type

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        return self.initial is not None and self.initial.ephemeral

    @property
    def content(self) -> str:
        return "" if self.initial is None else self.initial.content

    @property
    def embeds(self) -> list[JSON]:
        return [] if self.initial is None else self.initial.embeds

    @property
    def embed(self) -> JSON | None:
        return None if self.initial is None else self.initial.embed

    @property
    def components(self) -> list[JSON]:
        return [] if self.initial is None else self.initial.components

    @property
    def attachments(self) -> list[StoredAttachment]:
        return [] if self.initial is None else self.initial.attachments

    def text(self) -> str:
        return "" if self.initial is None else self.initial.text()

    # ---- what happened later ---------------------------------------------------------------
    @property
    def message(self) -> StoredMessage | None:
        """The live ``@original`` message (deleted messages are still returned, ``deleted``)."""
        if self.original_id is None:
            return None
        return self.fake.message(self.original_id)

    @property
    def source_message(self) -> StoredMessage | None:
        if self.source_message_id is None:
            return None
        return self.fake.message(self.source_message_id)

    async def wait_until(
        self, predicate: Callable[[InteractionResult], T], timeout: float = PATIENCE
    ) -> T:
        """Wait until ``predicate(self)`` is truthy; returns its value."""
        return await self.fake.wait_for(lambda: predicate(self), timeout=timeout)

    async def wait_for_followups(
        self, count: int = 1, timeout: float = PATIENCE
    ) -> list[StoredMessage]:
        """Wait until at least ``count`` followups were sent; returns all of them."""
        await self.fake.wait_for(
            lambda: len(self.followups) >= count,
            timeout=timeout,
            what=f"{count} followup(s) for {self!r}",
        )
        return list(self.followups)

    async def wait_for_edits(self, count: int = 1, timeout: float = PATIENCE) -> list[JSON]:
        """Wait until ``@original`` was edited at least ``count`` times; returns the payloads."""
        await self.fake.wait_for(
            lambda: len(self.edits) >= count,
            timeout=timeout,
            what=f"{count} edit(s) of @original for {self!r}",
        )
        return list(self.edits)

    async def wait_for_response(self, timeout: float = PATIENCE) -> InteractionResult:
        """Wait for the initial response (``fake.slash(..., wait=False)`` does not)."""
        try:
            # Not asyncio.wait_for: before Python 3.12 it loses a cancellation that comes as
            # the response does.
            async with asyncio.timeout(timeout):
                await self.responded.wait()
        except TimeoutError:
            raise InteractionTimeout(
                f"the bot did not respond to {self!r} within {timeout}s\n" + self.fake.diagnostics()
            ) from None
        return self

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "user": self.user.name,
            "response_type": self.response_type,
            "followups": [m.id for m in self.followups],
            "edits": len(self.edits),
        }
