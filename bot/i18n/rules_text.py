"""The rules of every variant, as ``/domino rules`` shows them: paragraphs of the catalogue.

Each paragraph is one catalogue entry, its English text here with the gettext context
``rules <variant>`` (``rules common`` for the rules every variant shares), so a translator
works on one rule at a time and sees which variant it belongs to. The Spanish and
Portuguese texts (the ``es`` and ``pt_BR`` catalogues; ``es_419`` uses ``es``'s) are written
by hand with the players' own words (Spanish: ficha, mano/data, pasar, dominar,
tranca/tranque, capicúa; Portuguese: pedra, rodada, passar a vez, bater, tranca, carroça)
rather than translated sentence by sentence. Every decision of
``RULES.md`` where the sources are silent is stated ("Our decision"). ``{first_hand}`` and
the other option names are filled with the option names the reader's Discord shows.

Only the words are here: a paragraph is ``(depth, text)`` (0: a paragraph of its own, 1: a
point, 2: a point under the one before); how they are laid out is the Discord layer's.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import NC_, OPTION_NAME, Key, lookup, trc
from bot.i18n.commands import command_text

OPTIONS = (
    "first_hand", "next_hand", "scoring", "blocked", "target", "bonuses", "players",
    "forced_moves",
)

Rules = tuple[tuple[int, Key], ...]  # (depth, catalogue key) per paragraph
Paragraph = tuple[int, str]  # (depth, text in the reader's language)

# Translators: /domino rules, one paragraph per entry. Write with the players' own words;
# keep **bold**, *italics* and the {option} placeholders (option names, filled in).
COMMON_TITLE = NC_("rules common", "Common rules")
COMMON: Rules = (
    (1, NC_("rules common", "A tile a-b is worth a+b pips. The double-six set has 28 tiles "
                            "(0-0 to 6-6), the double-nine set 55.")),
    (1, NC_("rules common", "Play passes to the next seat. In games in pairs, seats 1 and 3 "
                            "play against 2 and 4 (partners sit apart).")),
    (1, NC_("rules common", "The first tile opens the line; every later tile must match one of "
                            "the two open ends. If a tile fits both ends with different "
                            "numbers, you choose the end. Doubles are drawn crosswise but are "
                            "ordinary tiles: no spinner (except in All Fives).")),
    (1, NC_("rules common", "A hand ends by **domino** (a player lays his last tile) or by "
                            "**block** (tranca): nobody can play or draw. Without a pile that "
                            "means both ends show the same number and all its tiles are on the "
                            "table, or everybody has passed in a row.")),
    (1, NC_("rules common", "\"The previous hand's winner\" is the player who dominoed; after a "
                            "block, the player with the fewest pips on the winning side (on a "
                            "tie inside the side, the first one after the player who blocked). "
                            "Where the previous hand's winner opens the next hand (Cuban, "
                            "partners with *winner*, All Fives), after a hand nobody won the "
                            "previous opener opens again.")),
    (1, NC_("rules common", "Forced moves (option {forced_moves}; on by default in Spanish "
                            "pairs, Venezuelan, 7+7, for two, for three and Cuban, as on "
                            "Ludoteka): when your only option is one tile on one end, or only "
                            "passing, or only drawing, the bot makes that move for you after 3 "
                            "seconds, and the move log marks it as forced.")),
    (1, NC_("rules common", "Bonuses (premios: capicúa, pass on the first tile, dead 0-0…) "
                            "only in partners with the option {bonuses}; points for ends "
                            "adding up to multiples of five only in All Fives.")),
    (1, NC_("rules common", "Computers answer at a person's pace. If the bot's machine is too "
                            "busy for one to finish thinking in time, it plays that move by "
                            "*normal*'s rules of thumb: the game never waits for it.")),
)

RULES: dict[str, Rules] = {
    "partners": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules partners", "4 players in two pairs, 7 tiles each; all 28 are dealt, "
                                  "there is no pile.")),
        (1, NC_("rules partners", "First hand (option {first_hand}): *double-six* (default): "
                                  "the holder of 6-6 opens with it; *random*: a random player "
                                  "opens with any tile.")),
        (1, NC_("rules partners", "Later hands (option {next_hand}): *rotate* (default): the "
                                  "player after the previous opener; *winner*: the previous "
                                  "hand's winner. Any tile.")),
        (1, NC_("rules partners", "If you cannot play, you pass.")),
        (1, NC_("rules partners", "Domino (option {scoring}): *opponents* (default): the "
                                  "winners score the pips left in the losing pair's hands; "
                                  "*all*: every pip left, partner's included.")),
        (1, NC_("rules partners", "Block (option {blocked}): *team* (default): the pair with "
                                  "fewer pips wins; *individual*: the pair of the single "
                                  "player with the fewest pips wins. Points as for a domino. "
                                  "**Our decision:** a tie scores nothing.")),
        (1, NC_("rules partners", "Bonuses (option {bonuses}, off by default), the Latin "
                                  "*premios* of the source's comments, each named in the "
                                  "hand's result:")),
        (2, NC_("rules partners", "*First-tile pass*: the player after the opener cannot play "
                                  "and the opener's partner then plays: 25 to the opener's "
                                  "pair if the first tile was a double, 50 if not.")),
        (2, NC_("rules partners", "*Round pass* (pase corrido): a tile after which the three "
                                  "others pass: 25 to its pair, for every such round. **Our "
                                  "decision:** the opening tile's three passes are a round "
                                  "pass (not a first-tile pass); a tile that blocks the hand "
                                  "is none (the hand ends).")),
        (2, NC_("rules partners", "*Capicúa*: going out with a tile that fits either end: 25; "
                                  "not with a double. **Our decision:** only when the two ends "
                                  "show different numbers.")),
        (2, NC_("rules partners", "*Dead 0-0*: the hand ends with 0-0 in the losing pair's "
                                  "hands, every other tile with a 0 on the table and no 0 at "
                                  'an end: 15 to the winners. **Our decision:** "every other '
                                  'tile" read as every other tile with a 0.')),
        (2, NC_("rules partners", "A pair that needs 25 points or fewer to reach the target "
                                  "gets no bonus. **Our decision:** counted when the hand "
                                  "begins, for each pair on its own.")),
        (1, NC_("rules partners", "The match goes to 100 points (option {target}: 50, 100, 150 "
                                  "or 200; with the bonuses also 500 or 1000).")),
    ),
    "spanish": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules spanish", "Rules of the Federación Española de Dominó: 4 players in two "
                                 "pairs, 7 tiles each, no pile.")),
        (1, NC_("rules spanish", "The first hand is opened by a random player (**Our "
                                 "decision:** the source names no first opener), each later "
                                 "hand by the player after the previous opener. Any tile may "
                                 "open.")),
        (1, NC_("rules spanish", "If you cannot play, you pass.")),
        (1, NC_("rules spanish", "Domino: the winners score every pip left, their partner's "
                                 "included.")),
        (1, NC_("rules spanish", "Block (tranca): the pair with fewer pips wins and scores "
                                 "every pip left. **Our decision:** a tie scores nothing.")),
        (1, NC_("rules spanish", "The match goes to 150 points.")),
    ),
    "venezuelan": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules venezuelan", "Like the Spanish game in pairs, but only the opponents' "
                                    "pips count. 4 players in two pairs, 7 tiles each, no pile.")),
        (1, NC_("rules venezuelan", "The first hand is opened by a random player (**Our "
                                    "decision:** the source names no first opener), each later "
                                    "hand by the player after the previous opener, with any "
                                    "tile.")),
        (1, NC_("rules venezuelan", "If you cannot play, you pass.")),
        (1, NC_("rules venezuelan", "Domino: the winners score the pips left in the opponents' "
                                    "hands; the partner's do not count.")),
        (1, NC_("rules venezuelan", "Block (tranca): the pair with fewer pips wins and scores "
                                    "the opponents' pips. **Our decision:** a tie scores "
                                    "nothing.")),
        (1, NC_("rules venezuelan", "The match goes to 100 points.")),
    ),
    "brazilian": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules brazilian", "4 players in two pairs, 7 tiles each, no pile.")),
        (1, NC_("rules brazilian", "First hand: the holder of 6-6 opens with it. Later hands: "
                                   "the player after the previous opener, with any tile.")),
        (1, NC_("rules brazilian", "If you cannot play, you pass.")),
        (1, NC_("rules brazilian", "Domino (batida): the winners score the opponents' pips.")),
        (1, NC_("rules brazilian", "Block (tranca): the pair with fewer pips wins and scores "
                                   "the other pair's pips; on a tie, the pair of the player "
                                   "who made the blocking move loses.")),
        (1, NC_("rules brazilian", "The match goes to 50 points.")),
    ),
    "cuban": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules cuban", "Double-nine set (55 tiles), 4 players in two pairs, 10 tiles "
                               "each; the other 15 stay face down, unused.")),
        (1, NC_("rules cuban", "First hand: the holder of the highest double dealt opens with "
                               "it (**Our decision:** with no double dealt, the heaviest "
                               "tile). Later hands: the previous hand's winner (after a tied "
                               "hand, the previous opener), with any tile.")),
        (1, NC_("rules cuban", "If you cannot play, you pass.")),
        (1, NC_("rules cuban", "Domino: the winners score the opponents' pips; the partner's "
                               "do not count.")),
        (1, NC_("rules cuban", "Block (tranque): the pair of the single player with the fewest "
                               "pips wins, scoring the pips left in the opponents' hands "
                               '(**Our decision:** the source says "placed": we read it as '
                               "unplaced). **Our decision:** a tie between players of both "
                               "pairs scores nothing.")),
        (1, NC_("rules cuban", "The match goes to 100 points.")),
    ),
    "seven-seven": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules seven-seven", "Two people, each holding both seats of one pair of a "
                                     "Spanish game in pairs (seats 1 and 3 against 2 and 4), 7 "
                                     "tiles per seat, no pile. You play whichever of your "
                                     "seats is to move.")),
        (1, NC_("rules seven-seven", "The first hand is opened by a random seat (**Our "
                                     "decision:** the source names no first opener), each "
                                     "later hand by the seat after the previous opener, with "
                                     "any tile.")),
        (1, NC_("rules seven-seven", "If you cannot play, you pass.")),
        (1, NC_("rules seven-seven", "Domino: every pip left scores, your own other hand's "
                                     "included.")),
        (1, NC_("rules seven-seven", "Block (tranca): the pair with fewer pips wins and scores "
                                     "every pip left. **Our decision:** a tie scores nothing.")),
        (1, NC_("rules seven-seven", "The match goes to 150 points.")),
    ),
    "three": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules three", "3 players, no teams, 27 tiles (no 0-0), 9 each, no pile.")),
        (1, NC_("rules three", "First hand: the holder of 6-6 opens with it; then the player "
                               "after the previous opener, with any tile.")),
        (1, NC_("rules three", "If you cannot play, you pass.")),
        (1, NC_("rules three", "Domino: the winner scores the sum of both opponents' pips.")),
        (1, NC_("rules three", "Block (tranca): the player with the fewest pips scores the sum "
                               "of the differences between each opponent's pips and his own. "
                               "**Our decision:** a tie for the fewest scores nothing.")),
        (1, NC_("rules three", "The match goes to 100 points.")),
    ),
    "draw": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules draw", "2 players, 7 tiles each, 14 in the pile.")),
        (1, NC_("rules draw", "Every hand: the holder of the highest double opens with it; if "
                              "no double was dealt, the holder of the heaviest tile (most "
                              "pips, then the higher end) opens with it. **Our decision:** the "
                              'sources say "the highest double, or the highest rank of tiles" '
                              'and "the highest tile (sum of both ends)": the highest double '
                              "comes first. **Our decision:** the same rule opens every hand "
                              "(the sources say nothing of later hands).")),
        (1, NC_("rules draw", "If no tile fits, draw one at a time until one fits; that tile "
                              "must be played at once. No drawing while the pile has 2 tiles "
                              "or fewer: then you pass. **Our decision:** one source stops "
                              "drawing at 2 tiles left, the other draws the pile empty; we "
                              "stop at 2.")),
        (1, NC_("rules draw", "Domino: the winner scores the opponent's pips.")),
        (1, NC_("rules draw", "Block: nobody can play or draw. If the line is closed (no tile "
                              "can fit any more) while the pile holds more than 2 tiles, the "
                              "player to move first draws it down to 2, then the block counts. "
                              "The lower pip count wins the difference; equal counts score "
                              "nothing.")),
        (1, NC_("rules draw", "The match goes to 100 points.")),
    ),
    "two": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules two", "2 players, 7 tiles each, 14 in the pile.")),
        (1, NC_("rules two", "First hand: the highest double opens (**Our decision:** without "
                             "a double, the heaviest tile); later hands: the players take "
                             "turns to open.")),
        (1, NC_("rules two", "If no tile fits, draw until one fits; when the pile is empty, "
                             "pass.")),
        (1, NC_("rules two", "Domino: the winner scores the opponent's pips.")),
        (1, NC_("rules two", "Closed line (tranca): the closer's opponent takes the rest of "
                             "the pile into his hand, then the player with fewer pips scores "
                             "the difference. **Our decision:** equal counts score nothing.")),
        (1, NC_("rules two", "The match goes to 100 points.")),
    ),
    "penalty": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules penalty", "Brettspielnetz rules: 2 players, 7 tiles each; a random "
                                 "non-double tile from the pile is laid as the start tile.")),
        (1, NC_("rules penalty", "Seat 1 moves first in hand 1; the first mover alternates "
                                 "every hand.")),
        (1, NC_("rules penalty", "You may not pass while a tile fits. Otherwise draw until one "
                                 "fits: at most 3 tiles a turn, never leaving fewer than 2 in "
                                 "the pile; still nothing: pass.")),
        (1, NC_("rules penalty", "Penalty points: each player gets the pips left in his own "
                                 "hand; if the hand ended by domino, the loser gets 5 more.")),
        (1, NC_("rules penalty", "The round also ends as soon as there are 2 tiles left in the "
                                 "pile and the player to move cannot play (the source's second "
                                 "way to end a round, not a block): penalties as for a domino, "
                                 "without the extra 5.")),
        (1, NC_("rules penalty", "Exactly 4 hands; the fewest penalty points win; equal totals "
                                 "are a draw.")),
    ),
    "all-fives": (
        # Translators: /domino rules, one paragraph per entry. Write with the players' own words;
        # keep **bold**, *italics* and the {option} placeholders (option names, filled in).
        (0, NC_("rules all-fives", "All Fives (Muggins), the game asked for in the comments of "
                                   "the partners source: 2 to 4 players (option {players}, "
                                   "default 2; with 4, two pairs: seats 1 and 3 against 2 and "
                                   "4). 7 tiles each with 2 players, 5 each with 3 or 4 (**Our "
                                   "decision:** the usual counts); the rest is the boneyard.")),
        (1, NC_("rules all-fives", "First hand: the holder of the highest double opens with it "
                                   "(no double dealt: the heaviest tile). Later hands: the "
                                   "previous hand's winner, with any tile. **Our decision** "
                                   "(the usual descriptions differ).")),
        (1, NC_("rules all-fives", "The first double laid is the **spinner**: tiles go on its "
                                   "up and down sides too, not only left and right. **Our "
                                   "decision:** up and down open once its left and right sides "
                                   "both hold a tile. Other doubles are ordinary tiles.")),
        (1, NC_("rules all-fives", "If no tile fits, draw one at a time until one fits, and "
                                   "play it; with the boneyard empty, pass. **Our decision:** "
                                   "the whole boneyard may be drawn.")),
        (1, NC_("rules all-fives", "After every play add up the open ends: a double at an end "
                                   "counts both halves (the spinner too, while its left or "
                                   "right side is empty); an empty up or down side counts "
                                   "nothing; the first tile alone counts both numbers. A "
                                   "multiple of 5 scores at once for the player's side "
                                   "(opening 5-5 scores 10).")),
        (1, NC_("rules all-fives", "Domino: the winner's side scores the opponents' pips (with "
                                   "4 players, the other pair's), rounded to the nearest 5 "
                                   "(1-2 down, 3-4 up).")),
        (1, NC_("rules all-fives", "Block (nobody can play, the boneyard empty): **Our "
                                   "decision:** the side with the fewest pips (a pair's total "
                                   "with 4 players) scores the opponents' pips rounded to 5; "
                                   "equal counts score nothing.")),
        (1, NC_("rules all-fives", "The match goes to 150 points (option {target}: 100, 150 or "
                                   "250). **Our decision:** it is decided when a hand ends: "
                                   "the side with the most points at or above the target wins; "
                                   "level sides play another hand.")),
    ),
}

# Translators: /domino rules tournament, one paragraph per entry: how a server's tournament is
# played (Swiss system, byes, Buchholz, knockout). Keep **bold** and the {option} placeholders.
TOURNAMENT_TITLE = NC_("rules tournament", "Tournaments")
TOURNAMENT: Rules = (
    (0, NC_("rules tournament", "A tournament is played in rounds. In each round every "
                                "entrant plays one table of the event's variant: a fixed "
                                "number of hands (4 unless the host chooses 1 to 12) or up to "
                                "a number of points, within a time limit (45 minutes unless "
                                "the host chooses). When the time runs out, the hand in play "
                                "is finished and the table is scored as it stands.")),
    (1, NC_("rules tournament", "**Pairs** (partnership variants): two people register "
                                "together and play every round together.")),
    (1, NC_("rules tournament", "**Individual** (partnership variants): you register alone "
                                "and get a new partner every round. If the people are not a "
                                "multiple of four, the host chooses computer seats (everyone "
                                "plays), byes, or by default the fewest empty seats: one or "
                                "two left over get a bye, three play with one computer seat. "
                                "**Our decision.**")),
    (1, NC_("rules tournament", "**One against one**: the two-player variants (draw, for two, "
                                "penalty, 7+7) and All Fives with 2 players.")),
    (1, NC_("rules tournament", "A table gives 2 match points to the side ahead on points, 1 "
                                "to each side when level, 0 to the side behind. The points "
                                "made for and against (tantos) are kept too.")),
    (1, NC_("rules tournament", "**Swiss system**: each round, entrants with the same match "
                                "points play each other (the top half of the group against "
                                "the bottom half). Nobody plays the same opponent twice; in "
                                "individual events nobody has the same partner twice, and "
                                "opponents meet again only when it cannot be avoided. If no "
                                "such pairing is left, the event ends early. There are as "
                                "many rounds as the host sets, by default ⌈log₂ entrants⌉ + "
                                "1.")),
    (1, NC_("rules tournament", "A **bye** (the odd one out) is worth 2 match points and a "
                                "points difference of 0. It goes to the lowest-ranked entrant "
                                "who has not had one: nobody gets a second bye before everyone "
                                "has had one.")),
    (1, NC_("rules tournament", "A computer seat has no place in the standings: its table's "
                                "result counts for the people at the table, never for "
                                "ratings.")),
    (1, NC_("rules tournament", "Who leads (seat 1) alternates: the side that has led less "
                                "often so far leads. **Our decision.**")),
    (1, NC_("rules tournament", "**Standings**: match points, then points difference, then "
                                "**Buchholz** (the sum of your opponents' match points; in "
                                "individual events minus your partners'; a bye or a computer "
                                "counts as your own score), then the results between the "
                                "entrants still level, then the rating at the start.")),
    (1, NC_("rules tournament", "Where the host turned check-in on, it opens 10 minutes before "
                                "each round and only those who checked in are paired; otherwise "
                                "everyone entered plays every round. A seat nobody takes "
                                "within 5 minutes of the table opening (unless the host chose "
                                "another grace) is played by a computer (individual), or its "
                                "side loses the table by forfeit: 2 match points to the "
                                "opponents, no points "
                                "to anyone (pairs, one against one). Missing two rounds "
                                "withdraws you.")),
    (1, NC_("rules tournament", "In a Swiss event you may register late until half the "
                                "rounds have begun; you start with one half-point bye (1 match "
                                "point).")),
    (1, NC_("rules tournament", "**Knockout** (single elimination): seeded by rating, "
                                "byes to the best seeds, the winner of each table goes "
                                "through; who does not check in loses by walkover. **Our "
                                "decision:** level on points, the better seed goes through.")),
    (1, NC_("rules tournament", "**Playoff** (Swiss): the host may add a knockout of the top "
                                "4 or 8 of the Swiss standings (first against fourth, second "
                                "against third). The standings stay the Swiss ones; the "
                                "podium follows the playoff.")),
    (1, NC_("rules tournament", "**Individual knockout**: four people a table; both people "
                                "of the winning side go through. Each round the people still "
                                "in are partnered again by seed, strongest with weakest, never "
                                "with an earlier partner if avoidable. Byes go to the best "
                                "seeds; if the people left are odd, the lowest seed plays with "
                                "a computer, which never goes through. The final's two winners "
                                "are joint champions. **Our decision.**")),
    (1, NC_("rules tournament", "Tournament tables count for ratings like any match.")),
    (1, NC_("rules tournament", "The podium's rating change counts only the event's own "
                                "tables.")),
)

# Translators: /domino rules daily, one paragraph per entry: the daily deal (the same deal for
# everyone each day, against expert computers). Keep **bold**.
DAILY_TITLE = NC_("rules daily", "The daily deal")
DAILY: Rules = (
    (0, NC_("rules daily", "Each UTC day has one deal per variant among partners, draw and "
                           "All Fives, the same for everyone ({play}), played at once in a "
                           "private thread against expert computers.")),
    (1, NC_("rules daily", "Its seed is drawn at random by the day's first attempt and kept: "
                           "nobody can work it out ahead. **Our decision.**")),
    (1, NC_("rules daily", "One attempt per person, day and variant. An attempt keeps the UTC "
                           "day it started on, however late it ends. **Our decision.**")),
    (1, NC_("rules daily", "One hand is played. **Partners:** you and an expert partner "
                           "against two experts. **Draw and All Fives:** the same deal twice, "
                           "duplicate style: first with your seat's tiles, then holding your "
                           "opponent's (the undealt tiles in the same order), so the luck of "
                           "the deal cancels out. **Our decision:** one deal from both seats; "
                           "you remember the first leg's tiles, the computers do not.")),
    (1, NC_("rules daily", "The result is the points your side scored over the hand minus the "
                           "opponents', added up over the legs (in All Fives the points made at "
                           "the ends count too). **Our decision:** a leg you resign counts "
                           "-100.")),
    (1, NC_("rules daily", "Daily deals are not rated and offer no Hint.")),
    (1, NC_("rules daily", "Your streak is the days in a row on which you started a daily deal "
                           "(any variant), up to today, or up to yesterday while today has none "
                           "yet. **Our decision.**")),
    (1, NC_("rules daily", "The day's board (this server's players, or everyone's) ranks by "
                           "result, then by who finished first, and shows the results only to "
                           "someone who finished that day's deal of that variant: no spoilers. "
                           "**Our decision:** equal results share a place.")),
    (1, NC_("rules daily", "When you have finished, the expert's own play of the deal (every "
                           "seat an expert, your first seat's tiles) is posted in your thread as "
                           "a replay, with its score.")),
)

# Variants the engine plays that the bot does not offer yet (domino.STAGED).
STAGED_RULES: dict[str, Rules] = {}

SOURCES = (
    "seed 000: Lagunex, partnership domino, and the players' comments under it (partners, "
    "the Latin bonuses, All Fives asked for)",
    "seed 001: Dominoes Deluxe and the draw game it quotes (draw)",
    "seed 002: Brettspielnetz (penalty)",
    "seed 003: Ludoteka, all its modes (spanish, seven-seven, venezuelan, two, three, cuban; "
    "forced moves)",
    "seed 004: Brazilian domino (brazilian)",
)


def option_names(locale: str | None, option: Callable[[str], str] = str) -> dict[str, str]:
    """The option names of ``/domino new`` as the reader's Discord shows them, each passed
    through ``option`` (how the caller marks an option name)."""
    return {name: option(lookup(locale, name, OPTION_NAME) or name) for name in OPTIONS}


def translated(
    locale: str | None, rules: Rules, option: Callable[[str], str] = str, **named: str
) -> list[Paragraph]:
    """``rules`` in the language of ``locale``, option names (and ``named``) filled in."""
    names = {**option_names(locale, option), **named}
    return [(depth, trc(locale, context, text, **names)) for depth, (context, text) in rules]


def variant_rules(
    locale: str | None, variant: str, option: Callable[[str], str] = str
) -> list[Paragraph]:
    """The rules of ``variant`` (a preset id) in the language of ``locale``."""
    return translated(locale, RULES.get(variant) or STAGED_RULES[variant], option)


def common_rules(
    locale: str | None, option: Callable[[str], str] = str
) -> tuple[str, list[Paragraph]]:
    """The title and the rules every variant shares, in the language of ``locale``."""
    return trc(locale, *COMMON_TITLE), translated(locale, COMMON, option)


def tournament_rules(
    locale: str | None, option: Callable[[str], str] = str
) -> tuple[str, list[Paragraph]]:
    """The title and the rules of a tournament, in the language of ``locale``."""
    return trc(locale, *TOURNAMENT_TITLE), translated(locale, TOURNAMENT, option)


def daily_rules(
    locale: str | None,
    option: Callable[[str], str] = str,
    command: Callable[[str], str] | None = None,
) -> tuple[str, list[Paragraph]]:
    """The title and the rules of the daily deal, in the language of ``locale`` (the command
    that plays it shown by ``command``, from its English path; else in ``locale``'s words)."""
    play = "domino daily play"
    shown = command(play) if command is not None else command_text(locale, play)
    return trc(locale, *DAILY_TITLE), translated(locale, DAILY, option, play=shown)
