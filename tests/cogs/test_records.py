"""/domino leaderboard, stats, history and privacy, end to end through the fake Discord."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.client import DominoBot
from bot.i18n import tr
from bot.records.record import computer_id
from bot.records.service import Records
from bot.store import POSTGRES, SQLITE
from tests.bot.test_records_support import computer, duel, hand, human, make_record
from tests.cogs.helpers import (
    TestBot,
    answer,
    button,
    factory,
    new_table,
    settings_for,
    start_with_computers,
)
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot


def records_of(bot: DominoBot) -> Records:
    cog = bot.get_cog("Records")
    assert cog is not None, bot.cogs
    return cog.records  # type: ignore[attr-defined,no-any-return]


def lb_button(message: StoredMessage, direction: str) -> str:
    """The custom id of a leaderboard's Previous ("p") or Next ("n") button."""
    for cid in message.custom_ids():
        if cid.startswith(f"records:lb:{direction}:"):
            return cid
    raise LookupError(message.custom_ids())


def places(message: StoredMessage) -> list[str]:
    """The names listed on a leaderboard page, in order."""
    text = message.embeds[0]["description"]
    return [
        line.split("** ", 1)[1].split(" — ", 1)[0]
        for line in text.splitlines()
        if line.startswith("**")
    ]


async def test_commands_join_the_domino_group(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        group = fake.find_command("domino", fake.guild_id)
        assert group is not None
        names = {o["name"] for o in group["options"]}
        assert {"new", "rules", "leaderboard", "stats", "history", "privacy"} <= names
        board = next(o for o in group["options"] if o["name"] == "leaderboard")
        variant = next(o for o in board["options"] if o["name"] == "variant")
        values = [c["value"] for c in variant["choices"]]
        assert values[:3] == ["partnership", "two-player", "three-player"]
        assert {"partners", "seven-seven", "draw", "penalty", "three"} <= set(values)


async def test_leaderboard_pages_for_its_owner_and_copies_for_others(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        # 23 players each beat the same loser, player k k times: a clear order by wins.
        table = 0
        for k in range(1, 24):
            for _ in range(k):
                table += 1
                await duel(records, table, 5000 + k, 1001, guild_id=fake.guild_id, at=1e9 + table)
        result = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"by": "wins"})
        message = result.message
        assert message is not None and not result.ephemeral
        embed = message.embeds[0]
        assert embed["title"] == "Most wins: All variants, this server"
        assert places(message) == [f"P{5000 + k}" for k in range(23, 13, -1)]
        assert "Page 1 of 3 · 24 players · you: #24" in embed["footer"]["text"]
        assert message.component(lb_button(message, "p"))["disabled"]  # type: ignore[index]

        # The owner pages: the message itself changes.
        moved = await fake.click(alice, message, lb_button(message, "n"))
        assert moved.type == 7
        assert places(message)[0] == "P5013" and "Page 2 of 3" in message.text()
        await fake.click(alice, message, lb_button(message, "n"))
        assert places(message) == ["P5003", "P5002", "P5001", "Alice"]  # her public name
        assert message.component(lb_button(message, "n"))["disabled"]  # type: ignore[index]

        # Someone else pages: he gets his own copy, the message stays.
        other = await fake.click(bob, message, lb_button(message, "p"))
        assert other.type == 4 and other.ephemeral
        assert other.message is not None and "Page 2 of 3" in other.message.text()
        assert "Page 3 of 3" in message.text()
        # ...which he may page himself.
        again = await fake.click(bob, other.message, lb_button(other.message, "p"))
        assert again.type == 7 and "Page 1 of 3" in other.message.text()

    # After a restart the buttons still work.
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")):
        back = await fake.click(alice, message, lb_button(message, "p"))
        assert back.type == 7 and "Page 2 of 3" in message.text()


async def test_stale_leaderboard_button_is_answered_privately(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        for k in range(24):
            await duel(records, k + 1, 7000 + k, 1001, guild_id=fake.guild_id, at=1e9 + k)
        result = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"by": "wins"})
        message = result.message
        assert message is not None
        old_next = lb_button(message, "n")
        await fake.click(alice, message, old_next)
        assert "Page 2 of 3" in message.text() and old_next not in message.custom_ids()

        # A client still showing the first page clicks its Next.
        real = StoredMessage.component

        def component(self: StoredMessage, cid: str) -> Any:
            if cid == old_next:
                return {"type": 2, "custom_id": cid, "style": 2, "label": "Next"}
            return real(self, cid)

        monkeypatch.setattr(StoredMessage, "component", component)
        stale = await fake.click(alice, message, old_next)
        assert await answer(stale) == "This button is out of date: use the latest message."
        assert "Page 2 of 3" in message.text()


async def test_leaderboard_by_rating_with_computers_and_global_scope(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        for i in range(5):  # the rating boards' minimum
            await records.record_match(
                make_record(
                    i + 1,
                    "partners",
                    [human(1001, "Alice"), human(1002, "Bob"), human(1003, "Cid"), human(1004)],
                    [hand(1, "domino", 0, 0, [100, 0])],
                    winner_side=0,
                    guild_id=999,  # another server
                    started_at=1e9 + i * 1000,
                )
            )
        here = await fake.slash(alice, fake.channel_id, "domino leaderboard", {})
        assert here.message is not None
        assert "Nobody is on this leaderboard yet." in here.message.text()
        assert here.message.embeds[0]["title"] == "Ratings: Partnership games, this server"
        everywhere = await fake.slash(
            alice, fake.channel_id, "domino leaderboard", {"scope": "global", "variant": "partners"}
        )
        assert everywhere.message is not None
        assert places(everywhere.message)[:2] == ["Alice", "Cid"]
        assert "you: #1" in everywhere.message.text()
        # Five matches of partners leave a rating uncertain: provisional, marked "?".
        assert re.search(r"— \*\*\d[\d,.]*\?\*\* ·", everywhere.message.text())


async def test_a_resigned_match_is_recorded_and_shows_in_stats_and_history(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        result, tid = await new_table(fake, bot, alice, variant="draw")
        assert result.message is not None
        await start_with_computers(fake, bot, alice, result.message)
        left = await fake.slash(alice, fake.channel_id, "domino leave", {})
        assert left.message is not None and "Resign?" in left.content
        confirmed = await fake.click(alice, left.message, button(left.message, "resignok"))
        await confirmed.wait_for_edits(1)
        records = records_of(bot)
        await fake.wait_for(lambda: bot.svc.open_tables() == [])
        await bot.svc.idle()
        assert not await records.record(tid)  # the observer recorded it already

        stats = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (shown,) = await stats.wait_for_followups(1)
        assert shown.ephemeral  # private unless she shares them
        text = shown.text()
        assert "Statistics of Alice" in text
        assert "Matches: 1 · wins 0 (0%) · losses 1 · draws 0" in text
        assert "Two-player games: **" in text and "(one rated match)" in text
        assert "vs computers: easy 0–1" in text
        picture = shown.attachment("rating.png")
        assert picture is not None and picture.is_png
        # The picture in words too (the only picture that lacked them), from the first match.
        assert picture.description is not None
        assert picture.description.startswith("Rating over time of Alice. Two-player games: ")
        said = picture.description
        assert "from 1,000 to " in said and "in one rated match" in said

        # The people's board: no computer on it, and no Previous/Next on its one page (by
        # wins: one match is below the rating board's minimum, which says so).
        rated = await fake.slash(
            alice, fake.channel_id, "domino leaderboard", {"variant": "two-player"}
        )
        shown_rated = rated.message if rated.message is not None else rated.initial
        assert shown_rated is not None and "Alice" not in shown_rated.text()
        assert "Players are listed after 5 matches" in shown_rated.text()
        board = await fake.slash(
            alice, fake.channel_id, "domino leaderboard", {"variant": "two-player", "by": "wins"}
        )
        shown_board = board.message if board.message is not None else board.initial
        assert shown_board is not None and "Alice" in shown_board.text()
        assert "Computer" not in shown_board.text() and shown_board.buttons() == []

        history = await fake.slash(alice, fake.channel_id, "domino history", {})
        assert history.message is not None
        line = history.message.embeds[0]["description"]
        assert line.startswith("❌ **Loss** · ") and "against Computer (easy)" in line

        # The computer's figures count too.
        easy = await records.stats(computer_id("easy"))
        assert easy.overall["all"].wins == 1

        nothing = await fake.slash(bob, fake.channel_id, "domino stats", {})
        assert await answer(nothing) == "No recorded matches to show for Bob."
        theirs = await fake.slash(bob, fake.channel_id, "domino history", {"user": alice})
        assert theirs.message is not None and "Recent matches of Alice" in theirs.message.text()


async def test_privacy_buttons_hide_from_global_and_server_separately(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        await duel(records, 1, 1001, 1002, guild_id=fake.guild_id)
        result = await fake.slash(alice, fake.channel_id, "domino privacy", {})
        message = result.message
        assert message is not None and result.ephemeral
        assert "Global leaderboards: **shown**" in message.text()
        leave_global = next(c for c in message.custom_ids() if c.endswith(":0:1"))
        await fake.click(alice, message, leave_global)
        assert "Global leaderboards: **hidden**" in message.text()
        assert "This server's leaderboards: **shown**" in message.text()

        async def names(scope: str) -> list[str]:
            board = await fake.slash(
                bob, fake.channel_id, "domino leaderboard", {"scope": scope, "by": "wins"}
            )
            assert board.message is not None
            return places(board.message)

        assert await names("global") == ["Bob"]
        assert await names("server") == ["Alice", "Bob"]

        leave_server = next(c for c in message.custom_ids() if c.endswith(f":{fake.guild_id}:1"))
        await fake.click(alice, message, leave_server)
        assert "This server's leaderboards: **hidden**" in message.text()
        assert await names("server") == ["Bob"]
        assert await records.hidden_scopes(1001) == {0, fake.guild_id}
        # Others no longer see her figures here either.
        hidden = await fake.slash(bob, fake.channel_id, "domino stats", {"user": alice})
        assert await answer(hidden) == "No recorded matches to show for Alice."

        back = next(c for c in message.custom_ids() if c.endswith(":0:0"))
        await fake.click(alice, message, back)
        assert await names("global") == ["Alice", "Bob"]


async def test_records_alone_make_their_own_domino_group(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    settings = settings_for(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, lambda: DominoBot(settings, extensions=["cogs.records"])) as bot:
        group = fake.find_command("domino", fake.guild_id)
        assert {o["name"] for o in group["options"]} == {
            "leaderboard",
            "stats",
            "history",
            "privacy",
            "forget-me",
        }
        await duel(records_of(bot), 1, 1001, 1002, guild_id=fake.guild_id)
        board = await fake.slash(alice, fake.channel_id, "domino leaderboard", {"by": "wins"})
        assert board.message is not None and places(board.message) == ["Alice", "P1002"]


@pytest.fixture(params=[SQLITE, POSTGRES])
def any_backend(
    request: pytest.FixtureRequest, fake_discord: FakeDiscord, tmp_path: Path
) -> Callable[[], TestBot]:
    """A bot on a SQLite file, or on a throw-away PostgreSQL database."""
    settings = settings_for(fake_discord, tmp_path / "db.sqlite3")
    if request.param == POSTGRES:
        url = request.getfixturevalue("postgres_databases").migrated()
        settings = replace(settings, database_path=None, database_url=url)
    return lambda: TestBot(settings)


async def test_stats_count_results_against_each_computer_level(
    fake_discord: FakeDiscord, any_backend: Callable[[], TestBot]
) -> None:
    """Our decision: a match counts once against each computer level among the player's
    opponents (a computer partner does not count); wins–losses, draws apart."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, any_backend) as bot:
        records = records_of(bot)
        tables = iter(range(1, 100))

        async def against(levels: list[str], won: bool, guild: int = fake.guild_id) -> None:
            seats = [human(alice.id), *(computer(level) for level in levels)]
            points = [0] * len(seats)
            points[0 if won else 1] = 100
            await records.record_match(
                make_record(
                    next(tables),
                    "draw" if len(seats) == 2 else "three",
                    seats,
                    [hand(1, "domino", 0 if won else 1, 0 if won else 1, points)],
                    winner_side=0 if won else 1,
                    guild_id=guild,
                )
            )

        for won in (True, True, True, True, False):
            await against(["easy"], won)
        await against(["easy", "hard"], True)  # counts against easy and against hard
        await against(["hard"], True)
        for _ in range(4):
            await against(["hard"], False)
        for _ in range(3):
            await against(["expert"], False)
        await against(["expert"], True, guild=999)  # on another server
        await records.record_match(  # a drawn match
            make_record(
                next(tables),
                "draw",
                [human(alice.id), computer("expert")],
                [hand(1, "block", None, None, [0, 0])],
                winner_side=None,
                draw=True,
                guild_id=fake.guild_id,
            )
        )
        await records.record_match(  # a computer partner: not a match against computers
            make_record(
                next(tables),
                "partners",
                [human(alice.id), human(1002), computer("normal"), human(1003)],
                [hand(1, "domino", 0, 0, [100, 0])],
                winner_side=0,
                guild_id=fake.guild_id,
            )
        )

        expected = {
            "en-US": (
                "vs computers: easy 5–1, hard 2–4, expert 1–3 (1 drawn)",
                "vs computers: easy 5–1, hard 2–4, expert 0–3 (1 drawn)",
            ),
            "es-ES": (
                "contra la máquina: fácil 5–1, difícil 2–4, experto 1–3 (empates: 1)",
                "contra la máquina: fácil 5–1, difícil 2–4, experto 0–3 (empates: 1)",
            ),
            "es-419": (
                "contra la computadora: fácil 5–1, difícil 2–4, experto 1–3 (empates: 1)",
                "contra la computadora: fácil 5–1, difícil 2–4, experto 0–3 (empates: 1)",
            ),
            "pt-BR": (
                "contra o computador: fácil 5–1, difícil 2–4, especialista 1–3 (empates: 1)",
                "contra o computador: fácil 5–1, difícil 2–4, especialista 0–3 (empates: 1)",
            ),
        }
        for locale, (everywhere, here) in expected.items():
            asked = await fake.slash(alice, fake.channel_id, "domino stats", {}, locale=locale)
            (shown,) = await asked.wait_for_followups(1)
            texts = [c["content"] for c in shown.all_components() if c.get("type") == 10]
            # Her figures everywhere differ from this server's: two blocks, each titled.
            overall, server = texts[-1].split("\n**")[-2:]
            assert overall.startswith("**" + tr(locale, "Everywhere") + "**"), locale
            assert server.startswith(tr(locale, "On this server") + "**"), locale
            assert overall.splitlines()[-1] == everywhere, locale
            assert server.splitlines()[-1] == here, locale
            assert "normal" not in overall and "normal" not in server
