"""Computer players for the table service.

Uses ``domino.ai.choose(view, level, rng=..., budget=...)`` when the engine ships it; until then
a stand-in picks a random legal action. Either way the player only ever receives a seat's view.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from domino import Action, View

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
DEFAULT_BUDGET = 0.3


def _engine_ai() -> Any | None:
    try:
        module = importlib.import_module("domino.ai")
    except ImportError:
        return None
    return module if callable(getattr(module, "choose", None)) else None


_AI = _engine_ai()


def has_engine_ai() -> bool:
    """True when ``domino.ai`` provides the computer players (else the random stand-in plays)."""
    return _AI is not None


def rng_for(seed: int | str, seq: int) -> random.Random:
    """The random generator for the decision at action ``seq`` of a match: replayable."""
    return random.Random(f"{seed}/{seq}")


def choose(
    view: View, level: str = DEFAULT_LEVEL, *, rng: random.Random, budget: float = DEFAULT_BUDGET
) -> Action:
    """One legal action for the seat of ``view`` (which must be to move)."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    if len(view.legal) == 1:
        return view.legal[0]
    if _AI is not None:
        return _AI.choose(view, level, rng=rng, budget=budget)
    return rng.choice(view.legal)


def is_cheap(level: str) -> bool:
    """Whether a decision is fast enough to make on the event loop (no thread hop needed)."""
    return _AI is None or level == "easy"
