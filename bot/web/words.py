"""The pages' words: languages, and names of variants, families, results and players.

Every text comes from the bot's one catalogue (:mod:`bot.i18n`): the names here are the same
message ids the bot's messages use, so they read the same in Discord and on the pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, tr, trn
from bot.records.record import ALL, FAMILIES, computer_level

__all__ = [
    "LANGUAGES",
    "bucket_name",
    "choose_language",
    "ending_text",
    "player_name",
    "result_name",
    "variant_name",
]

#: The pages' languages: the code a reader picks (``?lang=``) and the bot's locale for it.
LANGUAGES: dict[str, str] = {"en": "en-US", "es": "es-ES", "es-419": "es-419", "pt-BR": "pt-BR"}
LANGUAGE_NAMES = {
    "en": "English",
    "es": "Español (España)",
    "es-419": "Español (Latinoamérica)",
    "pt-BR": "Português (Brasil)",
}

#: How a week's or month's board and a season's board rank (the bot's boards say the same).
PERIOD_RANK = N_(
    "Ranked by wins, then by points difference (points won minus points lost); players equal "
    "on both share a place."
)
SEASON_RANK = N_(
    "Ranked by the season's rating. Each season starts from your all-time rating pulled halfway "
    "back to the newcomer's, and less certain; the all-time ratings go on beside it."
)

#: Who a rating board lists and what its "?" means (the bot's leaderboard says the same).
MINIMUM_NOTE = N_(
    "Players are listed after {count} matches; a ? marks a provisional rating (still uncertain)."
)

SEASON_WINS_RANK = N_("Ranked by the season's wins, then by the season's rating.")

VARIANT_NAMES = {
    "partners": N_("Partners (Latin)"),
    "spanish": N_("Spanish pairs"),
    "venezuelan": N_("Venezuelan"),
    "brazilian": N_("Brazilian"),
    "cuban": N_("Cuban (double nine)"),
    "seven-seven": N_("7+7 (two people, two hands each)"),
    "three": N_("Three players"),
    "draw": N_("Draw game (two players)"),
    "two": N_("Domino for two"),
    "penalty": N_("Penalty points (four hands)"),
    "all-fives": N_("All Fives (Muggins)"),
}
FAMILY_NAMES = {
    "partnership": N_("Partnership games"),
    "two-player": N_("Two-player games"),
    "three-player": N_("Three players"),
    "fives": N_("All Fives"),
    "correspondence-partnership": N_("Partnership games (correspondence)"),
    "correspondence-two-player": N_("Two-player games (correspondence)"),
    "correspondence-three-player": N_("Three players (correspondence)"),
    "correspondence-fives": N_("All Fives (correspondence)"),
}
RESULT_NAMES = {"win": N_("Win"), "loss": N_("Loss"), "draw": N_("Drawn")}
EVENT_STATUSES = {
    "registration": N_("open for entries"),
    "running": N_("under way"),
    "paused": N_("paused"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
EVENT_SYSTEMS = {"swiss": N_("Swiss system"), "knockout": N_("Knockout"), "arena": N_("Arena")}
BOARD_ENDINGS = {
    "played": N_("played"),
    "time": N_("time limit"),
    "forfeit": N_("forfeit"),
    "bye": N_("bye"),
    "late": N_("late entry"),
    "corrected": N_("corrected"),
}


def word(locale: str, words: dict[str, str], key: str | None) -> str:
    """One of our words for ``key`` (a board's ending, an event's status), translated."""
    if not key:
        return ""
    key = key.split(";", 1)[0].split(":", 1)[0]
    return tr(locale, words[key]) if key in words else key


def choose_language(asked: str | None, accept: str | None) -> str:
    """The page's language: ``?lang=`` when it names one, else the best of the browser's
    ``Accept-Language`` (by quality, then order), else English. Spanish of Spain (``es``,
    ``es-ES``) reads the ``es`` catalogue, any other Spanish (``es-419``, ``es-MX``,
    ``es-AR``…) the Latin American one."""
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, i, tag.strip().lower()))
    for quality, _, tag in sorted(ranked):
        if quality >= 0:
            continue
        if tag.startswith("pt"):
            return "pt-BR"
        if tag in ("es", "es-es"):
            return "es"
        if tag.startswith("es-"):
            return "es-419"
        if tag.startswith("en"):
            return "en"
    return "en"


def variant_name(locale: str, variant: str) -> str:
    entry = VARIANT_NAMES.get(variant)
    return tr(locale, entry) if entry else variant


def bucket_name(locale: str, bucket: str) -> str:
    """A leaderboard's name: every variant, a family or one variant."""
    if bucket == ALL:
        return tr(locale, "All variants")
    if bucket in FAMILY_NAMES:
        return tr(locale, FAMILY_NAMES[bucket])
    return variant_name(locale, bucket)


def bucket_groups() -> Sequence[tuple[str, tuple[str, ...]]]:
    """The families and their variants, in the order the pages list them."""
    return tuple(FAMILIES.items())


def ending_text(
    locale: str,
    ending: Any,
    *,
    winner_side: int | None,
    draw: bool,
    hands_played: int,
    side_names: Sequence[str],
    seat_names: Sequence[str],
) -> list[str]:
    """How a match ended, in sentences: who won and how (reaching the target, on points
    after the set number of hands, by a resignation in which hand), and the seats a
    computer took over after too many time-outs. ``ending``: the reader's
    :class:`~bot.web.reader.Ending`."""
    said: list[str] = []

    def side(number: int | None) -> str:
        if number is None or not 0 <= number < len(side_names):
            return "?"
        return side_names[number]

    def seat(number: int | None) -> str:
        if number is None or not 0 <= number < len(seat_names):
            return tr(locale, "a player")
        return seat_names[number]

    if ending.reason == "time":
        said.append(
            trn(
                locale,
                "{name} lost on time during hand {hand} ({count} time-out in a row), so {side} "
                "won the match.",
                "{name} lost on time during hand {hand} ({count} time-outs in a row), so {side} "
                "won the match.",
                ending.timeouts,
                name=seat(ending.resigned_seat),
                hand=hands_played + 1,
                side=side(winner_side),
            )
        )
    elif ending.reason == "resign":
        said.append(
            tr(
                locale,
                "{name} resigned during hand {hand}, so {side} won the match.",
                name=seat(ending.resigned_seat),
                hand=hands_played + 1,
                side=side(winner_side),
            )
        )
    elif draw or winner_side is None:
        said.append(tr(locale, "The match was drawn after {hands} hands.", hands=hands_played))
    elif ending.reason == "hands":
        said.append(
            tr(
                locale,
                "{side} won the match on points after {hands} hands.",
                side=side(winner_side),
                hands=hands_played,
            )
        )
    else:
        said.append(
            tr(
                locale,
                "{side} won the match by reaching {target} points.",
                side=side(winner_side),
                target=ending.target or 0,
            )
        )
    for taken in ending.taken_over:
        said.append(
            tr(locale, "A computer played for {name} after too many time-outs.", name=seat(taken))
        )
    return said


def result_name(locale: str, result: str) -> str:
    return tr(locale, RESULT_NAMES.get(result, result))


def player_name(
    locale: str, name: str, kind: str, *, shown: bool = True, seat: int | None = None
) -> str:
    """A participant's name as the pages show it (raw: the templates escape it).

    A computer reads "Computer (hard)" (at a match's seat, "Computer 3"); a forgotten person
    "a former player"; a person who left the leaderboards (``shown`` False) "a player"."""
    if kind == "computer" and seat is not None:
        return tr(locale, "Computer {number}", number=seat + 1)
    if kind == "computer":
        return tr(locale, "Computer ({level})", level=tr(locale, computer_level(name)))
    if not name:
        return tr(locale, "a former player")
    return name if shown else tr(locale, "a player")
