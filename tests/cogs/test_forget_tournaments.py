"""``/domino forget-me`` reaches the tournaments: his entry in a running event is withdrawn, he
becomes "a former player" in what is posted afterwards, and no tournament table keeps his id
or his name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.cogs.helpers import FakeClock, factory, forget_me
from tests.fakediscord import FakeDiscord, running_bot
from tests.tournament.test_discord import (
    check_in_all,
    click_in,
    play_out,
    public,
    step,
    titled,
    tournament_cog,
)

NAME = "Zelda Forgotten"


def rows_naming(db: Path, user_id: int, name: str) -> list[tuple[str, tuple[object, ...]]]:
    """Every row of every tournament table (read from the schema) holding the id or name."""
    with sqlite3.connect(db) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tournament%'"
            )
        ]
        assert {"tournaments", "tournament_entries", "tournament_people", "tournament_boards",
                "tournament_checkins", "tournament_corrections"} <= set(tables)
        found = []
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                if any(v == user_id or (isinstance(v, str) and (str(user_id) in v or name in v))
                       for v in row):
                    found.append((table, row))
    return found


async def test_forget_me_withdraws_and_anonymises_a_tournament_entrant(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    host = fake.owner
    zelda = fake.add_user(3000, "zelda", NAME)
    people = [zelda, *(fake.add_user(3001 + i, f"player{i}", f"Player {i}") for i in range(3))]
    others = people[1:]
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, factory(fake, db, clock=clock)) as bot:
        created = await fake.slash(
            host, fake.channel_id, "domino tournament create",
            {"name": "Cup",
            "checkin": True,
            "variant": "draw", "format": "single", "rounds": 2, "hands": 1},
        )
        assert "open for registration" in created.text(), created.text()
        await step(bot, clock)
        for user in people:
            answer = await fake.slash(user, fake.channel_id, "domino tournament register", {})
            assert "registered" in answer.text(), answer.text()
        await fake.slash(host, fake.channel_id, "domino tournament start", {})
        await step(bot, clock)
        await check_in_all(fake, bot, people, 1)
        await step(bot, clock, 600)
        await click_in(fake, bot, 1, set())
        event_id = (await tournament_cog(bot).events.find(fake.guild_id, fake.channel_id)).id
        await play_out(fake, bot, clock, event_id, 1)
        (after_one,) = titled(fake, "Cup: standings after round 1")
        assert NAME in after_one.text()

        seen = len(public(fake))
        await forget_me(fake, zelda)
        state = await tournament_cog(bot).events.state(event_id)
        (entry,) = [e for e in state.entries if e.name == ""]
        assert entry.status == "withdrawn" and entry.user_id < 0  # the former player's alias
        assert state.entry_of(zelda.id) is None

        await check_in_all(fake, bot, others, 2)
        await step(bot, clock, 600)
        await click_in(fake, bot, 2, set())
        await play_out(fake, bot, clock, event_id, 2)
        await step(bot, clock)
        assert (await tournament_cog(bot).events.state(event_id)).event.status == "finished"
        posted = public(fake)[seen:]
        (final,) = titled(fake, "Cup: standings after round 2")
        assert final in posted and "a former player" in final.text()
        assert posted and all(NAME not in m.text() for m in posted)
        assert (await tournament_cog(bot).events.state(event_id)).entry_of(zelda.id) is None

        # After the event: Player 0 is forgotten too; its standings name him no more.
        before = await fake.slash(others[0], fake.channel_id, "domino tournament standings", {})
        assert "Player 0" in before.text() and "a former player" in before.text()
        await forget_me(fake, others[0])
        shown = await fake.slash(others[1], fake.channel_id, "domino tournament standings", {})
        assert "Player 0" not in shown.text() and shown.text().count("a former player") == 2
        assert (await tournament_cog(bot).events.state(event_id)).event.status == "finished"
    assert rows_naming(db, zelda.id, NAME) == []
    assert rows_naming(db, others[0].id, "Player 0") == []
