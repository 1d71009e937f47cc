"""Prize roles on Discord: the rule of :mod:`bot.servers.prize_roles` applied to a server's
roles and members, when a role is chosen and when it is given, and its words."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import tr
from bot.servers.prize_roles import PROBLEMS, Chooser, Prize, choice_problem, give_problem

__all__ = ["choose_problem", "chooser_of", "giving_problem", "prize_of", "problem_text"]


def prize_of(role: Any) -> Prize | None:
    """A Discord role as the rule sees it (None: no such role)."""
    if role is None:
        return None
    return Prize(
        rank=_rank(role),
        permissions=frozenset(name for name, on in role.permissions if on),
        managed=bool(role.managed or role.is_default()),
    )


def chooser_of(guild: Any, member: Any) -> Chooser | None:
    """A member (or the bot: ``guild.me``) as the rule sees him; None if he is not one."""
    if guild is None or not isinstance(member, discord.Member):
        return None
    return Chooser(
        owner=member.id == guild.owner_id,
        manage_roles=member.guild_permissions.manage_roles,
        top=_rank(member.top_role),
    )


def _rank(role: Any) -> tuple[int, int]:
    """Discord's order of roles: by position, the older role above at the same position."""
    return (role.position, -role.id)


def choose_problem(guild: Any, member: Any, role: Any) -> str:
    """Why ``member`` may not choose ``role`` as a prize ("" if he may)."""
    bot = chooser_of(guild, getattr(guild, "me", None))
    return choice_problem(prize_of(role), chooser_of(guild, member), bot)


async def giving_problem(guild: Any, role_id: int, chooser_id: int) -> str:
    """Why the bot may not give the role ``role_id`` now that ``chooser_id`` chose ("" if it
    may): the role, the bot and the chooser as they are now."""
    role = None if guild is None else guild.get_role(role_id)
    chooser = None
    if guild is not None and chooser_id > 0:
        member = guild.get_member(chooser_id)
        if member is None:
            try:
                member = await guild.fetch_member(chooser_id)
            except discord.NotFound:  # he left the server
                member = None
        chooser = chooser_of(guild, member)
    bot = chooser_of(guild, getattr(guild, "me", None))
    return give_problem(prize_of(role), chooser, bot)


def problem_text(locale: str | None, problem: str, role_id: int) -> str:
    """Why the role may not be chosen or given, in words."""
    return tr(locale, PROBLEMS[problem], role=f"<@&{role_id}>")
