"""Tournaments: Swiss and knockout events of a server, for pairs, individuals and one against one.

The pure part (no Discord, no SQL, no pictures):

- ``model``: the values (``Entrant``, ``TableResult``, ``Bye``, ``Pairing``, ``Standing``,
  ``Bracket``), which formats a variant allows (``formats_for``) and which systems a format
  (``systems_for``), the default number of rounds, late entry.
- ``pairing.pair_swiss(fmt, entrants, results, round_no, seed, *, present=None,
  fill="bye") -> Pairing | None``: a Swiss round by maximum-weight matching (None: no legal
  pairing remains, the event ends).
- ``standings.standings(fmt, entrants, results) -> list[Standing]``: ranks with tie-breaks and
  the tie-break that decided each neighbour pair.
- ``bracket.knockout(fmt, entrants, results, round_no, seed=0, *, seeds=None,
  first_round=1) -> Pairing | None`` and ``bracket.bracket(...) -> Bracket``: single
  elimination seeded by rating (or by a Swiss event's standings, for a playoff), byes to the
  top seeds (None: the bracket has its champion); an individual knockout re-partners the
  people still in every round and sends both winners of a table on (``people_round``).

``docs/tournaments.md`` states the rules and the decisions taken where the sources are silent.
"""
