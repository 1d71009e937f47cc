"""Skill ratings: openskill's Plackett-Luce model over the sides of a match.

Sides are ranked winner first, the side that resigned last, the others by score (penalty: fewer
points is better); equal scores and drawn matches share a rank. A computer level that plays on
more than one side of one match (it would win and lose at once) is left unrated. Shown as
``1000 + 40 × ordinal`` (ordinal = mu − 3·sigma), so a newcomer shows 1000.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from openskill.models import PlackettLuce

from bot.records.record import MatchRecord

__all__ = ["display_ordinal", "display_rating", "ordinal", "rate"]

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate: mu − 3·sigma."""
    return mu - 3.0 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating people see: 1000 for a newcomer, 40 points per ordinal unit."""
    return display_ordinal(ordinal(mu, sigma))


def display_ordinal(value: float) -> int:
    """The rating people see for an ordinal (mu − 3·sigma)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


def rate(
    record: MatchRecord,
    priors: dict[int, tuple[float, float]],
    model: PlackettLuce | None = None,
) -> dict[tuple[int, int], tuple[float, float] | None]:
    """New (mu, sigma) per (player id, side) after the match; None for a player left unrated.

    Players without a prior start at the model's default. A computer level seated twice on one
    side (not seven-seven, where one player holds a team) counts as two team members with the
    same prior and gets that update once.
    """
    model = model or PlackettLuce()
    sides = len(record.side_ranks)
    on_sides = Counter(p.player_id for p in record.participants)
    teams: list[list[Any]] = [[] for _ in range(sides)]
    slot: dict[tuple[int, int], tuple[int, int]] = {}
    default = model.rating()
    for p in record.participants:
        mu, sigma = priors.get(p.player_id, (default.mu, default.sigma))
        for _ in range(max(1, len(p.seats) // record.seats_per_person)):
            slot.setdefault((p.player_id, p.side), (p.side, len(teams[p.side])))
            teams[p.side].append(model.rating(mu=mu, sigma=sigma))
    present = [s for s in range(sides) if teams[s]]
    rated = model.rate([teams[s] for s in present], ranks=[record.side_ranks[s] for s in present])
    after = dict(zip(present, rated, strict=True))
    out: dict[tuple[int, int], tuple[float, float] | None] = {}
    for p in record.participants:
        if on_sides[p.player_id] > 1:
            out[(p.player_id, p.side)] = None
            continue
        side, index = slot[(p.player_id, p.side)]
        new = after[side][index]
        out[(p.player_id, p.side)] = (float(new.mu), float(new.sigma))
    return out
