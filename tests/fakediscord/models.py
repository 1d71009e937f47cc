"""Data model of the fake Discord: users, guilds, channels, messages, attachments.

Everything here is plain data plus ``payload()`` methods that render the JSON shapes
Discord's API documents (and discord.py parses).
"""

from __future__ import annotations

import copy
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

JSON = dict[str, Any]
#: How long a wait of the tests may last by default: a guard against a hang, not a margin.
#: Every wait is on an event (a request arriving, a message changing), so it returns as soon
#: as that happens; on a machine busy with other work that may take many seconds.
PATIENCE = 60.0

DISCORD_EPOCH_MS = 1420070400000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types)
TEXT_CHANNEL = 0
DM_CHANNEL = 1
NEWS_CHANNEL = 5
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
FORUM_CHANNEL = 15
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

ALL_PERMISSIONS = discord.Permissions.all().value

DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    manage_threads=True,
    manage_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(dt: datetime | None) -> str | None:
    return None if dt is None else dt.isoformat()


class SnowflakeGenerator:
    """Monotonic snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def for_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake of a guild that Discord routes to ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count``; the timestamp part moves forward by a few ms at most)."""
        stamp = self() >> 22
        stamp += (shard_id - stamp) % shard_count
        candidate = stamp << 22
        self._last = max(self._last, candidate)
        return candidate


def perm_value(permissions: int | discord.Permissions) -> int:
    return permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)


@dataclass
class FakeUser:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class FakeMember:
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    joined_at: datetime = field(default_factory=utcnow)
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Overwrite:
    target_id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.target_id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = TEXT_CHANNEL
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None  # threads
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    created_at: datetime = field(default_factory=utcnow)
    member_ids: set[int] = field(default_factory=set)  # thread members
    recipients: list[FakeUser] = field(default_factory=list)  # DMs
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, last_message_id: int | None = None) -> JSON:
        last = None if last_message_id is None else str(last_message_id)
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": last,
                "recipients": [u.payload() for u in self.recipients],
                "flags": 0,
            }
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": last,
                "rate_limit_per_user": self.rate_limit_per_user,
                "message_count": self.message_count,
                "total_message_sent": self.message_count,
                "member_count": len(self.member_ids),
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": iso(self.created_at),
                },
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": None if self.guild_id is None else str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": self.topic,
            "nsfw": False,
            "last_message_id": last,
            "rate_limit_per_user": self.rate_limit_per_user,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "flags": 0,
            "default_auto_archive_duration": 1440,
            "default_thread_rate_limit_per_user": 0,
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    created_at: datetime = field(default_factory=utcnow)
    personal_roles: dict[int, int] = field(default_factory=dict)  # user id -> role id

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, user_id: int, channel: FakeChannel) -> int:
        """Discord's permission algorithm: base permissions, then overwrites."""
        perms = self.base_permissions(user_id)
        if perms == ALL_PERMISSIONS:
            return perms
        member = self.members.get(user_id)
        role_ids = set() if member is None else set(member.role_ids)
        everyone = channel.overwrites.get(self.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for ow in channel.overwrites.values():
            if ow.type == 0 and ow.target_id in role_ids:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = channel.overwrites.get(user_id)
        if own is not None and own.type == 1:
            perms = (perms & ~own.deny) | own.allow
        return perms


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


@dataclass
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    channel_id: int
    content_type: str | None = None
    description: str | None = None
    base_url: str = "http://127.0.0.1"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def url(self) -> str:
        return f"{self.base_url}/attachments/{self.channel_id}/{self.id}/{self.filename}"

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self, *, ephemeral: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type or _guess_content_type(self.filename),
            "ephemeral": ephemeral,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = _png_size(self.data)
        if dims is not None:
            data["width"], data["height"] = dims
        return data


def _guess_content_type(filename: str) -> str:
    lower = filename.lower()
    for ext, ctype in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".gif", "image/gif"),
        (".webp", "image/webp"),
        (".txt", "text/plain; charset=utf-8"),
        (".json", "application/json"),
    ):
        if lower.endswith(ext):
            return ctype
    return "application/octet-stream"


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Walk a component tree (action rows, v2 containers, sections, labels) depth first."""
    for comp in components:
        yield comp
        children: list[JSON] = list(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        yield from iter_components(children)


@dataclass
class StoredMessage:
    """A message as the fake stores it. ``payload()`` renders Discord's message object."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_user_id: int | None = None  # the only user who can see an ephemeral message
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: JSON | None = None
    tts: bool = False
    pinned: bool = False
    thread_id: int | None = None  # thread started from this message
    reactions: dict[str, set[int]] = field(default_factory=dict)
    created_at: datetime = field(default_factory=utcnow)
    edited_at: datetime | None = None
    history: list[StoredMessage] = field(default_factory=list)
    deleted: bool = False

    # ---- convenience accessors for assertions -------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred ("Bot is thinking...") response."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def embed(self) -> JSON | None:
        return self.embeds[0] if self.embeds else None

    @property
    def v2(self) -> bool:
        """Whether the message uses the components-v2 layout (no content, no embeds)."""
        return bool(self.flags & FLAG_COMPONENTS_V2)

    def media(self) -> list[tuple[StoredAttachment | None, str | None]]:
        """The media gallery items of a v2 message, in order: the attachment each shows (None
        for an outside address or a missing file) and its description (the alt text)."""
        found: list[tuple[StoredAttachment | None, str | None]] = []
        for comp in self.all_components():
            for item in comp.get("items") or [] if comp.get("type") == 12 else []:
                url = str((item.get("media") or {}).get("url") or "")
                name = url.removeprefix("attachment://") if url.startswith("attachment://") else ""
                found.append((self.attachment(name) if name else None, item.get("description")))
        return found

    def title(self) -> str:
        """The embed's title, or the first line of a v2 message's first text display without
        its bold or heading marks ("" when there is neither)."""
        if self.embeds:
            return str(self.embeds[0].get("title") or "")
        for comp in self.all_components():
            if comp.get("type") == 10 and comp.get("content"):
                line = str(comp["content"]).splitlines()[0].lstrip("# ")
                return line[2:-2] if line.startswith("**") and line.endswith("**") else line
        return ""

    def container(self) -> JSON | None:
        """The first container of a v2 message."""
        return next((c for c in self.components if c.get("type") == 17), None)

    @property
    def edit_count(self) -> int:
        return len(self.history)

    def all_components(self) -> list[JSON]:
        return list(iter_components(self.components))

    def buttons(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(self, custom_id: str) -> JSON | None:
        for comp in self.all_components():
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def text(self) -> str:
        """Content plus all embed text and v2 text displays, newline separated (for asserts)."""
        parts: list[str] = [self.content] if self.content else []
        for emb in self.embeds:
            for key in ("title", "description"):
                if emb.get(key):
                    parts.append(str(emb[key]))
            author = emb.get("author") or {}
            if author.get("name"):
                parts.append(str(author["name"]))
            for fld in emb.get("fields") or []:
                parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
            footer = emb.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        for comp in self.all_components():
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def attachment(self, filename: str) -> StoredAttachment | None:
        for att in self.attachments:
            if att.filename == filename:
                return att
        return None

    def snapshot(self) -> StoredMessage:
        """A frozen deep copy (without the edit history)."""
        history, self.history = self.history, []
        try:
            return copy.deepcopy(self)
        finally:
            self.history = history

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(ephemeral=self.ephemeral) for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": False,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.message_reference is not None:
            data["message_reference"] = copy.deepcopy(self.message_reference)
        return data


def _emoji_payload(emoji: str) -> JSON:
    # custom emoji are sent as "name:id"
    if ":" in emoji:
        name, _, emoji_id = emoji.partition(":")
        return {"id": emoji_id, "name": name}
    return {"id": None, "name": emoji}
