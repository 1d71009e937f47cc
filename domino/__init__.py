"""The dominoes rules engine: pure standard library, no Discord, no pictures, no database.

Public API (see ``docs/engine-api.md`` for details):

- :class:`Tile` (``Tile.parse("3-5")``, ``pips``, ``is_double``) and :func:`tile_set`.
- :class:`Ruleset`, a frozen dataclass of every column of RULES.md; :func:`preset` returns a
  named variant (``partners``, ``spanish``, ``venezuelan``, ``brazilian``, ``cuban``,
  ``seven-seven``, ``three``, ``draw``, ``two``, ``penalty``, ``all-fives``; :data:`STAGED`
  holds presets the bot does not offer yet) with options applied; :data:`OPTION_CHOICES` and
  :data:`FLAG_OPTIONS` (on/off options: ``forced_moves``, partners' ``bonuses``) list them.
- :func:`forced_action` (the only action of the seat to move, at tables with forced moves).
- :class:`Match`: ``Match.new(ruleset, seed, deal=None)``, ``turn``, ``legal_actions()``,
  ``apply(action)`` (returns a new Match or raises :class:`IllegalAction`), readable state
  (``line``, ``ends``, ``hands``, ``pile_size``, ``hand_number``, ``scores``, ``history``,
  ``hand_results``, ``outcome``), ``view(seat)`` / ``public_view()``, ``to_dict()`` /
  ``from_dict()`` and ``replay()``.
- Actions :class:`Play`, :class:`Draw`, :class:`Pass`, :class:`Resign`, with
  :func:`encode_action` / :func:`decode_action` for storage.
"""

from domino.actions import Action, Draw, Pass, Play, Resign, decode_action, encode_action
from domino.errors import DominoError, IllegalAction
from domino.forced import forced_action
from domino.match import SCHEMA_VERSION, Match
from domino.rules import FLAG_OPTIONS, OPTION_CHOICES, PRESETS, STAGED, Ruleset, preset
from domino.tiles import Tile, tile_set
from domino.views import BONUS_NAMES, Bonus, Event, HandResult, Outcome, View

__all__ = [
    "BONUS_NAMES",
    "FLAG_OPTIONS",
    "OPTION_CHOICES",
    "PRESETS",
    "SCHEMA_VERSION",
    "STAGED",
    "Action",
    "Bonus",
    "DominoError",
    "Draw",
    "Event",
    "HandResult",
    "IllegalAction",
    "Match",
    "Outcome",
    "Pass",
    "Play",
    "Resign",
    "Ruleset",
    "Tile",
    "View",
    "decode_action",
    "encode_action",
    "forced_action",
    "preset",
    "tile_set",
]
