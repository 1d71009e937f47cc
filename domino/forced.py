"""Forced moves (Ludoteka): the only thing a player can do is made for him after a delay."""

from __future__ import annotations

from domino.actions import Action
from domino.match import Match


def forced_action(match: Match) -> Action | None:
    """The action to make for the seat to move when its table plays forced moves.

    Returns it when ``match.ruleset.forced_moves`` is on and the seat to move has exactly one
    legal action: one tile on one end (a tile that fits both ends the same way counts once),
    only Pass or only Draw. None otherwise, and when the match is over. The caller (the table
    layer) waits its delay and applies it.
    """
    if not match.ruleset.forced_moves or match.turn is None:
        return None
    legal = match.legal_actions()
    return legal[0] if len(legal) == 1 else None
