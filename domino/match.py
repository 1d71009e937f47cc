"""A match: a sequence of hands under one ruleset, as an immutable value."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import add, attrgetter
from typing import Any

from domino.actions import Action, Draw, Pass, Play, Resign, decode_action, encode_action
from domino.errors import DominoError, IllegalAction
from domino.rules import OPENERS, Ruleset
from domino.scoring import score_hand
from domino.spinner import NO_ARMS, Arms, end_count, open_ends, place
from domino.tiles import Tile
from domino.views import Bonus, Event, HandResult, Outcome, Pair, View

SCHEMA_VERSION = 1

# Tiles as bits: tile a-b (a <= b) is bit a*10+b. NUM[n]: every tile showing n.
TILE_OF_BIT: dict[int, Tile] = {a * 10 + b: Tile(a, b) for a in range(10) for b in range(a, 10)}
BIT: dict[Tile, int] = {t: 1 << i for i, t in TILE_OF_BIT.items()}
NUM: tuple[int, ...] = tuple(
    sum(1 << (min(n, m) * 10 + max(n, m)) for m in range(10)) for n in range(10)
)
_LEFT = {i: Play(t, "left") for i, t in TILE_OF_BIT.items()}
_RIGHT = {i: Play(t, "right") for i, t in TILE_OF_BIT.items()}
_OPEN = {i: Play(t, None) for i, t in TILE_OF_BIT.items()}
_DRAW = Draw()
_PASS = Pass()
_PASS_ONLY = (_PASS,)
_ENDS = ("left", "right", "up", "down")
_LEFT_END = "left"
_RIGHT_END = "right"
_DOUBLE_BLANK = Tile(0, 0)
_DOUBLE_SIX = Tile(6, 6)
_TILE_OF_VALUE: dict[int, Tile] = {t.bit: t for t in TILE_OF_BIT.values()}
_PIPS_OF_BIT: dict[int, int] = {t.bit: t.pips for t in TILE_OF_BIT.values()}
# FITS[left*10+right]: every tile that fits a line with those ends.
_FITS: tuple[int, ...] = tuple(NUM[k // 10] | NUM[k % 10] for k in range(100))


def bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bitmask of some tiles."""
    m = 0
    for t in tiles:
        m |= t.bit
    return m


def _tiles_of(mask: int) -> tuple[Tile, ...]:
    return tuple(TILE_OF_BIT[i] for i in bits(mask))


def pips_of(mask: int) -> int:
    """Total pips of the tiles in ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += _PIPS_OF_BIT[low]
        mask ^= low
    return total


# The plays of a hand on a two-ended line, by the line's ends (left*10+right) and then by the
# hand's tiles that fit them; cleared as a whole once it holds _PLAYS_CACHE_SIZE entries.
_PLAYS_BY_ENDS: tuple[dict[int, tuple[Play, ...]], ...] = tuple({} for _ in range(100))
_PLAYS_CACHE_SIZE = 1 << 17
_plays_cached = 0


def _cached_plays(fitting: int, left: int, right: int) -> tuple[Play, ...]:
    """:func:`_two_end_plays` through the cache (``fitting``: the hand's tiles that fit)."""
    global _plays_cached
    table = _PLAYS_BY_ENDS[left * 10 + right]
    known = table.get(fitting)
    if known is None:
        known = _two_end_plays(fitting, left, right)
        if _plays_cached >= _PLAYS_CACHE_SIZE:
            for t in _PLAYS_BY_ENDS:
                t.clear()
            _plays_cached = 0
        table[fitting] = known
        _plays_cached += 1
    return known


def _two_end_plays(mask: int, left: int, right: int) -> tuple[Play, ...]:
    """The plays of the tiles ``mask`` (each showing ``left`` or ``right``) on a line with
    those two ends, in the engine's order (a tile fitting both: left first)."""
    if left == right:
        return tuple(_RIGHT[i] for i in bits(mask))
    plays: list[Play] = []
    nl = NUM[left]
    nr = NUM[right]
    while mask:
        bit = mask & -mask
        mask ^= bit
        i = bit.bit_length() - 1
        if bit & nl:
            plays.append(_LEFT[i])
        if bit & nr:
            plays.append(_RIGHT[i])
    return tuple(plays)


class _Facts:
    """What the engine derives from a ruleset, computed once."""

    __slots__ = ("all_tiles", "seats_of_side", "side_of", "tile_values")

    def __init__(self, rs: Ruleset) -> None:
        self.side_of = tuple(rs.side_of(s) for s in range(rs.seats))
        self.seats_of_side = tuple(rs.seats_of_side(side) for side in range(rs.sides))
        self.tile_values = tuple(t.bit for t in rs.tiles)  # in the set's order
        self.all_tiles = sum(self.tile_values)


# By the ruleset's id, with the ruleset itself: the entry keeps it alive, so the id is not
# reused while the entry stays, and a ruleset's hash (all its fields) is not computed.
_FACTS: dict[int, tuple[Ruleset, _Facts]] = {}


def _facts(rs: Ruleset) -> _Facts:
    """The (cached) :class:`_Facts` of ``rs``."""
    entry = _FACTS.get(id(rs))
    if entry is not None and entry[0] is rs:
        return entry[1]
    facts = _Facts(rs)
    if len(_FACTS) >= 1024:
        _FACTS.clear()
    _FACTS[id(rs)] = (rs, facts)
    return facts


# For a list of each length: (index, index + 1, its bit length) from the last index down.
_SHUFFLE_PLANS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (the same draws, so
    the same deals from the same seed, and the generator left in the same state), in about
    half the time."""
    plan = _SHUFFLE_PLANS.get(len(items))
    if plan is None:
        plan = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))
        if len(_SHUFFLE_PLANS) < 256:
            _SHUFFLE_PLANS[len(items)] = plan
    getrandbits = rng.getrandbits
    for i, n, k in plan:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _heaviest(hands: Sequence[int], doubles_only: bool) -> tuple[int, Tile] | None:
    """The seat holding the heaviest tile (most pips, then the higher end) and that tile."""
    best: tuple[int, Tile] | None = None
    for seat, hand in enumerate(hands):
        for i in bits(hand):
            tile = TILE_OF_BIT[i]
            if doubles_only and not tile.is_double:
                continue
            if best is None or (tile.pips, tile.b) > (best[1].pips, best[1].b):
                best = (seat, tile)
    return best


def _choose_opener(
    rs: Ruleset,
    rule: str,
    hands: Sequence[int],
    previous_winner: int | None,
    previous_opener: int | None,
    rng: random.Random,
    deal: dict[str, Any] | None,
) -> tuple[int, Tile | None]:
    """The seat that opens the hand and the tile it must open with (None: any), after a hand
    won by ``previous_winner`` (None: a tie) and opened by ``previous_opener`` (None: this is
    the first hand)."""
    seats = rs.seats
    if rule in ("double-six", "highest-double", "heaviest"):
        found: tuple[int, Tile] | None
        if rule == "double-six":
            found = None
            for seat, hand in enumerate(hands):
                if hand & _DOUBLE_SIX.bit:
                    found = (seat, _DOUBLE_SIX)
                    break
        else:
            found = _heaviest(hands, doubles_only=True)
        if found is None:
            found = _heaviest(hands, doubles_only=False)
        assert found is not None
        return found
    if rule == "random":
        if deal is not None and deal.get("opener") is not None:
            return int(deal["opener"]) % seats, None
        return rng.randrange(seats), None
    if rule == "seat-0" or previous_opener is None:
        return 0, None
    if rule == "rotate":
        return (previous_opener + 1) % seats, None
    if rule == "winner":
        return (previous_winner if previous_winner is not None else previous_opener), None
    raise DominoError(f"unknown opener rule {rule!r}")


def _check_deal(rs: Ruleset, hands: list[tuple[Tile, ...]], rest: list[Tile]) -> None:
    if len(hands) != rs.seats or any(len(h) != rs.hand_size for h in hands):
        raise DominoError(f"a {rs.id} deal has {rs.seats} hands of {rs.hand_size} tiles")
    every = [t for h in hands for t in h] + rest
    if sorted(every) != sorted(rs.tiles):
        raise DominoError("a deal must hold every tile of the set exactly once")


def _deal(
    rs: Ruleset,
    seed: int | str,
    number: int,
    deal: dict[str, Any] | None,
    previous_winner: int | None,
    previous_opener: int | None,
) -> tuple[tuple[int, ...], tuple[Tile, ...], int, Tile | None, Tile | None]:
    """Hand ``number``'s deal: ``(hands as masks, undealt tiles, opener, forced opening tile,
    penalty's start tile)``; the same seed and number always deal the same."""
    rng = random.Random(f"{seed}/{number}")
    if deal is not None:
        dealt = [tuple(sorted(Tile.parse(t) for t in h)) for h in deal["hands"]]
        rest = [Tile.parse(t) for t in deal.get("pile", [])]
        _check_deal(rs, dealt, rest)
        hands = tuple(mask_of(h) for h in dealt)
    else:
        values = list(_facts(rs).tile_values)
        shuffle(values, rng)
        size = rs.hand_size
        # the bits of different tiles never overlap: their sum is their union
        dealt_count = rs.seats * size
        hands = tuple([sum(values[i : i + size]) for i in range(0, dealt_count, size)])
        rest = [_TILE_OF_VALUE[v] for v in values[dealt_count:]]
    rule = rs.first_hand if number == 1 else rs.next_hand
    opener, forced = _choose_opener(
        rs, rule, hands, previous_winner, previous_opener, rng, deal
    )
    start: Tile | None = None
    if rs.start_tile:
        start = Tile.parse(deal["start"]) if deal and deal.get("start") else None
        if start is None:
            start = next(t for t in rest if not t.is_double)
        if start.is_double or start not in rest:
            raise DominoError(f"the start tile {start} must be a non-double from the pile")
        rest = [t for t in rest if t is not start]
    return hands, tuple(rest), opener, forced, start


def _line_of(
    log: tuple[Any, ...] | None,
    first: tuple[Any, ...] | None,
    size: int,
    start_events: tuple[tuple[Any, ...], ...],
) -> tuple[Pair, ...]:
    """The line of a two-ended hand of ``size`` tiles, from its plays in the history ``log``
    back to ``first`` (where the hand began) and penalty's start tile."""
    # From the last play back to the first: the tiles laid on the left fill the line from
    # its left end in, those laid on the right from its right end in; the first tile (or the
    # start tile) goes after the left ones.
    built: list[Any] = [None] * size
    lefts = 0
    rights = size - 1
    node = log
    while node is not first:
        assert node is not None
        if type(node[2]) is Play:
            tile = node[2].tile
            left = node[3]
            if left < 0:
                built[lefts] = (tile.a, tile.b)
            elif node[2].end == "left":
                built[lefts] = (tile.a + tile.b - left, left)
                lefts += 1
            else:
                right = node[4]
                built[rights] = (right, tile.a + tile.b - right)
                rights -= 1
        node = node[0]
    if start_events:
        start = start_events[0][2]
        built[lefts] = (start.a, start.b)
    return tuple(built)


def _hand_result(
    number: int,
    kind: str,
    winner_seat: int | None,
    winner_side: int | None,
    points: tuple[int, ...],
    pips: tuple[int, ...],
    opener: int,
    last_player: int | None,
    line: tuple[Pair, ...] | None,
    line_source: tuple[Any, ...] | None,
    opener_index: int | None,
    bonuses: tuple[Bonus, ...],
    end_points: tuple[int, ...],
    ending: str,
    spinner: int | None,
    arms: Arms,
    log: tuple[Any, ...] | None = None,
    first: tuple[Any, ...] | None = None,
) -> HandResult:
    """A finished hand's result; ``line`` is the line, or None: :func:`_line_of` makes it
    from ``line_source``; the hand's moves are the log's nodes from ``log`` back to
    ``first``."""
    if line is None:
        assert line_source is not None
        line = _line_of(*line_source)
    last_end: str | None = None
    node = log
    while node is not None and node is not first:
        action = node[2]
        if type(action) is Play:
            last_end = action.end
            break
        node = node[0]
    return HandResult(
        hand_number=number,
        kind=kind,  # type: ignore[arg-type]
        winner_seat=winner_seat,
        winner_side=winner_side,
        points=points,
        pips=pips,
        opener=opener,
        last_player=last_player,
        line=line,
        opener_index=opener_index,
        bonuses=bonuses,
        end_points=end_points,
        ending=ending,  # type: ignore[arg-type]
        spinner=spinner,
        arms=arms,
        last_end=last_end,
    )


class _HandState:
    """The parts of a match state that change seldom (once a hand, or on a draw), shared by
    every state that does not change them.

    A hand that follows another is dealt when first looked at: ``previous`` then holds what the
    deal needs (the last hand's result and opener), and the fields of ``_DEALT_HAND`` (with
    the match's fields of ``_DEALT_MATCH``, kept in ``dealt``) are filled in on first use.
    The deal depends only on the seed, so this is invisible from outside.
    """

    __slots__ = (
        "arms",
        "deal",
        "dealt",  # the match's fields at the start of the hand (see _DEALT_MATCH)
        "drawn",
        "first",  # the match's history (its log node) when this hand began
        "forced",
        "hand_results",
        "number",
        "opener",
        "outcome",
        "pile",
        "plain",  # no outcome, no forced opening tile, nothing drawn this turn
        "previous",  # (winner, opener) of the hand before, while this one is not dealt
        "result_parts",  # while hand_results is not built: (earlier hand state, last result)
        "ruleset",
        "scores",
        "seed",
        "sleeping",
        "spinner",
        "start_events",
    )

    ruleset: Ruleset
    seed: int | str
    deal: dict[str, Any] | None
    number: int
    scores: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    outcome: Outcome | None
    first: tuple[Any, ...] | None
    previous: tuple[int | None, int] | None
    result_parts: tuple[Any, ...] | None
    spinner: int | None
    arms: Arms
    drawn: int
    plain: bool
    sleeping: tuple[Tile, ...]
    opener: int
    forced: Tile | None
    pile: tuple[Tile, ...]
    start_events: tuple[tuple[Any, ...], ...]
    dealt: tuple[Any, ...] | None

    def __getattr__(self, name: str) -> Any:
        # Only reached for a field that is not set: a hand that is not dealt yet, or hand
        # results not built yet.
        if name == "hand_results" and self.result_parts is not None:
            earlier, parts = self.result_parts
            results = (*earlier.hand_results, _hand_result(*parts))
            self.hand_results = results
            self.result_parts = None  # after the results: a copy takes one or the other
            return results
        if name in _DEALT_HAND and self.previous is not None:
            self._deal_now()
            return object.__getattribute__(self, name)
        raise AttributeError(f"'_HandState' object has no attribute {name!r}")

    def _deal_now(self) -> None:
        """Deal this (following) hand; each field is set once, to its final value."""
        assert self.previous is not None
        winner, opener = self.previous
        rs = self.ruleset
        hands, rest, opener, forced, _ = _deal(rs, self.seed, self.number, None, winner, opener)
        if rs.draw:
            self.pile, self.sleeping = rest, ()
        else:
            self.pile, self.sleeping = (), rest
        self.opener = opener
        self.forced = forced
        self.plain = forced is None
        self.start_events = ()
        self.dealt = (hands, 0, -1, -1, (), opener, None, None, None, None)

    def copy(self) -> _HandState:
        """A dealt copy to change."""
        h = object.__new__(_HandState)
        h.ruleset = self.ruleset
        h.seed = self.seed
        h.deal = self.deal
        h.number = self.number
        h.scores = self.scores
        h.outcome = self.outcome
        h.first = self.first
        h.previous = None
        h.result_parts = self.result_parts
        if h.result_parts is None:
            h.hand_results = self.hand_results
        h.spinner = self.spinner
        h.arms = self.arms
        h.drawn = self.drawn
        h.sleeping = self.sleeping
        h.opener = self.opener
        h.forced = self.forced
        h.plain = self.plain
        h.pile = self.pile
        h.start_events = self.start_events
        h.dealt = None
        return h


# Set by a deal: the hand state's fields, and the match's (in the order of ``dealt``).
_DEALT_HAND = frozenset(
    {"sleeping", "opener", "forced", "plain", "pile", "start_events", "dealt"}
)
_DEALT_MATCH = (
    "_hands",
    "_size",
    "_left",
    "_right",
    "_line",
    "turn",
    "opener_index",
    "last_index",
    "last_player",
    "_legal",
)
_DEALT_INDEX = {name: i for i, name in enumerate(_DEALT_MATCH)}
# Opener rules a following hand may be dealt lazily with (any other raises at once).
_LAZY_OPENERS = frozenset(OPENERS)

# Compared by ==, besides the history.
_EQ_FIELDS = (
    "ruleset",
    "seed",
    "deal",
    "hand_number",
    "_hands",
    "pile",
    "sleeping",
    "line",
    "opener_index",
    "last_index",
    "opener",
    "forced",
    "turn",
    "drawn",
    "last_player",
    "scores",
    "hand_results",
    "outcome",
    "spinner",
    "arms",
)


def _hand_field(name: str, doc: str) -> Any:
    """A Match attribute kept in its hand state; setting it (to construct a position) gives
    that match a hand state of its own."""

    def set_field(match: Match, value: Any) -> None:
        h = match._h.copy()
        setattr(h, name, value)
        h.plain = h.outcome is None and h.forced is None and not h.drawn
        match._h = h

    return property(attrgetter(f"_h.{name}"), set_field, doc=doc)


class Match:
    """An immutable match state. ``apply`` returns a new Match; the old one is unchanged.

    Successive states share what an action does not change (the hand state, the history).
    """

    __slots__ = (
        "_h",
        "_hands",
        "_left",
        "_legal",
        "_line",
        "_log",
        "_right",
        "_size",
        "hand_number",
        "last_index",
        "last_player",
        "opener_index",
        "turn",
    )

    _h: _HandState
    hand_number: int
    _hands: tuple[int, ...]  # each seat's tiles as a mask
    # The line: how many tiles it holds, its ends (-1 while it is empty) and, once built, the
    # tuple (None until then: it is built from the hand's plays in the history; with a
    # spinner it is always kept).
    _size: int
    _left: int
    _right: int
    _line: tuple[Pair, ...] | None
    turn: int | None
    opener_index: int | None
    last_index: int | None
    last_player: int | None
    # the legal actions of the seat to move when the action that made this state found them
    # on the way (else None)
    _legal: tuple[Action, ...] | None
    # cons list of the actions: (previous, seat, action[, left, right[, points]]) where left
    # and right were the ends before it (-1: an empty line); a node of more than three items
    # is also a public event of its hand
    _log: tuple[Any, ...] | None

    def __getattr__(self, name: str) -> Any:
        # Only reached for a field that is not set: the first look at a hand not dealt yet.
        i = _DEALT_INDEX.get(name)
        if i is not None:
            values = self._h.dealt
            if values is not None:
                for field, value in zip(_DEALT_MATCH, values, strict=True):
                    setattr(self, field, value)
                return values[i]
        raise AttributeError(f"'Match' object has no attribute {name!r}")

    def _match_outcome(self) -> Outcome | None:
        """How the match ends after this hand with these scores (None: it goes on)."""
        return _match_outcome(self._h.ruleset, self.hand_number, self._h.scores)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(
        cls, ruleset: Ruleset, seed: int | str, deal: dict[str, Any] | None = None
    ) -> Match:
        """Start a match; ``deal`` optionally fixes the first hand.

        ``deal`` = ``{"hands": [["6-6", ...], ...], "pile": [...], "opener": seat}``; for a
        no-draw game ``pile`` lists the sleeping tiles; for ``penalty`` an optional
        ``"start"`` tile (else the first non-double of the pile). ``opener`` only matters
        where the ruleset picks a random seat.
        """
        m = object.__new__(cls)
        m._log = None
        m._start_hand(ruleset, seed, deal, 1, (0,) * ruleset.sides, None, None, None)
        return m

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset,
        seed: int | str,
        actions: Iterable[Action | str],
        deal: dict[str, Any] | None = None,
    ) -> Match:
        """Rebuild a match from its seed and actions (text or Action)."""
        m = cls.new(ruleset, seed, deal)
        for action in actions:
            m = m.apply(decode_action(action) if isinstance(action, str) else action)
        return m

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form with a schema version."""
        return {
            "schema": SCHEMA_VERSION,
            "ruleset": self.ruleset.to_dict(),
            "seed": self.seed,
            "deal": self.deal,
            "actions": [encode_action(a) for a in self.actions],
            "check": {"hand_number": self.hand_number, "scores": list(self.scores)},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Inverse of :meth:`to_dict`; checks the stored summary still matches."""
        if data.get("schema") != SCHEMA_VERSION:
            raise DominoError(f"unsupported match schema {data.get('schema')!r}")
        m = cls.replay(
            Ruleset.from_dict(data["ruleset"]), data["seed"], data["actions"], data.get("deal")
        )
        check = data.get("check")
        if check and (
            check["hand_number"] != m.hand_number or list(check["scores"]) != list(m.scores)
        ):
            raise DominoError("stored match does not replay to the same state")
        return m

    def _copy(self) -> Match:
        m = object.__new__(Match)
        m._h = self._h
        m.hand_number = self.hand_number
        m._hands = self._hands
        m._size = self._size
        m._left = self._left
        m._right = self._right
        m._line = self._line
        m.turn = self.turn
        m.opener_index = self.opener_index
        m.last_index = self.last_index
        m.last_player = self.last_player
        m._legal = None
        m._log = self._log
        return m

    # -- reading ---------------------------------------------------------------------
    ruleset = _hand_field("ruleset", "The rules of the match.")
    seed = _hand_field("seed", "The seed every hand is dealt from.")
    deal = _hand_field("deal", "The fixed deal of the first hand, if any.")
    scores = _hand_field("scores", "Each side's score.")
    hand_results = _hand_field("hand_results", "The finished hands, in order.")
    outcome = _hand_field("outcome", "How the match ended, or None while it goes on.")
    pile = _hand_field("pile", "The tiles left to draw, the next one first.")
    sleeping = _hand_field("sleeping", "The undealt tiles of a game without drawing.")
    opener = _hand_field("opener", "The seat that moved first in this hand.")
    forced = _hand_field(
        "forced", "The tile the hand must open with (None: any, or the line is started)."
    )
    drawn = _hand_field("drawn", "Tiles the seat to move drew this turn.")
    spinner = _hand_field(
        "spinner", "The index in ``line`` of the spinner (rulesets with a spinner), or None."
    )
    arms = _hand_field("arms", "The spinner's up and down arms.")

    @property
    def line(self) -> tuple[Pair, ...]:
        """The main line, oriented ``(left, right)`` pairs from left to right."""
        line = self._line
        if line is None:
            h = self._h
            line = self._line = _line_of(self._log, h.first, self._size, h.start_events)
        return line

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles, sorted."""
        return tuple(_tiles_of(h) for h in self._hands)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every ``(seat, action)`` since the start of the match, in order."""
        items: list[tuple[int, Action]] = []
        node = self._log
        while node is not None:
            items.append((node[1], node[2]))
            node = node[0]
        items.reverse()
        return tuple(items)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since the start, in order (what to store)."""
        return tuple(a for _, a in self.history)

    def _events(self) -> tuple[tuple[Any, ...], ...]:
        """The public events of the current hand as tuples of :class:`Event`'s fields."""
        h = self._h
        found: list[tuple[Any, ...]] = []
        node = self._log
        first = h.first
        while node is not first:
            assert node is not None
            if len(node) > 3:
                seat, action, left = node[1], node[2], node[3]
                ends = (left, node[4]) if left >= 0 else None
                if type(action) is Play:
                    if len(node) > 5:
                        found.append((seat, "play", action.tile, action.end, ends, node[5]))
                    else:
                        found.append((seat, "play", action.tile, action.end, ends))
                elif type(action) is Draw:
                    found.append((seat, "draw", None, None, ends))
                else:
                    found.append((seat, "pass", None, None, ends))
            node = node[0]
        found.reverse()
        return h.start_events + tuple(found)

    @property
    def events(self) -> tuple[Event, ...]:
        """The public events of the current hand."""
        return tuple(Event(*e) for e in self._events())

    @property
    def ends(self) -> Pair | None:
        """The two open numbers, or None on an empty line."""
        left = self._left
        if left < 0:
            return None
        return (left, self._right)

    @property
    def pile_size(self) -> int:
        """Tiles left in the pile to draw from."""
        return len(self._h.pile)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (
            all(getattr(self, f) == getattr(other, f) for f in _EQ_FIELDS)
            and self._events() == other._events()
            and self.history == other.history
        )

    def __hash__(self) -> int:
        count = 0
        node = self._log
        while node is not None:
            count += 1
            node = node[0]
        return hash((self.seed, count, self._hands))

    def __repr__(self) -> str:
        return (
            f"<Match {self.ruleset.id} seed={self.seed!r} hand={self.hand_number} "
            f"turn={self.turn} scores={self.scores}>"
        )

    def _plays(self, seat: int) -> list[Play]:
        hand = self._hands[seat]
        left = self._left
        if left < 0:
            forced = self._h.forced
            if forced is not None:
                return [Play(forced, None)]
            return [_OPEN[i] for i in bits(hand)]
        if self._h.ruleset.spinner:
            return self._spinner_plays(hand)
        right = self._right
        return list(_cached_plays(hand & _FITS[left * 10 + right], left, right))

    def _spinner_plays(self, hand: int) -> list[Play]:
        ends = self._distinct_ends()
        plays: list[Play] = []
        for i in bits(hand & self._open_mask()):
            tile = TILE_OF_BIT[i]
            plays.extend(Play(tile, name) for name, n in ends if tile.a == n or tile.b == n)
        return plays

    def _distinct_ends(self) -> list[tuple[str, int]]:
        """The open ends, leaving out one of two ends where a tile lands alike (a ruleset
        with a spinner: its line is always kept)."""
        line = self._line
        assert line is not None
        spinner = self._h.spinner
        arms = self._h.arms
        ends = list(open_ends(line, spinner, arms))
        same_sides = self._left == self._right and (spinner is None or (len(line) == 1))
        if same_sides:  # a lone spinner, or no spinner and both ends alike: mirror images
            ends = [e for e in ends if e[0] != "left"]
        if len(ends) > 2 and not arms[0] and not arms[1]:
            ends = [e for e in ends if e[0] != "down"]
        return ends

    def _open_mask(self) -> int:
        """Every tile that matches an open end (the line is not empty)."""
        mask = _FITS[self._left * 10 + self._right]
        spinner = self._h.spinner
        if spinner is not None:
            for _, n in open_ends(self._line, spinner, self._h.arms)[2:]:  # type: ignore[arg-type]
                mask |= NUM[n]
        return mask

    def open_ends(self) -> tuple[tuple[str, int], ...]:
        """Every open end as ``(name, number)``: left, right, and a spinner's up and down."""
        return open_ends(self.line, self._h.spinner, self._h.arms)

    def _can_play(self, seat: int) -> bool:
        if self._left < 0:
            return True
        return bool(self._hands[seat] & self._open_mask())

    def _can_draw(self) -> bool:
        h = self._h
        rs = h.ruleset
        return (
            rs.draw
            and len(h.pile) > rs.draw_floor
            and (rs.draw_limit is None or h.drawn < rs.draw_limit)
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (empty when the match is over)."""
        known = self._legal  # None once the match is over
        if known is not None:
            return list(known)
        turn = self.turn
        if turn is None:
            return []
        left = self._left
        if left >= 0 and not self._h.ruleset.spinner:
            right = self._right
            key = left * 10 + right
            fitting = self._hands[turn] & _FITS[key]
            known = _PLAYS_BY_ENDS[key].get(fitting)
            if known is None:
                known = _cached_plays(fitting, left, right)
            if known:
                return list(known)
        else:
            plays: list[Action] = self._plays(turn)  # type: ignore[assignment]
            if plays:
                return plays
        if self._h.ruleset.draw and self._can_draw():
            return [_DRAW]
        return [_PASS]

    # -- views -----------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Contains no hidden tile."""
        h = self._h
        rs = h.ruleset
        if seat is not None and not 0 <= seat < rs.seats:
            raise DominoError(f"there is no seat {seat}")
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.turn else ()
        line = self.line
        return View(
            ruleset=rs,
            seat=seat,
            hand=_tiles_of(self._hands[seat]) if seat is not None else None,
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            line=line,
            ends=self.ends,
            opener_index=self.opener_index,
            last_index=self.last_index,
            pile_size=len(h.pile),
            sleeping=len(h.sleeping),
            turn=self.turn,
            hand_number=self.hand_number,
            scores=h.scores,
            target=rs.target,
            hands_total=rs.hands,
            events=self.events,
            hand_results=h.hand_results,
            outcome=h.outcome,
            legal=legal,
            drawn_this_turn=h.drawn,
            opener=h.opener,
            spinner=h.spinner,
            arms=h.arms,
            open_ends=self.open_ends(),
            end_count=end_count(line, h.spinner, h.arms),
        )

    def public_view(self) -> View:
        """What a spectator may see."""
        return self.view(None)

    # -- acting ----------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Match:
        """Apply ``action`` (by ``seat``, when given, checked against the turn).

        Returns the new match; raises IllegalAction with a readable message.
        """
        h = self._h
        if not h.plain and h.outcome is not None:
            raise IllegalAction("The match is over.", "match_over")
        turn = self.turn
        if type(action) is not Play:
            if action is _PASS:
                if seat is not None and seat != turn:
                    raise self._not_your_turn(seat, turn)
                return self._pass(turn)
            if isinstance(action, Resign):
                return self._resign(action)
            if seat is not None and seat != turn:
                raise self._not_your_turn(seat, turn)
            if isinstance(action, Draw):
                return self._draw(turn)
            if isinstance(action, Pass):
                return self._pass(turn)
            raise IllegalAction(f"{action!r} is not an action.", "unknown_action")
        if seat is not None and seat != turn:
            raise self._not_your_turn(seat, turn)
        # A play on a line with two ends (the common case), inline for speed.
        tile = action.tile
        bit = tile.bit
        hands = self._hands
        hand = hands[turn]
        if not hand & bit:
            raise IllegalAction(f"You do not have {tile}.", "not_in_hand", tile=str(tile))
        rs = h.ruleset
        if rs.spinner:
            return self._play_spinner(turn, action)
        end = action.end
        a = tile.a
        b = tile.b
        left = self._left
        right = self._right
        # A play from legal_actions() names an end it fits; anything else is checked in full.
        if (end is _RIGHT_END and (a == right or b == right)) or (
            end is _LEFT_END and (a == left or b == left)
        ):
            played = action
        else:
            end = self._two_end_check(tile, end, left, right)
            played = Play(tile, end) if end is not action.end else action  # type: ignore[arg-type]
        m = object.__new__(Match)
        if not h.plain:  # the opening tile was forced, or tiles were drawn this turn
            h = h.copy()
            h.forced = None
            h.drawn = 0
            h.plain = True
        m._h = h
        m.hand_number = self.hand_number
        m._log = (self._log, turn, played, left, right)
        rest = hand ^ bit
        held = [*hands]
        held[turn] = rest
        m._hands = hands = (*held,)
        m._line = None
        if left < 0:
            m._size = 1
            m._left = left = a
            m._right = right = b
            m.opener_index = 0
            m.last_index = 0
        elif end == "left":
            left = a + b - left
            m._size = self._size + 1
            m._left = left
            m._right = right
            m.opener_index = (self.opener_index or 0) + 1
            m.last_index = 0
        else:
            size = self._size
            m._size = size + 1
            m._left = left
            m._right = right = a + b - right
            m.opener_index = self.opener_index
            m.last_index = size
        m.last_player = turn
        nxt = turn + 1
        if nxt == rs.seats:
            nxt = 0
        m.turn = nxt
        if not rest:
            m._legal = None
            m._end_hand("domino", turn)
        elif rs.close_gives_pile and m._closed():
            m._legal = None
            m._end_hand("block", None, "closed")
        else:
            key = left * 10 + right
            fitting = hands[nxt] & _FITS[key]
            if fitting:  # the next seat's plays, for legal_actions()
                known = _PLAYS_BY_ENDS[key].get(fitting)
                m._legal = known if known is not None else _cached_plays(fitting, left, right)
            elif not (rs.draw or rs.stuck_ends_hand):  # it passes, unless nobody can play
                if sum(hands) & _FITS[key]:  # the seats' tiles differ: the sum is the union
                    m._legal = _PASS_ONLY
                else:
                    m._legal = None
                    m._end_hand("block", None)
            else:
                m._legal = None
                m._after_turn_step(nxt)  # the next seat cannot play: maybe blocked or stuck
        return m

    def _two_end_check(self, tile: Tile, end: str | None, left: int, right: int) -> str | None:
        """The end a play goes to on a two-ended line (None: it opens the line); raises
        IllegalAction when it may not be played there."""
        if end == "up" or end == "down":
            raise IllegalAction(f"There is no {end} end in this game.", "unknown_action")
        if left < 0:
            self._check_opening(tile)
            return None
        a = tile.a
        b = tile.b
        fits_left = a == left or b == left
        fits_right = a == right or b == right
        if not (fits_left or fits_right):
            raise IllegalAction(
                f"{tile} does not match {left} or {right}.", "no_match",
                tile=str(tile), left=left, right=right,
            )
        if end is None:
            if fits_left and fits_right and left != right:
                raise IllegalAction(
                    f"{tile} fits both ends: choose left ({left}) or right ({right}).",
                    "choose_end", tile=str(tile), left=left, right=right,
                )
            return "right" if fits_right else "left"
        if end == "left" and not fits_left:
            raise IllegalAction(
                f"{tile} does not match the left end ({left}).", "no_match_end",
                tile=str(tile), end=end, number=left,
            )
        if end == "right" and not fits_right:
            raise IllegalAction(
                f"{tile} does not match the right end ({right}).", "no_match_end",
                tile=str(tile), end=end, number=right,
            )
        return end

    @staticmethod
    def _not_your_turn(seat: int, turn: int) -> IllegalAction:
        return IllegalAction(
            f"It is seat {turn}'s turn, not seat {seat}'s.", "not_your_turn", seat=seat, turn=turn
        )

    def _check_opening(self, tile: Tile) -> None:
        forced = self._h.forced
        if forced is not None and tile is not forced:
            raise IllegalAction(
                f"This hand must open with {forced}.", "must_open_with", tile=str(forced)
            )

    def _after_play(self, seat: int) -> None:
        """End the hand or pass the turn after ``seat`` laid a tile (the hand state's
        ``forced`` and ``drawn`` are already cleared)."""
        self.last_player = seat
        if not self._hands[seat]:
            self._end_hand("domino", seat)
        elif self._h.ruleset.close_gives_pile and self._closed():
            self._end_hand("block", None, "closed")
        else:
            self._advance((seat + 1) % self._h.ruleset.seats)

    def _play_spinner(self, seat: int, action: Play) -> Match:
        """Lay a tile where the first double is a spinner and the ends may score."""
        h = self._h
        rs = h.ruleset
        tile = action.tile
        line = self._line
        assert line is not None  # always kept with a spinner
        end: str | None = action.end
        spinner = h.spinner
        arms = h.arms
        if not line:
            self._check_opening(tile)
            end = None
            ends_before = None
            opener_index: int | None = 0
            last_index: int | None = 0
        else:
            ends_before = (line[0][0], line[-1][1])
            numbers = dict(self.open_ends())
            fits = [name for name, n in self._distinct_ends() if tile.has(n)]
            if end is None:
                if not fits:
                    raise self._no_match(tile)
                if len(fits) > 1:
                    raise IllegalAction(
                        f"{tile} fits several ends: choose one of {', '.join(fits)}.",
                        "choose_end", tile=str(tile), left=ends_before[0],
                        right=ends_before[1], ends=", ".join(fits),
                    )
                end = fits[0]
            elif end not in numbers:
                raise IllegalAction(
                    f"The {end} end opens once the spinner has tiles on both other sides.",
                    "arm_closed", tile=str(tile), end=end,
                )
            elif not tile.has(numbers[end]):
                if not fits:
                    raise self._no_match(tile)
                raise IllegalAction(
                    f"{tile} does not match the {end} end ({numbers[end]}).", "no_match_end",
                    tile=str(tile), end=end, number=numbers[end],
                )
            opener_index = self.opener_index
            last_index = None
            if end == "left":
                opener_index = (opener_index or 0) + 1
                last_index = 0
            elif end == "right":
                last_index = len(line)
        new_line, spinner, arms = place(line, spinner, arms, tile, end)
        count = end_count(new_line, spinner, arms)
        points = count if count and rs.end_scoring and count % rs.end_scoring == 0 else 0
        m = self._copy()
        played = Play(tile, end) if end != action.end else action  # type: ignore[arg-type]
        m._log = (self._log, seat, played, self._left, self._right, points)
        hands = list(self._hands)
        hands[seat] ^= tile.bit
        m._hands = tuple(hands)
        m._line = new_line
        m._size = len(new_line)
        m._left = new_line[0][0]
        m._right = new_line[-1][1]
        m.opener_index = opener_index
        m.last_index = last_index
        if points or not h.plain or spinner != h.spinner or arms is not h.arms:
            h = h.copy()
            h.spinner = spinner
            h.arms = arms
            h.forced = None
            h.drawn = 0
            h.plain = True
            if points:
                scores = list(h.scores)
                scores[rs.side_of(seat)] += points
                h.scores = tuple(scores)
            m._h = h
        m._after_play(seat)
        return m

    def _no_match(self, tile: Tile) -> IllegalAction:
        numbers = ", ".join(str(n) for _, n in self.open_ends())
        left, right = self._left, self._right
        return IllegalAction(
            f"{tile} does not match any open end ({numbers}).", "no_match",
            tile=str(tile), left=left, right=right, ends=numbers,
        )

    def _draw(self, seat: int) -> Match:
        if self._plays(seat):
            raise IllegalAction("You cannot draw while you can play.", "must_play")
        if not self._can_draw():
            rs = self._h.ruleset
            if not rs.draw:
                raise IllegalAction("There is no drawing in this game.", "no_drawing")
            if rs.draw_limit is not None and self._h.drawn >= rs.draw_limit:
                raise IllegalAction(
                    f"You may draw at most {rs.draw_limit} tiles a turn.",
                    "draw_limit", limit=rs.draw_limit,
                )
            raise IllegalAction(
                "The pile is too small to draw from.", "pile_empty", floor=rs.draw_floor
            )
        m = self._copy()
        m._log = (self._log, seat, _DRAW, self._left, self._right)
        h = self._h.copy()
        tile = h.pile[0]
        h.pile = h.pile[1:]
        h.drawn += 1
        h.plain = False
        m._h = h
        hands = list(self._hands)
        hands[seat] |= tile.bit
        m._hands = tuple(hands)
        m._after_turn_step(seat)
        return m

    def _pass(self, seat: int) -> Match:
        left = self._left
        h = self._h
        if (
            left < 0
            or self._hands[seat]
            & (_FITS[left * 10 + self._right] if h.spinner is None else self._open_mask())
        ):
            raise IllegalAction("You cannot pass while you can play.", "must_play")
        rs = h.ruleset
        if rs.draw and self._can_draw():
            raise IllegalAction("You cannot pass while you can draw.", "must_draw")
        m = object.__new__(Match)
        m._h = h
        m.hand_number = self.hand_number
        m._hands = hands = self._hands
        m._size = self._size
        m._left = left
        m._right = right = self._right
        m._line = self._line
        m.opener_index = self.opener_index
        m.last_index = self.last_index
        m.last_player = self.last_player
        m._legal = None
        m._log = (self._log, seat, _PASS, left, right)
        nxt = seat + 1
        if nxt == rs.seats:
            nxt = 0
        m.turn = nxt
        if h.drawn:
            h = m._h = h.copy()
            h.drawn = 0
            h.plain = h.forced is None
        key = left * 10 + right
        fitting = hands[nxt] & _FITS[key]
        if not fitting:
            if rs.draw or rs.spinner or rs.stuck_ends_hand:
                m._after_turn_step(nxt)  # the next seat cannot play: maybe blocked or stuck
            elif sum(hands) & _FITS[key]:  # the next seat passes too (the sum is the union)
                m._legal = _PASS_ONLY
            else:
                m._end_hand("block", None)
        elif not rs.spinner:  # the next seat's plays, for legal_actions()
            known = _PLAYS_BY_ENDS[key].get(fitting)
            m._legal = known if known is not None else _cached_plays(fitting, left, right)
        return m

    def _resign(self, action: Resign) -> Match:
        h = self._h
        rs = h.ruleset
        if not 0 <= action.seat < rs.seats:
            raise IllegalAction(f"There is no seat {action.seat}.", "no_seat", seat=action.seat)
        m = self._copy()
        m._log = (self._log, action.seat, action)
        loser = rs.side_of(action.seat)
        others = [s for s in range(rs.sides) if s != loser]
        scores = h.scores
        if rs.scoring == "penalty":
            best = min(scores[s] for s in others)
        else:
            best = max(scores[s] for s in others)
        # On a tie between the others, the first side after the resigning one wins.
        order = sorted(others, key=lambda s: (s - loser) % rs.sides)
        winner = next(s for s in order if scores[s] == best)
        h = h.copy()
        if action.timeouts:
            h.outcome = Outcome(winner, False, "time", action.seat, action.timeouts)
        else:
            h.outcome = Outcome(winner, False, "resign", action.seat)
        h.plain = False
        m._h = h
        m.turn = None
        return m

    # -- turn flow ---------------------------------------------------------------------
    def _closed(self) -> bool:
        """No tile outside the line can ever match an open end."""
        h = self._h
        if h.spinner is None:  # a tile is in the line, a hand, the pile or asleep
            outside = sum(self._hands) | mask_of(h.pile) | mask_of(h.sleeping)
        else:
            on_table = mask_of(Tile(a, b) for a, b in self.line)
            outside = _facts(h.ruleset).all_tiles & ~on_table
        return not outside & _FITS[self._left * 10 + self._right]

    def _blocked(self) -> bool:
        """Nobody can play and nobody can draw."""
        h = self._h
        rs = h.ruleset
        if rs.draw and len(h.pile) > rs.draw_floor:
            return False
        left = self._left
        if left < 0:
            return False
        mask = _FITS[left * 10 + self._right] if h.spinner is None else self._open_mask()
        # the seats hold different tiles: the sum of their masks is their union
        return not sum(self._hands) & mask

    def _advance(self, seat: int) -> None:
        """Give the turn to ``seat`` (this state's hand state is its own, or unchanged when
        nothing was drawn)."""
        self.turn = seat
        h = self._h
        if h.drawn:
            h = self._h = h.copy()
            h.drawn = 0
            h.plain = h.forced is None
        left = self._left
        if left >= 0 and self._hands[seat] & _FITS[left * 10 + self._right]:
            return  # the next seat can play: neither blocked nor stuck
        self._after_turn_step(seat)

    def _after_turn_step(self, seat: int) -> None:
        """End the hand if the position is blocked (or penalty's player to move is stuck)."""
        if self._blocked():
            self._end_hand("block", None)
            return
        h = self._h
        rs = h.ruleset
        if rs.stuck_ends_hand and len(h.pile) <= rs.draw_floor and not self._can_play(seat):
            self._end_hand("block", None, "stuck")

    def _start_hand(
        self,
        rs: Ruleset,
        seed: int | str,
        deal: dict[str, Any] | None,
        number: int,
        scores: tuple[int, ...],
        earlier: _HandState | None,
        previous_winner: int | None,
        previous_opener: int | None,
    ) -> None:
        """Deal hand ``number`` now (the first one, and those that may end before any move);
        ``earlier`` is the hand state that holds the results so far (None: no hand yet)."""
        hands, rest, opener, forced, start = _deal(
            rs, seed, number, deal if number == 1 else None, previous_winner, previous_opener
        )
        h = object.__new__(_HandState)
        h.ruleset = rs
        h.seed = seed
        h.deal = deal
        h.number = number
        h.scores = scores
        if earlier is None:
            h.result_parts = None
            h.hand_results = ()
        else:
            h.result_parts = earlier.result_parts
            if h.result_parts is None:
                h.hand_results = earlier.hand_results
        h.outcome = None
        h.first = self._log
        h.previous = None
        h.spinner = None
        h.arms = NO_ARMS
        h.drawn = 0
        h.opener = opener
        h.forced = forced
        h.plain = forced is None
        if rs.draw:
            h.pile, h.sleeping = rest, ()
        else:
            h.pile, h.sleeping = (), rest
        h.dealt = None
        self._h = h
        self.hand_number = number
        self._hands = hands
        self.turn = opener
        self.last_player = None
        self.last_index = None
        self._legal = None
        if start is not None:
            pair = (start.a, start.b)
            self._size = 1
            self._line = (pair,)
            self._left, self._right = pair
            self.opener_index = 0
            h.start_events = ((None, "start", start, None, None),)
            self._after_turn_step(opener)
        else:
            self._size = 0
            self._line = ()
            self._left = self._right = -1
            self.opener_index = None
            h.start_events = ()

    # -- end of a hand -------------------------------------------------------------------
    def _end_hand(self, kind: str, domino_seat: int | None, ending: str = "block") -> None:
        """Score the hand on this new state, then end the match or begin the next hand."""
        h = self._h
        rs = h.ruleset
        blocker = self.last_player
        hands = self._hands
        pile = h.pile
        if kind == "block" and rs.close_gives_pile and pile:
            taker = ((blocker if blocker is not None else self.turn or 0) + 1) % rs.seats
            held = list(hands)
            held[taker] |= mask_of(pile)
            pile = ()
            self._hands = hands = tuple(held)
        pips = tuple(map(pips_of, hands))
        facts = _facts(rs)
        winner_seat, winner_side, points = score_hand(
            rs, kind, pips, domino_seat, blocker, facts.side_of, facts.seats_of_side
        )
        gained = points
        total = points
        bonuses: tuple[Bonus, ...] = ()
        end_points: tuple[int, ...] = ()
        if rs.bonuses or rs.end_scoring:
            events = self._events()
            if rs.bonuses:
                bonuses = self._bonuses(events, kind, winner_side)
                more = list(points)
                for bonus in bonuses:
                    more[bonus.side] += bonus.points
                gained = total = tuple(more)
            if rs.end_scoring:
                per_side = [0] * rs.sides
                for event in events:
                    if len(event) > 5 and event[5]:
                        per_side[rs.side_of(event[0])] += event[5]
                end_points = tuple(per_side)
                total = tuple(map(add, gained, end_points))
        number = self.hand_number
        line = self._line
        # The HandResult is made when the hand results are first read (see _HandState).
        result_parts = (h, (
            number,
            kind,
            winner_seat,
            winner_side,
            total,
            pips,
            h.opener,
            blocker,
            line,
            None if line is not None else (self._log, h.first, self._size, h.start_events),
            self.opener_index,
            bonuses,
            end_points,
            "domino" if kind == "domino" else ending,
            h.spinner,
            h.arms,
            self._log,
            h.first,
        ))
        scores = tuple(map(add, h.scores, gained))
        outcome = _match_outcome(rs, number, scores)
        if outcome is not None or rs.start_tile or rs.next_hand not in _LAZY_OPENERS:
            h = self._h = h.copy()
            h.pile = pile
            if h.result_parts is None:  # else the copy's results are not built either
                del h.hand_results
            h.result_parts = result_parts
            h.scores = scores
            h.outcome = outcome
            h.plain = outcome is None and h.forced is None and not h.drawn
            if outcome is not None:
                self.turn = None
            else:
                self._start_hand(
                    rs, h.seed, h.deal, number + 1, scores, h, winner_seat, h.opener
                )
            return
        # The next hand is dealt when first looked at (see _HandState).
        nxt = object.__new__(_HandState)
        nxt.ruleset = rs
        nxt.seed = h.seed
        nxt.deal = h.deal
        nxt.number = number + 1
        nxt.scores = scores
        nxt.result_parts = result_parts
        nxt.outcome = None
        nxt.first = self._log
        nxt.previous = (winner_seat, h.opener)
        nxt.spinner = None
        nxt.arms = NO_ARMS
        nxt.drawn = 0
        self._h = nxt
        self.hand_number = number + 1
        for name in _DEALT_MATCH:
            delattr(self, name)

    def _bonuses(
        self, events: tuple[tuple[Any, ...], ...], kind: str, winner_side: int | None
    ) -> tuple[Bonus, ...]:
        """The Latin bonuses ("premios") this hand earned, by the rules of RULES.md."""
        rs = self._h.ruleset
        found: list[Bonus] = []
        kinds = [e[1] for e in events]
        if kinds[:3] == ["play", "pass", "play"]:  # the rival passed, the partner played
            opener, tile = events[0][0], events[0][2]
            found.append(
                Bonus("first-pass", rs.side_of(opener), 25 if tile.is_double else 50, opener)
            )
        for i in range(len(events) - 3):
            if kinds[i] == "play" and kinds[i + 1 : i + 4] == ["pass", "pass", "pass"]:
                found.append(Bonus("round-pass", rs.side_of(events[i][0]), 25, events[i][0]))
        if kind == "domino" and winner_side is not None:
            seat, _, tile, _, ends = events[-1][:5]
            if ends is not None and ends[0] != ends[1] and tile is Tile(*sorted(ends)):
                found.append(Bonus("capicua", winner_side, 25, seat))
        if winner_side is not None:
            holder = next(
                (s for s, h in enumerate(self._hands) if h & _DOUBLE_BLANK.bit), None
            )
            on_table = mask_of(Tile(a, b) for a, b in self.line)
            zeros = NUM[0] & _facts(rs).all_tiles & ~_DOUBLE_BLANK.bit
            ends = self.ends
            if (
                holder is not None
                and rs.side_of(holder) != winner_side
                and on_table & zeros == zeros
                and ends is not None
                and 0 not in ends
            ):
                found.append(Bonus("dead-double-blank", winner_side, 15, holder))
        target = rs.target
        scores = self._h.scores
        return tuple(b for b in found if target is None or target - scores[b.side] > 25)


def _match_outcome(rs: Ruleset, hand_number: int, scores: tuple[int, ...]) -> Outcome | None:
    """How the match ends after hand ``hand_number`` with these ``scores`` (None: it goes on)."""
    if rs.hands is not None:
        if hand_number < rs.hands:
            return None
        best = min(scores) if rs.scoring == "penalty" else max(scores)
        leaders = [s for s, v in enumerate(scores) if v == best]
        if len(leaders) > 1:
            return Outcome(None, True, "hands")
        return Outcome(leaders[0], False, "hands")
    assert rs.target is not None
    if max(scores) < rs.target:
        return None
    reached = [s for s, v in enumerate(scores) if v >= rs.target]
    if not reached:
        return None
    best = max(scores[s] for s in reached)
    leaders = [s for s in reached if scores[s] == best]
    if len(leaders) > 1:
        return None  # sides level at or above the target play another hand
    return Outcome(leaders[0], False, "target")
