"""Pictures of the table and of a hand (Pillow), drawn from the engine's views only.

- :func:`render_table(view, names, *, labels=None, last=None) <render.table.render_table>`: the
  public table picture (PNG bytes) from ``match.public_view()``.
- :func:`render_hand(view, *, labels=None) <render.hand.render_hand>`: one seat's own
  tiles (PNG bytes) from ``match.view(seat)``, for an ephemeral reply.
- :func:`last_moves(view, timed_out) <render.moves.last_moves>`: each seat's latest move
  (:class:`LastMove`), for ``render_table(..., last=...)``.
- :func:`render_replay(views, names, *, opening=None, labels=None) <render.replay.render_replay>`:
  an animated GIF: the deal, then one frame per public view (the table after each move), with
  a move counter; :func:`~render.replay.write_replay` streams it into a file.
- :data:`LABELS`: every word drawn (key -> English); pass translations as ``labels``.
- :func:`table_layout` / :func:`hand_layout`: the geometry, for tests.
- :func:`warm_up`: draw once, at start-up, what every table's first pictures share.
"""

from render.hand import hand_layout, render_hand
from render.layout import Layout, layout_line
from render.moves import LastMove, last_moves
from render.replay import render_replay
from render.table import LABELS, render_table, table_layout
from render.warm import warm_up

__all__ = ["LABELS", "LastMove", "Layout", "hand_layout", "last_moves", "layout_line",
           "render_hand", "render_replay", "render_table", "table_layout", "warm_up"]
