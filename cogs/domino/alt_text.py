"""Alt text for the pictures (the attachment ``description``), in the reader's language.

Says in words what the picture shows: the hand and the goal, the scores, the open ends,
each seat's tile count and last move, whose turn it is, how a hand or the match ended.
The table's text is built from the public view only, like the picture.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import joined, named_ends, tr, trn
from domino import View
from render.moves import LastMove, last_moves
from render.table import LABELS, last_words, news, scene, side_names

#: Discord's limit on an attachment's description.
MAX_DESCRIPTION = 1024


def _labels(locale: str | None) -> dict[str, str]:
    """The pictures' words in ``locale``, for the sentences shared with the picture."""
    return {key: tr(locale, text) for key, text in LABELS.items()}


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) and names[seat] else ""
    return " ".join(str(name).split()) or f"{seat + 1}"


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _fit(parts: Sequence[str]) -> str:
    text = " ".join(p for p in parts if p)
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


def table_alt_text(view: View, names: Sequence[str], locale: str | None, *,
                   last: Sequence[LastMove | None] | None = None) -> str:
    """The description of the table picture of ``view`` (a public view)."""
    if view.hand is not None:
        raise ValueError("the table's alt text is made from the public view only")
    rs = view.ruleset
    s = scene(view)
    number = s.result.hand_number if s.result is not None else view.hand_number
    if view.hands_total == 1 and view.target is None:
        hand = tr(locale, "One hand")
    elif view.hands_total:
        hand = tr(locale, "Hand {number} of {total}", number=number, total=view.hands_total)
    else:
        hand = tr(locale, "Hand {number}", number=number)
    if rs.scoring == "penalty":
        goal = tr(locale, "Fewest penalty points win.")
    elif view.target is not None:
        goal = tr(locale, "First to {target} points", target=view.target) + "."
    elif view.hands_total and view.hands_total > 1:
        goal = trn(locale, "{count} hand", "{count} hands", view.hands_total) + "."
    else:
        goal = ""
    def join(people: Sequence[str]) -> str:
        return joined(locale, people)

    sides = side_names(view, names, join, full=True)
    scores = ", ".join(f"{side} {score}" for side, score in zip(sides, view.scores, strict=True))
    parts = [tr(locale, "Table picture. {hand}.", hand=hand), goal,
             tr(locale, "Scores: {scores}.", scores=scores)]
    parts.extend(_sentence(line) for line in news(view, names, _labels(locale), s.result, join))
    if s.result is not None:
        pips = ", ".join(f"{_name(names, seat)} {p}" for seat, p in enumerate(s.result.pips))
        parts.append(_sentence(tr(locale, "Pips left: {pips}", pips=pips)))
        return _fit(parts)
    if len(view.open_ends) > 2:  # All Fives: the spinner's up and down are open
        parts.append(tr(locale, "Open ends: {ends}.", ends=named_ends(locale, view.open_ends)))
    elif view.ends is not None:
        parts.append(tr(locale, "Open ends: {left} and {right}.", left=view.ends[0],
                        right=view.ends[1]))
    else:
        parts.append(tr(locale, "No tile on the table yet."))
    counts = ", ".join(f"{_name(names, seat)} {n}" for seat, n in enumerate(view.hand_sizes))
    parts.append(tr(locale, "Tiles in hand: {counts}.", counts=counts))
    if rs.draw:
        parts.append(_sentence(tr(locale, "Pile {count}", count=view.pile_size)))
    moves = last if last is not None else last_moves(view)
    labels = _labels(locale)
    done = [f"{_name(names, seat)} {last_words(m, labels)}"
            for seat, m in enumerate(moves) if m is not None and seat < rs.seats]
    if done:
        parts.append(tr(locale, "Last moves: {moves}.", moves="; ".join(done)))
    if view.turn is not None and view.outcome is None:
        parts.append(tr(locale, "{name} to play.", name=_name(names, view.turn)))
    return _fit(parts)


def hand_alt_text(view: View, locale: str | None) -> str:
    """The description of one seat's hand picture (sent only to that seat)."""
    if view.hand is None:
        raise ValueError("the hand's alt text needs a seat's view")
    tiles = ", ".join(str(t) for t in sorted(view.hand))
    parts = [tr(locale, "Your tiles: {tiles}.", tiles=tiles or "-")]
    playable = view.playable_tiles()
    if view.turn is not None and view.turn == view.seat:
        parts.append(tr(locale, "Your turn."))
        if playable:
            parts.append(tr(locale, "Playable now: {tiles}.",
                            tiles=", ".join(str(t) for t in sorted(playable))))
        else:
            parts.append(tr(locale, "No tile can be played now."))
    if len(view.open_ends) > 2:
        parts.append(tr(locale, "Open ends: {ends}.", ends=named_ends(locale, view.open_ends)))
    elif view.ends is not None:
        parts.append(tr(locale, "Open ends: {left} and {right}.", left=view.ends[0],
                        right=view.ends[1]))
    return _fit(parts)


def replay_alt_text(names: Sequence[str], moves: int, locale: str | None,
                    hand: int | None = None) -> str:
    """The description of an animated replay."""
    players = ", ".join(_name(names, seat) for seat in range(len(names)))
    if hand is None:
        return _fit([tr(locale, "Replay of the match between {players}: {moves} moves.",
                        players=players, moves=moves)])
    return _fit([tr(locale, "Replay of hand {hand} between {players}: {moves} moves.",
                    hand=hand, players=players, moves=moves)])
