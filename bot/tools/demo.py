"""``python -m bot demo``: a whole match of computer players, offline, through the real service.

The match goes through the same :class:`~bot.tables.service.TableService` and store as the bot
(a throw-away database file in the output folder); the table picture is written after every
move when ``render/`` is available. What it prints and draws is in the language of
``--locale`` (the catalogue's words, as the bot says them).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import CATALOGUES, DEFAULT_LOCALE, N_, joined, picture_options, tr
from bot.store import Store
from bot.tables.service import TableInfo, TableService
from bot.workers.pictures import table_renderer
from domino import PRESETS, HandResult, Outcome, Ruleset, View

DEMO_DB_NAME = "demo.sqlite3"
LOCALES = (DEFAULT_LOCALE, *CATALOGUES)
# How a match ended, by Outcome.reason.
REASONS = {
    "target": N_("the target reached"),
    "hands": N_("every hand played"),
    "resign": N_("a resignation"),
    "time": N_("a loss on time"),
}
Renderer = Callable[[View, list[str]], bytes]


def load_renderer() -> Renderer | None:
    """``render.render_table`` if the render package provides it, else None."""
    return table_renderer()


@dataclass
class DemoResult:
    """What a demo match produced."""

    table: TableInfo
    hands: list[HandResult] = field(default_factory=list)
    outcome: Outcome | None = None
    moves: int = 0
    pictures: list[Path] = field(default_factory=list)


async def run_demo(
    variant: str = "partners",
    out: Path = Path("out/demo"),
    *,
    seed: int | None = None,
    level: str | None = None,
    renderer: Renderer | bool | None = True,
    keep_db: bool = False,
    echo: TextIO | None = None,
    locale: str | None = None,
) -> DemoResult:
    """Play one match of ``variant`` between computer players; pictures go to ``out``.

    ``renderer=True`` uses :func:`load_renderer` (its words in ``locale``); ``None``/``False``
    writes no picture. ``echo`` gets a line per hand and the result, in ``locale``.
    """
    out.mkdir(parents=True, exist_ok=True)
    db_path = out / DEMO_DB_NAME
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{db_path}{suffix}").unlink()
    render: Renderer | None = load_renderer() if renderer is True else (renderer or None)
    if render is not None and renderer is True:
        render = functools.partial(render, **picture_options(locale))
    if echo is not None and render is None and renderer is True:
        print(tr(locale, "render/ is not available: no pictures are written."), file=echo)

    store = await Store.open(db_path)
    try:
        service = TableService(
            store,
            computer_delay=0.0,
            hand_pause=0.0,
            **({"seed_source": lambda: seed} if seed is not None else {}),
            **({"ai_level": level} if level else {}),
        )
        host = 0
        table = await service.create_table(
            host_id=host, host_name="demo", variant=variant, seat_host=False
        )
        while not table.is_full:
            table = await service.add_computer(table.id, host)
        table = await service.start(table.id, host)
        result = DemoResult(table=table)

        async def picture(view: View | None, names: list[str]) -> None:
            if render is None or view is None:
                return
            png = await asyncio.to_thread(render, view, names)
            path = out / f"move-{result.moves:04d}.png"
            path.write_bytes(png)
            result.pictures.append(path)

        await picture(table.public_view(), seat_names(table, locale))
        while True:
            step = await service.play_computer(table.id)
            if step is None:
                break
            result.moves += 1
            result.table = step.table
            await picture(step.view, seat_names(step.table, locale))
            if step.hand_result is not None:
                result.hands.append(step.hand_result)
                if echo is not None:
                    print(describe_hand(step.table, step.hand_result, locale), file=echo)
            if step.outcome is not None:
                result.outcome = step.outcome
        await service.aclose()
        if echo is not None:
            print(describe_outcome(result, locale), file=echo)
            if result.pictures:
                said = tr(
                    locale,
                    "{count} pictures written to {folder}",
                    count=len(result.pictures),
                    folder=f"{out}/",
                )
                print(said, file=echo)
        return result
    finally:
        await store.close()
        if not keep_db:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{db_path}{suffix}").unlink()


def seat_names(table: TableInfo, locale: str | None = None) -> list[str]:
    """Each seat's name as the bot shows it: a computer by its seat, in ``locale``."""
    names = []
    for number, seat in enumerate(table.seats, 1):
        if seat is not None and seat.kind == "computer":
            names.append(tr(locale, "Computer {number}", number=number))
        else:
            names.append(seat.name if seat is not None else "")
    return names


def side_name(ruleset: Ruleset, names: list[str], side: int, locale: str | None = None) -> str:
    """ "Team 1 (A and B)" or a player's name."""
    seats = ruleset.seats_of_side(side)
    people = joined(locale, list(dict.fromkeys(names[s] for s in seats)))
    if not ruleset.teams:
        return people
    return tr(locale, "Team {number} ({names})", number=side + 1, names=people)


def _scores(values: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(v) for v in values)


def describe_hand(table: TableInfo, hand: HandResult, locale: str | None = None) -> str:
    """One line per finished hand: how it ended, points, running score."""
    names = seat_names(table, locale)
    if hand.kind == "domino" and hand.winner_seat is not None:
        how = tr(locale, "domino by {name}", name=names[hand.winner_seat])
    else:
        how = tr(locale, "blocked")
    # Every side that scored, with what it scored (in All Fives both sides may score).
    gains = [
        f"{side_name(table.ruleset, names, side, locale)} +{points}"
        for side, points in enumerate(hand.points)
        if points
    ]
    gain = ", ".join(gains) if gains else tr(locale, "nobody scores")
    view = table.public_view()
    return tr(
        locale,
        "Hand {number}: {how}; pips left {pips}; {gain}; score {score}",
        number=hand.hand_number,
        how=how,
        pips=_scores(hand.pips),
        gain=gain,
        score=_scores(view.scores) if view is not None else "?",
    )


def describe_outcome(result: DemoResult, locale: str | None = None) -> str:
    """The final line: winner (or draw) and the score."""
    table, outcome = result.table, result.outcome
    view = table.public_view()
    if outcome is None:
        return tr(locale, "The match did not finish ({moves} moves).", moves=result.moves)
    params = {
        "score": _scores(view.scores) if view is not None else "?",
        "hands": len(result.hands),
        "moves": result.moves,
        "reason": tr(locale, REASONS.get(outcome.reason, outcome.reason)),
    }
    if outcome.draw or outcome.winner_side is None:
        return tr(
            locale,
            "Draw: final score {score} after {hands} hands and {moves} moves ({reason}).",
            **params,
        )
    return tr(
        locale,
        "Winner: {side}; final score {score} after {hands} hands and {moves} moves ({reason}).",
        side=side_name(table.ruleset, seat_names(table, locale), outcome.winner_side, locale),
        **params,
    )


def variants() -> list[str]:
    """The preset ids a demo can play."""
    return list(PRESETS)


def demo_main(args: Any, echo: TextIO) -> int:
    """Entry point used by ``bot.__main__``."""
    result = asyncio.run(
        run_demo(
            args.variant,
            Path(args.out),
            seed=args.seed,
            level=args.level,
            keep_db=args.keep_db,
            echo=echo,
            locale=args.locale,
        )
    )
    return 0 if result.outcome is not None else 1
