"""The database is private to the bot's user: it holds every live match's seed."""

from __future__ import annotations

import stat
from pathlib import Path

from bot.store import Store
from tests.cogs.helpers import factory, new_table
from tests.fakediscord import FakeDiscord, running_bot


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_database_and_its_folder_are_created_private(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    db = tmp_path / "data" / "bot" / "domino.sqlite3"
    async with running_bot(fake, factory(fake, db)) as bot:
        await new_table(fake, bot, alice, variant="draw")
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
        assert all(f.exists() for f in files)
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700


async def test_an_existing_readable_database_is_made_private(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    async with await Store.open(db):
        pass
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{db}{suffix}")
        if path.exists():
            path.chmod(0o644)
    before = mode(tmp_path)
    async with await Store.open(db):
        assert mode(db) == 0o600 and mode(Path(f"{db}-wal")) == 0o600
    assert mode(tmp_path) == before
