"""A match: a sequence of hands under one ruleset, as an immutable value."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from domino.actions import Action, Draw, Pass, Play, Resign, decode_action, encode_action
from domino.errors import DominoError, IllegalAction
from domino.rules import Ruleset
from domino.scoring import score_hand
from domino.spinner import NO_ARMS, Arms, end_count, open_ends, place
from domino.tiles import Tile
from domino.views import Bonus, Event, HandResult, Outcome, Pair, View

SCHEMA_VERSION = 1

_FIELDS = (
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
    "_events",
    "_log",
    "_count",
    "spinner",
    "arms",
)

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
_ENDS = ("left", "right", "up", "down")
_DOUBLE_BLANK = Tile(0, 0)


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
    return sum(TILE_OF_BIT[i].pips for i in bits(mask))


_PLAYS_CACHE: dict[tuple[int, int, int], tuple[Play, ...]] = {}
_PLAYS_CACHE_SIZE = 1 << 17


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


@cache
def _sides(rs: Ruleset) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Each seat's side and each side's seats."""
    return (
        tuple(rs.side_of(s) for s in range(rs.seats)),
        tuple(rs.seats_of_side(side) for side in range(rs.sides)),
    )


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (the same draws, so
    the same deals from the same seed, and the generator left in the same state), in about
    half the time."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _heaviest(hands: Sequence[Sequence[Tile]], doubles_only: bool) -> tuple[int, Tile] | None:
    best: tuple[int, Tile] | None = None
    for seat, hand in enumerate(hands):
        for tile in hand:
            if doubles_only and not tile.is_double:
                continue
            if best is None or (tile.pips, tile.b) > (best[1].pips, best[1].b):
                best = (seat, tile)
    return best


class Match:
    """An immutable match state. ``apply`` returns a new Match; the old one is unchanged."""

    __slots__ = _FIELDS

    ruleset: Ruleset
    seed: int | str
    deal: dict[str, Any] | None
    hand_number: int
    _hands: tuple[int, ...]
    pile: tuple[Tile, ...]
    sleeping: tuple[Tile, ...]
    line: tuple[Pair, ...]
    opener_index: int | None
    last_index: int | None
    opener: int
    forced: Tile | None
    turn: int | None
    drawn: int
    last_player: int | None
    scores: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    outcome: Outcome | None
    _events: tuple[tuple[Any, ...], ...]
    _log: tuple[Any, ...] | None  # cons list: (previous, seat, action)
    _count: int
    spinner: int | None  # index in line of the spinner (rulesets with a spinner)
    arms: Arms  # the spinner's up and down arms

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
        m.ruleset = ruleset
        m.seed = seed
        m.deal = deal
        m.hand_number = 0
        m.scores = (0,) * ruleset.sides
        m.hand_results = ()
        m.outcome = None
        m._log = None
        m._count = 0
        m.opener = 0
        m._start_hand(None)
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
        m.ruleset = self.ruleset
        m.seed = self.seed
        m.deal = self.deal
        m.hand_number = self.hand_number
        m._hands = self._hands
        m.pile = self.pile
        m.sleeping = self.sleeping
        m.line = self.line
        m.opener_index = self.opener_index
        m.last_index = self.last_index
        m.opener = self.opener
        m.forced = self.forced
        m.turn = self.turn
        m.drawn = self.drawn
        m.last_player = self.last_player
        m.scores = self.scores
        m.hand_results = self.hand_results
        m.outcome = self.outcome
        m._events = self._events
        m._log = self._log
        m._count = self._count
        m.spinner = self.spinner
        m.arms = self.arms
        return m

    # -- reading ---------------------------------------------------------------------
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
            node, seat, action = node
            items.append((seat, action))
        items.reverse()
        return tuple(items)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since the start, in order (what to store)."""
        return tuple(a for _, a in self.history)

    @property
    def events(self) -> tuple[Event, ...]:
        """The public events of the current hand."""
        return tuple(Event(*e) for e in self._events)

    @property
    def ends(self) -> Pair | None:
        """The two open numbers, or None on an empty line."""
        line = self.line
        if not line:
            return None
        return (line[0][0], line[-1][1])

    @property
    def pile_size(self) -> int:
        """Tiles left in the pile to draw from."""
        return len(self.pile)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return all(
            getattr(self, f) == getattr(other, f) for f in _FIELDS if f != "_log"
        ) and self.history == other.history

    def __hash__(self) -> int:
        return hash((self.seed, self._count, self._hands))

    def __repr__(self) -> str:
        return (
            f"<Match {self.ruleset.id} seed={self.seed!r} hand={self.hand_number} "
            f"turn={self.turn} scores={self.scores}>"
        )

    def _plays(self, seat: int) -> list[Play]:
        hand = self._hands[seat]
        line = self.line
        if not line:
            if self.forced is not None:
                return [Play(self.forced, None)]
            return [_OPEN[i] for i in bits(hand)]
        if self.ruleset.spinner:
            return self._spinner_plays(hand)
        left = line[0][0]
        right = line[-1][1]
        key = (hand & (NUM[left] | NUM[right]), left, right)
        known = _PLAYS_CACHE.get(key)
        if known is None:
            known = _two_end_plays(*key)
            if len(_PLAYS_CACHE) >= _PLAYS_CACHE_SIZE:
                _PLAYS_CACHE.clear()
            _PLAYS_CACHE[key] = known
        return list(known)

    def _spinner_plays(self, hand: int) -> list[Play]:
        ends = self._distinct_ends()
        plays: list[Play] = []
        for i in bits(hand & self._open_mask()):
            tile = TILE_OF_BIT[i]
            plays.extend(Play(tile, name) for name, n in ends if tile.a == n or tile.b == n)
        return plays

    def _distinct_ends(self) -> list[tuple[str, int]]:
        """The open ends, leaving out one of two ends where a tile lands alike."""
        line = self.line
        ends = list(open_ends(line, self.spinner, self.arms))
        same_sides = line[0][0] == line[-1][1] and (
            self.spinner is None or (len(line) == 1)
        )
        if same_sides:  # a lone spinner, or no spinner and both ends alike: mirror images
            ends = [e for e in ends if e[0] != "left"]
        if len(ends) > 2 and not self.arms[0] and not self.arms[1]:
            ends = [e for e in ends if e[0] != "down"]
        return ends

    def _open_mask(self) -> int:
        """Every tile that matches an open end."""
        line = self.line
        mask = NUM[line[0][0]] | NUM[line[-1][1]]
        if self.spinner is not None:
            for _, n in open_ends(line, self.spinner, self.arms)[2:]:
                mask |= NUM[n]
        return mask

    def open_ends(self) -> tuple[tuple[str, int], ...]:
        """Every open end as ``(name, number)``: left, right, and a spinner's up and down."""
        return open_ends(self.line, self.spinner, self.arms)

    def _can_play(self, seat: int) -> bool:
        line = self.line
        if not line:
            return True
        return bool(self._hands[seat] & self._open_mask())

    def _can_draw(self) -> bool:
        rs = self.ruleset
        return (
            rs.draw
            and len(self.pile) > rs.draw_floor
            and (rs.draw_limit is None or self.drawn < rs.draw_limit)
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (empty when the match is over)."""
        if self.turn is None:
            return []
        plays: list[Action] = self._plays(self.turn)  # type: ignore[assignment]
        if plays:
            return plays
        if self._can_draw():
            return [_DRAW]
        return [_PASS]

    # -- views -----------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Contains no hidden tile."""
        if seat is not None and not 0 <= seat < self.ruleset.seats:
            raise DominoError(f"there is no seat {seat}")
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.turn else ()
        return View(
            ruleset=self.ruleset,
            seat=seat,
            hand=_tiles_of(self._hands[seat]) if seat is not None else None,
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            line=self.line,
            ends=self.ends,
            opener_index=self.opener_index,
            last_index=self.last_index,
            pile_size=len(self.pile),
            sleeping=len(self.sleeping),
            turn=self.turn,
            hand_number=self.hand_number,
            scores=self.scores,
            target=self.ruleset.target,
            hands_total=self.ruleset.hands,
            events=self.events,
            hand_results=self.hand_results,
            outcome=self.outcome,
            legal=legal,
            drawn_this_turn=self.drawn,
            opener=self.opener,
            spinner=self.spinner,
            arms=self.arms,
            open_ends=self.open_ends(),
            end_count=end_count(self.line, self.spinner, self.arms),
        )

    def public_view(self) -> View:
        """What a spectator may see."""
        return self.view(None)

    # -- acting ----------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Match:
        """Apply ``action`` (by ``seat``, when given, checked against the turn).

        Returns the new match; raises IllegalAction with a readable message.
        """
        if self.outcome is not None:
            raise IllegalAction("The match is over.", "match_over")
        turn = self.turn
        assert turn is not None
        if type(action) is Play:
            if seat is not None and seat != turn:
                raise self._not_your_turn(seat, turn)
            return self._play(turn, action)
        if isinstance(action, Resign):
            return self._resign(action)
        if seat is not None and seat != turn:
            raise self._not_your_turn(seat, turn)
        if isinstance(action, Draw):
            return self._draw(turn)
        if isinstance(action, Pass):
            return self._pass(turn)
        raise IllegalAction(f"{action!r} is not an action.", "unknown_action")

    @staticmethod
    def _not_your_turn(seat: int, turn: int) -> IllegalAction:
        return IllegalAction(
            f"It is seat {turn}'s turn, not seat {seat}'s.", "not_your_turn", seat=seat, turn=turn
        )

    def _play(self, seat: int, action: Play) -> Match:
        tile = action.tile
        bit = tile.bit
        hand = self._hands[seat]
        if not hand & bit:
            raise IllegalAction(f"You do not have {tile}.", "not_in_hand", tile=str(tile))
        rs = self.ruleset
        if rs.spinner:
            return self._play_spinner(seat, action)
        line = self.line
        end = action.end
        if end == "up" or end == "down":
            raise IllegalAction(f"There is no {end} end in this game.", "unknown_action")
        a = tile.a
        b = tile.b
        if not line:
            self._check_opening(tile)
            end = None
            ends = None
        else:
            left = line[0][0]
            right = line[-1][1]
            ends = (left, right)
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
                end = "right" if fits_right else "left"
            elif end == "left" and not fits_left:
                raise IllegalAction(
                    f"{tile} does not match the left end ({left}).", "no_match_end",
                    tile=str(tile), end=end, number=left,
                )
            elif end == "right" and not fits_right:
                raise IllegalAction(
                    f"{tile} does not match the right end ({right}).", "no_match_end",
                    tile=str(tile), end=end, number=right,
                )
        m = object.__new__(Match)
        m.ruleset = rs
        m.seed = self.seed
        m.deal = self.deal
        m.hand_number = self.hand_number
        m.pile = self.pile
        m.sleeping = self.sleeping
        m.opener = self.opener
        m.scores = self.scores
        m.hand_results = self.hand_results
        m.outcome = None
        m.spinner = None
        m.arms = self.arms
        m._log = (self._log, seat, Play(tile, end) if end is not action.end else action)
        m._count = self._count + 1
        m._events = (*self._events, (seat, "play", tile, end, ends))
        rest = hand ^ bit
        hands = self._hands
        m._hands = hands = (*hands[:seat], rest, *hands[seat + 1 :])
        if ends is None:
            m.line = line = ((a, b),)
            m.opener_index = 0
            m.last_index = 0
        elif end == "left":
            m.line = line = ((a + b - left, left), *line)
            m.opener_index = (self.opener_index or 0) + 1
            m.last_index = 0
        else:
            m.opener_index = self.opener_index
            m.last_index = len(line)
            m.line = line = (*line, (right, a + b - right))
        m.forced = None
        m.drawn = 0
        m.last_player = seat
        nxt = seat + 1
        if nxt == rs.seats:
            nxt = 0
        m.turn = nxt
        if not rest:
            m._end_hand("domino", seat)
        elif rs.close_gives_pile and m._closed():
            m._end_hand("block", None, "closed")
        elif not hands[nxt] & (NUM[line[0][0]] | NUM[line[-1][1]]):
            m._after_turn_step(nxt)  # the next seat cannot play: maybe blocked or stuck
        return m

    def _check_opening(self, tile: Tile) -> None:
        if self.forced is not None and tile is not self.forced:
            raise IllegalAction(
                f"This hand must open with {self.forced}.", "must_open_with",
                tile=str(self.forced),
            )

    def _after_play(self, seat: int, hands: list[int]) -> None:
        """End the hand or pass the turn after ``seat`` laid a tile."""
        self.forced = None
        self.drawn = 0
        self.last_player = seat
        if not hands[seat]:
            self._end_hand("domino", seat)
        elif self.ruleset.close_gives_pile and self._closed():
            self._end_hand("block", None, "closed")
        else:
            self._advance((seat + 1) % self.ruleset.seats)

    def _play_spinner(self, seat: int, action: Play) -> Match:
        """Lay a tile where the first double is a spinner and the ends may score."""
        rs = self.ruleset
        tile = action.tile
        line = self.line
        end: str | None = action.end
        spinner = self.spinner
        arms = self.arms
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
        m._log = (self._log, seat, Play(tile, end) if end != action.end else action)  # type: ignore[arg-type]
        m._count = self._count + 1
        m._events = (*self._events, (seat, "play", tile, end, ends_before, points))
        hands = list(self._hands)
        hands[seat] ^= tile.bit
        m._hands = tuple(hands)
        m.line = new_line
        m.opener_index = opener_index
        m.last_index = last_index
        m.spinner = spinner
        m.arms = arms
        if points:
            scores = list(self.scores)
            scores[rs.side_of(seat)] += points
            m.scores = tuple(scores)
        m._after_play(seat, hands)
        return m

    def _no_match(self, tile: Tile) -> IllegalAction:
        numbers = ", ".join(str(n) for _, n in self.open_ends())
        left, right = self.line[0][0], self.line[-1][1]
        return IllegalAction(
            f"{tile} does not match any open end ({numbers}).", "no_match",
            tile=str(tile), left=left, right=right, ends=numbers,
        )

    def _draw(self, seat: int) -> Match:
        if self._plays(seat):
            raise IllegalAction("You cannot draw while you can play.", "must_play")
        if not self._can_draw():
            if not self.ruleset.draw:
                raise IllegalAction("There is no drawing in this game.", "no_drawing")
            if self.ruleset.draw_limit is not None and self.drawn >= self.ruleset.draw_limit:
                raise IllegalAction(
                    f"You may draw at most {self.ruleset.draw_limit} tiles a turn.",
                    "draw_limit", limit=self.ruleset.draw_limit,
                )
            raise IllegalAction(
                "The pile is too small to draw from.", "pile_empty", floor=self.ruleset.draw_floor
            )
        m = self._copy()
        m._log = (self._log, seat, _DRAW)
        m._count = self._count + 1
        m._events = (*self._events, (seat, "draw", None, None, self.ends))
        tile = self.pile[0]
        m.pile = self.pile[1:]
        hands = list(self._hands)
        hands[seat] |= tile.bit
        m._hands = tuple(hands)
        m.drawn = self.drawn + 1
        m._after_turn_step(seat)
        return m

    def _pass(self, seat: int) -> Match:
        if self._can_play(seat):
            raise IllegalAction("You cannot pass while you can play.", "must_play")
        if self._can_draw():
            raise IllegalAction("You cannot pass while you can draw.", "must_draw")
        m = self._copy()
        m._log = (self._log, seat, _PASS)
        m._count = self._count + 1
        m._events = (*self._events, (seat, "pass", None, None, self.ends))
        m._advance((seat + 1) % self.ruleset.seats)
        return m

    def _resign(self, action: Resign) -> Match:
        rs = self.ruleset
        if not 0 <= action.seat < rs.seats:
            raise IllegalAction(f"There is no seat {action.seat}.", "no_seat", seat=action.seat)
        m = self._copy()
        m._log = (self._log, action.seat, action)
        m._count = self._count + 1
        loser = rs.side_of(action.seat)
        others = [s for s in range(rs.sides) if s != loser]
        if rs.scoring == "penalty":
            best = min(self.scores[s] for s in others)
        else:
            best = max(self.scores[s] for s in others)
        # On a tie between the others, the first side after the resigning one wins.
        order = sorted(others, key=lambda s: (s - loser) % rs.sides)
        winner = next(s for s in order if self.scores[s] == best)
        m.outcome = Outcome(winner, False, "resign", action.seat)
        m.turn = None
        return m

    # -- turn flow ---------------------------------------------------------------------
    def _closed(self) -> bool:
        """No tile outside the line can ever match an open end."""
        line = self.line
        on_table = mask_of(Tile(a, b) for a, b in line)
        outside = mask_of(self.ruleset.tiles) & ~on_table
        return not outside & (NUM[line[0][0]] | NUM[line[-1][1]])

    def _blocked(self) -> bool:
        """Nobody can play and nobody can draw."""
        rs = self.ruleset
        if rs.draw and len(self.pile) > rs.draw_floor:
            return False
        line = self.line
        if not line:
            return False
        held = 0
        for hand in self._hands:
            held |= hand
        return not held & self._open_mask()

    def _advance(self, seat: int) -> None:
        self.turn = seat
        self.drawn = 0
        line = self.line
        if line and self._hands[seat] & (NUM[line[0][0]] | NUM[line[-1][1]]):
            return  # the next seat can play: neither blocked nor stuck
        self._after_turn_step(seat)

    def _after_turn_step(self, seat: int) -> None:
        """End the hand if the position is blocked (or penalty's player to move is stuck)."""
        if self._blocked():
            self._end_hand("block", None)
            return
        rs = self.ruleset
        if rs.stuck_ends_hand and len(self.pile) <= rs.draw_floor and not self._can_play(seat):
            self._end_hand("block", None, "stuck")

    def _start_hand(self, previous: HandResult | None) -> None:
        rs = self.ruleset
        self.hand_number += 1
        number = self.hand_number
        rng = random.Random(f"{self.seed}/{number}")
        deal = self.deal if number == 1 else None
        if deal is not None:
            hands = [tuple(sorted(Tile.parse(t) for t in h)) for h in deal["hands"]]
            rest = [Tile.parse(t) for t in deal.get("pile", [])]
            self._check_deal(hands, rest)
        else:
            tiles = list(rs.tiles)
            shuffle(tiles, rng)
            size = rs.hand_size
            hands = [tiles[i * size : (i + 1) * size] for i in range(rs.seats)]
            rest = tiles[rs.seats * size :]
        self.line = ()
        self.opener_index = None
        self.last_index = None
        self._events = ()
        self.drawn = 0
        self.last_player = None
        self.forced = None
        self.spinner = None
        self.arms = NO_ARMS
        rule = rs.first_hand if number == 1 else rs.next_hand
        opener = self._choose_opener(rule, hands, previous, rng, deal)
        self.opener = opener
        if rs.start_tile:
            start = Tile.parse(deal["start"]) if deal and deal.get("start") else None
            if start is None:
                start = next(t for t in rest if not t.is_double)
            if start.is_double or start not in rest:
                raise DominoError(f"the start tile {start} must be a non-double from the pile")
            rest = [t for t in rest if t is not start]
            self.line = ((start.a, start.b),)
            self.opener_index = 0
            self._events = ((None, "start", start, None, None),)
        self._hands = tuple(mask_of(h) for h in hands)
        if rs.draw:
            self.pile, self.sleeping = tuple(rest), ()
        else:
            self.pile, self.sleeping = (), tuple(rest)
        self.turn = opener
        if rs.start_tile:
            self._after_turn_step(opener)

    def _check_deal(self, hands: list[tuple[Tile, ...]], rest: list[Tile]) -> None:
        rs = self.ruleset
        if len(hands) != rs.seats or any(len(h) != rs.hand_size for h in hands):
            raise DominoError(f"a {rs.id} deal has {rs.seats} hands of {rs.hand_size} tiles")
        every = [t for h in hands for t in h] + rest
        if sorted(every) != sorted(rs.tiles):
            raise DominoError("a deal must hold every tile of the set exactly once")

    def _choose_opener(
        self,
        rule: str,
        hands: Sequence[Sequence[Tile]],
        previous: HandResult | None,
        rng: random.Random,
        deal: dict[str, Any] | None,
    ) -> int:
        seats = self.ruleset.seats
        if rule in ("double-six", "highest-double", "heaviest"):
            if rule == "double-six":
                six = Tile(6, 6)
                found = next(((s, six) for s, h in enumerate(hands) if six in h), None)
            else:
                found = _heaviest(hands, doubles_only=True)
            if found is None:
                found = _heaviest(hands, doubles_only=False)
            assert found is not None
            self.forced = found[1]
            return found[0]
        if rule == "random":
            if deal is not None and deal.get("opener") is not None:
                return int(deal["opener"]) % seats
            return rng.randrange(seats)
        if rule == "seat-0" or previous is None:
            return 0
        if rule == "rotate":
            return (self.opener + 1) % seats
        if rule == "winner":
            return previous.winner_seat if previous.winner_seat is not None else self.opener
        raise DominoError(f"unknown opener rule {rule!r}")

    # -- end of a hand -------------------------------------------------------------------
    def _end_hand(self, kind: str, domino_seat: int | None, ending: str = "block") -> None:
        rs = self.ruleset
        blocker = self.last_player
        if kind == "block" and rs.close_gives_pile and self.pile:
            taker = ((blocker if blocker is not None else self.turn or 0) + 1) % rs.seats
            hands = list(self._hands)
            hands[taker] |= mask_of(self.pile)
            self.pile = ()
            self._hands = tuple(hands)
        pips = tuple(pips_of(h) for h in self._hands)
        side_of, seats_of_side = _sides(rs)
        winner_seat, winner_side, points = score_hand(
            rs, kind, pips, domino_seat, blocker, side_of, seats_of_side
        )
        gained = list(points)
        bonuses: tuple[Bonus, ...] = ()
        if rs.bonuses:
            bonuses = self._bonuses(kind, winner_side)
            for bonus in bonuses:
                gained[bonus.side] += bonus.points
        end_points: tuple[int, ...] = ()
        if rs.end_scoring:
            per_side = [0] * rs.sides
            for event in self._events:
                if len(event) > 5 and event[5]:
                    per_side[rs.side_of(event[0])] += event[5]
            end_points = tuple(per_side)
        total = tuple(g + e for g, e in zip(gained, end_points or (0,) * rs.sides, strict=True))
        result = HandResult(
            hand_number=self.hand_number,
            kind=kind,  # type: ignore[arg-type]
            winner_seat=winner_seat,
            winner_side=winner_side,
            points=total,
            pips=pips,
            opener=self.opener,
            last_player=blocker,
            line=self.line,
            opener_index=self.opener_index,
            bonuses=bonuses,
            end_points=end_points,
            ending="domino" if kind == "domino" else ending,  # type: ignore[arg-type]
            spinner=self.spinner,
            arms=self.arms,
        )
        self.hand_results = (*self.hand_results, result)
        self.scores = tuple(a + b for a, b in zip(self.scores, gained, strict=True))
        self.outcome = self._match_outcome()
        if self.outcome is not None:
            self.turn = None
            return
        self._start_hand(result)

    def _bonuses(self, kind: str, winner_side: int | None) -> tuple[Bonus, ...]:
        """The Latin bonuses ("premios") this hand earned, by the rules of RULES.md."""
        rs = self.ruleset
        events = self._events
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
            zeros = NUM[0] & mask_of(rs.tiles) & ~_DOUBLE_BLANK.bit
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
        return tuple(
            b for b in found if target is None or target - self.scores[b.side] > 25
        )

    def _match_outcome(self) -> Outcome | None:
        rs = self.ruleset
        if rs.hands is not None:
            if self.hand_number < rs.hands:
                return None
            best = min(self.scores) if rs.scoring == "penalty" else max(self.scores)
            leaders = [s for s, v in enumerate(self.scores) if v == best]
            if len(leaders) > 1:
                return Outcome(None, True, "hands")
            return Outcome(leaders[0], False, "hands")
        assert rs.target is not None
        reached = [s for s, v in enumerate(self.scores) if v >= rs.target]
        if not reached:
            return None
        best = max(self.scores[s] for s in reached)
        leaders = [s for s in reached if self.scores[s] == best]
        if len(leaders) > 1:
            return None  # sides level at or above the target play another hand
        return Outcome(leaders[0], False, "target")
