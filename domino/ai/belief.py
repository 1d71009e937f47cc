"""What one seat can infer about the hidden tiles, and random deals consistent with it.

Everything is read from a :class:`~domino.views.View`: the seat's own hand, the line, the
hand sizes, the pile and sleeping counts and this hand's public events. Each other seat's
hidden hand is modelled as *slots*, one per tile it holds, each with a mask of tiles that
cannot be in it:

- A seat that passed or drew while the ends were ``(a, b)`` held no tile showing ``a`` or
  ``b`` then. That constrains the slots it held at that moment; a tile drawn later sits in
  a fresh slot that only later events constrain.
- A forced opening (highest double, or heaviest tile when no double was dealt) tells that no
  hand was dealt a higher double (or, for a non-double opening, no double or heavier tile).
- A played tile frees the most constrained slot it fits in (slots are nested: an older
  slot has seen every constraint a younger one has), which keeps the rest as loose as the
  truth allows.

The pile and the sleeping tiles (cuban) are unconstrained.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from domino.ai.sim import DOUBLES, HIGH, PIPS, bits, mask_of
from domino.match import BIT, NUM
from domino.spinner import arm_tiles
from domino.tiles import Tile
from domino.views import View

_FORCED_OPENINGS = ("double-six", "highest-double", "heaviest")
_LOG_FACTORIAL = [math.lgamma(n + 1) for n in range(56)]  # up to a double-nine set


def opening_constraint(view: View) -> int:
    """Tiles no hand was dealt, given a forced opening of this hand (0 when none applies)."""
    rs = view.ruleset
    rule = rs.first_hand if view.hand_number == 1 else rs.next_hand
    if rule not in _FORCED_OPENINGS or rs.start_tile:
        return 0
    first = next((e for e in view.events if e.kind == "play"), None)
    if first is None or first.tile is None:
        return 0
    tile = first.tile
    if rule == "double-six" and tile == Tile(6, 6):
        return 0
    out = 0
    if tile.is_double:
        for n in range(tile.a + 1, 10):
            out |= 1 << (n * 11)
        return out
    out = DOUBLES
    key = (tile.pips, tile.b)
    for i in bits(mask_of(rs.tiles)):
        if (PIPS[i], HIGH[i]) > key:
            out |= 1 << i
    return out


@dataclass(slots=True)
class Belief:
    """The hidden tiles as seen by ``seat``: who may hold what.

    ``groups`` lists ``(seat, forbidden_mask, count)``: ``count`` hidden tiles of ``seat``
    none of which is in ``forbidden_mask``. ``pile`` and ``sleeping`` are counts.
    """

    seat: int
    seats: int
    own: int
    unseen: int
    groups: list[tuple[int, int, int]]
    pile: int
    sleeping: int
    consistent: bool = True

    @classmethod
    def from_view(cls, view: View) -> Belief:
        """Read the constraints out of ``view`` (which must be a seated view)."""
        if view.seat is None or view.hand is None:
            raise ValueError("a belief needs a seated view")
        rs = view.ruleset
        me = view.seat
        own = mask_of(view.hand)
        table = mask_of(Tile(a, b) for a, b in (*view.line, *arm_tiles(view.arms)))
        unseen = mask_of(rs.tiles) & ~own & ~table
        opening = opening_constraint(view)
        slots: list[list[int]] = [
            [] if s == me else [opening] * rs.hand_size for s in range(rs.seats)
        ]
        consistent = True
        for e in view.events:
            s = e.seat
            if s is None or s == me:
                continue
            mine = slots[s]
            if e.kind == "play":
                bit = BIT[e.tile]  # type: ignore[index]
                best = -1
                for k, forbid in enumerate(mine):
                    if forbid & bit:
                        continue
                    if best < 0 or forbid.bit_count() > mine[best].bit_count():
                        best = k
                if best < 0:
                    consistent = False
                    best = min(range(len(mine)), key=lambda k: mine[k].bit_count(), default=-1)
                if best >= 0:
                    mine.pop(best)
            elif e.kind in ("pass", "draw"):
                if e.ends_before is not None:
                    a, b = e.ends_before
                    block = NUM[a] | NUM[b]
                    for k in range(len(mine)):
                        mine[k] |= block
                if e.kind == "draw":
                    mine.append(0)
        groups: list[tuple[int, int, int]] = []
        for s in range(rs.seats):
            if s == me:
                continue
            mine = slots[s]
            size = view.hand_sizes[s]
            if len(mine) != size:
                consistent = False
                mine = (mine + [0] * size)[:size]
            counts: dict[int, int] = {}
            for forbid in mine:
                forbid &= unseen
                counts[forbid] = counts.get(forbid, 0) + 1
            groups.extend((s, forbid, n) for forbid, n in counts.items())
        total = sum(n for _, _, n in groups) + view.pile_size + view.sleeping
        if total != unseen.bit_count():
            consistent = False
        return cls(me, rs.seats, own, unseen, groups, view.pile_size, view.sleeping, consistent)

    def knowing(self, hands: list[int]) -> Belief:
        """A copy that knows every other seat's hand: ``hands[s]`` (bitmasks) for each seat
        ``s`` but its own."""
        groups = [
            (s, self.unseen & ~hand, hand.bit_count())
            for s, hand in enumerate(hands)
            if s != self.seat
        ]
        return replace(self, groups=groups)

    def lacks(self, seat: int) -> int:
        """Bitmask of the numbers ``seat`` surely does not hold (from its constraints)."""
        if seat == self.seat:
            return 0
        out = 0
        for n in range(10):
            tiles = NUM[n] & self.unseen
            if all(not tiles & ~forbid for s, forbid, _ in self.groups if s == seat):
                out |= 1 << n
        return out

    def possible(self, seat: int) -> int:
        """Unseen tiles ``seat`` may hold."""
        out = 0
        for s, forbid, _ in self.groups:
            if s == seat:
                out |= self.unseen & ~forbid
        return out

    def sample(self, rng: random.Random, tries: int = 30) -> tuple[list[int], list[int]]:
        """A random deal of the unseen tiles: ``(hands, pile)`` (see :meth:`sample_weighted`)."""
        hands, pile, _ = self.sample_weighted(rng, tries)
        return hands, pile

    def sample_weighted(
        self, rng: random.Random, tries: int = 30
    ) -> tuple[list[int], list[int], float]:
        """A random deal of the unseen tiles and its log-weight: ``(hands, pile, log_weight)``.

        ``hands[seat]`` is a bitmask (0 for the own seat, whose hand the caller knows);
        ``pile`` lists tile indices in random order (next drawn last). Sleeping tiles are
        left out. Constrained groups are filled first, each from the tiles the groups before
        it left; after ``tries`` dead ends the constraints are dropped one group at a time,
        so a deal is always returned.

        Filling groups one after another favours some consistent deals over others (a group
        filled late has fewer tiles to choose from when the earlier ones took its allowed
        tiles). ``log_weight`` corrects that: weighing each deal by ``exp(log_weight)`` makes
        every consistent deal count the same.
        """
        order = sorted(self.groups, key=lambda g: (self.unseen & ~g[1]).bit_count() - g[2])
        for relaxed in range(len(order) + 1):
            for _ in range(tries):
                deal = self._try(rng, order, relaxed, strict=True)
                if deal is not None:
                    return deal
        deal = self._try(rng, order, len(order), strict=False)
        assert deal is not None
        return deal

    def _try(
        self, rng: random.Random, order: list[tuple[int, int, int]], relaxed: int, strict: bool
    ) -> tuple[list[int], list[int], float] | None:
        rest = self.unseen
        hands = [0] * self.seats
        log_weight = 0.0  # log of the ways each group could have been filled
        for k, (seat, forbid, count) in enumerate(order):
            if k < relaxed:
                forbid = 0
            allowed = bits(rest & ~forbid) if forbid else bits(rest)
            if len(allowed) < count:
                if strict:
                    return None
                count = len(allowed)
            log_weight += _LOG_FACTORIAL[len(allowed)] - _LOG_FACTORIAL[len(allowed) - count]
            for i in rng.sample(allowed, count):
                hands[seat] |= 1 << i
                rest ^= 1 << i
        left = bits(rest)
        rng.shuffle(left)
        return hands, left[: self.pile], log_weight
