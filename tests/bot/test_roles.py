"""The rule of prize roles (pure): who may choose a role, and whether it may be given."""

from __future__ import annotations

from bot.servers.prize_roles import Chooser, Prize, choice_problem, give_problem

BOT = Chooser(owner=False, manage_roles=True, top=(50, -1))
ROLE = Prize(rank=(10, -5), permissions=frozenset({"send_messages"}), managed=False)


def test_the_owner_or_a_role_manager_above_the_role_may_choose_it() -> None:
    owner = Chooser(owner=True, manage_roles=False, top=(0, 0))
    above = Chooser(owner=False, manage_roles=True, top=(11, -9))
    level = Chooser(owner=False, manage_roles=True, top=(10, -5))  # his top role is the role
    server = Chooser(owner=False, manage_roles=False, top=(40, -9))  # Manage Server alone
    assert choice_problem(ROLE, owner, BOT) == ""
    assert choice_problem(ROLE, above, BOT) == ""
    assert choice_problem(ROLE, level, BOT) == "chooser"
    assert choice_problem(ROLE, server, BOT) == "chooser"
    assert choice_problem(ROLE, None, BOT) == "chooser"
    assert give_problem(ROLE, None, BOT) == "chooser_gone"  # he left, or was forgotten


def test_a_dangerous_or_ungivable_role_is_refused_to_everyone() -> None:
    owner = Chooser(owner=True, manage_roles=True, top=(99, 0))
    for permission in ("administrator", "manage_roles", "ban_members", "mention_everyone"):
        role = Prize(rank=(10, -5), permissions=frozenset({permission}), managed=False)
        assert choice_problem(role, owner, BOT) == "dangerous"
        assert give_problem(role, owner, BOT) == "dangerous"
    managed = Prize(rank=(10, -5), permissions=frozenset(), managed=True)
    assert choice_problem(managed, owner, BOT) == "managed"
    high = Prize(rank=(50, -2), permissions=frozenset(), managed=False)  # same place, newer
    assert choice_problem(high, owner, BOT) == ""
    assert choice_problem(Prize((50, -1), frozenset(), False), owner, BOT) == "above"
    assert choice_problem(ROLE, owner, None) == "manage_roles"
    assert choice_problem(None, owner, BOT) == "gone"
