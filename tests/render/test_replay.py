"""Replays: a stored match rebuilt from its action log, animated one frame per move."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.errors import ServiceError, TableNotFound
from bot.replay import StoredMatch, load, rebuild, replay_gif
from bot.store import SeatRow, Store
from domino import Match, encode_action, preset
from render.replay import HAND_END_MS, LAST_MS, MOVE_MS, ReplayTooLarge, render_replay

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def _played(pid: str, seed: int, hands: int | None = None) -> Match:
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    while m.outcome is None and (hands is None or m.hand_number <= hands):
        m = m.apply(rng.choice(m.legal_actions()))
    return m


async def _store_match(store: Store, m: Match) -> int:
    """Write ``m`` as the bot does: a table, its seats, the match row and every action."""
    table = await store.tables.create(host_id=1, variant=m.ruleset.id, options={}, now=0.0)
    for seat in range(m.ruleset.seats):
        await store.seats.put(SeatRow(table.id, seat, None, NAMES[seat], "computer", "easy"))
    await store.matches.create(table.id, ruleset=m.ruleset.to_dict(), seed=int(m.seed),
                               now=0.0, deal=m.deal)
    for seq, (seat, action) in enumerate(m.history):
        await store.actions.append(table.id, seq, seat, encode_action(action), now=float(seq))
    return table.id


def _frames(gif: bytes) -> list[int]:
    """The duration of each frame of an animated picture, as decoded."""
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    out = []
    for i in range(img.n_frames):
        img.seek(i)
        out.append(img.info["duration"])
    return out


async def test_a_stored_match_replays_one_frame_per_move(tmp_path: Path) -> None:
    m = _played("partners", 5, hands=2)
    store = await Store.open(tmp_path / "replay.sqlite3")
    try:
        table_id = await _store_match(store, m)
        stored = await load(store, table_id)
    finally:
        await store.close()
    assert [s.name for s in stored.seats] == NAMES
    assert len(stored.frames) == len(m.history)
    assert stored.frames[-1].view == m.public_view()
    assert stored.hands == (1, 2, 3)[: len(stored.hands)] and stored.hands[:2] == (1, 2)
    names = [s.name for s in stored.seats]
    first = stored.select(1)
    gif = replay_gif(stored, names, hand=1)
    durations = _frames(gif)
    assert len(durations) == len(first)
    assert durations[-1] == LAST_MS
    assert HAND_END_MS not in durations[:-1]  # the hand ends on the last frame only
    assert len(gif) < 8_000_000
    whole = _frames(replay_gif(stored, names))
    assert len(whole) == len(stored.frames)
    # Each hand's end stays longer on screen; the last one is the final frame, longer still.
    assert len(m.hand_results) == 2 and m.public_view().events == ()
    assert whole.count(HAND_END_MS) == 1 and whole[len(first) - 1] == HAND_END_MS


async def test_a_table_without_a_match_or_a_hand_out_of_range_is_refused(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "none.sqlite3")
    try:
        with pytest.raises(TableNotFound, match="No match"):
            await load(store, 99)
    finally:
        await store.close()
    m = _played("draw", 2, hands=1)
    from bot.store import ActionRow, MatchRow

    row = MatchRow(7, m.ruleset.to_dict(), int(m.seed), None, 0.0, None, None)
    acts = [ActionRow(7, i, s, encode_action(a), 0.0) for i, (s, a) in enumerate(m.history)]
    stored = StoredMatch(7, rebuild(row, acts), ())
    with pytest.raises(ServiceError, match="Hand 9 has no moves"):
        stored.select(9)
    empty = StoredMatch(7, (), ())
    for hand in (None, 1):  # refused before anything is drawn or posted
        with pytest.raises(ServiceError, match="no moves to replay yet"):
            empty.select(hand)
    with pytest.raises(ServiceError, match="missing"):
        rebuild(row, acts[1:])
    bad = [*acts[:3], ActionRow(7, 3, 0, "play 9-9 left", 0.0)]
    with pytest.raises(ServiceError, match="does not replay"):
        rebuild(row, bad)


def test_a_hand_replay_holds_one_frame_per_view_and_fits_the_limit() -> None:
    m = Match.new(preset("cuban"), 3)
    rng = random.Random(3)
    views = []
    while m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
        views.append(m.public_view())
    gif = render_replay(views, NAMES)
    durations = _frames(gif)
    assert len(durations) == len(views)
    assert durations[0] == MOVE_MS and durations[-1] == LAST_MS
    assert Image.open(io.BytesIO(gif)).size == (1024, 832)
    small = render_replay(views[:3], NAMES, max_bytes=len(render_replay(views[:3], NAMES)) - 1)
    assert Image.open(io.BytesIO(small)).width < 1024  # shrunk to fit the limit
    with pytest.raises(ReplayTooLarge):
        render_replay(views[:3], NAMES, max_bytes=1000)
    with pytest.raises(ValueError, match="public"):
        render_replay([m.view(0)], NAMES)


async def test_a_match_the_service_played_replays_move_for_move(tmp_path: Path) -> None:
    """The table service and store record a whole match (the offline demo's path); the
    replay rebuilt from that log shows every move and ends where the match ended."""
    from bot.demo import DEMO_DB_NAME, run_demo

    result = await run_demo("draw", tmp_path, seed=3, level="easy", renderer=False,
                            keep_db=True)
    assert result.outcome is not None
    store = await Store.open(tmp_path / DEMO_DB_NAME)
    try:
        stored = await load(store, result.table.id)
    finally:
        await store.close()
    assert len(stored.frames) == result.moves
    assert stored.frames[-1].view == result.table.public_view()
    assert len(stored.hands) == len(result.hands)
    hand = stored.hands[-1]
    gif = replay_gif(stored, [s.name for s in stored.seats], hand=hand)
    assert len(_frames(gif)) == len(stored.select(hand)) >= 1
