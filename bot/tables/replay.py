"""Replays of stored matches: an animated GIF rebuilt from the action log, at a bounded cost.

The ``matches`` row (ruleset, seed, deal) and the ``actions`` log define a match; replaying
them through the engine gives the table as everyone saw it after each move. Only public
views are drawn, so a replay never shows a hidden tile.

What a replay may cost is bounded, in this order:

1. :func:`plan`, before the interaction is answered: a few small queries decide what is
   drawn. An unknown hand or a match without moves is refused; a match longer than
   :data:`MAX_MOVES` shows its first hand (the ``hand`` option shows another).
2. :meth:`Replays.cached`: a finished match never changes, so a replay drawn once is kept
   in a file cache, keyed by the match and everything drawn (hand, names, words).
3. :meth:`Replays.admit`: at most :data:`AT_ONCE` replays are drawn at once per process, and
   a person waits :data:`COOLDOWN` seconds between two that need drawing; both refusals
   say so at once.
4. :meth:`Replays.draw`, after the interaction is deferred: the log is read and the match
   rebuilt off the event loop (with the pictures), and the frames are streamed into the
   GIF file one by one (:func:`render.replay.write_replay`), so memory stays flat.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.errors import ServiceError, TableNotFound
from bot.i18n import N_, picture_labels
from bot.store import ActionRow, MatchRow, Store
from bot.workers import pictures
from domino import DominoError, Match, Ruleset, View, decode_action

log = logging.getLogger(__name__)

#: The most moves one replay draws: a match longer than this shows one hand at a time.
MAX_MOVES = 60
#: Replays drawn at once by one process (more would share its cores and slow each other);
#: more are refused until one is done.
AT_ONCE = 1
#: Seconds a person waits between two replays that need drawing (a cached one is free).
COOLDOWN = 15.0
#: The file cache keeps replays this long, and at most this many bytes.
CACHE_SECONDS = 24 * 3600
CACHE_BYTES = 256_000_000


@dataclass(frozen=True, slots=True)
class Plan:
    """What a replay request will draw, decided before anything is drawn."""

    table_id: int
    hand: int | None  # None: the whole match
    moves: int  # the moves of the whole match
    hands: tuple[int, ...]  # the hands that can hold moves
    shortened: bool = False  # the whole match was asked, too long: its first hand is shown


@dataclass(frozen=True, slots=True)
class Replay:
    """A drawn replay: the GIF and the moves it shows."""

    gif: bytes
    moves: int


async def plan(store: Store, table_id: int, hand: int | None) -> Plan:
    """What to draw for ``hand`` (None: the whole match) of ``table_id``: a few small
    queries, nothing rebuilt. Raises :class:`TableNotFound` or :class:`ServiceError`."""
    match = await store.matches.get(table_id)
    if match is None:
        raise TableNotFound("No match was played at table {table_id}.", table_id=table_id)
    moves = await store.actions.count(table_id)
    if not moves:
        raise ServiceError("Table {table_id} has no moves to replay yet.", table_id=table_id)
    ended = [row.hand_number for row in await store.hand_results.list(table_id)]
    last = max(ended, default=0)
    ended_with_a_hand = bool(match.outcome) and match.outcome.get("reason") in ("target", "hands")
    hands = tuple(range(1, last + (1 if ended_with_a_hand and last else 2)))
    if hand is not None and hand not in hands:
        raise ServiceError(
            "Hand {hand} has no moves to replay; this match has hands {hands}.",
            hand=hand, hands=", ".join(map(str, hands)),
        )
    if hand is None and moves > MAX_MOVES:
        return Plan(table_id, 1, moves, hands, shortened=True)
    return Plan(table_id, hand, moves, hands)


def labels_for(locale: str | None) -> dict[str, str] | None:
    """The words a replay draws in ``locale`` (the table's and the counter's); None for
    English."""
    import render
    from render.replay import REPLAY_LABELS

    return picture_labels(locale, {**render.LABELS, **REPLAY_LABELS})


# ------------------------------------------------------------------ rebuilding and drawing


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a replay cannot be drawn (a catalogue message and its parameters): returned by
    the drawing worker rather than raised, so it crosses a process boundary as it is."""

    message: str
    params: dict[str, Any]

    def error(self) -> ServiceError:
        return ServiceError(self.message, **self.params)


@dataclass(frozen=True, slots=True)
class Frame:
    """One move of a stored match: its hand, who made it, and the table after it."""

    hand: int
    seat: int
    action: str
    view: View


def _new(match: MatchRow) -> Match:
    try:
        return Match.new(Ruleset.from_dict(match.ruleset), match.seed, match.deal)
    except (DominoError, KeyError, TypeError, ValueError) as exc:
        raise ServiceError("The match of table {table_id} cannot be rebuilt: {error}",
                           table_id=match.table_id, error=str(exc)) from exc


def _moves(match: MatchRow, actions: Sequence[ActionRow]
           ) -> Iterator[tuple[int, ActionRow, Match]]:
    """Each move of the log (sorted by ``seq``) replayed: its hand, its row, the match
    after it. Raises :class:`ServiceError` at a missing or unplayable move."""
    m = _new(match)
    for expected, row in enumerate(sorted(actions, key=lambda r: r.seq)):
        if row.seq != expected:
            raise ServiceError("Move {seq} of table {table_id} is missing from the log.",
                               seq=expected, table_id=match.table_id)
        hand = m.hand_number
        try:
            m = m.apply(decode_action(row.action), row.seat)
        except DominoError as exc:
            raise ServiceError("Move {seq} of table {table_id} does not replay: {error}",
                               seq=row.seq, table_id=match.table_id, error=str(exc)) from exc
        yield hand, row, m


def rebuild(match: MatchRow, actions: Sequence[ActionRow]) -> tuple[Frame, ...]:
    """Replay ``actions`` from the match's ruleset, seed and deal: one frame per move."""
    return tuple(Frame(hand, row.seat, row.action, m.public_view())
                 for hand, row, m in _moves(match, actions))


def replay_views(match: MatchRow, actions: Sequence[ActionRow], hand: int | None
                 ) -> tuple[View, Iterator[View], int]:
    """The public view before the first move of ``hand`` (None: of the match), the views
    after each of its moves (made one by one as they are read) and how many there are."""
    hands = [h for h, _, _ in _moves(match, actions)]  # the log checked, no view made
    if hand is None:
        start, stop = 0, len(hands)
    else:
        picked = [i for i, h in enumerate(hands) if h == hand]
        if not picked:
            raise ServiceError(
                "Hand {hand} has no moves to replay; this match has hands {hands}.",
                hand=hand, hands=", ".join(map(str, dict.fromkeys(hands))) or "-",
            )
        start, stop = picked[0], picked[-1] + 1
    moves = _moves(match, actions)
    before = _new(match)
    for _ in range(start):
        before = next(moves)[2]
    from render.replay import opening_view

    def views() -> Iterator[View]:
        for _ in range(stop - start):
            yield next(moves)[2].public_view()

    return opening_view(before.public_view()), views(), stop - start


def draw_file(match: MatchRow, actions: Sequence[ActionRow], hand: int | None,
              names: Sequence[str], labels: Mapping[str, str] | None, path: str,
              most: int = MAX_MOVES) -> int | Refusal:
    """Rebuild the match and stream the replay of ``hand`` into the file ``path`` (written
    whole or not at all); the moves drawn, or why it was refused before drawing.

    CPU-bound (tens of milliseconds a move): run it off the event loop."""
    from render.replay import ReplayTooLarge, write_replay

    try:
        opening, views, total = replay_views(match, actions, hand)
        if total > most:
            return Refusal(N_("This hand is too long for one picture ({moves} moves)."),
                           {"moves": total})
        folder = os.path.dirname(path)
        fd, part = tempfile.mkstemp(dir=folder, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                write_replay(out, opening, views, total, names, labels=labels)
            os.replace(part, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(part)
    except ServiceError as exc:
        return Refusal(exc.template, exc.params)
    except ReplayTooLarge:
        return Refusal(N_("This match is too long for one picture; replay one hand of it."), {})
    return total


# ------------------------------------------------------------------------- the cache


def cache_folder(store: Store) -> Path:
    """Where replays are kept: next to a SQLite database, else in the user's cache folder
    (``$XDG_CACHE_HOME``, by default ``~/.cache``), never a shared one like the temporary
    folder."""
    if store.path is not None:
        return store.path.parent / "replays"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "domino-replays"


def private_folder(folder: Path) -> bool:
    """Make ``folder`` (mode 0700) if it is missing; True if it is a folder, not a link, that
    this process's user owns, of mode 0700. Any other is refused (and logged): nothing is
    read from it or kept in it."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.mkdir(mode=0o700)
        os.chmod(folder, 0o700)  # whatever the umask
    except FileExistsError:
        pass
    except OSError as exc:
        if folder not in _REFUSED:
            _REFUSED.add(folder)
            log.warning("the replay cache folder %s cannot be made: %s", folder, exc)
        return False
    try:
        found = os.lstat(folder)
    except OSError:
        return False
    if (
        not stat.S_ISDIR(found.st_mode)
        or found.st_uid != os.getuid()
        or stat.S_IMODE(found.st_mode) != 0o700
    ):
        if folder not in _REFUSED:  # said once a process
            _REFUSED.add(folder)
            log.error(
                "the replay cache folder %s is not this user's own folder of mode 0700:"
                " replays are drawn without being kept",
                folder,
            )
        return False
    return True


_REFUSED: set[Path] = set()


def drop_cached(store: Store, table_ids: Iterable[int]) -> int:
    """Delete the kept replays of these matches (a forgotten player's name is drawn in them);
    returns how many files went."""
    folder = cache_folder(store)
    gone = 0
    for table_id in set(table_ids):
        for path in folder.glob(f"{int(table_id)}-*.gif"):
            with contextlib.suppress(OSError):
                path.unlink()
                gone += 1
    return gone


class Slot:
    """One of the process's replay drawings, held from admission until drawn."""

    def __init__(self, replays: Replays) -> None:
        self._replays = replays

    def release(self) -> None:
        if self._replays is not None:
            self._replays.drawing -= 1
            self._replays = None  # type: ignore[assignment]

    def __enter__(self) -> Slot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Replays:
    """The replays one process draws: the file cache, how many draw at once, each
    person's cooldown."""

    def __init__(self, store: Store, folder: Path | None = None, *, at_once: int | None = None,
                 cooldown: float | None = None, clock: Callable[[], float] = time.monotonic,
                 run: Callable[..., Awaitable[Any]] | None = None) -> None:
        self.store = store
        self.run = run or pictures.offload
        self.folder = folder or cache_folder(store)
        self.at_once = AT_ONCE if at_once is None else at_once
        self.cooldown = COOLDOWN if cooldown is None else cooldown
        self.clock = clock
        self.drawing = 0
        self.last: dict[int, float] = {}  # person -> when his last drawing was admitted
        self.drawn = 0  # replays drawn (not served from the cache), for tests and benchmarks

    def _key(self, plan: Plan, names: Sequence[str], labels: Mapping[str, str] | None) -> str:
        from render.replay import VERSION

        data = json.dumps([VERSION, plan.table_id, plan.hand, list(names), labels],
                          sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(data.encode()).hexdigest()[:32]

    def _find(self, plan: Plan, key: str) -> Path | None:
        for path in self.folder.glob(f"{plan.table_id}-{key}-*.gif"):
            if time.time() - path.stat().st_mtime < CACHE_SECONDS:
                return path
        return None

    def cached(self, plan: Plan, names: Sequence[str], labels: Mapping[str, str] | None
               ) -> Replay | None:
        """The replay drawn earlier for this request, if it is still kept (a small file
        read)."""
        try:
            if not private_folder(self.folder):
                return None
            path = self._find(plan, self._key(plan, names, labels))
            if path is None:
                return None
            return Replay(path.read_bytes(), int(path.stem.rsplit("-", 1)[1]))
        except (OSError, ValueError):
            return None

    def admit(self, user_id: int, *, turning: bool = False) -> Slot:
        """A drawing slot for ``user_id``; refused (and nothing changes) when
        :attr:`at_once` replays are being drawn or his cooldown runs. ``turning``: a page
        turn of a replay he already has, which the cooldown (for new replays) neither stops
        nor starts."""
        now = self.clock()
        since = now - self.last.get(user_id, -1e18)
        if since < self.cooldown and not turning:
            raise ServiceError(
                "You can ask for another replay in {seconds} seconds.",
                seconds=max(1, round(self.cooldown - since)),
            )
        if self.drawing >= self.at_once:
            raise ServiceError(
                "The bot is drawing other replays right now; try again in a minute."
            )
        self.drawing += 1
        if turning:
            return Slot(self)
        self.last[user_id] = now
        if len(self.last) > 10_000:  # forget cooldowns long over
            self.last = {u: t for u, t in self.last.items() if now - t < self.cooldown}
        return Slot(self)

    async def draw(self, plan: Plan, names: Sequence[str], labels: Mapping[str, str] | None
                   ) -> Replay:
        """Draw the replay of ``plan`` off the event loop (where pictures are drawn), keep
        it in the cache, and return it. Raises :class:`ServiceError` when it cannot be
        drawn."""
        match = await self.store.matches.get(plan.table_id)
        if match is None:
            raise TableNotFound("No match was played at table {table_id}.",
                                table_id=plan.table_id)
        actions = await self.store.actions.list(plan.table_id)
        key = self._key(plan, names, labels)
        kept = await asyncio.to_thread(self._prepare)
        place = contextlib.nullcontext(str(self.folder)) if kept else tempfile.TemporaryDirectory()
        with place as folder:  # not private: drawn in a folder of its own, not kept
            path = Path(folder) / f"{plan.table_id}-{key}.gif"
            drawn = await self.run(
                draw_file, match, actions, plan.hand, list(names), labels, str(path)
            )
            if isinstance(drawn, Refusal):
                raise drawn.error()
            self.drawn += 1
            if kept:
                final = path.with_name(f"{plan.table_id}-{key}-{drawn}.gif")
                await asyncio.to_thread(os.replace, path, final)
                path = final
            return Replay(await asyncio.to_thread(path.read_bytes), drawn)

    def _prepare(self) -> bool:
        """Make the private cache folder and drop what is old or over the size limit; False
        when the folder is not private (:func:`private_folder`)."""
        if not private_folder(self.folder):
            return False
        kept = []
        now = time.time()
        for path in self.folder.glob("*.gif"):
            with contextlib.suppress(OSError):
                stat = path.stat()
                if now - stat.st_mtime >= CACHE_SECONDS:
                    path.unlink()
                else:
                    kept.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in kept)
        for _, size, path in sorted(kept):
            if total <= CACHE_BYTES:
                break
            with contextlib.suppress(OSError):
                path.unlink()
            total -= size
        return True


__all__ = [
    "AT_ONCE",
    "CACHE_BYTES",
    "CACHE_SECONDS",
    "COOLDOWN",
    "MAX_MOVES",
    "Frame",
    "Plan",
    "Refusal",
    "Replay",
    "Replays",
    "draw_file",
    "labels_for",
    "plan",
    "rebuild",
    "replay_views",
]
