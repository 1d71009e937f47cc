"""Replays: a stored match rebuilt from its action log and streamed into an animated GIF (the
deal, then one frame per move with a counter), at a bounded cost."""

from __future__ import annotations

import io
import os
import random
import stat
import tempfile
from pathlib import Path

import pytest
from PIL import Image

import render.replay as render_replay_module
from benchmarks.replay import NAMES, store_match
from bot.errors import ServiceError, TableNotFound
from bot.store import ActionRow, MatchRow, Store
from bot.tables import replay
from bot.tables.replay import Plan, Refusal, Replays, draw_file, plan, rebuild, replay_views
from domino import Match, encode_action, preset
from render.replay import (
    HAND_END_MS,
    LAST_MS,
    MOVE_MS,
    OPENING_MS,
    ReplayTooLarge,
    opening_view,
    render_replay,
    width_for,
    write_replay,
)
from render.table import HEIGHT


def _played(pid: str, seed: int, hands: int | None = None) -> Match:
    rng = random.Random(seed)
    m = Match.new(preset(pid), seed)
    while m.outcome is None and (hands is None or m.hand_number <= hands):
        m = m.apply(rng.choice(m.legal_actions()))
    return m


def _rows(m: Match, table_id: int = 7) -> tuple[MatchRow, list[ActionRow]]:
    row = MatchRow(table_id, m.ruleset.to_dict(), int(m.seed), m.deal, 0.0, None, None)
    acts = [ActionRow(table_id, i, s, encode_action(a), 0.0) for i, (s, a) in enumerate(m.history)]
    return row, acts


def _durations(gif: bytes) -> list[int]:
    """The duration of each frame of an animated picture, as decoded."""
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    out = []
    for i in range(img.n_frames):
        img.seek(i)
        out.append(img.info["duration"])
    return out


def test_a_hand_replay_opens_on_the_deal_and_counts_its_moves() -> None:
    """The replay opens on the deal, then shows each move about 1.3 s with a move counter
    ("Move 3 of 25") under the table, and holds the last frame longer."""
    m = Match.new(preset("cuban"), 3)
    opening = m.public_view()
    rng = random.Random(3)
    views = []
    while m.hand_number == 1:
        m = m.apply(rng.choice(m.legal_actions()))
        views.append(m.public_view())
    gif = render_replay(views, NAMES, opening=opening)
    durations = _durations(gif)
    assert len(durations) == len(views) + 1
    assert durations[0] == OPENING_MS and durations[1] == MOVE_MS == 1300
    assert durations[-1] == LAST_MS
    img = Image.open(io.BytesIO(gif))
    assert img.size == (1024, HEIGHT + render_replay_module.STRIP)
    # The counter strip changes every frame: frame 2 and 3 differ there.
    img.seek(2)
    two = img.convert("RGB").crop((0, HEIGHT, 1024, img.height))
    img.seek(3)
    three = img.convert("RGB").crop((0, HEIGHT, 1024, img.height))
    assert two.tobytes() != three.tobytes()
    with pytest.raises(ValueError, match="public"):
        render_replay(views, NAMES, opening=m.view(0))
    with pytest.raises(ReplayTooLarge):
        render_replay(views[:3], NAMES, opening=opening, max_bytes=1000)


def test_the_counter_is_translated() -> None:
    m = Match.new(preset("draw"), 1)
    opening = m.public_view()
    m = m.apply(m.legal_actions()[0])
    labels = {"move": "Jugada {number} de {total}", "deal": "El reparto"}
    drawn: list[str] = []
    real = render_replay_module._with_strip

    def spy(img: Image.Image, text: str, done: float) -> Image.Image:
        drawn.append(text)
        return real(img, text, done)

    render_replay_module._with_strip = spy  # type: ignore[assignment]
    try:
        render_replay([m.public_view()], NAMES[:2], opening=opening, labels=labels)
    finally:
        render_replay_module._with_strip = real  # type: ignore[assignment]
    assert drawn == ["El reparto", "Jugada 1 de 1"]


def test_frames_are_streamed_not_held() -> None:
    """Our decision: a replay never holds all its frames. Each frame is written to the file
    before the next view is even made, so memory does not grow with the length."""
    m = _played("partners", 5, hands=1)
    row, acts = _rows(m)
    opening, views, total = replay_views(row, acts, 1)
    out = io.BytesIO()
    sizes: list[int] = []

    def watched():  # type: ignore[no-untyped-def]
        for view in views:
            sizes.append(out.tell())
            yield view

    write_replay(out, opening, watched(), total, NAMES)
    assert len(sizes) == total > 5
    # the file grows while views are still being made (a frame is held back at most)
    assert sizes[2] > sizes[1] > sizes[0] > 0 and sizes[-1] > sizes[total // 2]


def test_what_cannot_fit_is_refused_before_anything_is_drawn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def no_drawing(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("drawn")

    monkeypatch.setattr(render_replay_module, "draw_table", no_drawing)
    with pytest.raises(ReplayTooLarge):
        width_for(2000)
    assert width_for(50) == 1024 and width_for(400) < 1024
    m = _played("partners", 5, hands=1)
    row, acts = _rows(m)
    moves = sum(1 for _ in replay_views(row, acts, 1)[1])
    out = tmp_path / "x.gif"
    refused = draw_file(row, acts, 1, NAMES, None, str(out), most=moves - 1)
    assert refused == Refusal("This hand is too long for one picture ({moves} moves).",
                              {"moves": moves})
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert isinstance(draw_file(row, acts, 9, NAMES, None, str(out)), Refusal)
    assert not out.exists()


def test_a_long_match_replays_each_hand_from_its_deal() -> None:
    """Hand 2's replay opens on hand 2's deal (no tile laid, the scores so far), not on the
    board of hand 1."""
    m = _played("partners", 5, hands=2)
    row, acts = _rows(m)
    opening, views, total = replay_views(row, acts, 2)
    assert opening.hand_number == 2 and opening.line == () and opening.hand_results == ()
    assert opening.hand_sizes == (7, 7, 7, 7) and opening.outcome is None
    listed = list(views)
    assert len(listed) == total == sum(1 for h in hands_of(m) if h == 2)
    whole_opening, whole, count = replay_views(row, acts, None)
    assert whole_opening == Match.new(m.ruleset, m.seed, m.deal).public_view()
    assert count == len(m.history) and list(whole)[-1] == m.public_view()
    assert opening_view(listed[-1]).hand_results == ()


def hands_of(m: Match) -> list[int]:
    out = []
    again = Match.new(m.ruleset, m.seed, m.deal)
    for seat, action in m.history:
        out.append(again.hand_number)
        again = again.apply(action, seat)
    return out


async def test_a_stored_match_is_planned_before_it_is_drawn(tmp_path: Path) -> None:
    """What to draw is decided from a few small queries: an unknown hand or a match without
    moves is refused; a match longer than MAX_MOVES shows its first hand."""
    m = _played("partners", 5, hands=3)
    store = await Store.open(tmp_path / "replay.sqlite3")
    try:
        with pytest.raises(TableNotFound, match="No match"):
            await plan(store, 99, None)
        tid = await store_match(store, m)
        whole = await plan(store, tid, None)
        moves = len(m.history)
        assert moves > replay.MAX_MOVES  # three hands of partners: a long match here
        assert whole == Plan(tid, 1, moves, (1, 2, 3, 4), shortened=True)
        assert (await plan(store, tid, 2)).hand == 2
        with pytest.raises(ServiceError, match="Hand 9 has no moves to replay"):
            await plan(store, tid, 9)
        empty = await store.tables.create(host_id=1, variant="partners", options={}, now=0.0)
        await store.matches.create(empty.id, ruleset=m.ruleset.to_dict(), seed=1, now=0.0)
        with pytest.raises(ServiceError, match="no moves to replay yet"):
            await plan(store, empty.id, None)
    finally:
        await store.close()


async def test_a_replay_is_drawn_once_and_then_read_from_the_cache(tmp_path: Path) -> None:
    """Our decision: a finished match never changes, so its replay is drawn once and kept in
    a private file cache keyed by what is drawn (hand, names, words)."""
    m = _played("partners", 5, hands=1)
    store = await Store.open(tmp_path / "db" / "replay.sqlite3")
    try:
        tid = await store_match(store, m)
        replays = Replays(store, cooldown=0)
        wanted = await plan(store, tid, 1)
        assert replays.cached(wanted, NAMES, None) is None
        with replays.admit(1):
            first = await replays.draw(wanted, NAMES, None)
        assert replays.drawn == 1 and replays.drawing == 0
        assert len(_durations(first.gif)) == first.moves + 1
        again = replays.cached(wanted, NAMES, None)
        assert again == first
        assert replays.cached(wanted, ["A", "B", "C", "D"], None) is None  # other names
        folder = tmp_path / "db" / "replays"
        (kept,) = folder.iterdir()
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    finally:
        await store.close()


async def test_drawings_at_once_and_each_persons_cooldown_are_limited(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "replay.sqlite3")
    now = [100.0]
    try:
        replays = Replays(store, at_once=2, cooldown=15, clock=lambda: now[0])
        one, two = replays.admit(1), replays.admit(2)
        with pytest.raises(ServiceError, match="drawing other replays"):
            replays.admit(3)
        one.release()
        one.release()  # once only
        with replays.admit(3), pytest.raises(ServiceError, match="another replay in 15 seconds"):
            replays.admit(1)
        now[0] += 10
        with pytest.raises(ServiceError, match="another replay in 5 seconds"):
            replays.admit(1)
        now[0] += 5
        replays.admit(1).release()
        two.release()
        assert replays.drawing == 0
    finally:
        await store.close()


async def test_a_match_the_service_played_replays_move_for_move(tmp_path: Path) -> None:
    """The table service and store record a whole match (the offline demo's path); the
    replay rebuilt from that log shows every move of a hand and ends where it ended."""
    from bot.tools.demo import DEMO_DB_NAME, run_demo

    result = await run_demo("draw", tmp_path, seed=3, level="easy", renderer=False,
                            keep_db=True)
    assert result.outcome is not None
    store = await Store.open(tmp_path / DEMO_DB_NAME)
    try:
        wanted = await plan(store, result.table.id, None)
        assert len(wanted.hands) == len(result.hands) and wanted.moves == result.moves
        last = wanted.hands[-1]
        with Replays(store, cooldown=0).admit(1):
            shown = await Replays(store).draw(await plan(store, result.table.id, last),
                                              NAMES[:2], None)
        match = await store.matches.get(result.table.id)
        assert match is not None
        _, views, total = replay_views(match, await store.actions.list(result.table.id), None)
        assert list(views)[-1] == result.table.public_view() and total == result.moves
    finally:
        await store.close()
    durations = _durations(shown.gif)
    assert len(durations) == shown.moves + 1 and durations[-1] == LAST_MS
    assert HAND_END_MS not in durations  # one hand: its end is the last frame


def test_a_broken_log_is_refused() -> None:
    m = _played("draw", 2, hands=1)
    row, acts = _rows(m)
    assert [f.view for f in rebuild(row, acts)][-1] == m.public_view()
    bad = [*acts[:3], ActionRow(7, 3, 0, "play 9-9 left", 0.0)]
    for log, error in ((acts[1:], "missing"), (bad, "does not replay")):
        with pytest.raises(ServiceError, match=error):
            rebuild(row, log)
        with pytest.raises(ServiceError, match=error):
            replay_views(row, log, None)


async def test_a_cache_folder_that_is_not_private_is_never_read(tmp_path: Path) -> None:
    """A replay cache folder of another mode than 0700 (or another owner, or a link) is
    refused: a GIF planted there is not served, and the replay is drawn without being kept.
    On PostgreSQL the folder is the user's own cache folder, not the shared temporary one."""
    m = _played("partners", 5, hands=1)
    store = await Store.open(tmp_path / "db" / "replay.sqlite3")
    try:
        tid = await store_match(store, m)
        replays = Replays(store, cooldown=0)
        wanted = await plan(store, tid, 1)
        with replays.admit(1):
            drawn = await replays.draw(wanted, NAMES, None)
        folder = tmp_path / "db" / "replays"
        (kept,) = folder.iterdir()
        kept.write_bytes(b"GIF89a planted")
        folder.chmod(0o755)  # anyone may look, or (0o777) plant
        assert replays.cached(wanted, NAMES, None) is None
        with replays.admit(2):
            again = await replays.draw(wanted, NAMES, None)
        assert again == drawn and replays.drawn == 2
        assert [p.name for p in folder.iterdir()] == [kept.name]  # nothing kept there
        folder.chmod(0o700)
        if os.getuid() == 0:  # another owner (only root can give a folder away)
            os.chown(folder, 65534, -1)
            assert replays.cached(wanted, NAMES, None) is None
            os.chown(folder, 0, -1)
        linked = tmp_path / "link"
        linked.symlink_to(folder)
        assert Replays(store, folder=linked).cached(wanted, NAMES, None) is None
        assert replays.cached(wanted, NAMES, None) is not None  # private again: read
    finally:
        await store.close()
    elsewhere = replay.cache_folder(_Postgres())  # type: ignore[arg-type]
    assert not str(elsewhere).startswith(tempfile.gettempdir())


class _Postgres:
    """Where a store of PostgreSQL keeps no file."""

    path = None
