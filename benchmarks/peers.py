"""Published dominoes players, made to play our partnership rules, for ``benchmarks.ai``.

- ``dominoes``: the ``dominoes`` package's probabilistic alpha-beta player (6.1.0,
  ``players.probabilistic_alphabeta``): it deals the hidden tiles ``samples`` times
  consistently with the passes it saw (``Game.random_possible_hands``), searches each deal
  with alpha-beta and plays the move that was best most often. The package searches to the
  end of the hand, which takes minutes early in a hand; here the search stops ``depth`` plies
  deep and scores the position there by the pips left (the other team's minus its own).
- ``openspiel``: OpenSpiel's information-set Monte Carlo tree search
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) with random roll-outs, ``sims``
  simulations per move, on a game object that plays our rules (:class:`SpielState`) and
  resamples the hidden hands uniformly among those consistent with every pass.

Both see only what the seat may see: the dominoes player is given a game rebuilt from the
seat's view; the search tree player resamples every hidden hand before each simulation.
Neither package is a project dependency: ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import copy
import functools
import math
import random
from collections.abc import Callable
from typing import Any

from domino import Match, Play
from domino.actions import Action
from domino.ai.sim import Sim, bits, to_action, to_move
from domino.match import NUM, mask_of
from domino.tiles import Tile
from domino.views import View

Peer = Callable[[Match, int, random.Random], Action]


# -- the dominoes package ----------------------------------------------------------------


def dominoes_player(samples: int = 10, depth: int = 4) -> Peer:
    """The ``dominoes`` package's probabilistic alpha-beta, ``samples`` deals, ``depth`` plies."""
    import dominoes  # optional: the bench extra

    def alphabeta(game: Any, depth_left: int, alpha: float, beta: float) -> tuple[Any, float]:
        if game.result is not None:
            return None, game.result.points
        if depth_left == 0:
            pips = [sum(d.first + d.second for d in h) for h in game.hands]
            return None, float(pips[1] + pips[3] - pips[0] - pips[2])
        maximizing = game.turn % 2 == 0
        best_move, best = None, -float("inf") if maximizing else float("inf")
        for move, child in dominoes.search.make_moves(game):
            _, value = alphabeta(child, depth_left - 1, alpha, beta)
            if (value > best) if maximizing else (value < best):
                best_move, best = move, value
                if maximizing:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if beta <= alpha:
                    break
        return best_move, best

    def choose(match: Match, seat: int, rng: random.Random) -> Action:
        view = match.view(seat)
        if len(view.legal) == 1:
            return view.legal[0]
        game = _dominoes_game(dominoes, view, rng)
        random.seed(rng.random())  # the package samples with the module-level generator
        counter: dict[Any, int] = {}
        for _ in range(samples):
            trial = copy.deepcopy(game)
            trial.hands = game.random_possible_hands()
            move, _ = alphabeta(trial, depth, -float("inf"), float("inf"))
            counter[move] = counter.get(move, 0) + 1
        best = max(game.valid_moves, key=lambda m: counter.get(m, 0))
        return _from_package_move(view, best)

    return choose


def _dominoes_game(dominoes: Any, view: View, rng: random.Random) -> Any:
    """A ``dominoes.Game`` holding only what ``view`` shows (hidden hands: any split)."""
    assert view.seat is not None and view.hand is not None and view.ends is not None
    seats = view.ruleset.seats
    line_mask = mask_of(Tile(a, b) for a, b in view.line)
    own = mask_of(view.hand)
    unseen = [i for i in bits(mask_of(view.ruleset.tiles) & ~own & ~line_mask)]
    rng.shuffle(unseen)
    hands = []
    for s in range(seats):
        if s == view.seat:
            tiles = list(view.hand)
        else:
            tiles = [_tile(i) for i in unseen[: view.hand_sizes[s]]]
            unseen = unseen[view.hand_sizes[s] :]
        hands.append(dominoes.Hand([dominoes.Domino(t.a, t.b) for t in tiles]))
    moves: list[Any] = []
    starting = None
    for e in view.events:
        if starting is None:
            starting = e.seat
        if e.kind == "play" and e.tile is not None:
            moves.append((dominoes.Domino(e.tile.a, e.tile.b), e.end != "right"))
        elif e.kind == "pass":
            moves.append(None)
    board = dominoes.SkinnyBoard(view.ends[0], view.ends[1], len(view.line))
    game = dominoes.Game(board, hands, moves, view.seat, (), starting, None)
    game._update_valid_moves()
    return game


def _tile(i: int) -> Tile:
    return Tile(i // 10, i % 10)


def _from_package_move(view: View, move: tuple[Any, bool]) -> Action:
    domino, left = move
    tile = Tile(min(domino.first, domino.second), max(domino.first, domino.second))
    wanted = Play(tile, "left" if left else "right")
    if wanted in view.legal:
        return wanted
    return next(a for a in view.legal if isinstance(a, Play) and a.tile == tile)


# -- OpenSpiel ---------------------------------------------------------------------------


class _GameType:
    """What ``ISMCTSBot`` asks of ``state.get_game().get_type()``."""

    def __init__(self) -> None:
        import pyspiel

        self.dynamics = pyspiel.GameType.Dynamics.SEQUENTIAL
        self.information = pyspiel.GameType.Information.IMPERFECT_INFORMATION


class _Game:
    def __init__(self) -> None:
        self._type = _GameType()

    def get_type(self) -> _GameType:
        return self._type


class SpielState:
    """One hand of our rules in the shape OpenSpiel's search algorithms use.

    Actions are ints >= 0 (simulator move + 2, since OpenSpiel keeps -1 for "no action");
    returns are each seat's side points minus the other side's, divided by ``scale``.
    """

    __slots__ = ("game", "history", "scale", "sim")

    def __init__(self, sim: Sim, history: tuple[int, ...], game: _Game, scale: float) -> None:
        self.sim = sim
        self.history = history
        self.game = game
        self.scale = scale

    def get_game(self) -> _Game:
        return self.game

    def clone(self) -> SpielState:
        return SpielState(self.sim.copy(), self.history, self.game, self.scale)

    def current_player(self) -> int:
        return self.sim.turn

    def is_terminal(self) -> bool:
        return self.sim.turn < 0

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [m + 2 for m in self.sim.legal()]

    def apply_action(self, action: int) -> None:
        self.history = (*self.history, int(action))
        self.sim.apply(int(action) - 2)

    def returns(self) -> list[float]:
        result = self.sim.result
        if result is None:
            return [0.0] * self.sim.rules.seats
        side_of = self.sim.rules.side_of
        points = result.points
        total = sum(points)
        out = []
        for s in range(self.sim.rules.seats):
            mine = points[side_of[s]]
            out.append((mine - (total - mine) / (len(points) - 1)) / self.scale)
        return out

    def info_key(self) -> tuple[int, int, tuple[int, ...]]:
        seat = self.sim.turn
        return seat, self.sim.hands[seat], self.history


def spiel_root(match: Match, scale: float = 100.0) -> SpielState:
    """The current hand of ``match`` as a :class:`SpielState` (true hands: resample them)."""
    sim = Sim.from_match(match)
    for e in match.events:
        if e.kind == "pass" and e.ends_before is not None and e.seat is not None:
            a, b = e.ends_before
            sim.lacks[e.seat] |= (1 << a) | (1 << b)
    history = tuple(to_move(a) + 2 for a in match.actions[-len(match.events) :]) if (
        match.events
    ) else ()
    return SpielState(sim, history, _Game(), scale)


def resample(state: SpielState, player: int, rng: random.Random) -> SpielState:
    """A copy of ``state`` with the other seats' hands dealt again, uniformly among the deals
    that keep every hand size and give no seat a number it passed on (no-draw rules)."""
    sim = state.sim
    others = tuple(s for s in range(sim.rules.seats) if s != player)
    pool = 0
    for s in others:
        pool |= sim.hands[s]
    forbid = []
    for s in others:
        f = 0
        for n in bits(sim.lacks[s]):
            f |= NUM[n]
        forbid.append(f)
    sizes = tuple(sim.hands[s].bit_count() for s in others)
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in bits(pool):
        allowed = tuple(k for k in range(len(others)) if not forbid[k] >> i & 1)
        groups.setdefault(allowed, []).append(i)
    sampler = _counter(tuple((a, len(t)) for a, t in groups.items()))
    hands = sim.hands[:]
    counts = sampler.sample(sizes, rng)
    if counts is None:
        return state.clone()  # no consistent deal (cannot happen in a real game)
    for s in others:
        hands[s] = 0
    for (_, tiles), split in zip(groups.items(), counts, strict=True):
        tiles = tiles[:]
        rng.shuffle(tiles)
        k = 0
        for j, n in split:
            for i in tiles[k : k + n]:
                hands[others[j]] |= 1 << i
            k += n
    out = state.clone()
    out.sim.hands = hands
    return out


@functools.lru_cache(maxsize=64)
def _counter(groups: tuple[tuple[tuple[int, ...], int], ...]) -> _DealCounter:
    return _DealCounter(groups)


class _DealCounter:
    """Counts the deals of tile groups (each with the seats allowed to hold it) into hands of
    given sizes, and samples one uniformly: how many tiles of each group each seat gets."""

    def __init__(self, groups: tuple[tuple[tuple[int, ...], int], ...]) -> None:
        self.groups = groups
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, int], ...]]] = {}

    def splits(self, g: int, room: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
        key = (g, room)
        found = self.split_memo.get(key)
        if found is None:
            found = self.split_memo[key] = self._splits(g, room)
        return found

    def _splits(self, g: int, room: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
        allowed, n = self.groups[g]
        out: list[tuple[tuple[int, int], ...]] = []

        def rec(k: int, left: int, acc: tuple[tuple[int, int], ...]) -> None:
            if k == len(allowed) - 1:
                if left <= room[allowed[k]]:
                    out.append((*acc, (allowed[k], left)))
                return
            for take in range(min(left, room[allowed[k]]) + 1):
                rec(k + 1, left - take, (*acc, (allowed[k], take)))

        if allowed:
            rec(0, n, ())
        elif n == 0:
            out.append(())
        return out

    def ways(self, g: int, room: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(room) else 0
        key = (g, room)
        if key not in self.memo:
            total = 0
            for split in self.splits(g, room):
                total += self._arrangements(split) * self.ways(g + 1, self._after(room, split))
            self.memo[key] = total
        return self.memo[key]

    @staticmethod
    def _arrangements(split: tuple[tuple[int, int], ...]) -> int:
        n = sum(k for _, k in split)
        out = math.factorial(n)
        for _, k in split:
            out //= math.factorial(k)
        return out

    @staticmethod
    def _after(room: tuple[int, ...], split: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        left = list(room)
        for j, k in split:
            left[j] -= k
        return tuple(left)

    def sample(
        self, sizes: tuple[int, ...], rng: random.Random
    ) -> list[tuple[tuple[int, int], ...]] | None:
        if self.ways(0, sizes) == 0:
            return None
        room = sizes
        out = []
        for g in range(len(self.groups)):
            options = []
            for split in self.splits(g, room):
                w = self._arrangements(split) * self.ways(g + 1, self._after(room, split))
                if w:
                    options.append((w, split))
            pick = rng.randrange(sum(w for w, _ in options))
            chosen = options[-1][1]
            for w, option in options:
                if pick < w:
                    chosen = option
                    break
                pick -= w
            out.append(chosen)
            room = self._after(room, chosen)
        return out


def openspiel_player(sims: int = 1000, uct_c: float = 2.0) -> Peer:
    """OpenSpiel's ISMCTS with random roll-outs and ``sims`` simulations per move.

    The roll-outs are OpenSpiel's ``RandomRolloutEvaluator`` (one roll-out, uniform priors)
    with the uniformly random play-out run on the simulator directly, which is the same
    play-out, only faster.
    """
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    class Rollouts(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
        def __init__(self, rng: random.Random) -> None:
            super().__init__(1)
            self.rng = rng

        def evaluate(self, state: SpielState) -> Any:
            sim = state.sim.copy()
            rng = self.rng
            while sim.turn >= 0:
                legal = sim.legal()
                sim.apply(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
            out = state.clone()
            out.sim = sim
            return np.array(out.returns())

    class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def get_state_key(self, state: SpielState) -> tuple[int, int, tuple[int, ...]]:
            return state.info_key()

    def choose(match: Match, seat: int, rng: random.Random) -> Action:
        legal = match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        np_rng = np.random.RandomState(rng.randrange(2**31))
        py_rng = random.Random(rng.random())
        bot = Bot(
            _Game(),
            Rollouts(py_rng),
            uct_c,
            sims,
            random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda state, player: resample(state, player, py_rng))
        action = int(bot.step(spiel_root(match)))
        return to_action(action - 2)

    return choose


__all__ = ["Peer", "SpielState", "dominoes_player", "openspiel_player", "resample", "spiel_root"]
