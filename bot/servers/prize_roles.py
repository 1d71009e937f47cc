"""The rule for the roles the bot gives as prizes (an event's winner role, a server's season
champions' and tournament winners' roles): who may choose one, and whether it may be given.

Pure: the caller passes plain values read from Discord (permission names, roles' places in the
server's order). The same rule runs when a role is chosen and again when it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_

__all__ = [
    "DANGEROUS",
    "PROBLEMS",
    "Chooser",
    "Prize",
    "choice_problem",
    "give_problem",
]

#: Permissions a prize role may not carry: each lets its holder take over or disrupt a server.
DANGEROUS = (
    "administrator",
    "manage_guild",
    "manage_roles",
    "manage_channels",
    "manage_webhooks",
    "ban_members",
    "kick_members",
    "moderate_members",
    "mention_everyone",
)

#: Why a role may not be chosen or given; each takes ``{role}`` (a mention).
PROBLEMS = {
    "manage_roles": N_("I need the Manage Roles permission to give {role}."),
    "above": N_("{role} is not below my own highest role: I cannot give it."),
    "managed": N_("{role} belongs to an integration, or is everyone's: nobody can give it."),
    "gone": N_("The role {role} no longer exists."),
    "refused": N_("Discord refused to let me give {role}."),
    "dangerous": N_(
        "{role} carries a permission too powerful for a prize (such as Administrator, Manage"
        " Server, Manage Roles or Ban Members): I give no such role."
    ),
    "chooser": N_(
        "Only the server's owner, or a member with Manage Roles whose highest role is above"
        " {role}, may choose it."
    ),
    "chooser_gone": N_(
        "{role} was chosen by someone who may no longer choose it (or who left): I did not"
        " give it."
    ),
}


@dataclass(frozen=True, slots=True)
class Prize:
    """A role as the rule sees it. ``rank`` orders the server's roles (higher: above)."""

    rank: tuple[int, int]
    permissions: frozenset[str]
    managed: bool  # an integration's role, or @everyone: nobody gives it


@dataclass(frozen=True, slots=True)
class Chooser:
    """A member (or the bot) as the rule sees him."""

    owner: bool
    manage_roles: bool
    top: tuple[int, int]  # the rank of his highest role


def dangerous(role: Prize) -> tuple[str, ...]:
    """The dangerous permissions ``role`` grants, in :data:`DANGEROUS` order."""
    return tuple(p for p in DANGEROUS if p in role.permissions)


def _may_give(role: Prize, bot: Chooser | None) -> str:
    if role.managed:
        return "managed"
    if dangerous(role):
        return "dangerous"
    if bot is None or not bot.manage_roles:
        return "manage_roles"
    if role.rank >= bot.top:
        return "above"
    return ""


def _may_choose(role: Prize, chooser: Chooser | None) -> bool:
    if chooser is None:
        return False
    return chooser.owner or (chooser.manage_roles and role.rank < chooser.top)


def choice_problem(role: Prize | None, chooser: Chooser | None, bot: Chooser | None) -> str:
    """Why ``chooser`` may not choose ``role`` as a prize (a key of :data:`PROBLEMS`; "" if
    he may): the role must be one the bot may give, and he the server's owner or a member with
    Manage Roles whose highest role is above it."""
    if role is None:
        return "gone"
    problem = _may_give(role, bot)
    if problem:
        return problem
    return "" if _may_choose(role, chooser) else "chooser"


def give_problem(role: Prize | None, chooser: Chooser | None, bot: Chooser | None) -> str:
    """Why the bot may not give ``role`` now (a key of :data:`PROBLEMS`; "" if it may): the
    choice is checked again, its chooser (None: he left or was forgotten) as he is now."""
    problem = choice_problem(role, chooser, bot)
    return "chooser_gone" if problem == "chooser" else problem
