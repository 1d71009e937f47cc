"""A match: a sequence of hands under one ruleset, as an immutable value."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from domino.actions import Action, Draw, Pass, Play, Resign, decode_action, encode_action
from domino.errors import DominoError, IllegalAction
from domino.rules import Ruleset
from domino.tiles import Tile
from domino.views import Event, HandResult, Outcome, Pair, View

SCHEMA_VERSION = 1

_FIELDS = (
    "ruleset",
    "seed",
    "deal",
    "hand_number",
    "hands",
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
    "events",
    "history",
)


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles))


def _pips(hand: Sequence[Tile]) -> int:
    return sum(t.pips for t in hand)


def _fits(tile: Tile, ends: Pair) -> bool:
    return tile.has(ends[0]) or tile.has(ends[1])


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

    __slots__ = ("_actions", *_FIELDS)

    ruleset: Ruleset
    seed: int | str
    deal: dict[str, Any] | None
    hand_number: int
    hands: tuple[tuple[Tile, ...], ...]
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
    events: tuple[Event, ...]
    history: tuple[tuple[int, Action], ...]

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
        m.history = ()
        m._actions = ()
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
            "actions": [encode_action(a) for a in self._actions],
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
        for name in _FIELDS:
            setattr(m, name, getattr(self, name))
        m._actions = self._actions
        return m

    # -- reading ---------------------------------------------------------------------
    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since the start, in order (what to store)."""
        return self._actions

    @property
    def ends(self) -> Pair | None:
        """The two open numbers, or None on an empty line."""
        if not self.line:
            return None
        return (self.line[0][0], self.line[-1][1])

    @property
    def pile_size(self) -> int:
        """Tiles left in the pile to draw from."""
        return len(self.pile)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __hash__(self) -> int:
        return hash((self.seed, self._actions))

    def __repr__(self) -> str:
        return (
            f"<Match {self.ruleset.id} seed={self.seed!r} hand={self.hand_number} "
            f"turn={self.turn} scores={self.scores}>"
        )

    def _plays(self, seat: int) -> list[Play]:
        hand = self.hands[seat]
        if not self.line:
            if self.forced is not None:
                return [Play(self.forced, None)]
            return [Play(t, None) for t in hand]
        left, right = self.line[0][0], self.line[-1][1]
        plays: list[Play] = []
        for tile in hand:
            if left == right:
                if tile.has(left):
                    plays.append(Play(tile, "right"))
                continue
            if tile.has(left):
                plays.append(Play(tile, "left"))
            if tile.has(right):
                plays.append(Play(tile, "right"))
        return plays

    def _can_play(self, seat: int) -> bool:
        ends = self.ends
        if ends is None:
            return True
        return any(_fits(t, ends) for t in self.hands[seat])

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
        plays = self._plays(self.turn)
        if plays:
            return list(plays)
        if self._can_draw():
            return [Draw()]
        return [Pass()]

    # -- views -----------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Contains no hidden tile."""
        if seat is not None and not 0 <= seat < self.ruleset.seats:
            raise DominoError(f"there is no seat {seat}")
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.turn else ()
        return View(
            ruleset=self.ruleset,
            seat=seat,
            hand=self.hands[seat] if seat is not None else None,
            hand_sizes=tuple(len(h) for h in self.hands),
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
        if isinstance(action, Resign):
            return self._resign(action)
        turn = self.turn
        assert turn is not None
        if seat is not None and seat != turn:
            raise IllegalAction(f"It is seat {turn}'s turn, not seat {seat}'s.", "not_your_turn",
                                seat=seat, turn=turn)
        if isinstance(action, Play):
            return self._play(turn, action)
        if isinstance(action, Draw):
            return self._draw(turn)
        if isinstance(action, Pass):
            return self._pass(turn)
        raise IllegalAction(f"{action!r} is not an action.", "unknown_action")

    def _record(self, seat: int, action: Action, event: Event | None) -> None:
        self.history = (*self.history, (seat, action))
        self._actions = (*self._actions, action)
        if event is not None:
            self.events = (*self.events, event)

    def _play(self, seat: int, action: Play) -> Match:
        tile = action.tile
        hand = self.hands[seat]
        if tile not in hand:
            raise IllegalAction(f"You do not have {tile}.", "not_in_hand", tile=str(tile))
        ends = self.ends
        end = action.end
        if ends is None:
            if self.forced is not None and tile != self.forced:
                raise IllegalAction(
                    f"This hand must open with {self.forced}.", "must_open_with",
                    tile=str(self.forced),
                )
            end = None
        else:
            left, right = ends
            fits_left, fits_right = tile.has(left), tile.has(right)
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
        m = self._copy()
        normalised = Play(tile, end)
        m._record(seat, normalised, Event(seat, "play", tile, end, ends))
        m.hands = tuple(
            tuple(t for t in h if t is not tile) if s == seat else h
            for s, h in enumerate(self.hands)
        )
        if ends is None:
            m.line = ((tile.a, tile.b),)
            m.opener_index = 0
            m.last_index = 0
        elif end == "left":
            m.line = ((tile.other(ends[0]), ends[0]), *self.line)
            m.opener_index = (self.opener_index or 0) + 1
            m.last_index = 0
        else:
            m.line = (*self.line, (ends[1], tile.other(ends[1])))
            m.last_index = len(m.line) - 1
        m.forced = None
        m.drawn = 0
        m.last_player = seat
        if not m.hands[seat]:
            m._end_hand("domino", seat)
        elif self.ruleset.close_gives_pile and m._closed():
            m._end_hand("block", None)
        else:
            m._advance((seat + 1) % self.ruleset.seats)
        return m

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
        m._record(seat, Draw(), Event(seat, "draw", None, None, self.ends))
        tile = self.pile[0]
        m.pile = self.pile[1:]
        m.hands = tuple(
            _sorted((*h, tile)) if s == seat else h for s, h in enumerate(self.hands)
        )
        m.drawn = self.drawn + 1
        m._after_turn_step(seat)
        return m

    def _pass(self, seat: int) -> Match:
        if self._plays(seat):
            raise IllegalAction("You cannot pass while you can play.", "must_play")
        if self._can_draw():
            raise IllegalAction("You cannot pass while you can draw.", "must_draw")
        m = self._copy()
        m._record(seat, Pass(), Event(seat, "pass", None, None, self.ends))
        m.drawn = 0
        m._advance((seat + 1) % self.ruleset.seats)
        return m

    def _resign(self, action: Resign) -> Match:
        rs = self.ruleset
        if not 0 <= action.seat < rs.seats:
            raise IllegalAction(f"There is no seat {action.seat}.", "no_seat", seat=action.seat)
        m = self._copy()
        m._record(action.seat, action, None)
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
        ends = self.ends
        if ends is None:
            return False
        on_table = {Tile(a, b) for a, b in self.line}
        return not any(
            _fits(t, ends) for t in self.ruleset.tiles if t not in on_table
        )

    def _blocked(self) -> bool:
        """Nobody can play and nobody can draw."""
        if self.ruleset.draw and len(self.pile) > self.ruleset.draw_floor:
            return False
        return not any(self._can_play(s) for s in range(self.ruleset.seats))

    def _advance(self, seat: int) -> None:
        self.turn = seat
        self.drawn = 0
        self._after_turn_step(seat)

    def _after_turn_step(self, seat: int) -> None:
        """End the hand if the position is blocked (or penalty's player to move is stuck)."""
        if self._blocked():
            self._end_hand("block", None)
            return
        rs = self.ruleset
        if rs.stuck_ends_hand and len(self.pile) <= rs.draw_floor and not self._can_play(seat):
            self._end_hand("block", None)

    def _start_hand(self, previous: HandResult | None) -> None:
        rs = self.ruleset
        self.hand_number += 1
        number = self.hand_number
        rng = random.Random(f"{self.seed}/{number}")
        deal = self.deal if number == 1 else None
        if deal is not None:
            hands = [_sorted(Tile.parse(t) for t in h) for h in deal["hands"]]
            rest = [Tile.parse(t) for t in deal.get("pile", [])]
            self._check_deal(hands, rest)
        else:
            tiles = list(rs.tiles)
            rng.shuffle(tiles)
            size = rs.hand_size
            hands = [_sorted(tiles[i * size : (i + 1) * size]) for i in range(rs.seats)]
            rest = tiles[rs.seats * size :]
        self.line = ()
        self.opener_index = None
        self.last_index = None
        self.events = ()
        self.drawn = 0
        self.last_player = None
        self.forced = None
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
            self.events = (Event(None, "start", start, None, None),)
        self.hands = tuple(hands)
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
    def _end_hand(self, kind: str, domino_seat: int | None) -> None:
        rs = self.ruleset
        hands = list(self.hands)
        blocker = self.last_player
        if kind == "block" and rs.close_gives_pile and self.pile:
            taker = ((blocker if blocker is not None else self.turn or 0) + 1) % rs.seats
            hands[taker] = _sorted((*hands[taker], *self.pile))
            self.pile = ()
            self.hands = tuple(hands)
        pips = tuple(_pips(h) for h in hands)
        side_pips = [sum(pips[s] for s in rs.seats_of_side(side)) for side in range(rs.sides)]
        points = [0] * rs.sides
        winner_side: int | None = None
        winner_seat: int | None = None

        def lowest_of(side: int) -> int:
            seats = sorted(
                rs.seats_of_side(side),
                key=lambda s: (pips[s], (s - (blocker if blocker is not None else -1) - 1)
                               % rs.seats),
            )
            return seats[0]

        if rs.scoring == "penalty":
            for s in range(rs.seats):
                points[s] = pips[s]
                if kind == "domino" and s != domino_seat:
                    points[s] += rs.domino_penalty
            if kind == "domino":
                winner_seat = winner_side = domino_seat
            else:
                low = min(pips)
                if pips.count(low) == 1:
                    winner_seat = winner_side = pips.index(low)
        else:
            if kind == "domino":
                assert domino_seat is not None
                winner_seat = domino_seat
                winner_side = rs.side_of(domino_seat)
            elif rs.blocked == "team":
                low = min(side_pips)
                if side_pips.count(low) == 1:
                    winner_side = side_pips.index(low)
                elif rs.block_tie == "blocker-loses" and blocker is not None:
                    winner_side = 1 - rs.side_of(blocker)
            elif rs.blocked in ("individual", "lowest"):
                low = min(pips)
                sides = {rs.side_of(s) for s in range(rs.seats) if pips[s] == low}
                if len(sides) == 1:
                    winner_side = sides.pop()
            if winner_side is not None:
                if winner_seat is None:
                    winner_seat = lowest_of(winner_side)
                if kind == "block" and rs.blocked == "lowest":
                    low = pips[winner_seat]
                    gained = sum(p - low for s, p in enumerate(pips) if s != winner_seat)
                elif rs.scoring == "all":
                    gained = sum(pips)
                else:
                    gained = sum(p for side, p in enumerate(side_pips) if side != winner_side)
                points[winner_side] = gained
        result = HandResult(
            hand_number=self.hand_number,
            kind=kind,  # type: ignore[arg-type]
            winner_seat=winner_seat,
            winner_side=winner_side,
            points=tuple(points),
            pips=pips,
            opener=self.opener,
            last_player=blocker,
            line=self.line,
            opener_index=self.opener_index,
        )
        self.hand_results = (*self.hand_results, result)
        self.scores = tuple(a + b for a, b in zip(self.scores, points, strict=True))
        self.outcome = self._match_outcome()
        if self.outcome is not None:
            self.turn = None
            return
        self._start_hand(result)

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
        return Outcome(max(reached, key=lambda s: self.scores[s]), False, "target")
