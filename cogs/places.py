"""Where things happen on a server, as Discord lets a member see them: the place a table is
opened in (a thread's channel, a private thread), and the channels someone may read now.

Someone else's finished match (its replay, its line in a history) is shown only to a member
who can view the channel it was played in, or the channel of its thread; a private thread's
only to those who may see every private thread there (Manage Threads), or who ask inside it.
The web companion's pages, public on the internet, show only matches of places the server's
@everyone role could view when the table was opened (never a private thread).
Permissions are those discord.py computes from the server's roles and overwrites as the
gateway keeps them, and, for the channel asked in, those Discord sent with the interaction.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.store.table_extras import Readable

Interaction = discord.Interaction[Any]


def place_of(channel: Any) -> dict[str, Any]:
    """The ``parent_id``, ``private_thread`` and ``public_place`` of a table opened in
    ``channel``."""
    if isinstance(channel, discord.Thread):
        private = channel.type is discord.ChannelType.private_thread
        return {
            "parent_id": channel.parent_id,
            "private_thread": private,
            "public_place": not private and everyone_sees(channel),
        }
    return {"parent_id": None, "private_thread": False, "public_place": everyone_sees(channel)}


def everyone_sees(channel: Any) -> bool:
    """True if the server's @everyone role can view ``channel`` (a thread: its parent).
    Our decision: a channel whose permissions cannot be read now counts as hidden."""
    guild = getattr(channel, "guild", None)
    if guild is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return False
    try:
        return bool(channel.permissions_for(guild.default_role).view_channel)
    except discord.ClientException:  # a thread whose parent is not known
        return False


def readable(interaction: Interaction) -> Readable | None:
    """The channels of the interaction's server its user can view now (None outside one)."""
    guild, member = interaction.guild, interaction.user
    if interaction.guild_id is None:
        return None
    channels: set[int] = set()
    private: set[int] = set()
    if guild is not None and isinstance(member, discord.Member):
        for channel in guild.channels:
            if isinstance(channel, discord.CategoryChannel):
                continue
            perms = channel.permissions_for(member)
            if perms.view_channel:
                channels.add(channel.id)
                if perms.manage_threads:
                    private.add(channel.id)
        for thread in guild.threads:  # threads known open (older tables stored only them)
            if thread.parent_id in (private if thread.is_private() else channels):
                channels.add(thread.id)
    # The channel asked in (a private thread he is in, too), as Discord computed it for him.
    here = interaction.channel
    if interaction.permissions.view_channel and interaction.channel_id is not None:
        channels.add(interaction.channel_id)
        if isinstance(here, discord.Thread) and not here.is_private() and here.parent_id:
            channels.add(here.parent_id)
    return Readable(interaction.guild_id, frozenset(channels), frozenset(private))
