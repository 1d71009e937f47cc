"""``/domino stats`` and ``/domino achievements`` through the fake Discord: private unless
shared (the ``share`` option or the Share button), compact, one block where everywhere is this
server; the Share button refused to anyone else and working across a restart; how tall they
are on a phone (a mock-up photographed in headless Chromium at 380 px)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import tr
from tests.bot.test_records_support import duel
from tests.cogs.helpers import answer, factory
from tests.cogs.test_records import records_of
from tests.cogs.test_table_ui import forged_click
from tests.fakediscord import FakeDiscord, StoredMessage, running_bot
from tests.fakediscord.mockup import message_html, screenshot
from tests.web.browser import CHROMIUM, DRIVER, find

EVERYWHERE_HERE = "**Everywhere and on this server**"


def share_of(message: StoredMessage) -> str:
    (cid,) = [b["custom_id"] for b in message.buttons() if b.get("custom_id", "").startswith(
        "screen:share:")]
    return cid


def height(message: StoredMessage, folder: Path, names: dict[int, str]) -> int:
    """How tall the message is on a phone, in CSS px (its mock-up photographed)."""
    out = folder / f"{message.id}.png"
    screenshot(message_html(message, names, now=0), out)
    shot = Image.open(io.BytesIO(out.read_bytes()))
    return shot.height


async def test_stats_are_private_compact_and_shared_on_demand(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    make = factory(fake, tmp_path / "db.sqlite3")
    async with running_bot(fake, make) as bot:
        records = records_of(bot)
        await duel(records, 1, alice.id, bob.id, guild_id=fake.guild_id)
        await duel(records, 2, bob.id, alice.id, guild_id=fake.guild_id, at=2_000.0)

        asked = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (mine,) = await asked.wait_for_followups(1)
        assert mine.ephemeral and mine.v2
        text = mine.text()
        # Every match of hers was played here: one block, said to be both.
        assert text.count(EVERYWHERE_HERE) == 1 and "**On this server**" not in text
        assert "Matches: 2 · wins 1 (50%) · losses 1 · draws 0" in text
        assert len(text.splitlines()) <= 12, text
        (chart, alt), = mine.media()
        assert chart is not None and chart.filename == "rating.png" and alt
        assert [b.get("label") for b in mine.buttons()] == ["Share"]

        # Bob forges a press of her Share: refused to him alone, nothing posted.
        posted = len(fake.messages(fake.channel_id))
        forged = await forged_click(fake, bob, mine, share_of(mine))
        assert await answer(forged) == "Only the person who asked for this can use its buttons."
        assert len(fake.messages(fake.channel_id)) == posted

        spanish = await fake.slash(alice, fake.channel_id, "domino stats", {}, locale="es-ES")
        (suyo,) = await spanish.wait_for_followups(1)
        assert suyo.ephemeral and "**En todos los servidores y en este**" in suyo.text()
        assert [b.get("label") for b in suyo.buttons()] == ["Compartir"]

    # After a restart her Share button still posts her figures for everyone.
    async with running_bot(fake, make) as bot:
        shared = await fake.click(alice, mine, share_of(mine))
        (public,) = await shared.wait_for_followups(1)
        assert not public.ephemeral and public.channel_id == fake.channel_id
        assert "Statistics of Alice" in public.text() and EVERYWHERE_HERE in public.text()
        assert public.buttons() == [] and public.attachment("rating.png") is not None
        # A match elsewhere: the two blocks differ, each is shown under its name.
        await duel(records_of(bot), 3, alice.id, bob.id, guild_id=999, at=3_000.0)
        direct = await fake.slash(alice, fake.channel_id, "domino stats", {"share": True})
        (both,) = await direct.wait_for_followups(1)
        assert not both.ephemeral and both.buttons() == []
        said = both.text()
        assert "**Everywhere**\nMatches: 3 · wins 2" in said
        assert "**On this server**\nMatches: 2 · wins 1" in said
        assert tr("es-ES", "Everywhere and on this server") not in said


async def test_the_screens_fit_a_phone(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Measured on a mock-up at 380 px: the private stats and achievements answers stay
    within 800 px (they were 925 to 1,424 px)."""
    if find(CHROMIUM, "chromium") is None or find(DRIVER, "chromedriver") is None:
        pytest.skip("no Chromium here")
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    names = {alice.id: "Alice", bob.id: "Bob"}
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        records = records_of(bot)
        await duel(records, 1, alice.id, bob.id, guild_id=fake.guild_id)
        await duel(records, 2, alice.id, bob.id, guild_id=999, at=2_000.0)
        stats = await fake.slash(alice, fake.channel_id, "domino stats", {})
        (figures,) = await stats.wait_for_followups(1)
        mine = await fake.slash(alice, fake.channel_id, "domino achievements", {})
        (badges,) = await mine.wait_for_followups(1)
        tall = {
            "stats": height(figures, tmp_path, names),
            "achievements": height(badges, tmp_path, names),
        }
        print("heights at 380 px:", tall)
        assert tall["stats"] <= 800 and tall["achievements"] <= 800, tall
