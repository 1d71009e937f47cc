"""Finished matches for the review tests, played through the table service."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.tables.service import TableService
from domino import Action, Match, Play, Resign, Ruleset, decode_action

ANA, BEA, CAI, DOV, EVE = 101, 102, 103, 104, 105


async def play_out(
    service: TableService, table_id: int, users: Sequence[int], seed: int = 0,
    *, stop_at: int | None = None, like_buttons: bool = False,
) -> None:
    """The seated people make random legal moves until the match ends (or until ``stop_at``
    moves were made); ``like_buttons``: a tile that fits one end only is played without its
    end, as its button sends it."""
    rng = random.Random(seed)
    moves = 0
    while True:
        info = await service.get(table_id)
        if info.status != "running" or (stop_at is not None and moves >= stop_at):
            return
        for user in users:
            views = await service.views_for(table_id, user)
            acting = [v for v in views if v.legal and v.seat == info.turn]
            if acting:
                legal = [a for a in acting[0].legal if not isinstance(a, Resign)]
                action: Action = rng.choice(legal)
                if like_buttons and isinstance(action, Play):
                    same = [a for a in legal if isinstance(a, Play) and a.tile == action.tile]
                    if len(same) == 1:
                        action = Play(action.tile, None)
                await service.act(table_id, user, action, expected_seq=info.seq)
                moves += 1
                break
        else:
            raise AssertionError(f"nobody of {users} is to move at table {table_id}")


async def finished(
    service: TableService, variant: str = "draw", users: Sequence[int] = (ANA, BEA),
    seed: int = 0, options: dict[str, object] | None = None, guild_id: int = 7001,
    *, like_buttons: bool = False,
) -> int:
    """A match of ``users`` at random, played to its end; its table id."""
    t = await service.create_table(
        host_id=users[0], host_name="Ana", variant=variant, guild_id=guild_id,
        channel_id=900, options=options,
    )
    for user in users[1:]:
        await service.join(t.id, user, f"P{user}")
    await service.start(t.id, users[0])
    await play_out(service, t.id, users, seed, like_buttons=like_buttons)
    await service.idle()
    return t.id


async def real_choices(service: TableService, table_id: int, user: int) -> dict[int, int]:
    """Per hand, the turns where ``user`` himself chose among two or more distinct legal
    moves, counted from the engine alone (the match rebuilt from its log)."""
    store = service.store
    row = await store.matches.get(table_id)
    assert row is not None
    seats = {s.seat for s in await store.seats.list(table_id) if s.user_id == user}
    match = Match.new(Ruleset.from_dict(row.ruleset), row.seed, row.deal)
    counts: dict[int, int] = {}
    for action_row in sorted(await store.actions.list(table_id), key=lambda r: r.seq):
        counts.setdefault(match.hand_number, 0)
        action = decode_action(action_row.action)
        moves = {a for a in match.legal_actions() if not isinstance(a, Resign)}
        if (action_row.seat in seats and action_row.made_by in (None, "player")
                and not isinstance(action, Resign) and len(moves) >= 2):
            counts[match.hand_number] += 1
        match = (match.apply(action) if isinstance(action, Resign)
                 else match.apply(action, action_row.seat))
    return counts
