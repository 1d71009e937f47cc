"""Alt text of the pictures: what they show, in words, in the reader's language."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.i18n import named_ends, picture_options, tr, trn
from cogs.domino.alt_text import (
    MAX_DESCRIPTION,
    hand_alt_text,
    replay_alt_text,
    table_alt_text,
)
from domino import PRESETS, Match, preset
from render.moves import LastMove
from render.table import table_texts

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
LOCALES = [None, "es-ES", "es-419", "pt-BR"]


def _mid(pid: str, seed: int = 2, moves: int = 6) -> Match:
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    for _ in range(moves):
        nxt = m.apply(rng.choice(m.legal_actions()))
        if nxt.hand_number != 1:
            break
        m = nxt
    return m


@pytest.mark.parametrize("pid", sorted(PRESETS))
@pytest.mark.parametrize("locale", LOCALES)
def test_table_alt_text_says_ends_counts_scores_and_turn(pid: str, locale: str | None) -> None:
    m = _mid(pid)
    view = m.public_view()
    names = NAMES[: view.ruleset.seats]
    text = table_alt_text(view, names, locale)
    assert len(text) <= MAX_DESCRIPTION
    assert view.ends is not None and view.turn is not None
    if len(view.open_ends) > 2:  # All Fives: the spinner's four ends, each named
        assert tr(locale, "Open ends: {ends}.", ends=named_ends(locale, view.open_ends)) in text
    else:
        assert tr(locale, "Open ends: {left} and {right}.", left=view.ends[0],
                  right=view.ends[1]) in text
    counts = ", ".join(f"{n} {c}" for n, c in zip(names, view.hand_sizes, strict=True))
    assert tr(locale, "Tiles in hand: {counts}.", counts=counts) in text
    for score in view.scores:
        assert f" {score}" in text
    assert tr(locale, "{name} to play.", name=names[view.turn]) in text
    if locale is not None:
        assert "Open ends" not in text and "Tiles in hand" not in text  # translated


def test_table_alt_text_tells_a_pass_a_timeout_and_how_a_hand_ended() -> None:
    m = _mid("partners", 1, 8)
    view = m.public_view()
    last = [LastMove("pass"), LastMove("play", (3, 5), 0, True), None, LastMove("draw", None, 2)]
    text = table_alt_text(view, NAMES, None, last=last)
    assert "Last moves: Ana passed; Bruno timed out; Diego drew 2." in text
    rng = random.Random(1)
    while m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
    ended = table_alt_text(m.public_view(), NAMES, "es-ES")
    result = m.hand_results[0]
    pips = ", ".join(f"{n} {p}" for n, p in zip(NAMES, result.pips, strict=True))
    assert tr("es-ES", "Pips left: {pips}", pips=pips) in ended
    assert "Mano 1" in ended


def test_table_alt_text_reads_the_public_view_only_and_stays_short() -> None:
    m = _mid("cuban")
    with pytest.raises(ValueError, match="public"):
        table_alt_text(m.view(0), NAMES, None)
    long_names = ["N" * 400] * 4
    assert len(table_alt_text(m.public_view(), long_names, None)) == MAX_DESCRIPTION


def test_hand_alt_text_lists_the_seats_tiles_and_what_it_can_play() -> None:
    m = _mid("draw")
    seat = m.turn
    assert seat is not None
    text = hand_alt_text(m.view(seat), "pt-BR")
    tiles = ", ".join(str(t) for t in sorted(m.hands[seat]))
    assert tr("pt-BR", "Your tiles: {tiles}.", tiles=tiles) in text
    assert tr("pt-BR", "Your turn.") in text
    other = hand_alt_text(m.view(1 - seat), None)
    assert "Your turn." not in other
    with pytest.raises(ValueError, match="seat"):
        hand_alt_text(m.public_view(), None)


def test_replay_alt_text() -> None:
    assert replay_alt_text(NAMES[:2], 30, None, hand=2) == (
        "Replay of hand 2 between Ana, Bruno: 30 moves.")
    assert "partida" in replay_alt_text(NAMES, 120, "es-419")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("hands", "said"), [
    (1, {None: "One hand", "es-ES": "Una mano", "es-419": "Una mano", "pt-BR": "Uma mão"}),
    (4, {None: "Hand 1 of 4", "es-ES": "Mano 1 de 4", "es-419": "Mano 1 de 4",
         "pt-BR": "Mão 1 de 4"}),
])
def test_a_match_of_hands_without_a_target_says_what_it_is(
    locale: str | None, hands: int, said: dict[str | None, str]
) -> None:
    """The daily deal (one hand) and a tournament's round of N hands have no points target:
    the picture and its alt text say how many hands, never "to None"."""
    view = Match.new(replace(preset("partners"), target=None, hands=hands), 3).public_view()
    alt = table_alt_text(view, NAMES, locale)
    assert "None" not in alt
    assert alt.startswith(tr(locale, "Table picture. {hand}.", hand=said[locale]))
    if hands > 1:
        assert trn(locale, "{count} hand", "{count} hands", hands) + "." in alt
    _img, marks = table_texts(view, NAMES, picture_options(locale).get("labels"))
    (line,) = [m.text for m in marks if m.role == "hand"]
    assert line == said[locale] and "None" not in " ".join(m.text for m in marks)
